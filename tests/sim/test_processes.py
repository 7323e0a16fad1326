"""sim/tournament/processes.py with real child processes: waiting for a port, a clean stop that
ends in SIGKILL for a child that ignores SIGTERM, and a kill."""

from __future__ import annotations

import subprocess
import sys

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
