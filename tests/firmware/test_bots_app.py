"""Computer players and the hint in the device app, on a fake clock: bots act on timers only."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine import Game, GameSetup, from_json, load_preset
from engine.bots import OddsStrategy, avoid_goal, view_of
from engine.odds import ActionKind, Choice, Position, action_odds
from engine.rules import Rules
from firmware.advice import NOT_LAST_MARGIN, best_hint, hint_lines, percent
from firmware.app.device import DeviceApp
from firmware.app.stages.timing import BOT_PAUSE_S
from firmware.config import DeviceConfig, GameConfig
from firmware.dice import SeededDice
from firmware.screen.oled_words import OledWords
from firmware.screen.views import BannerView, DieFace, HandOverView, RollOffView, TurnView, View
from hal.ports import Button
from sim.fakes import FakeClock
from tests.harness import as_json, make_app

from .conftest import Inputs, ScriptedDice

FLIP, STAND = Button.FLIP, Button.STAND
PLAYERS = ("Anna", "Ben", "Carla")


def bot_app(
    clock: FakeClock,
    dice: Any,
    bots: tuple[str, ...],
    rules: Rules | None = None,
) -> tuple[DeviceApp, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    config = DeviceConfig(game=GameConfig(bots=bots))
    setup = GameSetup(PLAYERS, rules or load_preset("standard"))
    app = make_app(config, clock=clock, dice=dice, setup=setup, event_sink=as_json(events.append))
    return app, events


def run_timers(app: DeviceApp, clock: FakeClock, seen: list[View] | None = None) -> int:
    """Let the app's timers run until it waits for a person; returns how many fired."""
    fired = 0
    while (deadline := app.next_deadline()) is not None:
        clock.set(max(deadline, clock.now()))
        app.advance(clock.now())
        fired += 1
        if seen is not None:
            seen.append(app.view)
        assert fired < 10_000, "the timers never stop"
    return fired


def test_one_person_and_two_bots_play_to_game_over_on_the_persons_inputs_only(
    clock: FakeClock, inputs: Inputs
) -> None:
    app, events = bot_app(clock, SeededDice(11), ("", "odds", "threshold"))
    by_timer: list[str] = []  # the players whose actions happened while timers ran
    for _ in range(5000):
        count = len(events)
        run_timers(app, clock)
        by_timer += [e["player"] for e in events[count:] if e["event"] in ("roll", "stand")]
        view = app.view
        if isinstance(view, BannerView) and view.keys[2] == "Neu":
            break
        game = app.game
        assert game is not None
        # Nothing is pending: the app waits for Anna, never for a bot.
        if isinstance(view, HandOverView | TurnView):
            assert view.player == "Anna"
        count = len(events)
        first_throw = isinstance(view, TurnView) and view.throw_text.startswith("Wurf 0")
        if first_throw or (isinstance(view, RollOffView) and not view.rows):
            app.handle(inputs.shake())
            app.handle(inputs.throw())
        else:
            app.handle(inputs.press(STAND))
        made = [e.get("player") for e in events[count:] if e["event"] in ("roll", "stand")]
        assert set(made) <= {"Anna"}, "a person's press played for a bot"
    else:
        raise AssertionError("the game did not end")
    assert events[-1]["event"] == "game_over"
    assert {"Ben", "Carla"} <= set(by_timer) and "Anna" not in by_timer
    assert events[0]["bots"] == {"Ben": "odds", "Carla": "threshold"}
    # Every bot move was legal: the event log replays in the engine.
    replayed = Game.replay(GameSetup(PLAYERS, load_preset("standard")), map(from_json, events[1:]))
    assert app.game is not None and replayed.state() == app.game.state()


ROLL_OFF_BEN = [(3, 2, 2), (1, 1, 3), (6, 6, 5)]  # Ben opens with a Schock 3


