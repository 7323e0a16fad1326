"""An evening of games (Spieltag) and its finished games: pure records, no files.

A :class:`Spieltag` is an evening under one scoring scheme (:mod:`engine.scoring`); with a home
and a guest side it is a league match, whose players have seats (``H1`` ... ``G10``) and league
numbers, as on a paper Spielberichtsbogen (the league's score sheet). An :class:`Evening` is a
Spieltag with its finished games, whose standings are a pure function of those games, like the
tournament's in :mod:`engine.tournament`. Both programs read these records: the device keeps
them in its state directory (``firmware/store/spieltagfile.py``, ``evening.py``) and the sheet
writer (``firmware/report/``) prints them.

An evening forgives a stray game: its standings count the games its scheme can score and that
were not taken out (:attr:`Evening.counted`), and name the others (:attr:`Evening.uncounted`).
:func:`amend` takes a Partie out, puts it back or scores the evening under another scheme,
each kept in the Spieltag's history (:class:`Amendment`: when, and what); the games are never
changed.

:func:`spieltag_from_mapping` reads the JSON form :func:`spieltag_to_mapping` writes and names
the first bad field in one line (:class:`SpieltagError`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.events import Event
from engine.game import GameSetup
from engine.kasse import Kasse, KasseError, kasse_from_mapping, kasse_to_mapping
from engine.scoring import (
    GameResult,
    Scheme,
    ScoringError,
    Standing,
    scheme_from_mapping,
    scheme_to_mapping,
    standings,
)

__all__ = [
    "MAX_TIME_BOX",
    "SPIELTAG_ID",
    "Amendment",
    "Change",
    "Evening",
    "EveningGame",
    "LeaguePlayer",
    "Loss",
    "LostGame",
    "NotCounted",
    "Spieltag",
    "SpieltagError",
    "Uncounted",
    "amend",
    "duplicate_partie",
    "is_date",
    "is_moment",
    "merge_match",
    "spieltag_from_mapping",
    "spieltag_to_mapping",
    "table_of",
    "time_box_problem",
]

_FORMAT = 1
#: What a Spieltag's ID is made of (it names the ended evening's file).
SPIELTAG_ID = re.compile(r"^[0-9A-Za-z-]{1,40}$")
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


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A player on a league sheet: the seat ``H1``, ``G2`` (home or guest side, number), the
    league's Spielernummer and the table they play at; a ``substitute`` (Auswechselspieler)
    comes in on the seat of the player listed there, for the Partien they play."""

    name: str
    seat: str
    number: str = ""
    table: int = 1
    substitute: bool = False

    @property
    def side(self) -> str:
        return self.seat[0]


class Change(enum.Enum):
    """What an amendment of an evening changed (its history keeps each)."""

    #: A Partie taken out: played, but not counted.
    TAKE_OUT = "take_out"
    #: A Partie taken out before, counted again.
    PUT_BACK = "put_back"
    #: The evening is scored under another scheme.
    SCHEME = "scheme"


@dataclass(frozen=True, slots=True)
class Amendment:
    """One change to an evening after its games were played: when (the wall clock, ISO 8601
    with its offset), what, and the Partie it concerns, or the schemes before and after."""

    at: str
    change: Change
    partie: int = 0
    before: Scheme | None = None
    after: Scheme | None = None


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
    #: The number in the device's archive of the first game that can be the evening's, and
    #: of the newest game when it ended (0: not known, an evening of an older version), so
    #: that a game of the evening deleted from the archive is missed and named.
    first_game: int = 0
    last_game: int = 0
    #: The evening's Kasse (:mod:`engine.kasse`), if its scoring file has a ``[kasse]``.
    kasse: Kasse | None = None
    #: The league's header of a match (all optional): the league or Staffel, the match's
    #: number in the league's plan, each side's captain, and remarks (a protest).
    league: str = ""
    match_number: str = ""
    home_captain: str = ""
    guest_captain: str = ""
    remarks: str = ""
    #: The Partien taken out: played, kept in their journals, not counted.
    taken_out: tuple[int, ...] = ()
    #: Every amendment since it began, in order (:func:`amend`).
    history: tuple[Amendment, ...] = ()

    def player(self, name: str) -> LeaguePlayer | None:
        return next((p for p in self.players if p.name == name), None)


