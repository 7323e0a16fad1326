"""Where the dice come from: the system's random source on the device, a seeded one for replays.

The engine never draws a random number; the firmware asks a :class:`DiceSource` for the values of
each throw and hands them to the engine as part of the action, so a game's journal replays it.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

__all__ = ["DiceSource", "SeededDice", "SystemDice"]


@runtime_checkable
class DiceSource(Protocol):
    """Throws ``count`` fair six-sided dice."""

    def throw(self, count: int) -> tuple[int, ...]:
        """``count`` values from 1 to 6, in the order the dice lie."""


def _check_count(count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 10:
        raise ValueError(f"cannot throw {count!r} dice: allowed are 0 to 10")


class SystemDice:
    """Dice from the operating system's entropy (:mod:`secrets`), as a pub expects them.

    ``randbelow(6)`` draws without modulo bias (it rejects and redraws internally).
    """

    def throw(self, count: int) -> tuple[int, ...]:
        import secrets  # loaded with the first throw, not before the first frame (it costs 4 ms)

        _check_count(count)
        return tuple(secrets.randbelow(6) + 1 for _ in range(count))


class SeededDice:
    """Reproducible dice for tests, replays and scripted demos: the same seed, the same game."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def throw(self, count: int) -> tuple[int, ...]:
        _check_count(count)
        return tuple(self._random.randint(1, 6) for _ in range(count))
