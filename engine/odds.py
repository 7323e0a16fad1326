"""Exact odds: how likely a turn ends stronger than a target, for every legal action.

The odds come from dynamic programming over the turn's positions, not from sampling. A position
is the multiset of laid-out dice, the multiset of dice just thrown, the throws made, the throw
limit and whether the player has flipped since the last throw. From a position a player may

* stand (the result is evaluated with the hand flag: all dice fell in the last throw),
* lay out any legal choice of the dice and throw the rest (see :meth:`_Model.keeps`), or
* flip two sixes into a one (:mod:`engine.game` rules: which sixes count, what goes back into the
  cup, and under Bördeschock one more throw per flip).

The value of a position is the best action's chance of finishing with a result that the goal
counts as a win; a goal gives every final result (dice, hand, throws) a payoff between 0 and 1, so
"beat this throw", "reach at least a Schock 6" and the bots' own objectives share one solver.
Solvers are memoised per rule set and goal (the 48 used last), so once a goal's table is built a
query is a handful of dictionary lookups; a goal asked once gets a solver of its own instead
(:func:`policy` not ``shared``, :func:`solve_starts`), which goes when done. Probabilities are
floats, or :class:`~fractions.Fraction` with ``exact=True`` for figures quoted in documents.

The only bound: Bördeschock with ``take_back`` could in principle flip forever (take back the new
one, throw it again, flip again); the solver tracks at most :data:`MAX_THROWS` throws and offers no
flip that would raise the limit beyond it. Without ``take_back`` a turn has at most two flips.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, TypeAlias

from engine.chance import sorted_throw_outcomes
from engine.errors import IllegalActionError
from engine.rules import Rules, StrasseOrder, TieRule
from engine.throws import Evaluation, Kind, describe_bad_dice, rank_table

if TYPE_CHECKING:  # a position is read from a turn, but computing odds needs no game
    from engine.game import TurnState

#: The most throws the solver follows in one turn (see the module docstring).
MAX_THROWS = 8

Dice: TypeAlias = tuple[int, ...]
Number: TypeAlias = float | Fraction
Vector: TypeAlias = tuple[Number, ...]


def sorted_dice(values: Iterable[int]) -> Dice:
    """Dice in descending order, the canonical form of a multiset of dice."""
    return tuple(sorted(values, reverse=True))


def _sub_multisets(dice: Dice) -> list[Dice]:
    """Every sub-multiset of ``dice`` (descending), without repeats, largest first."""
    found = {
        combo for size in range(len(dice) + 1) for combo in itertools.combinations(dice, size)
    }
    return sorted(found, key=lambda d: (-len(d), [-v for v in d]))


# -- positions and actions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """A point in a turn, as the odds see it.

    ``laid_out`` are the dice out of the cup, ``thrown`` the dice of the last throw still free to
    lay out; both are multisets (order is ignored). ``limit`` is the turn's throw limit including
    any Bördeschock bonus. Before the first throw both are empty and ``throws`` is 0.
    """

    laid_out: Dice = ()
    thrown: Dice = ()
    throws: int = 0
    limit: int = 3
    flipped: bool = False

    def __post_init__(self) -> None:
        # Multisets: keep them in the canonical descending order (bad values are left for check).
        for name in ("laid_out", "thrown"):
            try:
                object.__setattr__(self, name, sorted_dice(getattr(self, name)))
            except TypeError:
                object.__setattr__(self, name, tuple(getattr(self, name)))

    @classmethod
    def start(cls, limit: int) -> Position:
        """Before the first throw of a turn with ``limit`` throws."""
        return cls((), (), 0, limit)

    @classmethod
    def from_turn(cls, turn: TurnState) -> Position:
        """The position of an engine :class:`~engine.game.TurnState`."""
        if turn.throws == 0:
            return cls.start(turn.limit)
        laid = [v for v, out in zip(turn.values, turn.laid_out, strict=True) if out and v]
        free = [v for v, out in zip(turn.values, turn.laid_out, strict=True) if not out and v]
        return cls(sorted_dice(laid), sorted_dice(free), turn.throws, turn.limit, turn.flipped)

    @property
    def hand(self) -> bool:
        """True when all dice fell in the last throw (a Hand-Wurf)."""
        return self.throws > 0 and not self.laid_out and not self.flipped

    def check(self, rules: Rules) -> None:
        """Raise :class:`IllegalActionError` (one line) if the position cannot occur."""
        count = rules.dice_count
        if not 1 <= self.limit <= MAX_THROWS:
            raise IllegalActionError(f"throw limit {self.limit}: allowed are 1 to {MAX_THROWS}")
        if not 0 <= self.throws <= self.limit:
            raise IllegalActionError(
                f"throws made {self.throws}: allowed are 0 to the limit ({self.limit})"
            )
        dice = (*self.laid_out, *self.thrown)
        if self.throws == 0:
            if dice:
                raise IllegalActionError("no dice before the first throw (throws made = 0)")
            return
        if len(dice) != count:
            raise IllegalActionError(
                f"laid-out and thrown dice must make {count}, got {len(dice)}: {list(dice)}"
            )
        if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in dice):
            raise IllegalActionError(describe_bad_dice(dice, count))
        if len(self.laid_out) == count:
            raise IllegalActionError("at least one die must be from the last throw")


class ActionKind(enum.Enum):
    """What a player can do in a position."""

    STAND = "stand"
    THROW = "throw"
    FLIP = "flip"


@dataclass(frozen=True, slots=True)
class ActionOdds:
    """One legal action and the chance to win the goal when playing optimally after it.

    For THROW, ``keep`` are the dice laid out for the throw (earlier ones included) and ``throw``
    the number of dice thrown. For FLIP, ``laid_out``/``free`` are the dice after the flip and
    ``then`` the best action that follows it.
    """

    kind: ActionKind
    p: Number
    keep: Dice = ()
    throw: int = 0
    laid_out: Dice = ()
    free: Dice = ()
    result: str = ""
    then: ActionOdds | None = field(default=None, compare=False)

    def describe(self) -> str:
        """A plain English description, e.g. "keep 6 and 1, throw 1 die"."""
        if self.kind is ActionKind.STAND:
            return f"stand ({self.result})" if self.result else "stand"
        if self.kind is ActionKind.THROW:
            dice = f"{self.throw} {'die' if self.throw == 1 else 'dice'}"
            if not self.keep:
                return f"throw all {dice}"
            return f"keep {_join(self.keep)}, throw {dice}"
        text = f"flip sixes into ones (laid out: {_join(self.laid_out)})"
        return f"{text}, then {self.then.describe()}" if self.then else text


def _join(dice: Dice) -> str:
    words = [str(v) for v in dice]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- goals ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Goal:
    """A payoff for every final result: ``payoff[throws][slot]`` between 0 and 1.

    ``slot`` numbers the (dice, hand) pairs of a rule set (see :func:`result_slots`). Build goals
    with :meth:`Target.goal` or :func:`goal_from`. A goal whose payoff also depends on which
    dice were laid out (what the table sees under ``hidden_last_throw``) gives
    ``by_state[throws][state]`` instead, over the turn's positions (:func:`stand_states`; build
    it with :func:`goal_by_state`).
    """

    payoff: tuple[tuple[Number, ...], ...]
    #: False when the payoff does not depend on the throws made (lets the solver share work).
    uses_throws: bool
    #: The payoff per position ``(laid out, free)`` stood on, overriding ``payoff``, or None.
    by_state: tuple[tuple[Number, ...], ...] | None = None
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Goals are cache keys for the solver on every query: hash their large tables once.
        object.__setattr__(self, "_hash", hash((self.payoff, self.uses_throws, self.by_state)))

    def __hash__(self) -> int:
        return self._hash


def result_slots(rules: Rules) -> tuple[Evaluation, ...]:
    """The evaluations of every (dice, hand) pair, indexed by slot."""
    return _model(rules).evaluations


def most_throws(rules: Rules, limit: int) -> int:
    """The most throws a turn with ``limit`` can make in the solver: under Bördeschock one more
    per flip, at most two flips without ``take_back`` (see the module docstring)."""
    if not rules.boerdeschock:
        return min(limit, MAX_THROWS)
    return MAX_THROWS if rules.take_back else min(limit + 2, MAX_THROWS)


def goal_from(
    rules: Rules, payoff: Callable[[Evaluation, int], Number], most: int = MAX_THROWS
) -> Goal:
    """A goal from a function of the final evaluation and the throws made.

    With ``most`` (:func:`most_throws`), the payoff is asked only up to that many throws; a
    turn never ends after more.
    """
    slots = result_slots(rules)
    rows = [tuple(payoff(e, throws) for e in slots) for throws in range(most + 1)]
    rows += [rows[-1]] * (MAX_THROWS - most)
    uses_throws = any(row != rows[1] for row in rows[1:])
    return Goal(tuple(rows), uses_throws)


def stand_states(rules: Rules) -> tuple[tuple[Dice, Dice], ...]:
    """Every position ``(laid out, free)`` a turn can stand on, indexed as ``Goal.by_state``."""
    return tuple(_model(rules).states)


def goal_by_state(
    rules: Rules, payoff: Callable[[Dice, Dice, int], Number], most: int = MAX_THROWS
) -> Goal:
    """A goal from a function of the position stood on (laid out, free) and the throws made
    (asked from one throw up to ``most``, as :func:`goal_from`)."""
    states = _model(rules).states
    nothing = (0.0,) * len(states)
    rows = tuple(
        tuple(payoff(laid, free, throws) for laid, free in states) if 0 < throws <= most else
        nothing
        for throws in range(MAX_THROWS + 1)
    )
    return Goal((), True, rows)


def ties_by_throws(kind: Kind, rules: Rules) -> bool:
    """Whether equally strong throws of this kind are decided by fewer throws (else: earlier)."""
    if kind is Kind.STRASSE and rules.strasse_order is StrasseOrder.FIRST_THROWN:
        return False
    if kind is Kind.STRASSE and rules.strasse_order is StrasseOrder.FEWER_THROWS:
        return True
    return rules.ties is TieRule.FEWER_THROWS


@dataclass(frozen=True, slots=True)
class Target:
    """A throw to beat, thrown *earlier* in the round.

    Equal strength loses, unless ``ties_win``, or the tie rules decide by fewer throws and the
    target's ``throws`` are known and more than ours (Regeln und Varianten:
    "gewinnt der mit weniger Würfen").
    """

    strength: int
    throws: int | None = None
    ties_win: bool = False
    by_throws: bool = False

    @classmethod
    def beat(
        cls, evaluation: Evaluation, rules: Rules, *, throws: int | None = None,
        ties_win: bool = False,
    ) -> Target:
        """Beat ``evaluation``; with ``throws``, the rules' tie rule applies."""
        return cls(evaluation.strength, throws, ties_win, ties_by_throws(evaluation.kind, rules))

    @classmethod
    def of(
        cls, dice: Sequence[int], rules: Rules, *, hand: bool = True, throws: int | None = None,
        ties_win: bool = False,
    ) -> Target:
        """Beat the throw ``dice`` (hand or built), made with ``throws`` throws if given."""
        evaluation = rank_table(rules).evaluate(tuple(dice), hand)
        return cls.beat(evaluation, rules, throws=throws, ties_win=ties_win)

    @classmethod
    def at_least(cls, strength: int) -> Target:
        """Reach ``strength`` or more."""
        return cls(strength, None, True)

    def wins(self, evaluation: Evaluation, throws: int) -> bool:
        """Whether a result of ``evaluation`` after ``throws`` throws beats the target."""
        if evaluation.strength != self.strength:
            return evaluation.strength > self.strength
        if self.ties_win:
            return True
        return self.by_throws and self.throws is not None and throws < self.throws

    def goal(self, rules: Rules) -> Goal:
        """The goal "finish stronger than this target"."""
        return _target_goal(self, rules)

    def fresh_goal(self, rules: Rules) -> Goal:
        """:meth:`goal` built afresh, not kept among the memoised (for a goal asked once).

        It pays as :meth:`wins` says, row by row of the throws made: a result of another
        strength wins by it alone, so the throws decide only whether an equal one wins.
        """
        strengths = [evaluation.strength for evaluation in result_slots(rules)]
        rows: dict[bool, tuple[float, ...]] = {}
        payoff = []
        for throws in range(MAX_THROWS + 1):
            tie = self.ties_win or (
                self.by_throws and self.throws is not None and throws < self.throws
            )
            row = rows.get(tie)
            if row is None:
                mine, on_tie = self.strength, 1.0 if tie else 0.0
                row = rows[tie] = tuple([
                    (1.0 if strength > mine else 0.0) if strength != mine else on_tie
                    for strength in strengths
                ])
            payoff.append(row)
        return Goal(tuple(payoff), any(row != payoff[1] for row in payoff[1:]))