def test_a_bot_marks_the_dice_it_lays_out_in_a_frame_before_it_throws(
    clock: FakeClock, inputs: Inputs
) -> None:
    dice = ScriptedDice([*ROLL_OFF_BEN, (1, 4, 3), (5, 2), (2, 3)])
    app, _ = bot_app(clock, dice, ("", "threshold"))
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    assert isinstance(app.view, RollOffView) and app.view.message == "Ben fängt an!"
    app.handle(inputs.press(STAND))
    view = app.view
    assert isinstance(view, HandOverView) and view.player == "⚙Ben"
    assert view.hint == "spielt gleich…"
    start = clock.now()
    seen: list[View] = []
    deadline = app.next_deadline()
    assert deadline == pytest.approx(start + BOT_PAUSE_S)
    # Step by step: one timer at a time, as the loop runs them.
    while dice.asked != [3, 3, 3, 3, 2] and (deadline := app.next_deadline()) is not None:
        clock.set(deadline)
        app.advance(deadline)
        seen.append(app.view)
    turns = [v for v in seen if isinstance(v, TurnView)]
    assert turns and all(v.player == "⚙Ben" for v in turns)
    # Under the hidden last throw the table sees only what Ben lays out: the 1, marked...
    marked = next(i for i, v in enumerate(turns) if v.status == "legt raus")
    assert turns[marked].dice == (DieFace(1, out=True), DieFace(None), DieFace(None))
    assert turns[marked].throw_text == "Wurf 1/3"
    # ... a step before the cup shakes with the 1 laid out; the two dice fall after the shaking.
    assert dice.asked == [3, 3, 3, 3, 2]
    after = turns[marked + 1]
    assert after.shaking and after.status == "würfelt…" and after.dice[0] == DieFace(1, out=True)
    assert isinstance(app.view, TurnView) and app.view.throw_text == "Wurf 2/3"
    assert not app.view.shaking


def test_a_press_makes_the_bot_act_at_once(clock: FakeClock, inputs: Inputs) -> None:
    dice = ScriptedDice([*ROLL_OFF_BEN, (1, 4, 3)])
    app, _ = bot_app(clock, dice, ("", "threshold"))
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView)
    app.handle(inputs.press(Button.KEEP_2))  # no waiting for the hand-over
    assert isinstance(app.view, TurnView) and app.view.status == "überlegt…"
    app.handle(inputs.shake())  # a shake is no press: the bot's cup is its own
    app.handle(inputs.throw())
    assert dice.asked == [3, 3, 3]
    app.handle(inputs.press(STAND))  # the bot shakes at once ...
    assert isinstance(app.view, TurnView) and app.view.shaking
    app.handle(inputs.press(STAND))  # ... and the dice fall at once
    assert dice.asked == [3, 3, 3, 3]


def test_the_hint_shows_the_objectives_action_and_the_chance_of_not_being_last(
    clock: FakeClock, inputs: Inputs
) -> None:
    open_rules = dataclasses.replace(load_preset("standard"), hidden_last_throw=False)
    # Anna opens and stands on a Hausnummer 642 after two throws; Ben throws 6, 1, 3.
    dice = ScriptedDice([(1, 1, 3), (6, 6, 5), (3, 2, 2), (5, 3, 2), (6, 4, 2), (6, 1, 3)])
    app, _ = bot_app(clock, dice, (), open_rules)
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    for _ in range(2):
        app.handle(inputs.shake())
        app.handle(inputs.throw())
    app.handle(inputs.press(STAND))  # Anna stands: the limit is two throws
    app.handle(inputs.shake())
    app.handle(inputs.throw())  # Ben, from the hand-over: 6, 1, 3
    game = app.game
    assert game is not None and game.turn is not None and game.turn.player == "Ben"
    turn = game.turn
    app.handle(inputs.hold(FLIP))
    view = app.view
    assert isinstance(view, BannerView) and view.title == "Tipp"
    # The chances are those of not being the round's loser after each choice, in Ben's place
    # (Anna's 6-4-2 seen, Carla to come): the advised one's, within 0.1 points of the best, and
    # under it the best other's.
    situation = OddsStrategy().situation(view_of(game), open_rules)
    position = Position.from_turn(turn)
    not_last = action_odds(position, avoid_goal(open_rules, situation, share=False), open_rules)
    chances = {Choice(a.kind, a.keep if a.kind is ActionKind.THROW else ()): a.p for a in not_last}
    hint = best_hint(game)
    assert chances[hint.action] >= max(chances.values()) - NOT_LAST_MARGIN
    other = max((c for c in chances if c != hint.action), key=lambda c: chances[c])
    german = OledWords("de")
    assert view.headline == percent(chances[hint.action], german, tenths=True)
    assert view.lines == (hint_lines(hint, german)[1],) and view.aside == "nicht Letzter"
    assert view.note.endswith(": " + percent(chances[other], german, tenths=True))
    app.handle(inputs.press(Button.KEEP_3))  # a press closes it; the turn is as it was
    assert isinstance(app.view, TurnView) and app.view.player == "Ben"
    assert game.turn == turn


