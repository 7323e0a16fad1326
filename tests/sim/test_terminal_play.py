"""`schocken sim --terminal` in a real pseudo-terminal: a whole round played with key presses,
in a default 80x24 terminal (the compact braille layout) and in a big one (half blocks).

A round takes seconds of real time (each shake rattles for 0.7 s, then the cup settles), so
`make test` plays it in the 80x24 terminal; the slow selection plays the round in the big one
too, and draws its first frame and quits (`make test` draws the big terminal's half blocks in
tests/sim/test_saving.py, whose simulators run at 140x40). The simulator settles the cup sooner
than the device's default (:data:`TIMING`, its config's ``[input]``), and each key that does
something the events show waits for that event, not a fixed time (a press typed just before a
shake needs no wait: its release comes before the shake's edges, so it is decoded first)."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

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


#: The simulator's [input] section: the cup settles into a throw after 200 ms without an edge
#: (the default 400 ms), still four times the shaker's 50 ms between edges.
TIMING = "[input]\nsettle_ms = 200\n"


def timing_config(folder: Path) -> Path:
    """A config file in ``folder`` with :data:`TIMING`."""
    config = folder / "timing.toml"
    config.write_text(TIMING, encoding="utf-8")
    return config


def pending_events(folder: Path) -> list[str]:
    """The events a running simulator has written to its ``--events`` file so far (under a
    temporary name in ``folder`` until it ends)."""
    lines = [
        line
        for path in folder.glob(".events.jsonl.*")
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    return [json.loads(line)["event"] for line in lines if line.endswith("}")]


#: Escape sequences (colours, cursor moves, erasing) in what the simulator writes.
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BRAILLE = re.compile("[\u2800-\u28ff]")


#: The roll-off (a shake), a press to go on, then Anna's and Ben's turns: shake, stand; quit.
#: Each key with the event (and how many of it) that it waits for, or None.
ROUND = (
    (" ", ("roll_off", 1)), ("s", None), (" ", ("roll", 1)), ("s", ("turn_over", 1)),
    ("s", None), (" ", ("roll", 2)), ("s", ("round_over", 1)),
)  # fmt: skip


@pytest.mark.parametrize(
    ("columns", "rows", "pixels", "plays"),
    [
        pytest.param(140, 40, "▀", False, id="big-first-frame", marks=pytest.mark.slow),
        pytest.param(140, 40, "▀", True, id="big", marks=pytest.mark.slow),
        pytest.param(80, 24, "⣿", True, id="80x24", marks=pytest.mark.slow),
    ],
)
def test_a_round_played_in_the_terminal(
    tmp_path: Path, columns: int, rows: int, pixels: str, plays: bool
) -> None:
    events = tmp_path / "events.jsonl"
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    # The pty's size, not COLUMNS/LINES of the caller's environment (pytest-xdist sets 80x24).
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    argv = ["sim", "--terminal", "--players", "2", "--seed", "3", "--events", str(events),
            "--no-save", "--config", str(timing_config(tmp_path))]
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
        while pixels.encode() not in shown and time.monotonic() < deadline:
            read_for(master, 0.1, shown)  # start-up until the first frame is drawn
        for key, awaited in (*(ROUND if plays else ()), ("q", None)):
            os.write(master, key.encode())
            deadline = time.monotonic() + 20
            while awaited is not None and pending_events(tmp_path).count(awaited[0]) < awaited[1]:
                assert time.monotonic() < deadline, f"never: {awaited} after {key!r}"
                read_for(master, 0.05, shown)
        assert process.wait(timeout=5) == 0
        read_for(master, 0.3, shown)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    screen = shown.decode("utf-8", errors="replace")
    assert "SCHOCKBESTECK" in screen and pixels in screen
    assert "\x1b[?1049h" in screen and screen.rstrip().endswith("\x1b[?1049l")  # restored
    assert "make it larger" not in screen
    assert "[STAND]" in screen and "Leertaste: schütteln" in screen and "h: Hilfe" in screen
    lines = ESCAPES.sub("", screen).split("\r\n")
    assert max(len(line) for line in lines) < columns  # nothing wraps
    frame_rows = [line for line in lines if line.startswith("│")]
    assert frame_rows and all(len(line) == len(frame_rows[0]) for line in frame_rows)
    if columns == 80:  # braille: 2x4 pixels a cell, so 64 cells a row (blank before a frame)
        drawn = {len(BRAILLE.findall(line)) for line in frame_rows if line.strip("│ \r")}
        assert drawn == {64}
    played = [json.loads(line)["event"] for line in events.read_text(encoding="utf-8").splitlines()]
    if not plays:
        assert played == ["game_started"]  # drawn, nothing played, quit
        return
    assert played[:2] == ["game_started", "roll_off"]
    assert played.count("roll") == 2 and played.count("turn_over") == 2
    assert "round_over" in played  # the whole round: both turns and the reveal


@pytest.mark.slow  # a simulator with its page and link; make test plays the 80x24 round above
def test_the_terminal_shows_where_the_page_and_the_link_are(tmp_path: Path) -> None:
    """In an 80x24 terminal the full screen covers stderr, so it says the addresses itself."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    argv = ["sim", "--terminal", "--players", "2", "--no-save", "--web", "127.0.0.1:0",
            "--link", "tcp-listen://127.0.0.1:0"]
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, *argv],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    shown = bytearray()
    try:
        deadline = time.monotonic() + 15
        while "⣿".encode() not in shown and time.monotonic() < deadline:
            read_for(master, 0.1, shown)
        read_for(master, 0.5, shown)
        os.write(master, b"q")
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    screen = shown.decode("utf-8", errors="replace")
    full_screen = ESCAPES.sub("", screen.split("\x1b[?1049h", 1)[1]).replace("\r", "").split("\n")
    assert any(re.fullmatch(r"  die Seite des Tischs: http://127\.0\.0\.1:\d+/", line)
               for line in full_screen)  # fmt: skip
    assert any(re.fullmatch(r"  die Verbindung \(Link\): tcp-listen://127\.0\.0\.1:\d+", line)
               for line in full_screen)  # fmt: skip
    assert "make it larger" not in screen
