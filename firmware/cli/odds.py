"""Exact odds: every action's chance to finish stronger than a throw, or the table of kinds.

Examples:

  schocken odds --beat 2 1 1 --thrown 6 3 1            after 6-3-1, two throws left
  schocken odds --beat 5 5 5 --laid-out 1 --thrown 4 2 --throw 2 --limit 3 --json
  schocken odds --table --rules bvb
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.odds import (
    ActionKind,
    ActionOdds,
    Position,
    Target,
    action_odds,
    build_tables,
    clear_caches,
    reach_table,
    single_throw,
    sorted_dice,
)
from engine.rules import Rules
from engine.throws import rank_table
from firmware.cli import CliError
from firmware.cli.common import print_json, whole_number
from firmware.store.rulesfile import load_rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--beat", nargs="+", metavar="D", help="the throw to beat, e.g. 2 1 1")
    parser.add_argument(
        "--beat-built", action="store_true",
        help="the throw to beat was built up over several throws (default: from the hand)",
    )
    parser.add_argument("--thrown", nargs="+", metavar="D", help="the dice just thrown")
    parser.add_argument("--laid-out", nargs="*", default=[], metavar="D",
                        help="dice laid out in earlier throws")
    parser.add_argument("--throw", metavar="N",
                        help="throws made so far (default: 1 with --thrown, else 0)")
    parser.add_argument("--limit", metavar="L", help="the throw limit (default: the rules')")
    parser.add_argument("--ties-win", action="store_true",
                        help="equal strength counts as a win (default: it loses)")
    parser.add_argument("--table", action="store_true",
                        help="the table of kinds for one throw and for 1, 2 and 3 throws")
    parser.add_argument("--benchmark", action="store_true",
                        help="time building the tables and answering position queries")
    parser.add_argument("--rules", default="standard", metavar="NAME|FILE",
                        help="a rules preset or a rules TOML file (default: standard)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _number(text: str | None, option: str, low: int, high: int) -> int | None:
    return None if text is None else whole_number(text, option, low, high)


def _dice(values: Sequence[str] | None, option: str) -> tuple[int, ...]:
    dice = []
    for text in values or ():
        if text not in ("1", "2", "3", "4", "5", "6"):
            raise CliError(f"{option}: dice are 1 to 6, got {text!r}")
        dice.append(int(text))
    return sorted_dice(dice)


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    if args.benchmark:
        return _benchmark(rules, args.json)
    if args.table:
        if args.beat or args.thrown or args.laid_out or args.throw or args.limit:
            raise CliError("--table takes only --rules and --json")
        return _print_table(rules, args.json)
    if not args.beat:
        raise CliError("give the throw to beat with --beat D D D, or --table")
    count = rules.dice_count
    beat = _dice(args.beat, "--beat")
    if len(beat) != count:
        raise CliError(f"--beat needs {count} dice under rules {rules.name!r}, got {len(beat)}")
    thrown = _dice(args.thrown, "--thrown")
    laid = _dice(args.laid_out, "--laid-out")
    if laid and not thrown:
        raise CliError("--laid-out needs --thrown (the dice of the last throw)")
    limit = _number(args.limit, "--limit", 1, 8) or rules.max_throws
    throws = _number(args.throw, "--throw", 0, 8)
    if throws is None:
        throws = 1 if thrown else 0
    if thrown and throws == 0:
        raise CliError("--throw 0 means nothing is thrown yet; leave out --thrown")
    if not thrown and throws:
        raise CliError(f"--throw {throws} needs the dice: give --thrown")
    if thrown and len(laid) + len(thrown) != count:
        raise CliError(
            f"--laid-out and --thrown must make {count} dice, got {len(laid) + len(thrown)}"
        )
    if laid and throws < 2:
        raise CliError("dice can be laid out only before the second throw: use --throw 2 or more")
    position = Position(laid, thrown, throws, limit)
    position.check(rules)
    evaluation = rank_table(rules).evaluate(beat, not args.beat_built)
    target = Target.beat(evaluation, rules, ties_win=args.ties_win)
    actions = action_odds(position, target, rules)
    if args.json:
        print_json({
            "rules": rules.name,
            "beat": {
                "dice": list(evaluation.dice), "hand": evaluation.hand, "name": evaluation.name,
                "strength": evaluation.strength, "ties_win": args.ties_win,
            },
            "position": {
                "laid_out": list(laid), "thrown": list(thrown), "throws": throws, "limit": limit,
            },
            "p_beat": float(actions[0].p),
            "actions": [_action_json(a) for a in actions],
        }, ensure_ascii=False)
        return 0
    tie = "equal strength wins" if args.ties_win else "equal strength loses"
    print(f"Beat {evaluation.name} ({tie}), rules {rules.name}")
    if thrown:
        out = " ".join(map(str, laid)) or "-"
        print(f"Laid out {out}, thrown {' '.join(map(str, thrown))}, throw {throws} of {limit}")
    else:
        print(f"Before the first throw, {limit} {'throw' if limit == 1 else 'throws'}")
    print(f"Best chance: {_percent(actions[0].p)}")
    for action in actions:
        print(f"  {_percent(action.p):>8}  {action.describe()}")
    return 0


def _percent(p: float | Fraction) -> str:
    return f"{100 * float(p):.2f} %"


def _action_json(action: ActionOdds) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "action": action.kind.value,
        "description": action.describe(),
        "p_beat": float(action.p),
    }
    if action.kind is ActionKind.THROW:
        entry["keep"] = list(action.keep)
        entry["throw"] = action.throw
    if action.kind is ActionKind.FLIP:
        entry["laid_out"] = list(action.laid_out)
        entry["free"] = list(action.free)
        if action.then is not None:
            entry["then"] = action.then.describe()
    return entry


def _print_table(rules: Rules, as_json: bool) -> int:
    shares = single_throw(rules)
    rows = reach_table(rules)
    if as_json:
        print_json({
            "rules": rules.name,
            "single_throw": [
                {"kind": s.kind.value, "name": s.name, "outcomes": s.outcomes, "of": s.total,
                 "p": float(s.probability)}
                for s in shares
            ],
            "reach": [
                {"level": r.level.name, "strength": r.level.strength,
                 "p": [float(p) for p in r.chances]}
                for r in rows
            ],
        }, ensure_ascii=False)
        return 0
    total = shares[0].total
    print(f"One throw from the hand ({total} outcomes), rules {rules.name}:")
    for s in shares:
        print(f"  {s.name:<12} {s.outcomes:>4}/{total}  {_percent(s.probability):>8}")
    print()
    print("At least this, playing for it, within 1, 2 and 3 throws:")
    for r in rows:
        print(f"  {r.level.name:<12} " + "  ".join(f"{_percent(p):>8}" for p in r.chances))
    return 0


def _benchmark(rules: Rules, as_json: bool) -> int:
    """Time the table build (from cold caches) and position queries; best of several runs."""
    builds = []
    for _ in range(5):
        clear_caches()
        started = time.perf_counter()
        build_tables(rules)
        builds.append(time.perf_counter() - started)
    table = rank_table(rules)
    targets = [Target.beat(e, rules, throws=2) for e in table.ranking[::4]]
    position = Position((), (6, 3, 1), 1, rules.max_throws)
    first_queries = []
    for target in targets:
        started = time.perf_counter()
        action_odds(position, target, rules)
        first_queries.append(time.perf_counter() - started)
    repeats = 2000
    started = time.perf_counter()
    for index in range(repeats):
        action_odds(position, targets[index % len(targets)], rules)
    cached = (time.perf_counter() - started) / repeats
    report = {
        "rules": rules.name,
        "build_tables_ms": 1000 * min(builds),
        "first_query_new_target_ms": 1000 * sum(first_queries) / len(first_queries),
        "query_ms": 1000 * cached,
    }
    if as_json:
        print_json(report)
        return 0
    print(f"rules {rules.name}: all tables built in {report['build_tables_ms']:.1f} ms (best of 5)")
    print(f"  first query for a new target: {report['first_query_new_target_ms']:.2f} ms average")
    print(f"  position query once built: {report['query_ms']:.3f} ms average")
    return 0
