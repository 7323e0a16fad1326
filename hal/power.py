"""Display power: dim after a while without input, sleep later, wake on any input.

:class:`PowerManager` works on any :class:`~hal.ports.Display` (the OLED, the simulator's
window) and, like the input decoder, is driven by ``next_deadline``/``advance`` on the main
loop's clock, so its timing runs on a fake clock in tests. At a pub table left on all night it
keeps the OLED from burning in.
"""

from __future__ import annotations

import enum
from dataclasses import replace

from hal.ports import Clock, Display
from hal.settings import OledSettings

__all__ = ["PowerManager", "PowerState"]


class PowerState(enum.Enum):
    """The panel's power state under :class:`PowerManager`."""

    AWAKE = "awake"
    DIMMED = "dimmed"
    ASLEEP = "asleep"


class PowerManager:
    """Dims the display after ``dim_after_s`` without input and sleeps it after ``sleep_after_s``.

    Call :meth:`activity` on every input; it wakes the panel (full contrast, shown) and restarts
    the idle time. Drive it like the input decoder: sleep until :meth:`next_deadline`, then call
    :meth:`advance`. A threshold of 0 switches that step off.
    """

    def __init__(
        self, display: Display, clock: Clock, settings: OledSettings | None = None
    ) -> None:
        self._display = display
        self._settings = settings if settings is not None else OledSettings()
        self._last_activity = clock.now()
        self._state = PowerState.AWAKE
        display.contrast(self._settings.contrast)
        display.show()

    @property
    def state(self) -> PowerState:
        """Awake, dimmed or asleep."""
        return self._state

    def activity(self, now: float) -> bool:
        """Note an input at ``now`` and wake the panel; True if it was dimmed or asleep.

        The firmware may use the result to swallow the press that only woke the display.
        """
        self._last_activity = max(self._last_activity, now)
        if self._state is PowerState.AWAKE:
            return False
        self._display.contrast(self._settings.contrast)
        if self._state is PowerState.ASLEEP:
            self._display.show()
        self._state = PowerState.AWAKE
        return True

    def set_contrast(self, level: int) -> None:
        """Change the awake brightness (the menu's setting); applied now unless dimmed or asleep."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"contrast must be a level from 0 to 255, not {level!r}")
        self._settings = replace(self._settings, contrast=level)
        if self._state is PowerState.AWAKE:
            self._display.contrast(level)

    def next_deadline(self) -> float | None:
        """When the panel next dims or sleeps, or None if nothing more will happen."""
        target = self._next_step()
        return None if target is None else target[0]

    def advance(self, now: float) -> None:
        """Dim or sleep the panel if the idle time has come."""
        while (target := self._next_step()) is not None and target[0] <= now:
            state = target[1]
            if state is PowerState.DIMMED:
                self._display.contrast(self._settings.dim_contrast)
            else:
                self._display.hide()
            self._state = state

    def _next_step(self) -> tuple[float, PowerState] | None:
        settings = self._settings
        sleep_at = self._last_activity + settings.sleep_after_s if settings.sleep_after_s else None
        dim_at = self._last_activity + settings.dim_after_s if settings.dim_after_s else None
        if self._state is PowerState.ASLEEP:
            return None
        if (
            self._state is PowerState.AWAKE
            and dim_at is not None
            and (sleep_at is None or dim_at < sleep_at)
        ):
            return dim_at, PowerState.DIMMED
        return None if sleep_at is None else (sleep_at, PowerState.ASLEEP)
