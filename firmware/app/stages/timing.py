"""The device app's timings, in seconds on the app's clock."""

from __future__ import annotations

__all__ = ["BOT_PAUSE_S", "BOT_SHAKE_S", "BOT_STEP_S", "FRAME_S"]

#: Seconds between frames of the shaking animation.
FRAME_S = 0.15
#: Seconds a computer player takes for each action (laying out, shaking, flipping, standing).
BOT_STEP_S = 1.0
#: Seconds a computer player shakes the cup before the dice fall.
BOT_SHAKE_S = 0.6
#: Seconds a hand-over to a computer player, or a screen only computer players wait on, stays.
BOT_PAUSE_S = 2.0
