"""The Spieltag (an evening of games, :mod:`engine.spieltag`) in the state directory.

Files::

    spieltag.json             the evening in progress: name, venue, date, scheme, league sides
    spieltag-<ID>.json        evenings that were ended

Only beginning, ending and amending an evening (a substitute registered on it, a Partie taken
out or put back, the scheme changed: :mod:`firmware.store.spieltagamend`) write these files,
each with one atomic replace (or one rename), so a pulled plug leaves the old or the new file,
never half of one. The games are not listed here: while an evening is open, the session writes
its ID into each new game's journal header (:func:`open_evening` says which;
:class:`~firmware.store.journal.JournalHeader`), so a game belongs to the evening by its own
durable journal, and the standings are recounted from the journals
(:func:`firmware.store.evening.load_evening`). A game that a pulled plug interrupted resumes
from its journal and still belongs to the evening; nothing of it is written twice. The file
keeps the number of the evening's first game in the archive and, once ended, of the newest game
then, so that a game of the evening deleted later is missed and named.

A damaged evening file is refused with one line naming the file and the problem
(:class:`SpieltagError`); it is never changed or deleted, and a game begun meanwhile still gets
the evening's ID where what is left of the file (or the newest game) names it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from engine.limits import InputLimitError, json_loads, json_problem
from engine.spieltag import (
    SPIELTAG_ID,
    Spieltag,
    SpieltagError,
    spieltag_from_mapping,
    spieltag_to_mapping,
)
from firmware.store.gamestore import GameStore
from hal.ports import Storage, StorageError

__all__ = [
    "SPIELTAG_FILE", "OpenEvening", "SpieltagFiles", "ended_name", "open_evening",
    "open_spieltag_id", "time_box_ends",
]

SPIELTAG_FILE = "spieltag.json"
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
        problem = (
            json_problem(error) if isinstance(error, json.JSONDecodeError)
            else " ".join(str(error).split())
        )
        raise SpieltagError(
            f"{storage.root / name} is damaged ({problem}); it is left as it is: move it away "
            "to begin a new Spieltag"
        ) from None


@dataclass(frozen=True, slots=True)
class OpenEvening:
    """What the state directory says of the evening going on, for a game about to begin.

    ``id`` goes into the game's journal header (None: no evening is going on, or a damaged
    ``spieltag.json`` names none that can be found); ``spieltag`` is the evening itself where
    its file can be read; ``problem`` one line about a damaged ``spieltag.json`` (None if it is
    fine or absent). A damaged file never makes a game of the evening one outside it: its ID
    is read from what is left of the file, else from the newest game of an evening not ended,
    so that the games count once the file is repaired.
    """

    id: str | None = None
    spieltag: Spieltag | None = None
    problem: str | None = None


#: The fields of a damaged ``spieltag.json`` that name its evening and whether it ended.
_DAMAGED_ID = re.compile(r'"id"\s*:\s*"([0-9A-Za-z-]{1,40})"')
_DAMAGED_ENDED = re.compile(r'"ended"\s*:\s*true')


def open_evening(storage: Storage) -> OpenEvening:
    """The evening a game begun now belongs to (see :class:`OpenEvening`). Never raises."""
    unreadable: str | None = None
    try:
        text = storage.read_text(SPIELTAG_FILE)
    except StorageError as error:
        text, unreadable = None, str(error)
    else:
        if text is None:
            return OpenEvening()
    if text is not None:
        try:
            spieltag = _parse(storage, SPIELTAG_FILE, text)
        except SpieltagError as error:
            unreadable = str(error)
        else:
            return OpenEvening() if spieltag.ended else OpenEvening(spieltag.id, spieltag)
    assert unreadable is not None
    return OpenEvening(_damaged_id(storage, text or ""), None, unreadable)


def _damaged_id(storage: Storage, text: str) -> str | None:
    """The ID of the evening a damaged ``spieltag.json`` was for, if it can be found and that
    evening was not ended: from the file's own ``id``, else from the newest game tagged with an
    evening that has no ended file."""
    try:
        ended = set(SpieltagFiles(storage).ids())
        if _DAMAGED_ENDED.search(text):
            return None  # ended: the power went before it was moved to its own name
        found = _DAMAGED_ID.search(text)
        if found is not None:
            return None if found.group(1) in ended else found.group(1)
        for game in reversed(GameStore(storage).kept()):
            tag = game.header.spieltag if game.header is not None else None
            if tag is not None:
                return None if tag in ended else tag
    except StorageError:
        return None
    return None


def open_spieltag_id(storage: Storage) -> str | None:
    """The ID of the evening a game begun now belongs to (:func:`open_evening`'s)."""
    return open_evening(storage).id


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
        # Its games are numbered from the next one on: a game deleted later is missed by that.
        begun = replace(spieltag, ended=False, first_game=self._newest_game() + 1, last_game=0)
        self.storage.write_atomic(SPIELTAG_FILE, _dump(begun))
        return begun

    def end(self) -> Spieltag:
        """End the evening in progress: no game begun after this belongs to it."""
        current = self.current()
        if current is None:
            raise SpieltagError("no Spieltag is going on: begin one with `schocken spieltag begin`")
        ended = replace(current, ended=True, last_game=self._newest_game())
        self.storage.write_atomic(SPIELTAG_FILE, _dump(ended))
        self._finish_ended()
        return ended

    def rewrite(self, spieltag: Spieltag) -> None:
        """Write ``spieltag`` (amended) over its own file: ``spieltag.json`` while it goes on,
        else its ended file. SpieltagError if neither holds it."""
        current = self._read(SPIELTAG_FILE)
        if current is not None and current.id == spieltag.id:
            name = SPIELTAG_FILE
        elif spieltag.ended and self._read(ended_name(spieltag.id)) is not None:
            name = ended_name(spieltag.id)
        else:
            raise SpieltagError(f"no Spieltag {spieltag.id!r} here to change")
        self.storage.write_atomic(name, _dump(spieltag))

    def _newest_game(self) -> int:
        """The number of the newest finished game in the archive (0 before the first)."""
        store = GameStore(self.storage)
        return max([store.counted_through(), *(number for number, _ in store.archived())])

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
