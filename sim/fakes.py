"""Fakes of the hal ports for tests and headless simulation."""

from __future__ import annotations

from collections.abc import Callable

from hal.ports import Edge

__all__ = ["FakeClock"]


class FakeClock:
    """A :class:`~hal.ports.Clock` whose time moves only when told to, or when waited on.

    ``wait`` never sleeps: it returns a queued edge if there is one, otherwise it jumps straight to
    the deadline. Scripts and tests therefore run as fast as the code allows, and every timeout
    (debounce, long press, settle, display dimming) is reached exactly.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._held: Edge | None = None

    def now(self) -> float:
        """The fake time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds`` (not backwards) and return the new time."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go backwards: advance({seconds})")
        self._now += seconds
        return self._now

    def set(self, at: float) -> None:
        """Move time forward to ``at``; a time in the past is an error."""
        if at < self._now:
            raise ValueError(f"a clock cannot go backwards: set({at}) at {self._now}")
        self._now = float(at)

    def wait(
        self, deadline: float | None, poll: Callable[[float | None], Edge | None]
    ) -> Edge | None:
        """Take a queued edge without waiting; otherwise jump to ``deadline`` and return None.

        An edge stamped after ``deadline`` (a scripted edge from the future) is held back until
        the clock reaches its stamp, so timers fire at their exact time, as on the device. Time
        never moves backwards: a deadline in the past leaves it where it is.
        """
        edge = self._held if self._held is not None else poll(0)
        self._held = None
        if edge is not None and deadline is not None and edge.at > max(deadline, self._now):
            self._held = edge
            edge = None
        if edge is not None:
            self._now = max(self._now, edge.at)
            return edge
        if deadline is not None:
            self._now = max(self._now, deadline)
        return None
