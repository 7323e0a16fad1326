"""`schocken sim --terminal` in a real pseudo-terminal: a few turns played with key presses."""

from __future__ import annotations

import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).parents[2]

# `schocken`'s real main() with only the sim registered (the other subcommands load more).
LAUNCH = (
    "import sys, schockbesteck.cli as cli; "
    "cli.SUBCOMMANDS = {'sim': cli.SUBCOMMANDS['sim']}; "
    "sys.exit(cli.main(sys.argv[1:]))"
)


def read_for(fd: int, seconds: float, into: bytearray) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            into.extend(chunk)


def test_turns_played_in_the_terminal(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    # The pty's size, not COLUMNS/LINES of the caller's environment (pytest-xdist sets 80x24).
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    argv = ["sim", "--terminal", "--players", "2", "--seed", "3", "--events", str(events),
            "--no-save"]
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
    )
    os.close(slave)
    shown = bytearray()
    try:
        deadline = time.monotonic() + 10
        while "▀".encode() not in shown and time.monotonic() < deadline:
            read_for(master, 0.1, shown)  # start-up until the first frame is drawn
        # The roll-off (a shake), a press to go on, then Anna's and Ben's turns: shake, stand.
        for key, pause in (
            (" ", 1.3),
            ("s", 0.4),
            (" ", 1.3),
            ("s", 0.5),
            ("s", 0.4),
            (" ", 1.3),
            ("s", 0.5),
            ("q", 0.0),
        ):
            os.write(master, key.encode())
            read_for(master, pause, shown)
        assert process.wait(timeout=5) == 0
        read_for(master, 0.3, shown)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    screen = shown.decode("utf-8", errors="replace")
    assert "SCHOCKBESTECK" in screen and "█" in screen and "▀" in screen
    assert "\x1b[?1049h" in screen and screen.rstrip().endswith("\x1b[?1049l")  # restored
    played = [json.loads(line)["event"] for line in events.read_text(encoding="utf-8").splitlines()]
    assert played[:2] == ["game_started", "roll_off"]
    assert played.count("roll") == 2 and played.count("turn_over") == 2
