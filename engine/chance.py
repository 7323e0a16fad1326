"""Chance events, listed rather than drawn: the engine never calls a random generator.

As in OpenSpiel, randomness is a chance player with explicit outcomes and probabilities. Callers
that play (the firmware, the simulator, bots) draw from these lists with their own source of
randomness; the odds module sums over them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from typing import Protocol


@cache
def throw_outcomes(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every ordered outcome of throwing ``count`` fair dice, each with its probability."""
    if not 0 <= count <= 3:
        raise ValueError(f"can throw 0 to 3 dice, not {count}")
    probability = Fraction(1, 6**count)
    return tuple((dice, probability) for dice in itertools.product(range(1, 7), repeat=count))


@cache
def sorted_throw_outcomes(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Outcomes of ``count`` dice with order ignored (descending), each with its probability."""
    weights: dict[tuple[int, ...], Fraction] = {}
    for dice, probability in throw_outcomes(count):
        key = tuple(sorted(dice, reverse=True))
        weights[key] = weights.get(key, Fraction(0)) + probability
    return tuple(sorted(weights.items(), reverse=True))


class RandomSource(Protocol):
    """The caller's random generator, for drivers that play whole games (``random.Random`` fits).

    The rules never draw; the bot drivers and the fast simulator take one of these as an argument
    and never create or seed one themselves.
    """

    def random(self) -> float: ...

    def randint(self, low: int, high: int, /) -> int: ...

    def randrange(self, stop: int, /) -> int: ...
