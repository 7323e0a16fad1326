"""The hub's intake and the director's commands on a real SQLite file (firmware/hub/)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.tournament import PhaseKind
from firmware.hub.hub import Hub, HubError, init_tournament
from firmware.hub.store import HubStore, HubStoreError
from firmware.wire.messages import (
    Ack,
    Assignment,
    StandingsBoard,
    TableStatus,
    result_topic,
    table_number,
)
from tests.hub.helpers import EVENT, game_result, running_round, tournament


def ack_of(answer: list, user: str) -> Ack:  # type: ignore[type-arg]
    (ack,) = [p for p in answer if p.topic == f"schock/{EVENT}/ack/{user}"]
    return Ack.from_json(ack.payload)


def test_the_file_is_sqlite_in_wal_mode_with_results_unique_by_id(tmp_path: Path) -> None:
    tournament(tmp_path / "t.db")
    db = sqlite3.connect(tmp_path / "t.db")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    ((sql,),) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'results'")
    assert "id TEXT PRIMARY KEY" in sql


def test_a_result_is_stored_once_and_answered_duplicate_the_second_time(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    result = game_result(tables[0], 1)
    topic = result_topic(EVENT, "table-1")
    first = hub.receive(topic, result.to_json(), 1001.0)
    assert ack_of(first, "table-1") == Ack(result.id, "stored")
    board = StandingsBoard.from_json(first[-1].payload)
    assert sum(row.games_lost for row in board.rows) == 1
    again = hub.receive(topic, result.to_json(), 1002.0)
    assert ack_of(again, "table-1") == Ack(result.id, "duplicate")
    assert len(again) == 1  # the standings did not change: not published again
    assert [r.id for r in hub.store.results()] == [result.id]


def test_a_duplicate_is_answered_even_after_the_round_finished(tmp_path: Path) -> None:
    """A table that resends after the round ended must still empty its outbox."""
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    result = game_result(tables[0], 1)
    topic = result_topic(EVENT, "table-1")
    hub.receive(topic, result.to_json(), 1001.0)
    hub.finish_round()
    assert ack_of(hub.receive(topic, result.to_json(), 2.0), "table-1").status == "duplicate"
    late = game_result(tables[0], 2)
    ack = ack_of(hub.receive(topic, late.to_json(), 3.0), "table-1")
    assert (ack.status, ack.reason) == ("refused", "round 1 is finished")


def test_a_table_reporting_for_another_is_refused_logged_and_counted_nowhere(
    tmp_path: Path,
) -> None:
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    forged = game_result(tables[1], 1)  # table-2's game, sent on table-1's topic
    answer = hub.receive(result_topic(EVENT, "table-1"), forged.to_json(), 1001.0)
    ack = ack_of(answer, "table-1")
    assert ack.status == "refused" and "table-2" in ack.reason and "table-1" in ack.reason
    assert hub.store.results() == []
    assert [r[2] for r in hub.store.refusals()] == [forged.id]
    assert hub.view(1002.0).refused == 1
    assert all(row.games_lost == 0 for row in hub.board().rows)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("not json", "cut off: the JSON ends too soon, after line 1"),
        ("wrong players", "are not table 1's"),
        ("unassigned table", "plays no game in round 1"),
        ("unknown round", "round 2 has not started"),
        ("other event", "this hub runs 'dm2026'"),
    ],
)
def test_a_bad_result_is_refused_with_its_reason(tmp_path: Path, change: str, reason: str) -> None:
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    result = game_result(tables[0], 1)
    user = "table-1"
    payload = result.to_json()
    if change == "not json":
        payload = b'{"id": "dm2026/table-1/r1/g1/game", "v": 1, "kind": '
    elif change == "wrong players":
        payload = game_result(tables[1], 1, table_name="table-1").to_json()
    elif change == "unassigned table":
        user = "table-9"
        payload = game_result(tables[0], 1, table_name=user).to_json()
    elif change == "unknown round":
        payload = payload.replace(b'"round":1', b'"round":2').replace(b"/r1/", b"/r2/")
    elif change == "other event":
        payload = payload.replace(b"dm2026", b"dm2027")
    answer = hub.receive(result_topic(EVENT, user), payload, 1001.0)
    (_at, _topic, _id, logged) = hub.store.refusals()[0]
    assert reason in logged
    assert hub.store.results() == []
    if change == "not json":  # no id could be read: nothing to answer
        assert answer == []
    else:
        assert ack_of(answer, user).status == "refused"


def test_with_approval_a_result_counts_only_once_approved(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db")
    hub.store.set("approval", "on")
    tables = running_round(hub)
    result = game_result(tables[0], 1)
    hub.receive(result_topic(EVENT, "table-1"), result.to_json(), 1001.0)
    assert sum(row.games_lost for row in hub.board().rows) == 0
    assert hub.view(1002.0).waiting == 1
    assert hub.store.approve() == 1
    assert sum(row.games_lost for row in hub.board().rows) == 1


def test_the_draw_needs_the_round_before_finished_and_avoids_its_tables(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db", 16, teams=4)
    first = running_round(hub)
    assert [len(t.players) for t in first] == [4, 4, 4, 4]
    with pytest.raises(HubError, match="round 1 is running: finish it"):
        hub.draw_round(seed=2)
    hub.finish_round()
    second = hub.draw_round(seed=2)
    met = {frozenset((a, b)) for t in first for a in t.players for b in t.players if a != b}
    again = {frozenset((a, b)) for t in second for a in t.players for b in t.players if a != b}
    assert met.isdisjoint(again)
    for table in [*first, *second]:
        teams = [hub_team(hub, p) for p in table.players]
        assert len(set(teams)) == 4
    assert hub.store.round(2) is not None and hub.store.round(2).seed == 2  # type: ignore[union-attr]


def hub_team(hub: Hub, name: str) -> str:
    return next(e.team for e in hub.store.players() if e.name == name)


def test_assignments_carry_the_time_box_the_scheme_and_lives(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db", 8, fmt="velen")
    running_round(hub, now=5000.0)
    publications = {p.topic: p for p in hub.publications()}
    assignment = Assignment.from_json(publications[f"schock/{EVENT}/assign/table-1"].payload)
    assert (assignment.starts_at, assignment.ends_at) == (5000.0, 5000.0 + 3600)
    assert assignment.kind is PhaseKind.KO and dict(assignment.lives) == dict.fromkeys(
        assignment.players, 3
    )
    # The table's number, not a German word: the table words it in its own language.
    raw = json.loads(publications[f"schock/{EVENT}/assign/table-1"].payload)
    assert (raw["number"], raw["kind"]) == (1, "ko") and "label" not in raw
    assert assignment.number == 1
    assert publications[f"schock/{EVENT}/round"].retain
    assert json.loads(publications[f"schock/{EVENT}/round"].payload)["state"] == "running"


def test_a_table_not_playing_this_round_has_its_assignment_cleared(tmp_path: Path) -> None:
    """KO: eight players, two tables; once four are out one table is left for the next step."""
    hub = tournament(tmp_path / "t.db", 8, fmt="velen")
    tables = running_round(hub)
    topic = {t.table_no: result_topic(EVENT, f"table-{t.table_no}") for t in tables}
    for table in tables:
        for game in range(1, 7):
            players = [p for p in table.players if hub_lives(hub, p) > 0]
            seat = type(table)(table.round, table.table_no, table.kind, tuple(players), ())
            hub.receive(topic[table.table_no], game_result(seat, game).to_json(), 1001.0)
            if len(players) == 3 and hub_lives(hub, players[0]) == 0:
                break
    hub.finish_round()
    (final,) = hub.draw_round(seed=3)
    hub.start_round(2000.0, 0)
    publications = {p.topic: p for p in hub.publications()}
    cleared = {t for t, p in publications.items() if "/assign/" in t and p.payload == b""}
    assert cleared == {f"schock/{EVENT}/assign/table-2"}
    assert Assignment.from_json(publications[f"schock/{EVENT}/assign/table-1"].payload).lives == (
        tuple((p, 2) for p in final.players)
    )


def hub_lives(hub: Hub, name: str) -> int:
    line = next(line for line in hub.progress().lines if line.name == name)
    return line.lives or 0


def test_a_missing_or_foreign_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(HubStoreError, match="no such tournament file"):
        HubStore(tmp_path / "none.db")
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(HubStoreError, match="not a tournament file"):
        HubStore(tmp_path / "junk.db")
    with pytest.raises(HubError, match="must be 1-32 lower-case"):
        init_tournament(tmp_path / "x.db", "DM 2026")
    init_tournament(tmp_path / "t.db", "dm2026")
    with pytest.raises(HubError, match="holds the tournament 'dm2026' already"):
        init_tournament(tmp_path / "t.db", "dm2027")


def test_table_names() -> None:
    assert table_number("table-7") == 7
    assert [table_number(n) for n in ("table-07", "table-0", "hub", "table-x")] == [None] * 4


def test_a_tables_status_and_its_last_will_show_on_the_tv(tmp_path: Path) -> None:
    hub = tournament(tmp_path / "t.db")
    running_round(hub)
    topic = f"schock/{EVENT}/table/table-1/status"
    hub.receive(topic, TableStatus("table-1", True, 3, 1, 1001.0).to_json(), 1001.0)
    (first, second) = hub.view(1002.0).tables
    assert (first.online, first.outbox) == (True, 3)
    assert (second.online, second.outbox) == (False, 0)  # never heard of
    hub.receive(topic, TableStatus("table-1", False, 3, 1, 1003.0).to_json(), 1003.0)
    assert hub.view(1004.0).to_json()["tables"][0]["online"] is False


def test_a_ko_game_of_a_player_out_is_refused(tmp_path: Path) -> None:
    """Velen: three games lost and out; a fourth game with that player is refused, so the
    standings never meet a game they cannot count."""
    hub = tournament(tmp_path / "t.db", 8, fmt="velen")
    table = running_round(hub)[0]
    topic = result_topic(EVENT, "table-1")
    for game in range(1, 4):
        assert ack_of(hub.receive(topic, game_result(table, game).to_json(), 1.0), "table-1") == (
            Ack(game_result(table, game).id, "stored")
        )
    loser = table.players[0]
    ack = ack_of(hub.receive(topic, game_result(table, 4).to_json(), 1.0), "table-1")
    assert (ack.status, ack.reason) == ("refused", f"{loser}: no life left, out of round 1")
    assert next(row for row in hub.board().rows if row.name == loser).out


def test_an_id_stored_with_another_result_is_refused_not_taken_as_a_duplicate(
    tmp_path: Path,
) -> None:
    """Game 1 again under its id but with another loser (a device swapped mid-round whose new
    state folder numbers its games from 1 again, a journal put back from elsewhere): a
    "duplicate" would empty that table's outbox and drop the game without a trace; it is
    refused, logged, and the stored game stays as it was."""
    hub = tournament(tmp_path / "t.db")
    tables = running_round(hub)
    topic = result_topic(EVENT, "table-1")
    first = game_result(tables[0], 1, loser_index=0)
    hub.receive(topic, first.to_json(), 1001.0)
    other = game_result(tables[0], 1, loser_index=2)
    assert other.id == first.id and other != first
    ack = ack_of(hub.receive(topic, other.to_json(), 1002.0), "table-1")
    assert ack.status == "refused"
    assert ack.reason == f"{first.id} is stored already with another result"
    assert [r.payload for r in hub.store.results()] == [first.to_json().decode()]
    assert [(rid, reason) for _, _, rid, reason in hub.store.refusals()] == [
        (first.id, ack.reason)
    ]
    assert ack_of(hub.receive(topic, first.to_json(), 1003.0), "table-1").status == "duplicate"


def test_the_tv_the_board_and_the_exports_show_the_engines_places(tmp_path: Path) -> None:
    """One view: the players who rank equal share a place (the engine says which), on the TV,
    on the retained board and in the CSV alike."""
    from firmware.hub.pages import standings_csv

    hub = tournament(tmp_path / "t.db", 8)
    tables = running_round(hub)
    hub.receive(result_topic(EVENT, "table-1"), game_result(tables[0], 1).to_json(), 1001.0)
    view = hub.view(1002.0)
    assert view.standings == hub.progress().standings()
    places = [placed.place for placed in view.standings]
    # Table 2 played no game: its four players tie on nothing at all and share a place.
    idle = [p.place for p in view.standings if p.line.name in tables[1].players]
    assert len(set(idle)) == 1 and places.count(idle[0]) >= 4
    tv = view.to_json()
    assert [(row["place"], row["name"]) for row in tv["standings"]] == [
        (p.place, p.line.name) for p in view.standings
    ]
    board = StandingsBoard.from_json(hub.standings_publication().payload)
    assert [(row.place, row.name) for row in board.rows] == [
        (p.place, p.line.name) for p in view.standings
    ]
    csv = standings_csv(view, "de").decode()
    for placed in view.standings:
        assert f"\r\n{placed.place}.;{placed.line.name};" in csv
    assert [row["kind"] for row in tv["tables"]] == ["points", "points"]


def test_an_earlier_hubs_board_without_places_reads_in_its_order() -> None:
    board = StandingsBoard.from_json(
        b'{"v":1,"event":"dm2026","round":1,"teams":[],"rows":['
        b'{"name":"A","team":null,"points":3,"lives":null,"games_lost":0,"halves_lost":0,'
        b'"schock_aus":0,"out":false},'
        b'{"name":"B","team":null,"points":1,"lives":null,"games_lost":1,"halves_lost":1,'
        b'"schock_aus":0,"out":false}]}'
    )
    assert [(row.place, row.name) for row in board.rows] == [(1, "A"), (2, "B")]


def test_a_flood_of_refusals_is_counted_and_kept_only_up_to_a_bound_per_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    hub = tournament(tmp_path / "t.db")
    running_round(hub)
    hub.store.kept_refusals = 3
    for n in range(10):
        hub.receive(result_topic(EVENT, "table-1"), b"junk %d" % n, 1001.0)
    hub.receive(result_topic(EVENT, "table-2"), b"junk", 1001.0)
    assert [topic for _, topic, _, _ in hub.store.refusals()] == [
        *[result_topic(EVENT, "table-1")] * 3, result_topic(EVENT, "table-2")
    ]
    assert hub.store.refusal_counts() == {"table-1": 10, "table-2": 1}
    assert hub.view(1002.0).refused == 11
    # The log says the first three, then once that the rest are only counted.
    flood = [r.getMessage() for r in caplog.records if "table-1" in r.getMessage()]
    assert len(flood) == 4 and "counted from now on" in flood[-1]
