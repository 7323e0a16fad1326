"""Settling a round: who is highest and lowest, how many Deckel move, from where, who is out.

A pure function of the pot, the Deckel each player holds and the round's results in throw order,
used by :class:`engine.game.Game` and by ``schocken judge``.

The rules, in short (the guide "Schocken: Regeln und Varianten", "Deckel: erst aus dem Topf, dann
abgeben"; see docs/rules.md):

* The highest throw's Deckel value goes to the player with the lowest throw.
* While the pot (the Deckel in the middle) has any, they come from the pot, and only what is left
  when it runs short ("Reicht der Topf nicht, bekommt er nur, was noch drin ist").
* Once the pot is empty, the winner hands his own Deckel to the loser, no more than he has.
* Once the pot is empty, a player without Deckel is out for the rest of the half (unless the
  round ended the half: then it is over for everyone and nobody "leaves" it).
* Schock aus gives the loser every Deckel at once; the half (or final) is over.
* A half is over when one player holds every Deckel.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import IllegalActionError
from engine.rules import Rules, StrasseOrder, TieRule
from engine.throws import Evaluation, Kind, rank_table


class DeckelSource(enum.StrEnum):
    """Where a round's Deckel came from (its value is the word the event log uses)."""

    #: From the pot (the Deckel in the middle), while it has any.
    POT = "pot"
    #: From the winner's own Deckel, once the pot is empty.
    WINNER = "winner"
    #: Schock aus: the loser takes every Deckel at once.
    ALL = "all"


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One player's finished turn: the dice they stood with."""

    player: str
    dice: tuple[int, ...]
    hand: bool
    throws: int
    blind: bool = False
    #: The player dropped their cup (``dropped_cup = "round"``): they lose the round whatever
    #: they threw; ``dice`` are empty and ``throws`` is 0.
    dropped: bool = False


#: What the reveal calls a dropped cup's "throw", the round's lowest.
DROPPED = Evaluation((), False, Kind.HAUSNUMMER, "Becher gefallen", 1, 0)


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a round's reveal decided."""

    winner: str
    loser: str
    #: The winning throw and its Deckel value.
    winning: Evaluation
    losing: Evaluation
    #: Deckel the highest throw is worth (doubled by Blind); None for Schock aus (all of them).
    due: int | None
    #: Deckel that actually moved to the loser.
    moved: int
    #: Where the Deckel came from.
    source: DeckelSource
    #: Players without Deckel once the pot is empty, out for the rest of the half (this round's
    #: new ones only; none when the round ends the half).
    out: tuple[str, ...]
    pot_after: int
    holdings_after: tuple[tuple[str, int], ...]
    half_over: bool
    #: Results from highest to lowest, as the reveal shows them.
    order: tuple[str, ...]


def rank_key(result: TurnResult, position: int, rules: Rules) -> tuple[int, int, int]:
    """A key that sorts the round's results from lowest to highest.

    ``position`` is the result's place in throw order (0 = the round's first player). Equal
    strength is decided by the tie rule; Straßen may carry their own rule (Wikipedia lists four).
    """
    evaluation = rank_table(rules).evaluate(result.dice, result.hand)
    earlier = -position
    if evaluation.kind is Kind.STRASSE and rules.strasse_order is StrasseOrder.FIRST_THROWN:
        return evaluation.strength, 0, earlier
    if evaluation.kind is Kind.STRASSE and rules.strasse_order is StrasseOrder.FEWER_THROWS:
        return evaluation.strength, -result.throws, earlier
    if rules.ties is TieRule.FEWER_THROWS:
        return evaluation.strength, -result.throws, earlier
    return evaluation.strength, 0, earlier


def settle(
    rules: Rules,
    pot: int,
    holdings: Mapping[str, int],
    results: Sequence[TurnResult],
) -> Settlement:
    """Settle a round. ``results`` are in throw order; ``holdings`` has every player of the half
    (or final) with the Deckel in front of them, including those already out."""
    if len(results) < 2:
        raise IllegalActionError(f"a round needs at least two players, got {len(results)}")
    names = [r.player for r in results]
    if len(set(names)) != len(names):
        raise IllegalActionError(f"a player appears twice in the round: {names}")
    missing = [name for name in names if name not in holdings]
    if missing:
        raise IllegalActionError(f"player {missing[0]!r} has no Deckel count")
    if pot < 0 or any(count < 0 for count in holdings.values()):
        raise IllegalActionError("Deckel counts cannot be negative")
    if pot + sum(holdings.values()) != rules.deckel:
        raise IllegalActionError(
            f"pot {pot} plus players' {sum(holdings.values())} Deckel must make {rules.deckel}"
        )
    dropped = [r.player for r in results if r.dropped]
    if len(dropped) > 1 or len(dropped) == len(results):
        raise IllegalActionError(f"one dropped cup per round and a throw to beat it: {dropped}")
    table = rank_table(rules)

    def key(i: int) -> tuple[int, ...]:
        # A dropped cup is below every throw: "verliert meist eine Spielrunde" (Wikipedia).
        return (0,) if results[i].dropped else (1, *rank_key(results[i], i, rules))

    ranked = sorted(range(len(results)), key=key)
    loser_result, winner_result = results[ranked[0]], results[ranked[-1]]
    winning = table.evaluate(winner_result.dice, winner_result.hand)
    losing = (
        DROPPED if loser_result.dropped else table.evaluate(loser_result.dice, loser_result.hand)
    )
    winner, loser = winner_result.player, loser_result.player
    new = dict(holdings)
    new_pot = pot
    if winning.deckel is None:
        due: int | None = None
        moved = rules.deckel - new[loser]
        new = {name: 0 for name in new}
        new[loser] = rules.deckel
        new_pot = 0
        source = DeckelSource.ALL
    else:
        due = winning.deckel * (2 if any(r.blind and not r.dropped for r in results) else 1)
        if pot > 0:
            moved = min(due, pot)
            new_pot -= moved
            source = DeckelSource.POT
        else:
            moved = min(due, new[winner])
            new[winner] -= moved
            source = DeckelSource.WINNER
        new[loser] += moved
    out: tuple[str, ...] = ()
    half_over = new[loser] == rules.deckel
    if new_pot == 0 and not half_over:
        # A round that ends the half sends nobody out: the half is over for everyone.
        out = tuple(name for name in names if new[name] == 0)
    return Settlement(
        winner=winner,
        loser=loser,
        winning=winning,
        losing=losing,
        due=due,
        moved=moved,
        source=source,
        out=out,
        pot_after=new_pot,
        holdings_after=tuple(new.items()),
        half_over=half_over,
        order=tuple(results[i].player for i in reversed(ranked)),
    )