def test_the_hint_names_the_kept_dice_for_the_opener(clock: FakeClock, inputs: Inputs) -> None:
    # Anna opens against two players and throws 5, 3, 1: keep only the 1 (a Hausnummer 531
    # would leave the others one throw each to beat it, and both manage that too often).
    dice = ScriptedDice([(1, 1, 3), (6, 6, 5), (3, 2, 2), (5, 3, 1)])
    app, _ = bot_app(clock, dice, ())
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.hold(FLIP))
    view = app.view
    assert isinstance(view, BannerView)
    assert view.lines == ("1 liegen lassen",) and view.aside == "nicht Letzter"
    assert (view.headline, view.note) == ("65,8 %", "Alle werfen: 58,6 %")
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, TurnView) and app.game is not None
    assert app.game.turn is not None and app.game.turn.throws == 1  # STAND only closed the hint


def test_no_hints_under_tournament_rules(clock: FakeClock, inputs: Inputs) -> None:
    dice = ScriptedDice([(1, 1, 3), (6, 6, 5), (3, 2, 2), (6, 1, 3)])
    app, _ = bot_app(clock, dice, (), load_preset("dsm"))
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, HandOverView)
    app.handle(inputs.hold(FLIP))  # at the hand-over a long press takes the cup, as a press does
    assert isinstance(app.view, TurnView)
    app.handle(inputs.hold(FLIP))
    view = app.view
    assert isinstance(view, BannerView) and view.lines == ("Keine Tipps", "im Turnier")
    app.handle(inputs.press(STAND))
    assert isinstance(app.view, TurnView)


@pytest.mark.parametrize(
    "bots",
    [
        pytest.param(("threshold", "threshold", "threshold"), id="threshold"),
        # An odds bot's tables at a table of three take seconds to build; the odds bot plays a
        # whole game on the timers in `make test` next to a person (the first test above).
        pytest.param(("odds", "threshold", "threshold"), id="odds", marks=pytest.mark.slow),
    ],
)
def test_a_table_of_bots_plays_a_whole_game_by_itself_and_waits_at_the_end(
    clock: FakeClock, bots: tuple[str, ...]
) -> None:
    app, events = bot_app(clock, SeededDice(5), bots)
    fired = run_timers(app, clock)
    assert fired > 50 and events[-1]["event"] == "game_over"
    view = app.view
    assert isinstance(view, BannerView) and view.keys[2] == "Neu"  # the next game needs a press
    assert view.headline == "⚙" + events[-1]["loser"]  # a computer player, marked


def test_the_menu_pauses_a_bot_and_offers_nothing_for_its_turn(
    clock: FakeClock, inputs: Inputs
) -> None:
    dice = ScriptedDice([*ROLL_OFF_BEN, (1, 4, 3)])
    app, _ = bot_app(clock, dice, ("", "threshold"))
    app.handle(inputs.shake())
    app.handle(inputs.throw())
    app.handle(inputs.press(STAND))
    app.handle(inputs.press(STAND))  # Ben's turn at once
    assert isinstance(app.view, TurnView) and app.next_deadline() is not None
    app.handle(inputs.hold(FLIP))  # no hint for a bot's turn
    assert isinstance(app.view, TurnView)
    app.handle(inputs.hold(STAND))
    assert app.next_deadline() is None  # the bot waits while the menu is open
    clock.advance(60)
    app.advance(clock.now())
    assert dice.asked == [3, 3, 3]
    app.handle(inputs.press(Button.KEEP_3))  # "Weiter": close the menu
    assert run_timers(app, clock) > 0 and dice.asked[3] == 3
