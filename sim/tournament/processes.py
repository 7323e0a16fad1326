"""The child processes the simulator and the tests start (a private mosquitto, ``schocken hub
serve``): wait until one listens, stop it cleanly, or kill it as a crash would."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from enum import Enum

__all__ = ["ChildProcess", "Started", "await_port", "free_port", "kill", "stop"]


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
