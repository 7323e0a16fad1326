"""make test-deploy: `schocken run --check` and `schocken run` in the arm64 root, on mock pins.

Runs with Debian's /usr/bin/python3 inside the root (standard library only). Each program runs
with GPIOZERO_PIN_FACTORY=mock (gpiozero's mock pins) and /dev/i2c-1 as a plain file, which opens
but answers no transfer: a Pi whose OLED is unplugged. `schocken run` also gets a notify socket
and WATCHDOG_USEC as systemd would give it (an abstract unix datagram socket: no path for proot to
translate). Prints what happened; exits non-zero at the first thing that is wrong.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

SCHOCKEN = "/opt/schockbesteck/venv/bin/schocken"
CONFIG = "/etc/schockbesteck/config.toml"
STARTUP_LIMIT_S = 120.0  # emulated start-up is slow; systemd's own limit is TimeoutStartSec
PING_SECONDS = 5.0


def check(condition: bool, message: str, output: str = "") -> None:
    print(("ok: " if condition else "WRONG: ") + message, flush=True)
    if not condition:
        print(output, flush=True)
        sys.exit(1)


def environment(**extra: str) -> dict[str, str]:
    env = {
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/var/lib/schockbesteck",
        "LANG": "C.UTF-8",
        "GPIOZERO_PIN_FACTORY": "mock",
        "PYTHONUNBUFFERED": "1",
    }
    env.update(extra)
    return env


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    try:
        output, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
        return -9, output
    return proc.returncode, output


def run_check() -> None:
    proc = subprocess.Popen(
        [SCHOCKEN, "run", "--check", "--config", CONFIG],
        env=environment(),
        cwd="/var/lib/schockbesteck",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    time.sleep(8.0)
    returncode, output = stop(proc)
    check(
        returncode == 0,
        f"schocken run --check ran on mock pins and stopped cleanly ({returncode})",
        output,
    )
    check("self-test" in output, "it announced the self-test", output)


def run_game() -> None:
    name = f"schockbesteck-test-{os.getpid()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(1.0)
    started = time.monotonic()
    proc = subprocess.Popen(
        [SCHOCKEN, "run", "--config", CONFIG],
        env=environment(NOTIFY_SOCKET="@" + name, WATCHDOG_USEC="2000000"),
        cwd="/var/lib/schockbesteck",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    messages: list[tuple[float, str]] = []
    ready_at: float | None = None
    while time.monotonic() - started < STARTUP_LIMIT_S + PING_SECONDS:
        try:
            data = listener.recv(4096).decode()
        except TimeoutError:
            if proc.poll() is not None:
                break
            continue
        now = time.monotonic() - started
        messages.append((now, data))
        if ready_at is None and data.startswith("READY=1"):
            ready_at = now
        if ready_at is not None and now - ready_at >= PING_SECONDS:
            break
    returncode, output = stop(proc)
    try:
        while True:
            messages.append((time.monotonic() - started, listener.recv(4096).decode()))
    except TimeoutError:
        pass
    said = [data for _, data in messages]
    check(ready_at is not None, "READY=1 came after the first frame", output + repr(said))
    print(f"    READY=1 {ready_at:.1f} s after the start (emulated)", flush=True)
    pings = said.count("WATCHDOG=1")
    check(pings >= 3, f"{pings} watchdog pings in about {PING_SECONDS:.0f} s (every 1 s)", output)
    check(said[-1] == "STOPPING=1", "STOPPING=1 on SIGTERM", repr(said))
    check(returncode == 0, f"schocken run stopped cleanly on SIGTERM ({returncode})", output)
    check("Schockbesteck running" in output, "it logged that it runs", output)
    check("python-systemd" in output, "notifications went through python3-systemd", output)
    listener.close()


def main() -> None:
    os.makedirs("/var/lib/schockbesteck", exist_ok=True)
    run_check()
    run_game()


if __name__ == "__main__":
    main()