@lru_cache(maxsize=1024)
def _target_goal(target: Target, rules: Rules) -> Goal:
    return target.fresh_goal(rules)


# -- the model of a rule set: positions, keeps, flips, throws ------------------------------------


class _Model:
    """The turn's position graph under one rule set, independent of any goal."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        count = self.count = rules.dice_count
        table = rank_table(rules)
        full = list(itertools.combinations_with_replacement(range(6, 0, -1), count))
        self.full_index = {dice: i for i, dice in enumerate(full)}
        #: slot = 2 * full_index + hand
        self.evaluations: tuple[Evaluation, ...] = tuple(
            table.evaluate(dice, hand) for dice in full for hand in (False, True)
        )
        self.states: list[tuple[Dice, Dice]] = []
        self.state_index: dict[tuple[Dice, Dice], int] = {}
        self.stand_slot: list[int] = []
        #: Legal keeps per position: [0] right after a throw, [1] after a flip.
        self.keeps: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
        self.flip_to: list[int] = []
        self.kept: list[Dice] = [
            d for size in range(count) for d in itertools.combinations_with_replacement(
                range(6, 0, -1), size)
        ]
        self.kept_index = {d: i for i, d in enumerate(self.kept)}
        #: For each kept multiset: (position after the throw, probability, exact probability).
        self.outcomes: list[tuple[tuple[int, float, Fraction], ...]] = []
        for kept in self.kept:
            self.outcomes.append(tuple(
                (self.state(kept, sorted_dice(thrown)), float(p), p)
                for thrown, p in sorted_throw_outcomes(count - len(kept))
            ))
        # Positions reached by flipping are added while walking: finish their keeps and flips.
        done = 0
        while done < len(self.states):
            done = len(self.states)
            for index in range(len(self.flip_to), done):
                self._link(index)

    def state(self, laid: Dice, free: Dice) -> int:
        """The index of the position (laid, free), created on first use."""
        key = (laid, free)
        index = self.state_index.get(key)
        if index is None:
            index = self.state_index[key] = len(self.states)
            self.states.append(key)
            self.stand_slot.append(2 * self.full_index[sorted_dice(laid + free)] + (not laid))
        return index

    def _link(self, index: int) -> None:
        laid, free = self.states[index]
        for after_flip in (False, True):
            keeps = self.legal_keeps(laid, free, after_flip)
            self.keeps[after_flip].append(tuple(self.kept_index[k] for k in keeps))
        turned = self.flip_result(laid, free)
        self.flip_to.append(-1 if turned is None else self.state(*turned))

    def legal_keeps(self, laid: Dice, free: Dice, flipped: bool = False) -> list[Dice]:
        """Every multiset that may be out for the next throw (mirrors Game._keep_problem).

        After a flip the other six goes back into the cup: free sixes cannot be laid out.
        """
        rules = self.rules
        allowed = {1, 6} if rules.boerdeschock else {1}
        new_ok = [
            v for v in free
            if (not rules.keep_only_ones or v in allowed) and not (flipped and v == 6)
        ]
        laid_choices = _sub_multisets(laid) if rules.take_back else [laid]
        found: dict[Dice, None] = {}
        for old in laid_choices:
            for new in _sub_multisets(sorted_dice(new_ok)):
                keep = sorted_dice(old + new)
                if len(keep) < self.count:
                    found.setdefault(keep, None)
        return sorted(found, key=lambda d: (-len(d), [-v for v in d]))

    def flip_result(self, laid: Dice, free: Dice) -> tuple[Dice, Dice] | None:
        """(laid, free) after a flip, or None without two flippable sixes (mirrors Game._flip)."""
        if not self.rules.flip_sixes:
            return None
        laid_sixes = laid.count(6) if self.rules.boerdeschock else 0
        sixes = laid_sixes + free.count(6)
        if sixes < 2:
            return None
        turned = 2 if sixes >= 3 else 1
        kept_laid = tuple(v for v in laid if v != 6) if laid_sixes else laid
        kept_free = tuple(v for v in free if v != 6)
        return (
            sorted_dice(kept_laid + (1,) * turned),
            sorted_dice(kept_free + (6,) * (sixes - turned)),
        )


@cache
def _model(rules: Rules) -> _Model:
    return _Model(rules)


# -- the solver ----------------------------------------------------------------------------------


def _to_fraction(value: Number) -> Number:
    return Fraction(value)


class _Solver:
    """Optimal values for a tuple of goals at once (a vector per position), memoised.

    A solver of one goal (the computer players' and most queries') keeps its values as numbers,
    not vectors of one: the same sums and maxima in the same order, without a tuple built and
    taken apart at every position.
    """

    def __init__(self, rules: Rules, goals: tuple[Goal, ...], exact: bool) -> None:
        self.model = _model(rules)
        self.width = len(goals)
        self.exact = exact
        self.uses_throws = any(goal.uses_throws for goal in goals)
        self.bonus = 1 if rules.boerdeschock else 0

        #: Each goal's payoff of standing, per throws made: the goal's own row (by position, or
        #: by result slot), looked up when asked. No copy: a solver costs its memo only.
        self._rows: list[tuple[tuple[tuple[Number, ...], bool], ...]] = [
            tuple(
                (goal.by_state[throws], True) if goal.by_state is not None
                else (goal.payoff[throws], False)
                for goal in goals
            )
            for throws in range(MAX_THROWS + 1)
        ]
        self._convert: Callable[[Number], Number] = _to_fraction if exact else float
        self.zero: Vector = (Fraction(0),) * self.width if exact else (0.0,) * self.width
        self._values: dict[tuple[int, int, int, bool], Vector] = {}
        self._expected: dict[tuple[int, int, int], Vector] = {}
        self._single = self.width == 1
        self._value_of: dict[tuple[int, int, int, bool], Number] = {}
        self._expected_of: dict[tuple[int, int, int], Number] = {}

    def stand(self, throws: int, state: int) -> Vector:
        """The payoff of standing on position ``state`` after ``throws`` throws, per goal."""
        slot = self.model.stand_slot[state]
        convert = self._convert
        return tuple([
            convert(row[state] if by_state else row[slot]) for row, by_state in self._rows[throws]
        ])

    def _stand_one(self, throws: int, state: int) -> Number:
        """:meth:`stand` of a solver of one goal, as a number."""
        row, by_state = self._rows[throws][0]
        return self._convert(row[state] if by_state else row[self.model.stand_slot[state]])

    def _value_one(self, state: int, throws: int, limit: int, flipped: bool) -> Number:
        """:meth:`value` of a solver of one goal, as a number."""
        key = (state, throws if self.uses_throws else 0, limit - throws, flipped)
        found = self._value_of.get(key)
        if found is not None:
            return found
        best = self._stand_one(throws, state)
        if throws < limit:
            model = self.model
            candidates = [] if flipped else [best]
            if self.can_flip(state, throws, limit, flipped):
                candidates.append(
                    self._value_one(model.flip_to[state], throws, limit + self.bonus, True))
            for kept in model.keeps[flipped][state]:
                candidates.append(self._expected_one(kept, throws + 1, limit))
            if len(candidates) > 1:
                best = max(candidates)
            elif candidates:
                best = candidates[0]
        self._value_of[key] = best
        return best

    def _expected_one(self, kept: int, throws: int, limit: int) -> Number:
        """:meth:`expected` of a solver of one goal, as a number."""
        key = (kept, throws if self.uses_throws else 0, limit - throws)
        found = self._expected_of.get(key)
        if found is not None:
            return found
        total: Number = self.zero[0]
        value, exact = self._value_one, self.exact
        for state, p_float, p_exact in self.model.outcomes[kept]:
            total = total + (p_exact if exact else p_float) * value(state, throws, limit, False)
        self._expected_of[key] = total
        return total

    def can_flip(self, state: int, throws: int, limit: int, flipped: bool) -> bool:
        return (
            not flipped and throws < limit and self.model.flip_to[state] >= 0
            and limit + self.bonus <= MAX_THROWS
        )

    def value(self, state: int, throws: int, limit: int, flipped: bool) -> Vector:
        """The best action's payoff from a position just after a throw (or a flip)."""
        if self._single:
            return (self._value_one(state, throws, limit, flipped),)
        key = (state, throws if self.uses_throws else 0, limit - throws, flipped)
        found = self._values.get(key)
        if found is not None:
            return found
        best = self.stand(throws, state)
        if throws < limit:
            # Right after a flip the cup must be thrown: standing is no choice then.
            candidates = [] if flipped else [best]
            if self.can_flip(state, throws, limit, flipped):
                candidates.append(
                    self.value(self.model.flip_to[state], throws, limit + self.bonus, True))
            for kept in self.model.keeps[flipped][state]:
                candidates.append(self.expected(kept, throws + 1, limit))
            if len(candidates) > 1:
                best = tuple(map(max, *candidates))
            elif candidates:
                best = candidates[0]
        self._values[key] = best
        return best

    def expected(self, kept: int, throws: int, limit: int) -> Vector:
        """The payoff of throwing all but ``kept``, as throw number ``throws``."""
        if self._single:
            return (self._expected_one(kept, throws, limit),)
        key = (kept, throws if self.uses_throws else 0, limit - throws)
        found = self._expected.get(key)
        if found is not None:
            return found
        total: Vector = self.zero
        for state, p_float, p_exact in self.model.outcomes[kept]:
            p: Number = p_exact if self.exact else p_float
            after = self.value(state, throws, limit, False)
            total = tuple([t + p * v for t, v in zip(total, after, strict=True)])
        result = total
        self._expected[key] = result
        return result

    def start(self, limit: int) -> Vector:
        """The payoff of a whole turn with ``limit`` throws."""
        return self.expected(self.model.kept_index[()], 1, limit)

    def stand_first(self, throws: int, state: int) -> Number:
        """The first goal's payoff of :meth:`stand`."""
        return self._stand_one(throws, state) if self._single else self.stand(throws, state)[0]

    def value_first(self, state: int, throws: int, limit: int, flipped: bool) -> Number:
        """The first goal's payoff of :meth:`value`."""
        if self._single:
            return self._value_one(state, throws, limit, flipped)
        return self.value(state, throws, limit, flipped)[0]

    def expected_first(self, kept: int, throws: int, limit: int) -> Number:
        """The first goal's payoff of :meth:`expected`."""
        if self._single:
            return self._expected_one(kept, throws, limit)
        return self.expected(kept, throws, limit)[0]


