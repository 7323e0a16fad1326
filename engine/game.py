"""A whole game of Schocken: roll-off, rounds, two halves and the final.

:class:`Game` is a state machine driven by actions (:mod:`engine.events`). It never draws a
random number: throws arrive with their dice, so a game is exactly the list of its actions and
:meth:`Game.replay` rebuilds any position. Use the checked :meth:`Game.apply` (or the shortcuts
:meth:`roll`, :meth:`flip`, :meth:`stand`, ...), which raise :class:`IllegalActionError` for
anything the rules do not allow now, naming what is allowed.

Terms: a *round* (Wurfrunde) is one turn for every player still in; a *section* is the first
half (1), the second half (2) or the final (3).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from engine.errors import IllegalActionError
from engine.events import (
    Blind,
    Event,
    FinalStarts,
    Flip,
    GameOver,
    HalfOver,
    Penalty,
    PenaltyGiven,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    Stand,
    TurnOver,
)
from engine.rules import Rules
from engine.settle import Settlement, TurnResult, settle
from engine.throws import Evaluation, describe_bad_dice, rank_table

MIN_PLAYERS, MAX_PLAYERS = 2, 10
#: Extra throws flips can earn in one turn under Bördeschock (three throws plus two).
BOERDE_MAX_BONUS = 2
FINAL = 3


class Phase(enum.Enum):
    """What the game waits for."""

    ROLL_OFF = "roll_off"
    TURN = "turn"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class TurnState:
    """The current player's dice: ``values[i]`` is None before the first throw."""

    player: str
    values: tuple[int | None, ...]
    laid_out: tuple[bool, ...]
    throws: int
    limit: int
    hand: bool
    flipped: bool
    bonus: int
    blind: bool

    @property
    def laid_out_values(self) -> tuple[int, ...]:
        """The values of the laid-out dice, the part others may see."""
        pairs = zip(self.values, self.laid_out, strict=True)
        return tuple(v for v, out in pairs if out and v is not None)


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything that decides what happens next; two games in the same state compare equal."""

    phase: Phase
    section: int
    round_number: int
    pot: int
    holdings: tuple[tuple[str, int], ...]
    out: tuple[str, ...]
    round_players: tuple[str, ...]
    results: tuple[TurnResult, ...]
    limit: int | None
    turn: TurnState | None
    contenders: tuple[str, ...]
    half_losers: tuple[str, ...]
    loser: str | None


@dataclass
class _Turn:
    player: str
    values: list[int | None]
    laid_out: list[bool]
    throws: int = 0
    hand: bool = False
    flipped: bool = False
    bonus: int = 0
    blind: bool = False


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Who plays (seat order, clockwise) and under which rules."""

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        names = self.players
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise IllegalActionError(
                f"{len(names)} players: allowed are {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        for name in names:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise IllegalActionError(
                    f"player name {name!r}: must be non-empty, no outer spaces"
                )
            if any(ch in name for ch in " ,;:=/|"):
                raise IllegalActionError(
                    f"player name {name!r}: must not contain spaces or any of , ; : = / |"
                )
        if len(set(names)) != len(names):
            raise IllegalActionError(f"player names must differ: {list(names)}")


