"""Computer players: strategies that decide a turn's next action, and a driver for the engine.

A *strategy* plays on the odds module's multiset positions (:class:`~engine.odds.Position`) and
returns a :class:`~engine.odds.Choice`; what it may know of the round is condensed into a hashable
*situation* (:meth:`Strategy.situation`), so a simulator can tabulate a strategy's whole turn per
situation (:mod:`engine.simulation`). A :class:`Bot` wraps a strategy for the engine's
:class:`~engine.game.Game`: it turns the game's turn into a position and the choice into a
:class:`Move` with die positions. Bots draw no random numbers; the dice come from the caller's
``RandomSource`` (see :func:`play_turn`).

What a bot sees is what a player at the table sees (:class:`View`): its place in the round, the
limit, and the earlier turns of the round as :class:`Shown` results. Under ``hidden_last_throw``
only the laid-out dice and the number of throws are shown until the reveal.

Strategies, by name (:func:`strategy_names`):

* ``threshold``: a rule of thumb. Stand on a General or better (any Schock, Schock aus), flip two
  sixes, keep ones, keep sixes when there is no one; otherwise throw the rest.
* ``odds``: exact odds (:mod:`engine.odds`) for what the rules reward: not being the round's
  loser, and making the loser pay more (:func:`avoid_goal`). It reads the earlier results as the
  table saw them (a result under the cup: the hidden dice's throw, given that the player stood on
  it), and counts each later player as ``odds-v1`` in the next seat, seeing what this turn shows,
  under the limit it sets. So the last player plays against the lowest throw on the table, and
  the opener weighs a strong throw against the limit it sets for everyone. The hint on the device
  (:mod:`firmware.advice`) plays by the same objective, but lets the Deckel decide only between
  actions at most 0.1 percentage points apart in the chance of not being the loser.

Kept for comparisons only (:data:`COMPARISON_STRATEGIES`; ``schocken simulate`` offers it, the
device does not):

* ``odds-v1``: the odds bot as it was, and the model ``odds`` makes of the other players. Not the
  round's lowest: the chance of being below every earlier throw (a hidden last throw counted as a
  fresh throw of the hidden dice) times the chance that every later player, knowing this result
  and playing to beat it under the limit this turn sets, does.
"""

from __future__ import annotations

import enum
from array import array
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Protocol, cast

from engine.chance import RandomSource, sorted_throw_outcomes
from engine.errors import IllegalActionError
from engine.events import Event, RoundOver, TurnOver
from engine.game import Game, GameSetup, Phase, SeenTurn, TurnState
from engine.odds import (
    MAX_THROWS,
    ActionKind,
    Choice,
    Dice,
    Goal,
    Position,
    Target,
    Vector,
    action_chances,
    best_choice,
    flip_result,
    goal_by_state,
    goal_from,
    legal_keeps,
    most_throws,
    policy,
    policy_distribution,
    result_slots,
    solve_starts,
    sorted_dice,
    ties_by_throws,
)
from engine.odds import clear_caches as clear_odds_caches
from engine.rules import Rules
from engine.strategy_names import strategy_names
from engine.throws import Evaluation, rank_table

# -- what a bot sees and does --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """A finished turn of this round as the other players see it."""

    player: str
    throws: int
    laid_out: Dice
    #: The dice stood with, or None while the last throw stays under the cup.
    dice: Dice | None
    hand: bool | None

    @classmethod
    def of(cls, seen: SeenTurn) -> Shown:
        """A finished turn of the engine's table view, as a strategy reads it."""
        hand = seen.hand if seen.dice is not None else None
        return cls(seen.player, seen.throws, seen.laid_out_values, seen.dice, hand)


@dataclass(frozen=True, slots=True)
class View:
    """What the player whose turn it is knows about the round."""

    #: Place in this round's throw order: 0 opens the round and sets the limit.
    seat: int
    #: Players in this round.
    players: int
    #: The limit the opener set, None while the opener is still throwing.
    limit: int | None
    #: The round's finished turns, in throw order.
    shown: tuple[Shown, ...]

    @property
    def later(self) -> int:
        """Players still to throw after this one."""
        return self.players - self.seat - 1


