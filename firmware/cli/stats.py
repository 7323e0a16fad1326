"""Statistics per player over the finished games in the state directory.

Counts games played and lost, halves lost, Blattschüsse (both halves lost), and the Schocks
and Schock aus each player stood with. Reads only: safe next to the running device.

With --spieltag: the standings of an evening under its scheme (points or lives, then the
scheme's tie-breaks), recounted from the games' journals; a game taken out, or played at a table
the scheme cannot score, is named and not counted.

Without --state-dir the games are those of the device (/var/lib/schockbesteck) if this is
one, else those `schocken sim` kept on this computer (~/.local/state/schockbesteck).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Mapping

from engine.saison import evening_kasse, season_kasse
from engine.spieltag import Evening
from firmware.cli import CliError
from firmware.cli.cli_words import CliWords
from firmware.cli.common import note_lost
from firmware.cli.language import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.report.money import euro, kasse_data
from firmware.report.sheet import (
    evening_sheet,
    lost_data,
    lost_line,
    sheet_data,
    standing_cells,
    standings_heading,
    uncounted_data,
    uncounted_line,
)
from firmware.report.sheet_words import scheme_label
from firmware.store.evening import load_evening
from firmware.store.gamestore import GameStore
from firmware.store.kept_evenings import kept_evenings
from firmware.store.stats import FIELDS, PlayerStats, stats_to_mapping
from hal.storage import StateDirectory

__all__ = ["add_arguments", "format_standings", "format_table", "run"]

#: The table's headings: the player's name, then one per figure of ``FIELDS``.
_HEADING_KEYS = (
    "cli_stats_player", "cli_stats_games", "cli_stats_lost", "cli_stats_halves_lost",
    "cli_stats_blattschuss", "cli_stats_schocks", "cli_stats_schock_aus",
)  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV with a header line")
    parser.add_argument(
        "--spieltag", nargs="?", const="latest", metavar="ID",
        help="the standings of a Spieltag under its scheme instead (without ID or with latest: "
        "the one going on, else the last one ended)",
    )
    add_state_dir_argument(parser)
    add_lang_argument(parser, "the table's headings")


def format_table(table: dict[str, PlayerStats], lang: str = "de") -> list[str]:
    """The statistics as aligned text lines, most games first, then by name."""
    text = CliWords(lang)
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
    if args.spieltag is not None:
        if root is None:
            raise CliError("no games are kept on this computer: there is no Spieltag")
        spieltag_id = None if args.spieltag == "latest" else args.spieltag
        storage = StateDirectory(root)
        evening = load_evening(storage, spieltag_id)
        # The season's Kasse: every Spieltag this directory keeps (docs/cli.md).
        season = season_kasse(
            kept_evenings(storage, with_kasse=True, known=evening)
        ) if evening.spieltag.kasse is not None else ()  # fmt: skip
        return _standings(args, evening, {line.player: line.cents for line in season})
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


def format_standings(
    evening: Evening, lang: str = "de", season: Mapping[str, int] | None = None
) -> list[str]:
    """The evening's standings as aligned text lines under a title line; with a Kasse, what
    each player owes for the evening and, from ``season`` (player -> cents), the season."""
    text = CliWords(lang)
    spieltag = evening.spieltag
    title = text.t(
        "standings_title_one" if len(evening.counted) == 1 else "standings_title",
        name=spieltag.name, date=spieltag.date,
        scheme=scheme_label(spieltag.scheme.name, text), games=len(evening.counted),
    )
    lost = [lost_line(game, text) for game in evening.lost]
    lost += [uncounted_line(game, spieltag.scheme, text) for game in evening.uncounted]
    if not evening.counted:
        return [title, *lost, text.t("spieltag_none")]
    sheet = evening_sheet(evening)
    players = sheet.labels()
    rows = [standings_heading(text, spieltag.scheme.counts_lives)]
    rows += [standing_cells(line, players[line.player], text) for line in sheet.standings]
    if sheet.kasse is not None:
        owed = {line.player: line.cents for line in sheet.kasse_lines}
        rows[0] += [text.t("kasse_title"), text.t("kasse_season")]
        for row, line in zip(rows[1:], sheet.standings, strict=True):
            row += [euro(owed.get(line.player, 0), text),
                    euro((season or {}).get(line.player, 0), text)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [title, *lost]
    for row in rows:
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _standings(args: argparse.Namespace, evening: Evening, season: Mapping[str, int]) -> int:
    kasse = evening.spieltag.kasse
    owed = {line.player: line for line in evening_kasse(evening)}
    if args.json:
        data = sheet_data(evening) if evening.counted else {"standings": []}
        kept = {} if kasse is None else {
            "kasse": kasse_data(kasse, list(owed.values())), "kasse_season_cents": dict(season),
        }  # fmt: skip
        json.dump(
            {"spieltag": evening.spieltag.id, "standings": data["standings"],
             "lost": [lost_data(game) for game in evening.lost],
             "not_counted": [uncounted_data(game) for game in evening.uncounted], **kept},
            sys.stdout,
            ensure_ascii=False, indent=2,
        )
        print()
    elif args.csv:
        note_lost("stats", evening, output_language(args))
        lines = evening.standings() if evening.counted else ()
        writer = csv.writer(sys.stdout, lineterminator="\n")
        money = ("kasse_cents", "kasse_season_cents") if kasse is not None else ()
        writer.writerow(("place", "player", "score", "games", "games_lost", "halves_lost",
                         "finals_lost", "durchmarsch", "schock_aus", *money))
        for line in lines:
            cents = (
                (owed[line.player].cents if line.player in owed else 0,
                 season.get(line.player, 0)) if kasse is not None else ()
            )  # fmt: skip
            writer.writerow((line.place, line.player, line.score, line.games, line.games_lost,
                             line.halves_lost, line.finals_lost, line.durchmarsch,
                             line.schock_aus, *cents))
    else:
        for text_line in format_standings(evening, output_language(args), season):
            print(text_line)
    return 0
