"""Statistics per player over the finished games in the state directory.

Counts games played and lost, halves lost, Blattschüsse (both halves lost), and the Schocks
and Schock aus each player stood with. Reads only: safe next to the running device.

Without --state-dir the games are those of the device (/var/lib/schockbesteck) if this is
one, else those `schocken sim` kept on this computer (~/.local/state/schockbesteck).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.screen.i18n import LANGUAGES
from firmware.store.gamestore import GameStore
from firmware.store.stats import FIELDS, PlayerStats, stats_to_mapping
from hal.storage import StateDirectory

__all__ = ["add_arguments", "format_table", "run"]

_HEADINGS = {
    "de": ("Spieler", "Spiele", "verloren", "Hälften verloren", "Blattschüsse", "Schocks",
           "Schock aus"),
    "en": ("Player", "Games", "Lost", "Halves lost", "Blattschüsse", "Schocks", "Schock aus"),
}
_EMPTY = {"de": "Noch keine beendeten Spiele.", "en": "No finished games yet."}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV with a header line")
    add_state_dir_argument(parser)
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="de", help="language of the table's headings"
    )


def format_table(table: dict[str, PlayerStats], lang: str = "de") -> list[str]:
    """The statistics as aligned text lines, most games first, then by name."""
    if not table:
        return [_EMPTY[lang]]
    order = sorted(table, key=lambda name: (-table[name].games, name))
    rows: list[tuple[str, ...]] = [_HEADINGS[lang]]
    rows += [(name, *(str(getattr(table[name], key)) for key in FIELDS)) for name in order]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def run(args: argparse.Namespace) -> int:
    root = state_dir_from_args(args)
    table = GameStore(StateDirectory(root)).stats() if root is not None else {}
    if args.json:
        json.dump({"players": stats_to_mapping(table)}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(("player", *FIELDS))
        for name, figures in stats_to_mapping(table).items():
            writer.writerow((name, *(figures[key] for key in FIELDS)))
    else:
        for line in format_table(table, args.lang):
            print(line)
    return 0
