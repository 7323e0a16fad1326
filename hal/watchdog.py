"""systemd's service notifications: READY=1 after the first frame, then the watchdog pings.

The unit (``deploy/schockbesteck.service``) says ``Type=notify`` and ``WatchdogSec=``: systemd
counts the service as started only when it sends ``READY=1``, and kills and restarts it when no
``WATCHDOG=1`` comes for that long. :class:`WatchdogPinger` sends both from the main loop, as one
of the loop's timed objects (``next_deadline()`` / ``advance(now)``): a loop that hangs stops
pinging, and systemd restarts the device.

The messages go through a published library, imported here only (a backend module):

1. ``systemd.daemon.notify`` from python-systemd, the binding Raspberry Pi OS and Debian package
   as ``python3-systemd`` (install.sh installs it; the venv sees it through
   ``--system-site-packages``);
2. else ``sdnotify``'s ``SystemdNotifier`` (pure Python, from PyPI with the ``pi`` extra);
3. else nothing: on a laptop, or outside systemd (no ``$NOTIFY_SOCKET``), the pinger has no
   deadline at all and the loop sleeps as before.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping

__all__ = ["Notify", "WatchdogPinger", "open_notifier", "systemd_pinger", "watchdog_interval"]

logger = logging.getLogger(__name__)

#: Sends one notification such as ``"READY=1"`` to systemd.
Notify = Callable[[str], object]


def open_notifier(environ: Mapping[str, str] | None = None) -> tuple[Notify, str] | None:
    """A function that sends to ``$NOTIFY_SOCKET`` and the library's name; None if none applies.

    None when the service manager gave no notification socket (not started by systemd, or not
    ``Type=notify``) or when neither python-systemd nor sdnotify is installed.
    """
    environ = os.environ if environ is None else environ
    if not environ.get("NOTIFY_SOCKET"):
        return None
    try:
        from systemd import daemon

        return daemon.notify, "python-systemd"
    except ImportError:
        pass
    try:
        from sdnotify import SystemdNotifier
    except ImportError:
        logger.warning(
            "NOTIFY_SOCKET is set but neither python3-systemd nor sdnotify is installed: "
            "systemd will not hear that the device is ready or alive"
        )
        return None
    return SystemdNotifier().notify, "sdnotify"


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pings: half of ``$WATCHDOG_USEC``, as sd_watchdog_enabled(3) advises.

    None when the watchdog is off: no ``$WATCHDOG_USEC``, a value that is not a positive whole
    number, or a ``$WATCHDOG_PID`` naming another process (the variable was inherited).
    """
    environ = os.environ if environ is None else environ
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if not (usec.isascii() and usec.isdigit()) or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 2_000_000


class WatchdogPinger:
    """READY=1 once, at the loop's first step after the first frame; then WATCHDOG=1 regularly.

    A timed object for the main loop: :meth:`next_deadline` says when it is due and
    :meth:`advance` does what is due. It is due at once when made (the loop's first step comes
    right after :meth:`~firmware.loop.MainLoop.start` has shown the first frame), then every
    ``interval`` seconds; without an interval (watchdog off) it is never due again after READY=1.
    """

    def __init__(self, notify: Notify, interval: float | None) -> None:
        self._notify = notify
        self.interval = interval
        self.ready = False
        self.pings = 0
        self._due: float | None = float("-inf")

    def next_deadline(self) -> float | None:
        """When the next message is due (minus infinity: now), None if nothing more is."""
        return self._due

    def advance(self, now: float) -> None:
        """Send what is due at ``now``: READY=1 the first time, and a watchdog ping."""
        if self._due is None or now < self._due:
            return
        if not self.ready:
            self.ready = True
            self._notify("READY=1\nSTATUS=Schockbesteck is running")
        if self.interval is None:
            self._due = None
            return
        self._notify("WATCHDOG=1")
        self.pings += 1
        self._due = now + self.interval

    def stopping(self) -> None:
        """Tell systemd the service is shutting down on purpose (after SIGTERM)."""
        self._due = None
        self._notify("STOPPING=1")


def systemd_pinger(environ: Mapping[str, str] | None = None) -> WatchdogPinger | None:
    """The pinger for this process as systemd started it, or None outside a notify service."""
    opened = open_notifier(environ)
    if opened is None:
        return None
    notify, library = opened
    interval = watchdog_interval(environ)
    if interval is None:
        logger.info("systemd notifications through %s; watchdog off", library)
    else:
        logger.info(
            "systemd notifications through %s; watchdog ping every %.1f s", library, interval
        )
    return WatchdogPinger(notify, interval)
