"""The hub's standings and view kept up to date a result at a time (firmware/hub/tally.py)
equal a count of every stored result made from scratch, after every step of a run with
corrections, voids, a paper card, an accepted refusal, approvals, a withdrawal, a Springer, a
redraw, a finished and reopened round, and with another connection's commits.

The oracle is the full recount: :meth:`Hub.recounted` (the engine's replay of every stored
game) and the view and the standings' publication of a fresh hub on the same file, whose
first count reads everything."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from engine.scoring import GameResult
from firmware.hub.desk import leave, redraw, reopen
from firmware.hub.hub import Hub, HubError
from firmware.hub.store import HubStore, SeatRow
from firmware.hub.view import ViewJson
from firmware.wire.messages import Result, result_topic
from sim.bench.hub_work import HubWork, main
from tests.hub.helpers import EVENT, game_result, running_round, tournament

WHO = {"who": "Lena", "why": "the card says so", "now": 5000.0}


def same_as_from_scratch(hub: Hub, path: Path, states: ViewJson) -> None:
    """The hub's standings, view and publication are those of a count from scratch (and the
    TV's state, made from the last one's rows where they did not change, the view's)."""
    assert hub.progress() == hub.recounted()
    view = hub.view(7.0)
    assert states.state(view) == view.to_json()
    assert [tables_counted(hub)[t.table] for t in view.tables] == [
        (t.games, t.halves, t.waiting, t.last_loser) for t in view.tables
    ]
    assert view.waiting == hub.store.count("results", "approved = 0 AND voided = 0")
    fresh = Hub(HubStore(path))
    try:
        assert view == fresh.view(7.0)
        assert hub.standings_publication() == fresh.standings_publication()
    finally:
        fresh.store.close()


def tables_counted(hub: Hub) -> dict[int, tuple[int, int, int, str | None]]:
    """Each table of the current round: its games, halves, results waiting and last loser,
    from every stored result of the round."""
    number = hub.store.rounds()[-1].number
    found = {}
    for seat in hub.store.seats(number):
        mine = [r for r in hub.store.results(number) if r.table_no == seat.table_no]
        games = [r for r in mine if r.kind == "game"]
        last = json.loads(games[-1].payload)["loser"] if games else None
        found[seat.table_no] = (len(games), len(mine) - len(games),
                                sum(not r.approved for r in mine), last)  # fmt: skip
    return found


def send(hub: Hub, seat: SeatRow, game: int, loser: int) -> str:
    """A table's game result through the intake; its Ack's status."""
    result = game_result(seat, game, loser)
    answer = hub.receive(result_topic(EVENT, f"table-{seat.table_no}"), result.to_json(), 1001.0)
    return answer[0].payload.decode()


def half(hub: Hub, seat: SeatRow, game: int) -> None:
    players, loser = seat.players, seat.players[0]
    out = (*((p,) for p in players if p != loser), (loser,))
    result = Result(EVENT, f"table-{seat.table_no}", seat.round, game, "half", players, loser,
                    1, out)  # fmt: skip
    hub.receive(result_topic(EVENT, f"table-{seat.table_no}"), result.to_json(), 1001.0)


def test_a_points_run_with_every_desk_action_counts_as_from_scratch(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 12, teams=3)
    seats, states = running_round(hub), ViewJson()
    same_as_from_scratch(hub, path, states)
    for game in range(1, 4):
        for seat in seats:
            assert '"stored"' in send(hub, seat, game, (game + seat.table_no) % 4)
            same_as_from_scratch(hub, path, states)
    half(hub, seats[0], 4)
    same_as_from_scratch(hub, path, states)
    assert hub.tally.taken >= 9  # the games came in one by one, not by recounts
    first = game_result(seats[0], 1, 0)
    b = seats[0].players[1]
    order = (tuple(p for p in seats[0].players if p != b), (b,))
    hub.correct_result(first.id, GameResult(seats[0].players, (b, b), None, b, (order, order)),
                       "Lena", "the card", 5000.0)  # fmt: skip
    same_as_from_scratch(hub, path, states)
    hub.void_result(game_result(seats[1], 2, 0).id, "Lena", "played twice", 5000.0)
    same_as_from_scratch(hub, path, states)
    card = GameResult(seats[2].players, (seats[2].players[0],) * 2, None, seats[2].players[0],
                      ((tuple(seats[2].players[1:]), (seats[2].players[0],)),) * 2)  # fmt: skip
    hub.paper_result(1, seats[2].table_no, 9, card, "Lena", "paper card", 5000.0)
    same_as_from_scratch(hub, path, states)
    leave(hub, seats[1].players[3], "withdrawn", **WHO)
    same_as_from_scratch(hub, path, states)
    now = next(s for s in hub.store.seats(1) if s.table_no == seats[1].table_no)
    assert '"stored"' in send(hub, now, 5, 0)  # the first game after the leaving
    same_as_from_scratch(hub, path, states)
    assert '"stored"' in send(hub, now, 6, 1)  # and the next, taken one by one again
    same_as_from_scratch(hub, path, states)
    leave(hub, seats[0].players[2], "replaced", substitute="Jan Springer", **WHO)
    same_as_from_scratch(hub, path, states)
    hub.finish_round(confirmed=True)
    same_as_from_scratch(hub, path, states)
    assert '"refused"' in send(hub, seats[2], 7, 2)  # late: the round is finished
    (refusal,) = hub.store.refusal_rows()
    hub.accept_refused(refusal.seq, "Lena", "it was played in time", 5000.0)
    same_as_from_scratch(hub, path, states)
    reopen(hub, **WHO)
    assert '"stored"' in send(hub, seats[2], 8, 3)
    same_as_from_scratch(hub, path, states)
    hub.finish_round(confirmed=True)
    hub.draw_round(seed=2)
    same_as_from_scratch(hub, path, states)
    second = redraw(hub, 3, **WHO)
    same_as_from_scratch(hub, path, states)
    hub.start_round(6000.0, 60)
    hub.store.set("approval", "on")
    same_as_from_scratch(hub, path, states)
    for seat in second:
        recounts = hub.tally.recounts
        send(hub, seat, 1, 1)
        same_as_from_scratch(hub, path, states)
        assert seat == second[0] or hub.tally.recounts == recounts  # waiting: nothing to count
    assert hub.view(0.0).waiting == len(second)
    hub.store.approve(game_result(second[0], 1, 1).id)
    same_as_from_scratch(hub, path, states)
    other = Hub(HubStore(path))  # another process: `schocken hub approve` beside `serve`
    other.store.approve()
    other.store.close()
    same_as_from_scratch(hub, path, states)
    for seat in second:
        send(hub, seat, 2, 2)
        same_as_from_scratch(hub, path, states)


