"""Seeded random play through the engine's public API, for property tests."""

from __future__ import annotations

import random

from engine import Event, Game, GameSetup, Phase, Rules
from engine.rules import DroppedCup


def random_dice(rng: random.Random, count: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(count))


def play_step(game: Game, rng: random.Random) -> list[Event]:
    """One random legal action (a penalty or a dropped cup now and then); returns the events."""
    if game.phase is Phase.ROLL_OFF:
        return game.roll_off([random_dice(rng, game.rules.dice_count) for _ in game.contenders])
    if game.rules.penalty_deckel and rng.random() < 0.005:
        return game.penalty(rng.choice(game.in_play()))
    dropped = any(result.dropped for result in game.results)
    if game.rules.dropped_cup is DroppedCup.ROUND and not dropped and rng.random() < 0.01:
        return game.drop(rng.choice(game.round_players))
    choices = []
    if game.can_roll():
        choices += ["roll"] * 4
    if game.can_stand():
        choices.append("stand")
    if game.can_flip():
        choices += ["flip"] * 3
    if game.can_blind():
        choices.append("blind")
    action = rng.choice(choices)
    if action == "roll":
        keep = rng.choice(list(game.legal_keeps()))
        return game.roll(random_dice(rng, game.dice_to_throw(keep)), keep)
    if action == "stand":
        return game.stand()
    if action == "flip":
        return game.flip()
    return game.blind()


def play_random_game(players: int, rules: Rules, seed: int, max_steps: int = 20_000) -> Game:
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    game = Game(GameSetup(names, rules))
    for _ in range(max_steps):
        if game.is_over:
            return game
        play_step(game, rng)
    raise AssertionError(f"game did not end in {max_steps} steps (seed {seed})")