class MoveKind(enum.Enum):
    ROLL = "roll"
    FLIP = "flip"
    STAND = "stand"
    BLIND = "blind"


@dataclass(frozen=True, slots=True)
class Move:
    """A bot's decision: for ROLL, ``keep`` are the die positions laid out for the throw."""

    kind: MoveKind
    keep: tuple[int, ...] = ()


class Strategy(Protocol):
    """How a computer player plays a turn."""

    name: str
    #: False when :meth:`situation` ignores the view (the simulator then skips building it).
    uses_view: bool

    def situation(self, view: View, rules: Rules) -> Hashable:
        """The part of ``view`` the strategy's play depends on."""
        ...

    def choose(self, position: Position, situation: Hashable, rules: Rules) -> Choice:
        """The next action in ``position`` (after at least one throw, before the limit)."""
        ...

    def prepare(self, rules: Rules) -> None:
        """Build the tables :meth:`choose` needs under ``rules`` ahead of play (a caller may do
        it on another thread; later choices find them built)."""
        ...


class Bot(Protocol):
    """A computer player for the engine's Game."""

    name: str

    def decide(self, game: Game, view: View, rng: RandomSource) -> Move:
        """The next action of the player whose turn it is."""
        ...


class StrategyBot:
    """A :class:`Bot` that plays a :class:`Strategy` (never draws from ``rng``)."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy.name

    def decide(self, game: Game, view: View, rng: RandomSource) -> Move:
        move = self.obvious_move(game)
        if move is not None:
            return move
        return self.move_for(game, self.question(game, view)())

    def obvious_move(self, game: Game) -> Move | None:
        """The move that needs no thought (the first throw; standing with no throw left), or
        None: then the strategy must choose (:meth:`question`)."""
        turn = game.turn
        if turn is None:
            raise IllegalActionError("no turn is in progress")
        if turn.throws == 0:
            return Move(MoveKind.ROLL)
        if not game.can_roll():
            return Move(MoveKind.STAND)
        return None

    def question(self, game: Game, view: View) -> Callable[[], Choice]:
        """The strategy's choice in the game's position, as a call that reads nothing of
        ``game`` (a caller may run it on another thread while the game waits)."""
        turn = game.turn
        if turn is None:
            raise IllegalActionError("no turn is in progress")
        strategy, rules = self.strategy, game.rules
        position = Position.from_turn(turn)
        situation = strategy.situation(view, rules)
        return lambda: strategy.choose(position, situation, rules)

    def move_for(self, game: Game, choice: Choice) -> Move:
        """The move that carries out ``choice`` on the game's dice."""
        turn = game.turn
        if turn is None:
            raise IllegalActionError("no turn is in progress")
        if choice.kind is ActionKind.STAND:
            return Move(MoveKind.STAND)
        if choice.kind is ActionKind.FLIP:
            return Move(MoveKind.FLIP)
        return Move(MoveKind.ROLL, keep_positions(turn, choice.keep))


def keep_positions(turn: TurnState, keep: Dice) -> tuple[int, ...]:
    """Die positions showing the values ``keep``: laid-out dice first, then free ones."""
    wanted = Counter(keep)
    chosen: list[int] = []
    for laid_first in (True, False):
        for position, (value, out) in enumerate(zip(turn.values, turn.laid_out, strict=True)):
            if out is laid_first and value is not None and wanted[value] > 0:
                wanted[value] -= 1
                chosen.append(position)
    if sum(wanted.values()):
        raise IllegalActionError(f"cannot keep {list(keep)}: the dice show {list(turn.values)}")
    return tuple(sorted(chosen))


# -- threshold: a rule of thumb ------------------------------------------------------------------


