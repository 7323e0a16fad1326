"""The opener's hint after every first throw of `standard`: it recommends what the objective says.

The objective (engine.bots.avoid_goal): not being the round's loser, plus the chance that the
throw is the round's highest times the share of all Deckel it makes the loser take. Standing on
the first throw sets the limit to one throw for everyone, so the value of standing is checked
here independently, by counting the 216 outcomes of the others' one throw.
"""

from __future__ import annotations

import itertools

import pytest

from engine import Game, GameSetup, load_preset, rank_table
from engine.bots import DECKEL_WEIGHT, OddsStrategy, avoid_goal, view_of
from engine.odds import ActionKind, Position, action_odds
from engine.throws import Evaluation
from firmware.advice import best_hint, hint_lines
from firmware.screen.oled_words import OledWords

STANDARD = load_preset("standard")
FIRST_THROWS = list(itertools.combinations_with_replacement(range(6, 0, -1), 3))
NAMES = ("Anna", "Ben", "Carla", "Dora")


def _opened(players: int, dice: tuple[int, ...]) -> Game:
    """Anna won the roll-off and threw ``dice``."""
    game = Game(GameSetup(NAMES[:players], STANDARD))
    game.roll_off([(1, 1, 1), *([(2, 2, 2)] * (players - 1))])
    game.roll(dice)
    return game


def _one_throw_beats(ours: Evaluation) -> float:
    """The share of one later throw from the hand (216 outcomes) that ends above ``ours``, both
    after one throw: equal is lower for the later thrower."""
    table = rank_table(STANDARD)
    beats = sum(
        table.evaluate(dice, True).strength > ours.strength
        for dice in itertools.product(range(1, 7), repeat=3)
    )
    return beats / 216


@pytest.mark.parametrize(
    "players", [2, pytest.param(3, marks=pytest.mark.slow), 4]  # 2 and 4 in make test bound 3
)
def test_the_openers_hint_after_every_first_throw_follows_the_objective(players: int) -> None:
    later = players - 1
    table = rank_table(STANDARD)
    for dice in FIRST_THROWS:
        game = _opened(players, dice)
        turn = game.turn
        assert turn is not None
        position = Position.from_turn(turn)
        situation = OddsStrategy().situation(view_of(game), STANDARD)
        actions = action_odds(position, avoid_goal(STANDARD, situation), STANDARD)
        hint = best_hint(game)
        # The hint recommends the action the objective values most.
        assert hint.action == actions[0], dice
        assert all(hint.action.p >= other.p - 1e-12 for other in actions), dice
        # Standing, counted by hand: the others have one throw each to beat this one.
        ours = table.evaluate(dice, True)
        beats = _one_throw_beats(ours)
        deckel = (ours.deckel or STANDARD.deckel) / STANDARD.deckel
        stand = next(a for a in actions if a.kind is ActionKind.STAND)
        expected = 1 - beats**later + DECKEL_WEIGHT * (1 - beats) ** later * deckel
        assert stand.p == pytest.approx(expected, abs=1e-12), dice
        if hint.action.kind is ActionKind.STAND:
            assert hint.not_last == pytest.approx(1 - beats**later, abs=1e-12), dice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_a_first_throw_general_3_the_opener_is_told_to_stand(players: int) -> None:
    """Standing leaves the others one throw each to beat a General: nearly a sure win."""
    hint = best_hint(_opened(players, (3, 3, 3)))
    # Only a Schock aus, a Schock (15) or a higher General (4, 5, 6) beats it: 19 of 216.
    assert hint.action.kind is ActionKind.STAND
    assert hint.not_last == pytest.approx(1 - (19 / 216) ** (players - 1), abs=1e-12)
    german, english = hint_lines(hint, OledWords("de")), hint_lines(hint, OledWords("en"))
    assert german[1:] == ("Stehen lassen", "nicht Letzter")
    assert english[1:] == ("Stand", "to avoid the loss")
    assert german[0] == {2: "91 %", 3: "99 %", 4: "99,9 %"}[players]