#: Solvers kept: a computer player's and a hint's per situation (the opener's is asked every
#: round), the odds bots' reading of a turn stood on under the cup, the odds queries'. Each holds
#: its memo, up to about a megabyte.
@lru_cache(maxsize=48)
def _solver(rules: Rules, goals: tuple[Goal, ...], exact: bool = False) -> _Solver:
    return _Solver(rules, goals, exact)


def _goal(target: Target | Goal, rules: Rules) -> Goal:
    return target.goal(rules) if isinstance(target, Target) else target


def solve_start(rules: Rules, goals: Sequence[Goal], limit: int, exact: bool = False) -> Vector:
    """The chance of each goal over a whole turn of ``limit`` throws, each played optimally."""
    return _solver(rules, tuple(goals), exact).start(limit)


#: Goals solved together by :func:`solve_starts`.
BATCH_GOALS = 48


def solve_starts(
    rules: Rules, goals: Sequence[Goal], limits: Iterable[int]
) -> dict[int, Vector]:
    """:func:`solve_start` for each of ``limits``, on a solver of its own that goes when done:
    for a batch of many goals asked once (its memo, a vector of every goal per position, would
    otherwise stay among the memoised solvers)."""
    goals, limits = tuple(goals), tuple(limits)
    found: dict[int, Vector] = {limit: () for limit in limits}
    # A few goals at a time: each goal's values are the same whichever goals share its vectors,
    # and a batch's memo of vectors as wide as all of them would be the device's largest table.
    for first in range(0, len(goals), BATCH_GOALS):
        solver = _Solver(rules, goals[first:first + BATCH_GOALS], False)
        for limit in limits:
            found[limit] += solver.start(limit)
    return found