class ThresholdStrategy:
    """Stand on ``stand_at`` or better; flip two sixes; keep ones, or sixes when there is no one."""

    uses_view = False

    def __init__(self, stand_at: str = "General", name: str = "threshold") -> None:
        self.name = name
        self.stand_at = stand_at

    def situation(self, view: View, rules: Rules) -> Hashable:
        return None

    def prepare(self, rules: Rules) -> None:
        _weakest(rules, self.stand_at)

    def choose(self, position: Position, situation: Hashable, rules: Rules) -> Choice:
        table = rank_table(rules)
        current = table.evaluate((*position.laid_out, *position.thrown), position.hand)
        if current.strength >= _weakest(rules, self.stand_at) and not position.flipped:
            return Choice(ActionKind.STAND)
        if flip_result(position, rules) is not None:
            return Choice(ActionKind.FLIP)
        legal = legal_keeps(position, rules)
        ones = sorted_dice((*position.laid_out, *(v for v in position.thrown if v == 1)))
        keep = ones
        if 1 not in ones:
            keep = sorted_dice((*position.laid_out, *(v for v in position.thrown if v == 6)))
        if keep not in legal:
            keep = position.laid_out if position.laid_out in legal else legal[-1]
        return Choice(ActionKind.THROW, keep)


@cache
def _weakest(rules: Rules, name: str) -> int:
    """The strength of the weakest throw whose usual name starts with ``name`` (e.g. "General"),
    whatever the table calls it (``[names]`` changes names, never strengths)."""
    usual = replace(rules, names=()) if rules.names else rules
    strengths = [e.strength for e in rank_table(usual).ranking if e.name.startswith(name)]
    if not strengths:
        raise IllegalActionError(f"no throw called {name!r} under rules {rules.name!r}")
    return min(strengths)


# -- odds-v1: the odds bot as it was, the model of the other players ----------------------------


#: An earlier result as the odds strategy models it: throws, laid-out dice, dice if shown.
_Earlier = tuple[int, Dice, Dice | None, bool | None]
#: The odds strategy's situation: opener?, players after, the round's limit, earlier results.
_OddsSituation = tuple[bool, int, int | None, tuple[_Earlier, ...]]


class LegacyOddsStrategy:
    """``odds-v1``: not the round's lowest, with every later player assumed to know this turn's
    result and to play to beat it (see the module docstring).

    It stays as the model :class:`OddsStrategy` makes of the other players, and as a named
    strategy for ``schocken simulate``'s comparison; the device does not offer it.
    """

    uses_view = True

    def __init__(self, name: str = "odds-v1") -> None:
        self.name = name

    def situation(self, view: View, rules: Rules) -> Hashable:
        earlier = tuple(sorted(
            (s.throws, s.laid_out, s.dice, s.hand) for s in view.shown
        ))
        return view.seat == 0, view.later, view.limit, earlier

    def prepare(self, rules: Rules) -> None:
        _beaten_by_later(rules)  # solves on the position graph, so that is built too

    def choose(self, position: Position, situation: Hashable, rules: Rules) -> Choice:
        return best_choice(position, _odds_goal(rules, situation), rules)


def _build_odds_goal(rules: Rules, situation: Hashable) -> Goal:
    """The ``odds-v1`` strategy's goal in ``situation`` (not memoised: see :func:`_odds_goal`)."""
    first, later, limit, earlier = cast(_OddsSituation, situation)
    below = [_chance_below(rules, entry) for entry in earlier]
    beaten = _beaten_by_later(rules) if later else None

    def payoff(evaluation: Evaluation, throws: int) -> float:
        if throws == 0:
            return 0.0
        lowest = 1.0
        for chance in below:
            lowest *= chance(evaluation, throws)
        if later and beaten is not None:
            limit_for_later = min(throws, rules.max_throws) if first or limit is None else limit
            lowest *= beaten(evaluation, throws, limit_for_later) ** later
        return 1.0 - lowest

    return goal_from(rules, payoff, most_throws(rules, limit or rules.max_throws))


#: The ``odds-v1`` strategy's goal in a situation, memoised.
_odds_goal = lru_cache(maxsize=4096)(_build_odds_goal)


