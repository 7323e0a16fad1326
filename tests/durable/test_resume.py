"""The device app on a real state directory: write before show, resume on the same screen."""

from __future__ import annotations

import errno
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Game, GameSetup
from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.screen.views import BannerView, MenuView, PickerView, TurnView
from firmware.store.gamestore import CURRENT
from firmware.store.journal import recover
from hal.ports import Button, InputEvent, InputKind
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.durable.driver import random_inputs
from tests.firmware.conftest import ScriptedDice
from tests.harness import make_app

SETUP = GameSetup(("Anna", "Ben", "Carla"))


def device(root: Path, seed: int = 1, setup: GameSetup | None = SETUP) -> DeviceApp:
    return make_app(
        DeviceConfig(), clock=FakeClock(), dice=SeededDice(seed),
        storage=StateDirectory(root), setup=setup,
    )


@pytest.mark.parametrize(
    "seed", [0, 1, *(pytest.param(seed, marks=pytest.mark.slow) for seed in (2, 3))]
)
def test_every_action_resumes_on_the_same_screen(tmp_path: Path, seed: int) -> None:
    app = device(tmp_path, seed)
    rng = random.Random(seed)
    inputs = random_inputs(rng, menus=False)
    resumed_checks = 0
    while resumed_checks < 40:
        game = app.game
        assert game is not None
        count = len(game.actions)
        app.handle(next(inputs))
        game = app.game
        if game is None or len(game.actions) == count:
            continue
        # The action is on disk before the frame that shows it is drawn.
        recovery = recover(StateDirectory(tmp_path), CURRENT)
        if game.is_over:
            assert recovery is None, "a finished game is archived at once"
            break
        assert recovery is not None and list(recovery.actions) == game.actions
        again = device(tmp_path, seed=999)
        assert again.resumed
        assert again.game is not None and again.game.state() == game.state()
        assert again.view == app.view, f"after action {len(game.actions)}"
        resumed_checks += 1
    assert resumed_checks >= 10


def test_pending_keep_marks_survive(tmp_path: Path) -> None:
    app = device(tmp_path, seed=3)
    app.handle(InputEvent(InputKind.THROW, 1.0))  # the roll-off
    app.handle(InputEvent(InputKind.PRESS, 2.0, Button.STAND))  # who opens: go on
    app.handle(InputEvent(InputKind.PRESS, 3.0, Button.STAND))  # hand-over: take the cup
    app.handle(InputEvent(InputKind.SHAKE_START, 4.0))
    app.handle(InputEvent(InputKind.THROW, 5.0))
    app.handle(InputEvent(InputKind.PRESS, 6.0, Button.KEEP_2))
    view = app.view
    assert isinstance(view, TurnView) and view.dice[1].out, "die 2 is marked to lay out"
    again = device(tmp_path, seed=3)
    assert again.view == app.view


def test_an_interrupted_game_can_be_discarded_from_the_menu(tmp_path: Path) -> None:
    app = device(tmp_path, seed=5)
    app.handle(InputEvent(InputKind.THROW, 1.0))
    again = device(tmp_path, seed=5, setup=None)
    assert again.resumed and again.game is not None and again.game.actions
    again.handle(InputEvent(InputKind.LONG_PRESS, 2.0, Button.STAND))
    menu = again.view
    assert isinstance(menu, MenuView)
    discard = menu.items.index("Spiel verwerfen")
    for at in range(discard):
        again.handle(InputEvent(InputKind.PRESS, 3.0 + at, Button.KEEP_2))
    again.handle(InputEvent(InputKind.PRESS, 10.0, Button.STAND))  # choose "discard"
    again.handle(InputEvent(InputKind.PRESS, 11.0, Button.KEEP_2))  # "yes"
    again.handle(InputEvent(InputKind.PRESS, 12.0, Button.STAND))
    assert again.game is None, "back in the setup"
    assert recover(StateDirectory(tmp_path), CURRENT) is None
    assert not device(tmp_path, setup=None).resumed


