"""The engine's exceptions: each is a ValueError with a one-line message naming the problem.

An action the rules refuse also carries a :class:`Reason`, so that a user interface can say why
in its own words (and its own language) without re-deriving the rules: ``IllegalActionError.reason``
and :meth:`engine.game.Game.why_not` give the same reason for the same position and action.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class SchockenError(ValueError):
    """Base class of everything the engine refuses."""


class Reason(enum.Enum):
    """Why the rules refuse an action now."""

    #: Anything that is not about the position: bad dice, an unknown player, a malformed action.
    INVALID = "invalid"
    GAME_OVER = "game_over"
    #: The roll-off (auswürfeln) has to decide who opens first.
    ROLL_OFF_FIRST = "roll_off_first"
    ROLL_OFF_OVER = "roll_off_over"
    NO_TURN = "no_turn"
    NOT_YOUR_TURN = "not_your_turn"
    #: The action needs a throw first (laying out, flipping, standing).
    NOT_THROWN = "not_thrown"
    #: Every throw of the turn is used: only standing is left.
    NO_THROWS_LEFT = "no_throws_left"
    #: Every die is laid out: nothing is left in the cup to throw.
    ALL_LAID_OUT = "all_laid_out"
    #: A throw that would lay out every die.
    KEEPS_EVERY_DIE = "keeps_every_die"
    #: A laid-out die taken back under ``take_back = false``.
    STAYS_OUT = "stays_out"
    #: After a flip, the other six goes back into the cup.
    SIX_GOES_BACK = "six_goes_back"
    #: ``keep_only_ones``: only ones (and sixes under Bördeschock) may be laid out.
    ONLY_ONES = "only_ones"
    NO_FLIPPING = "no_flipping"
    ALREADY_FLIPPED = "already_flipped"
    #: Flipping needs two sixes (among the thrown dice, or any under Bördeschock).
    NO_TWO_SIXES = "no_two_sixes"
    #: A flip after the last allowed throw, or standing right after a flip: the cup must go on.
    MUST_THROW = "must_throw"
    NO_BLIND = "no_blind"
    BLIND_TOO_LATE = "blind_too_late"
    NO_PENALTY = "no_penalty"
    #: A dropped cup under ``dropped_cup = "deckel"``: the rules give the penalty instead.
    DROP_IS_PENALTY = "drop_is_penalty"
    #: A second dropped cup in a round that already has its loser.
    ALREADY_DROPPED = "already_dropped"
    #: A throw, flip, stand or Blind of the device's dice in a game played with real dice.
    REAL_DICE = "real_dice"
    #: A reported turn (or its correction) in a game played with the device's dice.
    DEVICE_DICE = "device_dice"
    #: A report with more throws than the round's limit allows.
    OVER_LIMIT = "over_limit"
    #: A report whose dice cannot have come about as it says: a single throw that is not from
    #: the hand, a built result without a laid-out one where only ones may be laid out.
    IMPOSSIBLE_REPORT = "impossible_report"
    #: A correction for a player without a report in this round (or after the round settled).
    NOTHING_TO_CORRECT = "nothing_to_correct"
    #: A correction that would make a later entry of the round impossible (a lower limit).
    CORRECTION_CONFLICT = "correction_conflict"
    #: The time box ran out a second time: the game already goes on "scharf".
    ALREADY_SCHARF = "already_scharf"


class IllegalActionError(SchockenError):
    """An action that the rules do not allow now, or dice that cannot be (not 1-6, wrong count)."""

    def __init__(self, message: str, reason: Reason = Reason.INVALID) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is illegal now: a reason for programs and a message for people."""

    reason: Reason
    message: str

    def error(self) -> IllegalActionError:
        """The exception a checked action raises for this refusal."""
        return IllegalActionError(self.message, self.reason)


class RulesError(SchockenError):
    """A house-rule file or preset that cannot be used: unknown name, unknown or ill-typed key."""