# -- queries -------------------------------------------------------------------------------------


def action_odds(
    position: Position, target: Target | Goal, rules: Rules, *, exact: bool = False
) -> list[ActionOdds]:
    """Every legal action in ``position`` with its chance to win, best first.

    Before the first throw the only action is to throw all dice. Equally good actions keep the
    order stand, flip, then throws with more dice kept first.
    """
    position.check(rules)
    solver = _solver(rules, (_goal(target, rules),), exact)
    model = solver.model
    count = model.count
    throws, limit = position.throws, position.limit
    if throws == 0:
        return [ActionOdds(ActionKind.THROW, solver.start(limit)[0], (), count)]
    state = model.state_index.get((position.laid_out, position.thrown))
    if state is None:
        raise IllegalActionError(
            f"position laid out {list(position.laid_out)}, thrown {list(position.thrown)} "
            "cannot occur under these rules"
        )
    return _actions(solver, state, throws, limit, position.flipped)


def _actions(
    solver: _Solver, state: int, throws: int, limit: int, flipped: bool
) -> list[ActionOdds]:
    model = solver.model
    slot = model.stand_slot[state]
    actions = [] if flipped and throws < limit else [ActionOdds(
        ActionKind.STAND, solver.stand(throws, state)[0], result=model.evaluations[slot].name
    )]
    if throws < limit:
        if solver.can_flip(state, throws, limit, flipped):
            after = model.flip_to[state]
            follow = _actions(solver, after, throws, limit + solver.bonus, True)
            new_laid, new_free = model.states[after]
            actions.append(ActionOdds(
                ActionKind.FLIP, follow[0].p, laid_out=new_laid, free=new_free, then=follow[0]
            ))
        for kept in model.keeps[flipped][state]:
            keep = model.kept[kept]
            actions.append(ActionOdds(
                ActionKind.THROW, solver.expected(kept, throws + 1, limit)[0], keep,
                model.count - len(keep),
            ))
    return _best_first(actions)