def _chance_below(rules: Rules, entry: _Earlier) -> Callable[[Evaluation, int], float]:
    """For an earlier result: the chance that a later result (evaluation, throws) is below it."""
    throws, laid, dice, hand = entry
    table = rank_table(rules)
    if dice is not None:
        spread = [(table.evaluate(dice, bool(hand)), 1.0)]
    else:
        hidden = rules.dice_count - len(laid)
        spread = [
            (table.evaluate(sorted_dice((*laid, *thrown)), not laid), float(p))
            for thrown, p in sorted_throw_outcomes(hidden)
        ]

    # Asked for every result slot at every count of throws: by strength and tie alone.
    found: dict[tuple[int, bool], float] = {}

    def chance(evaluation: Evaluation, ours: int) -> float:
        key = (evaluation.strength, ours < throws)
        total = found.get(key)
        if total is None:
            total = 0.0
            for theirs, p in spread:
                if evaluation.strength < theirs.strength or (
                    evaluation.strength == theirs.strength
                    and not (ties_by_throws(theirs.kind, rules) and ours < throws)
                ):
                    total += p
            found[key] = total
        return total

    return chance


@cache
def _beaten_by_later(rules: Rules) -> Callable[[Evaluation, int, int], float]:
    """The chance that one later player, playing to beat a result, beats it: by strength, tie
    rule, the result's throws and the later player's limit. All solved in one batch."""
    strengths = sorted({(e.strength, ties_by_throws(e.kind, rules)) for e in result_slots(rules)})
    most = min(MAX_THROWS, rules.max_throws + 2)
    keys: list[tuple[int, bool, int]] = []
    for strength, by_throws in strengths:
        for throws in range(1, most + 1) if by_throws else (0,):
            keys.append((strength, by_throws, throws))
    # The goals and their batch solve are needed once: built here, not kept among the memoised.
    goals = [
        Target(strength, throws or None, False, by_throws).fresh_goal(rules)
        for strength, by_throws, throws in keys
    ]
    index = {key: i for i, key in enumerate(keys)}
    by_limit = solve_starts(rules, goals, range(1, rules.max_throws + 1))

    def beaten(evaluation: Evaluation, throws: int, limit: int) -> float:
        by_throws = ties_by_throws(evaluation.kind, rules)
        key = (evaluation.strength, by_throws, min(throws, most) if by_throws else 0)
        return float(by_limit[limit][index[key]])

    return beaten


# -- odds: not the round's loser, against what the table has seen ------------------------------

#: A finished turn as the odds strategy keeps it: throws, laid-out dice (only while the dice are
#: hidden), the dice and the hand flag if shown.
_Entry = tuple[int, Dice, Dice | None, bool | None]
#: The odds strategy's situation: players after this one, the round's limit (None: this player
#: opens and sets it), the round's finished turns in throw order.
_AvoidSituation = tuple[int, int | None, tuple[_Entry, ...]]
#: A distribution of results as scores (:func:`_score`), ascending, with P(score >= each):
#: packed arrays of machine integers and doubles (thousands are kept: a fifth of tuples' size).
_Scores = tuple["array[int]", "array[float]"]


class OddsStrategy:
    """Maximise the chance of not being the round's loser (see the module docstring).

    The payoff of standing on a position is 1 - P(every earlier result is at least as strong) *
    P(every later player ends stronger). An earlier result the table saw counts as it is; one
    under the cup is the hidden dice's throw *given that the player stood on it* as the
    ``odds-v1`` bot in that player's place would have. Each later player is the ``odds-v1`` bot in
    the next seat, seeing the earlier results and what this turn shows (under
    ``hidden_last_throw`` its laid-out dice and throws only), under the limit the opener's throws
    set. Everything is computed exactly from :mod:`engine.odds`; nothing is sampled.
    """

    uses_view = True

    def __init__(self, name: str = "odds") -> None:
        self.name = name

    def situation(self, view: View, rules: Rules) -> Hashable:
        return view.later, view.limit, tuple(_entry(s) for s in view.shown)

    def prepare(self, rules: Rules) -> None:
        _beaten_by_later(rules)  # the model of the other players; builds the position graph too

    def choose(self, position: Position, situation: Hashable, rules: Rules) -> Choice:
        return best_choice(position, avoid_goal(rules, situation), rules)


