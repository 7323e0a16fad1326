"""OpenSpiel-style API check: from random positions, what the queries call legal is accepted and
everything else is refused with IllegalActionError (and leaves the game unchanged)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from engine import Game, GameSetup, IllegalActionError, Phase, Rules, load_preset, preset_names
from tests.engine.randomplay import play_step, random_dice

RULE_SETS = [
    *[load_preset(name) for name in preset_names()],
    Rules(name="ones+take_back+blind", keep_only_ones=True, take_back=True, blind=True),
    Rules(name="boerde+ones+4", boerdeschock=True, keep_only_ones=True, max_throws=4),
    Rules(name="two_dice+blind", two_dice=True, blind=True, flip_sixes=False),
]


def accepted(game: Game, action: Callable[[Game], object]) -> bool:
    """Try ``action`` on a copy; True if accepted, False if refused with IllegalActionError."""
    trial = game.copy()
    before = trial.state()
    try:
        action(trial)
    except IllegalActionError:
        assert trial.state() == before, "a refused action must not change the game"
        return False
    return True


def check_position(game: Game, rng: random.Random) -> None:
    count = game.rules.dice_count
    legal = set(game.legal_keeps())
    assert bool(legal) == game.can_roll()
    for size in range(count + 1):
        for keep in itertools.combinations(range(count), size):
            dice = random_dice(rng, count - size)

            def throw(g: Game, keep: tuple[int, ...] = keep, dice: tuple[int, ...] = dice) -> None:
                g.roll(dice, keep)

            assert accepted(game, throw) == (keep in legal), (keep, legal)
    assert accepted(game, Game.flip) == game.can_flip()
    assert accepted(game, Game.stand) == game.can_stand()
    assert accepted(game, Game.blind) == game.can_blind()
    if game.can_roll():
        # A legal keep with impossible dice is still refused: a 7, or one die too many.
        keep = next(iter(legal))
        seven = (7, *random_dice(rng, count - len(keep) - 1))
        too_many = random_dice(rng, count - len(keep) + 1)
        assert not accepted(game, lambda g: g.roll(seven, keep))
        assert not accepted(game, lambda g: g.roll(too_many, keep))


@pytest.mark.parametrize("positions", [100, pytest.param(250, marks=pytest.mark.slow)])
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_queries_agree_with_actions(rules: Rules, positions: int) -> None:
    """Every query against its action in ``positions`` random positions of random games (each
    position tries every keep, flip, stand and blind; the slow selection checks 250)."""
    rng = random.Random(rules.name)
    checked = 0
    for game_number in itertools.count():
        game = Game(GameSetup(tuple(f"P{i}" for i in range(2 + game_number % 3)), rules))
        while not game.is_over and checked < positions:
            if game.phase is Phase.TURN and rng.random() < 0.5:
                check_position(game, rng)
                checked += 1
            play_step(game, rng)
        if checked >= positions:
            break