#: Values closer than this count as equal, so the listed order decides (stand before throwing).
TOLERANCE = 1e-12


def _best_first(actions: list[ActionOdds]) -> list[ActionOdds]:
    """Sort by chance, best first; near-equal chances keep their original order."""
    return [a for _, a in sorted(enumerate(actions), key=lambda x: (-_bucket(x[1].p), x[0]))]


def _bucket(p: Number) -> float:
    return round(float(p) / TOLERANCE) * TOLERANCE


@dataclass(frozen=True, slots=True)
class Choice:
    """An action without its odds: what a player does next."""

    kind: ActionKind
    #: For THROW: the dice out of the cup for the throw.
    keep: Dice = ()


def best_choice(position: Position, target: Target | Goal, rules: Rules) -> Choice:
    """The first of :func:`action_odds`, computed without describing every action."""
    solver = _solver(rules, (_goal(target, rules),), False)
    if position.throws == 0:
        return Choice(ActionKind.THROW)
    state = solver.model.state_index[(position.laid_out, position.thrown)]
    return _best_choice(solver, state, position.throws, position.limit, position.flipped)


def policy(
    rules: Rules, target: Target | Goal, *, shared: bool = True
) -> Callable[[Position], Choice]:
    """:func:`best_choice` for one goal as a function of the position (the solver looked up
    once: a turn's distribution asks it in every position). Not ``shared``: the solver is the
    policy's own, gone with it, not kept among the memoised ones (for a goal asked once: its
    memo would hold memory, for nothing, that the hint and the computer players need)."""
    goal = _goal(target, rules)
    solver = _solver(rules, (goal,), False) if shared else _Solver(rules, (goal,), False)
    index = solver.model.state_index

    def choose(position: Position) -> Choice:
        if position.throws == 0:
            return Choice(ActionKind.THROW)
        state = index[(position.laid_out, position.thrown)]
        return _best_choice(solver, state, position.throws, position.limit, position.flipped)

    return choose


