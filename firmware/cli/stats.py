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

from firmware.cli.common import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.screen.i18n import Catalogue
from firmware.store.gamestore import GameStore
from firmware.store.stats import FIELDS, PlayerStats, stats_to_mapping
from hal.storage import StateDirectory

__all__ = ["add_arguments", "format_table", "run"]

#: The table's headings: the player's name, then one per figure of ``FIELDS``.
_HEADING_KEYS = (
    "cli_stats_player", "cli_stats_games", "cli_stats_lost", "cli_stats_halves_lost",
    "cli_stats_blattschuss", "cli_stats_schocks", "cli_stats_schock_aus",
)  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV with a header line")
    add_state_dir_argument(parser)
    add_lang_argument(parser, "the table's headings")


def format_table(table: dict[str, PlayerStats], lang: str = "de") -> list[str]:
    """The statistics as aligned text lines, most games first, then by name."""
    text = Catalogue(lang)
    if not table:
        return [text.t("cli_stats_none")]
    order = sorted(table, key=lambda name: (-table[name].games, name))
    rows: list[tuple[str, ...]] = [tuple(text.t(key) for key in _HEADING_KEYS)]
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
        for line in format_table(table, output_language(args)):
            print(line)
    return 0
