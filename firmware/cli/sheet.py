"""The Spielberichtsbogen of a Spieltag: CSV (default), a one-page A4 PDF, JSON, or an export.

SOURCE is a state directory or an exported evening (--export); without one, the device's or
the simulator's state directory (as for `schocken stats`). Two SOURCEs are the two tables of a
league match: their evenings are merged into one match sheet, table 1's Partien first. Two
tables that are not one match (other sides, date, name, scheme, time box, or lists that put two
players on a seat), and a game that is in the sources twice, are refused in one line; a Partie
taken out of an export is named on the sheet, as is a player of a league match on no seat.

The CSV is UTF-8 with a byte order mark and ';' between the fields, so German spreadsheet
programs open it as columns. --pdf needs reportlab (the 'pi' extra). Reads only: safe next to
the running device.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.limits import ascii_whole_number
from engine.spieltag import Evening, duplicate_partie, merge_match
from firmware.cli import CliError
from firmware.cli.common import exported_evening, note_lost, note_unlisted
from firmware.cli.language import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.store.evening import evening_to_export, load_evening
from firmware.store.gamestore import GameStore
from hal.storage import StateDirectory

__all__ = ["add_arguments", "run"]

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", nargs="*", metavar="SOURCE",
        help="a state directory or an exported evening (.json); two: a league match's tables",
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV for spreadsheets (the default)")
    form.add_argument("--pdf", action="store_true", help="a one-page A4 PDF")
    form.add_argument("--json", action="store_true", help="the sheet as JSON")
    form.add_argument(
        "--export", action="store_true",
        help="the evening with every game's actions, for merging on another computer",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--spieltag", metavar="ID", help="which Spieltag (default: the one going "
                       "on, else the last one ended)")
    which.add_argument("--game", metavar="N", help="the Spieltag that finished game N belongs to")
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default: stdout)")
    add_state_dir_argument(parser)
    add_lang_argument(parser, "the sheet")


def _from_directory(root: Path, args: argparse.Namespace) -> Evening:
    storage = StateDirectory(root)
    spieltag_id = args.spieltag
    if args.game is not None:
        number = ascii_whole_number(args.game)
        if number is None:
            raise CliError(f"--game {args.game}: not a game's number (the N of game-N.journal)")
        spieltag_id = GameStore(storage).game_spieltag(number)
        if spieltag_id is None:
            raise CliError(
                f"game {number} was played outside any Spieltag: it has no sheet; begin a "
                "Spieltag (schocken spieltag begin) before the games that belong to it"
            )
    evening = load_evening(storage, spieltag_id)
    twice = duplicate_partie(evening.games)
    if twice is not None:
        raise CliError(
            f"{root}: Partie {twice[1]} is Partie {twice[0]} again (the same players and every "
            "throw): a game's journal is kept twice; move the copy out of the state directory"
        )
    return evening


def _evening(source: str, args: argparse.Namespace) -> Evening:
    path = Path(source).expanduser()
    if path.is_dir():
        return _from_directory(path, args)
    return exported_evening(path, source)


def run(args: argparse.Namespace) -> int:
    sources: list[str] = args.source
    if len(sources) > 2:
        raise CliError(
            f"{len(sources)} SOURCEs: give one evening, or two for a league match's two tables"
        )
    if sources:
        evenings = [_evening(source, args) for source in sources]
    else:
        root = state_dir_from_args(args)
        if root is None:
            raise CliError("no games are kept on this computer: there is no Spieltag to print")
        evenings = [_from_directory(root, args)]
    evening = evenings[0] if len(evenings) == 1 else merge_match(evenings[0], evenings[1])
    lang = output_language(args)
    note_lost("sheet", evening, lang)
    note_unlisted("sheet", evening, lang)
    data: bytes
    if args.export:
        data = (json.dumps(evening_to_export(evening), ensure_ascii=False) + "\n").encode()
    elif args.json:
        from firmware.report.sheet import sheet_data

        body = json.dumps(sheet_data(evening), ensure_ascii=False, indent=2)
        data = (body + "\n").encode()
    elif args.pdf:
        from firmware.report.pdf import sheet_pdf
        from firmware.report.sheet import evening_sheet

        data = sheet_pdf(evening_sheet(evening), lang)
    else:
        from firmware.report.document import csv_text
        from firmware.report.sheet import evening_sheet, sheet_rows

        data = csv_text(sheet_rows(evening_sheet(evening), lang)).encode("utf-8")
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
