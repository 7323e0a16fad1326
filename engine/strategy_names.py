"""The names of the computer players' strategies, without loading them.

Configuration and menus check and list these names at start-up; the strategies themselves
(:mod:`engine.bots`, which needs the exact odds of :mod:`engine.odds`) load only when a game
with computer players begins. :data:`engine.bots.STRATEGIES` has one entry per name here.
"""

from __future__ import annotations

__all__ = ["COMPARISON_NAMES", "STRATEGY_NAMES", "strategy_names"]

#: Every strategy :func:`engine.bots.make_strategy` knows, sorted.
STRATEGY_NAMES = ("odds", "threshold")

#: Strategies ``schocken simulate`` also knows, kept only to compare the others against:
#: ``odds-v1`` is the odds bot before it played against what the table has seen.
COMPARISON_NAMES = ("odds-v1",)


def strategy_names() -> list[str]:
    """The strategies' names, sorted."""
    return list(STRATEGY_NAMES)