#: A date and time with its offset, as ``datetime.isoformat`` writes it: 2026-12-01T19:30:00+01:00.
_MOMENT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]{1,6})?)?"
    r"(?:Z|[+-]([0-9]{2}):([0-9]{2}))"
)


#: Days of each month in a common year; February has 29 in a leap year.
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_date(year: int, month: int, day: int) -> bool:
    """Whether ``year-month-day`` is a day of the Gregorian calendar (years 1 to 9999)."""
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _MONTH_DAYS[month - 1] + (month == 2 and leap)


def is_moment(text: str) -> bool:
    """Whether ``text`` is a date and time with its offset from UTC (``...+01:00`` or ``Z``),
    a real day and time of day: what ``datetime.fromisoformat`` reads with a ``tzinfo``."""
    match = _MOMENT.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second, off_hours, off_minutes = (
        int(part) if part is not None else 0 for part in match.groups()
    )
    return (
        is_date(year, month, day) and hour < 24 and minute < 60 and second < 60
        and off_hours < 24 and off_minutes < 60
    )


def _text(
    data: Mapping[str, Any], key: str, *, required: bool = False, limit: int = _MAX_TEXT
) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > limit or "\n" in value or (
        required and not value.strip()
    ):
        need = "a text" if not required else "a text that is not empty"
        raise SpieltagError(
            f"{key} = {str(value)[:40]!r}: must be {need} of at most {limit} characters"
        )
    return value.strip()


def spieltag_from_mapping(data: object) -> Spieltag:
    """Read :func:`spieltag_to_mapping`'s form; SpieltagError naming the first bad field."""
    if not isinstance(data, dict):
        raise SpieltagError("not a JSON object")
    if data.get("format") != _FORMAT:
        raise SpieltagError(f"format {data.get('format')!r} is not {_FORMAT}")
    spieltag_id = data.get("id")
    if not isinstance(spieltag_id, str) or not SPIELTAG_ID.match(spieltag_id):
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
    if began_at and not is_moment(began_at):
        raise SpieltagError(
            f"began_at = {began_at!r}: must be a date and time with its offset, e.g. "
            "2026-12-01T19:30:00+01:00"
        )
    if time_box and not began_at:
        raise SpieltagError("time_box_minutes: needs began_at, the time the Spieltag began")
    _check_seats(players)
    return Spieltag(
        spieltag_id, _text(data, "name", required=True), scheme, date,
        _text(data, "venue"), _text(data, "home"), _text(data, "guest"), table, players, ended,
        time_box, began_at, _game_number(data, "first_game"), _game_number(data, "last_game"),
        _kasse(data.get("kasse")),
        _text(data, "league"), _text(data, "match_number"), _text(data, "home_captain"),
        _text(data, "guest_captain"), _text(data, "remarks", limit=MAX_REMARKS),
        taken_out=_taken_out(data), history=_history(data),
    )


