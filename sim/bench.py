"""Benchmarks of the simulator: start-up to the first frame, and headless playing speed.

    .venv/bin/python -m sim.bench

* start-up: ``schocken sim --terminal`` is started in a pseudo-terminal, timed from the spawn to
  the first half-block frame on the screen, then quit with ``q`` (median of 7 runs);
* headless: ``sim/scripts/whole-game.txt`` (a whole game of 3 players under the 3 Deckel of
  ``sim/scripts/three-deckel.toml``, seed 7, as the golden frames are made) played with
  ``--script``, simulated seconds per real second, without and with ``--record``.

Results go to docs/performance.md by hand; nothing here asserts a time.
"""

from __future__ import annotations

import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
LAUNCH = (
    "import sys, schockbesteck.cli as cli; "
    "cli.SUBCOMMANDS = {'sim': cli.SUBCOMMANDS['sim']}; "
    "sys.exit(cli.main(sys.argv[1:]))"
)


def first_frame_s() -> float:
    """Seconds from spawning ``schocken sim --terminal`` to its first frame."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["sim", "--terminal", "--players", "3", "--seed", "1"]
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, *argv], stdin=slave, stdout=slave, stderr=slave, env=env
    )
    shown = b""
    try:
        while "▀".encode() not in shown:
            ready, _, _ = select.select([master], [], [], 10)
            if not ready:
                raise RuntimeError("no frame within 10 s")
            shown += os.read(master, 65536)
        elapsed = time.perf_counter() - started
        os.write(master, b"q")
        process.wait(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)
    return elapsed


def headless(record: bool) -> tuple[float, float]:
    """(simulated seconds, real seconds) of the golden game played headless."""
    scripts = ROOT / "sim" / "scripts"
    with tempfile.TemporaryDirectory() as scratch:
        argv = [
            "sim", "--players", "3", "--rules", str(scripts / "three-deckel.toml"), "--seed", "7",
            "--script", str(scripts / "whole-game.txt"),
        ]  # fmt: skip
        if record:
            argv += ["--record", str(Path(scratch) / "game.gif")]
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-c", LAUNCH, *argv],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )
        elapsed = time.perf_counter() - started
    simulated = float(result.stderr.split(" s of game time")[0].rsplit(" ", 1)[1])
    return simulated, elapsed


def main() -> None:
    runs = [first_frame_s() for _ in range(7)]
    print(
        f"start-up to the first frame (terminal): median {statistics.median(runs):.3f} s, "
        f"min {min(runs):.3f} s, max {max(runs):.3f} s"
    )
    for record in (False, True):
        simulated, elapsed = headless(record)
        label = "with --record" if record else "without recording"
        print(
            f"headless game, {label}: {simulated:.0f} s of game time in {elapsed:.2f} s "
            f"(x{simulated / elapsed:.0f}, process start included)"
        )


if __name__ == "__main__":
    main()
