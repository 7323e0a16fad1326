"""Fast whole-game simulation of bots: one table lookup per turn, integer settlement.

Driving :class:`~engine.game.Game` action by action costs tens of microseconds per action. The
simulator instead tabulates, once per strategy and situation (its :meth:`Strategy.situation`
and the throw limit), the exact distribution of how the strategy's turn ends
(:func:`engine.odds.turn_distribution`), and then samples a whole turn with one ``bisect`` over
the cumulative table. Rounds are settled by :func:`settle_scores`, integer arithmetic that mirrors
:func:`engine.settle.settle`; sections (two halves and the final) follow :class:`Game`.

The one shortcut is the opening roll-off: it is symmetric between the players, so the opener of
the first round is drawn uniformly. Bots never announce Blind and no penalties are given.
Randomness comes only from the ``RandomSource`` passed in.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engine.bots import Shown, Strategy, View
from engine.chance import RandomSource
from engine.odds import ties_by_throws, turn_distribution
from engine.rules import Rules
from engine.throws import rank_table

#: A sampled turn: (score, Deckel if highest (0 = all), throws, what others see).
Outcome = tuple[int, int, int, Shown]

#: Tie part of a score: 15 - throws when fewer throws win, so more throws score lower.
_TIE_SPAN = 16


def score_of(strength: int, throws: int, by_throws: bool) -> int:
    """An integer that orders results like :func:`engine.settle.rank_key` (without position)."""
    return strength * _TIE_SPAN + ((_TIE_SPAN - 1 - throws) if by_throws else 0)


@dataclass(frozen=True, slots=True)
class TurnTable:
    """The ends of one strategy's turn in one situation, with cumulative probabilities."""

    cumulative: tuple[float, ...]
    outcomes: tuple[Outcome, ...]
    #: For each outcome: the dice stood with, the hand flag and the throws (for checks and views).
    ends: tuple[tuple[tuple[int, ...], bool, int], ...]

    def sample(self, draw: float) -> Outcome:
        """The outcome for a uniform ``draw`` in [0, 1)."""
        return self.outcomes[bisect_right(self.cumulative, draw)]


def turn_table(rules: Rules, strategy: Strategy, situation: Hashable, limit: int) -> TurnTable:
    """Tabulate how ``strategy``'s turn ends in ``situation`` with ``limit`` throws."""
    table = rank_table(rules)
    ends = turn_distribution(
        rules, limit, lambda position: strategy.choose(position, situation, rules)
    )
    rows: list[tuple[float, Outcome, tuple[tuple[int, ...], bool, int]]] = []
    for (laid, free, throws), p in sorted(ends.items()):
        dice = tuple(sorted((*laid, *free), reverse=True))
        hand = not laid
        evaluation = table.evaluate(dice, hand)
        score = score_of(evaluation.strength, throws, ties_by_throws(evaluation.kind, rules))
        deckel = 0 if evaluation.deckel is None else evaluation.deckel
        if rules.hidden_last_throw:
            shown = Shown("", throws, laid, None, None)
        else:
            shown = Shown("", throws, laid, dice, hand)
        rows.append((p, (score, deckel, throws, shown), (dice, hand, throws)))
    cumulative: list[float] = []
    running = 0.0
    for p, _, _ in rows:
        running += p
        cumulative.append(running)
    cumulative[-1] = 1.0  # random() < 1.0, so the last outcome is always reachable
    return TurnTable(
        tuple(cumulative), tuple(row[1] for row in rows), tuple(row[2] for row in rows)
    )


