"""The Spieltag (an evening of games) in the state directory.

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
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from engine.limits import InputLimitError, json_loads
from engine.scoring import Scheme, ScoringError, scheme_from_mapping, scheme_to_mapping
from hal.ports import Storage, StorageError

__all__ = [
    "MAX_TIME_BOX",
    "SPIELTAG_FILE",
    "LeaguePlayer",
    "Spieltag",
    "SpieltagError",
    "SpieltagFiles",
    "ended_name",
    "open_spieltag_id",
    "spieltag_from_mapping",
    "spieltag_to_mapping",
    "time_box_problem",
]

SPIELTAG_FILE = "spieltag.json"
#: The header field of a game's journal that names its evening.
META_SPIELTAG = "spieltag"
_FORMAT = 1
_ENDED = re.compile(r"^spieltag-([0-9A-Za-z-]{1,40})\.json$")
_ID = re.compile(r"^[0-9A-Za-z-]{1,40}$")
_MAX_BYTES = 256 * 1024
_MAX_TEXT = 80
_SIDES = ("H", "G")
#: The longest time box (minutes): a points round is 60-75 minutes, an evening not ten hours.
MAX_TIME_BOX = 600


class SpieltagError(ValueError):
    """An evening that cannot be begun, ended or read; the message is one line."""


def time_box_problem(minutes: object, label: str = "time box") -> str | None:
    """Why ``minutes`` is no time box (one line, beginning with ``label``), or None: a whole
    number of 1 to 600 minutes."""
    whole = isinstance(minutes, int) and not isinstance(minutes, bool)
    if not whole or not 1 <= minutes <= MAX_TIME_BOX:  # type: ignore[operator]
        return (
            f"{label} {minutes!r}: must be a whole number of minutes from 1 to {MAX_TIME_BOX} "
            "(a points round is 60-75 minutes)"
        )
    return None


def ended_name(spieltag_id: str) -> str:
    """The file name of the ended evening ``spieltag_id``."""
    return f"spieltag-{spieltag_id}.json"


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A player on a league sheet: the seat ``H1``, ``G2`` (home or guest side, number), the
    league's Spielernummer and the table they play at."""

    name: str
    seat: str
    number: str = ""
    table: int = 1

    @property
    def side(self) -> str:
        return self.seat[0]


@dataclass(frozen=True, slots=True)
class Spieltag:
    """An evening of games under one scheme; with ``home``/``guest``, a league match."""

    id: str
    name: str
    scheme: Scheme
    date: str
    venue: str = ""
    home: str = ""
    guest: str = ""
    #: The table this device keeps (a league match plays at two).
    table: int = 1
    players: tuple[LeaguePlayer, ...] = field(default=())
    ended: bool = False
    #: The time box in minutes (0: none): once it has run out since :attr:`began_at`, the
    #: game in play goes on "scharf" (:class:`engine.events.GoScharf`).
    time_box: int = 0
    #: When the evening was begun, by the wall clock (ISO 8601 with its offset); "" if unknown.
    began_at: str = ""

    def time_box_ends(self) -> datetime | None:
        """When the time box runs out by the wall clock; None without one."""
        if not self.time_box or not self.began_at:
            return None
        return datetime.fromisoformat(self.began_at) + timedelta(minutes=self.time_box)

    def player(self, name: str) -> LeaguePlayer | None:
        return next((p for p in self.players if p.name == name), None)


def _text(data: Mapping[str, Any], key: str, *, required: bool = False) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > _MAX_TEXT or "\n" in value or (
        required and not value.strip()
    ):
        need = "a text" if not required else "a text that is not empty"
        raise SpieltagError(f"{key} = {str(value)[:40]!r}: must be {need} of at most 80 characters")
    return value.strip()