def chance_playing(
    position: Position, choice: Choice, decide: Target | Goal, value: Target | Goal, rules: Rules
) -> float:
    """The payoff of ``value`` after ``choice`` in ``position`` when every later decision of the
    turn is :func:`best_choice` for ``decide`` (e.g. the chance of one goal, played for
    another)."""
    position.check(rules)
    decider = _solver(rules, (_goal(decide, rules),), False)
    stand = _solver(rules, (_goal(value, rules),), False).stand_first
    model = decider.model
    values: dict[tuple[int, int, int, bool], float] = {}

    def after(state: int, throws: int, limit: int, flipped: bool) -> float:
        key = (state, throws, limit, flipped)
        found = values.get(key)
        if found is None:
            chosen = (
                _best_choice(decider, state, throws, limit, flipped) if throws < limit
                else Choice(ActionKind.STAND)
            )
            found = values[key] = taking(chosen, state, throws, limit, flipped)
        return found

    def taking(chosen: Choice, state: int, throws: int, limit: int, flipped: bool) -> float:
        if chosen.kind is ActionKind.STAND:
            return float(stand(throws, state))
        if chosen.kind is ActionKind.FLIP:
            return after(model.flip_to[state], throws, limit + decider.bonus, True)
        return sum(
            p * after(next_state, throws + 1, limit, False)
            for next_state, p, _ in model.outcomes[model.kept_index[chosen.keep]]
        )

    if position.throws == 0:
        return taking(Choice(ActionKind.THROW), -1, 0, position.limit, False)
    state = model.state_index[(position.laid_out, position.thrown)]
    return taking(choice, state, position.throws, position.limit, position.flipped)


def action_chances(
    position: Position, targets: Sequence[Target | Goal], rules: Rules
) -> list[tuple[Choice, Vector]]:
    """Every legal action in ``position`` with its chance of each of ``targets`` (each played
    optimally for its own goal after it), in the order stand, flip, then throws with more dice
    kept first. Before the first throw the only action is to throw all dice."""
    position.check(rules)
    solver = _solver(rules, tuple(_goal(target, rules) for target in targets), False)
    model = solver.model
    throws, limit, flipped = position.throws, position.limit, position.flipped
    if throws == 0:
        return [(Choice(ActionKind.THROW), solver.start(limit))]
    state = model.state_index.get((position.laid_out, position.thrown))
    if state is None:
        raise IllegalActionError(
            f"position laid out {list(position.laid_out)}, thrown {list(position.thrown)} "
            "cannot occur under these rules"
        )
    chances: list[tuple[Choice, Vector]] = []
    if not flipped or throws >= limit:
        chances.append((Choice(ActionKind.STAND), solver.stand(throws, state)))
    if throws < limit:
        if solver.can_flip(state, throws, limit, flipped):
            after = solver.value(model.flip_to[state], throws, limit + solver.bonus, True)
            chances.append((Choice(ActionKind.FLIP), after))
        for kept in model.keeps[flipped][state]:
            choice = Choice(ActionKind.THROW, model.kept[kept])
            chances.append((choice, solver.expected(kept, throws + 1, limit)))
    return chances


