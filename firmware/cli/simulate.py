"""Play many whole games between computer players, headless, and report who loses how often.

Examples:

  schocken simulate --games 10000 --players 2 --bots threshold
  schocken simulate --games 20000 --players 3 --bots odds,threshold,threshold --seed 7 --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any, TextIO

from engine.bots import make_strategy, strategy_names
from engine.simulation import Simulator
from firmware.cli import CliError
from firmware.cli.common import seed_from_text, whole_number
from firmware.store.rulesfile import load_rules

#: z for a two-sided 95 % confidence interval.
Z95 = 1.959964


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", default="1000", metavar="N", help="games to play (1000)")
    parser.add_argument("--players", default="2", metavar="N", help="players, 2 to 10 (2)")
    parser.add_argument(
        "--bots", default="threshold", metavar="STRATEGY,...",
        help=f"one strategy for every seat or one per seat ({', '.join(strategy_names())})",
    )
    parser.add_argument("--rules", default="standard", metavar="NAME|FILE",
                        help="a rules preset or a rules TOML file (default: standard)")
    parser.add_argument("--seed", metavar="S", help="seed of the dice (default: a random one)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95 % confidence interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


class Progress:
    """A one-line progress bar on a terminal; silent otherwise."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.enabled = stream.isatty()
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        step = done * 40 // self.total
        if step != self.shown:
            self.shown = step
            bar = "#" * step + "." * (40 - step)
            self.stream.write(f"\r[{bar}] {done}/{self.total} games")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    games = whole_number(args.games, "--games", 1, 100_000_000)
    players = whole_number(args.players, "--players", 2, 10)
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) not in (1, players):
        raise CliError(f"--bots: give 1 strategy or {players} (one per seat), got {len(names)}")
    if len(names) == 1:
        names *= players
    strategies = {name: make_strategy(name) for name in set(names)}
    rules = load_rules(args.rules)
    seed = seed_from_text(args.seed) if args.seed is not None else (
        random.SystemRandom().randrange(2**32)
    )
    rng = random.Random(seed)
    simulator = Simulator(rules, [strategies[name] for name in names])
    losses = [0] * players
    rounds = throws = blattschuss = 0
    progress = Progress(games, sys.stderr)
    started, cpu_started = time.perf_counter(), time.process_time()
    for done in range(1, games + 1):
        record = simulator.play_game(rng)
        losses[record.loser] += 1
        rounds += record.rounds
        throws += record.throws
        blattschuss += record.blattschuss
        if done % 64 == 0 or done == games:
            progress.update(done)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    progress.close()
    report: dict[str, Any] = {
        "games": games,
        "players": players,
        "bots": names,
        "rules": rules.name,
        "seed": seed,
        "rounds": rounds,
        "throws": throws,
        "rounds_per_game": rounds / games,
        "throws_per_game": throws / games,
        "blattschuss": blattschuss,
        "seconds": seconds,
        "rounds_per_s": rounds / seconds if seconds > 0 else float("inf"),
        # CPU time of this process: the rate on one core even when other work shares the machine.
        "cpu_seconds": cpu_seconds,
        "rounds_per_cpu_s": rounds / cpu_seconds if cpu_seconds > 0 else float("inf"),
        "loss_share": [
            {"seat": seat, "bot": names[seat], "losses": losses[seat],
             "share": losses[seat] / games, "ci95": list(wilson(losses[seat], games))}
            for seat in range(players)
        ],
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{games} games, {players} players, rules {rules.name}, seed {seed}")
    for entry in report["loss_share"]:
        low, high = entry["ci95"]
        print(
            f"  seat {entry['seat']} {entry['bot']:<10} lost {entry['losses']:>7}  "
            f"{100 * entry['share']:6.2f} %  (95 % CI {100 * low:.2f} to {100 * high:.2f} %)"
        )
    print(f"  {report['rounds_per_game']:.2f} rounds and {report['throws_per_game']:.2f} throws "
          f"per game; {blattschuss} Blattschuss")
    print(f"  {rounds} rounds in {seconds:.2f} s: {report['rounds_per_s']:,.0f} rounds per second "
          f"({report['rounds_per_cpu_s']:,.0f} per CPU second)")
    return 0
