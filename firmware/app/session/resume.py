"""Resuming the game a power cut interrupted, at the moment its last action led to.

Every action but the last is replayed into the game through the table; the last one goes
through the same table code as when it was played, so the moment (hand-over, reveal, banners)
is the one the players saw. The screen's state after the last action that is not an action
(which dice were marked to lay out, the result being entered) comes from the journal's note
(:data:`~firmware.store.journal.Note`), which the journal's reader has checked against the
game. Nothing replayed is written or announced again. :func:`opening` is where the device
begins: that game if there is one, else the game asked for, else the setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import (
    Blind,
    Correct,
    Drop,
    Event,
    Flip,
    GoScharf,
    HalfOver,
    Penalty,
    Report,
    Roll,
    RollOff,
    Stand,
)
from engine.game import GameSetup
from firmware.app.session.moments import (
    EntryGoesOn,
    HandOverDue,
    Moment,
    RevealDue,
    RollOffDue,
    RollOffThrown,
    TurnEnded,
    TurnGoesOn,
)
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.store.journal import EntryNote, KeepMarks, Recovery

__all__ = ["Opening", "opening", "resume", "whose_screen"]


@dataclass(frozen=True, slots=True)
class Opening:
    """Where the device begins: the moments it stands at; for a resumed game whose screen they
    bring back (:func:`whose_screen`) and the computer players per seat asked for before the
    resumed game's replaced them (what "Neu" over it goes back to)."""

    moments: tuple[Moment, ...]
    resumed: bool = False
    whose: str | None = None
    asked_bots: tuple[str, ...] = ()


def opening(session: Session, setup: GameSetup | None) -> Opening:
    """Begin: the game a power cut interrupted goes on (one with nothing played or entered yet
    is dropped), else ``setup`` starts, else the setup (from what is remembered, or planned)."""
    recovery = session.find_interrupted_game()
    if recovery is not None:
        asked = session.seat_bots  # the command line's, before the old game's replace them
        moments = resume(session, recovery)
        whose = whose_screen(moments, session.require_table())
        return Opening(tuple(moments), resumed=True, whose=whose, asked_bots=asked)
    return Opening((session.new_setup() if setup is None else session.start_game(setup),))


def resume(session: Session, recovery: Recovery) -> list[Moment]:
    """Rebuild the interrupted game in ``session``; return the moments it stands at."""
    header = recovery.header
    table = session.open_table(recovery.setup, header.bots)
    game = table.game
    moments: list[Moment] = [RollOffDue()]
    table.recording = False
    note = recovery.note
    # The time box changes no screen: the moment is the one of the last action before it.
    actions = list(recovery.actions)
    scharf = [actions.pop()] if actions and isinstance(actions[-1], GoScharf) else []
    try:
        for action in actions[:-1]:
            table.follow(game.apply(action))
        if actions:
            marks = note.marks if isinstance(note, KeepMarks) else None
            moments = _replay_last(table, actions[-1], marks)
        for action in scharf:
            table.follow(game.apply(action))
        if isinstance(note, EntryNote):
            # The table had gone past these screens and was entering a result: back to it.
            moments = [EntryGoesOn(note)]
    finally:
        table.recording = True
    session.mark_resumed(recovery)
    return moments


def whose_screen(moments: list[Moment], table: Table) -> str | None:
    """The player whose screen the first of ``moments`` brings back: the one who threw last on
    their last-throw screen, the one the cup goes to, or the one whose turn goes on; None for
    the roll-off and the reveal, which are nobody's."""
    game = table.game
    match moments[0] if moments else None:
        case TurnEnded(player=player) | HandOverDue(player=player):
            return player
        case RollOffDue() | RollOffThrown() | RevealDue():
            return None
        case _:
            return game.current_player


def _replay_last(table: Table, action: Event, marks: tuple[bool, ...] | None) -> list[Moment]:
    """The moments after the last action; a turn that goes on gets its marks from the UI note."""
    game = table.game
    turn = game.turn
    match action:
        case RollOff(dice=dice):
            contenders = game.contenders
            table.roll_off(dice)
            return [RollOffThrown(contenders, dice)]
        case Roll(keep=keep, dice=dice):
            shows_dice = not table.is_bot(game.current_player)
            moments = table.roll(keep, dice, shows_dice=shows_dice)
            if moments is not None:
                return moments
            after = game.turn
            assert after is not None
            return [TurnGoesOn(_restored(table, list(after.laid_out), marks))]
        case Flip():
            assert turn is not None
            flipped = table.flip(turn.laid_out)
            return [TurnGoesOn(_restored(table, list(flipped), marks))]
        case Stand() | Blind():
            return table.stand(blind=isinstance(action, Blind))
        case Report(dice=dice, throws=throws, hand=hand, blind=blind):
            return table.report(dice, throws, hand, blind=blind)
        case Correct(player=player, dice=dice, throws=throws, hand=hand, blind=blind):
            return table.correct(player, dice, throws, hand, blind=blind)
        case Penalty() | Drop():
            events = game.apply(action)
            moments = table.follow(events)
            after = game.turn
            if after is not None and not any(isinstance(event, HalfOver) for event in events):
                moments.append(
                    TurnGoesOn(tuple(after.laid_out)) if after.throws
                    else HandOverDue(after.player)
                )
            return moments
    raise ValueError(f"not an action a journal keeps: {action!r}")


def _restored(table: Table, marks: list[bool], noted: tuple[bool, ...] | None,
              ) -> tuple[bool, ...]:
    """The dice the journal's note marks (the reader checked that they may be laid out), if it
    has one for this turn; else ``marks``."""
    if noted is None or len(noted) != len(marks):
        return tuple(marks)
    return noted
