"""The Spieltag's time box on the device: its clock runs the time out mid-game, the game goes on
"scharf" (journalled, marked on every frame, the next round's loser loses the half), and a
device that lost power keeps the game scharf, or finds the time run out while it was off."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from engine import GameSetup, Scharf
from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.config import DeviceConfig, config_from_toml
from firmware.screen.screens import render
from firmware.screen.views import BannerView, HandOverView, RevealView, TurnView
from firmware.store.spieltagfile import SpieltagFiles
from firmware.wiring import Device
from hal.ports import Button
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.harness import as_json, build_test_device

from .conftest import ScriptedDice

PLAYERS = ("Anna", "Ben", "Carla")
ROLL_OFF = [(1, 1, 3), (6, 6, 5), (3, 2, 2)]  # Anna opens
#: Round 1: Anna stands on 431 after one throw (the limit), Ben 653, Carla 662: Anna loses.
#: Round 2 (Anna opens again): 332, 551, 641: Anna loses again.
THROWS = [(4, 3, 1), (6, 5, 3), (6, 6, 2), (3, 3, 2), (5, 5, 1), (6, 4, 1)]


def begin_spieltag(root: Path, *, minutes: int, ago: timedelta = timedelta(0)) -> None:
    began = datetime.now().astimezone() - ago
    SpieltagFiles(StateDirectory(root)).begin(
        Spieltag("t1", "Spieltag 1", load_scheme("verlustpunkte"), began.date().isoformat(),
                 time_box=minutes, began_at=began.isoformat(timespec="seconds"))
    )


class Cup:
    """A device on mock pins and a fake clock, its games kept in ``root``."""

    def __init__(self, factory: MockFactory, root: Path, dice: Any, config: DeviceConfig) -> None:
        self.clock = FakeClock(1000.0)
        self.config = config
        self.events: list[dict[str, Any]] = []
        self.device: Device = build_test_device(
            config, clock=self.clock, pins=factory, dice=dice, storage=root,
            setup=GameSetup(PLAYERS), event_sink=as_json(self.events.append),
            power=False,  # the panel stays lit through the hour the tests wait
        )
        self.pins = {button: factory.pin(config.pins.of(button)) for button in Button}
        self.tilt = factory.pin(config.pins.tilt)
        self.device.loop.start()

    @property
    def view(self) -> Any:
        return self.device.app.view

    def wait(self, seconds: float) -> None:
        self.device.run(until=self.clock.now() + seconds)

    def press(self, button: Button) -> None:
        self.pins[button].drive_low()
        self.wait(0.12)
        self.pins[button].drive_high()
        self.wait(0.1)

    def shake(self) -> None:
        for index in range(10):
            self.tilt.drive_low() if index % 2 == 0 else self.tilt.drive_high()
            self.wait(0.05)
        self.wait(0.6)

    def close(self) -> None:
        self.device.close()


def journal_actions(root: Path) -> list[dict[str, Any]]:
    lines = (root / "current.journal").read_text().splitlines()[1:]
    return [json.loads(line.split(" ", 2)[2]) for line in lines]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_clock_runs_the_time_box_out_mid_round_and_the_next_round_is_scharf(
    mock_factory: MockFactory, tmp_path: Path, language: str
) -> None:
    begin_spieltag(tmp_path, minutes=70)
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    cup = Cup(mock_factory, tmp_path, ScriptedDice([*ROLL_OFF, *THROWS]), config)
    app = cup.device.app
    cup.shake()  # the roll-off
    cup.press(Button.STAND)
    cup.press(Button.KEEP_3)  # Anna takes the cup
    cup.shake()
    cup.press(Button.STAND)  # 431 after one throw
    assert isinstance(cup.view, HandOverView) and cup.view.player == "Ben"
    assert not app.scharf
    deadline = app.next_deadline()
    assert deadline is not None and 70 * 60 - 5 < deadline - cup.clock.now() <= 70 * 60
    cup.wait(69 * 60)
    assert not app.scharf
    cup.wait(61)  # the device's clock passes the time box while Ben holds the cup
    assert app.scharf and app.game.scharf is Scharf.NEXT_ROUND
    assert cup.events[-1] == {"event": "scharf", "minutes": 70}
    assert journal_actions(tmp_path)[-1] == {"n": 3, "event": "scharf", "minutes": 70}
    # A banner says so on the panel until a press; then Ben's hand-over is back.
    view = cup.view
    assert isinstance(view, BannerView) and view.headline == "Scharf!"
    assert view.lines == {
        "de": ("Nach dieser Runde:", "Rundenverlierer", "verliert die Hälfte"),
        "en": ("After this round:", "each round's loser", "loses the half"),
    }[language]
    assert cup.device.display.device.image.tobytes() == render(view).tobytes()
    cup.press(Button.STAND)
    assert isinstance(cup.view, HandOverView) and cup.view.player == "Ben"
    # The round under way is settled as ever: Anna takes a Deckel.
    for _ in range(2):
        cup.shake()
        if isinstance(cup.view, TurnView):
            cup.press(Button.STAND)
    assert isinstance(cup.view, RevealView)
    settled = {"de": "Anna +1 aus dem Topf", "en": "Anna +1 from the pot"}[language]
    assert cup.view.outcome == settled
    cup.press(Button.STAND)
    assert app.game.scharf is Scharf.ON
    # The next round is scharf: its loser loses the half, no Deckel move; the turn screen's
    # corner says scharf where the pot was.
    cup.press(Button.KEEP_3)
    cup.shake()
    assert isinstance(cup.view, TurnView) and cup.view.pot_text == "scharf"
    cup.press(Button.STAND)
    for _ in range(2):
        cup.shake()
        if isinstance(cup.view, TurnView):
            cup.press(Button.STAND)
    assert isinstance(cup.view, RevealView)
    lost = {"de": "Anna verliert scharf", "en": "Anna loses, scharf"}[language]
    assert cup.view.outcome == lost
    cup.press(Button.STAND)
    assert isinstance(cup.view, BannerView) and cup.view.headline == "Anna"
    assert app.game.section == 2 and app.game.half_losers == ["Anna"]
    cup.close()


def test_a_game_begun_outside_the_evening_never_goes_scharf(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    cup = Cup(mock_factory, tmp_path, ScriptedDice(ROLL_OFF), DeviceConfig())
    begin_spieltag(tmp_path, minutes=1)  # begun after this game started
    cup.shake()
    cup.wait(3600)
    assert not cup.device.app.scharf and cup.device.app.next_deadline() is None
    cup.close()


def test_a_pulled_plug_keeps_the_game_scharf(mock_factory: MockFactory, tmp_path: Path) -> None:
    begin_spieltag(tmp_path, minutes=60)
    cup = Cup(mock_factory, tmp_path, ScriptedDice([*ROLL_OFF, *THROWS]), DeviceConfig())
    cup.shake()
    cup.press(Button.STAND)
    cup.press(Button.KEEP_3)
    cup.shake()
    cup.press(Button.STAND)
    cup.wait(3601)
    assert cup.device.app.game.scharf is Scharf.NEXT_ROUND
    cup.close()  # the plug is pulled: nothing more is written
    mock_factory.reset()
    again = Cup(mock_factory, tmp_path, ScriptedDice(THROWS[1:]), DeviceConfig())
    app = again.device.app
    assert app.resumed and app.scharf and app.game.scharf is Scharf.NEXT_ROUND
    assert isinstance(again.view, HandOverView) and again.view.player == "Ben"
    assert app.next_deadline() is None  # it went scharf once: no second time box
    # Nothing was journalled twice.
    assert [a["event"] for a in journal_actions(tmp_path)].count("scharf") == 1
    again.close()


def test_time_that_ran_out_while_the_device_was_off_makes_the_game_scharf_at_once(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    begin_spieltag(tmp_path, minutes=60, ago=timedelta(minutes=30))
    cup = Cup(mock_factory, tmp_path, ScriptedDice([*ROLL_OFF, *THROWS]), DeviceConfig())
    cup.shake()
    cup.press(Button.STAND)
    deadline = cup.device.app.next_deadline()
    assert deadline is not None and 29 * 60 < deadline - cup.clock.now() <= 30 * 60
    cup.close()
    mock_factory.reset()
    # The device is off for two hours: the Spieltag began 150 minutes ago by the wall clock.
    SpieltagFiles(StateDirectory(tmp_path)).storage.write_atomic(
        "spieltag.json",
        (tmp_path / "spieltag.json").read_text().replace(
            json.loads((tmp_path / "spieltag.json").read_text())["began_at"],
            (datetime.now().astimezone() - timedelta(minutes=150)).isoformat(timespec="seconds"),
        ),
    )
    again = Cup(mock_factory, tmp_path, ScriptedDice(THROWS), DeviceConfig())
    again.wait(0.1)
    assert again.device.app.game.scharf is Scharf.ON  # nobody had thrown in the round yet
    assert journal_actions(tmp_path)[-1] == {"n": 1, "event": "scharf", "minutes": 60}
    again.close()


def test_the_configured_time_box_is_the_menus_first_choice(tmp_path: Path) -> None:
    from firmware.config import ConfigError
    from firmware.screen.views import MenuView, PickerView
    from tests.harness import make_app

    from .conftest import Inputs

    clock = FakeClock(100.0)
    inputs = Inputs(clock)
    config = config_from_toml("[spieltag]\ntime_box_minutes = 65")
    app = make_app(config, clock=clock, storage=tmp_path, setup=GameSetup(PLAYERS))
    app.handle(inputs.hold(Button.STAND))
    view = app.view
    assert isinstance(view, MenuView)
    for _ in range(view.items.index("Spieltag beginnen")):
        app.handle(inputs.press(Button.KEEP_2))
    app.handle(inputs.press(Button.STAND))  # the scheme: Verlustpunkte
    app.handle(inputs.press(Button.STAND))
    view = app.view
    assert isinstance(view, PickerView) and view.value == "65 Minuten"
    app.handle(inputs.press(Button.STAND))
    assert app.view.lines[-1] == "65 Minuten"  # type: ignore[union-attr]
    spieltag = SpieltagFiles(StateDirectory(tmp_path)).current()
    assert spieltag is not None and spieltag.time_box == 65 and spieltag.began_at
    with pytest.raises(ConfigError) as refused:
        config_from_toml("[spieltag]\ntime_box_minutes = 601")
    assert str(refused.value).count("\n") == 0
    assert "spieltag.time_box_minutes = 601 is not allowed: use 0 (none) or 1 to 600" in str(
        refused.value
    )


def test_an_evening_ended_before_its_time_box_runs_out_leaves_the_game_as_it_is(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    begin_spieltag(tmp_path, minutes=30)
    cup = Cup(mock_factory, tmp_path, ScriptedDice(ROLL_OFF), DeviceConfig())
    cup.shake()
    SpieltagFiles(StateDirectory(tmp_path)).end()  # schocken spieltag end, from a laptop
    cup.wait(31 * 60)
    app = cup.device.app
    assert app.game.scharf is Scharf.OFF and app.next_deadline() is None
    assert all(action["event"] != "scharf" for action in journal_actions(tmp_path))
    cup.close()


def test_a_table_of_computer_players_goes_scharf_without_a_banner_to_wait_on(
    tmp_path: Path,
) -> None:
    from firmware.config import GameConfig
    from firmware.dice import SeededDice
    from tests.firmware.test_bots_app import run_timers
    from tests.harness import as_json, make_app

    begin_spieltag(tmp_path, minutes=60, ago=timedelta(minutes=59, seconds=30))
    clock = FakeClock(100.0)
    events: list[dict[str, Any]] = []
    config = DeviceConfig(game=GameConfig(bots=("threshold",) * 3))
    app = make_app(config, clock=clock, dice=SeededDice(5), storage=tmp_path,
                   setup=GameSetup(PLAYERS), event_sink=as_json(events.append))
    run_timers(app, clock)  # the bots play the game by themselves, the time box on the way
    kinds = [event["event"] for event in events]
    assert "scharf" in kinds and kinds[-1] == "game_over"
    assert events[kinds.index("scharf")] == {"event": "scharf", "minutes": 60}
    assert isinstance(app.view, BannerView) and app.view.headline == "⚙" + events[-1]["loser"]


REAL_DICE_PLAYERS = ("Anna", "Ben", "Carla")


def real_dice_round_begun(factory: MockFactory, root: Path) -> Any:
    """A real-dice game of three on mock pins, of an evening whose time box runs out in ten
    seconds: the roll-off entered (Anna opens), and Anna's 4-1-1 in two throws."""
    from tests.firmware.test_real_dice_device import RealDiceTable
    from tests.realdice import Reported, Step

    begin_spieltag(root, minutes=60, ago=timedelta(minutes=59, seconds=50))
    table = RealDiceTable(factory, "standard", storage=root, players=REAL_DICE_PLAYERS)
    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        table.enter(throw)
    table.step(Step(Button.STAND))
    table.enter(Reported("Anna", (4, 1, 1), 2, False))
    return table