class Game:
    """The state of one game. Create with a :class:`GameSetup`, then apply actions."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self._table = rank_table(setup.rules)
        self.actions: list[Event] = []
        self.phase = Phase.ROLL_OFF
        self.section = 1
        self.round_number = 0
        self.contenders: tuple[str, ...] = setup.players
        self.participants: tuple[str, ...] = setup.players
        self.pot = self.rules.deckel
        self.holdings: dict[str, int] = dict.fromkeys(setup.players, 0)
        self.out: set[str] = set()
        self.half_losers: list[str] = []
        self.loser: str | None = None
        self.round_players: tuple[str, ...] = ()
        self.results: list[TurnResult] = []
        self.limit: int | None = None
        self._turn: _Turn | None = None
        self.last_settlement: Settlement | None = None

    # -- queries ---------------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def current_player(self) -> str | None:
        return self._turn.player if self._turn else None

    @property
    def turn(self) -> TurnState | None:
        """The current turn, or None outside a turn."""
        t = self._turn
        if t is None:
            return None
        return TurnState(
            t.player, tuple(t.values), tuple(t.laid_out), t.throws, self._limit_for(t), t.hand,
            t.flipped, t.bonus, t.blind,
        )

    def evaluate(self, dice: Sequence[int], hand: bool) -> Evaluation:
        """A throw's evaluation under this game's rules."""
        return self._table.evaluate(dice, hand)

    def in_play(self) -> tuple[str, ...]:
        """Players of the current section who are not out, in seat order."""
        return tuple(p for p in self.participants if p not in self.out)

    def state(self) -> GameState:
        """A frozen snapshot of the whole state, for comparisons and views."""
        return GameState(
            phase=self.phase,
            section=self.section,
            round_number=self.round_number,
            pot=self.pot,
            holdings=tuple(self.holdings.items()),
            out=tuple(p for p in self.participants if p in self.out),
            round_players=self.round_players,
            results=tuple(self.results),
            limit=self.limit,
            turn=self.turn,
            contenders=self.contenders if self.phase is Phase.ROLL_OFF else (),
            half_losers=tuple(self.half_losers),
            loser=self.loser,
        )

    def dice_to_throw(self, keep: Iterable[int] = ()) -> int:
        """How many dice a throw that keeps ``keep`` out will throw."""
        return self.rules.dice_count - len(set(keep))

    def can_roll(self) -> bool:
        t = self._turn
        return t is not None and t.throws < self._limit_for(t) and not all(t.laid_out)

    def can_flip(self) -> bool:
        return self._flip_problem() is None

    def can_stand(self) -> bool:
        """True after the first throw, except right after a flip (the cup must be thrown)."""
        t = self._turn
        return t is not None and t.throws >= 1 and not t.flipped

    def can_blind(self) -> bool:
        t = self._turn
        return self.rules.blind and t is not None and t.throws == 1 and not t.flipped

    def legal_keeps(self) -> Iterator[tuple[int, ...]]:
        """Every choice of positions that may be out for the next throw, as sorted tuples."""
        t = self._turn
        if t is None or not self.can_roll():
            return
        count = self.rules.dice_count
        for mask in range(1 << count):
            keep = tuple(i for i in range(count) if mask >> i & 1)
            if len(keep) < count and self._keep_problem(t, keep) is None:
                yield keep

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, action: Event) -> list[Event]:
        """Apply a checked action and return the events it caused (itself first)."""
        if not action.is_action:
            raise IllegalActionError(f"{action.kind!r} is an outcome, not an action")
        if self.phase is Phase.OVER:
            raise IllegalActionError(f"the game is over (loser: {self.loser}); start a new game")
        handler = {
            RollOff: self._roll_off,
            Roll: self._roll,
            Flip: self._flip,
            Stand: self._stand,
            Blind: self._blind,
            Penalty: self._penalty,
        }[type(action)]
        outcomes: list[Event] = [action]
        handler(action, outcomes)  # type: ignore[operator]
        self.actions.append(action)
        return outcomes

    def roll_off(self, dice: Sequence[Sequence[int]]) -> list[Event]:
        return self.apply(RollOff(self.contenders, tuple(tuple(d) for d in dice)))

    def roll(self, dice: Sequence[int], keep: Iterable[int] = ()) -> list[Event]:
        return self.apply(Roll(self._require_turn().player, tuple(sorted(set(keep))), tuple(dice)))

    def flip(self) -> list[Event]:
        return self.apply(Flip(self._require_turn().player))

    def stand(self) -> list[Event]:
        return self.apply(Stand(self._require_turn().player))

    def blind(self) -> list[Event]:
        return self.apply(Blind(self._require_turn().player))

    def penalty(self, player: str, deckel: int | None = None) -> list[Event]:
        amount = self.rules.penalty_deckel if deckel is None else deckel
        return self.apply(Penalty(player, amount))

    def copy(self) -> Game:
        """An independent copy (the rank table, which never changes, is shared)."""
        other = copy.copy(self)
        other.actions = list(self.actions)
        other.holdings = dict(self.holdings)
        other.out = set(self.out)
        other.half_losers = list(self.half_losers)
        other.results = list(self.results)
        if self._turn is not None:
            other._turn = replace(
                self._turn, values=list(self._turn.values), laid_out=list(self._turn.laid_out)
            )
        return other

    @classmethod
    def replay(cls, setup: GameSetup, actions: Iterable[Event]) -> Game:
        """The game after ``actions`` (outcome events among them are skipped)."""
        game = cls(setup)
        for event in actions:
            if event.is_action:
                game.apply(event)
        return game

    # -- handlers --------------------------------------------------------------------------------

    def _roll_off(self, action: RollOff, outcomes: list[Event]) -> None:
        if self.phase is not Phase.ROLL_OFF:
            raise IllegalActionError("the roll-off is over; the game is under way")
        if tuple(action.players) != self.contenders:
            raise IllegalActionError(f"the roll-off is between {', '.join(self.contenders)}")
        if len(action.dice) != len(self.contenders):
            raise IllegalActionError(
                f"the roll-off needs one throw for each of {len(self.contenders)} players"
            )
        strengths = []
        for dice in action.dice:
            self._check_dice(dice, self.rules.dice_count)
            strengths.append(self._table.evaluate(dice, True).strength)
        best = max(strengths)
        leaders = tuple(p for p, s in zip(self.contenders, strengths, strict=True) if s == best)
        if len(leaders) > 1:
            self.contenders = leaders
            return
        self.contenders = ()
        self.phase = Phase.TURN
        self._start_round(leaders[0], outcomes)

    def _roll(self, action: Roll, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        limit = self._limit_for(t)
        if t.throws >= limit:
            raise IllegalActionError(f"{t.player} has used all {limit} throws; allowed: stand")
        keep = action.keep
        if not isinstance(keep, tuple) or any(
            not isinstance(i, int) or isinstance(i, bool) for i in keep
        ):
            raise IllegalActionError(f"keep must be a list of die positions, got {keep!r}")
        if list(keep) != sorted(set(keep)):
            raise IllegalActionError(
                f"keep positions must be sorted and distinct, got {list(keep)}"
            )
        problem = self._keep_problem(t, keep)
        if problem:
            raise IllegalActionError(problem)
        count = self.rules.dice_count
        if len(keep) >= count:
            raise IllegalActionError("every die is laid out: nothing left to throw; allowed: stand")
        self._check_dice(action.dice, count - len(keep))
        thrown = iter(action.dice)
        for position in range(count):
            t.laid_out[position] = position in keep
            if position not in keep:
                t.values[position] = next(thrown)
        t.throws += 1
        t.hand = len(keep) == 0
        t.flipped = False
        if t.throws >= self._limit_for(t):
            self._end_turn(outcomes)

    def _flip(self, action: Flip, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        problem = self._flip_problem()
        if problem:
            raise IllegalActionError(problem)
        sixes = self._flippable_sixes(t)
        # Laid-out sixes turn first (Bördeschock), then the lowest positions.
        sixes.sort(key=lambda i: (not t.laid_out[i], i))
        turned = 2 if len(sixes) >= 3 else 1
        for position in sixes[:turned]:
            t.values[position] = 1
            t.laid_out[position] = True
        for position in sixes[turned:]:
            t.laid_out[position] = False  # "Die andere Sechs kommt ... zurück in den Becher"
        t.flipped = True
        t.hand = False
        if self.rules.boerdeschock and t.bonus < BOERDE_MAX_BONUS:
            # "im Extremfall wird bis zu fünfmal gewürfelt" (seed 000): at most two extra throws.
            t.bonus += 1

    def _stand(self, action: Stand, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        if t.throws == 0:
            raise IllegalActionError(f"{t.player} has not thrown yet; allowed: throw")
        if t.flipped:
            # "Das kostet keinen Extrawurf, man braucht aber noch einen Wurf übrig" (seed 002):
            # the other six went back into the cup "für den nächsten Wurf" (seed 000).
            raise IllegalActionError("after a flip the cup must be thrown again; allowed: throw")
        self._end_turn(outcomes)

    def _blind(self, action: Blind, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        if not self.rules.blind:
            raise IllegalActionError("these rules have no Blind (rules option blind = false)")
        if t.throws != 1 or t.flipped:
            raise IllegalActionError("Blind is announced right after the first throw only")
        t.blind = True
        self._end_turn(outcomes)

    def _penalty(self, action: Penalty, outcomes: list[Event]) -> None:
        if self.phase is not Phase.TURN:
            raise IllegalActionError("a penalty can be given once the game is under way")
        if self.rules.penalty_deckel == 0:
            raise IllegalActionError(
                "these rules have no penalty (rules option penalty_deckel = 0)"
            )
        player, amount = action.player, action.deckel
        if player not in self.participants:
            raise IllegalActionError(
                f"{player!r} does not play this section; players: {', '.join(self.participants)}"
            )
        if player in self.out:
            raise IllegalActionError(f"{player} is out for this half and cannot be penalised")
        total = self.rules.deckel
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= total:
            raise IllegalActionError(f"penalty of {amount!r} Deckel: allowed are 1 to {total}")
        from_pot = min(amount, self.pot)
        self.pot -= from_pot
        self.holdings[player] += from_pot
        remaining = amount - from_pot
        taken: list[tuple[str, int]] = []
        # Once the pot is empty, the Deckel come from the richest opponents, earlier seat first.
        while remaining > 0:
            donors = [p for p in self.participants if p != player and self.holdings[p] > 0]
            if not donors:
                break
            donor = max(donors, key=lambda p: self.holdings[p])
            given = min(remaining, self.holdings[donor])
            self.holdings[donor] -= given
            self.holdings[player] += given
            remaining -= given
            taken.append((donor, given))
        newly_out: tuple[str, ...] = ()
        if self.pot == 0:
            # "Wer keine Deckel mehr hat, ist für den Rest der Hälfte raus" (seed 002).
            newly_out = tuple(
                p for p in self.participants if self.holdings[p] == 0 and p not in self.out
            )
        outcomes.append(
            PenaltyGiven(player, amount - remaining, from_pot, tuple(taken), newly_out)
        )
        if self.holdings[player] == self.rules.deckel:
            self._end_section(player, outcomes)
        elif newly_out:
            self._drop_out(newly_out, outcomes)

    def _drop_out(self, players: tuple[str, ...], outcomes: list[Event]) -> None:
        """Players left without Deckel by a penalty leave the round at once."""
        self.out.update(players)
        self.round_players = tuple(p for p in self.round_players if p not in players)
        self.results = [r for r in self.results if r.player not in players]
        if self._turn is not None and self._turn.player in players:
            self._turn = None
        if self._turn is not None:
            return
        if len(self.results) < len(self.round_players):
            self._new_turn(self.round_players[len(self.results)])
        else:
            self._settle(outcomes)

    # -- internals -------------------------------------------------------------------------------

    def _require_turn(self, player: str | None = None) -> _Turn:
        if self.phase is Phase.ROLL_OFF:
            raise IllegalActionError(
                f"first the roll-off (auswürfeln) between {', '.join(self.contenders)}"
            )
        t = self._turn
        if t is None:
            raise IllegalActionError("no turn is in progress")
        if player is not None and player != t.player:
            raise IllegalActionError(f"it is {t.player}'s turn, not {player!r}'s")
        return t

    def _limit_for(self, t: _Turn) -> int:
        base = self.rules.max_throws if self.limit is None else self.limit
        return base + t.bonus

    def _flippable_sixes(self, t: _Turn) -> list[int]:
        return [
            i for i, v in enumerate(t.values)
            if v == 6 and (self.rules.boerdeschock or not t.laid_out[i])
        ]

    def _flip_problem(self) -> str | None:
        t = self._turn
        if t is None or self.phase is not Phase.TURN:
            return "no turn is in progress"
        if not self.rules.flip_sixes:
            return "these rules do not flip sixes (rules option flip_sixes = false)"
        if t.throws == 0:
            return "flipping needs two sixes from a throw; throw first"
        if t.flipped:
            return "already flipped since the last throw"
        if t.throws >= self._limit_for(t):
            return "no flip after the last allowed throw"
        where = "among your dice" if self.rules.boerdeschock else "among the dice just thrown"
        if len(self._flippable_sixes(t)) < 2:
            return f"flipping needs two sixes {where}"
        return None

    def _keep_problem(self, t: _Turn, keep: tuple[int, ...]) -> str | None:
        count = self.rules.dice_count
        if any(not 0 <= i < count for i in keep):
            return f"die positions are 0 to {count - 1}, got {list(keep)}"
        if t.throws == 0 and keep:
            return "nothing to lay out before the first throw"
        if not self.rules.take_back:
            taken_back = [i for i in range(count) if t.laid_out[i] and i not in keep]
            if taken_back:
                return (
                    f"die {taken_back[0] + 1} is laid out and stays out "
                    "(rules option take_back = false)"
                )
        if t.flipped:
            # "Die andere Sechs kommt für den nächsten Wurf zurück in den Becher" (seed 000).
            for i in keep:
                if not t.laid_out[i] and t.values[i] == 6:
                    return f"die {i + 1}, the other six, goes back into the cup after the flip"
        if self.rules.keep_only_ones:
            allowed = (1, 6) if self.rules.boerdeschock else (1,)
            for i in keep:
                if not t.laid_out[i] and t.values[i] not in allowed:
                    return (
                        "only ones may be laid out (rules option keep_only_ones); "
                        f"die {i + 1} shows {t.values[i]}"
                    )
        return None

    @staticmethod
    def _check_dice(dice: object, count: int) -> None:
        if (
            not isinstance(dice, tuple)
            or len(dice) != count
            or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in dice)
        ):
            values = list(dice) if isinstance(dice, (tuple, list)) else [dice]
            raise IllegalActionError(describe_bad_dice(values, count))

    def _new_turn(self, player: str) -> None:
        count = self.rules.dice_count
        self._turn = _Turn(player, [None] * count, [False] * count)

    def _start_round(self, starter: str, outcomes: list[Event]) -> None:
        seats = self.participants
        start = seats.index(starter)
        order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
        self.round_players = tuple(p for p in order if p not in self.out)
        self.round_number += 1
        self.results = []
        self.limit = None
        self.last_settlement = None
        outcomes.append(RoundStarted(self.section, self.round_number, self.round_players))
        self._new_turn(self.round_players[0])

    def _end_turn(self, outcomes: list[Event]) -> None:
        t = self._turn
        assert t is not None
        dice = tuple(sorted((v for v in t.values if v is not None), reverse=True))
        result = TurnResult(t.player, dice, t.hand, t.throws, t.blind)
        self.results.append(result)
        limit = self._limit_for(t)
        if self.limit is None:
            # The first player's throws are the limit for everyone ("Obergrenze").
            self.limit = min(t.throws, self.rules.max_throws)
        evaluation = self._table.evaluate(dice, t.hand)
        outcomes.append(TurnOver(t.player, dice, t.hand, t.throws, evaluation.name, limit))
        if len(self.results) < len(self.round_players):
            self._new_turn(self.round_players[len(self.results)])
            return
        self._turn = None
        self._settle(outcomes)

    def _settle(self, outcomes: list[Event]) -> None:
        result = settle(self.rules, self.pot, self.holdings, self.results)
        self.last_settlement = result
        self.pot = result.pot_after
        self.holdings = dict(result.holdings_after)
        self.out.update(result.out)
        outcomes.append(
            RoundOver(
                result.winner, result.loser, result.winning.name, result.losing.name,
                result.moved, result.source, result.out, result.pot_after, result.holdings_after,
            )
        )
        if result.half_over:
            self._end_section(result.loser, outcomes)
        else:
            self._start_round(result.loser, outcomes)

    def _end_section(self, loser: str, outcomes: list[Event]) -> None:
        outcomes.append(HalfOver(self.section, loser))
        self._turn = None
        if self.section == FINAL:
            self._finish(loser, blattschuss=False, outcomes=outcomes)
            return
        self.half_losers.append(loser)
        if self.section == 2:
            first, second = self.half_losers
            if first == second:
                self._finish(loser, blattschuss=True, outcomes=outcomes)
                return
            self.participants = tuple(p for p in self.players if p in (first, second))
            outcomes.append(FinalStarts(self.participants))
        self.section += 1
        self.round_number = 0
        self.pot = self.rules.deckel
        self.holdings = dict.fromkeys(self.participants, 0)
        self.out = set()
        # "Danach beginnt immer der Verlierer der vorigen Runde": the section's loser opens.
        self._start_round(loser, outcomes)

    def _finish(self, loser: str, *, blattschuss: bool, outcomes: list[Event]) -> None:
        self.phase = Phase.OVER
        self.loser = loser
        self.round_players = ()
        self.results = []
        self.limit = None
        outcomes.append(GameOver(loser, blattschuss, tuple(self.half_losers)))
