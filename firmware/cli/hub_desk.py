"""The director's desk on `schocken hub`: the roster, the seating list.

  schocken hub players import --db dm.db verein.csv [--team-column Verein]
  schocken hub players add --db dm.db "Vera Neumann:SV Köln" Bernd
  schocken hub players list --db dm.db
  schocken hub seating --db dm.db [--round N] [--by table|name] -o sitzplan.pdf [--lang en]

The commands' work is in :mod:`firmware.hub.roster` and :mod:`firmware.hub.seating`; this
module reads their arguments and prints what they did. Every mistake is one line
(``CliError``), exit 2, nothing written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine.limits import InputLimitError
from firmware.cli import CliError
from firmware.cli.language import add_lang_argument, output_language
from firmware.hub.hub import Hub
from firmware.hub.roster import (
    RosterError,
    decode_roster,
    full_names,
    parse_item,
    parse_roster,
    register,
)
from firmware.userfile import path_problem, read_bytes_limited

__all__ = ["ACTIONS", "add_desk_arguments", "add_players_arguments", "players", "run"]

#: The hub's subcommands this module runs (beside ``players``).
ACTIONS = ("seating",)

#: The largest roster file read (608 players take about 20 kB).
_MAX_ROSTER_BYTES = 1024 * 1024


def add_players_arguments(action: Any) -> None:
    """``schocken hub players add|import|list`` under the hub's subcommands ``action``."""
    players = action.add_parser("players", help="register players (add, import) or list them")
    how = players.add_subparsers(dest="how", metavar="HOW", required=True)

    def command(name: str, help_: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = how.add_parser(name, help=help_)
        parser.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        return parser

    add = command("add", 'add players by name, each NAME or NAME:TEAM ("Vera Neumann:Rot")')
    add.add_argument("items", nargs="+", metavar="NAME[:TEAM]")
    roster = command("import", "add the players of a club's roster (CSV: name;team per line, "
                     "or a header naming the columns)")  # fmt: skip
    roster.add_argument("items", nargs=1, metavar="CSV")
    roster.add_argument(
        "--team-column", metavar="TITLE", help="the column the draw keeps apart (a header's title)"
    )
    command("list", "list the registered players: the name on the tables, team, full name")


def add_desk_arguments(action: Any) -> None:
    """The desk's other subcommands (:data:`ACTIONS`) under the hub's ``action``."""

    def command(name: str, help_: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = action.add_parser(name, help=help_)
        parser.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        return parser

    seating = command("seating", "a round's seating list to pin up (A4 PDF, large type)")
    seating.add_argument("--round", type=int, metavar="N", help="default: the current round")
    seating.add_argument("--by", choices=("table", "name"), default="table",
                         help="by table (default) or every player by name")  # fmt: skip
    seating.add_argument("--output", "-o", metavar="FILE", required=True)
    add_lang_argument(seating, "the list")


def run(hub: Hub, args: argparse.Namespace) -> int:
    """Run one of the desk's subcommands (:data:`ACTIONS`)."""
    if args.action == "seating":
        from firmware.hub.seating import seating_pdf

        data = seating_pdf(hub, args.round, output_language(args), args.by)
        _write(args.output, data)
    return 0


def _write(output: str, data: bytes) -> None:
    try:
        Path(output).write_bytes(data)
    except OSError as error:
        raise CliError(f"--output {output}: {error.strerror or error}") from None


def players(hub: Hub, args: argparse.Namespace) -> int:
    """Run ``schocken hub players ...``."""
    try:
        return _players(hub, args)
    except RosterError as error:
        raise CliError(str(error)) from None


def _players(hub: Hub, args: argparse.Namespace) -> int:
    if args.how == "list":
        full = full_names(hub.store)
        for entrant in hub.store.players():
            shown = f"{entrant.name}:{entrant.team}" if entrant.team else entrant.name
            print(f"{shown}  ({full[entrant.name]})" if entrant.name in full else shown)
        return 0
    if args.how == "add":
        lines = [parse_item(item) for item in args.items]
    else:
        path = Path(args.items[0])
        try:
            data = read_bytes_limited(path, _MAX_ROSTER_BYTES)
        except InputLimitError:
            raise CliError(
                f"roster {path} is too long: at most {_MAX_ROSTER_BYTES} bytes are allowed"
            ) from None
        except OSError as error:
            raise CliError(f"roster {path}: {path_problem(path, error)}") from None
        lines = parse_roster(decode_roster(data, str(path)), str(path), args.team_column)
    roster = register(hub.store, lines)
    print(f"{len(roster.entrants)} players added, {len(hub.store.players())} registered")
    return 0
