"""Refill a lost hub database from the tables: every table's journals hold all it played.

A hub whose SQLite file is gone (a dead disk, a file deleted) starts again from a new file with
the same event, format and roster (``schocken hub init``, ``format``, ``players import``); then
``schocken hub refill`` asks the tables (:func:`ask`): ``schocken hub serve`` keeps a
:class:`~firmware.wire.messages.RefillRequest` retained on the broker, and every table answers
it once with every result its journals hold of the event (those the hub had acknowledged; what
still waits for an Ack comes on as ever) and with the assignment it holds. ``serve`` stages
each answer in the file (:func:`stage`, keyed by the result's id, so answers that come twice
are kept once). When no more come, :func:`rebuild` makes the rounds the file lacks (each
round's tables from its results, their kind and lives from the standings of the rounds before,
as the draw made them; the round the tables hold an assignment of exactly as assigned, and
running) and stores every staged result that fits its table. Then the request is cleared and
the tables send what waits. A result id stored already is left as it is: a refill on a file
that lost nothing changes nothing.

While a refill is open, a result for a round the file does not have (yet) gets no answer: it
stays in its table's outbox until the round is rebuilt; so does any result while the file
knows no round at all, and a result of a table a refill could not seat in a round it rebuilt
(the table was away: the next refill seats it) (:func:`holds_back`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.tournament import Format, Group, PhaseKind, PlayedRound, progress
from firmware.hub.store import HubStore, SeatRow
from firmware.wire.messages import Assignment, RefillRequest, Result, WireError, table_number

__all__ = [
    "RESULT_LEAF",
    "SEAT_LEAF",
    "Rebuilt",
    "ask",
    "cancel",
    "holds_back",
    "rebuild",
    "request",
    "stage",
    "staged",
]

logger = logging.getLogger(__name__)

#: The topic leaves the tables answer on (``schock/EVENT/table/TABLE/LEAF``).
RESULT_LEAF = "refill"
SEAT_LEAF = "seat"
#: The setting that holds the open request's time ("" when none is open).
_KEY = "refill"
#: The setting that lists the rounds refills made ("1,2,3").
_REBUILT = "refill_rounds"
#: The staged answers, beside the store's own tables (made at the first use).
_INBOX = (
    "CREATE TABLE IF NOT EXISTS refill_inbox (key TEXT PRIMARY KEY, table_no INTEGER NOT NULL,"
    " leaf TEXT NOT NULL, payload TEXT NOT NULL, at REAL NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What :func:`rebuild` did."""

    #: The rounds it made, and the one of them left running (None if none).
    rounds: tuple[int, ...]
    running: int | None
    #: Tables that answered, results staged, stored now, and stored already.
    tables: int
    staged: int
    stored: int
    known: int
    #: Ids of staged results that fit no table of their round (logged, not stored).
    unfit: tuple[str, ...] = field(default=())


def ask(store: HubStore, now: float) -> RefillRequest:
    """Open a refill: ``serve`` publishes the request (retained) at its next look at the file."""
    with store.transaction() as db:
        db.execute(_INBOX)
        db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (_KEY, repr(now)))
    return RefillRequest(store.get("event"), now)


def request(store: HubStore) -> RefillRequest | None:
    """The open refill's request, or None."""
    asked = store.get(_KEY)
    return RefillRequest(store.get("event"), float(asked)) if asked else None


def cancel(store: HubStore) -> None:
    """Close the refill without rebuilding anything."""
    store.set(_KEY, "")


def holds_back(store: HubStore, round_: int, table_no: int) -> bool:
    """Whether table ``table_no``'s result for ``round_`` must wait unanswered: the file knows
    no round at all (a lost one made again, before its refill: the broker hands a restarted
    hub what was queued for it, and a refusal would be final), or a refill is open and the
    file has not rebuilt that round (yet), or a refill rebuilt that round without the table
    (it was away: the next refill seats it)."""
    rounds = store.rounds()
    row = next((r for r in rounds if r.number == round_), None)
    if row is None or row.state == "drawn":
        return not rounds or bool(store.get(_KEY))
    rebuilt = store.get(_REBUILT)
    if not rebuilt or str(round_) not in rebuilt.split(","):
        return False  # the common case: two reads
    return all(seat.table_no != table_no for seat in store.seats(round_))


def stage(store: HubStore, user: str, leaf: str, payload: bytes, now: float) -> str | None:
    """Keep one table's answer to the refill (a result or the assignment it holds) until
    :func:`rebuild`; one line why it cannot be, or None. Kept once however often it comes; with
    no refill open, dropped (a late answer: the next refill asks again), so no table can fill
    the file with answers nobody asked for."""
    if not store.get(_KEY):
        logger.info("refill: an answer from %s with no refill open, dropped", user)
        return None
    number = table_number(user)
    if number is None:
        return f"{user!r} is not a table's name"
    try:
        if leaf == RESULT_LEAF:
            result = Result.from_json(payload)
            owner, key = result.table, result.id
        else:
            assignment = Assignment.from_json(payload)
            owner, key = assignment.table, f"seat/{assignment.table}/r{assignment.round}"
    except WireError as error:
        return str(error)
    if owner != user:
        return f"refill for {owner} sent on {user}'s topic"
    with store.transaction() as db:
        db.execute(_INBOX)
        db.execute(
            "INSERT OR IGNORE INTO refill_inbox VALUES (?, ?, ?, ?, ?)",
            (key, number, leaf, payload.decode("utf-8"), now),
        )
    return None


