"""The Spieltag on the device: begun from the menu with its scheme, every game begun after it
is the evening's, the standings after each game (recounted from the journals), the standings
in the menu, and ending it."""

from __future__ import annotations

import errno
import random
from dataclasses import replace
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from engine import GameSetup, load_preset
from engine.scoring import load_scheme, standings
from engine.spieltag import Spieltag
from firmware.app.device import DeviceApp
from firmware.app.stages.standings import TIME_BOXES
from firmware.config import config_from_toml
from firmware.dice import SeededDice
from firmware.screen.views import (
    BannerView,
    HandOverView,
    MenuView,
    PickerView,
    RollOffView,
    TurnView,
)
from firmware.store.evening import load_evening
from firmware.store.journal import read_header
from firmware.store.spieltagfile import SPIELTAG_FILE, SpieltagFiles
from hal.ports import Button
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.firmware.test_app import shake_and_throw
from tests.harness import make_app

from .conftest import Inputs

FOUR = GameSetup(("Anna", "Ben", "Carla", "Dirk"), load_preset("standard"))
#: Games of 3 Deckel, for the evenings of several: the standings count a game whatever its length.
SHORT = GameSetup(FOUR.players, replace(load_preset("standard"), deckel=3))
K1, K2, STAND, FLIP = Button.KEEP_1, Button.KEEP_2, Button.STAND, Button.FLIP


def play_randomly(app: DeviceApp, inputs: Inputs, seed: int, limit: int = 5000) -> None:
    """Press and shake at random until the game is over, in any language."""
    rng = random.Random(seed)
    for _ in range(limit):
        if app.at_game_end and isinstance(app.view, BannerView):
            return
        view = app.view
        if isinstance(view, TurnView):
            choice = rng.random()
            if choice < 0.45:
                shake_and_throw(app, inputs)
            elif choice < 0.7:
                app.handle(inputs.press(rng.choice([K1, K2, Button.KEEP_3])))
            elif choice < 0.8:
                app.handle(inputs.press(FLIP))
            else:
                app.handle(inputs.press(STAND))
        elif isinstance(view, HandOverView) and rng.random() < 0.5:
            app.handle(inputs.shake())
        else:
            app.handle(inputs.press(STAND))
    raise AssertionError("the game did not end")


def choose_in_menu(app: DeviceApp, inputs: Inputs, item: str) -> None:
    """Open the menu and choose ``item``."""
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView), view
    for _ in range(view.items.index(item)):
        app.handle(inputs.press(K2))
    app.handle(inputs.press(STAND))


def begin_from_the_menu(
    app: DeviceApp, inputs: Inputs, scheme: str, language: str, time_box: int = 0
) -> None:
    choose_in_menu(app, inputs, "Spieltag beginnen" if language == "de" else "Begin a Spieltag")
    while True:
        view = app.view
        assert isinstance(view, PickerView)
        if view.value == scheme:
            break
        app.handle(inputs.press(K2))
    app.handle(inputs.press(STAND))
    view = app.view  # the time box comes next
    assert isinstance(view, PickerView) and view.title == ("Zeitlimit" if language == "de"
                                                           else "Time box")
    for _ in range(TIME_BOXES.index(time_box)):
        app.handle(inputs.press(K2))
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, BannerView)
    assert view.title == ("Spieltag läuft" if language == "de" else "Spieltag begun")
    minutes = (("Minuten" if language == "de" else "minutes"),) if time_box else ()
    assert view.lines == ("Spieltag 1", scheme, *(f"{time_box} {m}" for m in minutes))
    app.handle(inputs.press(STAND))  # the message closes, and the menu with it
    assert not isinstance(app.view, MenuView | BannerView)


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_evening_begun_from_the_menu_shows_its_standings_after_each_game(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, language: str
) -> None:
    root = tmp_path / "state"
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    app = make_app(config, clock=clock, dice=SeededDice(3), storage=root, setup=SHORT)
    begin_from_the_menu(app, inputs, "Platzpunkte", language)
    spieltag = SpieltagFiles(StateDirectory(root)).current()
    assert spieltag is not None and spieltag.scheme == load_scheme("platzpunkte")
    # The game under way began before the evening: it is not the evening's.
    play_randomly(app, inputs, 1)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, RollOffView)
    for number in (1, 2):
        play_randomly(app, inputs, 10 + number)
        app.handle(inputs.press(STAND))  # past the game's end: the standings
        view = app.view
        assert isinstance(view, MenuView)
        title = {
            ("de", 1): "Stand nach 1 Spiel", ("de", 2): "Stand nach 2 Spielen",
            ("en", 1): "After 1 game", ("en", 2): "After 2 games",
        }[language, number]
        evening = load_evening(StateDirectory(root))
        expected = standings(spieltag.scheme, [game.result for game in evening.games])
        assert view.title == title and len(evening.games) == number
        assert view.items == tuple(f"{s.place}. {s.player}: {s.score}" for s in expected)
        app.handle(inputs.press(K2))  # scrolls
        assert isinstance(app.view, MenuView) and app.view.selected == 1
        app.handle(inputs.press(STAND))  # the next game
        assert isinstance(app.view, RollOffView)
    # The standings in the menu, then ending the evening.
    choose_in_menu(app, inputs, "Spieltag: Stand" if language == "de" else "Spieltag: standings")
    view = app.view
    assert isinstance(view, MenuView) and len(view.items) == 4
    app.handle(inputs.press(STAND))
    app.handle(inputs.press(FLIP))
    choose_in_menu(app, inputs, "Spieltag beenden" if language == "de" else "End the Spieltag")
    app.handle(inputs.press(K2))  # "Ja, beenden"
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, BannerView) and view.lines == ("Spieltag 1",)
    assert not (root / SPIELTAG_FILE).exists()
    assert SpieltagFiles(StateDirectory(root)).ids() == [spieltag.id]
    # After the evening, a game ends as before: straight to the next one.
    app.handle(inputs.press(STAND))
    play_randomly(app, inputs, 20)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, RollOffView)


