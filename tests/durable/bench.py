"""Benchmark of the journal: fsync'd appends, bytes written per game, recovery time.

    .venv/bin/python -m tests.durable.bench [--games N] [--dir DIR]

Run it with ``--dir`` on the medium you care about (the Pi's SD card: ``--dir /var/lib/x``);
the default is a temporary directory. Figures go into docs/durability.md.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from engine import Game
from firmware.store.gamestore import CURRENT, GameStore
from firmware.store.journal import JournalHeader, recover
from hal.storage import StateDirectory
from tests.durable.conftest import random_actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as temporary:
        state = StateDirectory(Path(temporary) / "state")
        store = GameStore(state)
        latencies: list[float] = []
        actions_total = 0
        bytes_total = 0
        recover_times: list[float] = []
        for seed in range(args.games):
            setup, actions = random_actions(seed, players=4)
            game = Game(setup)
            store.begin(JournalHeader(setup))
            for index, action in enumerate(actions):
                events = game.apply(action)
                started = time.perf_counter()
                store.record(events)
                latencies.append(time.perf_counter() - started)
                if index == len(actions) - 2:
                    size = (state.root / CURRENT).stat().st_size
                    started = time.perf_counter()
                    recover(state, CURRENT)
                    recover_times.append(time.perf_counter() - started)
                    bytes_total += size
            actions_total += len(actions)
        latencies.sort()
        print(f"games: {args.games}, actions: {actions_total} (4 players, standard rules)")
        print(f"journal per game: {bytes_total / args.games / 1024:.1f} kB, "
              f"{bytes_total / actions_total:.0f} bytes per action")
        print(f"record (append + fsync): median {statistics.median(latencies) * 1e3:.2f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99)] * 1e3:.2f} ms, "
              f"max {latencies[-1] * 1e3:.2f} ms")
        print(f"recover a whole game's journal: median "
              f"{statistics.median(recover_times) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