def test_statistics_screen_in_the_menu(tmp_path: Path) -> None:
    app = device(tmp_path, seed=8)
    inputs = random_inputs(random.Random(8), menus=False)
    while app.game is not None and not app.game.is_over:
        app.handle(next(inputs))
    app.handle(InputEvent(InputKind.LONG_PRESS, 1e6, Button.STAND))
    menu = app.view
    assert isinstance(menu, MenuView)
    for at in range(menu.items.index("Statistik")):
        app.handle(InputEvent(InputKind.PRESS, 1e6 + 1 + at, Button.KEEP_2))
    app.handle(InputEvent(InputKind.PRESS, 1e6 + 20, Button.STAND))
    view = app.view
    assert isinstance(view, PickerView) and view.title == "Statistik"
    assert view.detail.startswith("Sp. 1, ")
    assert app.screen().size == (128, 64)


def test_a_full_disk_shows_one_message_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = device(tmp_path, seed=2)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    app.handle(InputEvent(InputKind.THROW, 1.0))
    assert isinstance(app.view, BannerView) and app.view.title == "Speicher!"
    assert app.store is not None and "no space left" in (app.store.failure or "")
    app.handle(InputEvent(InputKind.PRESS, 2.0, Button.STAND))  # OK: the message goes away
    game = app.game
    assert game is not None and game.actions, "the roll-off happened in memory"
    inputs = random_inputs(random.Random(2), start=3.0, menus=False)
    for _ in range(200):
        app.handle(next(inputs))
        assert not (isinstance(app.view, BannerView) and app.view.title == "Speicher!")
    assert Game.replay(SETUP, game.actions).state() == game.state()


# -- the simulator asks first: "Weiterspielen?" ------------------------------------------------


def in_language(language: str) -> DeviceConfig:
    config = DeviceConfig()
    return replace(config, game=replace(config.game, language=language))


def asking(root: Path, setup: GameSetup | None = SETUP) -> DeviceApp:
    return make_app(
        DeviceConfig(), clock=FakeClock(), dice=SeededDice(8), storage=StateDirectory(root),
        setup=setup, ask_to_resume=True,
    )


def played_into_round_one(root: Path, language: str = "de") -> DeviceApp:
    app = make_app(
        in_language(language), clock=FakeClock(), dice=SeededDice(8),
        storage=StateDirectory(root), setup=SETUP,
    )
    app.handle(InputEvent(InputKind.THROW, 1.0))  # the roll-off
    app.handle(InputEvent(InputKind.PRESS, 2.0, Button.STAND))  # who opens: go on
    app.handle(InputEvent(InputKind.PRESS, 3.0, Button.STAND))  # hand-over: take the cup
    app.handle(InputEvent(InputKind.SHAKE_START, 3.5))
    app.handle(InputEvent(InputKind.THROW, 4.0))
    assert app.game is not None and len(app.game.actions) == 2
    return app


@pytest.mark.parametrize(
    ("language", "title", "round_line", "turn_line", "keys"),
    [
        ("de", "Weiterspielen?", "1. Hälfte, Runde 1", "{p} ist dran", ("Neu", "", "Weiter")),
        ("en", "Continue the game?", "Half 1, Round 1", "{p} to throw", ("New", "", "Resume")),
    ],
)
def test_an_unfinished_game_is_offered_with_where_it_stands(
    tmp_path: Path, language: str, title: str, round_line: str, turn_line: str,
    keys: tuple[str, str, str],
) -> None:
    before = played_into_round_one(tmp_path, language)
    assert before.game is not None
    player = before.game.current_player
    again = asking(tmp_path)  # in the language the game started in
    assert again.view == BannerView(
        title, "", ("Anna, Ben, Carla", round_line, turn_line.format(p=player)), keys
    )
    assert again.game is not None and again.game.state() == before.game.state()
    again.handle(InputEvent(InputKind.PRESS, 5.0, Button.KEEP_3))  # OK: go on
    assert again.view == before.view  # the screen the game was left on
    assert recover(StateDirectory(tmp_path), CURRENT) is not None


def test_a_new_game_instead_needs_a_confirmation_and_drops_the_old_one(tmp_path: Path) -> None:
    old = played_into_round_one(tmp_path)
    assert old.game is not None
    again = asking(tmp_path, setup=GameSetup(("Dora", "Emil")))
    again.handle(InputEvent(InputKind.PRESS, 5.0, Button.KEEP_1))  # "Neu"
    assert isinstance(again.view, MenuView) and again.view.title == "Spiel abbrechen?"
    again.handle(InputEvent(InputKind.PRESS, 6.0, Button.KEEP_3))  # "Nein": back to the question
    assert isinstance(again.view, BannerView) and again.view.title == "Weiterspielen?"
    again.handle(InputEvent(InputKind.PRESS, 7.0, Button.KEEP_1))
    again.handle(InputEvent(InputKind.PRESS, 8.0, Button.KEEP_2))  # down to "Ja, neues Spiel"
    again.handle(InputEvent(InputKind.PRESS, 9.0, Button.KEEP_3))
    assert again.game is not None and again.game.players == ("Dora", "Emil")
    assert not again.game.actions and not again.resumed
    recovery = recover(StateDirectory(tmp_path), CURRENT)
    assert recovery is not None and recovery.setup.players == ("Dora", "Emil")


