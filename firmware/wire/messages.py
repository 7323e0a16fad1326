"""The tournament's topic tree and its messages, as the tables and the hub say them on MQTT.

The contract below both programs: the device's reporter (``firmware/tournament/``) and the hub
(``firmware/hub/``) import it, and it imports nothing of either. A message carries data, never
words: a table is named by its number, and each side words it in its own language.

Every message is one JSON object with ``"v": 1``. Each kind is a frozen dataclass with
``to_json()`` and ``from_json()``; ``from_json`` checks every field and raises
:class:`WireError` (one line) for anything else, so nothing a broker delivers reaches the
hub's store or a table's screen unchecked.

The tree (``EVENT`` is the tournament's slug, ``TABLE`` a table's broker user, ``table-7``):

=====================================  ==========  ========  ====================
topic                                  written by  retained  payload
=====================================  ==========  ========  ====================
``schock/EVENT/table/TABLE/status``    the table   yes       :class:`TableStatus`
``schock/EVENT/table/TABLE/result``    the table   no        :class:`Result`
``schock/EVENT/table/TABLE/refill``    the table   no        :class:`Result`
``schock/EVENT/table/TABLE/seat``      the table   no        :class:`Assignment`
``schock/EVENT/ack/TABLE``             the hub     no        :class:`Ack`
``schock/EVENT/assign/TABLE``          the hub     yes       :class:`Assignment`
``schock/EVENT/round``                 the hub     yes       :class:`RoundState`
``schock/EVENT/standings``             the hub     yes       :class:`StandingsBoard`
``schock/EVENT/refill``                the hub     yes       :class:`RefillRequest`
=====================================  ==========  ========  ====================

A refill (a hub that lost its database): while the hub keeps a :class:`RefillRequest` retained,
every table answers it once with each result its journals hold of the event on ``refill``
(those the hub acknowledged before; what still waits for an Ack goes on ``result`` as ever)
and with the assignment it holds on ``seat``; the hub clears the request when it has rebuilt
its rounds from them.

All at QoS 1. The broker's ACL (:mod:`firmware.wire.broker`) lets a table write only
below its own ``table/TABLE`` and read only its own ``ack`` and ``assign`` topics.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal, Self

from engine.limits import json_problem
from engine.scoring import GameResult
from engine.tournament import PhaseKind
from firmware.names import MAX_NAME_LENGTH

__all__ = [
    "Ack",
    "Assignment",
    "RefillRequest",
    "Result",
    "RoundStage",
    "RoundState",
    "StandingRow",
    "StandingsBoard",
    "TableStatus",
    "TeamScore",
    "WireError",
    "ack_topic",
    "assign_topic",
    "board_json",
    "refill_answer_topic",
    "refill_topic",
    "result_topic",
    "round_topic",
    "seat_topic",
    "standing_row_json",
    "standings_topic",
    "status_topic",
    "table_number",
    "table_of_topic",
    "table_user",
]

VERSION = 1
#: The tree's root level.
ROOT = "schock"
#: An event slug or a table's user: a whole topic level, no wildcard, no slash.
_LEVEL = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: Longest player or team name the wire takes: the one rule's (:mod:`firmware.names`).
MAX_NAME = MAX_NAME_LENGTH
#: The highest table number.
MAX_TABLE = 9999
#: Most players at one table, most tables' rows on a board.
MAX_SEATS = 10
MAX_ROWS = 5000
#: The largest message either side accepts.
MAX_MESSAGE_BYTES = 256 * 1024


class WireError(ValueError):
    """A message that is not what the tree says: one line naming what is wrong."""


# -- topics -----------------------------------------------------------------------------------


def check_level(value: str, what: str) -> str:
    """``value`` if it is a topic level (lower-case letters, digits, dashes); else WireError."""
    if not isinstance(value, str) or not _LEVEL.fullmatch(value):
        raise WireError(f"{what} {value!r} must be 1-32 lower-case letters, digits or dashes")
    return value


def table_user(number: int) -> str:
    """The broker user (and topic level) of table ``number``: ``table-7``."""
    if not 1 <= number <= MAX_TABLE:
        raise ValueError(f"table number {number} is not 1-{MAX_TABLE}")
    return f"table-{number}"


def table_number(user: str) -> int | None:
    """7 for ``table-7``; None for anything else (the inverse of :func:`table_user`)."""
    prefix, _, number = user.partition("-")
    if prefix != "table" or not number.isascii() or not number.isdigit():
        return None
    value = int(number)
    return value if 1 <= value <= MAX_TABLE and table_user(value) == user else None


def status_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/table/{table}/status"


def result_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/table/{table}/result"


def ack_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/ack/{table}"


def assign_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/assign/{table}"


def refill_topic(event: str) -> str:
    return f"{ROOT}/{event}/refill"


def refill_answer_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/table/{table}/refill"


def seat_topic(event: str, table: str) -> str:
    return f"{ROOT}/{event}/table/{table}/seat"


def round_topic(event: str) -> str:
    return f"{ROOT}/{event}/round"


def standings_topic(event: str) -> str:
    return f"{ROOT}/{event}/standings"


def table_of_topic(topic: str) -> tuple[str, str, str] | None:
    """``(event, table, leaf)`` of a ``schock/EVENT/table/TABLE/LEAF`` topic, else None."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "table":
        return None
    return parts[1], parts[3], parts[4]


