"""Measure this build: engine speed, screen rendering, I2C bytes per screen change, idle CPU,
start-up time and memory; on a Raspberry Pi with the display attached also real frames per
second and the I2C bus speed.

Takes about a minute (--quick: a few seconds, fewer repetitions and a 1 s idle window). The
targets are those of a laptop-class machine; a Pi Zero 2 W is about ten times slower (see
docs/performance.md). On the Pi, stop the service first: sudo systemctl stop schockbesteck.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.measure import Measurement, Settings, machine, run_benchmarks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--quick", action="store_true", help="far fewer repetitions and a 1 s idle window"
    )


def run(args: argparse.Namespace) -> int:
    settings = Settings.quick() if args.quick else Settings()
    progress = None if args.json or not sys.stderr.isatty() else _progress
    measurements = run_benchmarks(settings, progress)
    if progress is not None:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(as_json(measurements), indent=2, ensure_ascii=False))
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
