"""Fair dice: uniform faces, independent consecutive dice, no modulo bias.

The chi-square tests draw 600,000 dice (slow selection). Each asserts p > 1e-6, so a fair
source fails about once in a million runs; the same test rejects a source with the classic
modulo bias (a random byte % 6) with overwhelming certainty, which shows it has the power to
catch what it is meant to catch.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from firmware.dice import DiceSource, SeededDice, SystemDice
from tests.durable.chisquare import chi_square, p_value

DICE = 600_000
THRESHOLD = 1e-6


class ModuloBiasedDice:
    """The mistake the firmware must not make: a random byte reduced modulo 6."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def throw(self, count: int) -> tuple[int, ...]:
        return tuple(self._random.getrandbits(8) % 6 + 1 for _ in range(count))


def draw(source: DiceSource, total: int) -> list[int]:
    values: list[int] = []
    while len(values) < total:
        values.extend(source.throw(3))
    return values[:total]


def faces_p_value(values: list[int]) -> float:
    counts = Counter(values)
    assert set(counts) <= set(range(1, 7)), f"faces out of range: {sorted(counts)}"
    observed = [counts[face] for face in range(1, 7)]
    return p_value(chi_square(observed, [len(values) / 6] * 6), 5)


def pairs_p_value(values: list[int]) -> float:
    """Consecutive dice as 36 ordered pairs (non-overlapping, so the pairs are independent)."""
    pairs = Counter(zip(values[::2], values[1::2], strict=False))
    observed = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    return p_value(chi_square(observed, [len(values) // 2 / 36] * 36), 35)


def test_the_p_value_matches_tables() -> None:
    assert p_value(11.0705, 5) == pytest.approx(0.05, rel=1e-4)
    assert p_value(20.515, 5) == pytest.approx(0.001, rel=1e-3)
    assert p_value(49.802, 35) == pytest.approx(0.05, rel=1e-3)
    assert p_value(1.0, 1) == pytest.approx(0.3173105, rel=1e-6)


def test_system_dice_draw_from_the_os_random_source(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = secrets.randbelow

    def recording(n: int) -> int:
        calls.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "randbelow", recording)
    values = SystemDice().throw(3)
    assert calls == [6, 6, 6], "one unbiased draw below 6 per die"
    assert all(1 <= v <= 6 for v in values)


def test_seeded_dice_repeat_and_differ_by_seed() -> None:
    assert draw(SeededDice(5), 30) == draw(SeededDice(5), 30)
    assert draw(SeededDice(5), 30) != draw(SeededDice(6), 30)


@pytest.mark.slow
@pytest.mark.parametrize("source", [SystemDice(), SeededDice(2024)], ids=["system", "seeded"])
def test_faces_and_consecutive_pairs_are_uniform(source: DiceSource) -> None:
    values = draw(source, DICE)
    assert faces_p_value(values) > THRESHOLD
    assert pairs_p_value(values) > THRESHOLD


@pytest.mark.slow
def test_the_chi_square_test_catches_modulo_bias() -> None:
    values = draw(ModuloBiasedDice(1), DICE)
    assert faces_p_value(values) < THRESHOLD