# -- reading fields ---------------------------------------------------------------------------


def _object(raw: bytes | str, kind: str) -> dict[str, Any]:
    if len(raw) > MAX_MESSAGE_BYTES:
        raise WireError(f"{kind}: {len(raw)} bytes is more than {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise WireError(f"{kind}: {json_problem(error)}") from None
    except (ValueError, UnicodeDecodeError):  # bytes that are no UTF-8 text
        raise WireError(f"{kind}: not UTF-8 text, so no JSON") from None
    if not isinstance(data, dict):
        raise WireError(f"{kind}: a JSON object is expected")
    if data.get("v") != VERSION:
        raise WireError(f"{kind}: version {data.get('v')!r} is not {VERSION}")
    return data


def _str(data: Mapping[str, Any], key: str, kind: str, limit: int = MAX_NAME) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise WireError(f"{kind}: {key} must be a text of 1-{limit} characters")
    if any(not char.isprintable() for char in value):
        raise WireError(f"{kind}: {key} holds a control character")
    return value


def _int(data: Mapping[str, Any], key: str, kind: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WireError(f"{kind}: {key} must be a whole number {low}-{high}")
    return value


def _time(data: Mapping[str, Any], key: str, kind: str, *, optional: bool = False) -> float | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise WireError(f"{kind}: {key} must be a time in unix seconds")
    if not 0 <= value < 2**33:
        raise WireError(f"{kind}: {key} {value} is not a plausible time")
    return float(value)


def _bool(data: Mapping[str, Any], key: str, kind: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise WireError(f"{kind}: {key} must be true or false")
    return value


def _names(value: object, key: str, kind: str, *, low: int = 1) -> tuple[str, ...]:
    if not isinstance(value, list) or not low <= len(value) <= MAX_SEATS:
        raise WireError(f"{kind}: {key} must be a list of {low}-{MAX_SEATS} names")
    names = tuple(_str({"name": name}, "name", f"{kind} {key}") for name in value)
    if len(set(names)) != len(names):
        raise WireError(f"{kind}: {key} names a player twice")
    return names


def _counts(
    value: object, key: str, kind: str, players: Sequence[str]
) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        raise WireError(f"{kind}: {key} must be an object of name: count")
    counts = []
    for name, count in value.items():
        if name not in players:
            raise WireError(f"{kind}: {key} names {name!r}, who is not at the table")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 1000:
            raise WireError(f"{kind}: {key} of {name!r} must be a whole number 0-1000")
        if count:
            counts.append((name, count))
    return tuple(sorted(counts, key=lambda pair: players.index(pair[0])))


def _groups(
    value: object, key: str, kind: str, players: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list) or len(value) > MAX_SEATS:
        raise WireError(f"{kind}: {key} must be a list of groups of names")
    groups = tuple(_names(group, key, kind) for group in value)
    seen = [name for group in groups for name in group]
    if len(set(seen)) != len(seen) or not set(seen) <= set(players):
        raise WireError(f"{kind}: {key} must name players at the table, each once")
    return groups


def _dump(payload: Mapping[str, Any]) -> bytes:
    return _text({"v": VERSION, **payload}).encode()


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- messages ---------------------------------------------------------------------------------

ResultKind = Literal["half", "game"]


@dataclass(frozen=True, slots=True)
class Result:
    """A finished half (``kind="half"``) or game (``kind="game"``) at one table.

    The id is a function of where the result comes from (:meth:`make_id`), so a table that
    rebuilds its outbox from its journal after a pulled plug sends the same id again, and the
    hub stores it once.
    """

    KIND: ClassVar[str] = "result"

    event: str
    table: str
    round: int
    game: int
    kind: ResultKind
    players: tuple[str, ...]
    loser: str
    #: 1, 2 or 3 (the Finale) for a half; None for a game.
    section: int | None = None
    #: A half: the groups in the order they went out. A game: unused.
    out: tuple[tuple[str, ...], ...] = ()
    #: A game only (the fields of :class:`engine.scoring.GameResult`).
    half_losers: tuple[str, str] | None = None
    final_loser: str | None = None
    out_order: tuple[tuple[tuple[str, ...], ...], ...] = ()
    schock_aus_hand: tuple[tuple[str, int], ...] = ()
    schock_aus_built: tuple[tuple[str, int], ...] = ()
    id: str = field(default="")

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", self.make_id())

    @staticmethod
    def id_for(
        event: str, table: str, round_: int, game: int, kind: str, section: int | None
    ) -> str:
        return f"{event}/{table}/r{round_}/g{game}/{kind}{section or ''}"

    def make_id(self) -> str:
        """The id this result has wherever and however often it is made."""
        return self.id_for(self.event, self.table, self.round, self.game, self.kind, self.section)

    @classmethod
    def from_game(cls, event: str, table: str, round_: int, game: int, result: GameResult) -> Self:
        """The report of a finished game."""
        return cls(
            event=event,
            table=table,
            round=round_,
            game=game,
            kind="game",
            players=result.players,
            loser=result.loser,
            half_losers=result.half_losers,
            final_loser=result.final_loser,
            out_order=result.out_order,
            schock_aus_hand=result.schock_aus_hand,
            schock_aus_built=result.schock_aus_built,
        )

    def game_result(self) -> GameResult:
        """The engine's result of the game this reports (WireError for a half's result), as far
        as a tournament counts it: the wire carries no Schock aus against a player, which only a
        Stammtisch's Kasse charges."""
        if self.kind != "game" or self.half_losers is None or len(self.out_order) != 2:
            raise WireError(f"result {self.id}: not a whole game's result")
        return GameResult(
            players=self.players,
            half_losers=self.half_losers,
            final_loser=self.final_loser,
            loser=self.loser,
            out_order=(self.out_order[0], self.out_order[1]),
            schock_aus_hand=self.schock_aus_hand,
            schock_aus_built=self.schock_aus_built,
        )

    def to_json(self) -> bytes:
        payload: dict[str, Any] = {
            "id": self.id,
            "event": self.event,
            "table": self.table,
            "round": self.round,
            "game": self.game,
            "kind": self.kind,
            "section": self.section,
            "players": list(self.players),
            "loser": self.loser,
        }
        if self.kind == "half":
            payload["out"] = [list(group) for group in self.out]
        else:
            payload.update(
                half_losers=list(self.half_losers or ()),
                final_loser=self.final_loser,
                out_order=[[list(group) for group in half] for half in self.out_order],
                schock_aus_hand=dict(self.schock_aus_hand),
                schock_aus_built=dict(self.schock_aus_built),
            )
        return _dump(payload)

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        event = check_level(_str(data, "event", kind), "event")
        table = check_level(_str(data, "table", kind), "table")
        round_ = _int(data, "round", kind, 1, 1000)
        game = _int(data, "game", kind, 1, 1000)
        result_kind = data.get("kind")
        players = _names(data.get("players"), "players", kind, low=2)
        loser = _str(data, "loser", kind)
        if loser not in players:
            raise WireError(f"{kind}: the loser {loser!r} is not at the table")
        if result_kind == "half":
            section = _int(data, "section", kind, 1, 3)
            made = cls(
                event, table, round_, game, "half", players, loser, section,
                out=_groups(data.get("out", []), "out", kind, players),
            )  # fmt: skip
        elif result_kind == "game":
            if data.get("section") is not None:
                raise WireError(f"{kind}: a game's result has no section")
            raw_losers = data.get("half_losers")
            if not isinstance(raw_losers, list) or len(raw_losers) != 2:
                raise WireError(f"{kind}: half_losers must name the two halves' losers")
            half_losers = tuple(
                _str({"half_losers": name}, "half_losers", kind) for name in raw_losers
            )
            if not set(half_losers) <= set(players):
                raise WireError(f"{kind}: half_losers must be players at the table")
            final_loser = data.get("final_loser")
            if final_loser is not None:
                final_loser = _str(data, "final_loser", kind)
                if final_loser not in players:
                    raise WireError(f"{kind}: the final's loser is not at the table")
            out_order = data.get("out_order")
            if not isinstance(out_order, list) or len(out_order) != 2:
                raise WireError(f"{kind}: out_order must hold the two halves")
            made = cls(
                event, table, round_, game, "game", players, loser,
                half_losers=(half_losers[0], half_losers[1]),
                final_loser=final_loser,
                out_order=tuple(_groups(half, "out_order", kind, players) for half in out_order),
                schock_aus_hand=_counts(data.get("schock_aus_hand", {}), "schock_aus_hand", kind,
                                        players),
                schock_aus_built=_counts(data.get("schock_aus_built", {}), "schock_aus_built", kind,
                                         players),
            )  # fmt: skip
            _check_game(made, kind)
        else:
            raise WireError(f"{kind}: kind must be 'half' or 'game'")
        given = _str(data, "id", kind, limit=160)
        if given != made.id:
            raise WireError(f"{kind}: id {given!r} does not match its fields ({made.id!r})")
        return made


def _check_game(result: Result, kind: str) -> None:
    """The game's losers agree with each other, as the rules make them."""
    first, second = result.half_losers or ("", "")
    if first == second:
        if result.final_loser is not None or result.loser != first:
            raise WireError(f"{kind}: after a Durchmarsch there is no final and its man lost")
        return
    if result.final_loser is None:
        raise WireError(f"{kind}: two halves with two losers need a final's loser")
    if result.final_loser not in (first, second) or result.loser != result.final_loser:
        raise WireError(f"{kind}: the final is played by the halves' losers and its loser loses")


@dataclass(frozen=True, slots=True)
class Ack:
    """The hub's answer to one result, sent once it is stored (or why it never will be)."""

    KIND: ClassVar[str] = "ack"

    id: str
    status: Literal["stored", "duplicate", "refused"]
    reason: str = ""

    def to_json(self) -> bytes:
        return _dump(asdict(self))  # its fields are the message's keys, one to one

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        data = _object(raw, cls.KIND)
        status = data.get("status")
        if status not in ("stored", "duplicate", "refused"):
            raise WireError("ack: status must be stored, duplicate or refused")
        reason = data.get("reason", "")
        if not isinstance(reason, str) or len(reason) > 200:
            raise WireError("ack: reason must be a text of at most 200 characters")
        return cls(_str(data, "id", cls.KIND, limit=160), status, reason)


def _phase_kind(value: object, kind: str) -> PhaseKind:
    """A round's kind as the engine's :class:`~engine.tournament.PhaseKind`."""
    try:
        return PhaseKind(value)
    except ValueError:
        raise WireError(f"{kind}: kind must be points, ko or trost") from None


@dataclass(frozen=True, slots=True)
class Assignment:
    """Who plays at a table in a round, until when, and under which scheme.

    ``number`` is the table's number (7 for ``table-7``): the table words it in its own
    language ("Tisch 7", "Table 7"). A hub of an earlier version sent a German ``label`` ("Tisch
    7") instead; such an assignment is read with the number of its ``table``.
    """

    KIND: ClassVar[str] = "assignment"

    event: str
    round: int
    table: str
    number: int
    players: tuple[str, ...]
    starts_at: float
    ends_at: float | None
    #: The scoring scheme as :func:`engine.scoring.scheme_to_mapping` writes it.
    scheme: Mapping[str, Any]
    kind: PhaseKind = PhaseKind.POINTS
    #: Lives left per player in a KO round; empty otherwise.
    lives: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> bytes:
        return _dump(
            {
                "event": self.event,
                "round": self.round,
                "table": self.table,
                "number": self.number,
                "players": list(self.players),
                "starts_at": self.starts_at,
                "ends_at": self.ends_at,
                "scheme": dict(self.scheme),
                "kind": self.kind.value,
                "lives": dict(self.lives),
            }
        )

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        players = _names(data.get("players"), "players", kind, low=2)
        round_kind = _phase_kind(data.get("kind", "points"), kind)
        scheme = data.get("scheme")
        if not isinstance(scheme, dict):
            raise WireError(f"{kind}: scheme must be an object")
        starts_at = _time(data, "starts_at", kind)
        ends_at = _time(data, "ends_at", kind, optional=True)
        assert starts_at is not None
        if ends_at is not None and ends_at <= starts_at:
            raise WireError(f"{kind}: ends_at must be after starts_at")
        table = check_level(_str(data, "table", kind), "table")
        if "number" in data or "label" not in data:
            number = _int(data, "number", kind, 1, MAX_TABLE)
        else:  # an earlier hub's "Tisch 7": the number is the table's own
            _str(data, "label", kind)
            from_table = table_number(table)
            if from_table is None:
                raise WireError(f"{kind}: table {table!r} is not a table's name")
            number = from_table
        return cls(
            event=check_level(_str(data, "event", kind), "event"),
            round=_int(data, "round", kind, 1, 1000),
            table=table,
            number=number,
            players=players,
            starts_at=starts_at,
            ends_at=ends_at,
            scheme=scheme,
            kind=round_kind,
            lives=_counts(data.get("lives", {}), "lives", kind, players),
        )


#: A round's state: drawn (its tables known), running (results taken), finished.
RoundStage = Literal["drawn", "running", "finished"]
ROUND_STAGES: tuple[RoundStage, ...] = ("drawn", "running", "finished")


def round_stage(value: object) -> RoundStage | None:
    """``value`` as a round's state, or None if it is not one."""
    return next((stage for stage in ROUND_STAGES if stage == value), None)


@dataclass(frozen=True, slots=True)
class RoundState:
    """The round the hub runs now."""

    KIND: ClassVar[str] = "round"

    event: str
    round: int
    state: RoundStage
    starts_at: float | None = None
    ends_at: float | None = None

    def to_json(self) -> bytes:
        return _dump(asdict(self))  # its fields are the message's keys, one to one

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        state = round_stage(data.get("state"))
        if state is None:
            raise WireError(f"{kind}: state must be drawn, running or finished")
        return cls(
            check_level(_str(data, "event", kind), "event"),
            _int(data, "round", kind, 1, 1000),
            state,
            _time(data, "starts_at", kind, optional=True),
            _time(data, "ends_at", kind, optional=True),
        )


@dataclass(frozen=True, slots=True)
class RefillRequest:
    """The hub's ask (retained) that every table send again all its results of ``event``:
    ``asked_at`` tells one request from the next."""

    KIND: ClassVar[str] = "refill"

    event: str
    asked_at: float

    def to_json(self) -> bytes:
        return _dump(asdict(self))  # its fields are the message's keys, one to one

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        return cls(
            check_level(_str(data, "event", kind), "event"), _time(data, "asked_at", kind) or 0.0
        )


@dataclass(frozen=True, slots=True)
class TableStatus:
    """A table's retained status; its Last Will says the same with ``online`` false."""

    KIND: ClassVar[str] = "status"

    table: str
    online: bool
    outbox: int = 0
    round: int | None = None
    at: float = 0.0

    def to_json(self) -> bytes:
        return _dump(asdict(self))  # its fields are the message's keys, one to one

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        round_ = data.get("round")
        return cls(
            check_level(_str(data, "table", kind), "table"),
            _bool(data, "online", kind),
            _int(data, "outbox", kind, 0, 1_000_000),
            None if round_ is None else _int(data, "round", kind, 1, 1000),
            _time(data, "at", kind) or 0.0,
        )


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line on the board, with the place the hub's standings give (ties share)."""

    name: str
    team: str | None
    points: int
    lives: int | None
    games_lost: int
    halves_lost: int
    schock_aus: int
    out: bool
    place: int = 1


def board_json(
    event: str, round_: int, rows: Iterable[str], teams: Iterable[TeamScore]
) -> bytes:
    """A board's JSON (:meth:`StandingsBoard.to_json`) from each row's JSON
    (:func:`standing_row_json`; one kept from an earlier board will do)."""
    scores = _text([{"team": team.team, "score": team.score} for team in teams])
    head = _text({"v": VERSION, "event": event, "round": round_})
    return f'{head[:-1]},"rows":[{",".join(rows)}],"teams":{scores}}}'.encode()


def standing_row_json(row: StandingRow) -> str:
    """One row of a board's JSON (:meth:`StandingsBoard.to_json`)."""
    return _text({
        "place": row.place, "name": row.name, "team": row.team, "points": row.points,
        "lives": row.lives, "games_lost": row.games_lost, "halves_lost": row.halves_lost,
        "schock_aus": row.schock_aus, "out": row.out,
    })  # fmt: skip


@dataclass(frozen=True, slots=True)
class TeamScore:
    team: str
    score: int


@dataclass(frozen=True, slots=True)
class StandingsBoard:
    """The standings after the latest stored result, retained for every TV and table."""

    KIND: ClassVar[str] = "standings"

    event: str
    round: int
    rows: tuple[StandingRow, ...]
    teams: tuple[TeamScore, ...] = ()

    def to_json(self) -> bytes:
        return board_json(self.event, self.round, map(standing_row_json, self.rows), self.teams)

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        kind = cls.KIND
        data = _object(raw, kind)
        rows_data = data.get("rows")
        teams_data = data.get("teams", [])
        if not isinstance(rows_data, list) or len(rows_data) > MAX_ROWS:
            raise WireError(f"{kind}: rows must be a list of at most {MAX_ROWS}")
        if not isinstance(teams_data, list) or len(teams_data) > MAX_ROWS:
            raise WireError(f"{kind}: teams must be a list of at most {MAX_ROWS}")
        rows = []
        for index, row in enumerate(rows_data):
            if not isinstance(row, dict):
                raise WireError(f"{kind}: each row must be an object")
            lives = row.get("lives")
            team = row.get("team")
            # An earlier hub's board has no places: its order is the ranking.
            place = _int(row, "place", kind, 1, MAX_ROWS) if "place" in row else index + 1
            rows.append(
                StandingRow(
                    name=_str(row, "name", kind),
                    team=None if team is None else _str(row, "team", kind),
                    points=_int(row, "points", kind, -100_000, 100_000),
                    lives=None if lives is None else _int(row, "lives", kind, 0, 100),
                    games_lost=_int(row, "games_lost", kind, 0, 100_000),
                    halves_lost=_int(row, "halves_lost", kind, 0, 100_000),
                    schock_aus=_int(row, "schock_aus", kind, 0, 100_000),
                    out=_bool(row, "out", kind),
                    place=place,
                )
            )
        teams = []
        for team in teams_data:
            if not isinstance(team, dict):
                raise WireError(f"{kind}: each team must be an object")
            teams.append(
                TeamScore(_str(team, "team", kind), _int(team, "score", kind, -(10**6), 10**6))
            )
        return cls(
            check_level(_str(data, "event", kind), "event"),
            _int(data, "round", kind, 0, 1000),
            tuple(rows),
            tuple(teams),
        )