def pick_within(chances: Sequence[tuple[Choice, Vector]], margin: float) -> Choice:
    """Of actions weighed for two goals (:func:`action_chances` of ``(keep, prefer)``), the best
    for ``prefer`` among those whose chance of ``keep`` is at most ``margin`` below the best
    one's; equally good ones keep their listed order."""
    best_keep = max(float(values[0]) for _, values in chances)
    allowed = [
        (index, choice, values) for index, (choice, values) in enumerate(chances)
        if float(values[0]) >= best_keep - margin - TOLERANCE
    ]
    return min(allowed, key=lambda entry: (-_bucket(entry[2][1]), entry[0]))[1]


def best_within(
    position: Position, keep: Target | Goal, prefer: Target | Goal, margin: float, rules: Rules
) -> Choice:
    """The action best for ``prefer`` that gives up at most ``margin`` of the chance of ``keep``
    against the action best for ``keep`` (:func:`pick_within`)."""
    return pick_within(action_chances(position, (keep, prefer), rules), margin)


def _best_choice(solver: _Solver, state: int, throws: int, limit: int, flipped: bool) -> Choice:
    model = solver.model
    best = _STAND
    best_key = -_bucket(solver.stand_first(throws, state))
    if throws >= limit:
        return best
    if flipped:
        best_key = 1.0  # no standing right after a flip: any throw beats it
    if solver.can_flip(state, throws, limit, flipped):
        key = -_bucket(solver.value_first(model.flip_to[state], throws, limit + solver.bonus, True))
        if key < best_key:
            best, best_key = _FLIP, key
    best_kept = -1
    expected = solver.expected_first
    for kept in model.keeps[flipped][state]:
        key = -_bucket(expected(kept, throws + 1, limit))
        if key < best_key:
            best_kept, best_key = kept, key
    return best if best_kept < 0 else Choice(ActionKind.THROW, model.kept[best_kept])


#: The choices without dice, made once (a turn's distribution asks for thousands).
_STAND = Choice(ActionKind.STAND)
_FLIP = Choice(ActionKind.FLIP)


def chance_to_beat(
    position: Position, target: Target | Goal, rules: Rules, *, exact: bool = False
) -> Number:
    """The chance to win from ``position`` with optimal play (the best action's chance)."""
    return action_odds(position, target, rules, exact=exact)[0].p


# -- tables --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KindShare:
    """How many of the equally likely outcomes of one throw are of a kind."""

    kind: Kind
    name: str
    outcomes: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.outcomes, self.total)


_KIND_NAMES = {
    Kind.SCHOCK_AUS: "Schock aus", Kind.SCHOCK: "Schock", Kind.GENERAL: "General",
    Kind.STRASSE: "Straße", Kind.HAUSNUMMER: "Hausnummer", Kind.JULE: "Jule",
    Kind.NEUNER: "Neuner", Kind.SIEBENER: "Siebener", Kind.ACHTER: "Achter",
}


def single_throw(rules: Rules) -> list[KindShare]:
    """The kinds of one throw from the hand over all 6**n ordered outcomes, strongest first."""
    table = rank_table(rules)
    count = rules.dice_count
    counts: dict[Kind, int] = {}
    best: dict[Kind, int] = {}
    for dice in itertools.product(range(1, 7), repeat=count):
        evaluation = table.evaluate(dice, True)
        counts[evaluation.kind] = counts.get(evaluation.kind, 0) + 1
        best[evaluation.kind] = max(best.get(evaluation.kind, 0), evaluation.strength)
    kinds = sorted(counts, key=lambda k: -best[k])
    return [
        KindShare(k, rules.name_of(k.value) or _KIND_NAMES[k], counts[k], 6**count) for k in kinds
    ]


@dataclass(frozen=True, slots=True)
class Level:
    """A row of the reach table: a throw and everything stronger."""

    name: str
    strength: int


def levels(rules: Rules) -> list[Level]:
    """The rows of the reach table, strongest first: Schock aus, the special throws, each
    Schock, then General, Straße and Hausnummer as kinds (their weakest member or better), each
    kind under the table's own name where the rules rename it, as :func:`single_throw` names it."""
    ranking = rank_table(rules).ranking
    weakest: dict[str, int] = {}
    for evaluation in ranking:
        if evaluation.kind in (Kind.SCHOCK, Kind.JULE, Kind.NEUNER, Kind.SIEBENER, Kind.ACHTER):
            name = evaluation.name
        else:
            name = rules.name_of(evaluation.kind.value) or _KIND_NAMES[evaluation.kind]
        weakest[name] = min(weakest.get(name, evaluation.strength), evaluation.strength)
    return sorted((Level(n, s) for n, s in weakest.items()), key=lambda lv: -lv.strength)


