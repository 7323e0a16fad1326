"""The game at the table: the engine's game, its computer players, and what each action calls for.

:meth:`Table.record` is the only way an action's events leave the game: first into the journal
(durable), then to the event sink; a screen shows an action only after that. :meth:`Table.mark`
and :meth:`Table.entering` keep what a screen holds between actions (the KEEP marks, a result
being entered) in the journal too: the stages never touch it themselves. Every action the
table takes (:meth:`Table.roll`, :meth:`Table.stand`, :meth:`Table.penalty`, ...) returns the
moments it calls for (:mod:`~firmware.app.session.moments`): the reveal, a penalty, a lost
half, the end of the game, the next hand-over. The table never builds a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.events import (
    Correct,
    Event,
    FinalStarts,
    GameOver,
    HalfOver,
    PenaltyGiven,
    Report,
    RollOff,
    RoundOver,
    RoundStarted,
    TurnOver,
)
from engine.game import Game, Phase, TurnState
from firmware.app.session.moments import (
    GameEnded,
    HalfLost,
    HandOverDue,
    Moment,
    PenaltyDue,
    RevealDue,
    RollOffDue,
    RollOffThrown,
    ShownDie,
    TurnEnded,
)
from firmware.sink import DeviceEvent
from firmware.store.gamestore import GameStore
from firmware.store.journal import EntryNote, KeepMarks, Note

if TYPE_CHECKING:
    from engine.bots import StrategyBot

__all__ = ["Table"]


class Table:
    """One game: the engine's :class:`~engine.game.Game`, who the computer plays, and the
    moments its actions call for.

    ``store`` keeps the game's journal (None: nothing is kept); ``emit`` hands every event to
    the device's listeners.
    """

    def __init__(
        self,
        game: Game,
        bots: dict[str, StrategyBot],
        *,
        store: GameStore | None,
        emit: Callable[[DeviceEvent], None],
    ) -> None:
        self.game = game
        #: The computer players, by name.
        self.bots = bots
        self._store = store
        self._emit = emit
        #: The section (1, 2 or :data:`~engine.game.FINAL`) and round the table is in.
        self.section, self.round_number = 1, 0
        #: False while a journal is replayed on resume: the listeners saw those events before.
        self.recording = True

    # --- who is who -----------------------------------------------------------------------------

    def is_bot(self, name: str | None) -> bool:
        return name is not None and name in self.bots

    def only_bots(self) -> bool:
        """Whether everyone still playing this section is a computer player."""
        return all(name in self.bots for name in self.game.in_play())

    # --- actions and what they call for ---------------------------------------------------------

    def record(self, events: list[Event]) -> None:
        """An action was applied to the game: write it durably first, then tell the listeners
        (the screen shows it only after this)."""
        if not self.recording:
            return
        if self._store is not None:
            self._store.record(events)
        for event in events:
            self._emit(event)

    def mark(self, marks: Sequence[bool]) -> None:
        """The player at the cup marked these dice to lay out (not yet thrown with): kept in
        the journal, so that a pulled plug comes back to them."""
        self._note(KeepMarks(tuple(marks)))

    def entering(
        self, dice: Sequence[int], throws: int, hand: bool, *, correcting: str | None = None,
        roll_off: Sequence[Sequence[int]] = (), settling: bool = False,
    ) -> None:
        """A result thrown with real dice stands so on the device's buttons (``roll_off``: the
        roll-off's throws entered so far): kept in the journal, so that a pulled plug comes
        back to the same entry."""
        self._note(EntryNote(
            tuple(dice), throws, hand, correcting, tuple(tuple(throw) for throw in roll_off),
            settling,
        ))

    def _note(self, note: Note) -> None:
        if self.recording and self._store is not None:
            self._store.note(note)

    def penalty(self, player: str) -> list[Moment]:
        """Give ``player`` the rules' penalty Deckel (from the menu); return what it calls for."""
        return self._taken(self.game.penalty(player))

    def drop(self, player: str) -> list[Moment]:
        """``player`` dropped the cup and loses the round (``dropped_cup = "round"``)."""
        return self._taken(self.game.drop(player))

    def roll_off(self, throws: Sequence[Sequence[int]]) -> None:
        """The roll-off with these throws, one per contender in seat order."""
        self._taken(self.game.roll_off(throws))

    def roll(self, keep: tuple[int, ...], dice: tuple[int, ...], *, shows_dice: bool,
             ) -> list[Moment] | None:
        """Throw ``dice`` with the dice at ``keep`` laid out. None while the turn goes on;
        after a last throw, what comes next (``shows_dice``: the thrower is a person, who sees
        the dice of a last throw before the cup passes on)."""
        game = self.game
        before = game.turn
        assert before is not None
        events = game.roll(dice, keep)
        if not any(isinstance(event, TurnOver) for event in events):
            self.record(events)
            return None
        return self._end_turn(events, before, shows_dice=shows_dice)

    def flip(self, marks: Sequence[bool]) -> tuple[bool, ...]:
        """Turn two sixes into a one; return the dice marked to lay out after it, from those
        marked before: the one is laid out, and a six that was only marked goes back into the
        cup with the other."""
        game = self.game
        before = game.turn
        assert before is not None
        self.record(game.flip())
        after = game.turn
        assert after is not None
        return tuple(
            after.laid_out[i] or (marks[i] and before.values[i] != 6) for i in range(len(marks))
        )

    def stand(self, *, blind: bool = False) -> list[Moment]:
        """End the current turn as the dice lie, or by Blind; return what comes next."""
        game = self.game
        before = game.turn
        assert before is not None
        events = game.blind() if blind else game.stand()
        return self._end_turn(events, before, shows_dice=False)

    def report(self, dice: tuple[int, ...], throws: int, hand: bool, *, blind: bool = False,
               ) -> list[Moment]:
        """The current turn's result, thrown with real dice at the table; what comes next: the
        next entry (as a hand-over), or the reveal once the last report settles the round."""
        return self._reported(self.game.report(dice, throws, hand, blind=blind))

    def correct(self, player: str, dice: tuple[int, ...], throws: int, hand: bool, *,
                blind: bool = False) -> list[Moment]:
        """Put ``player``'s report of this round right (real dice); the current entry goes on."""
        return self._reported(self.game.correct(player, dice, throws, hand, blind=blind))

    def enter(self, action: Report | Correct | RollOff) -> list[Moment]:
        """A result thrown with real dice and entered elsewhere (a paired page, the link's host):
        the current turn's report, a correction, or the roll-off's throws; what comes next.
        The engine refuses what its rules do not allow (``IllegalActionError``)."""
        match action:
            case Report():
                return self._reported(self.game.apply(action))  # for its player's turn only
            case Correct(player=player, dice=dice, throws=throws, hand=hand, blind=blind):
                return self.correct(player, dice, throws, hand, blind=blind)
            case RollOff(dice=dice):
                contenders = self.game.contenders
                self.roll_off(dice)
                return [RollOffThrown(contenders, dice)]

    def _reported(self, events: list[Event]) -> list[Moment]:
        moments = self._taken(events)
        if any(isinstance(event, RoundOver) for event in events):
            return moments
        player = self.game.current_player
        assert player is not None
        return [*moments, HandOverDue(player)]

    def _end_turn(self, events: list[Event], before: TurnState, *, shows_dice: bool,
                 ) -> list[Moment]:
        """A turn ended (``before`` was its last state): record it, and return what comes next:
        the hand-over, or the reveal.

        ``shows_dice``: the turn ended by a person's last throw, so they see those dice first.
        """
        moments = self._taken(events)
        game = self.game
        over = next(event for event in events if isinstance(event, TurnOver))
        if any(isinstance(event, RoundOver) for event in events):
            return moments
        queue: list[Moment] = []
        if shows_dice:
            own = game.last_turn(over.player)
            assert own is not None
            fixed = [out and not game.rules.take_back for out in before.laid_out]
            dice = tuple(
                ShownDie(value, out=out, fixed=fix)
                for value, out, fix in zip(own.values, own.laid_out, fixed, strict=True)
            )
            queue.append(TurnEnded(over.player, before.throws + 1, before.limit, dice, over.name))
        seen = game.last_turn()
        assert seen is not None
        shown = tuple(
            ShownDie(value, out=out) for value, out in zip(seen.values, seen.laid_out, strict=True)
        )
        player = game.current_player
        assert player is not None
        queue.append(HandOverDue(player, before.player, shown))
        return queue

    def _taken(self, events: list[Event]) -> list[Moment]:
        """Record the action that caused ``events``, and return the moments they call for."""
        self.record(events)
        return self.follow(events)

    def follow(self, events: Sequence[Event]) -> list[Moment]:
        """Follow round and section changes; return the moments they call for, in order."""
        moments: list[Moment] = []
        half: int | None = None
        for event in events:
            match event:
                case RoundStarted(section=section, number=number):
                    self.section, self.round_number = section, number
                case RoundOver():
                    moments.append(RevealDue(event, self.round_number))
                case PenaltyGiven():
                    moments.append(PenaltyDue(event))
                case HalfOver():
                    half = len(moments)
                    moments.append(HalfLost(event))
                case FinalStarts(players=players) if half is not None:
                    lost = moments[half]
                    assert isinstance(lost, HalfLost)
                    moments[half] = replace(lost, final=players)
                case GameOver():
                    moments.append(GameEnded())
        game = self.game
        started = any(isinstance(event, RoundStarted) for event in events)
        if started and not game.is_over and not isinstance(events[0], RollOff):
            player = game.current_player
            assert player is not None
            moments.append(HandOverDue(player))
        return moments

    def next_moment(self) -> Moment:
        """What the game calls for when nothing else is queued."""
        game = self.game
        if game.is_over:
            return GameEnded()
        if game.phase is Phase.ROLL_OFF:
            return RollOffDue()
        player = game.current_player
        assert player is not None
        return HandOverDue(player)
