"""Shared fixtures of the durability tests: a real state directory and finished games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Event, Game, GameSetup, Rules
from hal.storage import StateDirectory
from tests.engine.randomplay import play_step


@pytest.fixture
def state(tmp_path: Path) -> StateDirectory:
    return StateDirectory(tmp_path / "state")


def blattschuss_game() -> tuple[GameSetup, list[Event]]:
    """A short game: Ben loses both halves (Blattschuss) to Anna's two Schock aus.

    Anna stands with Schock aus twice; Ben stands with a Hausnummer and with Schock 6.
    """
    setup = GameSetup(("Anna", "Ben"))
    game = Game(setup)
    game.roll_off([(1, 1, 1), (2, 3, 5)])
    game.roll((1, 1, 1))
    game.stand()
    game.roll((4, 5, 2))  # Ben's limit is Anna's one throw: the half ends, Ben takes all
    game.roll((1, 1, 6))
    game.stand()
    game.roll((1, 1, 1))
    assert game.is_over and game.loser == "Ben"
    return setup, list(game.actions)


def random_actions(
    seed: int, players: int = 3, rules: Rules | None = None
) -> tuple[GameSetup, list[Event]]:
    """The actions of a whole random game (seeded)."""
    rng = random.Random(seed)
    setup = GameSetup(tuple(f"P{i}" for i in range(players)), rules or Rules())
    game = Game(setup)
    while not game.is_over:
        play_step(game, rng)
    return setup, list(game.actions)