def staged(store: HubStore) -> tuple[int, int]:
    """How many answers are staged, and from how many tables."""
    with store.transaction() as db:
        db.execute(_INBOX)
        row = db.execute("SELECT COUNT(*), COUNT(DISTINCT table_no) FROM refill_inbox").fetchone()
    return int(row[0]), int(row[1])


def rebuild(store: HubStore, fmt: Format, now: float) -> Rebuilt:
    """Make the rounds the file lacks from the staged answers (and the tables a round it has
    lacks), store the staged results that fit, and close the refill (see the module's
    docstring)."""
    results, seats = _answers(store)
    known = {row.number for row in store.rounds()}
    top = max([r.round for r in results] + [a.round for a in seats] + list(known), default=0)
    games: dict[int, list[Result]] = {}
    for stored in store.results():
        if stored.kind == "game":
            games.setdefault(stored.round, []).append(Result.from_json(stored.payload))
    for result in results:
        if result.kind == "game" and not store.has_result(result.id):
            games.setdefault(result.round, []).append(result)
    made: list[int] = []
    for number in range(1, top + 1):
        played = [PlayedRound(n, tuple(g.game_result() for g in games.get(n, ())))
                  for n in range(1, number)]  # fmt: skip
        groups = progress(fmt, store.players(), played).groups
        assigned = [a for a in seats if a.round == number]
        tables = _tables(number, [r for r in results if r.round == number], assigned, groups)
        if number in known:
            _add_missing(store, number, tables)
        elif tables:
            store.save_draw(number, 0, tables)
            times = assigned[0] if assigned else None
            store.set_round(number, "running" if number == top else "finished",
                            times.starts_at if times else None, times.ends_at if times else None)
            made.append(number)
    approved = store.get("approval", "off") != "on"
    stored_now = already = 0
    unfit: list[str] = []
    seated: dict[int, dict[int, SeatRow]] = {}
    for result in results:
        if store.has_result(result.id):
            already += 1
            continue
        if result.round not in seated:
            seated[result.round] = {s.table_no: s for s in store.seats(result.round)}
        seat = seated[result.round].get(table_number(result.table) or 0)
        if seat is None or not set(result.players) <= set(seat.players):
            logger.warning("refill: %s fits no table of round %d", result.id, result.round)
            unfit.append(result.id)
            continue
        stored_now += store.store_result(
            result.id, result.round, seat.table_no, result.game, result.kind,
            result.to_json().decode(), now, approved,
        )  # fmt: skip
    rebuilt = sorted({*made, *(int(n) for n in store.get(_REBUILT).split(",") if n)})
    with store.transaction() as db:
        answered = db.execute("SELECT COUNT(DISTINCT table_no) FROM refill_inbox").fetchone()[0]
        db.execute("DELETE FROM refill_inbox")
        db.execute("INSERT OR REPLACE INTO settings VALUES (?, '')", (_KEY,))
        db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)",
                   (_REBUILT, ",".join(map(str, rebuilt))))
    running = top if made and made[-1] == top else None
    return Rebuilt(tuple(made), running, int(answered), len(results), stored_now, already,
                   tuple(unfit))


def _add_missing(store: HubStore, number: int, tables: Sequence[SeatRow]) -> None:
    """Seat in round ``number`` (which the file has) the tables of ``tables`` it lacks: a
    table that answered only a later refill."""
    seated = {seat.table_no for seat in store.seats(number)}
    missing = [t for t in tables if t.table_no not in seated]
    if not missing:
        return
    with store.transaction() as db:
        db.executemany(
            "INSERT OR IGNORE INTO seats VALUES (?, ?, ?, ?, ?)",
            [(number, t.table_no, t.kind.value, json.dumps(t.players), json.dumps(dict(t.lives)))
             for t in missing],
        )  # fmt: skip


def _answers(store: HubStore) -> tuple[list[Result], list[Assignment]]:
    """The staged results (in the order of their tables' games) and assignments."""
    with store.transaction() as db:
        db.execute(_INBOX)
        rows = db.execute("SELECT leaf, payload FROM refill_inbox ORDER BY rowid").fetchall()
    results = [Result.from_json(p) for leaf, p in rows if leaf == RESULT_LEAF]
    seats = [Assignment.from_json(p) for leaf, p in rows if leaf == SEAT_LEAF]
    results.sort(key=lambda r: (r.round, table_number(r.table) or 0, r.game))  # stable
    return results, seats


def _tables(
    number: int, results: Sequence[Result], assigned: Sequence[Assignment],
    groups: Sequence[Group],
) -> list[SeatRow]:  # fmt: skip
    """Round ``number``'s tables: as assigned where a table sent its assignment, else its
    players as its results name them (a points table's every result names them all, a KO
    table's first game those it was drawn with), their kind and lives from ``groups`` (the
    standings' groups for the round, as the draw had them)."""
    tables: dict[int, SeatRow] = {
        a.number: SeatRow(number, a.number, a.kind, a.players, a.lives) for a in assigned
    }
    players: dict[int, list[str]] = {}
    for result in results:
        table = table_number(result.table) or 0
        if table in tables:
            continue
        seated = players.setdefault(table, [])
        seated += [p for p in result.players if p not in seated]
    for table, names in players.items():
        group = next((g for g in groups if names[0] in g.players), None)
        kind = group.phase.kind if group is not None else PhaseKind.POINTS
        lives = dict(group.lives) if group is not None else {}
        tables[table] = SeatRow(number, table, kind, tuple(names),
                                tuple((p, lives[p]) for p in names if p in lives))
    return [tables[n] for n in sorted(tables)]