def test_a_new_game_instead_keeps_the_computer_players_asked_for(tmp_path: Path) -> None:
    """``sim --bots ,odds`` with a game of persons waiting: "Neu" starts the game with bots."""
    played_into_round_one(tmp_path)  # three persons
    config = DeviceConfig()
    config = replace(config, game=replace(config.game, bots=("", "odds")))
    again = make_app(
        config, clock=FakeClock(), dice=SeededDice(8), storage=StateDirectory(tmp_path),
        setup=GameSetup(("Dora", "Emil")), ask_to_resume=True,
    )
    for at, button in ((5.0, Button.KEEP_1), (6.0, Button.KEEP_2), (7.0, Button.KEEP_3)):
        again.handle(InputEvent(InputKind.PRESS, at, button))  # "Neu", "Ja, neues Spiel"
    assert again.game is not None and again.game.players == ("Dora", "Emil")
    recovery = recover(StateDirectory(tmp_path), CURRENT)
    assert recovery is not None and recovery.header.bots == ("", "odds")


def test_without_a_planned_game_new_means_the_setup(tmp_path: Path) -> None:
    played_into_round_one(tmp_path)
    again = asking(tmp_path, setup=None)
    for at, button in ((5.0, Button.KEEP_1), (6.0, Button.KEEP_2), (7.0, Button.STAND)):
        again.handle(InputEvent(InputKind.PRESS, at, button))
    setup = again.view  # the setup's first step: how many play
    assert again.game is None and isinstance(setup, PickerView) and setup.title == "Spieler"
    assert recover(StateDirectory(tmp_path), CURRENT) is None


def test_the_roll_off_is_named_while_it_is_undecided(tmp_path: Path) -> None:
    app = make_app(
        DeviceConfig(), clock=FakeClock(), dice=ScriptedDice([(2, 3, 4)] * 3),
        storage=StateDirectory(tmp_path), setup=SETUP,
    )
    app.handle(InputEvent(InputKind.THROW, 1.0))  # a three-way tie: nobody opens yet
    assert app.game is not None and app.game.contenders and app.game.current_player is None
    again = asking(tmp_path)
    assert again.view == BannerView(
        "Weiterspielen?", "", ("Anna, Ben, Carla", "Auswürfeln"), ("Neu", "", "Weiter")
    )


def test_after_the_last_throw_of_a_round_the_question_names_whose_screen_comes_back(
    tmp_path: Path,
) -> None:
    """Killed on Carla's last-throw screen: the question names Carla, whose screen comes back,
    not the next to throw."""
    app = make_app(
        DeviceConfig(), clock=FakeClock(), dice=SeededDice(8), storage=StateDirectory(tmp_path),
        setup=SETUP,
    )
    at = 1.0
    app.handle(InputEvent(InputKind.THROW, at))  # the roll-off
    game = app.game
    assert game is not None
    while not (isinstance(app.view, TurnView) and app.view.player != game.current_player):
        at += 1.0
        if isinstance(app.view, TurnView):  # throw again until the limit ends the turn
            app.handle(InputEvent(InputKind.SHAKE_START, at))
            app.handle(InputEvent(InputKind.THROW, at + 0.5))
        else:
            app.handle(InputEvent(InputKind.PRESS, at, Button.STAND))
        assert at < 100
    thrower = app.view.player
    again = asking(tmp_path)
    assert isinstance(again.view, BannerView)
    assert again.view.lines[-1] == f"{thrower} ist dran"
    again.handle(InputEvent(InputKind.PRESS, at + 1, Button.KEEP_3))
    assert isinstance(again.view, TurnView) and again.view.player == thrower


def test_the_device_itself_does_not_ask(tmp_path: Path) -> None:
    before = played_into_round_one(tmp_path)
    assert device(tmp_path, seed=2).view == before.view