def test_a_ko_run_with_a_springer_counts_as_from_scratch(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 8, fmt="velen")
    seats, states = running_round(hub), ViewJson()
    for game in range(1, 3):
        for seat in seats:
            send(hub, seat, game, game - 1)
            same_as_from_scratch(hub, path, states)
    leave(hub, seats[0].players[2], "replaced", substitute="Jan Springer", **WHO)
    same_as_from_scratch(hub, path, states)
    now = next(s for s in hub.store.seats(1) if s.table_no == seats[0].table_no)
    for game in range(3, 6):
        send(hub, now, game, 2)  # Jan loses the lives he took over, then is out
        same_as_from_scratch(hub, path, states)
    assert hub.recounted().lines == hub.progress().lines
    assert hub.tally.taken >= 4


def test_the_hubs_work_bench_takes_each_game_as_it_comes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m sim.bench.hub_work`` at a small size: its results go through the intake and
    are taken game by game, and it prints its one line."""
    work = HubWork(tmp_path, tables=6)
    work.store_games(12)
    work.flush()
    recounts = work.hub.tally.recounts
    for _ in range(4):
        work.result(each=True)
    assert work.hub.tally.recounts == recounts and work.hub.tally.taken == 4
    assert len(work.hub.store.results()) == 16
    assert work.hub.progress() == work.hub.recounted()
    assert main(["--tables", "4", "--games", "8", "--results", "3"]) == 0
    assert "ms (" in capsys.readouterr().out


def test_threads_asking_for_the_view_while_results_come_count_each_game_once(
    tmp_path: Path,
) -> None:
    """The worker takes results while the server's pages and serve's main loop ask for the
    view: each new game is taken once, whoever asks first."""
    path = tmp_path / "t.db"
    hub = tournament(path, 16)
    seats = running_round(hub)
    done = threading.Event()

    def ask() -> None:
        while not done.is_set():
            hub.view(1.0)
            hub.standings_publication()

    askers = [threading.Thread(target=ask) for _ in range(2)]
    for asker in askers:
        asker.start()
    try:
        for game in range(1, 5):
            for seat in seats:
                send(hub, seat, game, game % 4)
                hub.progress()
    finally:
        done.set()
        for asker in askers:
            asker.join()
    assert hub.progress() == hub.recounted()
    assert sum(line.games for line in hub.progress().lines) == 4 * 4 * len(seats)


def test_a_count_that_fails_is_made_again_and_holds_nothing_old(tmp_path: Path) -> None:
    """A format the hub does not know: the standings say so (one line), a result meanwhile is
    stored, and with the format known again they count it."""
    path = tmp_path / "t.db"
    hub = tournament(path, 8)
    seats = running_round(hub)
    send(hub, seats[0], 1, 0)
    hub.progress()
    hub.store.set("format", "nonsense")
    with pytest.raises(HubError, match="format 'nonsense' is not one of"):
        hub.progress()
    topic = result_topic(EVENT, f"table-{seats[1].table_no}")
    (ack,) = hub.receive(topic, game_result(seats[1], 1, 1).to_json(), 1001.0, standings=False)
    assert b'"stored"' in ack.payload
    with pytest.raises(HubError, match="format 'nonsense'"):
        hub.progress()
    hub.store.set("format", "dm")
    assert hub.progress() == hub.recounted()
    assert sum(line.games for line in hub.progress().lines) == 8
