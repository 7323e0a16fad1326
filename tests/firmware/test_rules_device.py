"""The newer rules on the device: a dropped cup from the menu, the table's own names for throws.

Driven through :class:`~firmware.app.device.DeviceApp` with decoded inputs, as the penalty test in
``test_app.py`` is; the names' limit is measured with the device's own font and layout.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.errors import RulesError
from engine.rules import DroppedCup, Rules, preset_names, rules_from_toml
from firmware.app.device import DeviceApp
from firmware.config import config_from_toml
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import render, status_room
from firmware.screen.throwname import throw_name_room, throw_names_problem
from firmware.screen.views import DieFace, HandOverView, MenuView, PickerView, RevealView, TurnView
from firmware.store.rulesfile import load_rules
from hal.ports import Button
from sim.fakes import FakeClock
from tests.harness import as_json, make_app

from .conftest import Inputs, ScriptedDice

K2, K3, STAND = Button.KEEP_2, Button.KEEP_3, Button.STAND
ROLL_OFF = [(1, 1, 3), (6, 6, 5), (3, 2, 2)]  # Anna opens


def rigged(
    clock: FakeClock, rules: Rules, throws: list[tuple[int, ...]], events: list[dict[str, Any]]
) -> DeviceApp:
    """Anna, Ben and Carla under ``rules``: Anna opens, then the dice come as ``throws``."""
    return make_app(
        clock=clock, dice=ScriptedDice([*ROLL_OFF, *throws]),
        setup=GameSetup(("Anna", "Ben", "Carla"), rules), event_sink=as_json(events.append),
    )


def start(app: DeviceApp, inputs: Inputs) -> None:
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView) and app.view.player == "Anna"


def throw(app: DeviceApp, inputs: Inputs) -> None:
    app.handle(inputs.shake())
    app.handle(inputs.throw())


def open_menu(app: DeviceApp, inputs: Inputs) -> tuple[str, ...]:
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    return view.items


def test_a_dropped_cup_from_the_menu_loses_the_round(clock: FakeClock, inputs: Inputs) -> None:
    rules = replace(load_preset("standard"), dropped_cup=DroppedCup.ROUND)
    events: list[dict[str, Any]] = []
    app = rigged(clock, rules, [(1, 1, 4), (6, 5, 4), (4, 2, 3)], events)
    start(app, inputs)
    throw(app, inputs)  # Anna: Schock 4 under her cup; then her cup falls
    items = open_menu(app, inputs)
    assert "Becher gefallen" in items and "Strafe" not in items
    for _ in range(items.index("Becher gefallen")):
        app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))
    view = app.view
    assert isinstance(view, PickerView) and view.value == "Wer?"  # nobody chosen first
    app.handle(inputs.press(K2))
    view = app.view
    assert isinstance(view, PickerView) and view.value == "Anna"
    assert view.detail == "verliert die Runde"
    app.handle(inputs.press(STAND))  # Anna it is
    view = app.view
    assert isinstance(view, MenuView) and view.title == "Becher gefallen?"
    assert view.items == ("Nein", "Ja: Anna")
    app.handle(inputs.press(K2))
    app.handle(inputs.press(STAND))
    assert events[-1] == {"event": "drop", "player": "Anna"}
    view = app.view
    assert isinstance(view, HandOverView) and view.player == "Ben"
    # One dropped cup per round: the entry is gone until the next round.
    assert "Becher gefallen" not in open_menu(app, inputs)
    app.handle(inputs.press(Button.FLIP))
    throw(app, inputs)  # Ben, the first to finish, sets the limit: one throw
    app.handle(inputs.press(STAND))
    throw(app, inputs)  # Carla's only throw ends the round
    view = app.view
    assert isinstance(view, RevealView)
    assert [(r.name, r.throw, r.mark) for r in view.rows] == [
        ("Anna", "gefallen", -1),
        ("Ben", "Straße 6-5-4", 1),
        ("Carla", "Straße 4-3-2", 0),
    ]
    assert view.outcome == "Anna +2 aus dem Topf"
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, HandOverView) and view.player == "Anna"
    assert [t.deckel for t in view.board] == [2, 0, 0]


def test_under_deckel_the_menu_offers_the_penalty_as_before(
    clock: FakeClock, inputs: Inputs
) -> None:
    app = rigged(clock, load_preset("standard"), [], [])
    start(app, inputs)
    items = open_menu(app, inputs)
    assert "Strafe" in items and "Becher gefallen" not in items


def test_bvb_calls_the_general_jenie_on_the_turn_screen_and_at_the_reveal(
    clock: FakeClock, inputs: Inputs
) -> None:
    events: list[dict[str, Any]] = []
    app = rigged(clock, load_preset("bvb"), [(2, 2, 2), (6, 5, 4), (4, 2, 3)], events)
    start(app, inputs)
    throw(app, inputs)
    view = app.view
    assert isinstance(view, TurnView) and view.status == "Jenie 2"
    app.handle(inputs.press(STAND))
    throw(app, inputs)
    app.handle(inputs.press(STAND))
    throw(app, inputs)
    view = app.view
    assert isinstance(view, RevealView) and view.rows[0].throw == "Jenie 2"
    # The event log names the throw as the table does; the engine's kind stays canonical.
    over = [e for e in events if e["event"] == "turn_over"]
    assert over[0]["name"] == "Jenie 2"


def test_the_throw_line_limit_is_the_turn_screens_own() -> None:
    for language in ("de", "en"):
        catalogue = OledWords(language)
        for text in (catalogue.t("pot", n=13), catalogue.t("key_continue")):
            assert throw_name_room(13) <= status_room(text)
    room = throw_name_room(13)
    faces = (DieFace(2), DieFace(2), DieFace(2))

    def screen(status: str) -> bytes:
        return render(TurnView("Anna", "Wurf 1/3", faces, status, "weiter ▶", ())).tobytes()

    # A name within the limit is drawn whole; a wider one the screen cuts.
    fits = "Schock doof"
    assert FONT.width(fits) <= room and FONT.fit(fits, status_room("weiter ▶")) == fits
    assert screen(fits) == screen(FONT.fit(fits, room))
    too_wide = "Superbombe12 6"
    cut = FONT.fit(too_wide, status_room("weiter ▶"))
    assert FONT.width(too_wide) > room and cut != too_wide and screen(too_wide) == screen(cut)


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        ('general = "Jenie"', None),
        ('general = "Bombe"', None),
        ('general = "Jenny"', None),
        ('schock_2 = "Honecker"', None),
        ('schock_2 = "Schock doof"', None),
        ('schock_aus = "Schock Out"', None),
        ('naturschock = "Hanl"', None),
        ('naturschock = "Naturschock"', None),
        ('naturschock = "Schock Aus Natur"', "is 90 pixels wide, the device's throw line holds"),
        ('strasse = "Straßenbahn"', "'Straßenbahn 6-5-4' is 96 pixels wide"),
        ('general = "Jenie¤"', "the device's font has no '¤'"),
    ],
)
def test_names_from_the_sources_fit_and_too_wide_ones_are_refused(
    names: str, problem: str | None, tmp_path: Path
) -> None:
    rules = rules_from_toml(f"[names]\n{names}\n")
    found = throw_names_problem(rules)
    assert found is None if problem is None else problem in (found or "")
    path = tmp_path / "pub.toml"
    path.write_text(f"jule = true\n[names]\n{names}\n", encoding="utf-8")
    if problem is None:
        assert load_rules(str(path)).names == rules.names
    else:
        with pytest.raises(RulesError, match=f"{path}: names\\."):
            load_rules(str(path))
        with pytest.raises(Exception, match="names\\."):
            config_from_toml(f'[game]\nrules = "{path}"\n')


def test_every_preset_fits_the_screen() -> None:
    for name in preset_names():
        assert throw_names_problem(load_preset(name)) is None
