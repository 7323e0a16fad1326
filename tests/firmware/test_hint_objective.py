"""The opener's hint after every first throw of `standard`: it plays not to lose, full stop.

The rule (firmware.advice.NOT_LAST_MARGIN): the hint never advises a choice whose chance of not
being the round's loser ("nicht Letzter") is more than 0.1 percentage points below another's;
between the choices within that margin it prefers the odds bot's objective with the Deckel share
(engine.bots.avoid_goal: plus the chance that the throw is the round's highest times the share of
all Deckel it makes the loser take). The chances are the exact ones of engine.odds.action_odds.
Standing on the first throw sets the limit to one throw for everyone, so the value of standing
is checked here independently, by counting the 216 outcomes of the others' one throw.
"""

from __future__ import annotations

import itertools

import pytest

from engine import Game, GameSetup, load_preset, rank_table
from engine.bots import DECKEL_WEIGHT, OddsStrategy, avoid_goal, view_of
from engine.odds import ActionKind, ActionOdds, Choice, Position, action_odds
from engine.throws import Evaluation
from firmware.advice import NOT_LAST_MARGIN, Hint, best_hint, hint_lines, hint_other
from firmware.app.stages.hint import hint_view
from firmware.screen.oled_words import OledWords

STANDARD = load_preset("standard")
FIRST_THROWS = list(itertools.combinations_with_replacement(range(6, 0, -1), 3))
NAMES = ("Anna", "Ben", "Carla", "Dora")
GERMAN, ENGLISH = OledWords("de"), OledWords("en")


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


def _choice(action: ActionOdds) -> Choice:
    return Choice(action.kind, action.keep if action.kind is ActionKind.THROW else ())


# The opener's objectives cost most to build (0.3 to 0.7 s a table size); the module runs on one
# worker (tests/conftest.py), so each is built once for all of its tests, and a sweep of the 56
# first throws then costs about 0.05 s.
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_openers_hint_after_every_first_throw_keeps_within_the_margin(players: int) -> None:
    later = players - 1
    table = rank_table(STANDARD)
    for dice in FIRST_THROWS:
        game = _opened(players, dice)
        turn = game.turn
        assert turn is not None
        position = Position.from_turn(turn)
        situation = OddsStrategy().situation(view_of(game), STANDARD)
        # The exact chance of not being Letzter after each choice, and the objective's value.
        not_last = {
            _choice(a): float(a.p)
            for a in action_odds(position, avoid_goal(STANDARD, situation, share=False), STANDARD)
        }
        objective = {
            _choice(a): float(a.p) for a in action_odds(position, avoid_goal(STANDARD, situation),
                                                        STANDARD)
        }
        best = max(not_last.values())
        hint = best_hint(game)
        # Never more than 0.1 points below the best choice ...
        assert not_last[hint.action] >= best - NOT_LAST_MARGIN - 1e-12, dice
        # ... and, within the margin, the one that makes the loser pay most.
        within = [c for c, p in not_last.items() if p >= best - NOT_LAST_MARGIN - 1e-12]
        assert objective[hint.action] >= max(objective[c] for c in within) - 1e-12, dice
        # The chances shown are the exact ones: the advised choice's and the best other's.
        assert hint.not_last == pytest.approx(not_last[hint.action], abs=1e-12), dice
        others = {c: p for c, p in not_last.items() if c != hint.action}
        assert hint.other is not None and hint.other_not_last == max(others.values()), dice
        assert not_last[hint.other] == hint.other_not_last, dice
        # Standing, counted by hand: the others have one throw each to beat this one.
        ours = table.evaluate(dice, True)
        beats = _one_throw_beats(ours)
        deckel = (ours.deckel or STANDARD.deckel) / STANDARD.deckel
        stand = Choice(ActionKind.STAND)
        assert not_last[stand] == pytest.approx(1 - beats**later, abs=1e-12), dice
        expected = 1 - beats**later + DECKEL_WEIGHT * (1 - beats) ** later * deckel
        assert objective[stand] == pytest.approx(expected, abs=1e-12), dice


