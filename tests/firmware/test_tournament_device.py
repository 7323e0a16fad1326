"""The device as a table of a tournament, built as ``schocken run`` builds it (the edge's MQTT
link, a real mosquitto, a stand-in hub): the hub's assignment on the menu's card in German and
English, OK starts the assigned game (the round's end its time box), and its halves and the
game reach the hub, the card saying "noch nicht gemeldet (n)" and then "gemeldet ✓"."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scoring import load_scheme, scheme_to_mapping
from engine.tournament import PhaseKind
from firmware.cli.run import tournament_link
from firmware.config import config_from_toml
from firmware.screen.views import MenuView, TableCardView
from firmware.store.journal import decode_records
from firmware.tournament.reporter import Reporter
from firmware.wire.messages import Assignment
from firmware.wiring import Device, build_device
from hal.oled import open_dummy
from hal.ports import Button
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from sim.tournament.simulated_table import recount_from_journal
from tests.broker import Broker
from tests.firmware.test_spieltag_device import play_randomly
from tests.tournament.hubstand import HubStand, wait_for

from .conftest import Inputs

EVENT = "cup26"
PLAYERS = ("Anna", "Ben", "Carla")


def device_at(broker: Broker, folder: Path, language: str) -> tuple[Device, FakeClock]:
    _, password = broker.add_table(7)
    # Games of 3 Deckel: the hub takes a game's result whatever its length.
    rules = folder / "short.toml"
    rules.write_text('preset = "standard"\ndeckel = 3\n', encoding="utf-8")
    config = config_from_toml(
        f'[game]\nlanguage = "{language}"\nrules = "{rules}"\n[tournament]\n'
        f'broker = "{broker.url}"\nevent = "{EVENT}"\ntable = 7\npassword = "{password}"\n'
    )
    clock = FakeClock(100.0)
    device = build_device(config, clock=clock, inputs=[], display=open_dummy(clock),
                          storage=StateDirectory(folder), tournament_link=tournament_link(config))
    return device, clock


def hear(hub: HubStand, reporter: Reporter, assignment: Assignment) -> None:
    """The hub assigns; wait until the device has it."""
    hub.assign(assignment)
    wait_for(lambda: reporter.assignment is not None, step=reporter.pump, what="the assignment")


def open_card(device: Device, inputs: Inputs, entry: str) -> TableCardView:
    app = device.app
    app.handle(inputs.hold(Button.STAND))
    menu = app.view
    assert isinstance(menu, MenuView)
    for _ in range(menu.items.index(entry)):
        app.handle(inputs.press(Button.KEEP_2))
    app.handle(inputs.press(Button.STAND))
    card = app.view
    assert isinstance(card, TableCardView), card
    return card


@pytest.mark.parametrize(
    ("language", "entry", "title", "reported", "pending"),
    [
        ("de", "Turnier", "Tisch 7 · Runde 2", "gemeldet ✓", "noch nicht gemeldet"),
        ("en", "Tournament", "Table 7 · Round 2", "reported ✓", "not yet reported"),
    ],
)
def test_the_card_starts_the_assigned_game_and_its_results_reach_the_hub(
    broker: Broker, tmp_path: Path, language: str, entry: str, title: str, reported: str,
    pending: str,
) -> None:
    hub = HubStand(broker, EVENT)
    device, clock = device_at(broker, tmp_path, language)
    reporter = device.reporter
    assert reporter is not None
    try:
        now = reporter._wall()
        hear(hub, reporter, Assignment(EVENT, 2, "table-7", 7, PLAYERS, now,
                                       now + 1800, scheme_to_mapping(load_scheme("verlustpunkte"))))
        inputs = Inputs(clock)
        card = open_card(device, inputs, entry)
        assert card.title == title and card.players == PLAYERS
        assert card.clock in ("noch 30 min", "30 min left")
        assert card.report == reported and card.keys[2] in ("Spielen", "Play")

        hub.answering = False  # the hub is down: the results wait in the outbox
        device.app.handle(inputs.press(Button.STAND))  # OK: the assigned game starts
        journal = (tmp_path / "current.journal").read_bytes()
        header = decode_records(journal[: journal.index(b"\n") + 1])[0][0]
        assert header["players"] == list(PLAYERS)
        assert header["tournament"] == {"event": EVENT, "table": "table-7", "round": 2,
                                        "game": 1}
        assert device.app.time_box_ends_at == now + 1800
        # the round's end is the game's time box: past it, the game goes on scharf
        deadline = device.app.next_deadline()
        assert deadline is not None and 1790 < deadline - clock.now() <= 1800
        clock.advance(1801)
        device.app.advance(clock.now())
        assert device.app.scharf
        play_randomly(device.app, inputs, seed=5)
        waiting = len(reporter.outbox)
        assert waiting >= 3
        card = open_card(device, inputs, entry)
        assert card.report == f"{pending} ({waiting})"
        assert card.keys[2] in ("Spielen", "Play")  # the game is over: the next one may start

        hub.answering = True
        reporter.resend()
        wait_for(lambda: not reporter.outbox.pending, step=reporter.pump, what="the acks")
        device.app.handle(inputs.press(Button.KEEP_1))  # closes the card
        assert open_card(device, inputs, entry).report == reported
    finally:
        device.close()
        hub.stop()
    recounted = recount_from_journal(tmp_path)
    assert sorted(hub.stored) == sorted(result.id for result in recounted)
    assert {result.round for result in recounted} == {2}


@pytest.mark.parametrize(
    ("language", "entry", "done"),
    [("de", "Turnier", "Tisch ausgespielt"), ("en", "Tournament", "Table finished")],
)
def test_a_ko_table_starts_games_only_of_those_with_a_life_left(
    broker: Broker, tmp_path: Path, language: str, entry: str, done: str,
) -> None:
    """In a KO round the card counts the lives from the hub's draw and the table's own games:
    a player out is left off the card and out of the next game (the hub refuses a game of a
    player with no life left), and with one player left OK starts no game."""
    hub = HubStand(broker, EVENT)
    device, clock = device_at(broker, tmp_path, language)
    reporter = device.reporter
    assert reporter is not None
    try:
        now = reporter._wall()
        hear(hub, reporter, Assignment(EVENT, 3, "table-7", 7, PLAYERS, now,
                                       now + 1800, scheme_to_mapping(load_scheme("leben")),
                                       PhaseKind.KO, tuple((player, 1) for player in PLAYERS)))
        inputs = Inputs(clock)
        seen = []
        for seed in (3, 4):
            card = open_card(device, inputs, entry)
            seen.append(card.players)
            assert card.keys[2] in ("Spielen", "Play")
            device.app.handle(inputs.press(Button.STAND))  # OK: a game of those still in
            journal = (tmp_path / "current.journal").read_bytes()
            header = decode_records(journal[: journal.index(b"\n") + 1])[0][0]
            assert tuple(header["players"]) == card.players
            play_randomly(device.app, inputs, seed=seed)
        assert seen[0] == PLAYERS and len(seen[1]) == 2 and set(seen[1]) < set(PLAYERS)
        card = open_card(device, inputs, entry)
        assert len(card.players) == 1 and card.clock == done and card.keys[2] == "OK"
        device.app.handle(inputs.press(Button.STAND))  # OK now only closes the card
        assert not isinstance(device.app.view, TableCardView)
        wait_for(lambda: not reporter.outbox.pending, step=reporter.pump, what="the acks")
    finally:
        device.close()
        hub.stop()
    games = [result for result in recount_from_journal(tmp_path) if result.kind == "game"]
    assert [result.game for result in games] == [1, 2]
    assert {result.id for result in games} <= set(hub.stored)


@pytest.mark.parametrize(
    ("language", "entry", "title", "refused"),
    [
        ("de", "Turnier", "Tisch 7 · Runde 4", "Namen nicht spielbar"),
        ("en", "Tournament", "Table 7 · Round 4", "Names not playable"),
    ],
)
def test_the_card_plays_the_hubs_longest_names_short_and_refuses_a_name_it_cannot_play(
    broker: Broker, tmp_path: Path, language: str, entry: str, title: str, refused: str,
) -> None:
    """An earlier hub's assignment (a German label on the wire) is worded in the device's
    language; names as long as the name rule allows are shown shortened on the card and on the
    turn screen, and the game is played under the whole names; a name the screen cannot draw is
    never played, said in one line."""
    import json

    from firmware.screen.views import HandOverView, RollOffView
    from firmware.wire.messages import assign_topic

    hub = HubStand(broker, EVENT)
    device, clock = device_at(broker, tmp_path, language)
    reporter = device.reporter
    assert reporter is not None
    long = ("Maximilian-Alexander-Schmidt-Wuppertal", "Maximilian-Alexander-Schulz-Wuppertaler",
            "Anna")  # fmt: skip
    try:
        now = reporter._wall()
        earlier = json.loads(Assignment(EVENT, 4, "table-7", 7, long, now, None,
                                        scheme_to_mapping(load_scheme("verlustpunkte"))).to_json())
        del earlier["number"]
        earlier["label"] = "Tisch 7"  # as a hub of the previous version sends it
        hub.link.publish(assign_topic(EVENT, "table-7"), json.dumps(earlier).encode(),
                         retain=True)
        wait_for(lambda: reporter.assignment is not None, step=reporter.pump,
                 what="the assignment")
        inputs = Inputs(clock)
        card = open_card(device, inputs, entry)
        assert card.title == title
        assert card.players == ("Maximili…l", "Maximili…r", "Anna")
        device.app.handle(inputs.press(Button.STAND))  # OK: the game of the whole names
        journal = (tmp_path / "current.journal").read_bytes()
        header = decode_records(journal[: journal.index(b"\n") + 1])[0][0]
        assert header["players"] == list(long)
        screen = device.app.view
        assert isinstance(screen, RollOffView | HandOverView)
        shown = str(screen)
        assert "Maximili…l" in shown and long[0] not in shown
        play_randomly(device.app, inputs, seed=2)

        reporter.assignment = None
        hear(hub, reporter, Assignment(EVENT, 4, "table-7", 7, ("Anna", "B🎲b"), now, None,
                                       scheme_to_mapping(load_scheme("verlustpunkte"))))
        card = open_card(device, inputs, entry)
        assert (card.players, card.clock, card.keys[2]) == ((), refused, "OK")
        device.app.handle(inputs.press(Button.STAND))  # OK only closes the card
        assert not isinstance(device.app.view, TableCardView)
        assert not (tmp_path / "current.journal").exists()
    finally:
        device.close()
        hub.stop()
