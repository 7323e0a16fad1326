"""A lost hub file refilled from the tables' answers (firmware/hub/refill.py) on real SQLite.

The whole way through a real broker, `schocken hub serve` and the tables' journals is
tests/tournament/test_tournament_run.py's (slow); the table's answer on the wire is
tests/tournament/test_table.py's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.hub import refill
from firmware.hub.hub import Hub
from firmware.wire.messages import (
    Ack,
    RefillRequest,
    Result,
    refill_answer_topic,
    refill_topic,
    result_topic,
    seat_topic,
)
from schockbesteck.cli import main
from tests.hub.helpers import EVENT, game_result, running_round, tournament

PLAYERS = 16


def played(path: Path) -> tuple[Hub, list[Result]]:
    """Two points rounds and a KO round begun (points-then-ko, 16 players): every table's
    first game of each round, and a second at table 1 of round 1."""
    hub = tournament(path, PLAYERS, teams=4, fmt="points-then-ko")
    results: list[Result] = []
    for number in (1, 2, 3):
        tables = running_round(hub, now=1000.0 * number)
        games = [game_result(t, 1, loser_index=number % len(t.players)) for t in tables]
        if number == 1:
            games.append(game_result(tables[0], 2, loser_index=2))
        for result in games:
            hub.receive(result_topic(EVENT, result.table), result.to_json(), 1000.0 * number + 1)
            results.append(result)
        if number < 3:
            hub.finish_round()
    return hub, results


def seats(hub: Hub) -> list[tuple[object, ...]]:
    return [(s.round, s.table_no, s.kind, s.players, s.lives)
            for r in hub.store.rounds() for s in hub.store.seats(r.number)]  # fmt: skip


def test_a_lost_file_made_again_from_the_tables_answers_stands_as_before(tmp_path: Path) -> None:
    lost, results = played(tmp_path / "lost.db")
    assert lost.store.seats(3)[0].lives  # the KO round: lives the draw gave
    fresh = tournament(tmp_path / "new.db", PLAYERS, teams=4, fmt="points-then-ko")
    # A table's result for the running round before the refill: no answer, nothing refused.
    late = game_result(lost.store.seats(3)[1], 2)
    assert fresh.receive(result_topic(EVENT, late.table), late.to_json(), 5000.0) == []
    asked = refill.ask(fresh.store, 5001.0)
    published = {p.topic: p.payload for p in fresh.publications()}
    assert RefillRequest.from_json(published[refill_topic(EVENT)]) == asked
    for result in [*results, results[0]]:  # one answer comes twice
        fresh.receive(refill_answer_topic(EVENT, result.table), result.to_json(), 5002.0)
    for assignment in lost.assignments():  # the running round's, as the tables hold them
        fresh.receive(seat_topic(EVENT, assignment.table), assignment.to_json(), 5003.0)
    assert refill.staged(fresh.store) == (len(results) + len(lost.assignments()), 4)
    assert fresh.receive(result_topic(EVENT, late.table), late.to_json(), 5004.0) == []
    assert fresh.store.refusals() == []

    done = refill.rebuild(fresh.store, fresh.format(), 5005.0)

    assert (done.rounds, done.running, done.tables) == ((1, 2, 3), 3, 4)
    assert (done.stored, done.known, done.unfit) == (len(results), 0, ())
    assert seats(fresh) == seats(lost)
    assert [(r.number, r.state) for r in fresh.store.rounds()] == [
        (1, "finished"), (2, "finished"), (3, "running")
    ]
    assert fresh.store.round(3) is not None and lost.store.round(3) is not None
    assert fresh.store.round(3).ends_at == lost.store.round(3).ends_at  # type: ignore[union-attr]
    assert fresh.progress().lines == lost.progress().lines
    assert {p.topic: p.payload for p in fresh.publications()}[refill_topic(EVENT)] == b""
    # The result that waited is stored when its table sends it again.
    (ack,) = [p for p in fresh.receive(result_topic(EVENT, late.table), late.to_json(), 5006.0)
              if p.topic.endswith(late.table)]  # fmt: skip
    assert Ack.from_json(ack.payload).status == "stored"
    # A second refill with the same answers changes nothing.
    refill.ask(fresh.store, 5007.0)
    for result in results:
        fresh.receive(refill_answer_topic(EVENT, result.table), result.to_json(), 5008.0)
    again = refill.rebuild(fresh.store, fresh.format(), 5009.0)
    assert (again.rounds, again.stored, again.known) == ((), 0, len(results))
    assert fresh.progress().lines != lost.progress().lines  # the late game counts once
    assert fresh.store.count("results") == len(results) + 1


def test_a_refill_answer_for_another_table_is_refused_and_not_kept(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    refill.ask(hub.store, 2000.0)
    forged = game_result(tables[1], 1)  # table-2's game on table-1's topic
    assert hub.receive(refill_answer_topic(EVENT, "table-1"), forged.to_json(), 2001.0) == []
    hub.receive(seat_topic(EVENT, "table-1"), b'{"v": 1, "kind": ', 2002.0)
    assert refill.staged(hub.store) == (0, 0)
    refill.cancel(hub.store)  # an answer nobody asked for is dropped, not kept
    fair = game_result(tables[0], 1)
    assert hub.receive(refill_answer_topic(EVENT, "table-1"), fair.to_json(), 2003.0) == []
    assert refill.staged(hub.store) == (0, 0)
    reasons = [reason for _at, _topic, _id, reason in hub.store.refusals()]
    assert "refill for table-2 sent on table-1's topic" in reasons
    assert len(reasons) == 2 and "Traceback" not in "".join(reasons)


def test_hub_refill_without_any_answer_says_so_in_one_line_and_closes_the_refill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub = tournament(tmp_path / "t.db")
    assert main(["hub", "refill", "--db", str(tmp_path / "t.db"), "--wait", "0.3"]) == 2
    err = capsys.readouterr().err.strip()
    assert "kein Tisch hat in 0.3 s geantwortet" in err and len(err.splitlines()) == 1
    assert refill.request(hub.store) is None


def test_a_table_away_during_the_refill_is_seated_by_the_next_one(tmp_path: Path) -> None:
    lost = tournament(tmp_path / "lost.db", 8, fmt="dm")
    answers: list[Result] = []
    for number in (1, 2):
        tables = running_round(lost, now=1000.0 * number)
        for table in tables:
            result = game_result(table, 1, loser_index=number)
            lost.receive(result_topic(EVENT, result.table), result.to_json(), 1000.0 * number)
            answers.append(result)
        if number == 1:
            lost.finish_round()
    fresh = tournament(tmp_path / "new.db", 8, fmt="dm")

    def answer(table: str) -> None:
        for result in answers:
            if result.table == table:
                fresh.receive(refill_answer_topic(EVENT, table), result.to_json(), 3000.0)
        (seat,) = [a for a in lost.assignments() if a.table == table]
        fresh.receive(seat_topic(EVENT, table), seat.to_json(), 3000.0)

    refill.ask(fresh.store, 3000.0)
    answer("table-1")  # table-2 is away
    first = refill.rebuild(fresh.store, fresh.format(), 3001.0)
    assert first.rounds == (1, 2) and [len(fresh.store.seats(n)) for n in (1, 2)] == [1, 1]
    # Back on the network, table-2 sends what waited: no answer (no refusal) until it is seated.
    waited = game_result(lost.store.seats(2)[1], 2)
    assert waited.table == "table-2"
    assert fresh.receive(result_topic(EVENT, "table-2"), waited.to_json(), 3001.5) == []
    assert fresh.store.refusals() == []
    refill.ask(fresh.store, 3002.0)
    answer("table-2")
    second = refill.rebuild(fresh.store, fresh.format(), 3003.0)
    assert (second.rounds, second.stored) == ((), 2)
    assert seats(fresh) == seats(lost)
    assert fresh.progress().lines == lost.progress().lines
    (ack,) = [p for p in fresh.receive(result_topic(EVENT, "table-2"), waited.to_json(), 3004.0)
              if p.topic.endswith("/ack/table-2")]  # fmt: skip
    assert Ack.from_json(ack.payload).status == "stored"
