"""The director's desk, below its doors: ``schocken hub paper|correct|...`` and the hub's
``/desk`` page read a paper table card's fields here and act through :class:`Hub`'s methods
(the table's own checks, who, when and why kept in the file's ``desk``, with the result before
and after); and the desk after the draw: a player withdrawn, disqualified or replaced by a
substitute (a Springer), a round drawn again before it starts, a finished round reopened (kept
in the file's ``desk_log``, :func:`history`).

A card is written as a director types it: the halves' losers ``A,B``, the final's loser (none
after a Durchmarsch), who went out in each half in order (``A+B,C,D``: ``+`` joins those out in
the same round, the loser last; none: all the others together), Schock aus from the hand
``NAME:N``. A field the hub cannot read is a :class:`DeskError`, a word of the hub's with its
values, which each door says in its language.

Each action after the draw checks everything first and raises a :class:`DeskError` (one line,
a word of the hub's, so each door says it in its user's language)
without writing; then it changes the store in one transaction and keeps a line of the desk's
history: when, who, what and why. Both doors name a player by :func:`player_named` and say a
line of that history by :func:`said`. The standings
are recounted from the store as always (:meth:`Hub.progress <firmware.hub.hub.Hub.progress>`,
with the players who left, :mod:`firmware.hub.leavings`), and the tables learn of a changed
table as of every draw: the hub publishes each table's retained assignment again after any
commit (a `serve` beside the command within a second), so a table plays its next game with the
players the desk left it.

Where a player leaves: before the round they are drawn into starts, they leave that round's
table (a substitute takes the seat); while it runs, after the games their table has reported
(the table plays its next game without them, or with the substitute, who takes the lives left
in a KO round); after it finished, from the next round on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.scoring import GameResult
from engine.tournament import Leaving, PhaseKind
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords
from firmware.hub.leavings import leavings, record_leaving
from firmware.hub.registration import RosterError, full_names, parse_item, register
from firmware.hub.store import RefusalRow, RoundRow, SeatRow
from firmware.wire.messages import Result, RoundState

__all__ = ["ChangedLine", "DeskEntry", "DeskError", "TableCard", "changed_lines", "correct",
           "history", "leave", "paper", "player_named", "redraw", "refusal_reason", "reopen",
           "said", "standings_lines"]  # fmt: skip

#: A standings line as the desk compares it: points, lives (None outside KO), games lost.
Line = tuple[int, int | None, int]


class DeskError(HubError):
    """A desk field the hub cannot read, or an action it refuses: the word's key and its
    values (English as the text)."""


@dataclass(frozen=True, slots=True)
class TableCard:
    """A game as a paper table card has it, each field as typed."""

    halves: str
    final: str = ""
    out1: str = ""
    out2: str = ""
    schock_aus: tuple[str, ...] = ()

    def game(self, players: Sequence[str]) -> GameResult:
        """The game the card describes at a table of ``players`` (the hub checks it as it
        checks a table's report)."""
        halves = names(self.halves)
        if len(halves) != 2:
            raise DeskError("desk_bad_halves", given=self.halves)
        orders = []
        for half, (loser, given) in enumerate(zip(halves, (self.out1, self.out2), strict=True)):
            if given.strip():
                order = tuple(names(group.replace("+", ",")) for group in given.split(","))
                twice = _twice(name for group in order for name in group)
                if twice is not None:
                    raise DeskError("desk_out_twice", half=half + 1, name=twice)
            else:
                order = (tuple(p for p in players if p != loser), (loser,))
            orders.append(tuple(group for group in order if group))
        schock_aus = []
        for item in self.schock_aus:
            name, _, count = item.strip().rpartition(":")
            if not name.strip() or not count.isascii() or not count.isdigit() or len(count) > 3:
                raise DeskError("desk_bad_schock_aus", given=item)
            schock_aus.append((name.strip(), int(count)))
        final = self.final.strip() or None
        named = [*halves, *([final] if final else []), *(p for o in orders for g in o for p in g),
                 *(name for name, _count in schock_aus)]  # fmt: skip
        stranger = next((name for name in named if name not in players), None)
        if stranger is not None:
            raise DeskError("desk_not_at_table", name=stranger, names=", ".join(players))
        _check_losers(halves[0], halves[1], final)
        return GameResult(
            tuple(players), (halves[0], halves[1]), final, final or halves[0],
            (orders[0], orders[1]), tuple(schock_aus),
        )  # fmt: skip


def _check_losers(first: str, second: str, final: str | None) -> None:
    """The card's losers agree as the rules make them (the wire checks the same, in English):
    a Durchmarsch has no final; two halves' losers play it, and nobody else."""
    if first == second:
        if final is not None:
            raise DeskError("desk_durchmarsch_final", name=first, final=final)
    elif final is None:
        raise DeskError("desk_no_final", first=first, second=second)
    elif final not in (first, second):
        raise DeskError("desk_final_not_half", name=final, first=first, second=second)


def _twice(named: Iterable[str]) -> str | None:
    """The first name given twice, or None."""
    seen: set[str] = set()
    for name in named:
        if name in seen:
            return name
        seen.add(name)
    return None


def names(text: str) -> tuple[str, ...]:
    """The names of a comma-separated list, each stripped, none empty."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def paper(
    hub: Hub, round_: int, table: int, game: int, card: TableCard, who: str, why: str,
    now: float, players: str = "",
) -> Result:
    """Store game ``game`` of ``table`` in ``round_`` from its paper card; ``players`` who
    played it (default: the table's players of the round)."""  # fmt: skip
    seats = {seat.table_no: seat for seat in hub.store.seats(round_)}
    if table not in seats:
        raise DeskError("desk_no_table", table=table, n=round_)
    at_table = names(players) if players.strip() else seats[table].players
    twice = _twice(at_table)
    if twice is not None:
        raise DeskError("desk_players_twice", name=twice)
    if len(at_table) < 2:
        raise DeskError("desk_players_few", given=players)
    return hub.paper_result(round_, table, game, card.game(at_table), who, why, now)


def correct(hub: Hub, result_id: str, card: TableCard, who: str, why: str, now: float) -> Result:
    """Replace the stored game ``result_id`` by the card's (the same players)."""
    stored = next((r for r in hub.store.results() if r.id == result_id), None)
    if stored is None:
        raise DeskError("desk_no_result", id=result_id)
    players = tuple(json.loads(stored.payload)["players"])
    return hub.correct_result(result_id, card.game(players), who, why, now)


@dataclass(frozen=True, slots=True)
class ChangedLine:
    """A standings line an action changed, recounted."""

    name: str
    points: int
    lives: int | None
    games_lost: int


def standings_lines(hub: Hub) -> dict[str, Line]:
    """Every player's line, to compare before and after an action."""
    return {
        line.name: (line.points, line.lives, line.games_lost) for line in hub.progress().lines
    }


def changed_lines(before: dict[str, Line], after: dict[str, Line]) -> list[ChangedLine]:
    """The lines that differ after an action, in the standings' order."""
    return [
        ChangedLine(name, *now) for name, now in after.items() if before.get(name) != now
    ]


@dataclass(frozen=True, slots=True)
class DeskEntry:
    """A line of the desk's history: when, who, the action, its round, what it named, why."""

    at: float
    who: str
    action: str
    round: int
    detail: dict[str, Any]
    why: str


def history(hub: Hub) -> list[DeskEntry]:
    """Every action of the desk, oldest first."""
    return [
        DeskEntry(float(at), str(who), str(action), int(number), json.loads(str(detail)), str(why))
        for at, who, action, number, detail, why in hub.store.select(
            "SELECT at, who, action, round, detail, why FROM desk_log ORDER BY seq"
        )
    ]


#: What each action of the desk's history says, by action.
_SAID = {
    "withdrawn": "hub_desk_withdrawn",
    "disqualified": "hub_desk_disqualified",
    "replaced": "hub_desk_replaced",
    "redrawn": "hub_desk_redrawn",
    "reopened": "hub_desk_reopened",
}


def said(text: HubWords, action: str, number: int, detail: dict[str, Any]) -> str:
    """An action of the desk's history in words: who left, or which round changed."""
    line = text.t(
        _SAID[action], n=number, name=detail.get("name", ""),
        substitute=detail.get("substitute", ""), tables=detail.get("tables", 0),
    )  # fmt: skip
    table = detail.get("table")
    return f"{line} · {text.t('hub_table', n=table)}" if table else line


def refusal_reason(text: HubWords, refusal: RefusalRow) -> str:
    """Why the hub refused a message, in ``text``'s language where the hub said it in its own
    words (the wire's reason, and a file of an earlier hub's, as kept: English)."""
    try:
        said = json.loads(refusal.said) if refusal.said else None
        return text.t(said["key"], **said["values"]) if said else refusal.reason
    except (ValueError, KeyError, TypeError, IndexError):
        return refusal.reason


def player_named(hub: Hub, given: str, *, must: bool = True) -> str:
    """The name on the tables of the player ``given`` by it or by their full name (as given
    where it is neither and ``must`` is false: a substitute to register)."""
    registered = {e.name for e in hub.store.players()}
    if given in registered:
        return given
    wanted = " ".join(given.split())
    by_full = sorted(name for name, full in full_names(hub.store).items() if full == wanted)
    if len(by_full) > 1:
        raise DeskError("desk_many_players", name=given, n=len(by_full), names=", ".join(by_full))
    if by_full:
        return by_full[0]
    if must:
        raise DeskError("desk_not_registered", name=given)
    return given


def _why(who: str, why: str) -> None:
    if not who.strip() or not why.strip():
        raise DeskError("desk_say_who_why")
    if len(why) > 300 or not why.isprintable() or len(who) > 40 or not who.isprintable():
        raise DeskError("desk_who_why_long")


def _log(db: Any, at: float, who: str, action: str, number: int, detail: dict[str, Any],
         why: str) -> None:  # fmt: skip
    db.execute(
        "INSERT INTO desk_log (at, who, action, round, detail, why) VALUES (?, ?, ?, ?, ?, ?)",
        (at, who.strip(), action, number, json.dumps(detail, ensure_ascii=False), why.strip()),
    )


def _seat_of(seats: list[SeatRow], name: str) -> SeatRow | None:
    return next((seat for seat in seats if name in seat.players), None)


def _save_seat(db: Any, seat: SeatRow) -> None:
    db.execute(
        "UPDATE seats SET players = ?, lives = ? WHERE round = ? AND table_no = ?",
        (json.dumps(seat.players), json.dumps(dict(seat.lives)), seat.round, seat.table_no),
    )


def leave(
    hub: Hub,
    name: str,
    how: str,
    *,
    who: str,
    why: str,
    now: float,
    substitute: str = "",
) -> Leaving:
    """``name`` leaves the tournament: ``how`` is "withdrawn", "disqualified" or "replaced"
    (by ``substitute``: a registered player not seated this round, or a full name to register,
    in the team of the player replaced). Where they leave: see the module."""
    _why(who, why)
    store = hub.store
    players = {e.name: e for e in store.players()}
    if name not in players:
        raise DeskError("desk_not_registered", name=name)
    gone = {leaving.name: leaving for leaving in leavings(store)}
    if name in gone:
        raise DeskError("desk_left_already", name=name, n=gone[name].round)
    rounds = store.rounds()
    last: RoundRow | None = rounds[-1] if rounds else None
    seats = store.seats(last.number) if last is not None and last.state != "finished" else []
    seat = _seat_of(seats, name)
    if how == "replaced":
        if substitute == name:
            raise DeskError("desk_not_self", name=name)
        substitute = _substitute(hub, substitute, players[name].team, gone, seats)
    number = (last.number + (last.state == "finished")) if last is not None else 1
    after = 0
    if last is not None and last.state == "running":
        after = sum(r.kind == "game" and r.approved for r in store.results(last.number))
    changed = _seat_without(hub, seat, name, substitute) if seat is not None else None
    leaving = Leaving(name, number, how, after, substitute)
    detail = {"name": name, "substitute": substitute, "table": seat.table_no if seat else None}
    with store.transaction() as db:
        record_leaving(db, leaving)
        if changed is not None:
            _save_seat(db, changed)
        _log(db, now, who, how, number, detail, why)
    hub.seats_changed()
    return leaving


def _substitute(
    hub: Hub, given: str, team: str, gone: dict[str, Leaving], seats: list[SeatRow]
) -> str:
    """The substitute's name on the tables: a registered player free to play, or one
    registered now from a full name (``Jan Springer``), in ``team``."""
    if not given.strip():
        raise DeskError("desk_name_substitute")
    registered = {e.name for e in hub.store.players()}
    if given not in registered:
        try:
            line = replace(parse_item(given), team=team)
        except RosterError as error:
            raise DeskError("desk_bad_substitute", name=given, reason=str(error)) from None
        full = {str(f) for (f,) in hub.store.select("SELECT full_name FROM roster")}
        if line.full_name in full:
            raise DeskError("desk_registered_full", name=line.full_name)
        try:
            return register(hub.store, [line]).entrants[0].name
        except RosterError as error:
            raise DeskError("desk_bad_substitute", name=given, reason=str(error)) from None
    if given in gone:
        raise DeskError("desk_substitute_left", name=given)
    seat = _seat_of(seats, given)
    if seat is not None:
        raise DeskError("desk_substitute_plays", name=given, table=seat.table_no)
    return given


def _seat_without(hub: Hub, seat: SeatRow, name: str, substitute: str) -> SeatRow:
    """``seat`` with ``substitute`` in ``name``'s place (or without ``name``), and the lives
    ``name`` has left going to the substitute."""
    if substitute:
        players = tuple(substitute if p == name else p for p in seat.players)
        left = {line.name: line.lives for line in hub.progress().lines}.get(name)
        lives = tuple(
            (substitute, left if left is not None else n) if p == name else (p, n)
            for p, n in seat.lives
        )
    else:
        players = tuple(p for p in seat.players if p != name)
        lives = tuple((p, n) for p, n in seat.lives if p != name)
        if seat.kind is PhaseKind.POINTS and len(players) < 2:
            raise DeskError("desk_table_short", table=seat.table_no, n=len(players), name=name)
    return replace(seat, players=players, lives=lives)


def redraw(hub: Hub, seed: int | None, *, who: str, why: str, now: float) -> list[SeatRow]:
    """Draw the last round again: only while it is drawn and not started."""
    _why(who, why)
    store = hub.store
    rounds = store.rounds()
    if not rounds or rounds[-1].state != "drawn":
        raise DeskError("desk_not_drawn")
    old, seats = rounds[-1], store.seats(rounds[-1].number)
    with store.transaction() as db:
        db.execute("DELETE FROM seats WHERE round = ?", (old.number,))
        db.execute("DELETE FROM rounds WHERE number = ?", (old.number,))
    hub.seats_changed()
    try:
        tables = hub.draw_round(seed)
    except HubError:
        store.save_draw(old.number, old.seed, seats)  # as it was
        raise
    with store.transaction() as db:
        _log(db, now, who, "redrawn", old.number, {"tables": len(tables)}, why)
    hub.seats_changed()
    return tables


def reopen(
    hub: Hub, *, who: str, why: str, now: float, minutes: float | None = None
) -> RoundState:
    """Let the last round run again (results are taken again): only while it is finished and
    no round after it is drawn. ``minutes``: a new time box from now (0: none); None keeps
    the round's own."""
    _why(who, why)
    store = hub.store
    rounds = store.rounds()
    if not rounds or rounds[-1].state != "finished":
        raise DeskError("desk_not_reopenable")
    last = rounds[-1]
    ends_at = last.ends_at if minutes is None else (now + minutes * 60 if minutes else None)
    with store.transaction() as db:
        db.execute(
            "UPDATE rounds SET state = 'running', ends_at = ? WHERE number = ?",
            (ends_at, last.number),
        )
        _log(db, now, who, "reopened", last.number, {}, why)
    return RoundState(hub.event, last.number, "running", last.starts_at, ends_at)