def avoid_chances(
    position: Position, situation: Hashable, rules: Rules
) -> list[tuple[Choice, Vector]]:
    """Every legal action in ``position`` with two values after it: the chance of not being the
    round's loser (played for that alone), and the objective with the Deckel share (played for
    it); see :func:`engine.odds.action_chances`. The hint chooses by them
    (:mod:`firmware.advice`)."""
    keep = avoid_goal(rules, situation, share=False)
    return action_chances(position, (keep, avoid_goal(rules, situation)), rules)


def prepare_opening(rules: Rules, players: int) -> None:
    """Build the opener's goals at a table of ``players`` (the first question of every round,
    and the one with the most to compute: every throw the opener may stand on sets the limit)."""
    situation = (players - 1, None, ())
    avoid_goal(rules, situation)
    avoid_goal(rules, situation, share=False)


def _entry(shown: Shown) -> _Entry:
    # Shown dice make the laid-out ones irrelevant: one key for every way to reach them.
    if shown.dice is not None:
        return shown.throws, (), shown.dice, shown.hand
    return shown.throws, shown.laid_out, None, None


def _score(rules: Rules, evaluation: Evaluation, throws: int) -> int:
    """An integer that orders results as the settlement does (the later of equal ones is
    lower): strength first, then fewer throws where the tie rule counts them."""
    span = MAX_THROWS + 1
    if ties_by_throws(evaluation.kind, rules):
        return evaluation.strength * span + span - throws
    return evaluation.strength * span


def _at_least(scores: _Scores, score: int) -> float:
    """P(a result of ``scores`` is at least ``score``)."""
    values, tail = scores
    index = bisect_left(values, score)
    return tail[index] if index < len(values) else 0.0


def _distribution(pairs: Iterable[tuple[int, float]]) -> _Scores:
    merged: dict[int, float] = {}
    for score, p in pairs:
        merged[score] = merged.get(score, 0.0) + p
    total = sum(merged.values())
    values = sorted(merged)
    tail: list[float] = []
    running = 0.0
    for score in reversed(values):
        running += merged[score] / total
        tail.append(running)
    return array("q", values), array("d", reversed(tail))


#: The weight of the Deckel share in the odds strategy's objective (see :func:`avoid_goal`;
#: docs/odds.md measures other weights). The hint lets it decide only between actions close in
#: the chance of not being the loser (:mod:`firmware.advice`).
DECKEL_WEIGHT = 0.1

#: The objectives of the situations met last (the hint's and the computer players' alike), the
#: least recently asked dropped beyond :data:`AVOID_GOALS_KEPT`: an evening meets thousands.
_avoid_goals: OrderedDict[tuple[Rules, Hashable, bool], Goal] = OrderedDict()
#: How many objectives are kept (a round of ten asks about ten, a hint two more).
AVOID_GOALS_KEPT = 48


def avoid_goal(rules: Rules, situation: Hashable, *, share: bool = True) -> Goal:
    """The odds strategy's goal in ``situation`` (:meth:`OddsStrategy.situation`).

    Standing on a result pays the chance of not being the round's loser plus, with ``share``,
    :data:`DECKEL_WEIGHT` times the chance that the result is the round's highest times the share
    of all Deckel it makes the loser take. Without ``share``: the chance of not being the loser
    alone (the figure the hint shows).
    """
    key = (rules, situation, share)
    found = _avoid_goals.get(key)
    if found is None:
        found = _avoid_goals[key] = _build_avoid_goal(
            rules, cast(_AvoidSituation, situation), share
        )
        if len(_avoid_goals) > AVOID_GOALS_KEPT:
            _avoid_goals.popitem(last=False)
    else:
        _avoid_goals.move_to_end(key)
    return found


