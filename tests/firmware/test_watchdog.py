"""systemd's notify protocol on a real socket: READY=1 after the first frame, watchdog pings.

Each test binds a unix datagram socket in a temporary directory and points ``$NOTIFY_SOCKET`` at
it, as systemd does for a ``Type=notify`` service; what arrives there is what systemd would hear.
The sending library is the real one: sdnotify from the ``pi`` extra in the test venv, and
python-systemd (Debian's python3-systemd, the one the device prefers) under the system Python.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from pytest_mock import MockerFixture

from engine import GameSetup
from firmware.dice import SeededDice
from firmware.wiring import Device
from hal.watchdog import WatchdogPinger, open_notifier, systemd_pinger, watchdog_interval
from sim.fakes import FakeClock
from tests.harness import build_test_device

REPO = Path(__file__).resolve().parents[2]


class NotifySocket:
    """A service manager's end of ``$NOTIFY_SOCKET``: a bound unix datagram socket."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.setblocking(False)

    def received(self) -> list[str]:
        """Every message that arrived since the last call, in order."""
        messages = []
        while True:
            try:
                messages.append(self.sock.recv(4096).decode())
            except BlockingIOError:
                return messages

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[NotifySocket]:
    listener = NotifySocket(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", str(listener.path))
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield listener
    listener.close()


def device_on_mock_pins(factory: MockFactory, clock: FakeClock) -> Device:
    return build_test_device(
        clock=clock, pins=factory, dice=SeededDice(7), setup=GameSetup(("Anna", "Ben"))
    )


# --- the pinger in the device's main loop --------------------------------------------------------


def test_ready_after_the_first_frame_then_pings_on_the_loop_clock(
    notify_socket: NotifySocket, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")  # WatchdogSec=2: a ping every second
    clock = FakeClock(500.0)
    device = device_on_mock_pins(mock_factory, clock)
    pinger = systemd_pinger()
    assert pinger is not None and pinger.interval == 1.0
    device.loop.timers.append(pinger)

    assert device.display.frames_sent == 0  # type: ignore[attr-defined]
    device.loop.start()  # the first frame goes to the display here
    assert device.display.frames_sent == 1  # type: ignore[attr-defined]
    assert notify_socket.received() == []  # ... and nothing was said before it
    device.loop.step()
    assert notify_socket.received() == ["READY=1\nSTATUS=Schockbesteck is running", "WATCHDOG=1"]

    device.run(until=503.5)  # an idle device: the pinger alone wakes the loop

    assert notify_socket.received() == ["WATCHDOG=1"] * 3
    assert pinger.pings == 4
    device.close()


def test_a_loop_that_does_not_step_does_not_ping(
    notify_socket: NotifySocket, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory
) -> None:
    """Pings come from the loop's own steps, not from a thread: a hung loop falls silent."""
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    clock = FakeClock(0.0)
    device = device_on_mock_pins(mock_factory, clock)
    pinger = systemd_pinger()
    assert pinger is not None
    device.loop.timers.append(pinger)
    device.run(until=1.0)
    assert notify_socket.received()[-1] == "WATCHDOG=1"

    clock.advance(60.0)  # a minute in which the loop never got to run

    assert notify_socket.received() == []
    device.run(until=clock.now() + 0.1)
    assert notify_socket.received() == ["WATCHDOG=1"]
    device.close()


def test_watchdog_off_ready_once_and_the_loop_sleeps_again(
    notify_socket: NotifySocket, mock_factory: MockFactory
) -> None:
    clock = FakeClock(0.0)
    device = device_on_mock_pins(mock_factory, clock)
    pinger = systemd_pinger()
    assert pinger is not None and pinger.interval is None
    device.loop.timers.append(pinger)
    idle_deadline = device.loop.next_deadline()
    assert idle_deadline is not None and idle_deadline < 0  # due at once: READY=1

    device.run(until=5.0)

    assert notify_socket.received() == ["READY=1\nSTATUS=Schockbesteck is running"]
    assert pinger.next_deadline() is None
    device.close()


def test_stopping(notify_socket: NotifySocket) -> None:
    pinger = systemd_pinger()
    assert pinger is not None

    pinger.advance(0.0)
    pinger.stopping()
    pinger.advance(100.0)

    assert notify_socket.received() == ["READY=1\nSTATUS=Schockbesteck is running", "STOPPING=1"]


# --- where the pinger comes from ------------------------------------------------------------------


def test_no_notify_socket_no_pinger(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside systemd (the laptop, a shell on the Pi) nothing is sent and nothing scheduled."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)

    assert open_notifier() is None
    assert systemd_pinger() is None


def test_without_a_library_the_device_still_runs(
    notify_socket: NotifySocket, mocker: MockerFixture, caplog: pytest.LogCaptureFixture
) -> None:
    mocker.patch.dict(sys.modules, {"systemd": None, "sdnotify": None})
    caplog.set_level(logging.WARNING, logger="hal.watchdog")

    assert systemd_pinger() is None
    assert "neither python3-systemd nor sdnotify is installed" in caplog.text


def test_the_test_venv_uses_a_published_library(notify_socket: NotifySocket) -> None:
    opened = open_notifier()

    assert opened is not None
    notify, library = opened
    assert library in ("python-systemd", "sdnotify")
    notify("STATUS=hello")
    assert notify_socket.received() == ["STATUS=hello"]


@pytest.mark.parametrize(
    ("usec", "pid", "interval"),
    [
        ("30000000", None, 15.0),
        ("30000000", "self", 15.0),
        ("30000000", "1", None),  # inherited from another service's process
        ("0", None, None),
        ("", None, None),
        ("-5", None, None),
        ("３０", None, None),  # full-width digits are not a number here either
        ("30s", None, None),
    ],
)
def test_watchdog_interval(usec: str, pid: str | None, interval: float | None) -> None:
    environ = {"WATCHDOG_USEC": usec}
    if pid is not None:
        environ["WATCHDOG_PID"] = str(os.getpid()) if pid == "self" else pid

    assert watchdog_interval(environ) == interval


def test_pinger_is_due_at_once_then_every_interval() -> None:
    sent: list[str] = []
    pinger = WatchdogPinger(sent.append, 2.5)

    pinger.advance(10.0)
    pinger.advance(11.0)  # not due yet
    due = pinger.next_deadline()
    assert due == 12.5
    pinger.advance(due)

    assert sent == ["READY=1\nSTATUS=Schockbesteck is running", "WATCHDOG=1", "WATCHDOG=1"]


# --- python-systemd, as on the device ------------------------------------------------------------


@pytest.fixture(scope="session")
def system_python_with_systemd() -> str:
    """Debian's python3 with python3-systemd; skipped where either is missing (.ci/run installs
    python3-systemd before make test: a test installs nothing)."""
    python = "/usr/bin/python3"
    probe = [python, "-c", "import systemd.daemon"]
    if not os.path.exists(python) or subprocess.run(probe, capture_output=True).returncode != 0:
        pytest.skip("python3-systemd is missing: apt-get install python3-systemd (.ci/run does)")
    return python


def test_python_systemd_is_preferred(
    system_python_with_systemd: str, notify_socket: NotifySocket
) -> None:
    """hal.watchdog needs only the standard library, so Debian's own Python can run it."""
    script = (
        "import logging, sys; logging.basicConfig(level=logging.INFO, stream=sys.stdout)\n"
        "from hal.watchdog import systemd_pinger\n"
        "pinger = systemd_pinger()\n"
        "pinger.advance(0.0)\n"
        "pinger.advance(pinger.next_deadline())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "WATCHDOG_USEC": "4000000"}
    env.pop("WATCHDOG_PID", None)

    proc = subprocess.run(
        [system_python_with_systemd, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
        check=False,
    )

    assert proc.returncode == 0, proc.stderr
    assert "systemd notifications through python-systemd; watchdog ping every 2.0 s" in proc.stdout
    assert notify_socket.received() == [
        "READY=1\nSTATUS=Schockbesteck is running",
        "WATCHDOG=1",
        "WATCHDOG=1",
    ]
