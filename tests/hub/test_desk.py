"""The director's desk on a real tournament file.

Beside a running hub, through Debian's real mosquitto: a correction and a paper table card made
from another connection to the file (as `schocken hub correct` and `paper` run beside `serve`)
are recounted and published to the tables and TVs, and a table's own copy of a corrected
result, sent again, is answered "duplicate".

After the draw: a player withdrawn, disqualified or replaced by a Springer, a round drawn
again, a finished round reopened; each recounts the standings, reaches the tables as their
retained assignment (read by a second hub on the same file, as `serve` beside the command
reads it) and is kept in the history."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.scoring import GameResult
from firmware.hub.desk import history, leave, redraw, reopen
from firmware.hub.hub import Hub, HubError
from firmware.hub.store import HubStore, SeatRow
from firmware.wire.messages import Ack, Assignment, RoundState, result_topic
from tests.broker import Broker
from tests.cli.test_hub_cli import hub as run_hub
from tests.hub.helpers import EVENT, game_result, running_round, serving, tournament
from tests.hub.test_broker_intake import Table


def lost_on_the_board(table: Table, player: str, count: int) -> bool:
    """Wait until the retained standings the table reads say ``player`` lost ``count`` games."""
    with table._got:
        return table._got.wait_for(
            lambda: bool(table.boards)
            and {r.name: r.games_lost for r in table.boards[-1].rows}.get(player) == count,
            10,
        )


def test_a_correction_and_a_paper_card_reach_the_tables_standings(
    module_broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    hub = tournament(db)
    seats = running_round(hub)
    with serving(hub, module_broker):
        table = Table(module_broker, 1)
        sent = game_result(seats[0], 1)  # lost by players[0]
        table.send(sent)
        assert table.wait_for(1)[0].status == "stored"
        first, second = seats[0].players[:2]
        assert lost_on_the_board(table, first, 1)
        director = Hub(HubStore(db))  # another connection, as another process
        order = (tuple(p for p in seats[0].players if p != second), (second,))
        fixed = GameResult(seats[0].players, (second, second), None, second, (order, order))
        director.correct_result(sent.id, fixed, "Vera", "a Durchmarsch on the card", time.time())
        assert lost_on_the_board(table, first, 0) and lost_on_the_board(table, second, 1)
        table.send(sent)  # the table's own copy again
        assert table.wait_for(2)[1].status == "duplicate"
        a = seats[1].players[0]
        other = (tuple(p for p in seats[1].players if p != a), (a,))
        card = GameResult(seats[1].players, (a, a), None, a, (other, other))
        director.paper_result(1, 2, 1, card, "Vera", "paper table card", time.time())
        assert lost_on_the_board(table, a, 1)
        table.link.stop()
    assert sum(line.games_lost for line in Hub(HubStore(db)).progress().lines) == 2


WHO = {"who": "Lena", "why": "ill", "now": 5000.0}


def send(hub: Hub, table: SeatRow, game: int, loser: int = 0) -> Ack:
    topic = result_topic(EVENT, f"table-{table.table_no}")
    (answer, *_) = hub.receive(topic, game_result(table, game, loser).to_json(), 1001.0)
    return Ack.from_json(answer.payload)


def seat(hub: Hub, number: int, round_: int = 1) -> SeatRow:
    return next(s for s in hub.store.seats(round_) if s.table_no == number)


def served(path: Path, table: int) -> Assignment:
    """The assignment a `serve` on the same file publishes for ``table`` now."""
    other = Hub(HubStore(path))
    topic = f"schock/{EVENT}/assign/table-{table}"
    (found,) = [p for p in other.publications() if p.topic == topic]
    return Assignment.from_json(found.payload)


def line(hub: Hub, name: str) -> tuple[int, bool, str]:
    placed = next(p for p in hub.progress().standings() if p.line.name == name)
    return placed.place, placed.line.out, placed.line.left


def test_a_player_withdrawn_mid_round_keeps_their_games_and_leaves_the_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 8)
    table = running_round(hub)[0]
    serve = Hub(HubStore(path))  # a `serve` that has seen the round's tables already
    serve.assignments()
    assert send(hub, table, 1, loser=0).status == "stored"
    leaver = table.players[1]
    points = next(x.points for x in hub.progress().lines if x.name == leaver)
    leave(hub, leaver, "withdrawn", **WHO)
    # The table plays on with three, and the serve's hub takes their results, not the old four.
    now = seat(hub, 1)
    assert now.players == tuple(p for p in table.players if p != leaver)
    assert served(path, 1).players == now.players
    assert send(serve, table, 2).status == "refused"
    assert send(serve, now, 2).status == "stored"
    # Recounted: the game before counts for them; they rank after those still in.
    assert next(x.points for x in hub.progress().lines if x.name == leaver) == points
    assert line(hub, leaver)[1:] == (True, "withdrawn")
    assert line(hub, leaver)[0] > max(line(hub, p)[0] for p in now.players)
    (entry,) = history(hub)
    assert (entry.who, entry.action, entry.round, entry.why) == ("Lena", "withdrawn", 1, "ill")
    assert entry.detail == {"name": leaver, "substitute": "", "table": 1}
    # Not drawn again.
    hub.finish_round()
    assert leaver not in {p for s in hub.draw_round(seed=3) for p in s.players}


def test_a_disqualified_player_ranks_last_and_counts_for_no_team(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub = tournament(tmp_path / "t.db", 8, teams=2)
    tables = running_round(hub)
    for table in tables:
        assert send(hub, table, 1, loser=0).status == "stored"
    cheat = tables[0].players[1]  # won the game: the best points
    team = next(e.team for e in hub.store.players() if e.name == cheat)
    before = {t.team: t.score for t in hub.view(1.0).teams}
    leave(hub, cheat, "disqualified", **WHO)
    assert line(hub, cheat) == (8, True, "disqualified")
    mine = next(x for x in hub.progress().lines if x.name == cheat)
    after = {t.team: t.score for t in hub.view(2.0).teams}
    assert after[team] == before[team] - mine.points and mine.points
    standings = run_hub(capsys, "standings", "--db", str(tmp_path / "t.db"))[1].splitlines()
    assert standings[11].startswith(f"8.  {cheat}  ") and standings[11].endswith("disqualifiziert")


def test_a_springer_takes_the_seat_and_the_lives_left_in_a_ko_round(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 8, fmt="velen")
    table = running_round(hub)[0]
    assert send(hub, table, 1, loser=0).status == "stored"  # the first player: 2 lives left
    leaver = table.players[0]
    leaving = leave(hub, leaver, "replaced", substitute="Jan Springer", **WHO)
    assert leaving.substitute == "Jan" and leaving.after == 1
    assignment = served(path, 1)
    assert assignment.players == ("Jan", *table.players[1:])
    assert dict(assignment.lives)["Jan"] == 2 and leaver not in dict(assignment.lives)
    now = seat(hub, 1)
    assert send(hub, now, 2, loser=0).status == "stored"  # Jan loses one of the two
    jan = next(x for x in hub.progress().lines if x.name == "Jan")
    assert (jan.lives, jan.games, jan.team) == (1, 1, "")
    assert line(hub, leaver)[1:] == (True, "replaced")
    assert history(hub)[0].detail == {"name": leaver, "substitute": "Jan", "table": 1}


def test_a_round_is_drawn_again_only_before_it_starts(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 12)
    first = hub.draw_round(seed=1)
    again = redraw(hub, 2, **WHO)
    assert [s.players for s in again] != [s.players for s in first]
    assert [s.players for s in hub.store.seats(1)] == [s.players for s in again]
    assert hub.store.round(1) is not None and hub.store.round(1).seed == 2  # type: ignore[union-attr]
    assert [e.action for e in history(hub)] == ["redrawn"]
    hub.start_round(6000.0, 0)
    assert served(path, 1).players == again[0].players
    with pytest.raises(HubError, match="only a drawn round that has not started"):
        redraw(hub, 3, **WHO)
    assert len(history(hub)) == 1


def test_a_finished_round_reopens_and_takes_the_late_result(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 8)
    table = running_round(hub)[0]
    hub.finish_round()
    assert send(hub, table, 1).status == "refused"  # "round 1 is finished"
    state = reopen(hub, minutes=10, **WHO)
    assert state == RoundState(EVENT, 1, "running", 1000.0, 5000.0 + 600)
    other = Hub(HubStore(path))
    (published,) = [p for p in other.publications() if p.topic == f"schock/{EVENT}/round"]
    assert RoundState.from_json(published.payload) == state
    assert send(other, table, 1).status == "stored"
    assert sum(x.games for x in other.progress().lines) == 4  # recounted with it
    hub.finish_round()
    hub.draw_round(seed=2)
    with pytest.raises(HubError, match="only the last round"):
        reopen(hub, **WHO)
    assert [e.action for e in history(hub)] == ["reopened"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["withdraw", "Nobody", "--why", "x"], "'Nobody' is no registered player"),
        (["replace", "P00", "P01", "--why", "x"], "P01 plays at table 1 this round"),
        (["replace", "P00", "P00", "--why", "x"], "P00 cannot stand in for themselves"),
        (["replace", "P00", "Jo|hann", "--why", "x"], "player name 'Jo|hann'"),
        (["reopen", "--why", "x"], "only the last round, finished"),
        (["redraw", "--why", "x"], "only a drawn round that has not started"),
        (["withdraw", "P00", "--why", " "], "say who you are and why"),
    ],
)
def test_a_desk_mistake_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    path = tmp_path / "t.db"
    hub = tournament(path, 8)
    running_round(hub)
    seats = hub.store.seats(1)
    code, out, err = run_hub(capsys, args[0], "--db", str(path), *args[1:], "--lang", "en")
    assert code == 2 and out == "" and error in err and err.count("\n") == 1, err
    assert hub.store.seats(1) == seats and history(hub) == [] and len(hub.store.players()) == 8


def test_the_history_in_words_and_a_player_by_full_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    run_hub(capsys, "init", "--event", EVENT, "--db", db)
    run_hub(capsys, "players", "add", "--db", db, *(f"Spieler{i} Nachname" for i in range(8)))
    code, out, _ = run_hub(capsys, "withdraw", "--db", db, "Spieler3 Nachname", "--why", "krank",
                           "--who", "Lena")  # fmt: skip
    assert (code, out) == (0, "Spieler3 zurückgezogen (ab Runde 1)\n")
    code, out, _ = run_hub(capsys, "history", "--db", db, "--lang", "en")
    assert code == 0 and out.endswith(" Lena: Spieler3 withdrawn (from round 1) – krank\n")
    code, out, _ = run_hub(capsys, "draw", "--db", db, "--seed", "1")
    assert code == 0 and "Spieler3" not in out
