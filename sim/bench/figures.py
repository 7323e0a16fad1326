"""The bench's figures: one :class:`Measurement`, and the percentile its latencies are given by.

Below both :mod:`sim.bench.measure` (which takes every measurement) and :mod:`sim.bench.web` (the
table's page, measured in a child process of its own), so that neither imports the other to
share them. Standard library only: the web bench's child loads it before the device.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Measurement", "percentile"]


@dataclass(frozen=True, slots=True)
class Measurement:
    """One figure: ``key`` names it with its unit for JSON (``throw_eval_ns``).

    ``target`` is the limit on this machine class (an upper bound, or a lower one when
    ``at_least``); ``value`` is None when the measurement was skipped, with the reason in ``note``.
    """

    key: str
    label: str
    value: float | None
    unit: str
    target: float | None = None
    at_least: bool = False
    note: str = ""

    @property
    def status(self) -> str:
        """Either "OK", "over" (the target was missed), "-" (no target) or "skipped"."""
        if self.value is None:
            return "skipped"
        if self.target is None:
            return "-"
        met = self.value >= self.target if self.at_least else self.value <= self.target
        return "OK" if met else "over"


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]
