"""The Spieltag (an evening of games, :mod:`engine.spieltag`) in the state directory.

Files::

    spieltag.json             the evening in progress: name, venue, date, scheme, league sides
    spieltag-<ID>.json        evenings that were ended

Only beginning and ending an evening write these files, each with one atomic replace (or one
rename), so a pulled plug leaves the old or the new file, never half of one. The games are not
listed here: while an evening is open, :meth:`~firmware.store.gamestore.GameStore.begin` writes
its ID into each new game's journal header (``"spieltag": ID``), so a game belongs to the
evening by its own durable journal, and the standings are recounted from the journals
(:func:`evening_games`). A game that a pulled plug interrupted resumes from its journal and
still belongs to the evening; nothing of it is written twice.

A damaged evening file is refused with one line naming the file and the problem
(:class:`SpieltagError`); it is never changed or deleted.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta

from engine.limits import InputLimitError, json_loads
from engine.spieltag import (
    SPIELTAG_ID,
    Spieltag,
    SpieltagError,
    spieltag_from_mapping,
    spieltag_to_mapping,
)
from hal.ports import Storage, StorageError

__all__ = [
    "META_SPIELTAG", "SPIELTAG_FILE", "SpieltagFiles", "ended_name", "open_spieltag_id",
    "time_box_ends",
]

SPIELTAG_FILE = "spieltag.json"
#: The header field of a game's journal that names its evening.
META_SPIELTAG = "spieltag"
_ENDED = re.compile(r"^spieltag-([0-9A-Za-z-]{1,40})\.json$")
_MAX_BYTES = 256 * 1024


def time_box_ends(spieltag: Spieltag) -> datetime | None:
    """When the Spieltag's time box runs out by the wall clock; None without one."""
    if not spieltag.time_box or not spieltag.began_at:
        return None
    return datetime.fromisoformat(spieltag.began_at) + timedelta(minutes=spieltag.time_box)


def ended_name(spieltag_id: str) -> str:
    """The file name of the ended evening ``spieltag_id``."""
    return f"spieltag-{spieltag_id}.json"


def _parse(storage: Storage, name: str, text: str) -> Spieltag:
    try:
        return spieltag_from_mapping(json_loads(text, max_bytes=_MAX_BYTES))
    except (json.JSONDecodeError, InputLimitError, SpieltagError) as error:
        raise SpieltagError(
            f"{storage.root / name} is damaged ({' '.join(str(error).split())}); it is left as "
            "it is: move it away to begin a new Spieltag"
        ) from None


def open_spieltag_id(storage: Storage) -> str | None:
    """The ID of the evening in progress, for a new game's journal; None if none is open or
    its file cannot be read (the game is then played outside any evening)."""
    try:
        text = storage.read_text(SPIELTAG_FILE)
        if text is None:
            return None
        spieltag = _parse(storage, SPIELTAG_FILE, text)
    except (StorageError, SpieltagError):
        return None
    return None if spieltag.ended else spieltag.id


class SpieltagFiles:
    """The evenings of one state directory. Raises SpieltagError (one line) for damaged files
    and for what cannot be done (a second evening while one is open)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def current(self) -> Spieltag | None:
        """The evening in progress, or None."""
        spieltag = self._read(SPIELTAG_FILE)
        return None if spieltag is None or spieltag.ended else spieltag

    def begin(self, spieltag: Spieltag) -> Spieltag:
        """Write ``spieltag`` as the evening in progress: every game begun from now on is its."""
        self._finish_ended()
        current = self.current()
        if current is not None:
            raise SpieltagError(
                f"the Spieltag {current.name!r} ({current.id}) is still going on: end it first "
                "(schocken spieltag end)"
            )
        if spieltag.id in self.ids():
            raise SpieltagError(f"a Spieltag with the ID {spieltag.id} was played already")
        self.storage.write_atomic(SPIELTAG_FILE, _dump(replace(spieltag, ended=False)))
        return spieltag

    def end(self) -> Spieltag:
        """End the evening in progress: no game begun after this belongs to it."""
        current = self.current()
        if current is None:
            raise SpieltagError("no Spieltag is going on: begin one with `schocken spieltag begin`")
        ended = replace(current, ended=True)
        self.storage.write_atomic(SPIELTAG_FILE, _dump(ended))
        self._finish_ended()
        return ended

    def _finish_ended(self) -> None:
        """Move an ended ``spieltag.json`` to its own name (a power cut may have come between)."""
        spieltag = self._read(SPIELTAG_FILE)
        if spieltag is not None and spieltag.ended:
            self.storage.rename(SPIELTAG_FILE, ended_name(spieltag.id))

    def ids(self) -> list[str]:
        """The IDs of the ended evenings kept, in name order."""
        return [m.group(1) for m in map(_ENDED.match, self.storage.names()) if m]

    def find(self, spieltag_id: str | None) -> Spieltag:
        """The evening ``spieltag_id``; None: the one in progress, else the last one ended."""
        if spieltag_id is None:
            current = self._read(SPIELTAG_FILE)
            if current is not None:
                return current
            ids = self.ids()
            if not ids:
                raise SpieltagError(
                    f"{self.storage.root} holds no Spieltag: begin one with "
                    "`schocken spieltag begin`"
                )
            spieltag_id = ids[-1]
        current = self._read(SPIELTAG_FILE)
        if current is not None and current.id == spieltag_id:
            return current
        found = self._read(ended_name(spieltag_id)) if SPIELTAG_ID.match(spieltag_id) else None
        if found is None:
            known = ", ".join(self.ids()) or "none"
            raise SpieltagError(f"no Spieltag {spieltag_id!r} here; ended ones: {known}")
        return found

    def _read(self, name: str) -> Spieltag | None:
        text = self.storage.read_text(name)
        return None if text is None else _parse(self.storage, name, text)


def _dump(spieltag: Spieltag) -> str:
    return json.dumps(spieltag_to_mapping(spieltag), ensure_ascii=False, indent=1) + "\n"