def settle_scores(
    order: Sequence[int], scores: Sequence[int], deckel: Sequence[int], pot: int,
    holdings: list[int], total: int,
) -> tuple[int, int, int, int, list[int], bool]:
    """Settle a round as :func:`engine.settle.settle` does, on integers.

    ``order`` are the seats in throw order, ``scores``/``deckel`` their results (Deckel 0 = all).
    ``holdings`` (by seat) is updated in place. Returns (loser, winner, moved, pot after, seats
    newly out, section over).
    """
    low = high = 0
    for position in range(1, len(order)):
        if scores[position] <= scores[low]:
            low = position  # equal: the later throw is lower ("nachgelegt")
        if scores[position] > scores[high]:
            high = position  # equal: the earlier throw stays higher
    loser, winner = order[low], order[high]
    due = deckel[high]
    if due == 0:
        moved = total - holdings[loser]
        for seat in range(len(holdings)):
            holdings[seat] = 0
        holdings[loser] = total
        pot = 0
    elif pot > 0:
        moved = due if due < pot else pot
        pot -= moved
        holdings[loser] += moved
    else:
        moved = due if due < holdings[winner] else holdings[winner]
        holdings[winner] -= moved
        holdings[loser] += moved
    over = holdings[loser] == total
    out = [seat for seat in order if holdings[seat] == 0] if pot == 0 and not over else []
    return loser, winner, moved, pot, out, over


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One simulated game."""

    loser: int
    rounds: int
    throws: int
    blattschuss: bool


class Simulator:
    """Plays whole games between strategies seated 0..n-1 under one rule set."""

    def __init__(self, rules: Rules, strategies: Sequence[Strategy]) -> None:
        if not 2 <= len(strategies) <= 10:
            raise ValueError(f"{len(strategies)} players: allowed are 2 to 10")
        self.rules = rules
        self.strategies = tuple(strategies)
        self._tables: dict[tuple[int, Hashable, int], TurnTable] = {}
        # Seats sharing a strategy object share its tables.
        self._ids = [id(s) for s in self.strategies]

    def table(self, seat: int, situation: Hashable, limit: int) -> TurnTable:
        """The turn table of the strategy at ``seat`` (built on first use)."""
        key = (self._ids[seat], situation, limit)
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = turn_table(
                self.rules, self.strategies[seat], situation, limit
            )
        return found

    def play_game(self, rng: RandomSource) -> GameRecord:
        """One whole game: two halves and, if two different players lost them, the final."""
        seats = list(range(len(self.strategies)))
        opener = rng.randrange(len(seats))
        rounds = throws = 0
        half_losers: list[int] = []
        section = 1
        while True:
            loser, section_rounds, section_throws = self._play_section(seats, opener, rng)
            rounds += section_rounds
            throws += section_throws
            if section == 3:
                return GameRecord(loser, rounds, throws, False)
            half_losers.append(loser)
            if section == 2:
                if half_losers[0] == loser:
                    return GameRecord(loser, rounds, throws, True)
                seats = sorted(half_losers)
            section += 1
            opener = loser

    def _play_section(
        self, seats: list[int], opener: int, rng: RandomSource
    ) -> tuple[int, int, int]:
        rules = self.rules
        total, max_throws = rules.deckel, rules.max_throws
        draw = rng.random
        holdings = [0] * len(self.strategies)
        out: set[int] = set()
        pot = total
        rounds = throws = 0
        tables = self._tables
        ids = self._ids
        uses_view = [s.uses_view for s in self.strategies]
        # The throw order from each starter while nobody is out: seat order, starter first.
        rotations = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}
        starter = opener
        while True:
            order = rotations[starter]
            if out:
                order = [seat for seat in order if seat not in out]
            limit = 0
            scores: list[int] = []
            deckel: list[int] = []
            shown: list[Shown] = []
            for position, seat in enumerate(order):
                turn_limit = limit or max_throws
                if uses_view[seat]:
                    view = View(position, len(order), limit or None, tuple(shown))
                    situation = self.strategies[seat].situation(view, rules)
                else:
                    situation = None
                table = tables.get((ids[seat], situation, turn_limit))
                if table is None:
                    table = self.table(seat, situation, turn_limit)
                score, value, used, seen = table.sample(draw())
                scores.append(score)
                deckel.append(value)
                shown.append(seen)
                throws += used
                if not limit:
                    limit = used if used < max_throws else max_throws
            rounds += 1
            loser, _, _, pot, newly_out, over = settle_scores(
                order, scores, deckel, pot, holdings, total
            )
            if over:
                return loser, rounds, throws
            out.update(newly_out)
            starter = loser