@pytest.mark.parametrize(
    ("dice", "stand", "other", "german", "english"),
    [
        # Both ones laid out, one die for a Schock aus: the others would have three throws.
        ((3, 1, 1), "99,8 %", "98,9 %", "1 und 1 liegen lassen", "Keep 1 and 1"),
        ((2, 1, 1), "99,6 %", "98,9 %", "1 und 1 liegen lassen", "Keep 1 and 1"),
        ((6, 6, 6), "99,5 %", "98,9 %", "6+6 zur 1 drehen", "Flip 6+6 to a 1"),
    ],
)
def test_a_near_sure_throw_of_the_opener_at_three_is_kept(
    dice: tuple[int, ...], stand: str, other: str, german: str, english: str
) -> None:
    """Standing leaves the two others one throw each to beat it; the chase for a Schock aus or
    a Schock 6 would make the loser pay more, but gives up more than 0.1 points."""
    game = _opened(3, dice)
    hint = best_hint(game)
    assert hint.action == Choice(ActionKind.STAND)
    # The odds bot, which plays for games and so for Deckel too, chases the dearer round here.
    turn = game.turn
    assert turn is not None
    situation = OddsStrategy().situation(view_of(game), STANDARD)
    chased = OddsStrategy().choose(Position.from_turn(turn), situation, STANDARD)
    assert chased == hint.other
    # Only a stronger throw from the hand beats it, and both others must fail.
    beats = _one_throw_beats(rank_table(STANDARD).evaluate(dice, True))
    assert hint.not_last == pytest.approx(1 - beats**2, abs=1e-12)
    assert hint.not_last - hint.other_not_last > NOT_LAST_MARGIN
    view = hint_view(hint, GERMAN)
    assert (view.headline, view.lines, view.aside) == (stand, ("Stehen lassen",), "nicht Letzter")
    assert view.note == f"{german}: {other}"
    view = hint_view(hint, ENGLISH)
    assert (view.headline, view.lines, view.aside) == (
        stand.replace(",", "."), ("Stand",), "to avoid the loss"
    )
    assert view.note == f"{english}: {other.replace(',', '.')}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_a_first_throw_general_3_the_opener_is_told_to_stand(players: int) -> None:
    """Standing leaves the others one throw each to beat a General: nearly a sure win."""
    hint = best_hint(_opened(players, (3, 3, 3)))
    # Only a Schock aus, a Schock (15) or a higher General (4, 5, 6) beats it: 19 of 216.
    assert hint.action.kind is ActionKind.STAND
    assert hint.not_last == pytest.approx(1 - (19 / 216) ** (players - 1), abs=1e-12)
    german, english = hint_lines(hint, GERMAN), hint_lines(hint, ENGLISH)
    assert german[1:] == ("Stehen lassen", "nicht Letzter")
    assert english[1:] == ("Stand", "to avoid the loss")
    # Beside the next choice (throwing all three again) both chances have one decimal.
    assert german[0] == {2: "91,2 %", 3: "99,2 %", 4: "99,9 %"}[players]
    assert hint.other == Choice(ActionKind.THROW)
    assert hint_other(hint, GERMAN).startswith("Alle werfen: ")
    assert hint_other(hint, ENGLISH).startswith("Throw all dice: ")


def test_choices_whose_chances_read_the_same_show_one_chance() -> None:
    """Where the other choice's chance reads as the advised one's, the hint shows one chance, in
    whole percent, and its goal under the action, as when there is no other choice."""
    stand, keep = Choice(ActionKind.STAND), Choice(ActionKind.THROW, (1,))
    for hint in (Hint(keep, 0.54321, stand, 0.54299), Hint(keep, 0.54321)):
        assert hint_other(hint, GERMAN) == hint_other(hint, ENGLISH) == ""
        view = hint_view(hint, GERMAN)
        assert (view.headline, view.lines, view.aside, view.note) == (
            "54 %", ("1 liegen lassen", "nicht Letzter"), "", ""
        )
    # A tenth apart: both chances, with one decimal.
    view = hint_view(Hint(keep, 0.54321, stand, 0.54249), ENGLISH)
    assert (view.headline, view.note) == ("54.3 %", "Stand: 54.2 %")
