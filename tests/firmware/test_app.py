"""The device app's logic, driven with decoded inputs on a fake clock (no pins, no display)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import Game, GameSetup, from_json, load_preset
from firmware.app.device import DeviceApp
from firmware.config import config_from_toml
from firmware.dice import SeededDice
from firmware.screen.views import (
    BannerView,
    HandOverView,
    MenuView,
    PickerView,
    RevealView,
    RollOffView,
    RulesView,
    SeatRow,
    SeatsView,
    TurnView,
)
from firmware.sink import DeviceEvent
from firmware.store.setupfile import SETUP_FILE
from hal.ports import Button
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.harness import as_json, make_app

from .conftest import Inputs, ScriptedDice

K1, K2, K3, FLIP, STAND = Button.KEEP_1, Button.KEEP_2, Button.KEEP_3, Button.FLIP, Button.STAND


#: Anna, Ben and Carla under the standard rules, the game most tests here play.
THREE = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))


def shake_and_throw(app: DeviceApp, inputs: Inputs) -> None:
    app.handle(inputs.shake())
    app.handle(inputs.throw())


def start_turns(app: DeviceApp, inputs: Inputs) -> None:
    """Roll off (Anna wins with the script below) and take the cup."""
    shake_and_throw(app, inputs)
    assert isinstance(app.view, RollOffView) and app.view.message == "Anna fängt an!"
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView) and app.view.player == "Anna"


ROLL_OFF = [(1, 1, 3), (6, 6, 5), (3, 2, 2)]  # Anna: Schock 3 beats 665 and 322


def test_a_given_setup_starts_with_the_roll_off(clock: FakeClock, inputs: Inputs) -> None:
    events: list[dict[str, Any]] = []
    app = make_app(
        clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE, event_sink=as_json(events.append)
    )
    assert app.game is not None
    assert isinstance(app.view, RollOffView)
    assert app.view.waiting == ("Anna", "Ben", "Carla")
    assert events[0] == {
        "event": "game_started",
        "players": ["Anna", "Ben", "Carla"],
        "rules": "standard",
        "deckel": 13,
        "game": 1,
    }
    start_turns(app, inputs)
    assert [e["event"] for e in events] == ["game_started", "roll_off", "round_started"]


def test_roll_off_tie_rolls_again_between_the_leaders(clock: FakeClock, inputs: Inputs) -> None:
    dice = ScriptedDice([(6, 6, 5), (5, 6, 6), (2, 2, 3), (3, 2, 1), (4, 4, 1)])
    app = make_app(clock=clock, dice=dice, setup=THREE)
    shake_and_throw(app, inputs)
    assert isinstance(app.view, RollOffView)
    assert app.view.message == "Stechen: Anna, Ben"
    assert [row.lead for row in app.view.rows] == [True, True, False]
    shake_and_throw(app, inputs)  # Anna's Straße 3-2-1 beats Ben's 4-4-1
    assert app.view.message == "Anna fängt an!"
    assert [row.name for row in app.view.rows] == ["Anna", "Ben"]


def test_a_turn_keeps_marked_dice_and_hides_the_last_throw_at_hand_over(
    clock: FakeClock, inputs: Inputs
) -> None:
    dice = ScriptedDice([*ROLL_OFF, (1, 4, 3), (1, 5)])
    events: list[dict[str, Any]] = []
    app = make_app(clock=clock, dice=dice, setup=THREE, event_sink=as_json(events.append))
    start_turns(app, inputs)
    app.handle(inputs.press(STAND))  # take the cup
    view = app.view
    assert isinstance(view, TurnView) and view.throw_text == "Wurf 0/3"
    app.handle(inputs.throw())  # a throw without a shake does nothing
    assert dice.asked == [3, 3, 3]
    shake_and_throw(app, inputs)
    view = app.view
    assert isinstance(view, TurnView)
    assert [d.value for d in view.dice] == [1, 4, 3] and view.status == "Hausnummer 431"
    app.handle(inputs.press(K1))  # lay the one out
    assert isinstance(app.view, TurnView) and [d.out for d in app.view.dice] == [True, False, False]
    shake_and_throw(app, inputs)
    assert dice.asked[-1] == 2
    view = app.view
    assert isinstance(view, TurnView)
    assert [d.value for d in view.dice] == [1, 1, 5] and view.status == "Schock 5"
    assert view.dice[0].fixed and view.dice[0].out
    app.handle(inputs.press(K1))  # a die laid out in an earlier throw stays out
    assert isinstance(app.view, TurnView) and app.view.status == "Liegt fest"
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, HandOverView) and view.player == "Ben" and view.note == "Anna:"
    # The 1 laid out before the second throw is public; the rest stays under the cup.
    assert [(d.value, d.out) for d in view.shown] == [(1, True), (None, False), (None, False)]
    assert view.info == "max. 2 Würfe"
    assert events[-1]["event"] == "turn_over" and events[-1]["dice"] == (5, 1, 1)


def test_a_shake_at_the_hand_over_goes_straight_into_the_first_throw(
    clock: FakeClock, inputs: Inputs
) -> None:
    app = make_app(clock=clock, dice=ScriptedDice([*ROLL_OFF, (2, 2, 2)]), setup=THREE)
    start_turns(app, inputs)
    app.handle(inputs.shake())
    view = app.view
    assert isinstance(view, TurnView) and view.shaking and view.status == "…und abstellen"
    frame = view.frame
    app.advance(clock.advance(0.5))
    assert isinstance(app.view, TurnView) and app.view.frame > frame  # the dice rattle
    app.handle(inputs.throw())
    assert isinstance(app.view, TurnView) and app.view.status == "General 2"
    assert app.next_deadline() is None  # no animation once the cup is down


def test_flip_turns_a_six_into_a_laid_out_one(clock: FakeClock, inputs: Inputs) -> None:
    events: list[dict[str, Any]] = []
    dice = ScriptedDice([*ROLL_OFF, (6, 3, 6)])
    app = make_app(clock=clock, dice=dice, setup=THREE, event_sink=as_json(events.append))
    start_turns(app, inputs)
    app.handle(inputs.press(STAND))
    app.handle(inputs.press(FLIP))
    assert isinstance(app.view, TurnView) and app.view.status == "Erst schütteln"
    shake_and_throw(app, inputs)
    assert isinstance(app.view, TurnView) and app.view.status == "FLIP: 6+6 → 1"
    app.handle(inputs.press(FLIP))
    view = app.view
    assert isinstance(view, TurnView)
    assert [(d.value, d.out) for d in view.dice] == [(1, True), (3, False), (6, False)]
    assert events[-1] == {"event": "flip", "player": "Anna"}
    # No throw name: the six is going back into the cup, and standing is not allowed yet.
    assert view.status == "Jetzt werfen!" and view.pot_text == "Topf 13"
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, TurnView)
    assert (view.status, view.pot_text) == ("Gedreht: nun werfen", "")  # the notice's whole line
    app.handle(inputs.press(FLIP))
    assert isinstance(app.view, TurnView) and app.view.status == "FLIP: nur mit 6+6"


def test_the_last_allowed_throw_ends_the_turn_and_shows_the_dice_first(
    clock: FakeClock, inputs: Inputs
) -> None:
    app = make_app(
        clock=clock, dice=ScriptedDice([*ROLL_OFF, (2, 3, 4), (4, 4, 5), (6, 5, 2)]), setup=THREE
    )
    start_turns(app, inputs)
    for _ in range(3):
        shake_and_throw(app, inputs)
    view = app.view
    assert isinstance(view, TurnView) and view.player == "Anna"
    assert [d.value for d in view.dice] == [6, 5, 2] and view.status == "Hausnummer 652"
    assert view.pot_text == "weiter ▶"
    app.handle(inputs.press(K2))
    assert isinstance(app.view, HandOverView) and app.view.player == "Ben"
    assert [d.value for d in app.view.shown] == [None, None, None]


def test_flip_held_after_the_last_throw_says_why_there_is_no_hint(
    clock: FakeClock, inputs: Inputs
) -> None:
    """The hint is for a turn under way: after the last throw a held FLIP says so on the
    status line (as a refused press does), and the next press goes on as before."""
    app = make_app(
        clock=clock, dice=ScriptedDice([*ROLL_OFF, (2, 3, 4), (4, 4, 5), (6, 5, 2)]), setup=THREE
    )
    start_turns(app, inputs)
    for _ in range(3):
        shake_and_throw(app, inputs)
    app.handle(inputs.hold(FLIP))
    view = app.view
    assert isinstance(view, TurnView) and view.player == "Anna"
    assert (view.status, view.pot_text) == ("Zug vorbei: kein Tipp", "")
    assert [d.value for d in view.dice] == [6, 5, 2]
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView) and app.view.player == "Ben"


def test_a_long_press_goes_on_wherever_a_short_one_does(
    clock: FakeClock, inputs: Inputs
) -> None:
    """The roll-off's result, the hand-over, the dice of a last throw and the reveal: a held
    button goes on as a press does, so the next entry never takes a press meant to go on."""
    throws = [*ROLL_OFF, (1, 1, 4), (6, 5, 4), (4, 2, 3)]
    app = make_app(clock=clock, dice=ScriptedDice(throws), setup=THREE)
    shake_and_throw(app, inputs)
    assert isinstance(app.view, RollOffView) and app.view.message == "Anna fängt an!"
    app.handle(inputs.hold(K1))
    assert isinstance(app.view, HandOverView) and app.view.player == "Anna"
    app.handle(inputs.hold(K2))
    assert isinstance(app.view, TurnView) and app.view.player == "Anna"
    shake_and_throw(app, inputs)
    app.handle(inputs.press(STAND))  # Anna stands on Schock 4 after one throw
    app.handle(inputs.hold(K3))  # Ben's hand-over, held
    shake_and_throw(app, inputs)  # his one throw is his last: he sees the dice
    assert isinstance(app.view, TurnView) and app.view.pot_text == "weiter ▶"
    app.handle(inputs.hold(K1))
    assert isinstance(app.view, HandOverView) and app.view.player == "Carla"
    app.handle(inputs.hold(K3))
    shake_and_throw(app, inputs)  # the round's last throw goes straight to the reveal
    assert isinstance(app.view, RevealView)
    app.handle(inputs.hold(K1))
    assert isinstance(app.view, HandOverView) and app.view.note == "beginnt Runde 2"


def test_a_round_ends_in_the_reveal_and_the_loser_opens_the_next(
    clock: FakeClock, inputs: Inputs
) -> None:
    throws = [*ROLL_OFF, (1, 1, 4), (6, 5, 4), (4, 2, 3)]
    events: list[dict[str, Any]] = []
    app = make_app(
        clock=clock, dice=ScriptedDice(throws), setup=THREE, event_sink=as_json(events.append)
    )
    start_turns(app, inputs)
    shake_and_throw(app, inputs)  # from the hand-over straight into the throw
    app.handle(inputs.press(STAND))  # after one throw: everyone has one throw
    shake_and_throw(app, inputs)
    assert isinstance(app.view, TurnView) and app.view.status == "Straße 6-5-4"
    app.handle(inputs.press(STAND))
    shake_and_throw(app, inputs)  # the round's last throw goes straight to the reveal
    view = app.view
    assert isinstance(view, RevealView)
    assert [(r.name, r.throw, r.mark) for r in view.rows] == [
        ("Anna", "Schock 4", 1),
        ("Ben", "Straße 6-5-4", 0),
        ("Carla", "Straße 4-3-2", -1),
    ]
    assert view.outcome == "Carla +4 aus dem Topf"
    assert view.hint == "Drücken oder schütteln"  # how to go on, as on the hand-over
    app.handle(inputs.shake())  # Carla takes the cup and shakes: the reveal goes on
    view = app.view
    assert (
        isinstance(view, HandOverView) and view.player == "Carla" and view.note == "beginnt Runde 2"
    )
    assert [(t.name, t.deckel) for t in view.board] == [("Anna", 0), ("Ben", 0), ("Carla", 4)]
    kinds = [e["event"] for e in events]
    assert kinds[-3:] == ["turn_over", "round_over", "round_started"]


def test_keep_only_ones_is_enforced_on_the_marks(clock: FakeClock, inputs: Inputs) -> None:
    config = config_from_toml('[game]\nrules = "standard"')
    app = make_app(config, clock=clock, dice=ScriptedDice([*ROLL_OFF, (1, 4, 1)]), setup=THREE)
    start_turns(app, inputs)
    shake_and_throw(app, inputs)
    app.handle(inputs.press(K1))
    app.handle(inputs.press(K3))
    app.handle(inputs.press(K2))  # all three out: that is standing, not a throw
    view = app.view
    assert isinstance(view, TurnView) and view.status == "Alle raus? STAND"
    assert [d.out for d in view.dice] == [True, False, True]


def play_randomly(app: DeviceApp, inputs: Inputs, seed: int, limit: int = 5000) -> None:
    """Press and shake at random until the game is over."""
    import random

    rng = random.Random(seed)
    for _ in range(limit):
        view = app.view
        if isinstance(view, BannerView) and view.keys[2] == "Neu":
            return
        if isinstance(view, TurnView) and view.pot_text != "weiter ▶":
            choice = rng.random()
            if choice < 0.45:
                shake_and_throw(app, inputs)
            elif choice < 0.7:
                app.handle(inputs.press(rng.choice([K1, K2, K3])))
            elif choice < 0.8:
                app.handle(inputs.press(FLIP))
            else:
                app.handle(inputs.press(STAND))
        elif isinstance(view, HandOverView) and rng.random() < 0.5:
            app.handle(inputs.shake())
        else:
            app.handle(inputs.press(STAND))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_end_with_game_over_and_replay_from_the_event_log(
    clock: FakeClock, inputs: Inputs, seed: int
) -> None:
    events: list[dict[str, Any]] = []
    setup = GameSetup(("Anna", "Ben", "Carla", "Dirk"), load_preset("standard"))
    app = make_app(
        clock=clock, dice=SeededDice(seed), setup=setup, event_sink=as_json(events.append)
    )
    assert not app.at_game_end
    play_randomly(app, inputs, seed)
    assert events[-1]["event"] == "game_over" and app.at_game_end
    assert isinstance(app.view, BannerView) and app.view.headline == events[-1]["loser"]
    actions = [from_json(e) for e in events[1:]]
    replayed = Game.replay(app.game.setup if app.game else GameSetup(("a", "b")), actions)
    assert replayed.state() == app.game.state() if app.game else False
    app.handle(inputs.press(STAND))  # the next game, same players
    assert isinstance(app.view, RollOffView) and app.game_number == 2
    assert events[-1]["event"] == "game_started" and not app.at_game_end


def test_the_setup_menu_chooses_players_rules_and_deckel_and_remembers_them(
    clock: FakeClock, inputs: Inputs, tmp_path: Path
) -> None:
    storage = StateDirectory(tmp_path / "state")
    events: list[dict[str, Any]] = []
    app = make_app(
        clock=clock, dice=SeededDice(1), storage=storage, event_sink=as_json(events.append)
    )
    assert app.game is None
    view = app.view
    assert isinstance(view, PickerView) and view.title == "Spieler" and view.value == "3"
    for _ in range(2):
        app.handle(inputs.press(K2))
    assert isinstance(app.view, PickerView)
    assert app.view.detail == "Anna Ben Carla Spieler4 Spieler5"
    app.handle(inputs.press(K3))
    view = app.view
    assert isinstance(view, SeatsView) and view.title == "Namen" and view.step == "2/6"
    app.handle(inputs.press(K3))
    view = app.view
    assert isinstance(view, SeatsView) and view.title == "Computer" and view.step == "3/6"
    assert view.rows[:2] == (SeatRow("Anna", "Mensch"), SeatRow("Ben", "Mensch"))
    app.handle(inputs.press(K1))  # to Ben's seat
    app.handle(inputs.press(K2))  # the computer plays it, with exact odds
    assert isinstance(app.view, SeatsView) and app.view.selected == 1
    assert app.view.rows[1] == SeatRow("Ben", "⚙ Quoten")
    app.handle(inputs.press(K3))
    assert isinstance(app.view, PickerView) and app.view.title == "Regeln"
    app.handle(inputs.press(K2))
    chosen = app.view.value if isinstance(app.view, PickerView) else ""
    app.handle(inputs.press(STAND))
    app.handle(inputs.press(K1))  # one Deckel fewer
    deckel = load_preset(chosen).deckel - 1
    assert isinstance(app.view, PickerView) and app.view.value == str(deckel)
    app.handle(inputs.press(FLIP))  # back, and forward again
    app.handle(inputs.press(K3))
    app.handle(inputs.press(K3))
    assert isinstance(app.view, PickerView) and app.view.value == "Los!"
    assert app.view.detail == f"5 Spieler (1 ⚙), {chosen}, {deckel} Deckel"
    app.handle(inputs.press(K3))
    assert isinstance(app.view, RollOffView) and app.game is not None
    assert app.game.rules.deckel == deckel and app.game.rules.name == chosen
    assert events[0]["players"] == ["Anna", "Ben", "Carla", "Spieler4", "Spieler5"]
    assert events[0]["bots"] == {"Ben": "odds"}
    assert app.view.waiting == ("Anna", "⚙Ben", "Carla", "Spieler4", "Spieler5")
    remembered = json.loads((tmp_path / "state" / SETUP_FILE).read_text())
    assert remembered == {
        "players": 5, "rules": chosen, "deckel": deckel, "bots": ["", "odds"],
        "names": ["Anna", "Ben", "Carla", "", ""], "real_dice": False,
    }
    again = make_app(clock=clock, dice=SeededDice(1), storage=storage)
    # The first app's game had no action yet: nothing to resume, the remembered setup comes back.
    assert isinstance(again.view, PickerView) and again.view.value == "5"
    assert again.view.detail == "Anna ⚙Ben Carla Spieler4 Spieler5"


def test_a_broken_setup_file_is_ignored(clock: FakeClock, tmp_path: Path) -> None:
    (tmp_path / SETUP_FILE).write_text("{not json")
    app = make_app(clock=clock, dice=SeededDice(1), storage=StateDirectory(tmp_path))
    assert isinstance(app.view, BannerView), "the damage is reported first"
    app.handle(Inputs(clock).press(STAND))
    assert isinstance(app.view, PickerView) and app.view.value == "3"
    assert [p.read_text() for p in (tmp_path / "damaged").iterdir()] == ["{not json"]


def test_menu_shows_the_rules_in_force_during_a_game_and_continues(
    clock: FakeClock, inputs: Inputs
) -> None:
    app = make_app(clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE)
    start_turns(app, inputs)
    before = app.view
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView) and view.items[:3] == ("Weiter", "Neues Spiel", "Regeln")
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))
    assert isinstance(app.view, RulesView)
    assert app.view.entries == (
        "standard: 13 Deckel", "keine Hausregeln", "Ändern: erst nach dem Spiel"
    )
    app.handle(inputs.press(K3))
    assert isinstance(app.view, MenuView)
    app.handle(inputs.press(FLIP))
    assert app.view == before


def menu_entry(app: DeviceApp, inputs: Inputs, label: str) -> None:
    app.handle(inputs.hold(STAND))
    view = app.view
    assert isinstance(view, MenuView)
    for _ in range(view.items.index(label)):
        app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))


def test_penalty_from_the_menu_gives_the_rules_deckel(clock: FakeClock, inputs: Inputs) -> None:
    events: list[dict[str, Any]] = []
    app = make_app(
        clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE, event_sink=as_json(events.append)
    )
    start_turns(app, inputs)
    menu_entry(app, inputs, "Strafe")
    # Nobody is chosen first: OK there gives nobody anything.
    assert app.view == PickerView("Strafe", "-/3", "Wer?", "◀ ▶ wählen", ("◀", "▶", ""))
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, PickerView) and app.view.value == "Wer?"
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K2))
    assert isinstance(app.view, PickerView) and app.view.value == "Ben"
    app.handle(inputs.press(STAND))
    # A question confirms it, "Nein" first: OK there goes back to the picker.
    assert app.view == MenuView("Strafe geben?", ("Nein", "Ja: Ben +2"), 0, ("▲", "▼", "OK"))
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, PickerView) and app.view.value == "Ben"
    assert not any(event["event"] == "penalty" for event in events)
    app.handle(inputs.press(STAND))
    app.handle(inputs.press(K2))
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, BannerView) and app.view.headline == "Ben"
    assert events[-2:] == [
        {"event": "penalty", "player": "Ben", "deckel": 2},
        {
            "event": "penalty_given", "player": "Ben", "deckel": 2, "from_pot": 2,
            "taken_from": (), "out": (),
        },
    ]
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView) and app.view.player == "Anna"
    assert [t.deckel for t in app.view.board] == [0, 2, 0]


def test_language_and_brightness_change_at_once_and_are_remembered(
    clock: FakeClock, inputs: Inputs, tmp_path: Path
) -> None:
    storage = StateDirectory(tmp_path)
    app = make_app(clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE, storage=storage)
    menu_entry(app, inputs, "Sprache")
    # Each language in its own name, and below them both: no "Deutsch / Deutsch".
    assert isinstance(app.view, PickerView)
    assert (app.view.value, app.view.detail) == ("Deutsch", "Deutsch / English")
    app.handle(inputs.press(K2))
    assert isinstance(app.view, PickerView)
    assert (app.view.value, app.view.detail) == ("English", "Deutsch / English")
    app.handle(inputs.press(K3))
    assert app.language == "en"
    assert isinstance(app.view, RollOffView) and app.view.message == "Shake the cup"
    menu_entry(app, inputs, "Brightness")
    assert isinstance(app.view, PickerView) and app.view.value == "5"
    app.handle(inputs.press(K1))
    assert app.contrast == 170  # previewed while choosing
    app.handle(inputs.press(FLIP))
    assert app.contrast == 255  # back: unchanged
    app.handle(inputs.press(FLIP))  # and out of the menu
    menu_entry(app, inputs, "Brightness")
    app.handle(inputs.press(K1))
    app.handle(inputs.press(K1))
    app.handle(inputs.press(K3))
    assert app.contrast == 96
    remembered = json.loads((tmp_path / SETUP_FILE).read_text())
    assert remembered == {"language": "en", "brightness": 96}
    again = make_app(clock=clock, dice=SeededDice(1), setup=THREE, storage=storage)
    assert again.language == "en" and again.contrast == 96


def test_shutdown_asks_first_then_calls_the_hook(clock: FakeClock, inputs: Inputs) -> None:
    calls: list[str] = []
    app = make_app(
        clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE, shutdown=lambda: calls.append("off")
    )
    menu_entry(app, inputs, "Ausschalten")
    assert isinstance(app.view, MenuView) and app.view.title == "Ausschalten?"
    app.handle(inputs.press(K3))  # "Nein"
    assert calls == [] and isinstance(app.view, MenuView) and app.view.title == "Menü"
    app.handle(inputs.press(FLIP))
    menu_entry(app, inputs, "Ausschalten")
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))
    assert calls == ["off"]
    assert isinstance(app.view, BannerView) and app.view.headline == "Tschüss!"
    app.handle(inputs.press(K3))
    assert isinstance(app.view, BannerView) and app.view.headline == "Tschüss!"


def test_no_shutdown_entry_without_a_hook(clock: FakeClock, inputs: Inputs) -> None:
    app = make_app(clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE)
    app.handle(inputs.hold(STAND))
    assert isinstance(app.view, MenuView) and "Ausschalten" not in app.view.items


def test_new_game_from_the_menu_asks_and_returns_to_the_setup(
    clock: FakeClock, inputs: Inputs
) -> None:
    events: list[dict[str, Any]] = []
    app = make_app(
        clock=clock, dice=ScriptedDice(ROLL_OFF), setup=THREE, event_sink=as_json(events.append)
    )
    start_turns(app, inputs)
    menu_entry(app, inputs, "Neues Spiel")
    assert isinstance(app.view, MenuView) and app.view.items == ("Nein", "Ja, neues Spiel")
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))
    assert app.game is None and isinstance(app.view, PickerView)
    assert events[-1] == {"event": "game_abandoned", "game": 1}


def test_a_failing_event_sink_does_not_stop_the_game(clock: FakeClock, inputs: Inputs) -> None:
    def broken(event: DeviceEvent) -> None:
        raise RuntimeError("link down")

    app = make_app(
        clock=clock,
        dice=ScriptedDice(ROLL_OFF),
        event_sink=broken,
        setup=GameSetup(("Anna", "Ben", "Carla")),
    )
    start_turns(app, inputs)


def test_english_texts_keep_the_german_game_terms(clock: FakeClock, inputs: Inputs) -> None:
    config = config_from_toml('[game]\nlanguage = "en"')
    app = make_app(config, clock=clock, dice=ScriptedDice([*ROLL_OFF, (1, 1, 1)]), setup=THREE)
    shake_and_throw(app, inputs)
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView) and app.view.title == "Cup to"
    shake_and_throw(app, inputs)
    view = app.view
    assert isinstance(view, TurnView) and view.throw_text == "Throw 1/3"
    assert view.status == "Schock aus" and view.pot_text == "Pot 13"


def test_a_blind_turn_stays_under_the_cup_at_the_hand_over_even_under_open_rules(
    clock: FakeClock, inputs: Inputs
) -> None:
    """Blind is announced without lifting the cup: the next player sees no dice of it.

    The engine's table view decides this for the screen, the computer players and the hint alike.
    """
    rules = replace(load_preset("standard"), hidden_last_throw=False, blind=True)
    dice = ScriptedDice([*ROLL_OFF, (6, 4, 3)])
    app = make_app(clock=clock, dice=dice, setup=GameSetup(("Anna", "Ben", "Carla"), rules))
    start_turns(app, inputs)
    app.handle(inputs.press(STAND))
    shake_and_throw(app, inputs)
    menu_entry(app, inputs, "Blind ansagen")
    view = app.view
    assert isinstance(view, HandOverView) and view.player == "Ben" and view.note == "Anna:"
    assert [(d.value, d.out) for d in view.shown] == [(None, False)] * 3