@dataclass(frozen=True, slots=True)
class ReachRow:
    """The chance to reach ``level`` (or better) within 1, 2, ... throws, played for that."""

    level: Level
    chances: tuple[Number, ...]


def reach_table(
    rules: Rules, max_throws: int = 3, *, exact: bool = False
) -> list[ReachRow]:
    """For each level: the chance to reach it within 1..max_throws throws, optimal play for it."""
    rows = levels(rules)
    goals = tuple(Target.at_least(level.strength).goal(rules) for level in rows)
    solver = _solver(rules, goals, exact)
    by_limit = [solver.start(limit) for limit in range(1, max_throws + 1)]
    return [
        ReachRow(level, tuple(values[i] for values in by_limit))
        for i, level in enumerate(rows)
    ]


def build_tables(rules: Rules) -> None:
    """Build everything a rule set's odds need (the position graph and the reach table)."""
    single_throw(rules)
    reach_table(rules)


# -- whole turns under a policy ------------------------------------------------------------------

#: How a turn ended: (laid-out dice, dice of the last throw still free, throws made).
TurnEnd: TypeAlias = tuple[Dice, Dice, int]


def turn_distribution(
    rules: Rules, limit: int, choose: Callable[[Position], Choice]
) -> dict[TurnEnd, float]:
    """The distribution of how a turn of ``limit`` throws ends when ``choose`` plays it.

    ``choose`` is asked in every position the turn can reach (not after the last throw, where the
    engine ends the turn). The result maps each end to its probability; the hand flag of an end is
    ``not laid_out``. Raises :class:`IllegalActionError` if ``choose`` picks an illegal action.
    """
    states = _model(rules).states

    def decide(state: int, throws: int, turn_limit: int, flipped: bool) -> Choice:
        laid, free = states[state]
        return choose(Position(laid, free, throws, turn_limit, flipped))

    return _distribution_of(rules, limit, decide)


def policy_distribution(rules: Rules, limit: int, target: Target | Goal) -> dict[TurnEnd, float]:
    """:func:`turn_distribution` of :func:`policy` ``(rules, target, shared=False)``, asked by
    position number: no :class:`Position` made and looked up again in every position."""
    solver = _Solver(rules, (_goal(target, rules),), False)

    def decide(state: int, throws: int, turn_limit: int, flipped: bool) -> Choice:
        return _best_choice(solver, state, throws, turn_limit, flipped)

    return _distribution_of(rules, limit, decide)


def _distribution_of(
    rules: Rules, limit: int, decide: Callable[[int, int, int, bool], Choice]
) -> dict[TurnEnd, float]:
    """:func:`turn_distribution`, ``decide`` asked with (position number, throws, limit,
    flipped)."""
    model = _model(rules)
    bonus = 1 if rules.boerdeschock else 0
    ends: dict[TurnEnd, float] = {}
    frontier: dict[tuple[int, int, bool], float] = {}
    for state, p, _ in model.outcomes[model.kept_index[()]]:
        frontier[(state, limit, False)] = frontier.get((state, limit, False), 0.0) + p
    throws = 1
    while frontier:
        following: dict[tuple[int, int, bool], float] = {}
        pending = list(frontier.items())
        while pending:
            (state, turn_limit, flipped), p = pending.pop()
            laid, free = model.states[state]
            if throws >= turn_limit:
                end = (laid, free, throws)
                ends[end] = ends.get(end, 0.0) + p
                continue
            choice = decide(state, throws, turn_limit, flipped)
            if choice.kind is ActionKind.STAND:
                if flipped:
                    raise IllegalActionError("no stand right after a flip: the cup must be thrown")
                end = (laid, free, throws)
                ends[end] = ends.get(end, 0.0) + p
            elif choice.kind is ActionKind.FLIP:
                target = model.flip_to[state]
                if flipped or target < 0 or turn_limit + bonus > MAX_THROWS:
                    raise IllegalActionError(f"cannot flip with laid out {laid}, thrown {free}")
                pending.append(((target, turn_limit + bonus, True), p))
            else:
                kept = model.kept_index.get(choice.keep, -1)
                if kept not in model.keeps[flipped][state]:
                    raise IllegalActionError(
                        f"cannot keep {list(choice.keep)} with laid out {laid}, thrown {free}"
                    )
                for after, q, _ in model.outcomes[kept]:
                    key = (after, turn_limit, False)
                    following[key] = following.get(key, 0.0) + p * q
        frontier = following
        throws += 1
    return ends


def legal_keeps(position: Position, rules: Rules) -> list[Dice]:
    """The multisets that may be out for the next throw from ``position``."""
    if position.throws == 0:
        return [()]
    return _model(rules).legal_keeps(position.laid_out, position.thrown, position.flipped)


def flip_result(position: Position, rules: Rules) -> tuple[Dice, Dice] | None:
    """(laid out, free) after flipping in ``position``, or None when no flip is possible."""
    if position.flipped or position.throws == 0 or position.throws >= position.limit:
        return None
    return _model(rules).flip_result(position.laid_out, position.thrown)


def clear_caches() -> None:
    """Forget every built table (for benchmarks that time building them)."""
    _model.cache_clear()
    _solver.cache_clear()
    _target_goal.cache_clear()
    rank_table.cache_clear()
