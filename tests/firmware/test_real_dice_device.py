"""Real dice on the device: every result entered on gpiozero's mock pins through the real input
decoder and main loop. Done when a whole four-player game under ``standard`` and ``dsm`` ends
as ``schocken judge`` settles the same results, and a pulled plug mid-entry comes back to the
same entry."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from engine import Game, GameSetup, Rules, load_preset
from engine.events import Report
from firmware.config import DeviceConfig, config_from_toml
from firmware.link.tablefeed import TableFeed
from firmware.screen.views import BannerView, MenuView, RevealView, RollOffView, TurnView
from firmware.wiring import Device
from hal.ports import Button
from sim.bench.dice_entry import ENTRY_PACING
from sim.fakes import FakeClock
from tests.firmware.conftest import Inputs
from tests.harness import as_json, build_test_device, make_app
from tests.realdice import (
    ROLL_OFF_WINNER,
    Reported,
    Step,
    entry_steps,
    judged_game,
    roll_off_dice,
)

PLAYERS = ("Anna", "Ben", "Carla", "Dora")
#: A practised hand on the buttons, as the bench's entry figures press them.
PACING = ENTRY_PACING


class RealDiceTable:
    """A device on mock pins and a fake clock, playing a real-dice game."""

    def __init__(self, factory: MockFactory, rules_name: str, *, storage: Path | None = None,
                 players: tuple[str, ...] = PLAYERS, resume: bool = False) -> None:
        self.config = DeviceConfig()
        self.config = dataclasses.replace(
            self.config, game=dataclasses.replace(self.config.game, real_dice=True)
        )
        self.clock = FakeClock(1000.0)
        self.events: list[dict[str, Any]] = []
        setup = None if resume else GameSetup(players, load_preset(rules_name), real_dice=True)
        self.device: Device = build_test_device(
            self.config, clock=self.clock, pins=factory, setup=setup, storage=storage,
            event_sink=as_json(self.events.append),
        )
        self.pins = {button: factory.pin(self.config.pins.of(button)) for button in Button}
        self.presses = 0
        self.device.loop.start()

    @property
    def app(self) -> Any:
        return self.device.app

    @property
    def view(self) -> Any:
        return self.device.app.view

    def wait(self, seconds: float) -> None:
        self.device.run(until=self.clock.now() + seconds)

    def step(self, step: Step) -> None:
        self.presses += 1
        held = self.config.input.hold_s + PACING.hold_extra_s if step.hold else PACING.press_s
        self.pins[step.button].drive_low()
        self.wait(held)
        self.pins[step.button].drive_high()
        self.wait(PACING.gap_s)

    def enter(self, turn: Reported | tuple[int, ...]) -> float:
        """Enter one result on the entry screen; the seconds it took."""
        view = self.view
        assert isinstance(view, TurnView), view
        start = self.clock.now()
        shown = tuple(die.value for die in view.dice)
        for step in entry_steps(self.app.game, shown, turn):
            self.step(step)
        return self.clock.now() - start


def play(table: RealDiceTable, turns: list[Reported]) -> list[float]:
    """Enter the roll-off and every turn, pressing on through the screens between; per round,
    the seconds its entries took."""
    rounds: list[float] = []
    for throw in roll_off_dice(PLAYERS):
        table.enter(throw)
    assert isinstance(table.view, RollOffView)
    assert table.view.message == f"{ROLL_OFF_WINNER} fängt an!"
    table.step(Step(Button.STAND))
    spent = 0.0
    for turn in turns:
        while not isinstance(table.view, TurnView):
            assert not table.app.game.is_over
            table.step(Step(Button.STAND))  # the reveal, a lost half, the final's banner
        assert table.view.player == turn.player
        spent += table.enter(turn)
        if not table.app.game.results:  # the round was settled
            rounds.append(spent)
            spent = 0.0
    return rounds


@pytest.mark.parametrize(("preset", "seed"), [("standard", 1), ("dsm", 4)])
def test_a_real_dice_game_on_the_pins_ends_as_judge_settles_it(
    mock_factory: MockFactory, preset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    judged = judged_game(PLAYERS, load_preset(preset), preset, seed, monkeypatch)
    table = RealDiceTable(mock_factory, preset)
    play(table, judged.turns)
    game = table.app.game
    assert game.is_over and (game.loser, list(game.half_losers)) == (
        judged.loser, judged.half_losers
    )
    settled = [e for e in table.events if e["event"] == "round_over"]
    assert [(e["pot"], dict(e["holdings"])) for e in settled] == judged.rounds
    for _ in range(4):  # the last reveal, the lost half or final, then the game's end
        if table.app.at_game_end:
            break
        table.step(Step(Button.STAND))
    assert isinstance(table.view, BannerView) and table.view.headline == judged.loser
    assert all(isinstance(a, Report) for a in game.actions[1:])


def test_an_entry_is_refused_in_words_and_the_device_shows_the_limit(
    mock_factory: MockFactory,
) -> None:
    table = RealDiceTable(mock_factory, "standard", players=("Anna", "Ben", "Carla"))
    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        table.enter(throw)
    table.step(Step(Button.STAND))
    view = table.view
    assert (view.player, view.throw_text, view.status) == ("Anna", "3 W. (max. 3)", "Schock aus")
    table.step(Step(Button.FLIP))  # 1 throw
    table.step(Step(Button.KEEP_3))  # 1-1-2
    table.step(Step(Button.FLIP, hold=True))
    assert table.view.status == "1 Wurf: aus der Hand"
    table.step(Step(Button.STAND))
    view = table.view
    assert (view.player, view.throw_text) == ("Ben", "1 W. (max. 1)")
    table.step(Step(Button.FLIP))  # wraps: at most the limit
    assert table.view.throw_text == "1 W. (max. 1)"


def test_a_wrong_entry_is_corrected_from_the_menu(mock_factory: MockFactory) -> None:
    table = RealDiceTable(mock_factory, "standard", players=("Anna", "Ben", "Carla"))
    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        table.enter(throw)
    table.step(Step(Button.STAND))
    table.enter(Reported("Anna", (6, 5, 4), 2, False))
    table.step(Step(Button.STAND, hold=True))
    menu = table.view
    assert isinstance(menu, MenuView)
    labels = list(menu.items)
    index = next(i for i, text in enumerate(labels) if "Korrigieren" in text)
    for _ in range(index):
        table.step(Step(Button.KEEP_2))
    table.step(Step(Button.STAND))
    table.step(Step(Button.KEEP_2))  # the picker starts on nobody: Anna
    table.step(Step(Button.STAND))
    view = table.view
    assert isinstance(view, TurnView) and view.player == "Anna"
    assert view.throw_text == "Korr. 2 W."
    table.step(Step(Button.KEEP_1, hold=True))  # 6 -> 5
    table.step(Step(Button.STAND))
    assert table.view.player == "Ben"
    assert [r.dice for r in table.app.game.results] == [(5, 5, 4)]


def test_a_pulled_plug_mid_entry_resumes_at_the_same_entry(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    table = RealDiceTable(mock_factory, "standard", storage=tmp_path,
                          players=("Anna", "Ben", "Carla"))
    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        table.enter(throw)
    table.step(Step(Button.STAND))
    table.enter(Reported("Anna", (4, 1, 1), 2, False))
    for step in (Step(Button.KEEP_1), Step(Button.KEEP_1), Step(Button.FLIP)):
        table.step(step)
    before = table.view
    assert (before.player, [d.value for d in before.dice], before.throw_text) == (
        "Ben", [3, 1, 1], "1 W. (max. 2)"
    )
    mock_factory.reset()  # the plug is pulled: nothing is closed, the journal is what is left
    again = RealDiceTable(MockFactory(), "standard", storage=tmp_path, resume=True,
                          players=("Anna", "Ben", "Carla"))
    assert again.view == before
    again.step(Step(Button.STAND))
    assert [r.dice for r in again.app.game.results] == [(4, 1, 1), (3, 1, 1)]


def test_real_dice_in_config_toml() -> None:
    config = config_from_toml('[game]\nreal_dice = true\n')
    assert config.game.real_dice is True
    with pytest.raises(ValueError, match=r'game\.real_dice = "yes": must be true or false'):
        config_from_toml('[game]\nreal_dice = "yes"\n')


def test_the_menu_between_games_switches_to_real_dice(mock_factory: MockFactory) -> None:
    """On the setup screen: hold STAND, "Echte Würfel: aus" turns them on for the game the setup
    starts, which then asks for the roll-off's throws instead of a shake."""
    clock = FakeClock(100.0)
    app = make_app(clock=clock)
    inputs = Inputs(clock)
    app.handle(inputs.hold(Button.STAND))
    menu = app.view
    assert isinstance(menu, MenuView)
    index = menu.items.index("Echte Würfel: aus")
    for _ in range(index):
        app.handle(inputs.press(Button.KEEP_2))
    app.handle(inputs.press(Button.STAND))
    app.handle(inputs.hold(Button.STAND))
    assert "Echte Würfel: an" in app.view.items
    app.handle(inputs.press(Button.FLIP))  # the menu closes
    for _ in range(8):  # through the setup's steps with what they offer, to the start
        if app.game is not None:
            break
        app.handle(inputs.press(Button.STAND))
    assert app.game is not None and app.game.real_dice
    view = app.view
    assert isinstance(view, TurnView) and view.status == "Auswürfeln"