def _kasse(value: object) -> Kasse | None:
    """The evening's ``kasse`` (absent or null: none)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise SpieltagError("kasse: must be an object of [kasse] amounts in cents")
    try:
        return kasse_from_mapping(value)
    except KasseError as error:
        raise SpieltagError(f"kasse: {error}") from None


#: The longest remarks (a protest) a Spieltag keeps.
MAX_REMARKS = 500


def _check_seats(players: Sequence[LeaguePlayer]) -> None:
    """SpieltagError unless each name is listed once, each seat holds one player, and each
    substitute comes in on a seat with a player listed, one substitute a seat."""
    if len({p.name for p in players}) != len(players):
        raise SpieltagError("players: each seat and each name may appear once")
    regular = [p.seat for p in players if not p.substitute]
    coming_in = [p.seat for p in players if p.substitute]
    if len(set(regular)) != len(regular) or len(set(coming_in)) != len(coming_in):
        raise SpieltagError("players: each seat and each name may appear once")
    empty = next((seat for seat in coming_in if seat not in regular), None)
    if empty is not None:
        raise SpieltagError(
            f"substitute on {empty}: no player is listed on {empty}; list one there first"
        )

#: The most Partien an evening keeps taken out, and the most amendments its history keeps.
_MAX_PARTIEN = 10_000
_MAX_HISTORY = 1_000


def _partie_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_PARTIEN:
        raise SpieltagError(f"{what} = {value!r}: must be a Partie's number, 1-{_MAX_PARTIEN}")
    return value


def _taken_out(data: Mapping[str, Any]) -> tuple[int, ...]:
    raw = data.get("taken_out", [])
    if not isinstance(raw, list) or len(raw) > _MAX_PARTIEN:
        raise SpieltagError("taken_out: must be a list of Partien")
    numbers = tuple(sorted({_partie_number(value, "taken_out") for value in raw}))
    if len(numbers) != len(raw):
        raise SpieltagError("taken_out: each Partie may appear once")
    return numbers


def _history(data: Mapping[str, Any]) -> tuple[Amendment, ...]:
    raw = data.get("history", [])
    if not isinstance(raw, list) or len(raw) > _MAX_HISTORY:
        raise SpieltagError(f"history: must be a list of at most {_MAX_HISTORY} amendments")
    return tuple(_amendment(index, entry) for index, entry in enumerate(raw, 1))


def _amendment(index: int, entry: object) -> Amendment:
    what = f"history {index}"
    if not isinstance(entry, dict):
        raise SpieltagError(f"{what}: must be an object with at and what")
    at = entry.get("at")
    if not isinstance(at, str) or not is_moment(at):
        raise SpieltagError(f"{what}: at = {str(at)[:40]!r} must be a date and time with its "
                            "offset, e.g. 2026-12-01T22:15:00+01:00")
    try:
        change = Change(entry.get("what"))
    except ValueError:
        raise SpieltagError(
            f"{what}: what = {str(entry.get('what'))[:20]!r} must be one of "
            f"{', '.join(c.value for c in Change)}"
        ) from None
    if change is not Change.SCHEME:
        return Amendment(at, change, _partie_number(entry.get("partie"), f"{what}: partie"))
    schemes = []
    for key in ("before", "after"):
        value = entry.get(key)
        if not isinstance(value, dict):
            raise SpieltagError(f"{what}: {key} must be an object of [scoring] keys")
        try:
            schemes.append(scheme_from_mapping(value))
        except ScoringError as error:
            raise SpieltagError(f"{what}: {key}: {error}") from None
    return Amendment(at, change, before=schemes[0], after=schemes[1])


def _amendment_to_mapping(amendment: Amendment) -> dict[str, Any]:
    entry: dict[str, Any] = {"at": amendment.at, "what": amendment.change.value}
    if amendment.change is Change.SCHEME:
        assert amendment.before is not None and amendment.after is not None
        entry["before"] = scheme_to_mapping(amendment.before)
        entry["after"] = scheme_to_mapping(amendment.after)
    else:
        entry["partie"] = amendment.partie
    return entry


def _game_number(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9:
        raise SpieltagError(f"{key} = {value!r}: must be a game's number, or 0")
    return value


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
    substitute = entry.get("substitute", False)
    if not isinstance(substitute, bool):
        raise SpieltagError(f"substitute = {substitute!r} of {name}: must be true or false")
    return LeaguePlayer(name, seat, number, table, substitute)


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
            {"name": p.name, "seat": p.seat, "number": p.number, "table": p.table,
             "substitute": p.substitute}
            for p in spieltag.players
        ],
        "ended": spieltag.ended,
        "time_box_minutes": spieltag.time_box,
        "began_at": spieltag.began_at,
        "first_game": spieltag.first_game,
        "last_game": spieltag.last_game,
        "league": spieltag.league,
        "match_number": spieltag.match_number,
        "home_captain": spieltag.home_captain,
        "guest_captain": spieltag.guest_captain,
        "remarks": spieltag.remarks,
        # Only an evening with a Kasse names it: the files of the evenings without stay as
        # they were.
        **({"kasse": kasse_to_mapping(spieltag.kasse)} if spieltag.kasse is not None else {}),
        "taken_out": list(spieltag.taken_out),
        "history": [_amendment_to_mapping(amendment) for amendment in spieltag.history],
    }


@dataclass(frozen=True, slots=True)
class EveningGame:
    """One finished game of an evening: its number on the sheet (the Partie), its table."""

    partie: int
    table: int
    setup: GameSetup
    actions: tuple[Event, ...]
    result: GameResult
    #: When the game ended, by the wall clock (its journal's last write, ISO 8601 with its
    #: offset); "" where not known.
    ended_at: str = ""
    #: Taken out of the evening (:attr:`Spieltag.taken_out`): played, not counted.
    taken_out: bool = False


class Loss(enum.Enum):
    """Why a Partie of an evening is not counted."""

    #: Its journal is not there any more: deleted, or moved away.
    MISSING = "missing"
    #: Its journal cannot be read whole: damaged, or cut short before the game ended.
    DAMAGED = "damaged"
    #: An exported evening skips its number: the game was taken out of the export.
    ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class LostGame:
    """A Partie of an evening that was played but cannot be counted: its number on the sheet,
    the journal it was kept in (``game-000012.journal``; for a Partie absent from an export,
    the export's file), why, and the reader's one line about the damage (English, for the
    log; "" for a missing file)."""

    partie: int
    journal: str
    loss: Loss
    detail: str = ""


class NotCounted(enum.Enum):
    """Why a finished game of an evening is not counted."""

    #: Taken out (``schocken spieltag take-out``, the device's menu).
    TAKEN_OUT = "taken_out"
    #: Played at a table size the evening's scheme cannot score (Platzpunkte at two).
    TABLE_SIZE = "table_size"


@dataclass(frozen=True, slots=True)
class Uncounted:
    """A finished game of an evening that its standings do not count: its Partie, how many
    played it, and why."""

    partie: int
    players: int
    why: NotCounted


@dataclass(frozen=True, slots=True)
class Evening:
    """A Spieltag and its finished games, in the order played; ``lost`` are its Partien that
    cannot be counted (named wherever the evening is shown). Its standings count the games
    that count (:attr:`counted`): not those taken out, nor those of a table size the scheme
    cannot score (:attr:`uncounted`, named too)."""

    spieltag: Spieltag
    games: tuple[EveningGame, ...]
    lost: tuple[LostGame, ...] = ()

    @property
    def partien(self) -> int:
        """How many Partien were played: the games finished and those lost."""
        return len(self.games) + len(self.lost)

    def _why_not(self, game: EveningGame) -> NotCounted | None:
        if game.taken_out:
            return NotCounted.TAKEN_OUT
        if not self.spieltag.scheme.counts_table(len(game.setup.players)):
            return NotCounted.TABLE_SIZE
        return None

    @property
    def counted(self) -> tuple[EveningGame, ...]:
        """The finished games the standings count, in the order played."""
        return tuple(game for game in self.games if self._why_not(game) is None)

    @property
    def uncounted(self) -> tuple[Uncounted, ...]:
        """The finished games the standings do not count, and why, in the order played."""
        return tuple(
            Uncounted(game.partie, len(game.setup.players), why)
            for game in self.games for why in (self._why_not(game),) if why is not None
        )

    def under(self, spieltag: Spieltag) -> Evening:
        """The same games under ``spieltag`` (amended): each game taken out as it says."""
        games = tuple(
            replace(game, taken_out=game.partie in spieltag.taken_out) for game in self.games
        )
        return Evening(spieltag, games, self.lost)

    def standings(self) -> tuple[Standing, ...]:
        """The standings under the evening's scheme, of the games that count; SpieltagError
        for an evening without such games."""
        counted = self.counted
        if not counted:
            if self.games:
                raise SpieltagError(
                    f"no game of the Spieltag {self.spieltag.name!r} counts: "
                    f"{len(self.games)} finished, none counted"
                )
            raise SpieltagError(
                f"the Spieltag {self.spieltag.name!r} has no finished games yet: play one first"
            )
        return standings(self.spieltag.scheme, [game.result for game in counted])


def amend(
    evening: Evening, change: Change, at: str, *, partie: int = 0, scheme: Scheme | None = None
) -> Spieltag:
    """The evening's Spieltag with ``change`` made at ``at`` (the wall clock, with its offset)
    and kept in its history: the Partie ``partie`` taken out or put back, or the evening scored
    under ``scheme``. The games stay as they are. SpieltagError (one line) for a change that
    cannot be made: a Partie not played (or lost: it counts anyway not), one taken out
    already, one not taken out, the scheme the evening has."""
    spieltag = evening.spieltag
    if not is_moment(at):
        raise SpieltagError(f"{at!r}: not a date and time with its offset")
    if len(spieltag.history) >= _MAX_HISTORY:
        raise SpieltagError(f"the Spieltag {spieltag.name!r} has {_MAX_HISTORY} changes already")
    if change is Change.SCHEME:
        if scheme is None:
            raise SpieltagError("a change of scheme needs the new scheme")
        if scheme_to_mapping(scheme) == scheme_to_mapping(spieltag.scheme):
            raise SpieltagError(
                f"the Spieltag {spieltag.name!r} is scored so already ({scheme.name}): "
                "nothing changed"
            )
        amendment = Amendment(at, change, before=spieltag.scheme, after=scheme)
        return replace(spieltag, scheme=scheme, history=(*spieltag.history, amendment))
    played = {game.partie for game in evening.games}
    lost = {game.partie: game for game in evening.lost}
    if partie in lost:
        gone = lost[partie]
        where = (
            f"it is not in the export {gone.journal}" if gone.loss is Loss.ABSENT
            else f"its journal {gone.journal} is "
            f"{'missing' if gone.loss is Loss.MISSING else 'damaged'}"
        )
        raise SpieltagError(f"Partie {partie} is not counted anyway: {where}")
    if partie not in played:
        known = f"1-{evening.partien}" if evening.partien else "none yet"
        raise SpieltagError(
            f"no Partie {partie} in the Spieltag {spieltag.name!r}: its Partien are {known}"
        )
    taken = set(spieltag.taken_out)
    if change is Change.TAKE_OUT:
        if partie in taken:
            raise SpieltagError(f"Partie {partie} is taken out already")
        taken.add(partie)
    else:
        if partie not in taken:
            raise SpieltagError(f"Partie {partie} is not taken out: it counts already")
        taken.discard(partie)
    amendment = Amendment(at, change, partie)
    return replace(
        spieltag, taken_out=tuple(sorted(taken)), history=(*spieltag.history, amendment)
    )


def table_of(spieltag: Spieltag, players: Sequence[str]) -> int:
    """The table a game was played at: its players' table on the league sheet, else the
    device's (one device may run both tables' games in turn)."""
    for name in players:
        player = spieltag.player(name)
        if player is not None:
            return player.table
    return spieltag.table


def duplicate_partie(games: Sequence[EveningGame]) -> tuple[int, int] | None:
    """The Partien of the first game that is in ``games`` twice (the same players and every
    action), as (the first, its copy); None if each game is there once. Two games of real
    dice or of the device's own dice cannot agree in every throw by chance."""
    seen: dict[tuple[tuple[str, ...], tuple[Event, ...]], int] = {}
    for game in games:
        key = (game.setup.players, game.actions)
        if key in seen:
            return seen[key], game.partie
        seen[key] = game.partie
    return None


