"""Throw evaluation: kind, German name, Deckel and strength of three dice under the rules.

A throw's identity is its dice *and* whether it is a Hand-Wurf (all dice fell in one throw) or
built up ("zusammengewürfelt"), since house rules value the two differently. Strength is an
integer that orders any two throws under the active rules: higher beats lower, equal strength
leaves the decision to the tie rules (:func:`engine.settle.rank_key`).

Every evaluation is precomputed once per rule set into a dict keyed by the dice *as thrown*
(any order) and the hand flag, so evaluating a throw is one dict lookup.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from engine.errors import IllegalActionError
from engine.rules import USUAL_NAMES, Rules, StrasseOrder, TwoTwoOne


class Kind(enum.Enum):
    """The kinds of throw. The last four exist only under the house rules that add them."""

    SCHOCK_AUS = "schock_aus"
    SCHOCK = "schock"
    GENERAL = "general"
    STRASSE = "strasse"
    HAUSNUMMER = "hausnummer"
    JULE = "jule"
    NEUNER = "neuner"
    SIEBENER = "siebener"
    ACHTER = "achter"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What a throw is worth under one rule set.

    ``dice`` are in descending order, as a Hausnummer is read. ``deckel`` is None for Schock aus,
    which gives the loser all Deckel.
    """

    dice: tuple[int, ...]
    hand: bool
    kind: Kind
    name: str
    deckel: int | None
    strength: int


# Tiers of the sort key, weakest first. Schock 2 moves to _SCHOCK2_BELOW_GENERAL when the
# General ranks above it.
_HAUSNUMMER, _STRASSE, _SCHOCK2_BELOW_GENERAL, _GENERAL, _SCHOCK, _SPECIAL, _SCHOCK_AUS = range(7)


#: Kind, name, Deckel and sort key of a throw.
_Classified = tuple[Kind, str, int | None, tuple[int, int]]
#: The same plus the three dice the throw is read as (two-dice variant: with the imagined one).
_Shown = tuple[Kind, str, int | None, tuple[int, int], tuple[int, ...]]


def _classify(dice: tuple[int, int, int], hand: bool, rules: Rules) -> _Classified:
    """Kind, name, Deckel and a sort key for three dice in descending order.

    A special throw listed in ``rules.hand_only`` counts as a Hausnummer unless from the hand.
    Names are the table's own (``rules.names``) where it has any.
    """
    high, mid, low = dice
    if dice == (1, 1, 1):
        natural = 1 if (hand and rules.naturschock_above_built) else 0
        name = (hand and rules.name_of("naturschock")) or _word(rules, "schock_aus")
        return Kind.SCHOCK_AUS, name, None, (_SCHOCK_AUS, natural)
    if rules.jule and dice == (4, 2, 1) and (hand or "jule" not in rules.hand_only):
        return Kind.JULE, _word(rules, "jule"), 7, (_SPECIAL, 7)
    if dice == (2, 2, 1) and rules.two_two_one is TwoTwoOne.NEUNER and (
        hand or "neuner" not in rules.hand_only
    ):
        return Kind.NEUNER, _word(rules, "neuner"), 9, (_SPECIAL, 9)
    if dice == (2, 2, 1) and rules.two_two_one is TwoTwoOne.SIEBENER and (
        hand or "siebener" not in rules.hand_only
    ):
        return Kind.SIEBENER, _word(rules, "siebener"), 7, (_SPECIAL, 7)
    if rules.achter and dice == (3, 3, 1) and (hand or "achter" not in rules.hand_only):
        return Kind.ACHTER, _word(rules, "achter"), 8, (_SPECIAL, 8)
    if mid == low == 1:
        tier = _SCHOCK2_BELOW_GENERAL if (high == 2 and rules.general_above_schock2) else _SCHOCK
        name = (high == 2 and rules.name_of("schock_2")) or f"{_word(rules, 'schock')} {high}"
        return Kind.SCHOCK, name, high, (tier, high)
    if high == mid == low and (hand or "general" not in rules.hand_only):
        return Kind.GENERAL, f"{_word(rules, 'general')} {high}", 3, (_GENERAL, high)
    if high - 1 == mid == low + 1 and (hand or "strasse" not in rules.hand_only):
        rank = high if rules.strasse_order is StrasseOrder.ASCENDING else 0
        name = f"{_word(rules, 'strasse')} {high}-{mid}-{low}"
        return Kind.STRASSE, name, 2, (_STRASSE, rank)
    number = 100 * high + 10 * mid + low
    return Kind.HAUSNUMMER, f"{_word(rules, 'hausnummer')} {number}", 1, (_HAUSNUMMER, number)


