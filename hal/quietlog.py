"""A log that says what a client did once, in one line, however often the client does it.

Whatever a client can send (a bad HTTP request, a bad WebSocket frame, a line that trips a bug
of ours) must not become a traceback in the device's log, nor a storm of lines that a script can
make as fast as it reconnects: :class:`QuietLog` writes one line per kind of trouble at most once
every :data:`QUIET_INTERVAL_S`, and says in that line how many it left out since the last.
:func:`where_it_failed` names the place of an error in one line, without its class or traceback.

Any thread: a lock guards the counts.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["QUIET_INTERVAL_S", "QuietLog", "failure_place", "where_it_failed"]

#: Seconds between two lines of one kind of trouble.
QUIET_INTERVAL_S = 60.0
#: Kinds of trouble remembered (the oldest is forgotten first).
KINDS_KEPT = 64


class QuietLog:
    """One line per ``kind`` at most every ``interval`` seconds on ``logger``; the next line of
    that kind says how many were left out meanwhile."""

    def __init__(
        self,
        logger: logging.Logger,
        interval: float = QUIET_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        #: Per kind: when its last line was written, and how many were left out since.
        self._kinds: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def note(self, kind: str, message: str, level: int = logging.WARNING) -> bool:
        """Log ``message`` (one line) unless a line of ``kind`` went out within the interval;
        whether it was written."""
        now = self._clock()
        with self._lock:
            last = self._kinds.get(kind)
            if last is not None and now - last[0] < self._interval:
                self._kinds[kind] = (last[0], last[1] + 1)
                return False
            left_out = last[1] if last is not None else 0
            self._kinds.pop(kind, None)
            self._kinds[kind] = (now, 0)
            while len(self._kinds) > KINDS_KEPT:
                self._kinds.popitem(last=False)
        if left_out:
            minutes = self._interval / 60
            message += f" ({left_out} more like it in the last {minutes:g} min not logged)"
        self._logger.log(level, "%s", " ".join(message.split()))
        return True


def failure_place(error: BaseException) -> str:
    """Where ``error`` was raised: ``path:line`` of the innermost frame, the path from the
    project's (or the installed libraries') folder on; "" without a traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    path = last.filename.replace("\\", "/")
    for root in ("/engine/", "/firmware/", "/hal/", "/sim/", "/site-packages/"):
        if root in path:
            path = root.strip("/") + "/" + path.rsplit(root, 1)[1]
            break
    return f"{path}:{last.lineno}"


def where_it_failed(error: BaseException) -> str:
    """``error``'s words and where it was raised (:func:`failure_place`): one line, without the
    exception's class or a traceback."""
    words = " ".join(str(error).split()) or "no message"
    place = failure_place(error)
    return f"{words} at {place}" if place else words
