"""The rules in force, visible at any time, and the fit of the names screens on the 128x64 panel.

During a game the menu's "Regeln" shows the rules' name, their Deckel and every option that
differs from ``standard``, in German and English, scrolled with the buttons and read only.
The names screens (the names step, the list of names, the letter wheel) and the rules screen are
measured with the real bitmap font: the longest names, both languages, every option's words.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import GameSetup, load_preset, preset_names
from engine.rules import (
    HAND_ONLY_KINDS,
    NAME_KEYS,
    DroppedCup,
    Rules,
    StrasseOrder,
    TieRule,
    TwoTwoOne,
    differences,
)
from firmware.app.device import DeviceApp
from firmware.app.stages.base import CLOSE
from firmware.app.stages.naming import WHEEL, NameEntry
from firmware.config import config_from_toml
from firmware.dice import SeededDice
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.rulestext import option_lines, option_words, rules_summary
from firmware.screen.screens import WIDTH, render, rules_entry_lines
from firmware.screen.shortnames import SHOWN_NAME_LENGTH
from firmware.screen.views import MenuView, PickerView, RulesView
from hal.ports import Button, InputEvent, InputKind
from sim.fakes import FakeClock
from tests.harness import as_json, make_app

from .conftest import Inputs, ScriptedDice

K1, K2, K3, FLIP, STAND = (
    Button.KEEP_1, Button.KEEP_2, Button.KEEP_3, Button.FLIP, Button.STAND
)
ROLL_OFF = [(1, 1, 3), (6, 6, 5), (3, 2, 2)]  # Anna opens
LANGUAGES = ("de", "en")

EXPECTED = {
    ("bvb", "de"): (
        "bvb: 13 Deckel",
        "General über Schock 2",
        "Gleichstand: wer zuerst warf",
        "General heißt Jenie",
        "sonst wie standard",
        "Ändern: erst nach dem Spiel",
    ),
    ("bvb", "en"): (
        "bvb: 13 Deckel",
        "General above Schock 2",
        "Tie: who threw first wins",
        "General is called Jenie",
        "else as standard",
        "Change: after this game",
    ),
    ("dsm", "de"): (
        "dsm: 13 Deckel",
        "General über Schock 2",
        "Straße nur aus der Hand",
        "keine Tipps",
        "sonst wie standard",
        "Ändern: erst nach dem Spiel",
    ),
    ("dsm", "en"): (
        "dsm: 13 Deckel",
        "General above Schock 2",
        "Straße only in one throw",
        "no hints",
        "else as standard",
        "Change: after this game",
    ),
}


def game_app(
    tmp_path: Path, rules: Rules, language: str
) -> tuple[DeviceApp, list[dict[str, object]]]:
    events: list[dict[str, object]] = []
    config = config_from_toml(f'[game]\nlanguage = "{language}"\n')
    app = make_app(
        config, clock=FakeClock(100.0), dice=ScriptedDice(ROLL_OFF), storage=tmp_path / "state",
        setup=GameSetup(("Anna", "Ben", "Carla"), rules), event_sink=as_json(events.append),
    )
    return app, events


def open_rules(app: DeviceApp, inputs: Inputs) -> None:
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    for _ in range(view.items.index(app.t("menu_rules"))):
        app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))


@pytest.mark.parametrize(("preset", "language"), sorted(EXPECTED))
def test_the_menu_shows_the_rules_in_force_during_a_game(
    tmp_path: Path, inputs: Inputs, preset: str, language: str
) -> None:
    app, events = game_app(tmp_path, load_preset(preset), language)
    app.handle(inputs.shake())
    app.handle(inputs.throw())  # the roll-off is under way: a game is running
    before_events, before_view = list(events), app.view
    open_rules(app, inputs)
    view = app.view
    assert isinstance(view, RulesView) and view.title == app.t("menu_rules")
    assert view.entries == EXPECTED[(preset, language)] and view.first == 0
    assert view.keys == ("▲", "▼", "OK")
    # Scrolling: down to the last entry and no further, up to the first and no further.
    for _ in range(len(view.entries) + 2):
        app.handle(inputs.press(K2))
    assert isinstance(app.view, RulesView) and app.view.first == len(view.entries) - 1
    for _ in range(len(view.entries) + 2):
        app.handle(inputs.press(K1))
    assert isinstance(app.view, RulesView) and app.view.first == 0
    # Nothing there changes a rule: holds are ignored, OK and FLIP only go back.
    for button in Button:
        app.handle(inputs.hold(button))
        assert isinstance(app.view, RulesView)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, MenuView)
    app.handle(inputs.press(FLIP))
    assert app.view == before_view and events == before_events
    assert app.game is not None and app.game.rules == load_preset(preset)
    assert not (tmp_path / "state" / "setup.json").exists(), "nothing remembered either"


def test_the_overlay_only_scrolls_and_closes() -> None:
    from firmware.app.stages.menu import RulesInForce

    overlay = RulesInForce(load_preset("westfalen"))
    assert overlay.on_input(InputEvent(InputKind.PRESS, 1.0, K2)) is None
    assert overlay.first == 1
    for button in (K3, STAND, FLIP):
        assert overlay.on_input(InputEvent(InputKind.PRESS, 1.0, button)) is CLOSE
    entries = overlay.view(OledWords("de")).entries
    assert entries[1:5] == (
        "Naturschock über gebautem Schock aus",
        "Jule 4-2-1 (7 Deckel)",
        "2-2-1 als Siebener (7 Deckel)",
        "3-3-1 als Achter (8 Deckel)",
    )


def test_between_games_the_rules_picker_stays(tmp_path: Path, inputs: Inputs) -> None:
    app = make_app(
        config_from_toml(""), clock=FakeClock(100.0), dice=SeededDice(1), storage=tmp_path
    )
    open_rules(app, inputs)
    assert isinstance(app.view, PickerView) and app.view.title == "Regeln"
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))
    assert json.loads((tmp_path / "setup.json").read_text())["rules"] != "standard"


# --- fit: the new screens in both languages, measured with the real font -------------------------

#: Rules that differ from ``standard`` in every option there is.
EVERYTHING_ELSE = replace(
    load_preset("standard"),
    name="meine-kneipe+",
    deckel=40,
    max_throws=5,
    general_above_schock2=True,
    strasse_order=StrasseOrder.FEWER_THROWS,
    hand_only=HAND_ONLY_KINDS,
    dropped_cup=DroppedCup.ROUND,
    names=(("general", "Jenie"), ("schock_2", "Schock doof"), ("naturschock", "Naturschock")),
    naturschock_above_built=True,
    ties=TieRule.NACHGELEGT,
    jule=True,
    two_two_one=TwoTwoOne.SIEBENER,
    achter=True,
    flip_sixes=False,
    blind=True,
    boerdeschock=True,
    two_dice=True,
    keep_only_ones=True,
    take_back=True,
    penalty_deckel=0,
    hidden_last_throw=False,
    hints=False,
)


def every_option_value() -> list[tuple[str, object]]:
    """Each option with each of its values (numbers: their widest)."""
    values: list[tuple[str, object]] = []
    for field in fields(Rules):
        value = getattr(Rules(), field.name)
        if field.name in ("name", "description", "source", "deckel"):
            continue
        if isinstance(value, bool):
            values += [(field.name, True), (field.name, False)]
        elif isinstance(value, StrasseOrder | TieRule | TwoTwoOne | DroppedCup):
            values += [(field.name, member) for member in type(value)]
        elif field.name == "hand_only":
            values += [(field.name, ())] + [(field.name, (kind,)) for kind in HAND_ONLY_KINDS]
        elif field.name == "names":
            widest = "W" * 8
            values += [(field.name, ())] + [(field.name, ((key, widest),)) for key in NAME_KEYS]
        else:
            values += [(field.name, 0), (field.name, 5), (field.name, 99)]
    return values


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_has_words_of_its_own_that_fit_two_lines(language: str) -> None:
    texts = OledWords(language)
    for key, value in every_option_value():
        for words in option_lines(key, value, texts):
            assert "=" not in words, f"{key}: no words in the catalogue"
            lines = rules_entry_lines(words)
            assert len(lines) <= 2 and " ".join(lines) == words, (key, value, lines)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", [*preset_names(), "everything"])
def test_the_rules_screen_shows_every_entry_whole(language: str, preset: str) -> None:
    rules = EVERYTHING_ELSE if preset == "everything" else load_preset(preset)
    texts = OledWords(language)
    entries = (*rules_summary(rules, texts), texts.t("rules_wait"))
    if preset == "everything":  # the header, each option, "else as standard", the wait
        changed = [k for k in differences(load_preset("standard"), rules) if k != "deckel"]
        listed = len(changed) - 2 + len(rules.hand_only) + len(rules.names)  # a line per throw
        assert len(changed) >= 20 and len(entries) == listed + 3
    for entry in entries:
        lines = rules_entry_lines(entry)
        assert len(lines) <= 2 and " ".join(lines) == entry, lines
    for first in range(len(entries)):  # every scroll position draws (and nothing overlaps marks)
        image = render(RulesView(texts.t("menu_rules"), entries, first, ("▲", "▼", "OK")))
        text_band = image.crop((WIDTH - 6, 11, WIDTH - 5, 53))
        assert text_band.getbbox() is None, "text runs into the scroll marks' column"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_letter_wheel_shows_the_longest_name_whole_in_large_letters(language: str) -> None:
    # Every text of the names screens, at every letter and alert, is in the fit check
    # (tests/firmware/test_fit.py); this is the name itself, pixel by pixel.
    texts = OledWords(language)
    widest = "W" * SHOWN_NAME_LENGTH
    entry = NameEntry(10, frozenset(), lambda name: CLOSE, text=widest[:-1])
    # The name in large letters, with the letter KEEP_2 would take, and full.
    for text, full in ((widest[:-1], False), (widest, True), ("", False)):
        entry.text = text
        entry.position = WHEEL.index("W")
        entry.alert = ""
        view = entry.view(texts)
        assert view.letter == ("" if full else "W" if not text else "w")
        image = render(view)
        band = image.crop((0, 11, WIDTH, 32))
        expected = Image.new("1", band.size, 0)
        if text:
            expected.paste(FONT.render(text, 2), (3, 2))
        part = (0, 0, 3 + FONT.width(text, 2), band.height)
        assert ImageChops.difference(band.crop(part), expected.crop(part)).getbbox() is None
        assert band.crop((WIDTH - 1, 0, WIDTH, band.height)).getbbox() is None, "no cut edge"


def test_the_rules_screen_and_the_description_call_a_renamed_throw_alike() -> None:
    # Schock aus and the Schock aus from the hand are two keys of [names]: both texts tell them
    # apart by the same label (engine.rules.NAME_KEY_LABELS).
    names = (("schock_aus", "Schock Out"), ("naturschock", "Hanl"))
    assert option_lines("names", names, OledWords("de")) == [
        "Schock aus heißt Schock Out", "Naturschock heißt Hanl",
    ]
    assert option_words("names", names, OledWords("de")) == (
        "eigene Namen: Schock aus = Schock Out und Naturschock = Hanl"
    )
