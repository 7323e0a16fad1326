"""What every stage of the device app has in common, and the transitions between stages.

A *stage* is one step of the game flow on the screen: the setup, the roll-off, a hand-over, a
turn, the dice after a last throw, the reveal, a banner. It handles the inputs routed to it, gives
the view to show (:mod:`firmware.screen.views`), and may act by itself at a time it names (a
computer player's next step, a screen that goes on when only computer players wait on it). It never
assigns the app's state: it returns a :data:`Transition` and the shell
(:class:`firmware.app.DeviceApp`) carries it out.

An *overlay* (the menu and its dialogs, :mod:`firmware.app.menu`) sits on top of a stage and gets
the inputs while it is open; it returns the same transitions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from firmware.screen.views import View
from hal.ports import Button, InputEvent

if TYPE_CHECKING:
    from firmware.app.overlays import Overlay
    from firmware.app.setup import SetupStage

__all__ = [
    "CLOSE",
    "CLOSE_ALL",
    "CONTINUE",
    "OK_BUTTONS",
    "Close",
    "CloseAll",
    "Continue",
    "Goto",
    "PowerOff",
    "Push",
    "Stage",
    "Transition",
    "close_all_step",
    "close_step",
]

#: The buttons that confirm (OK) on every screen.
OK_BUTTONS = (Button.KEEP_3, Button.STAND)


class Stage:
    """One step of the game flow. Subclasses override what they use; the defaults do nothing."""

    #: The stage's name, as tests and the view log print it.
    name: ClassVar[str] = "stage"
    #: Whether a game is under way on this stage (False only for the setup).
    in_game: ClassVar[bool] = True

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

    def setup_choice(self) -> SetupStage | None:
        """The setup whose choices the menu's rules change, if this stage is the setup."""
        return None


@dataclass(frozen=True, slots=True)
class Goto:
    """Show ``stages[0]`` now and the others after it, in order.

    The stages replace whatever was queued, or go before it with ``keep_queue``. The overlays
    close.
    """

    stages: tuple[Stage, ...]
    keep_queue: bool = False


@dataclass(frozen=True, slots=True)
class Continue:
    """Go on to the next queued stage, or to the one the game calls for (see :meth:`Table.next`)."""


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