@pytest.mark.parametrize("hidden", [True, False])
def test_a_report_leaves_the_device_as_the_engine_covers_it(hidden: bool) -> None:
    """Under hidden_last_throw a reported turn is under the cup until the reveal: its report and
    turn_over go to the link and the page without dice; the reveal shows them all."""
    game = Game(GameSetup(("Anna", "Ben"), Rules(hidden_last_throw=hidden), real_dice=True))
    game.roll_off([(1, 1, 1), (2, 2, 3)])
    feed = TableFeed()
    report, turn_over = (feed.event(game, e) for e in game.report((4, 1, 1), 2))
    assert (report["event"], turn_over["event"]) == ("report", "turn_over")
    assert (report["dice"] is None) is hidden and (turn_over["dice"] is None) is hidden
    events = game.report((6, 5, 2), 2)
    (reveal,) = (feed.event(game, e) for e in events if e.kind == "round_over")
    assert reveal["event"] == "round_over"
    assert [list(t["dice"]) for t in reveal["turns"]] == [[4, 1, 1], [6, 5, 2]]


def test_blind_is_announced_from_the_menu_on_the_entry(clock_and_inputs: tuple[FakeClock, Inputs],
                                                        ) -> None:
    """Under rules with Blind, the menu on the entry screen announces it: the dice as entered,
    one throw, and the round's Deckel count double."""
    clock, inputs = clock_and_inputs
    rules = dataclasses.replace(load_preset("standard"), blind=True)
    app = make_app(clock=clock, setup=GameSetup(("Anna", "Ben"), rules, real_dice=True))
    for throw in [(1, 1, 1), (6, 4, 2)]:
        for step in entry_steps(app.game, tuple(d.value for d in app.view.dice), throw):
            app.handle(inputs.hold(step.button) if step.hold else inputs.press(step.button))
    app.handle(inputs.press(Button.STAND))  # Anna opens
    for button in (Button.KEEP_1, Button.KEEP_1, Button.KEEP_2, Button.KEEP_3):  # 3-2-2
        app.handle(inputs.press(button))
    app.handle(inputs.hold(Button.STAND))
    items = list(app.view.items)
    for _ in range(items.index("Blind ansagen")):
        app.handle(inputs.press(Button.KEEP_2))
    app.handle(inputs.press(Button.STAND))
    (result,) = app.game.results
    assert (result.dice, result.throws, result.blind) == ((3, 2, 2), 1, True)
    assert app.view.player == "Ben" and app.view.throw_text == "1 W. (max. 1)"