def test_the_menu_offers_no_spieltag_without_a_state_directory(
    clock: FakeClock, inputs: Inputs
) -> None:
    app = make_app(clock=clock, dice=SeededDice(1), setup=FOUR)
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    assert not any("Spieltag" in item for item in view.items)


def test_a_damaged_evening_file_leaves_the_device_playing(
    clock: FakeClock, inputs: Inputs, tmp_path: Path
) -> None:
    root = tmp_path / "state"
    root.mkdir()
    (root / SPIELTAG_FILE).write_text("{ kaputt")
    app = make_app(clock=clock, dice=SeededDice(2), storage=root, setup=FOUR)
    play_randomly(app, inputs, 4)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, RollOffView)  # no standings, no crash
    assert (root / SPIELTAG_FILE).read_text() == "{ kaputt"


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_partie_whose_journal_is_gone_is_named_on_the_standings(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, language: str
) -> None:
    root = tmp_path / "state"
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    SpieltagFiles(StateDirectory(root)).begin(
        Spieltag("20261201-193000", "7. Spieltag", load_scheme("verlustpunkte"), "2026-12-01")
    )
    app = make_app(config, clock=clock, dice=SeededDice(3), storage=root, setup=SHORT)
    play_randomly(app, inputs, 1)
    app.handle(inputs.press(STAND))
    (first,) = root.glob("game-*.journal")
    first.unlink()  # the evening's first game, deleted
    play_randomly(app, inputs, 2)
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    assert view.items[-1] == ("Partie 1 fehlt!" if language == "de" else "Game 1 missing!")
    assert view.title == ("Stand nach 1 Spiel" if language == "de" else "After 1 game")


@pytest.mark.parametrize(
    ("content", "counts", "lines"),
    [
        ('{"format": 1, "id": "20261201-193000", "name": "7. Spie', True,
         ("ist beschädigt!", "Spiele zählen mit", "nach der Reparatur")),
        ("\x00" * 40, False, ("ist beschädigt!", "Spiel zählt nicht", "für den Spieltag")),
    ],
)
def test_a_damaged_evening_file_is_said_on_the_screen_and_the_game_keeps_its_evening(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, content: str, counts: bool,
    lines: tuple[str, ...],
) -> None:
    root = tmp_path / "state"
    root.mkdir()
    (root / SPIELTAG_FILE).write_text(content)
    app = make_app(config_from_toml(""), clock=clock, dice=SeededDice(3), storage=root,
                   setup=FOUR)
    view = app.view
    assert isinstance(view, BannerView) and view.title == "Spieltag-Datei"
    assert view.lines == lines
    header = read_header((root / "current.journal").read_bytes())
    assert header.spieltag == ("20261201-193000" if counts else None)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, RollOffView), "one press and the game goes on"


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    ("content", "lines"),
    [
        ('{"format": 1, "id": "20261201-193000", "name": "7. Spie', {
            "de": ("ist beschädigt!", "Spiele zählen mit", "nach der Reparatur"),
            "en": ("is damaged!", "Games still count", "once it is repaired"),
        }),
        ("\x00" * 40, {
            "de": ("ist beschädigt!", "Spiele zählen nicht", "für den Spieltag"),
            "en": ("is damaged!", "Games do not count", "for the Spieltag"),
        }),
    ],
)  # fmt: skip
def test_the_menu_says_the_evening_file_is_damaged_and_offers_no_new_spieltag(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, language: str, content: str,
    lines: dict[str, tuple[str, ...]],
) -> None:
    root = tmp_path / "state"
    root.mkdir()
    (root / SPIELTAG_FILE).write_text(content)
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    app = make_app(config, clock=clock, dice=SeededDice(3), storage=root, setup=FOUR)
    app.handle(inputs.press(STAND))  # the notice of the game's start
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    # Beginning (and ending) cannot work while the file is damaged: the menu says why instead.
    assert not {"Spieltag beginnen", "Begin a Spieltag", "Spieltag beenden"} & set(view.items)
    choose_in_menu(app, inputs, "Spieltag: beschädigt" if language == "de" else "Spieltag: damaged")
    view = app.view
    assert isinstance(view, BannerView)
    assert view.title == ("Spieltag-Datei" if language == "de" else "Spieltag file")
    assert view.lines == lines[language]
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, MenuView), "one press and the menu is back"
    assert (root / SPIELTAG_FILE).read_text() == content


