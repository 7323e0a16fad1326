"""The device's clock: ``time.monotonic`` and a main-loop wait that blocks on the edge queue."""

from __future__ import annotations

import time
from collections.abc import Callable

from hal.ports import Edge

__all__ = ["MonotonicClock"]


class MonotonicClock:
    """The real :class:`~hal.ports.Clock`: immune to wall-clock jumps (NTP, a dead RTC)."""

    def now(self) -> float:
        """Seconds on ``time.monotonic``'s scale."""
        return time.monotonic()

    def wait(
        self, deadline: float | None, poll: Callable[[float | None], Edge | None]
    ) -> Edge | None:
        """Block in ``poll`` until an edge arrives (returned) or ``deadline`` passes (None).

        Without a deadline, ``poll`` blocks without a timeout and whatever it returns is returned.
        If ``poll`` comes back empty-handed before the deadline, it is called again with the
        remaining time, so the wait never ends early.
        """
        if deadline is None:
            return poll(None)
        while True:
            remaining = deadline - time.monotonic()
            edge = poll(max(remaining, 0.0))
            if edge is not None or remaining <= 0 or time.monotonic() >= deadline:
                return edge