def _build_avoid_goal(rules: Rules, situation: _AvoidSituation, share: bool) -> Goal:
    later, limit, earlier = situation
    players = len(earlier) + 1 + later
    table = rank_table(rules)
    beliefs = [_belief(rules, players, limit, earlier[: seat + 1]) for seat in range(len(earlier))]
    hidden = rules.hidden_last_throw

    def payoff(laid: Dice, free: Dice, throws: int) -> float:
        dice = sorted_dice((*laid, *free))
        evaluation = table.evaluate(dice, not laid)
        ours = _score(rules, evaluation, throws)
        lowest = 1.0
        for belief in beliefs:
            lowest *= _at_least(belief, ours)
        highest = 1.0
        for belief in beliefs:
            highest *= 1.0 - _at_least(belief, ours)
        if later:
            shown: _Entry = (throws, laid, None, None) if hidden else (throws, (), dice, not laid)
            their_limit = limit if limit is not None else min(throws, rules.max_throws)
            after = _later_scores(rules, later - 1, their_limit, tuple(sorted((*earlier, shown))))
            beaten = _at_least(after, ours + 1)
            lowest *= beaten ** later
            highest *= (1.0 - beaten) ** later
        if share:
            deckel = evaluation.deckel or rules.deckel  # 0: all of them (Schock aus)
            return 1.0 - lowest + DECKEL_WEIGHT * highest * min(deckel, rules.deckel) / rules.deckel
        return 1.0 - lowest

    return goal_by_state(rules, payoff, most_throws(rules, limit or rules.max_throws))


@lru_cache(maxsize=4096)
def _belief(rules: Rules, players: int, limit: int | None, turns: tuple[_Entry, ...]) -> _Scores:
    """What the last of ``turns`` (the round's so far, in throw order) ended with, as the table
    can tell: the dice if shown; else the hidden dice's throw, kept only where ``odds-v1`` in
    that seat would have stood on it (every throw when the limit left no choice)."""
    seat = len(turns) - 1
    throws, laid, dice, hand = turns[-1]
    table = rank_table(rules)
    if dice is not None:
        return _distribution([(_score(rules, table.evaluate(dice, bool(hand)), throws), 1.0)])
    their_limit = rules.max_throws if seat == 0 or limit is None else limit
    outcomes = [
        (_score(rules, table.evaluate(sorted_dice((*laid, *thrown)), not laid), throws), float(p),
         thrown)
        for thrown, p in sorted_throw_outcomes(rules.dice_count - len(laid))
    ]
    if throws < their_limit:
        earlier = tuple(sorted(turns[:-1]))
        situation = (seat == 0, players - seat - 1, None if seat == 0 else limit, earlier)
        choose = policy(rules, _odds_goal(rules, situation))
        stood = []
        for score, p, thrown in outcomes:
            try:
                choice = choose(Position(laid, thrown, throws, their_limit))
            except KeyError:  # not a position of these rules: no evidence either way
                continue
            if choice.kind is ActionKind.STAND:
                stood.append((score, p, thrown))
        if stood:  # else the model cannot explain the stand: fall back to a fresh throw
            outcomes = stood
    return _distribution((score, p) for score, p, _ in outcomes)


@lru_cache(maxsize=4096)
def _later_scores(
    rules: Rules, after: int, limit: int, earlier: tuple[_Entry, ...]
) -> _Scores:
    """How the next player's turn ends, playing ``odds-v1`` with ``after`` players still to
    come, under ``limit``, having seen ``earlier`` (sorted)."""
    # Each such goal is asked once (this function is memoised): built afresh and solved on a
    # solver of its own, both gone once the distribution is known.
    goal = _build_odds_goal(rules, (False, after, limit, earlier))
    ends = policy_distribution(rules, limit, goal)
    table = rank_table(rules)
    return _distribution(
        (_score(rules, table.evaluate(sorted_dice((*laid, *free)), not laid), throws), p)
        for (laid, free, throws), p in ends.items()
    )

# -- registry ------------------------------------------------------------------------------------

#: Strategy name -> a function making a fresh strategy (the names are those of
#: :mod:`engine.strategy_names`, which lists them without loading the strategies).
STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "threshold": ThresholdStrategy,
    "odds": OddsStrategy,
}