def test_a_long_press_on_the_roll_offs_result_and_the_reveal_goes_on(
    clock_and_inputs: tuple[FakeClock, Inputs],
) -> None:
    """A held button goes on from the roll-off's result and the reveal as a press does: the
    next entry's first press is its own, not the one that was to go on."""
    clock, inputs = clock_and_inputs
    app = make_app(clock=clock, setup=GameSetup(("Anna", "Ben"), load_preset("standard"),
                                                real_dice=True))

    def enter(throw: tuple[int, ...]) -> None:
        for step in entry_steps(app.game, tuple(d.value for d in app.view.dice), throw):
            app.handle(inputs.hold(step.button) if step.hold else inputs.press(step.button))

    for throw in [(1, 1, 1), (6, 4, 2)]:
        enter(throw)
    assert isinstance(app.view, RollOffView) and app.view.message == "Anna fängt an!"
    app.handle(inputs.hold(Button.KEEP_1))
    assert isinstance(app.view, TurnView) and app.view.player == "Anna"
    assert [d.value for d in app.view.dice] == [1, 1, 1], "the hold went on, entered nothing"
    enter(Reported("Anna", (6, 5, 4), 3, False))
    enter(Reported("Ben", (4, 2, 1), 3, False))
    assert isinstance(app.view, RevealView)  # the last entry's second STAND settled
    app.handle(inputs.hold(Button.KEEP_2))
    assert isinstance(app.view, TurnView) and app.view.player == "Ben"  # the loser opens
    assert [d.value for d in app.view.dice] == [1, 1, 1]