def test_a_pulled_plug_after_the_time_box_ran_out_mid_entry_resumes_at_the_same_entry(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    """The time box's action is journalled after the entry's UI note: the note still counts
    (it changes no screen), so the real-dice entry half made comes back as it stood."""
    from tests.firmware.test_real_dice_device import RealDiceTable
    from tests.realdice import Step

    table = real_dice_round_begun(mock_factory, tmp_path)
    for step in (Step(Button.KEEP_1), Step(Button.KEEP_1), Step(Button.FLIP)):
        table.step(step)
    table.wait(15)  # the time box runs out while Ben's result is half entered
    assert table.app.game.scharf is Scharf.NEXT_ROUND
    assert isinstance(table.view, BannerView)
    table.step(Step(Button.STAND))  # the banner goes; the entry is back as it stood
    before = table.view
    assert isinstance(before, TurnView) and (before.player, before.pot_text) == ("Ben", "Topf 13")
    assert ([d.value for d in before.dice], before.throw_text) == ([3, 1, 1], "1 W. (max. 2)")
    assert journal_actions(tmp_path)[-1]["event"] == "scharf"
    mock_factory.reset()  # the plug is pulled: the journal is what is left
    again = RealDiceTable(MockFactory(), "standard", storage=tmp_path, resume=True,
                          players=REAL_DICE_PLAYERS)
    assert again.app.game.scharf is Scharf.NEXT_ROUND
    assert again.view == before
    again.step(Step(Button.STAND))
    assert [r.dice for r in again.app.game.results] == [(4, 1, 1), (3, 1, 1)]


def test_a_result_entered_from_a_page_leaves_the_scharf_banner_up(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    """A paired phone is the scorekeeper: its entries move the device's screen on, but the
    banner that says the time is up stays until a press at the device, or the table at the
    device never reads it."""
    from engine.events import Report
    from tests.realdice import Step

    table = real_dice_round_begun(mock_factory, tmp_path)
    table.wait(15)  # the time box runs out
    assert isinstance(table.view, BannerView) and table.view.headline == "Scharf!"
    table.app.enter_result(Report("Ben", (3, 1, 1), 2, False))  # as a page's report does
    assert [r.player for r in table.app.game.results] == ["Anna", "Ben"]
    assert isinstance(table.view, BannerView) and table.view.headline == "Scharf!"
    assert table.device.display.device.image.tobytes() == render(table.view).tobytes()
    table.step(Step(Button.STAND))  # read at the device: Carla's entry is next
    assert isinstance(table.view, TurnView) and table.view.player == "Carla"