#: Strategies kept only for ``schocken simulate``'s comparisons
#: (:data:`engine.strategy_names.COMPARISON_NAMES`); the device does not offer them.
COMPARISON_STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "odds-v1": LegacyOddsStrategy,
}


def make_strategy(name: str) -> Strategy:
    """A strategy by name; unknown names raise IllegalActionError listing the known ones."""
    made = STRATEGIES.get(name) or COMPARISON_STRATEGIES.get(name)
    if made is None:
        raise IllegalActionError(
            f"unknown bot strategy {name!r}; strategies: {', '.join(strategy_names())}"
        )
    return made()


def make_bot(name: str) -> StrategyBot:
    return StrategyBot(make_strategy(name))


def clear_caches() -> None:
    """Forget every table the strategies and the odds built (for benchmarks that time a start)."""
    _weakest.cache_clear()
    _odds_goal.cache_clear()
    _beaten_by_later.cache_clear()
    _avoid_goals.clear()
    _belief.cache_clear()
    _later_scores.cache_clear()
    clear_odds_caches()


# -- driving the engine --------------------------------------------------------------------------


def view_of(game: Game, shown: Iterable[Shown] | None = None) -> View:
    """The view of the player whose turn it is.

    The round's finished turns come from the engine's table view (:meth:`Game.table_view`), the
    one account of what the table has seen; ``shown`` replaces them, for trying out positions.
    """
    if shown is None:
        shown = map(Shown.of, game.table_view(game.current_player).finished)
    return View(len(game.results), len(game.round_players), game.limit, tuple(shown))


def apply_move(game: Game, move: Move, rng: RandomSource) -> list[Event]:
    """Apply a bot's move, drawing the thrown dice from ``rng``."""
    if move.kind is MoveKind.ROLL:
        dice = tuple(rng.randint(1, 6) for _ in range(game.dice_to_throw(move.keep)))
        return game.roll(dice, move.keep)
    if move.kind is MoveKind.FLIP:
        return game.flip()
    if move.kind is MoveKind.BLIND:
        return game.blind()
    return game.stand()


def play_turn(
    game: Game, bot: Bot, shown: list[Shown] | None, rng: RandomSource
) -> list[Event]:
    """Play the current player's whole turn and return every event caused.

    The bot sees the round through the engine's table view. The finished turn, as the table saw
    it, is appended to ``shown`` if given (a record for the caller).
    """
    events: list[Event] = []
    player = game.current_player
    while game.phase is Phase.TURN and game.current_player == player:
        move = bot.decide(game, view_of(game), rng)
        caused = apply_move(game, move, rng)
        events.extend(caused)
        if any(isinstance(event, TurnOver) for event in caused):
            finished = game.last_turn()
            if shown is not None and finished is not None:
                shown.append(Shown.of(finished))
            break
    return events


def play_game(
    setup: GameSetup, bots: Mapping[str, Bot], rng: RandomSource, max_rounds: int = 100_000
) -> Game:
    """A whole game between bots (one per player name), dice from ``rng``."""
    game = Game(setup)
    while game.phase is Phase.ROLL_OFF:
        game.roll_off([
            tuple(rng.randint(1, 6) for _ in range(setup.rules.dice_count))
            for _ in game.contenders
        ])
    rounds = 0
    while not game.is_over:
        player = game.current_player
        assert player is not None
        for event in play_turn(game, bots[player], None, rng):
            if isinstance(event, RoundOver):
                rounds += 1
        if rounds > max_rounds:
            raise IllegalActionError(f"no end after {max_rounds} rounds")
    return game


__all__ = [
    "COMPARISON_STRATEGIES",
    "STRATEGIES",
    "Bot",
    "LegacyOddsStrategy",
    "Move",
    "MoveKind",
    "OddsStrategy",
    "Shown",
    "Strategy",
    "StrategyBot",
    "ThresholdStrategy",
    "View",
    "apply_move",
    "avoid_goal",
    "clear_caches",
    "keep_positions",
    "make_bot",
    "make_strategy",
    "play_game",
    "play_turn",
    "strategy_names",
    "view_of",
]