def test_a_correction_begun_is_cancelled_from_the_menu(
    clock_and_inputs: tuple[FakeClock, Inputs], tmp_path: Path
) -> None:
    """The correction's screen says how to leave it (until its first button); the menu's
    "Korrektur abbrechen" brings back the entry it interrupted as it stood, the result
    unchanged, and a pulled plug then comes back to that entry, not to the correction."""
    clock, inputs = clock_and_inputs
    setup = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"), real_dice=True)
    app = make_app(clock=clock, setup=setup, storage=tmp_path)

    def enter(throw: Reported | tuple[int, ...]) -> None:
        for step in entry_steps(app.game, tuple(d.value for d in app.view.dice), throw):
            app.handle(inputs.hold(step.button) if step.hold else inputs.press(step.button))

    def choose(item: str) -> None:
        app.handle(inputs.hold(Button.STAND))
        items = list(app.view.items)
        for _ in range(items.index(item)):
            app.handle(inputs.press(Button.KEEP_2))
        app.handle(inputs.press(Button.STAND))

    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        enter(throw)
    app.handle(inputs.press(Button.STAND))  # Anna opens
    enter(Reported("Anna", (6, 5, 4), 2, False))
    for button in (Button.KEEP_1, Button.KEEP_1):  # Ben's entry under way: 3-1-1
        app.handle(inputs.press(button))
    interrupted = app.view
    choose("Korrigieren")
    app.handle(inputs.press(Button.KEEP_2))  # the picker starts on nobody: Anna
    app.handle(inputs.press(Button.STAND))
    view = app.view
    assert isinstance(view, TurnView) and (view.player, view.throw_text) == ("Anna", "Korr. 2 W.")
    assert (view.status, view.pot_text) == ("Abbruch: STAND halten", "")
    app.handle(inputs.press(Button.KEEP_1))  # 6 -> 1: the status names the throw again
    assert app.view.status != "Abbruch: STAND halten"
    app.handle(inputs.hold(Button.STAND))
    assert list(app.view.items)[:2] == ["Weiter", "Korrektur abbrechen"]
    app.handle(inputs.press(Button.FLIP))  # the menu closes: the correction is still there
    choose("Korrektur abbrechen")
    assert app.view == interrupted
    assert [(r.player, r.dice) for r in app.game.results] == [("Anna", (6, 5, 4))]
    again = make_app(clock=FakeClock(200.0), storage=tmp_path)
    assert again.view == interrupted


@pytest.fixture
def clock_and_inputs() -> tuple[FakeClock, Inputs]:
    clock = FakeClock(100.0)
    return clock, Inputs(clock)


def test_the_rounds_last_entry_is_corrected_before_it_is_settled(
    mock_factory: MockFactory, tmp_path: Path
) -> None:
    """The round's last entry waits for a second STAND ("STAND: abrechnen"): any other button
    changes it again; a pulled plug meanwhile comes back to it; STAND settles the round."""
    players = ("Anna", "Ben", "Carla")
    table = RealDiceTable(mock_factory, "standard", storage=tmp_path, players=players)
    for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
        table.enter(throw)
    table.step(Step(Button.STAND))
    table.enter(Reported("Anna", (6, 5, 4), 3, False))
    table.enter(Reported("Ben", (4, 2, 1), 3, False))
    for step in (Step(Button.KEEP_1), Step(Button.KEEP_1), Step(Button.STAND)):  # Carla: 3-1-1
        table.step(step)
    view = table.view
    assert (view.player, view.status) == ("Carla", "STAND: abrechnen")
    assert len(table.app.game.results) == 2, "not settled yet"
    table.step(Step(Button.KEEP_2))  # a second look: 3-2-1, and the entry is open again
    assert table.view.status != "STAND: abrechnen"
    table.step(Step(Button.STAND))
    before = table.view
    assert before.status == "STAND: abrechnen" and [d.value for d in before.dice] == [3, 2, 1]
    mock_factory.reset()  # the plug is pulled while the last entry waits
    again = RealDiceTable(MockFactory(), "standard", storage=tmp_path, resume=True, players=players)
    assert again.view == before
    again.step(Step(Button.STAND))
    assert not again.app.game.results, "settled"
    settled = [e for e in again.events if e["event"] == "round_over"]
    assert [tuple(t["dice"]) for t in settled[-1]["turns"]] == [(6, 5, 4), (4, 2, 1), (3, 2, 1)]


def test_the_dice_switch_is_remembered_over_a_restart(tmp_path: Path) -> None:
    """The menu's "Echte Würfel" is kept in setup.json like the setup's other choices: the
    device started again (its configuration says the device's dice) plays the next game with
    real dice."""
    from hal.storage import StateDirectory

    clock = FakeClock(100.0)
    inputs = Inputs(clock)
    app = make_app(clock=clock, storage=StateDirectory(tmp_path))
    app.handle(inputs.hold(Button.STAND))
    items = list(app.view.items)
    for _ in range(items.index("Echte Würfel: aus")):
        app.handle(inputs.press(Button.KEEP_2))
    app.handle(inputs.press(Button.STAND))
    assert json.loads((tmp_path / "setup.json").read_text())["real_dice"] is True
    again = make_app(clock=clock, storage=StateDirectory(tmp_path))
    assert again.real_dice
    again.handle(inputs.hold(Button.STAND))
    assert "Echte Würfel: an" in again.view.items
    again.handle(inputs.press(Button.FLIP))
    for _ in range(8):  # through the setup's steps, to the start
        if again.game is not None:
            break
        again.handle(inputs.press(Button.STAND))
    assert again.game is not None and again.game.real_dice
