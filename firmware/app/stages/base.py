"""What every stage and overlay of the device app has in common, and the transitions between them.

A *stage* is one step of the game flow on the screen: the setup, the roll-off, a hand-over, a
turn, the dice after a last throw, the reveal, a banner. It handles the inputs routed to it, gives
the view to show (:mod:`firmware.screen.views`), and may act by itself at a time it names (a
computer player's next step, a screen that goes on when only computer players wait on it). It never
assigns the app's state: it returns a :data:`Transition` and the shell
(:class:`firmware.app.device.DeviceApp`) carries it out.

An *overlay* (the menu and its dialogs, :mod:`firmware.app.stages.menu`) sits on top of a stage
and gets the inputs while it is open; it returns the same transitions.

A stage that leads to another stage of its own kind names it (the hand-over's press goes to the
turn); where what comes next is the game's to say, the stage hands on the session's moments
(:mod:`firmware.app.session.moments`) in a :class:`Goto`, and the shell has the router
(:mod:`firmware.app.flow`) make their stages. No stage imports the router or the shell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from firmware.app.session.moments import Moment
from firmware.screen.oled_words import OledWords
from firmware.screen.views import TableCup, View
from hal.ports import Button, InputEvent

__all__ = [
    "CLOSE",
    "CLOSE_ALL",
    "CONTINUE",
    "OK_BUTTONS",
    "Close",
    "CloseAll",
    "Continue",
    "Goto",
    "Overlay",
    "PowerOff",
    "Push",
    "RulesChoice",
    "Stage",
    "Transition",
    "close_all_step",
    "close_step",
]

#: The buttons that confirm (OK) on every screen.
OK_BUTTONS = (Button.KEEP_3, Button.STAND)


class Stage:
    """One step of the game flow. Subclasses override what they use; the defaults do nothing."""

    #: Whether a game is under way on this stage (False only for the setup).
    in_game: ClassVar[bool] = True
    #: Whether this is the last screen of a game, which waits for the next (the game's end).
    ends_game: ClassVar[bool] = False

    def on_input(self, event: InputEvent) -> Transition | None:
        """Act on a decoded input; return where to go, or None to stay."""
        return None

    def view(self) -> View:
        """What the screen shows now."""
        raise NotImplementedError

    def table_view(self) -> View:
        """What anyone at the table may see of this screen: no die under the cup (the link's
        frames for an unpaired host). Most screens show nothing private."""
        return self.view()

    def table_cup(self) -> TableCup | None:
        """The cup of the turn under way as this screen shows it to the table (a turn's screen);
        None on every other screen."""
        return None

    def auto_at(self, now: float) -> float | None:
        """When this stage, if it became current at ``now``, acts by itself; None: it waits.

        The shell asks once and keeps the answer while the stage stays current (so a press does
        not postpone a computer player), and asks again after the step ran.
        """
        return None

    def auto_step(self) -> Transition | None:
        """The step taken by itself (also when someone presses to hurry a computer player)."""
        return None

    def frame_deadline(self) -> float | None:
        """When the next frame of an animation is due, or None."""
        return None

    def advance_frames(self, now: float) -> bool:
        """Move an animation on to ``now``; True if the view changed."""
        return False

    @property
    def bot_plays(self) -> bool:
        """Whether a computer player acts on this stage (presses only hurry it)."""
        return False

    @property
    def allows_blind(self) -> bool:
        """Whether the menu may offer Blind here (a person's turn)."""
        return False

    def announce_blind(self) -> Transition | None:
        """End the turn by Blind (offered by the menu where :attr:`allows_blind`)."""
        return None

    def rules_choice(self) -> RulesChoice | None:
        """The choice of rules the menu's "Regeln" changes, if this stage is the setup."""
        return None


class RulesChoice(Protocol):
    """A stage's choice of the next game's rules (the setup's): what the menu may change."""

    @property
    def rules(self) -> int:
        """The chosen rule set, an index into the session's rule options."""
        ...

    def choose_rules(self, index: int) -> None:
        """Take the rule set at ``index``, with its own number of Deckel."""
        ...


class Overlay:
    """Something on top of the stage that takes the inputs while it is open."""

    #: Only for the player holding the device: the table's view shows what lies under it.
    private: bool = False

    def on_input(self, event: InputEvent) -> Transition | None:
        """Act on a decoded input; return what to do, or None to stay."""
        raise NotImplementedError

    def view(self, texts: OledWords) -> View:
        """What the screen shows, in the language of ``texts``."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Goto:
    """Show ``steps[0]`` now and the others after it, in order: a stage as it is, a moment as
    the router makes it a stage.

    The steps replace whatever was queued, or go before it with ``keep_queue``. The overlays
    close.
    """

    steps: tuple[Stage | Moment, ...]
    keep_queue: bool = False


@dataclass(frozen=True, slots=True)
class Continue:
    """Go on to the next queued stage, or to what the game calls for
    (:meth:`~firmware.app.session.table.Table.next_moment`)."""


@dataclass(frozen=True, slots=True)
class Push:
    """Open an overlay on top of the others."""

    overlay: Overlay


@dataclass(frozen=True, slots=True)
class Close:
    """Close the top overlay."""


@dataclass(frozen=True, slots=True)
class CloseAll:
    """Close every overlay."""


@dataclass(frozen=True, slots=True)
class PowerOff:
    """Show ``stage`` for good and run the shut-down hook."""

    stage: Stage


Transition = Goto | Continue | Push | Close | CloseAll | PowerOff
CONTINUE = Continue()
CLOSE = Close()
CLOSE_ALL = CloseAll()

#: A step a stage takes later (a menu entry's action, a banner's follow-up).
Step = Callable[[], Transition | None]


def close_step() -> Transition:
    """A menu entry that only closes its menu ("no", "continue")."""
    return CLOSE


def close_all_step() -> Transition:
    """A menu entry that closes every overlay."""
    return CLOSE_ALL
