"""The router: the one place where a moment of the game becomes the stage that shows it.

The session names what comes next (:mod:`firmware.app.session.moments`); the stages show it
(:mod:`firmware.app.stages`). Neither knows the other's side of this table: a new moment is a
record in ``moments.py``, a line here and a stage. The shell
(:class:`~firmware.app.device.DeviceApp`) asks :func:`stage_for` whenever a transition carries a
moment, or when nothing is queued and the game says what is due
(:meth:`~firmware.app.session.table.Table.next_moment`).
"""

from __future__ import annotations

from typing import assert_never

from firmware.app.session.moments import (
    EntryGoesOn,
    EveningStandings,
    GameEnded,
    HalfLost,
    HandOverDue,
    Moment,
    PenaltyDue,
    RevealDue,
    RollOffDue,
    RollOffThrown,
    SetupDue,
    ShownDie,
    TurnEnded,
    TurnGoesOn,
)
from firmware.app.session.session import Session
from firmware.app.stages.base import Stage
from firmware.app.stages.entry import EntryStage
from firmware.app.stages.reveal import GameOverBanner, HalfOverBanner, PenaltyBanner, RevealStage
from firmware.app.stages.rolloff import RollOffStage
from firmware.app.stages.setup import SetupStage
from firmware.app.stages.standings import StandingsStage
from firmware.app.stages.turn import HandOverStage, TurnDoneStage, TurnStage
from firmware.screen.views import DieFace

__all__ = ["stage_for"]


def stage_for(moment: Moment, session: Session) -> Stage:
    """The stage that shows ``moment`` in ``session`` (its game, for every moment but the
    setup)."""
    if isinstance(moment, SetupDue):
        return SetupStage.starting(session, moment)
    table = session.require_table()  # every other moment is of the game under way
    if table.game.real_dice and isinstance(moment, RollOffDue | HandOverDue):
        # Real dice: the table throws; the device takes each result as it is entered.
        return EntryStage(session, table)
    match moment:
        case RollOffDue():
            return RollOffStage(session, table)
        case RollOffThrown(contenders=contenders, throws=throws):
            roll_off = RollOffStage(session, table)
            roll_off.show(contenders, throws)
            return roll_off
        case HandOverDue(player=player, previous=previous, shown=shown):
            return HandOverStage(session, table, player, previous, _faces(shown))
        case TurnGoesOn(marks=marks):
            return TurnStage(session, table, list(marks))
        case TurnEnded(player=player, throws=throws, limit=limit, dice=dice, throw_name=name):
            return TurnDoneStage(session, table, player, throws, limit, _faces(dice), name)
        case RevealDue(result=result, round_number=number):
            return RevealStage(session, table, result, number)
        case PenaltyDue(event=event):
            return PenaltyBanner(session, table, event)
        case HalfLost(event=event, final=final):
            return HalfOverBanner(session, table, event, final)
        case GameEnded():
            return GameOverBanner(session, table)
        case EntryGoesOn(entry=entry):
            return EntryStage(session, table, list(entry.dice), entry.throws, entry.hand,
                              entry.correcting, list(entry.roll_off),
                              settling=entry.settling)
        case EveningStandings():
            return StandingsStage(session, moment)
        case _:
            assert_never(moment)


def _faces(dice: tuple[ShownDie, ...]) -> tuple[DieFace, ...]:
    return tuple(DieFace(die.value, out=die.out, fixed=die.fixed) for die in dice)