def spieltag_from_mapping(data: object) -> Spieltag:
    """Read :func:`spieltag_to_mapping`'s form; SpieltagError naming the first bad field."""
    if not isinstance(data, dict):
        raise SpieltagError("not a JSON object")
    if data.get("format") != _FORMAT:
        raise SpieltagError(f"format {data.get('format')!r} is not {_FORMAT}")
    spieltag_id = data.get("id")
    if not isinstance(spieltag_id, str) or not _ID.match(spieltag_id):
        raise SpieltagError(f"id = {spieltag_id!r}: must be 1-40 letters, digits or '-'")
    scoring = data.get("scoring")
    if not isinstance(scoring, dict):
        raise SpieltagError("scoring: must be an object of [scoring] keys")
    try:
        scheme = scheme_from_mapping(scoring)
    except ScoringError as error:
        raise SpieltagError(f"scoring: {error}") from None
    date = _text(data, "date", required=True)
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", date):
        raise SpieltagError(f"date = {date!r}: must be YYYY-MM-DD")
    table = data.get("table", 1)
    if isinstance(table, bool) or table not in (1, 2):
        raise SpieltagError(f"table = {table!r}: must be 1 or 2")
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise SpieltagError(f"ended = {ended!r}: must be true or false")
    raw_players = data.get("players", [])
    if not isinstance(raw_players, list) or len(raw_players) > 40:
        raise SpieltagError("players: must be a list of at most 40 players")
    players = tuple(_player(entry) for entry in raw_players)
    time_box = data.get("time_box_minutes", 0)
    unset = time_box == 0 and not isinstance(time_box, bool)
    problem = None if unset else time_box_problem(time_box, "time_box_minutes =")
    if problem is not None:
        raise SpieltagError(problem)
    began_at = _text(data, "began_at")
    if began_at:
        try:
            if datetime.fromisoformat(began_at).tzinfo is None:
                raise ValueError
        except ValueError:
            raise SpieltagError(
                f"began_at = {began_at!r}: must be a date and time with its offset, e.g. "
                "2026-12-01T19:30:00+01:00"
            ) from None
    if time_box and not began_at:
        raise SpieltagError("time_box_minutes: needs began_at, the time the Spieltag began")
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats) or len({p.name for p in players}) != len(players):
        raise SpieltagError("players: each seat and each name may appear once")
    return Spieltag(
        spieltag_id, _text(data, "name", required=True), scheme, date,
        _text(data, "venue"), _text(data, "home"), _text(data, "guest"), table, players, ended,
        time_box, began_at,
    )


def _player(entry: object) -> LeaguePlayer:
    if not isinstance(entry, dict):
        raise SpieltagError("players: each player must be an object with name, seat, number")
    name = _text(entry, "name", required=True)
    seat = _text(entry, "seat", required=True)
    if not re.fullmatch(r"[HG](10|[1-9])", seat):
        raise SpieltagError(f"seat = {seat!r} of {name}: must be H1-H10 or G1-G10")
    number = _text(entry, "number")
    table = entry.get("table", 1)
    if isinstance(table, bool) or table not in (1, 2):
        raise SpieltagError(f"table = {table!r} of {name}: must be 1 or 2")
    return LeaguePlayer(name, seat, number, table)


def spieltag_to_mapping(spieltag: Spieltag) -> dict[str, Any]:
    """The evening as JSON-ready data."""
    return {
        "format": _FORMAT,
        "id": spieltag.id,
        "name": spieltag.name,
        "date": spieltag.date,
        "venue": spieltag.venue,
        "home": spieltag.home,
        "guest": spieltag.guest,
        "table": spieltag.table,
        "scoring": scheme_to_mapping(spieltag.scheme),
        "players": [
            {"name": p.name, "seat": p.seat, "number": p.number, "table": p.table}
            for p in spieltag.players
        ],
        "ended": spieltag.ended,
        "time_box_minutes": spieltag.time_box,
        "began_at": spieltag.began_at,
    }


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
        found = self._read(ended_name(spieltag_id)) if _ID.match(spieltag_id) else None
        if found is None:
            known = ", ".join(self.ids()) or "none"
            raise SpieltagError(f"no Spieltag {spieltag_id!r} here; ended ones: {known}")
        return found

    def _read(self, name: str) -> Spieltag | None:
        text = self.storage.read_text(name)
        return None if text is None else _parse(self.storage, name, text)


def _dump(spieltag: Spieltag) -> str:
    return json.dumps(spieltag_to_mapping(spieltag), ensure_ascii=False, indent=1) + "\n"