def _same(label: str, one: str, two: str) -> None:
    """SpieltagError if both tables give ``label`` and they differ."""
    if one and two and one != two:
        raise SpieltagError(
            f"not one league match: the {label} differs ({one!r} at table 1, {two!r} at "
            "table 2); begin both tables' Spieltag with the same one"
        )


def _check_one_match(one: Spieltag, two: Spieltag) -> None:
    """SpieltagError (one line) unless table 1's and table 2's Spieltag are one match."""
    if (one.home, one.guest) != (two.home, two.guest) or not one.home or not one.guest:
        raise SpieltagError(
            f"not one league match: home and guest differ ({one.home!r} v {one.guest!r} and "
            f"{two.home!r} v {two.guest!r}); begin both tables' Spieltag with the same --home "
            "and --guest"
        )
    if one.table == two.table:
        raise SpieltagError(
            f"both evenings are table {one.table}: begin the other device's Spieltag with "
            "--table 2"
        )
    if one.date != two.date:
        raise SpieltagError(f"not one evening: the dates differ ({one.date} and {two.date})")
    _same("Spieltag's name", one.name, two.name)
    _same("league", one.league, two.league)
    _same("match number", one.match_number, two.match_number)
    _same("home captain", one.home_captain, two.home_captain)
    _same("guest captain", one.guest_captain, two.guest_captain)
    if one.scheme != two.scheme:
        what = (
            f"{one.scheme.name} at table 1, {two.scheme.name} at table 2"
            if one.scheme.name != two.scheme.name
            else f"{one.scheme.name} with other parameters at each table"
        )
        raise SpieltagError(
            f"not one league match: the scoring differs ({what}); begin both tables' Spieltag "
            "with the same --scoring"
        )
    if one.time_box != two.time_box:
        raise SpieltagError(
            f"not one league match: the time box differs ({one.time_box or 'none'} and "
            f"{two.time_box or 'none'} minutes); begin both with the same --time-box"
        )


