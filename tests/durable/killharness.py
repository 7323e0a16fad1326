"""Pull the plug, again and again: SIGKILL the firmware at random moments and check the promise.

    .venv/bin/python -m tests.durable.killharness --kills 200 [--seed S] [--state-dir DIR]

Each run starts :mod:`tests.durable.victim` (the real firmware on simulator backends, writing
to a real state directory) with fresh dice and input seeds, waits a random time, and kills it
with SIGKILL. After every kill the harness checks:

* the journal left behind holds exactly the actions the victim played, in order: every action
  it had reported, and at most one more (written, then killed before it could say so);
* it holds at least as many actions as the last frame the victim had shown confirmed: nothing
  a player saw is lost;
* the next start resumes precisely there: the resumed position (in the engine's one-line
  notation) equals the replay of the journal's actions;
* every finished game was archived with exactly the actions played, and counted once in the
  statistics.

A SIGKILL does not flush the page cache as a power cut would lose it; the power-cut side (torn
and corrupt records) is covered by the byte-by-byte tests of the journal. What this harness
proves is the ordering: write, fsync, then show, and a resume from whatever instant.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine import Event, Game, GameSetup, from_json, to_notation
from firmware.store.gamestore import CURRENT, GameStore
from firmware.store.journal import recover
from hal.storage import StateDirectory
from tests.durable.victim import NAMES

ROOT = Path(__file__).resolve().parents[2]
#: A victim that shows no frame in this time is stuck, not slow.
START_TIMEOUT_S = 60.0


class PromiseBroken(AssertionError):
    """The device lost or invented something across a kill."""


@dataclass
class Tally:
    kills: int = 0
    natural_exits: int = 0
    actions_seen: int = 0
    frames_seen: int = 0
    finished_games: int = 0
    finished_unreported: int = 0
    resumes: int = 0
    one_ahead: int = 0
    killed_mid_game: int = 0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.kills} kills ({self.killed_mid_game} mid-game, {self.one_ahead} between an "
            f"action's fsync and its report), {self.resumes} resumes checked, "
            f"{self.actions_seen} actions, {self.frames_seen} frames, "
            f"{self.finished_games} finished games"
        )


def victim_environment() -> dict[str, str]:
    """The victims' environment: this one's, with compiled bytecode kept.

    Each victim is a fresh interpreter; with ``PYTHONDONTWRITEBYTECODE`` set (as it may be where
    the tests run) each would compile the firmware again, half its start-up. The first victim
    fills the checkout's ``__pycache__`` (as the test run does, tests/conftest.py) and the others
    read it.
    """
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run_victim(
    state_dir: Path, run: int, seed: int, delay: float, players: int,
    env: dict[str, str] | None = None,
) -> tuple[list[str], bool]:
    """Start the victim (in ``env``, else this environment), kill it after ``delay`` seconds
    once it is up; its output lines."""
    # The victim shares the file's offset with us: it writes in append mode and we read with
    # pread, so our reads never move where its next line lands.
    with tempfile.TemporaryFile(mode="a+b") as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.durable.victim", "--state-dir", str(state_dir),
             "--seed", str(seed * 1000 + run), "--input-seed", str(seed * 7919 + run),
             "--players", str(players)],
            cwd=ROOT, stdout=out, stderr=err, env=env,
        )
        launched = time.monotonic()
        started = None
        while process.poll() is None:
            if started is None:
                if b"\nF " in os.pread(out.fileno(), 4096, 0):  # the first frame comes early
                    started = time.monotonic()
                elif time.monotonic() - launched > START_TIMEOUT_S:
                    process.kill()
                    process.wait()
                    raise PromiseBroken(f"run {run}: no frame within {START_TIMEOUT_S} s")
            elif time.monotonic() - started >= delay:
                os.kill(process.pid, signal.SIGKILL)
                break
            time.sleep(0.005)
        process.wait()
        killed = process.returncode == -signal.SIGKILL
        if not killed and process.returncode != 0:
            err.seek(0)
            message = err.read().decode(errors="replace")
            raise PromiseBroken(f"run {run}: the victim failed:\n{message}")
        size = os.fstat(out.fileno()).st_size
        text = os.pread(out.fileno(), size, 0).decode("utf-8")
    # Each line is one write(): a kill never leaves half a line. Drop what follows the last
    # newline, which is empty.
    return text.split("\n")[:-1], killed


def check_run(
    state: StateDirectory, setup: GameSetup, lines: list[str], before: list[Event] | None,
    archived_before: int, tally: Tally,
) -> list[Event] | None:
    """Check one run's report against the state directory; the actions now in the journal.

    ``archived_before`` is the number of the last finished game in the archive when the run
    began (a pending finished game included, which the victim archives on start). Games are
    found by number, not by place: the archive keeps the newest :class:`StoreLimits` games and
    drops the oldest, so a long run shifts the places.
    """
    current: list[Event] | None = None
    shown = -1
    finished: list[list[Event]] = []
    for line in lines:
        tag, _, rest = line.partition(" ")
        if tag == "R":
            count, _, notation = rest.partition(" ")
            if before is None:
                raise PromiseBroken(f"resumed a game ({line!r}) although no journal was left")
            expected = to_notation(Game.replay(setup, before))
            if int(count) != len(before) or notation != expected:
                raise PromiseBroken(
                    f"resumed at {count} actions in {notation!r}; the journal held "
                    f"{len(before)} actions, position {expected!r}"
                )
            tally.resumes += 1
            current = list(before)
        elif tag == "N":
            if before:
                raise PromiseBroken(f"an interrupted game of {len(before)} actions was not resumed")
        elif tag == "G":
            current = []
            shown = -1
        elif tag == "E":
            if current is None:
                raise PromiseBroken(f"an action outside a game: {line}")
            current.append(from_json(json.loads(rest)))
            tally.actions_seen += 1
        elif tag == "F":
            tally.frames_seen += 1
            if current is None:
                continue  # the banner of a finished game (archived and checked at "O")
            shown = int(rest)
            if shown not in (-1, len(current)):
                raise PromiseBroken(f"frame shows {shown} actions, {len(current)} were reported")
        elif tag == "O":
            assert current is not None
            finished.append(current)
            current = None
            shown = -1
    after = recover(state, CURRENT)
    left = list(after.actions) if after is not None else None
    games = [game for game in GameStore(state).archived() if game[0] > archived_before]
    for offset, actions in enumerate(finished):
        number, name = games[offset] if offset < len(games) else (0, "")
        kept = recover(state, name) if name else None
        if kept is None or list(kept.actions) != actions:
            raise PromiseBroken(f"finished game {number} was not archived with its actions")
    tally.finished_games += len(finished)
    if current is None:
        # Killed after a game over, before the next game: nothing may be left in progress,
        # unless the next game's journal has only its header.
        if left:
            raise PromiseBroken(f"{len(left)} actions in the journal after a finished game")
        return left
    if left is None:
        if current:
            # Killed after the final action was written and archived, before "O" was said.
            index = len(finished)
            kept = recover(state, games[index][1]) if index < len(games) else None
            if kept is None or not kept.game.is_over or not _extends(kept.actions, current):
                raise PromiseBroken(f"{len(current)} actions reported, but no journal is left")
            tally.finished_unreported += 1
        return None
    if not _extends(left, current):
        raise PromiseBroken(
            f"the journal holds {len(left)} actions, the victim reported {len(current)}: "
            "they differ"
        )
    if len(left) < shown:
        raise PromiseBroken(f"a frame showed {shown} actions but only {len(left)} were saved")
    if left and after is not None and after.game.is_over:
        # The plug came between the final action's fsync and the archive: the next start
        # archives it. The victim never reported the game over.
        tally.finished_unreported += 1
        return None
    tally.one_ahead += len(left) > len(current)
    tally.killed_mid_game += bool(left)
    return left


def _extends(written: Sequence[Event], reported: list[Event]) -> bool:
    """The journal holds what was reported, plus at most the one action not yet reported."""
    return list(written[: len(reported)]) == reported and len(written) <= len(reported) + 1


def harness(
    kills: int, seed: int, state_dir: Path, players: int = 3, max_delay: float = 0.6
) -> Tally:
    """Run ``kills`` kill-and-restart cycles on ``state_dir``; raises PromiseBroken."""
    rng = random.Random(seed)
    state = StateDirectory(state_dir)
    setup = GameSetup(NAMES[:players])
    tally = Tally()
    env = victim_environment()
    for run in range(kills):
        before_recovery = recover(state, CURRENT)
        before = list(before_recovery.actions) if before_recovery is not None else None
        archived_before = max((n for n, _ in GameStore(state).archived()), default=0)
        if before_recovery is not None and before_recovery.game.is_over:
            before = None  # the next start archives it instead of resuming
            archived_before += 1
        delay = rng.uniform(0.0, max_delay)
        lines, killed = run_victim(state_dir, run, seed, delay, players, env)
        tally.kills += killed
        tally.natural_exits += not killed
        try:
            check_run(state, setup, lines, before, archived_before, tally)
        except PromiseBroken as broken:
            raise PromiseBroken(f"run {run} (seed {seed}): {broken}") from None
    GameStore(state).open()  # archives a game whose end was the last thing written
    stats = GameStore(state).stats()
    # Every player plays every game, so each one's count is the number of finished games.
    counted = {figures.games for figures in stats.values()} or {0}
    finished = tally.finished_games + tally.finished_unreported
    if counted != {finished}:
        raise PromiseBroken(f"statistics count {sorted(counted)} games; {finished} finished")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--state-dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        state_dir = args.state_dir or Path(temporary) / "state"
        started = time.monotonic()
        try:
            tally = harness(args.kills, args.seed, state_dir, args.players)
        except PromiseBroken as broken:
            print(f"killharness: PROMISE BROKEN: {broken}", file=sys.stderr)
            return 1
        print(f"killharness: seed {args.seed}: {tally.summary()} in "
              f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