def up_to_the_time_box(app: DeviceApp, inputs: Inputs) -> None:
    """Choose "Spieltag beginnen" and its first scheme: the time box's picker waits for OK."""
    choose_in_menu(app, inputs, "Spieltag beginnen")
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, PickerView) and view.title == "Zeitlimit"


def fail_writes(mocker: MockerFixture) -> None:
    """The card is full from now on: every atomic write fails at its fsync."""
    mocker.patch("hal.storage.os.fsync", side_effect=OSError(errno.ENOSPC, "No space left"))


def damage_the_file(root: Path) -> None:
    (root / SPIELTAG_FILE).write_text('{"format": 1, "id": "20261201-193000", "name": "7. Spie')


def begin_elsewhere(root: Path) -> None:
    """The page (or the command line) begins an evening meanwhile."""
    SpieltagFiles(StateDirectory(root)).begin(
        Spieltag("20261201-193000", "7. Spieltag", load_scheme("leben"), "2026-12-01")
    )


@pytest.mark.parametrize(
    ("meanwhile", "lines"),
    [
        ("storage", ("Nicht gespeichert",)),
        ("damaged", ("Nicht gespeichert", "Spieltag-Datei", "ist beschädigt!")),
        ("begun elsewhere", ("Nicht gespeichert", "Spieltag läuft schon")),
    ],
)
def test_a_spieltag_that_cannot_be_begun_says_why_in_words(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, mocker: MockerFixture, meanwhile: str,
    lines: tuple[str, ...],
) -> None:
    root = tmp_path / "state"
    app = make_app(clock=clock, dice=SeededDice(3), storage=root, setup=FOUR)
    up_to_the_time_box(app, inputs)
    if meanwhile == "storage":
        fail_writes(mocker)
    elif meanwhile == "damaged":
        damage_the_file(root)
    else:
        begin_elsewhere(root)
    app.handle(inputs.press(STAND))
    mocker.stopall()
    view = app.view
    assert isinstance(view, BannerView) and view.title == "Spieltag beginnen"
    assert view.lines == lines, "in words, never an exception's name"


@pytest.mark.parametrize(
    ("meanwhile", "lines"),
    [
        ("storage", ("Nicht gespeichert",)),
        ("damaged", ("Nicht gespeichert", "Spieltag-Datei", "ist beschädigt!")),
        ("ended elsewhere", ("Nicht gespeichert", "Kein Spieltag läuft")),
    ],
)
def test_a_spieltag_that_cannot_be_ended_says_why_in_words(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, mocker: MockerFixture, meanwhile: str,
    lines: tuple[str, ...],
) -> None:
    root = tmp_path / "state"
    begin_elsewhere(root)
    app = make_app(clock=clock, dice=SeededDice(3), storage=root, setup=FOUR)
    choose_in_menu(app, inputs, "Spieltag beenden")
    app.handle(inputs.press(K2))  # "Ja, beenden"
    if meanwhile == "storage":
        fail_writes(mocker)
    elif meanwhile == "damaged":
        damage_the_file(root)
    else:
        SpieltagFiles(StateDirectory(root)).end()
    app.handle(inputs.press(STAND))
    mocker.stopall()
    view = app.view
    assert isinstance(view, BannerView) and view.title == "Spieltag beenden"
    assert view.lines == lines


@pytest.mark.parametrize(
    ("evening", "lines"),
    [
        (True, ("ist beschädigt!", "Spiele zählen mit", "nach der Reparatur")),
        (False, ("ist beschädigt!", "Spiel zählt nicht", "für den Spieltag")),
    ],
)
def test_a_resumed_game_says_its_evening_file_is_damaged(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, evening: bool, lines: tuple[str, ...],
) -> None:
    root = tmp_path / "state"
    if evening:
        begin_elsewhere(root)
    app = make_app(clock=clock, dice=SeededDice(3), storage=root, setup=FOUR)
    shake_and_throw(app, inputs)  # the roll-off's first throw: something to resume
    assert isinstance(app.view, RollOffView)
    damage_the_file(root)  # and then the plug is pulled
    again = make_app(clock=clock, dice=SeededDice(3), storage=root)
    assert again.resumed
    view = again.view
    assert isinstance(view, BannerView) and view.title == "Spieltag-Datei"
    assert view.lines == lines
    header = read_header((root / "current.journal").read_bytes())
    assert header.spieltag == ("20261201-193000" if evening else None), "its evening kept"
    again.handle(inputs.press(STAND))
    assert again.view == app.view, "one press and the game goes on where it stood"
