"""The hint honours ``hand_only``: a built Jule is a Hausnummer to beat, not a Jule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Game, GameSetup, load_preset
from engine.odds import ActionKind, Choice, Position, Target, action_odds
from firmware.advice import NOT_LAST_MARGIN, best_hint, hint_lines
from firmware.screen.oled_words import OledWords

OPEN = replace(load_preset("standard"), jule=True, hidden_last_throw=False)


def _after_a_built_jule(hand_only: tuple[str, ...]) -> Game:
    """Anna builds 4-2-1 over two throws and stands; Ben has thrown 6-3-3 once."""
    game = Game(GameSetup(("Anna", "Ben"), replace(OPEN, hand_only=hand_only)))
    game.roll_off([(1, 1, 1), (2, 2, 2)])
    game.roll((4, 2, 6))
    game.roll((1,), keep=(0, 1))
    game.stand()
    game.roll((6, 3, 3))
    return game


def test_the_hint_plays_against_hausnummer_421_when_the_jule_counts_only_from_the_hand() -> None:
    strict, loose = _after_a_built_jule(("jule",)), _after_a_built_jule(())
    strict_hint, loose_hint = best_hint(strict), best_hint(loose)
    # Against a Hausnummer 421, Ben's 6-3-3 already wins: standing cannot lose, and the hint
    # plays on only where it stays certain.
    assert strict_hint.not_last == 1
    assert loose_hint.not_last < 1  # a Jule is harder to beat
    # Ben is the last to throw: his chance is exact against the one result on the table.
    for game, hint, beat in ((strict, strict_hint, (4, 2, 1)), (loose, loose_hint, (4, 2, 1))):
        turn = game.turn
        assert turn is not None
        position = Position.from_turn(turn)
        target = Target.of(beat, game.rules, hand=False, throws=2)
        # The chance shown is the best chance to beat it after the advised choice.
        chances = {
            Choice(a.kind, a.keep if a.kind is ActionKind.THROW else ()): a.p
            for a in action_odds(position, target, game.rules)
        }
        assert float(hint.not_last) == pytest.approx(chances[hint.action], abs=1e-12)
        assert max(chances.values()) - chances[hint.action] <= NOT_LAST_MARGIN
    assert hint_lines(strict_hint, OledWords("de"))[2] == "nicht Letzter"
    assert hint_lines(loose_hint, OledWords("en"))[2] == "to avoid the loss"