def _word(rules: Rules, key: str) -> str:
    """The name of the kind ``key`` at this table: its own, else the usual one."""
    return rules.name_of(key) or USUAL_NAMES[key]


class RankTable:
    """Every throw evaluated once under one rule set. Build with :func:`rank_table`."""

    __slots__ = ("_by_thrown", "ranking", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        classified: dict[tuple[tuple[int, ...], bool], _Shown] = {}
        for combo in itertools.combinations_with_replacement(range(6, 0, -1), rules.dice_count):
            for hand in (True, False):
                classified[(combo, hand)] = self._best(combo, hand)
        keys = sorted({entry[3] for entry in classified.values()})
        strength_of = {key: index + 1 for index, key in enumerate(keys)}
        by_sorted: dict[tuple[tuple[int, ...], bool], Evaluation] = {}
        for (combo, hand), (kind, name, deckel, key, shown) in classified.items():
            by_sorted[(combo, hand)] = Evaluation(shown, hand, kind, name, deckel, strength_of[key])
        self._by_thrown: dict[tuple[tuple[int, ...], bool], Evaluation] = {}
        for (combo, hand), evaluation in by_sorted.items():
            for order in set(itertools.permutations(combo)):
                self._by_thrown[(order, hand)] = evaluation
        #: Every distinct throw, strongest first (hand before built where they differ).
        self.ranking: list[Evaluation] = sorted(
            by_sorted.values(), key=lambda e: (-e.strength, e.dice, not e.hand)
        )

    def _best(self, combo: tuple[int, ...], hand: bool) -> _Shown:
        """Classify; in the two-dice variant the imagined third die is the one that fits best."""
        if len(combo) == 3:
            kind, name, deckel, key = _classify((combo[0], combo[1], combo[2]), hand, self.rules)
            return kind, name, deckel, key, combo
        candidates = []
        for imagined in range(1, 7):
            full = tuple(sorted((*combo, imagined), reverse=True))
            candidates.append((_classify((full[0], full[1], full[2]), hand, self.rules), full))
        (kind, name, deckel, key), full = max(candidates, key=lambda c: c[0][3])
        return kind, name, deckel, key, full

    def evaluate(self, dice: Sequence[int], hand: bool = True) -> Evaluation:
        """The evaluation of ``dice`` (any order). Raises IllegalActionError for impossible dice."""
        try:
            key = tuple(dice)
            evaluation = self._by_thrown[(key, hand)]
        except (KeyError, TypeError):
            pass
        else:
            # True and 1.0 hash like 1 and find an entry: only real ints are dice. (A plain loop:
            # all() over a generator would cost more than the whole lookup.)
            for value in key:
                if type(value) is not int:
                    break
            else:
                return evaluation
        shown = dice if isinstance(dice, (list, tuple)) else [dice]
        raise IllegalActionError(describe_bad_dice(shown, self.rules.dice_count))

    def strongest(self) -> Evaluation:
        """The best throw under these rules."""
        return self.ranking[0]


def describe_bad_dice(dice: Iterable[object], count: int) -> str:
    """A one-line message saying what is wrong with ``dice``."""
    values = list(dice)
    if len(values) != count:
        return f"need {count} dice, got {len(values)}: {values}"
    bad = [v for v in values if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6]
    if bad:
        return f"dice must be whole numbers 1-6, got {bad[0]!r} in {values}"
    return f"bad dice {values}"


@cache
def rank_table(rules: Rules) -> RankTable:
    """The rank table of ``rules``, built on first use and kept."""
    return RankTable(rules)


def evaluate(dice: Sequence[int], hand: bool, rules: Rules) -> Evaluation:
    """Evaluate ``dice`` under ``rules``; a convenience around :func:`rank_table`."""
    return rank_table(rules).evaluate(dice, hand)
