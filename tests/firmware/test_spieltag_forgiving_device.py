"""The Spieltag on the device forgives a stray game and plays Leben as players know it: a game
the scheme cannot score is said before its first throw and named on the standings, the menu
takes the last game out and puts it back (kept in the evening's history), and under Leben a
player without a life is told and left out of the next game's seats."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine import GameSetup, load_preset
from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.config import config_from_toml
from firmware.dice import SeededDice
from firmware.screen.views import BannerView, MenuView, PickerView, RollOffView
from firmware.store.evening import load_evening
from firmware.store.journal import read_header
from firmware.store.spieltagfile import SPIELTAG_FILE, SpieltagFiles
from hal.ports import Button
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.firmware.test_spieltag_device import choose_in_menu, play_randomly
from tests.harness import make_app

from .conftest import Inputs

SHORT = replace(load_preset("standard"), deckel=3)
K2, STAND = Button.KEEP_2, Button.STAND


def begin(root: Path, scheme: str = "platzpunkte", **changes: int) -> None:
    SpieltagFiles(StateDirectory(root)).begin(Spieltag(
        "20261201-193000", "7. Spieltag", replace(load_scheme(scheme), **changes), "2026-12-01"
    ))  # fmt: skip


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", {"title": "Spiel zählt nicht", "line": "Platzpunkte zählt zu dritt oder zu viert",
                "named": "Partie 1 zählt nicht", "last": "Letzte Partie …",
                "ask": "Partie 1 streichen?", "done": ("Partie 1 gestrichen", "Stand: 0 von 1"),
                "again": "Partie 1 zählen?", "back": ("Partie 1 zählt wieder", "Stand: 0 von 1")}),
        pytest.param("en", {"title": "Game not counted",
                            "line": "Platzpunkte counts at tables of 3 or 4",
                "named": "Game 1 not counted", "last": "Last game …",
                "ask": "Take game 1 out?", "done": ("Game 1 taken out", "Counted: 0 of 1"),
                "again": "Count game 1 again?", "back": ("Game 1 counts again", "Counted: 0 of 1")},
                     marks=pytest.mark.slow),
    ],
)
def test_a_two_player_game_under_platzpunkte_is_said_named_and_taken_out_from_the_menu(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, language: str, words: dict[str, object]
) -> None:
    root = tmp_path / "state"
    begin(root)
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    app = make_app(config, clock=clock, dice=SeededDice(3), storage=root,
                   setup=GameSetup(("Anna", "Ben"), SHORT))
    view = app.view  # before the first throw
    assert isinstance(view, BannerView)
    assert (view.title, view.lines) == (words["title"], (words["line"],))
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, RollOffView)
    play_randomly(app, inputs, 1)
    app.handle(inputs.press(STAND))
    view = app.view  # the standings never refuse: the game is named
    assert isinstance(view, MenuView) and view.items == (words["named"],)

    for ask, done, taken in ((words["ask"], words["done"], [1]),
                             (words["again"], words["back"], [])):
        choose_in_menu(app, inputs, str(words["last"]))
        view = app.view
        assert isinstance(view, MenuView) and view.title == ask
        app.handle(inputs.press(K2))  # yes
        app.handle(inputs.press(STAND))
        view = app.view
        assert isinstance(view, BannerView) and view.lines == done
        app.handle(inputs.press(STAND))  # closes the menu too
        assert isinstance(app.view, MenuView) and not app.view.title.startswith(str(ask))
        assert json.loads((root / SPIELTAG_FILE).read_text())["taken_out"] == taken
    history = json.loads((root / SPIELTAG_FILE).read_text())["history"]
    assert [(entry["what"], entry["partie"]) for entry in history] == [
        ("take_out", 1), ("put_back", 1)
    ]


def test_the_setup_says_before_the_start_that_the_game_does_not_count(
    clock: FakeClock, inputs: Inputs, tmp_path: Path
) -> None:
    root = tmp_path / "state"
    begin(root)
    config = config_from_toml('[game]\nplayers = ["Anna", "Ben"]')
    app = make_app(config, clock=clock, storage=root)
    while not (isinstance(app.view, PickerView) and app.view.step == "6/6"):
        app.handle(inputs.press(STAND))
    assert app.view.detail == "Platzpunkte zählt zu dritt oder zu viert: dieses Spiel zählt nicht"


@pytest.mark.parametrize("language", ["de", pytest.param("en", marks=pytest.mark.slow)])
def test_under_leben_a_player_out_is_told_and_left_out_of_the_next_game(
    clock: FakeClock, inputs: Inputs, tmp_path: Path, language: str
) -> None:
    root = tmp_path / "state"
    begin(root, "leben", lives=1)
    config = config_from_toml(f'[game]\nlanguage = "{language}"')
    players = ("Anna", "Ben", "Carla")
    app = make_app(config, clock=clock, dice=SeededDice(5), storage=root,
                   setup=GameSetup(players, SHORT))
    play_randomly(app, inputs, 3)
    (loser,) = (game.result.loser for game in load_evening(StateDirectory(root)).games)
    app.handle(inputs.press(STAND))
    view = app.view  # who went out, first
    assert isinstance(view, BannerView)
    assert (view.headline, view.lines) == (
        ("Raus!", (loser, "keine Leben: setzt aus")) if language == "de"
        else ("Out!", (loser, "no lives left: sits out"))
    )
    app.handle(inputs.press(STAND))
    view = app.view
    out = "raus" if language == "de" else "out"
    assert isinstance(view, MenuView) and view.items[-1] == f"3. {loser}: {out}"
    app.handle(inputs.press(STAND))  # the next game, without the player out
    assert isinstance(app.view, RollOffView)
    header = read_header((root / "current.journal").read_bytes())
    assert header.setup.players == tuple(p for p in players if p != loser)
