"""The hint honours ``hand_only``: a built Jule is a Hausnummer to beat, not a Jule."""

from __future__ import annotations

from dataclasses import replace

from engine import Game, GameSetup, Kind, load_preset
from engine.odds import ActionKind, Position, Target, action_odds
from firmware.advice import best_hint, hint_lines
from firmware.screen.i18n import Catalogue

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
    assert strict_hint.beat is not None and loose_hint.beat is not None
    assert (strict_hint.beat.kind, strict_hint.beat.name) == (Kind.HAUSNUMMER, "Hausnummer 421")
    assert loose_hint.beat.kind is Kind.JULE
    # Against a Hausnummer, Ben's 6-3-3 already wins: stand, and the chance is certain.
    assert strict_hint.action.kind is ActionKind.STAND and strict_hint.action.p == 1
    assert loose_hint.action.p < 1
    # The hint's figure is the exact odds of the engine's position against that throw.
    turn = strict.turn
    assert turn is not None
    expected = action_odds(
        Position.from_turn(turn), Target.beat(strict_hint.beat, strict.rules, throws=2),
        strict.rules,
    )[0]
    assert strict_hint.action == expected
    assert hint_lines(strict_hint, Catalogue("de"))[2].endswith("Hausnummer 421")
