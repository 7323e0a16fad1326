"""A season (Saison) over any number of Spieltage: CSV (default), PDF on A4 pages, or JSON.

Each SOURCE is a state directory (every Spieltag it keeps: the ended ones and the one going
on) or an exported evening (`schocken sheet --export`); without one, every Spieltag of the
device's or the simulator's state directory (as for `schocken stats`). A league match's two
tables, from two devices, are merged into one Spieltag as `schocken sheet` merges them. The
players' table (with attendance), the teams' table of the league matches and the Kasse where
a Spieltag keeps one are recounted from the games (engine/saison.py); Spieltage under
different schemes are refused in one line. Reads only: safe next to the running device.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.saison import make_season
from engine.spieltag import Evening
from firmware.cli import CliError
from firmware.cli.common import exported_evening, note_lost
from firmware.cli.language import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.store.kept_evenings import kept_evenings
from hal.storage import StateDirectory

__all__ = ["add_arguments", "run"]

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", nargs="*", metavar="SOURCE",
        help="a state directory (all its Spieltage) or an exported evening (.json); any number",
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV for spreadsheets (the default)")
    form.add_argument("--pdf", action="store_true", help="a PDF on A4 pages")
    form.add_argument("--json", action="store_true", help="the season as JSON")
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default: stdout)")
    add_state_dir_argument(parser)
    add_lang_argument(parser, "the season")


def _evenings(source: str) -> tuple[Evening, ...]:
    path = Path(source).expanduser()
    if path.is_dir():
        evenings = kept_evenings(StateDirectory(path))
        if not evenings:
            raise CliError(
                f"SOURCE {source}: holds no Spieltag; begin one with `schocken spieltag begin`"
            )
        return evenings
    return (exported_evening(path, source),)


def run(args: argparse.Namespace) -> int:
    sources: list[str] = args.source
    if not sources:
        root = state_dir_from_args(args)
        if root is None:
            raise CliError("no games are kept on this computer: there is no Spieltag for a season")
        sources = [str(root)]
    evenings = [evening for source in sources for evening in _evenings(source)]
    season = make_season(evenings)
    lang = output_language(args)
    for evening in season.evenings:
        note_lost("saison", evening, lang)
    if args.json:
        from firmware.report.season_sheet import season_data

        data = (json.dumps(season_data(season), ensure_ascii=False, indent=2) + "\n").encode()
    elif args.pdf:
        from firmware.report.season_sheet import season_pdf

        data = season_pdf(season, lang)
    else:
        from firmware.report.season_sheet import season_csv

        data = season_csv(season, lang)
    if args.output:
        try:
            Path(args.output).write_bytes(data)
        except OSError as error:
            raise CliError(f"--output {args.output}: {error.strerror or error}") from None
        return 0
    if args.pdf and sys.stdout.isatty():
        raise CliError("--pdf: a PDF is not for the terminal; give --output FILE or redirect it")
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0
