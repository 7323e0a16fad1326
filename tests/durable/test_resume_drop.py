"""A dropped cup is written before it is shown, and a game resumes after it on the same screen."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine import GameSetup, load_preset
from engine.rules import DroppedCup
from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig
from firmware.screen.views import HandOverView, MenuView
from firmware.store.gamestore import CURRENT
from firmware.store.journal import recover
from hal.ports import Button, InputEvent, InputKind
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.firmware.conftest import ScriptedDice
from tests.harness import make_app

RULES = replace(load_preset("standard"), dropped_cup=DroppedCup.ROUND)
SETUP = GameSetup(("Anna", "Ben", "Carla"), RULES)


def device(root: Path, clock: FakeClock) -> DeviceApp:
    dice = ScriptedDice([(1, 1, 3), (6, 6, 5), (3, 2, 2), (6, 4, 1)])
    return make_app(
        DeviceConfig(), clock=clock, dice=dice, storage=StateDirectory(root), setup=SETUP
    )


def test_a_game_resumes_after_a_dropped_cup(tmp_path: Path) -> None:
    clock = FakeClock()

    def event(kind: InputKind, button: Button | None = None) -> InputEvent:
        return InputEvent(kind, clock.advance(0.5), button)

    app = device(tmp_path, clock)
    app.handle(event(InputKind.SHAKE_START))
    app.handle(event(InputKind.THROW))  # the roll-off: Anna opens
    app.handle(event(InputKind.PRESS, Button.STAND))
    app.handle(event(InputKind.SHAKE_START))
    app.handle(event(InputKind.THROW))  # Anna: 6-4-1
    app.handle(event(InputKind.LONG_PRESS, Button.STAND))
    menu = app.view
    assert isinstance(menu, MenuView)
    for _ in range(menu.items.index("Becher gefallen")):
        app.handle(event(InputKind.PRESS, Button.KEEP_2))
    app.handle(event(InputKind.PRESS, Button.KEEP_3))
    app.handle(event(InputKind.PRESS, Button.KEEP_2))  # from nobody to Anna
    app.handle(event(InputKind.PRESS, Button.STAND))
    app.handle(event(InputKind.PRESS, Button.KEEP_2))  # "Ja: Anna": she dropped it
    app.handle(event(InputKind.PRESS, Button.STAND))
    assert isinstance(app.view, HandOverView) and app.view.player == "Ben"
    game = app.game
    assert game is not None and [r.dropped for r in game.results] == [True]
    recovery = recover(StateDirectory(tmp_path), CURRENT)
    assert recovery is not None and list(recovery.actions) == game.actions
    again = device(tmp_path, clock)
    assert again.resumed and again.game is not None
    assert again.game.state() == game.state() and again.view == app.view
