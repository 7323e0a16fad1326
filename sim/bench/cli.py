"""Measure this build: engine speed, two whole games on the device's wiring (the main loop's
longest step, the latency from an edge to the last I2C byte, the I2C traffic), screen rendering,
idle CPU, start-up time and memory, a tournament's hub with 100 tables on a real mosquitto; on
a Raspberry Pi with the display attached also real frames per second and the I2C bus speed.

Takes about a minute (--quick: about ten seconds, fewer repetitions and half-second idle
windows), the hub about 80 s more (--quick: about 10 s; skipped in one line without
mosquitto) and a DM's hall of 150 tables and 600 phones about 90 s (--quick: about 45 s). The
targets are those of a laptop-class machine; a Pi Zero 2 W is about ten times slower (see
docs/performance.md). --markdown prints the tables of docs/performance.md; --only
measures just the named groups of rows (``sim.bench.measure.GROUPS``). On the Pi, stop the
service first: sudo systemctl stop schockbesteck.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.bench.measure import GROUPS, Measurement, Settings, machine, run_benchmarks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--markdown",
        action="store_true",
        help="print the tables of docs/performance.md: the figures, the I2C bus, a Pi estimate",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="far fewer repetitions and half-second idle windows (about ten seconds)",
    )
    parser.add_argument(
        "--only",
        type=_groups,
        metavar="GROUP[,GROUP...]",
        help=f"only these groups of rows: {', '.join(GROUPS)}",
    )


def _groups(text: str) -> frozenset[str]:
    """The groups of ``--only a,b``; an unknown name is argparse's one-line error."""
    names = frozenset(name.strip() for name in text.split(",") if name.strip())
    unknown = sorted(names - set(GROUPS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"no such group: {', '.join(unknown) or repr(text)} (the groups: {', '.join(GROUPS)})"
        )
    return names


def run(args: argparse.Namespace) -> int:
    settings = Settings.quick() if args.quick else Settings()
    progress = None if args.json or args.markdown or not sys.stderr.isatty() else _progress
    measurements = run_benchmarks(settings, progress, args.only)
    if progress is not None:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(as_json(measurements), indent=2, ensure_ascii=False))
    elif args.markdown:
        print(as_markdown(measurements))
    else:
        print(as_table(measurements))
    return 0


def _progress(what: str) -> None:
    print(f"\r\033[Kmeasuring {what} ...", end="", file=sys.stderr, flush=True)


def _figure(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:,.0f}"
    return f"{value:.3g}" if value < 1 else f"{value:.1f}"


def as_json(measurements: list[Measurement]) -> dict[str, Any]:
    """Every measured figure under its key (unit in the name), the machine, what was skipped
    and why, and which figures missed their target."""
    data: dict[str, Any] = {"machine": machine()}
    for item in measurements:
        if item.value is not None:
            data[item.key] = item.value
    data["targets"] = {item.key: item.target for item in measurements if item.target is not None}
    data["over_target"] = [item.key for item in measurements if item.status == "over"]
    data["skipped"] = {item.key: item.note for item in measurements if item.value is None}
    return data


def as_table(measurements: list[Measurement]) -> str:
    """The measurements as a plain-text table, skipped groups summed up in one line each."""
    rows = [("measurement", "value", "unit", "target", "")]
    skipped: dict[str, list[str]] = {}
    for item in measurements:
        if item.value is None:
            skipped.setdefault(item.note, []).append(item.label)
            continue
        target = ""
        if item.target is not None:
            target = ("≥ " if item.at_least else "< ") + _figure(item.target)
        status = "" if item.status == "-" else item.status
        rows.append((item.label, _figure(item.value), item.unit, target, status))
    widths = [max(len(row[column]) for row in rows) for column in range(5)]
    lines = []
    for index, row in enumerate(rows):
        cells = [
            row[0].ljust(widths[0]),
            row[1].rjust(widths[1]),
            row[2].ljust(widths[2]),
            row[3].ljust(widths[3]),
            row[4],
        ]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths[:4]) + "  " + "-" * 4)
    info = machine()
    lines.append("")
    lines.append(
        f"machine: {info['cpu']}, {info['cores']} cores, {info['python']}, {info['platform']}"
    )
    for note, labels in skipped.items():
        lines.append(f"{note} ({', '.join(labels)})")
    return "\n".join(lines)


# --- docs/performance.md ------------------------------------------------------------------------

#: Clocks on the I2C bus per byte (8 bits and the acknowledge) and, about, per transaction (its
#: start and stop conditions).
CLOCKS_PER_BYTE, CLOCKS_PER_TRANSACTION = 9, 2
#: How much slower a Pi Zero 2 W runs CPython than one core of a laptop-class machine (an
#: estimate: 8 to 12 times), for the estimate table.
PI_ZERO_FACTOR = 10


