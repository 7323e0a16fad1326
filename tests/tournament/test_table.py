"""The device as a table (firmware/tournament/reporter.py, sim/tournament/simulated_table.py)
against Debian's mosquitto: every finished half and game reaches the hub once, through a broker
killed with SIGKILL, a table's lost network, a pulled plug and a device dead mid-game whose spare
carries on with its SD card; refused results stay refused; the retained status and its Last
Will; the hub's assignment."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from engine.bots import apply_move, view_of
from engine.game import Game, GameSetup, Phase
from engine.scoring import game_result, load_scheme, scheme_to_mapping
from engine.tournament import PhaseKind
from firmware.app.session.table import Table
from firmware.store.gamestore import CURRENT
from firmware.store.journal import JournalHeader
from firmware.tournament.outbox import OUTBOX
from firmware.tournament.reporter import Reporter
from firmware.wire.messages import Assignment, Result
from hal.mqtt import MqttLink
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from sim.tournament.cutoff import CutOffProxy
from sim.tournament.simulated_table import (
    DeviceDied,
    SimulatedTable,
    TableSettings,
    recount_from_journal,
)
from tests.broker import Broker
from tests.tournament.hubstand import HubStand, wait_for

EVENT = "cup26"
PLAYERS = ("Anna", "Ben", "Carla", "Dora")
START = 1_800_000_000.0


def assignment(number: int = 7, round_: int = 1, players: tuple[str, ...] = PLAYERS,
               ends_at: float | None = START + 3600) -> Assignment:
    return Assignment(EVENT, round_, f"table-{number}", number, players, START,
                      ends_at, scheme_to_mapping(load_scheme("verlustpunkte")))


@pytest.fixture
def hub(broker: Broker) -> Iterator[HubStand]:
    stand = HubStand(broker, EVENT)
    yield stand
    stand.stop()


def table_at(broker: Broker, folder: Path, number: int = 7, *, password: str | None = None,
             network_clock: FakeClock | None = None) -> SimulatedTable:
    if password is None:
        _, password = broker.add_table(number)
    clock = FakeClock(START)
    table = SimulatedTable(number, TableSettings(broker.url, EVENT, password), folder, clock,
                           network_clock=network_clock)
    # 3 Deckel: a game's halves, Finale and results as 13 make them, at a quarter of the throws.
    table.rules = replace(table.rules, deckel=3)
    return table


def quick_reconnect(link: MqttLink) -> None:
    """Let ``link`` try again every 0.1 to 0.4 s while the broker is down: the device's backoff
    (1 s, doubling up to 8) would make the test wait up to 8 s for the restarted broker, and what
    the test checks is what reaches the hub after the reconnect, not when it comes."""
    link._client.reconnect_delay_set(min_delay=0.1, max_delay=0.4)  # type: ignore[arg-type]


def ids(results: list[Result]) -> list[str]:
    return [result.id for result in results]


def test_every_half_and_game_reaches_the_hub_once_and_leaves_the_outbox(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    table = table_at(broker, tmp_path)
    table.start()
    try:
        assert table.play_round(assignment(), games=2) == 2
        wait_for(lambda: table.pending == 0, step=table.step, what="the hub's acks")
    finally:
        table.close()
    recounted = ids(recount_from_journal(tmp_path))
    # two games: each two halves, the Finale unless a Durchmarsch, and the game
    assert len(recounted) in range(6, 9)
    assert recounted[0] == f"{EVENT}/table-7/r1/g1/half1"
    assert f"{EVENT}/table-7/r1/g2/game" in recounted
    assert sorted(hub.stored) == sorted(recounted)
    assert set(hub.received) == set(recounted)
    # the games in the hub's hands are the games the journals hold
    games = [r for r in recount_from_journal(tmp_path) if r.kind == "game"]
    assert [hub.stored[r.id].game_result() for r in games] == [r.game_result() for r in games]


def test_results_survive_a_broker_killed_with_sigkill_and_restarted(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    table = table_at(broker, tmp_path)
    quick_reconnect(table.link)
    quick_reconnect(hub.link)
    table.start()
    try:
        table.play_round(assignment(), games=1)
        wait_for(lambda: table.pending == 0, step=table.step, what="the first game's acks")
        broker.kill()
        table.play_round(assignment(), games=2)  # the broker is gone: all wait in the outbox
        waiting = table.pending
        assert waiting >= 6
        assert len(StateDirectory(tmp_path).read_bytes(OUTBOX) or b"") > 0
        broker.start()
        wait_for(lambda: table.pending == 0, step=table.step, timeout_s=30,
                 what="the acks after the broker's restart")
    finally:
        table.close()
    recounted = ids(recount_from_journal(tmp_path))
    assert sorted(hub.stored) == sorted(recounted)
    assert len(recounted) >= 9


def test_a_table_that_lost_its_network_reports_everything_once_it_is_back(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    table = table_at(broker, tmp_path)
    table.start()
    try:
        wait_for(lambda: table.reporter.online, step=table.step, what="the connect")
        table.stop()  # the Wi-Fi goes
        table.play_round(assignment(), games=2)
        assert table.pending >= 6 and hub.received == []
        table.start()
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks after the network")
    finally:
        table.close()
    recounted = ids(recount_from_journal(tmp_path))
    assert sorted(hub.stored) == sorted(recounted)
    assert all(hub.received.count(ident) >= 1 for ident in recounted)


def test_after_a_pulled_plug_the_rebuilt_reporter_sends_the_same_ids(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    _, password = broker.add_table(7)
    table = table_at(broker, tmp_path, password=password)  # never connected: nothing acked
    table.play_round(assignment(), games=1)
    kept = list(table.reporter.outbox.pending)
    table.storage.unlock()  # the plug: no goodbye, no stop
    # ... pulled in the middle of the outbox's last append: that result was never published
    storage = StateDirectory(tmp_path)
    data = storage.read_bytes(OUTBOX) or b""
    storage.truncate(OUTBOX, len(data) - 25)

    again = table_at(broker, tmp_path, password=password)
    assert list(again.reporter.outbox.pending) == kept  # the torn one recounted from the journal
    assert again.reporter.outbox.problem is not None and "damaged" in again.reporter.outbox.problem
    assert any(name.endswith(OUTBOX) for name in os.listdir(tmp_path / "damaged"))
    again.start()
    try:
        wait_for(lambda: again.pending == 0, step=again.step, what="the acks after the plug")
    finally:
        again.close()
    assert sorted(hub.stored) == sorted(kept) == sorted(ids(recount_from_journal(tmp_path)))


def test_a_game_cut_short_by_the_plug_goes_on_and_reports_each_half_once(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    _, password = broker.add_table(7)
    table = table_at(broker, tmp_path, password=password)
    table.play_round(assignment(), games=1)
    setup_players = PLAYERS
    # the next game is cut after its first half: its journal stays in current.journal
    table.reporter.assignment = assignment()
    store, reporter = table.store, table.reporter
    setup = GameSetup(setup_players, table.rules)
    store.begin(JournalHeader(setup, tournament=reporter.place_for(setup)))
    game = Game(setup)
    at_table = Table(game, {}, store=store, emit=reporter)  # as the device records an action
    rng = table.rng
    while not any(r.kind == "half" and "/g2/" in r.id for r in _pending(reporter)):
        if game.phase is Phase.ROLL_OFF:
            throws = [tuple(rng.randint(1, 6) for _ in range(3)) for _ in game.contenders]
            table._record(at_table, game.roll_off(throws))
        else:
            move = table._bot.decide(game, view_of(game), rng)
            table._record(at_table, apply_move(game, move, rng))
    table.storage.unlock()
    assert (tmp_path / CURRENT).exists()

    again = table_at(broker, tmp_path, password=password)
    assert again.interrupted is not None
    again.start()
    try:
        again.play_round(assignment(), games=0)  # only the interrupted game
        wait_for(lambda: again.pending == 0, step=again.step, what="the acks")
    finally:
        again.close()
    recounted = ids(recount_from_journal(tmp_path))
    assert sorted(hub.stored) == sorted(recounted)
    assert len(recounted) == len(set(recounted))
    assert f"{EVENT}/table-7/r1/g2/game" in recounted


def _pending(reporter: Reporter) -> list[Result]:
    return [Result.from_json(text) for text in reporter.outbox.pending.values()]


def test_a_refused_result_stays_refused_and_is_not_sent_again(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    refused = f"{EVENT}/table-7/r1/g1/half1"
    hub.refuse[refused] = "round 1 is finished"
    network = FakeClock(0.0)
    table = table_at(broker, tmp_path, network_clock=network)
    table.start()
    try:
        table.play_round(assignment(), games=1)
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks")
        assert table.reporter.outbox.refused[refused].reason == "round 1 is finished"
        assert table.reporter.state().refused == 1
        sent = hub.received.count(refused)
        network.advance(120)  # four resend periods
        table.step()
        table.reporter.resend()
        wait_for(lambda: True, step=table.step, timeout_s=0.3)
        assert hub.received.count(refused) == sent
    finally:
        table.close()
    # the refusal is kept across a restart
    assert refused_ids(tmp_path) == {refused}


def refused_ids(folder: Path) -> set[str]:
    from firmware.tournament.outbox import Outbox

    return set(Outbox(StateDirectory(folder)).refused)


def test_the_status_is_retained_and_the_last_will_says_offline(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    _, password = broker.add_table(9)
    script = textwrap.dedent(f"""
        import sys, time
        from sim.fakes import FakeClock
        from sim.tournament.simulated_table import SimulatedTable, TableSettings
        table = SimulatedTable(9, TableSettings({broker.url!r}, {EVENT!r}, {password!r}),
                               {str(tmp_path)!r}, FakeClock({START}))
        table.start()
        while not table.reporter.online:
            table.step(); time.sleep(0.02)
        print("online", flush=True)
        time.sleep(60)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             cwd=Path(__file__).parents[2])
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"online"
        wait_for(lambda: "table-9" in hub.status and hub.status["table-9"].online,
                 what="the table's online status")
        child.send_signal(signal.SIGKILL)  # the plug: the broker publishes the Last Will
        child.wait(timeout=10)
        wait_for(lambda: not hub.status["table-9"].online, what="the Last Will")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_the_hubs_assignment_reaches_its_table_and_numbers_the_games(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    table = table_at(broker, tmp_path)
    hub.assign(assignment(round_=2, players=("Erik", "Fanny", "Gerd")))
    hub.assign(Assignment(EVENT, 2, "table-8", 8, ("X", "Y"), START, None,
                          scheme_to_mapping(load_scheme("verlustpunkte"))))  # not for us
    table.start()
    try:
        wait_for(lambda: table.reporter.assignment is not None, step=table.step,
                 what="the retained assignment")
        got = table.reporter.assignment
        assert got is not None and got.players == ("Erik", "Fanny", "Gerd")
        assert got.round == 2 and table.reporter.time_left() == 3600
        table.play_round(games=2)
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks")
    finally:
        table.close()
    recounted = recount_from_journal(tmp_path)
    assert {r.round for r in recounted} == {2} and {r.game for r in recounted} == {1, 2}
    assert all(r.players == ("Erik", "Fanny", "Gerd") for r in recounted)


def test_a_result_without_its_ack_goes_again_after_resend_s_and_not_before(
    broker: Broker, hub: HubStand, tmp_path: Path, mocker: MockerFixture,
) -> None:
    hub.answering = False  # the hub is down: no acks
    network = FakeClock(0.0)
    table = table_at(broker, tmp_path, network_clock=network)
    table.start()
    try:
        wait_for(lambda: table.reporter.online, step=table.step, what="the connect")
        table.play_round(assignment(), games=1)
        waiting = list(table.reporter.outbox.pending)
        spy = mocker.spy(table.link, "publish")

        def results_sent() -> list[str]:
            return [Result.from_json(call.args[1]).id for call in spy.call_args_list
                    if call.args[0].endswith("/result")]

        due = table.reporter.next_deadline()
        assert due is not None and due > network.now()
        network.set(due - 1)
        table.step()
        assert results_sent() == []
        network.set(due + 30)  # every result's period has passed
        table.step()
        assert sorted(results_sent()) == sorted(waiting)
        hub.answering = True
        table.reporter.resend()
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks")
        assert table.reporter.next_deadline() is None
    finally:
        table.close()


def test_a_ko_table_plays_on_without_those_out_and_reports_every_game(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    """A player with no life left plays no more game at a KO table: the table counts the lives
    from the hub's draw and its own journals, and a game of those still in is the round's next
    game (it was no tournament game at all, played and never reported, when only the whole
    assigned table counted)."""
    ko = replace(assignment(), kind=PhaseKind.KO, lives=tuple((p, 1) for p in PLAYERS),
                 scheme=scheme_to_mapping(load_scheme("leben")))
    table = table_at(broker, tmp_path)
    table.reporter.assignment = ko
    table.start()
    try:
        assert table.reporter.players_in() == PLAYERS
        first = table.play_game(PLAYERS)
        loser = game_result(first.setup, first.actions).loser
        rest = tuple(p for p in PLAYERS if p != loser)
        assert table.reporter.players_in() == rest
        # the player out may not play again: such a game is no tournament game
        assert table.reporter.place_for(GameSetup(PLAYERS, table.rules)) is None
        table.play_game(rest)
        table.play_game(table.reporter.players_in())
        assert len(table.reporter.players_in()) == 1
        assert table.reporter.place_for(GameSetup(rest[:2], table.rules)) is None
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks")
    finally:
        table.close()
    games = [r for r in recount_from_journal(tmp_path) if r.kind == "game"]
    assert [r.game for r in games] == [1, 2, 3]
    assert [len(r.players) for r in games] == [4, 3, 2]
    assert {r.id for r in games} <= set(hub.stored)


def test_a_device_dead_mid_game_is_replaced_by_a_spare_with_its_card_and_nothing_is_lost(
    broker: Broker, hub: HubStand, tmp_path: Path,
) -> None:
    """The director's way (docs/tournament.md): the dead device's SD card (its state folder) goes
    into a spare with the same table login; the spare finishes the interrupted game where the
    journal stopped, and its outbox sends what the dead one could not."""
    _user, password = broker.add_table(7)
    network = CutOffProxy(broker.port)  # the dead device's network: silent, no goodbye
    network.start()
    dead = SimulatedTable(7, TableSettings(network.url, EVENT, password), tmp_path / "card",
                          FakeClock(START))
    dead.rules = replace(dead.rules, deckel=3)
    dead.start()
    try:
        wait_for(lambda: dead.reporter.online, step=dead.step, what="the connect")
        dead.play_round(assignment(), games=1)
        dead.die_after(5)
        with pytest.raises(DeviceDied):
            dead.play_round(assignment(), games=1)
        network.cut()
        shutil.copytree(tmp_path / "card", tmp_path / "spare")  # the card in the spare
        spare = SimulatedTable(7, TableSettings(broker.url, EVENT, password),
                               tmp_path / "spare", dead.clock)
        spare.rules = dead.rules
        assert spare.interrupted is not None and not spare.interrupted.game.is_over
        spare.start()
        try:
            assert spare.play_round(assignment(), games=1) == 1  # the interrupted game, finished
            wait_for(lambda: spare.pending == 0, step=spare.step, what="the spare's acks")
        finally:
            spare.close()
    finally:
        dead.close()
        network.close()
    recounted = recount_from_journal(tmp_path / "spare")
    assert {r.game for r in recounted} == {1, 2}
    assert f"{EVENT}/table-7/r1/g2/game" in hub.stored
    assert sorted(hub.stored) == sorted(r.id for r in recounted)


def test_a_table_answers_a_refill_once_with_every_result_the_hub_had_acknowledged(
    broker: Broker, hub: HubStand, tmp_path: Path, mocker: MockerFixture,
) -> None:
    """A hub that lost its file asks (firmware/hub/refill.py): the table sends again, from its
    journals, each result the hub had acknowledged, and the assignment it holds, once; what
    waits for an Ack goes as ever, and at once when the refill ends."""
    network = FakeClock(0.0)  # no resend falls due by itself
    table = table_at(broker, tmp_path, network_clock=network)
    hub.assign(assignment())
    table.start()
    try:
        wait_for(lambda: table.reporter.assignment is not None, step=table.step,
                 what="the assignment")
        table.play_round(games=1)
        wait_for(lambda: table.pending == 0, step=table.step, what="the acks")
        acknowledged = sorted(hub.stored)
        asked = mocker.spy(table.reporter, "_refill_asked")
        answer = mocker.spy(table.reporter, "refill")
        hub.ask_refill(1_800_000_100.0)
        wait_for(lambda: len(set(hub.refilled)) == len(acknowledged) and hub.seats,
                 step=table.step, what="the refill's answers")
        assert hub.seats == [assignment()]
        table.link.stop()  # a reconnect: the retained request comes again, and is not answered
        table.start()
        wait_for(lambda: asked.call_count == 2, step=table.step, what="the request again")
        assert answer.call_count == 1
        hub.answering = False
        table.play_round(games=1)
        waiting = sorted(table.reporter.outbox.pending)
        assert waiting
        wait_for(lambda: set(waiting) <= set(hub.received), step=table.step,
                 what="the unanswered results")
        hub.answering = True
        hub.end_refill()
        wait_for(lambda: table.pending == 0, step=table.step, what="the waiting results")
    finally:
        table.close()
    # (a delivery may come twice: QoS 1 is at least once)
    assert set(hub.refilled) == set(acknowledged)
    assert sorted(hub.stored) == sorted([*acknowledged, *waiting])