def _merged_players(one: Spieltag, two: Spieltag) -> tuple[LeaguePlayer, ...]:
    """Both tables' lists as one; SpieltagError where they list a player or a seat apart."""
    players = list(one.players)
    for player in two.players:
        known = one.player(player.name)
        if known is None:
            holder = next(
                (p for p in one.players
                 if p.seat == player.seat and p.substitute == player.substitute),
                None,
            )  # fmt: skip
            if holder is not None:
                role = "substitute on " if player.substitute else ""
                raise SpieltagError(
                    f"not one league match: {role}{player.seat} is {holder.name} at table 1 "
                    f"but {player.name} at table 2; begin both tables' Spieltag with the same "
                    "--player list"
                )
            players.append(player)
        elif (known.seat, known.number, known.substitute) != (
            player.seat, player.number, player.substitute
        ):
            raise SpieltagError(
                f"{player.name} is {known.seat} ({known.number}) at table 1 but "
                f"{player.seat} ({player.number}) at table 2"
            )
    return tuple(players)


def merge_match(first: Evening, second: Evening) -> Evening:
    """Table 1's and table 2's evenings of one league match as one: table 1's Partien first,
    then table 2's numbered on. SpieltagError (one line) if they are not two tables of one
    match: other sides, date, name, league or match number, another scheme or time box,
    lists that put two players on one seat, or a game in both."""
    a, b = sorted((first, second), key=lambda evening: evening.spieltag.table)
    one, two = a.spieltag, b.spieltag
    _check_one_match(one, two)
    players = _merged_players(one, two)
    # Table 2's Partien follow table 1's, each keeping its place (a lost one too).
    offset = max([0, *(g.partie for g in a.games), *(g.partie for g in a.lost)])
    games = (*a.games, *(replace(game, partie=game.partie + offset) for game in b.games))
    lost = (*a.lost, *(replace(game, partie=game.partie + offset) for game in b.lost))
    twice = duplicate_partie(games)
    if twice is not None:
        raise SpieltagError(
            f"Partie {twice[1]} is Partie {twice[0]} again (the same players and every throw): "
            "one game cannot count at both tables; export each table's evening again from its "
            "own device"
        )
    began = min((s.began_at for s in (one, two) if s.began_at), default="")
    remarks = " / ".join(dict.fromkeys(s.remarks for s in (one, two) if s.remarks))
    # The match keeps table 1's history; the Partien taken out at either table stay out.
    taken_out = (*one.taken_out, *(partie + offset for partie in two.taken_out))
    spieltag = replace(
        one, players=players, table=1, began_at=began, remarks=remarks[:MAX_REMARKS],
        taken_out=taken_out,
        league=one.league or two.league, match_number=one.match_number or two.match_number,
        home_captain=one.home_captain or two.home_captain,
        guest_captain=one.guest_captain or two.guest_captain,
    )
    return Evening(spieltag, games, lost)
