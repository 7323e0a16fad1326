"""The child processes the simulator and the tests start (a private mosquitto, ``schocken hub
serve``): wait until one listens, stop it cleanly, or kill it as a crash would; and children
that end with the process that started them, whatever ends it (:func:`tied_to_this_process`)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from enum import Enum
from typing import Any

__all__ = [
    "ChildProcess", "Started", "await_port", "free_port", "kill", "stop", "tied_to_this_process",
]

#: prctl(2)'s option that asks the kernel for a signal when the parent dies, and the signal.
_PR_SET_PDEATHSIG = 1
_SIGKILL = int(signal.SIGKILL)


def tied_to_this_process() -> dict[str, Any]:
    """Popen's options for a child that ends with this process, whatever ends it.

    The child stays in this process's group (a kill of the group, as ``timeout`` and Ctrl+C
    send, ends it too), and on Linux the kernel sends it SIGKILL when this process dies, even
    by SIGKILL (``prctl(PR_SET_PDEATHSIG)`` through ctypes, set between fork and exec; a child
    whose parent died before that ends at once). Elsewhere the options are empty: the caller's
    own clean-up stops the child. The parent is the thread that starts the child: start it
    from a thread that lives as long as the child is to (the main thread). A child that
    changes its user (mosquitto started as root) loses the signal (prctl(2)).
    """
    death_signal = _death_signal_setter()
    return {} if death_signal is None else {"preexec_fn": death_signal}


def _death_signal_setter() -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def set_death_signal() -> None:  # in the child, between fork and exec: no allocation
        prctl(_PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)

    return set_death_signal


class Started(Enum):
    """How waiting for a child's port ended."""

    LISTENING = "listening"
    EXITED = "exited"
    TIMED_OUT = "timed out"


def free_port() -> int:
    """A loopback port no one listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def await_port(process: subprocess.Popen[bytes], port: int, timeout_s: float) -> Started:
    """Wait until ``port`` on 127.0.0.1 takes connections, the process ends, or time is up."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return Started.EXITED
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return Started.LISTENING
        except OSError:
            time.sleep(0.02)
    return Started.TIMED_OUT


def stop(process: subprocess.Popen[bytes] | None, timeout_s: float = 10.0) -> None:
    """A clean stop (SIGTERM), and SIGKILL if it has not ended within ``timeout_s``."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout_s)


def kill(process: subprocess.Popen[bytes] | None) -> None:
    """``kill -9``: no goodbye, nothing saved beyond what it saved already."""
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)


class ChildProcess:
    """What a started child (a broker, the hub) can be asked: whether it runs, a clean stop, a
    ``kill -9``. The subclass sets ``_process`` when it starts one."""

    _process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """A clean stop (SIGTERM); a broker saves its database first."""
        stop(self._process)
        self._process = None

    def kill(self) -> None:
        """``kill -9``: no goodbye, nothing saved beyond what was saved already."""
        kill(self._process)
        self._process = None
