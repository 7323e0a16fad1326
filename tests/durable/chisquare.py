"""Pearson's chi-square test without SciPy: the statistic and its p-value.

The p-value is the upper tail of the chi-square distribution, Q(k/2, x/2), the regularised upper
incomplete gamma function, computed with the series for P (small x) or Lentz's continued
fraction for Q (large x), as in Numerical Recipes' ``gammp``/``gammq``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Pearson's statistic: the sum of (observed - expected)^2 / expected."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def p_value(statistic: float, degrees_of_freedom: int) -> float:
    """The probability of a statistic at least this large if the hypothesis holds."""
    a, x = degrees_of_freedom / 2, statistic / 2
    if x <= 0:
        return 1.0
    if x < a + 1:
        return 1.0 - _lower_series(a, x)
    return _upper_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    denominator = a
    for _ in range(10_000):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h
