"""A whole game of Schocken: roll-off, rounds, two halves and the final.

:class:`Game` is a state machine driven by actions (:mod:`engine.events`). It never draws a
random number: throws arrive with their dice, so a game is exactly the list of its actions and
:meth:`Game.replay` rebuilds any position. Use the checked :meth:`Game.apply` (or the shortcuts
:meth:`roll`, :meth:`flip`, :meth:`stand`, ...), which raise :class:`IllegalActionError` for
anything the rules do not allow now, naming what is allowed.

A game played with real dice at the table (``GameSetup(..., real_dice=True)``) takes each turn's
result as one :class:`~engine.events.Report` (:meth:`Game.report`) instead of throws, and a wrong
entry is put right with :class:`~engine.events.Correct` until the round is settled.

Terms: a *round* (Wurfrunde) is one turn for every player still in; a *section* is the first
half (1), the second half (2) or the final (3).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from engine.errors import IllegalActionError, Reason, Refusal
from engine.events import (
    Blind,
    Correct,
    Drop,
    DroppedTurn,
    Event,
    FinalStarts,
    Flip,
    GameOver,
    GoScharf,
    HalfOver,
    Penalty,
    PenaltyGiven,
    Report,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    Stand,
    TurnOver,
)
from engine.rules import DroppedCup, Rules
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


class Scharf(enum.Enum):
    """Whether the game goes on "scharf" (the Spieltag's time box ran out, :class:`GoScharf`)."""

    #: Rounds are settled as ever.
    OFF = "off"
    #: The time box ran out during a round: that round is settled as ever, the next is scharf.
    NEXT_ROUND = "next_round"
    #: This round, and every round after it, ends its half (or the Finale) with its loser.
    ON = "on"


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
    scharf: Scharf = Scharf.OFF


@dataclass(frozen=True, slots=True)
class SeenTurn:
    """A turn as one observer sees it: dice by position, None for a die still under the cup."""

    player: str
    values: tuple[int | None, ...]
    laid_out: tuple[bool, ...]
    throws: int
    #: Thrown in one go (aus der Hand); None while that is under the cup.
    hand: bool | None
    blind: bool

    @property
    def covered(self) -> bool:
        """Whether any die the player threw is still under the cup for this observer."""
        if self.throws == 0:
            return False
        return any(v is None for v, out in zip(self.values, self.laid_out, strict=True) if not out)

    @property
    def laid_out_values(self) -> tuple[int, ...]:
        """The laid-out dice, highest first."""
        pairs = zip(self.values, self.laid_out, strict=True)
        return tuple(sorted((v for v, out in pairs if out and v is not None), reverse=True))

    @property
    def dice(self) -> tuple[int, ...] | None:
        """Every die, highest first, once the observer can see all of them."""
        if any(v is None for v in self.values):
            return None
        return tuple(sorted((v for v in self.values if v is not None), reverse=True))


@dataclass(frozen=True, slots=True)
class TableView:
    """What one observer knows of the round (after OpenSpiel's observation of a game state)."""

    #: Whose eyes: a player's name, or None for anyone at the table who is not throwing.
    observer: str | None
    #: This round's throw order.
    round_players: tuple[str, ...]
    #: The limit the opener set, None while the opener is still throwing.
    limit: int | None
    #: This round's finished turns, in throw order.
    finished: tuple[SeenTurn, ...]
    #: The turn in progress, or None between turns.
    current: SeenTurn | None

    @property
    def seat(self) -> int:
        """The current turn's place in the throw order: 0 opens the round and sets the limit."""
        return len(self.finished)


def _seen(turn: TurnState, *, covered: bool) -> SeenTurn:
    values = tuple(
        v if out or not covered else None
        for v, out in zip(turn.values, turn.laid_out, strict=True)
    )
    hand = turn.hand if not covered or all(turn.laid_out) else None
    return SeenTurn(turn.player, values, turn.laid_out, turn.throws, hand, turn.blind)


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


def player_name_problem(name: object) -> str | None:
    """Why the engine refuses ``name`` as a player's name (one line), or None: a name is a
    non-empty string without spaces and without ``, ; : = / |``, which the notation uses."""
    if not isinstance(name, str):
        return f"player name {name!r}: must be a string"
    if not name.strip() or name != name.strip():
        return f"player name {name!r}: must be non-empty, no outer spaces"
    if any(ch in name for ch in " ,;:=/|"):
        return f"player name {name!r}: must not contain spaces or any of , ; : = / |"
    return None


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Who plays (seat order, clockwise), under which rules, and with whose dice.

    ``real_dice``: the table throws its own dice ("Echte Würfel") and each turn's result is
    reported; a game never mixes the two.
    """

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    real_dice: bool = False

    def __post_init__(self) -> None:
        names = self.players
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise IllegalActionError(
                f"{len(names)} players: allowed are {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        for name in names:
            problem = player_name_problem(name)
            if problem is not None:
                raise IllegalActionError(problem)
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
        #: This round's finished turns by die position, parallel to ``results``.
        self._finished: list[TurnState] = []
        #: The turn that ended last, kept past the end of its round.
        self._last_finished: TurnState | None = None
        #: Real dice: each player's report of this round, as an index into ``actions``.
        self._round_reports: dict[str, int] = {}
        #: The time box: whether rounds end their half with their loser (:class:`GoScharf`).
        self.scharf = Scharf.OFF

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
        return None if t is None else self._snapshot(t)

    def table_view(self, observer: str | None = None) -> TableView:
        """The round as ``observer`` sees it (None: anyone at the table who is not throwing).

        One rule decides what is seen, for every screen, computer player and hint: laid-out dice
        are on the table for all to see; the dice under the cup are seen by the thrower, and by
        everyone else only under open rules. A finished turn's dice stay under the cup until the
        reveal under ``hidden_last_throw``, and after Blind, which is announced without lifting
        the cup ("blind"). A finished turn's thrower sees their own dice.
        """
        finished = tuple(self._seen_finished(turn, observer) for turn in self._finished)
        t = self.turn
        current = None
        if t is not None:
            current = _seen(t, covered=self.rules.hidden_last_throw and t.player != observer)
        return TableView(
            observer=observer,
            round_players=self.round_players,
            limit=self.limit,
            finished=finished,
            current=current,
        )

    def last_turn(self, observer: str | None = None) -> SeenTurn | None:
        """The turn that ended last as ``observer`` sees it (kept after its round is over)."""
        t = self._last_finished
        return None if t is None else self._seen_finished(t, observer)

    def _seen_finished(self, turn: TurnState, observer: str | None) -> SeenTurn:
        """A finished turn as ``observer`` sees it: under the cup until the reveal if the last
        throw is hidden or the turn was Blind, except to its thrower."""
        covered = (self.rules.hidden_last_throw or turn.blind) and turn.player != observer
        return _seen(turn, covered=covered)

    @classmethod
    def from_state(
        cls, setup: GameSetup, state: GameState, participants: Sequence[str] | None = None
    ) -> Game:
        """A game in the position ``state`` describes, without history (``actions`` is empty).

        ``participants`` are the players of the current section (all players by default; in the
        final, the two finalists). The caller checks that the position is consistent: this
        builds it as given. Finished turns are known by their sorted dice only.
        """
        game = cls(setup)
        game.phase = state.phase
        game.section = state.section
        game.round_number = state.round_number
        game.pot = state.pot
        game.participants = tuple(participants) if participants is not None else setup.players
        game.holdings = dict(state.holdings)
        game.out = set(state.out)
        game.round_players = state.round_players
        game.results = list(state.results)
        game.limit = state.limit
        game.contenders = state.contenders
        game.half_losers = list(state.half_losers)
        game.loser = state.loser
        game.scharf = state.scharf
        count = setup.rules.dice_count
        game._finished = [
            TurnState(r.player, (None,) * count if r.dropped else tuple(r.dice), (False,) * count,
                      r.throws, r.throws, r.hand, False, 0, r.blind)
            for r in state.results
        ]
        game._last_finished = game._finished[-1] if game._finished else None
        turn = state.turn
        if turn is not None:
            game._turn = _Turn(
                turn.player, list(turn.values), list(turn.laid_out), turn.throws, turn.hand,
                turn.flipped, turn.bonus, turn.blind,
            )
        return game

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
            scharf=self.scharf,
        )

    def dice_to_throw(self, keep: Iterable[int] = ()) -> int:
        """How many dice a throw that keeps ``keep`` out will throw."""
        return self.rules.dice_count - len(set(keep))

    @property
    def real_dice(self) -> bool:
        """Whether the table throws real dice and the turns are reported."""
        return self.setup.real_dice

    def reported_throws_allowed(self) -> int:
        """The most throws the current turn's report may give: the round's limit (the rules'
        maximum for the opener), plus the extra throws flips can earn under Bördeschock."""
        base = self.rules.max_throws if self.limit is None else self.limit
        return base + (BOERDE_MAX_BONUS if self.rules.boerdeschock else 0)

    def hand_matters(self, dice: Sequence[int]) -> bool:
        """Whether these dice count differently from the hand than built up under these rules
        (``hand_only``, ``naturschock_above_built``): only then does a report need to say so."""
        hand, built = self.evaluate(dice, True), self.evaluate(dice, False)
        return (hand.strength, hand.name, hand.deckel) != (built.strength, built.name, built.deckel)

    def can_roll(self) -> bool:
        t = self._turn
        return (
            t is not None and not self.real_dice and t.throws < self._limit_for(t)
            and not all(t.laid_out)
        )

    def can_flip(self) -> bool:
        return self.flip_problem() is None

    def can_stand(self) -> bool:
        """True after the first throw, except right after a flip (the cup must be thrown)."""
        return self.stand_problem() is None

    def can_blind(self) -> bool:
        t = self._turn
        return (
            self.rules.blind and not self.real_dice and t is not None and t.throws == 1
            and not t.flipped
        )

    def legal_keeps(self) -> Iterator[tuple[int, ...]]:
        """Every choice of positions that may be out for the next throw, as sorted tuples."""
        t = self._turn
        if t is None or not self.can_roll():
            return
        count = self.rules.dice_count
        for mask in range(1 << count):
            keep = tuple(i for i in range(count) if mask >> i & 1)
            if self._keep_problem(t, keep) is None:
                yield keep

    # -- why an action is illegal ----------------------------------------------------------------

    def why_not(self, action: Event) -> Refusal | None:
        """Why :meth:`apply` would refuse ``action`` now, or None if it is legal.

        The answer is exactly the one :meth:`apply` gives (it tries the action on a copy), so a
        user interface can word the reason without knowing the rules.
        """
        try:
            self.copy().apply(action)
        except IllegalActionError as error:
            return Refusal(error.reason, str(error))
        return None

    def keep_problem(self, keep: Iterable[int]) -> Refusal | None:
        """Why the current player may not throw next with the dice at ``keep`` laid out.

        Dice are not needed: this is the question a player asks while marking dice.
        """
        turn_problem = self._turn_problem() or self._real_dice_problem()
        if turn_problem is not None:
            return turn_problem
        assert self._turn is not None
        return self._keep_problem(self._turn, tuple(sorted(set(keep))))

    def flip_problem(self) -> Refusal | None:
        """Why the current player may not turn two sixes into a one now, or None."""
        return self._flip_problem()

    def stand_problem(self) -> Refusal | None:
        """Why the current player may not end the turn now, or None."""
        turn_problem = self._turn_problem() or self._real_dice_problem()
        if turn_problem is not None:
            return turn_problem
        t = self._turn
        assert t is not None
        if t.throws == 0:
            return Refusal(Reason.NOT_THROWN, f"{t.player} has not thrown yet; allowed: throw")
        if t.flipped:
            # "Das kostet keinen Extrawurf, man braucht aber noch einen Wurf übrig" (the guide
            # "Schocken: Regeln und Varianten"): the other six went back into the cup.
            return Refusal(
                Reason.MUST_THROW, "after a flip the cup must be thrown again; allowed: throw"
            )
        return None

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, action: Event) -> list[Event]:
        """Apply a checked action and return the events it caused (itself first)."""
        if not action.is_action:
            raise IllegalActionError(f"{action.kind!r} is an outcome, not an action")
        if self.phase is Phase.OVER:
            raise IllegalActionError(
                f"the game is over (loser: {self.loser}); start a new game", Reason.GAME_OVER
            )
        if isinstance(action, (Roll, Flip, Stand, Blind)):
            problem = self._real_dice_problem()
            if problem is not None:
                raise problem.error()
        if isinstance(action, (Report, Correct)) and not self.real_dice:
            raise IllegalActionError(
                "this game is played with the device's dice: throw them, a result is not "
                "reported (a game is played with the device's dice or with real ones)",
                Reason.DEVICE_DICE,
            )
        handler = {
            RollOff: self._roll_off,
            Roll: self._roll,
            Flip: self._flip,
            Stand: self._stand,
            Blind: self._blind,
            Penalty: self._penalty,
            Drop: self._drop,
            Report: self._report,
            Correct: self._correct,
            GoScharf: self._go_scharf,
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

    def report(
        self, dice: Sequence[int], throws: int, hand: bool | None = None, *, blind: bool = False
    ) -> list[Event]:
        """Report the current turn's result (real dice); ``hand`` defaults to ``throws == 1``."""
        return self.apply(
            Report(self._require_turn().player, tuple(dice), throws,
                   throws == 1 if hand is None else hand, blind)
        )

    def correct(
        self, player: str, dice: Sequence[int], throws: int, hand: bool | None = None, *,
        blind: bool = False,
    ) -> list[Event]:
        """Put ``player``'s report of this round right (real dice, before the round settles)."""
        return self.apply(
            Correct(player, tuple(dice), throws, throws == 1 if hand is None else hand, blind)
        )

    def penalty(self, player: str, deckel: int | None = None) -> list[Event]:
        amount = self.rules.penalty_deckel if deckel is None else deckel
        return self.apply(Penalty(player, amount))

    def drop(self, player: str) -> list[Event]:
        """``player`` dropped their cup (``dropped_cup = "round"``): they lose this round."""
        return self.apply(Drop(player))

    def go_scharf(self, minutes: int = 0) -> list[Event]:
        """The time box of ``minutes`` ran out: the game goes on "scharf" (:class:`GoScharf`)."""
        return self.apply(GoScharf(minutes))

    @property
    def round_untouched(self) -> bool:
        """Whether nobody has thrown (or reported) in this round yet: nothing is decided in it."""
        t = self._turn
        return not self.results and (t is None or t.throws == 0)

    def copy(self) -> Game:
        """An independent copy (the rank table, which never changes, is shared)."""
        other = copy.copy(self)
        other.actions = list(self.actions)
        other.holdings = dict(self.holdings)
        other.out = set(self.out)
        other.half_losers = list(self.half_losers)
        other.results = list(self.results)
        other._finished = list(self._finished)
        other._round_reports = dict(self._round_reports)
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

    @classmethod
    def replay_events(cls, setup: GameSetup, actions: Iterable[Event]) -> list[Event]:
        """Every event a replay of ``actions`` gives: what :meth:`apply` returns for each, in
        order (the readers of results and statistics take these)."""
        game = cls(setup)
        return [event for action in actions for event in game.apply(action)]

    # -- handlers --------------------------------------------------------------------------------

    def _roll_off(self, action: RollOff, outcomes: list[Event]) -> None:
        if self.phase is not Phase.ROLL_OFF:
            raise IllegalActionError(
                "the roll-off is over; the game is under way", Reason.ROLL_OFF_OVER
            )
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
            raise problem.error()
        count = self.rules.dice_count
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
        self._require_turn(action.player)
        problem = self._flip_problem()
        if problem:
            raise problem.error()
        t = self._turn
        assert t is not None
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
            # "im Extremfall wird bis zu fünfmal gewürfelt" (Wikipedia): at most two extra throws.
            t.bonus += 1

    def _stand(self, action: Stand, outcomes: list[Event]) -> None:
        self._require_turn(action.player)
        problem = self.stand_problem()
        if problem:
            raise problem.error()
        self._end_turn(outcomes)

    def _blind(self, action: Blind, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        if not self.rules.blind:
            raise IllegalActionError(
                "these rules have no Blind (rules option blind = false)", Reason.NO_BLIND
            )
        if t.throws != 1 or t.flipped:
            raise IllegalActionError(
                "Blind is announced right after the first throw only", Reason.BLIND_TOO_LATE
            )
        t.blind = True
        self._end_turn(outcomes)

    def _penalty(self, action: Penalty, outcomes: list[Event]) -> None:
        if self.phase is not Phase.TURN:
            raise IllegalActionError(
                "a penalty can be given once the game is under way", Reason.ROLL_OFF_FIRST
            )
        if self.rules.penalty_deckel == 0:
            raise IllegalActionError(
                "these rules have no penalty (rules option penalty_deckel = 0)", Reason.NO_PENALTY
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
            # "Wer keine Deckel mehr hat, ist für den Rest der Hälfte raus" (Regeln und Varianten).
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

    def _drop(self, action: Drop, outcomes: list[Event]) -> None:
        """A dropped cup loses the round: "Wer seine Würfel fallen lässt, verliert meist eine
        Spielrunde" (Wikipedia). Whatever the dropper threw does not count; the others finish
        the round, and the best of their throws gives the dropper its Deckel at the reveal."""
        if self.phase is not Phase.TURN:
            raise IllegalActionError(
                "a dropped cup counts once the game is under way", Reason.ROLL_OFF_FIRST
            )
        if self.rules.dropped_cup is not DroppedCup.ROUND:
            raise IllegalActionError(
                f"these rules make a dropped cup cost {self.rules.penalty_deckel} Deckel "
                "(rules option dropped_cup = \"deckel\"): give the penalty instead",
                Reason.DROP_IS_PENALTY,
            )
        player = action.player
        if player not in self.round_players:
            raise IllegalActionError(
                f"{player!r} does not throw in this round; players: {', '.join(self.round_players)}"
            )
        already = next((r.player for r in self.results if r.dropped), None)
        if already is not None:
            raise IllegalActionError(
                f"{already} dropped the cup already and has lost this round",
                Reason.ALREADY_DROPPED,
            )
        count = self.rules.dice_count
        result = TurnResult(player, (), False, 0, dropped=True)
        seen = TurnState(player, (None,) * count, (False,) * count, 0, 0, False, False, 0, False)
        done = [r.player for r in self.results]
        if player in done:
            # Already finished: the throw no longer counts.
            index = done.index(player)
            self.results[index] = result
            self._finished[index] = seen
        else:
            # The current player, or one still to throw: their turn is over (none to come).
            position = len(self.results)
            rest = [p for p in self.round_players[position:] if p != player]
            self.round_players = (*self.round_players[:position], player, *rest)
            self.results.append(result)
            self._finished.append(seen)
            if self._turn is not None and self._turn.player == player:
                self._turn = None
        if len(self.results) == len(self.round_players):
            self._turn = None
            self._settle(outcomes)
        elif self._turn is None:
            self._new_turn(self.round_players[len(self.results)])

    def _report(self, action: Report, outcomes: list[Event]) -> None:
        t = self._require_turn(action.player)
        problem = self._report_problem(action)
        if problem is not None:
            raise problem.error()
        count = self.rules.dice_count
        t.values = list(sorted(action.dice, reverse=True))
        t.laid_out = [False] * count
        t.throws = action.throws
        t.hand = action.hand
        t.blind = action.blind
        t.flipped = False
        base = self.rules.max_throws if self.limit is None else self.limit
        # Throws beyond the limit were earned by flips (Bördeschock): the turn's own limit.
        t.bonus = max(0, action.throws - base)
        self._round_reports[action.player] = len(self.actions)
        self._end_turn(outcomes)

    def _report_problem(self, report: Report | Correct) -> Refusal | None:
        """Why ``report`` cannot be the current turn's result (real dice), or None."""
        try:
            self._check_dice(report.dice, self.rules.dice_count)
        except IllegalActionError as error:
            return Refusal(Reason.INVALID, str(error))
        throws, hand, blind = report.throws, report.hand, report.blind
        if not isinstance(hand, bool) or not isinstance(blind, bool):
            return Refusal(Reason.INVALID, "hand and blind are yes or no (true or false)")
        if isinstance(throws, bool) or not isinstance(throws, int) or throws < 1:
            return Refusal(Reason.INVALID, f"throws = {throws!r}: a turn has 1 or more throws")
        allowed = self.reported_throws_allowed()
        if throws > allowed:
            if self.limit is None:
                why = f"these rules allow at most {self.rules.max_throws}"
            else:
                why = f"{self.round_players[0]} opened with {self.limit}, the limit for everyone"
            if self.rules.boerdeschock:
                why += f", {BOERDE_MAX_BONUS} more with flips (Bördeschock)"
            return Refusal(Reason.OVER_LIMIT, f"{throws} throws: {why}")
        if blind and not self.rules.blind:
            return Refusal(
                Reason.NO_BLIND, "these rules have no Blind (rules option blind = false)"
            )
        if blind and throws != 1:
            return Refusal(
                Reason.BLIND_TOO_LATE, "Blind is announced right after the first throw: 1 throw"
            )
        if throws == 1 and not hand:
            return Refusal(
                Reason.IMPOSSIBLE_REPORT,
                "a single throw is always from the hand: nothing can be laid out before it",
            )
        if self.rules.keep_only_ones and not hand:
            layable = (1, 6) if self.rules.boerdeschock else (1,)
            if not any(v in layable for v in report.dice):
                return Refusal(
                    Reason.IMPOSSIBLE_REPORT,
                    "built up without a one: only ones may be laid out (rules option "
                    "keep_only_ones), so these dice came from the hand",
                )
        return None

    def _go_scharf(self, action: GoScharf, outcomes: list[Event]) -> None:
        """Scharf from the first round nobody has thrown in yet: a round under way when the
        time box runs out is settled as ever (its players chose their throws for its Deckel);
        with real dice every round begun counts as under way."""
        minutes = action.minutes
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 600:
            raise IllegalActionError(
                f"scharf after {minutes!r} minutes: the time box is 0 (not said) to 600 minutes"
            )
        if self.scharf is not Scharf.OFF:
            raise IllegalActionError(
                "the game already goes on scharf: the time box runs out once",
                Reason.ALREADY_SCHARF,
            )
        # Real cups: the device hears of a throw only when its result is entered (under
        # hidden_last_throw at the reveal), so a round begun may be thrown in already.
        untouched = self.phase is Phase.ROLL_OFF or (self.round_untouched and not self.real_dice)
        self.scharf = Scharf.ON if untouched else Scharf.NEXT_ROUND

    def _correct(self, action: Correct, outcomes: list[Event]) -> None:
        """Replay the game with ``player``'s report replaced; every later entry of the round must
        still hold (a lower limit set by a corrected opener may rule one out)."""
        player = action.player
        index = self._round_reports.get(player)
        reported = {r.player for r in self.results}
        if self.phase is not Phase.TURN or index is None or player not in reported:
            names = ", ".join(p for p in self._round_reports if p in reported) or "none yet"
            raise IllegalActionError(
                f"{player!r} has no result in this round to correct (a settled round stays "
                f"as it is); results so far: {names}",
                Reason.NOTHING_TO_CORRECT,
            )
        rebuilt = Game.replay(self.setup, self.actions[:index])
        corrected = rebuilt.apply(action.as_report())
        for later in self.actions[index + 1:]:
            if isinstance(later, Correct) and later.player == player:
                continue  # an earlier correction of the same report, superseded by this one
            try:
                rebuilt.apply(later)
            except IllegalActionError as error:
                raise IllegalActionError(
                    f"the correction rules out a later entry of this round ({later.kind}): {error}",
                    Reason.CORRECTION_CONFLICT,
                ) from None
        actions, reports = self.actions, self._round_reports
        self.__dict__.update(rebuilt.__dict__)
        self.actions, self._round_reports = actions, reports
        outcomes.extend(corrected[1:])

    def _real_dice_problem(self) -> Refusal | None:
        """Why the device's dice cannot be thrown in this game (real dice), or None."""
        if not self.real_dice:
            return None
        return Refusal(
            Reason.REAL_DICE,
            "this game is played with real dice: report the turn's result "
            "(a game is played with the device's dice or with real ones)",
        )

    def _drop_out(self, players: tuple[str, ...], outcomes: list[Event]) -> None:
        """Players left without Deckel by a penalty leave the round at once."""
        self.out.update(players)
        self.round_players = tuple(p for p in self.round_players if p not in players)
        self.results = [r for r in self.results if r.player not in players]
        self._finished = [f for f in self._finished if f.player not in players]
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
        problem = self._turn_problem(player)
        if problem is not None:
            raise problem.error()
        assert self._turn is not None
        return self._turn

    def _turn_problem(self, player: str | None = None) -> Refusal | None:
        """Why there is no turn to act in (for ``player``, if given), or None."""
        if self.phase is Phase.ROLL_OFF:
            return Refusal(
                Reason.ROLL_OFF_FIRST,
                f"first the roll-off (auswürfeln) between {', '.join(self.contenders)}",
            )
        t = self._turn
        if t is None:
            return Refusal(Reason.NO_TURN, "no turn is in progress")
        if player is not None and player != t.player:
            return Refusal(Reason.NOT_YOUR_TURN, f"it is {t.player}'s turn, not {player!r}'s")
        return None

    def _snapshot(self, t: _Turn) -> TurnState:
        return TurnState(
            t.player, tuple(t.values), tuple(t.laid_out), t.throws, self._limit_for(t), t.hand,
            t.flipped, t.bonus, t.blind,
        )

    def _limit_for(self, t: _Turn) -> int:
        base = self.rules.max_throws if self.limit is None else self.limit
        return base + t.bonus

    def _flippable_sixes(self, t: _Turn) -> list[int]:
        return [
            i for i, v in enumerate(t.values)
            if v == 6 and (self.rules.boerdeschock or not t.laid_out[i])
        ]

    def _flip_problem(self) -> Refusal | None:
        t = self._turn
        if t is None or self.phase is not Phase.TURN:
            return Refusal(Reason.NO_TURN, "no turn is in progress")
        if self.real_dice:
            return self._real_dice_problem()
        if not self.rules.flip_sixes:
            return Refusal(
                Reason.NO_FLIPPING,
                "these rules do not flip sixes (rules option flip_sixes = false)",
            )
        if t.throws == 0:
            return Refusal(Reason.NOT_THROWN, "flipping needs two sixes from a throw; throw first")
        if t.flipped:
            return Refusal(Reason.ALREADY_FLIPPED, "already flipped since the last throw")
        if t.throws >= self._limit_for(t):
            return Refusal(Reason.NO_THROWS_LEFT, "no flip after the last allowed throw")
        where = "among your dice" if self.rules.boerdeschock else "among the dice just thrown"
        if len(self._flippable_sixes(t)) < 2:
            return Refusal(Reason.NO_TWO_SIXES, f"flipping needs two sixes {where}")
        return None

    def _keep_problem(self, t: _Turn, keep: tuple[int, ...]) -> Refusal | None:
        """Why the next throw may not leave the dice at ``keep`` (sorted, distinct) laid out."""
        count = self.rules.dice_count
        if any(not 0 <= i < count for i in keep):
            return Refusal(Reason.INVALID, f"die positions are 0 to {count - 1}, got {list(keep)}")
        if t.throws == 0 and keep:
            return Refusal(Reason.NOT_THROWN, "nothing to lay out before the first throw")
        limit = self._limit_for(t)
        if t.throws >= limit:
            return Refusal(
                Reason.NO_THROWS_LEFT, f"{t.player} has used all {limit} throws; allowed: stand"
            )
        if all(t.laid_out):
            return Refusal(Reason.ALL_LAID_OUT, "every die is laid out; allowed: stand")
        if not self.rules.take_back:
            taken_back = [i for i in range(count) if t.laid_out[i] and i not in keep]
            if taken_back:
                return Refusal(
                    Reason.STAYS_OUT,
                    f"die {taken_back[0] + 1} is laid out and stays out "
                    "(rules option take_back = false)",
                )
        if len(keep) >= count:
            return Refusal(
                Reason.KEEPS_EVERY_DIE,
                "every die is laid out: nothing left to throw; allowed: stand",
            )
        if t.flipped:
            # "Die andere Sechs kommt für den nächsten Wurf zurück in den Becher" (Wikipedia,
            # "Schocken").
            for i in keep:
                if not t.laid_out[i] and t.values[i] == 6:
                    return Refusal(
                        Reason.SIX_GOES_BACK,
                        f"die {i + 1}, the other six, goes back into the cup after the flip",
                    )
        if self.rules.keep_only_ones:
            allowed = (1, 6) if self.rules.boerdeschock else (1,)
            for i in keep:
                if not t.laid_out[i] and t.values[i] not in allowed:
                    return Refusal(
                        Reason.ONLY_ONES,
                        "only ones may be laid out (rules option keep_only_ones); "
                        f"die {i + 1} shows {t.values[i]}",
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
        self._finished = []
        self._round_reports = {}
        self.limit = None
        if self.scharf is Scharf.NEXT_ROUND:
            self.scharf = Scharf.ON
        outcomes.append(RoundStarted(self.section, self.round_number, self.round_players))
        self._new_turn(self.round_players[0])

    def _end_turn(self, outcomes: list[Event]) -> None:
        t = self._turn
        assert t is not None
        dice = tuple(sorted((v for v in t.values if v is not None), reverse=True))
        result = TurnResult(t.player, dice, t.hand, t.throws, t.blind)
        self.results.append(result)
        limit = self._limit_for(t)
        self._last_finished = self._snapshot(t)
        self._finished.append(self._last_finished)
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
        if self.scharf is Scharf.ON:
            self._settle_scharf(result, outcomes)
            return
        self.pot = result.pot_after
        self.holdings = dict(result.holdings_after)
        self.out.update(result.out)
        outcomes.append(
            RoundOver(
                result.winner, result.loser, result.winning.name, result.losing.name,
                result.moved, result.source, result.out, result.pot_after, result.holdings_after,
                self._reveal_turns(),
            )
        )
        if result.half_over:
            self._end_section(result.loser, outcomes)
        else:
            self._start_round(result.loser, outcomes)

    def _settle_scharf(self, result: Settlement, outcomes: list[Event]) -> None:
        """A scharf round: "ohne Deckelverteilung ... erhält der Verlierer eines Durchgangs
        keine Deckel, sondern verliert direkt die Halbzeit" (the Schockfreunde's Punkterunde)."""
        outcomes.append(
            RoundOver(
                result.winner, result.loser, result.winning.name, result.losing.name, 0,
                result.source, (), self.pot, tuple(self.holdings.items()), self._reveal_turns(),
                scharf=True,
            )
        )
        self._end_section(result.loser, outcomes)

    def _reveal_turns(self) -> tuple[TurnOver | DroppedTurn, ...]:
        """This round's turns as the reveal shows them: ``results`` already holds the dropped
        cup's row in its place and none of the players a penalty put out."""
        return tuple(
            DroppedTurn(result.player)
            if result.dropped
            else TurnOver(
                result.player, result.dice, result.hand, result.throws,
                self._table.evaluate(result.dice, result.hand).name, turn.limit,
            )
            for result, turn in zip(self.results, self._finished, strict=True)
        )

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
        self._finished = []
        self.limit = None
        outcomes.append(GameOver(loser, blattschuss, tuple(self.half_losers)))