def as_markdown(measurements: list[Measurement]) -> str:
    """The tables of docs/performance.md from one run: every figure; the time the I2C traffic
    takes on the Pi's bus at 100 and 400 kHz; and what a Pi Zero 2 W should show (CPU-bound
    figures times :data:`PI_ZERO_FACTOR`, bus figures from the traffic)."""
    by_key = {item.key: item for item in measurements if item.value is not None}
    lines = ["| measurement | value | unit | target | |", "|---|---:|---|---|---|"]
    for item in measurements:
        if item.value is None:
            continue
        target = ""
        if item.target is not None:
            target = ("≥ " if item.at_least else "< ") + _figure(item.target)
        status = "" if item.status == "-" else item.status
        label = item.label.replace("|", "\\|")
        lines.append(f"| {label} | {_figure(item.value)} | {item.unit} | {target} | {status} |")
    info = machine()
    lines += [
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores, {info['python']}, {info['platform']}.",
    ]
    skipped: dict[str, list[str]] = {}
    for item in measurements:
        if item.value is None:
            skipped.setdefault(item.note, []).append(item.label)
    for note, labels in skipped.items():
        lines.append(f"{note[:1].upper()}{note[1:]} ({', '.join(labels)}).")
    lines += ["", *_bus_table(by_key), "", *_pi_table(by_key)]
    return "\n".join(lines)


def _value(by_key: dict[str, Measurement], key: str) -> float | None:
    item = by_key.get(key)
    return None if item is None else item.value


def _bus_table(by_key: dict[str, Measurement]) -> list[str]:
    from sim.bench.whole_game import FULL_FRAME_WIRE_BYTES

    rows: list[tuple[str, float, float]] = [
        ("a whole frame (the first one, and on a panel's return)", FULL_FRAME_WIRE_BYTES, 2.0)
    ]
    for player, label in (("human", "human-like"), ("robot", "random robot")):
        wire = _value(by_key, f"{player}_i2c_wire_bytes_avg")
        transactions = _value(by_key, f"{player}_i2c_transactions_avg")
        if wire is not None and transactions is not None:
            rows.append((f"an average change, {label} game", wire, transactions))
    lines = [
        "| I2C traffic (the Pi's managed mode) | bytes on the wire | transactions | clocks "
        "| 100 kHz (Pi default) | 400 kHz |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, wire, transactions in rows:
        clocks = CLOCKS_PER_BYTE * wire + CLOCKS_PER_TRANSACTION * transactions
        lines.append(
            f"| {label} | {_figure(wire)} | {_figure(transactions)} | {_figure(clocks)} "
            f"| {_ms(clocks / 100_000)} | {_ms(clocks / 400_000)} |"
        )
    return lines


def _pi_table(by_key: dict[str, Measurement]) -> list[str]:
    factor = PI_ZERO_FACTOR
    scaled = [
        ("throw_eval_ns", "throw evaluation", 1e-3, "µs"),
        ("render_ms", "render a screen", 1.0, "ms"),
        ("odds_query_ms", "odds query, a throw not asked before", 1.0, "ms"),
        ("odds_table_build_ms", "odds tables of a rule set (on the worker)", 1.0, "ms"),
        ("odds_bot_tables_ms", "an odds bot's tables (on the worker)", 1.0, "ms"),
        ("hint_opener_ms", "a hint: the opener's, not prepared", 1.0, "ms"),
        ("hint_opening_prepared_ms", "the opener's objective (on the worker)", 1.0, "ms"),
        ("hint_later_ms", "a hint: a later player's new situation", 1.0, "ms"),
        ("human_longest_step_cpu_ms", "longest main-loop step, CPU (human-like game)", 1.0, "ms"),
        ("robot_longest_step_cpu_ms", "longest main-loop step, CPU (random robot)", 1.0, "ms"),
        ("run_first_frame_cpu_s", "`schocken run`: CPU time to the first frame", 1.0, "s"),
    ]
    lines = [
        f"| on a Pi Zero 2 W (estimate: CPU-bound figures × {factor}) | here | Pi Zero 2 W |",
        "|---|---:|---:|",
    ]
    for key, label, unit_scale, unit in scaled:
        value = _value(by_key, key)
        if value is None:
            continue
        here = value * unit_scale
        lines.append(f"| {label} | {_figure(here)} {unit} | {_figure(here * factor)} {unit} |")
    rounds = _value(by_key, "simulate_rounds_per_s")
    if rounds is not None:
        lines.append(
            f"| simulate (3 threshold bots) | {_figure(rounds)} rounds/s "
            f"| {_figure(rounds / factor)} rounds/s |"
        )
    wire = _value(by_key, "human_i2c_wire_bytes_avg")
    transactions = _value(by_key, "human_i2c_transactions_avg")
    if wire is not None and transactions is not None:
        seconds = (CLOCKS_PER_BYTE * wire + CLOCKS_PER_TRANSACTION * transactions) / 100_000
        lines.append(
            f"| an average screen change on the bus at 100 kHz (not CPU-bound) "
            f"| {_ms(seconds)} | {_ms(seconds)} |"
        )
    return lines


def _ms(seconds: float) -> str:
    return f"{_figure(seconds * 1e3)} ms"
