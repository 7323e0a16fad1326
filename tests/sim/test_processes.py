"""sim/tournament/processes.py with real child processes: waiting for a port, a clean stop that
ends in SIGKILL for a child that ignores SIGTERM, a kill, and a child tied to its parent that
ends when the parent is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from sim.tournament import processes
from sim.tournament.processes import Started

LISTEN = """
import socket, sys, time
server = socket.socket()
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen()
time.sleep(60)
"""
DEAF = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
time.sleep(60)
"""


def child(script: str, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE)


def test_await_port_tells_listening_from_exited_and_timed_out() -> None:
    port = processes.free_port()
    listening = child(LISTEN, str(port))
    try:
        assert processes.await_port(listening, port, 20.0) is Started.LISTENING
    finally:
        processes.kill(listening)
    assert listening.returncode == -9
    gone = child("raise SystemExit(3)")
    assert processes.await_port(gone, processes.free_port(), 20.0) is Started.EXITED
    silent = child("import time; time.sleep(60)")
    try:
        assert processes.await_port(silent, processes.free_port(), 0.1) is Started.TIMED_OUT
    finally:
        processes.stop(silent)
    assert silent.returncode == -15


def test_stop_kills_a_child_that_ignores_sigterm() -> None:
    deaf = child(DEAF)
    assert deaf.stdout is not None and deaf.stdout.readline() == b"ready\n"
    processes.stop(deaf, timeout_s=0.2)  # it ignores SIGTERM once "ready"
    assert deaf.returncode == -9
    processes.stop(deaf)  # an ended child: nothing to do
    processes.kill(None)


TIED_PARENT = """
import subprocess, sys, time
from sim.tournament.processes import tied_to_this_process
child = subprocess.Popen(["sleep", "60"], **tied_to_this_process())
print(child.pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_tied_child_ends_when_its_parent_is_killed_with_sigkill() -> None:
    parent = child(TIED_PARENT)
    assert parent.stdout is not None
    grandchild = int(parent.stdout.readline())
    try:
        assert alive(grandchild)
        processes.kill(parent)  # SIGKILL: no clean-up of its own
        assert gone_within(grandchild, 10.0), "the child outlived its parent"
    finally:
        if alive(grandchild):
            os.kill(grandchild, signal.SIGKILL)


def test_off_linux_a_child_is_started_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert processes.tied_to_this_process() == {}
