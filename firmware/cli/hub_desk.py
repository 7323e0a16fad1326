"""The director's desk on `schocken hub`: a game's results (from a paper card, corrected,
voided, a refusal accepted, and the history of those), the roster, the seating list, players
who leave or are replaced, a round drawn again or reopened, and the history of those.

  schocken hub results --db dm.db [--round N --table N]
  schocken hub paper --db dm.db --round N --table N --game N --halves A,B ... --who Lena
  schocken hub correct|void --db dm.db ID ... --who Lena --why "..." ; schocken hub accept N ...
  schocken hub desk --db dm.db          (what the desk changed in the results: before, after)
  schocken hub players import --db dm.db verein.csv [--team-column Verein]
  schocken hub players add --db dm.db "Vera Neumann:SV Köln" Bernd
  schocken hub players list --db dm.db
  schocken hub seating --db dm.db [--round N] [--by table|name] -o sitzplan.pdf [--lang en]
  schocken hub withdraw|disqualify --db dm.db Vera --why "ill" [--who Lena]
  schocken hub replace --db dm.db Vera "Jan Springer" --why "ill" [--who Lena]
  schocken hub redraw --db dm.db [--seed N] --why "a table short" ; schocken hub reopen ...
  schocken hub history --db dm.db       (what the desk changed in the players and rounds)

A game's result goes through :class:`firmware.hub.hub.Hub` (the table's own checks, who, when
and why kept in the file's ``desk``), the card's fields read by :mod:`firmware.hub.desk` as the
hub's ``/desk`` page reads them, and prints the standings' lines it changed: the standings are
recounted from the stored games after every commit, here and in a running `serve`, which
publishes them again. The other commands' work is in :mod:`firmware.hub.registration`,
:mod:`firmware.hub.seating` and :mod:`firmware.hub.desk` (their history in ``desk_log``); this
module reads their arguments and prints what they did. Every mistake is one line
(``CliError``), exit 2, nothing written.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import time
from pathlib import Path
from typing import Any

from engine.limits import InputLimitError
from firmware.cli import CliError
from firmware.cli.language import add_lang_argument
from firmware.hub.desk import (
    TableCard,
    changed_lines,
    correct,
    history,
    leave,
    paper,
    player_named,
    redraw,
    reopen,
    said,
    standings_lines,
)
from firmware.hub.hub import Hub
from firmware.hub.hub_words import HubWords
from firmware.hub.registration import (
    RosterError,
    decode_roster,
    full_names,
    parse_item,
    parse_roster,
    register,
)
from firmware.userfile import path_problem, read_bytes_limited

__all__ = [
    "ACTIONS", "add_desk_arguments", "add_players_arguments", "desk", "minutes_argument", "players",
    "run", "write",
]

#: The hub's subcommands :func:`run` runs (:func:`players` and :func:`desk` run the others).
ACTIONS = ("seating", "withdraw", "disqualify", "replace", "redraw", "reopen", "history")
#: The largest roster file read (608 players take about 20 kB).
_MAX_ROSTER_BYTES = 1024 * 1024


def add_players_arguments(action: Any) -> None:
    """``schocken hub players add|import|list`` under the hub's subcommands ``action``."""
    players = action.add_parser("players", help="register players (add, import) or list them")
    how = players.add_subparsers(dest="how", metavar="HOW", required=True)

    def command(name: str, help_: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = how.add_parser(name, help=help_)
        parser.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        add_lang_argument(parser, "what it prints")
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

    def command(name: str, help_: str, what: str = "the answer") -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = action.add_parser(name, help=help_)
        parser.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        add_lang_argument(parser, what)
        return parser

    seating = command("seating", "a round's seating list to pin up (A4 PDF, large type)",
                      "the list")  # fmt: skip
    seating.add_argument("--round", type=int, metavar="N", help="default: the current round")
    seating.add_argument("--by", choices=("table", "name"), default="table",
                         help="by table (default) or every player by name")  # fmt: skip
    seating.add_argument("--output", "-o", metavar="FILE", required=True)

    def changing(name: str, help_: str) -> argparse.ArgumentParser:
        parser = command(name, help_)
        parser.add_argument("--why", required=True, help="the reason, kept in the history")
        parser.add_argument("--who", help="the director (default: the login name)")
        return parser

    for name, how in (("withdraw", "withdrawn"), ("disqualify", "disqualified")):
        leaving = changing(name, f"a player {how}: plays no more from here on")
        leaving.add_argument("player", metavar="NAME", help="the name on the tables, or in full")
    substitute = changing("replace", "a substitute (a Springer) takes a player's seat and lives")
    substitute.add_argument("player", metavar="NAME", help="the name on the tables, or in full")
    substitute.add_argument(
        "substitute", metavar="SUBSTITUTE",
        help="a registered player, or a full name to register (NAME[:TEAM], the team: theirs)",
    )  # fmt: skip
    again = changing("redraw", "draw the drawn round again before it starts")
    again.add_argument("--seed", metavar="N", type=int, help="repeat a draw")
    reopen = changing("reopen", "let the finished last round take results again")
    reopen.add_argument(
        "--minutes", metavar="N", type=minutes_argument,
        help="a new time box from now (0: none; default: the round's own)",
    )  # fmt: skip
    command("history", "what the desk changed: when, who, what, why", "the history")


def run(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    """Run one of the desk's subcommands (:data:`ACTIONS`), saying what it did in ``text``."""
    if args.action == "seating":
        from firmware.hub.seating import seating_pdf

        write(args.output, seating_pdf(hub, args.round, text.language, args.by), text)
        return 0
    if args.action == "history":
        entries = history(hub)
        for entry in entries:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.at))
            print(f"{stamp} {entry.who}: {said(text, entry.action, entry.round, entry.detail)}"
                  f" – {entry.why}")  # fmt: skip
        if not entries:
            print(text.t("hub_desk_no_history"))
        return 0
    who = args.who or os.environ.get("SUDO_USER") or getpass.getuser()
    now = time.time()
    if args.action == "redraw":
        tables = redraw(hub, args.seed, who=who, why=args.why, now=now)
        print(said(text, "redrawn", tables[0].round, {"tables": len(tables)}))
        for table in tables:
            print(f"  {text.t('hub_table', n=table.table_no)}: {', '.join(table.players)}")
    elif args.action == "reopen":
        state = reopen(hub, who=who, why=args.why, now=now, minutes=args.minutes)
        print(said(text, "reopened", state.round, {}))
    else:
        how = {"withdraw": "withdrawn", "disqualify": "disqualified"}.get(args.action, "replaced")
        name = player_named(hub, args.player)
        given = getattr(args, "substitute", "")
        substitute = player_named(hub, given, must=False) if given else ""
        leaving = leave(hub, name, how, who=who, why=args.why, now=now, substitute=substitute)
        detail = {"name": name, "substitute": leaving.substitute}
        print(said(text, how, leaving.round, detail))
    return 0


def write(output: str, data: bytes, text: HubWords) -> None:
    """Write ``data`` to the file ``--output`` names (CliError, in ``text``, if it cannot)."""
    try:
        Path(output).write_bytes(data)
    except OSError as error:
        problem = path_problem(output, error, "write")
        raise CliError(text.t("hub_cli_output", path=output, problem=problem)) from None


def players(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    """Run ``schocken hub players ...``."""
    try:
        return _players(hub, args, text)
    except RosterError as error:
        raise CliError(str(error)) from None


def _players(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    if args.how == "list":
        full = full_names(hub.store)
        entrants = hub.store.players()
        for entrant in entrants:
            shown = f"{entrant.name}:{entrant.team}" if entrant.team else entrant.name
            print(f"{shown}  ({full[entrant.name]})" if entrant.name in full else shown)
        if not entrants:
            print(text.t("hub_cli_no_players"))
        return 0
    if args.how == "add":
        lines = [parse_item(item) for item in args.items]
    else:
        path = Path(args.items[0])
        try:
            data = read_bytes_limited(path, _MAX_ROSTER_BYTES)
        except InputLimitError:
            too_long = text.t("hub_cli_roster_long", path=path, n=_MAX_ROSTER_BYTES)
            raise CliError(too_long) from None
        except OSError as error:
            problem = path_problem(path, error)
            raise CliError(text.t("hub_cli_roster_unread", path=path, problem=problem)) from None
        lines = parse_roster(decode_roster(data, str(path)), str(path), args.team_column)
    roster = register(hub.store, lines)
    print(text.t("hub_cli_players_added", n=len(roster.entrants), of=len(hub.store.players())))
    return 0


#: What the desk did to a result, in words, by its action in the file.
_DONE = {"paper": "desk_action_paper", "correct": "desk_action_correct",
         "void": "desk_action_void", "accept": "desk_action_accept"}  # fmt: skip


def desk(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    """Run one of the desk's commands on a game's results (results, paper, correct, void,
    accept) or list their history (desk), saying what it did in ``text``."""
    now = time.time()
    if args.action == "results":
        _results(hub, args, text)
        return 0
    if args.action == "desk":
        rows = hub.store.desk()
        for row in rows:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row.at))
            done = text.t(_DONE[row.action]) if row.action in _DONE else row.action
            print(f"{stamp} {row.who}: {done} {row.result_id}: {row.why}")
        if not rows:
            print(text.t("hub_desk_no_changes"))
        return 0
    before = standings_lines(hub)
    if args.action == "paper":
        why = args.why or text.t("desk_paper_why")
        report = paper(hub, args.round, args.table, args.game, _card(args), args.who, why,
                       now, args.players or "")  # fmt: skip
        print(text.t("desk_done_paper", id=report.id))
    elif args.action == "correct":
        report = correct(hub, args.id, _card(args), args.who, args.why, now)
        print(text.t("desk_done_correct", id=report.id))
    elif args.action == "void":
        hub.void_result(args.id, args.who, args.why, now)
        print(text.t("desk_done_void", id=args.id))
    else:
        report = hub.accept_refused(args.number, args.who, args.why, now)
        print(text.t("desk_done_accept", id=report.id))
    for line in changed_lines(before, standings_lines(hub)):
        key = "desk_line" if line.lives is None else "desk_line_lives"
        print("  " + text.t(key, name=line.name, points=line.points, lives=line.lives,
                            lost=line.games_lost))  # fmt: skip
    return 0


#: Where a stored result came from, in words (a table's own report by default).
_ORIGINS = {"paper": "desk_origin_paper", "accepted": "desk_origin_accepted"}


def _results(hub: Hub, args: argparse.Namespace, text: HubWords) -> None:
    listed = [stored for stored in hub.store.results(args.round)
              if args.table is None or stored.table_no == args.table]  # fmt: skip
    if not listed:
        print(text.t("desk_no_results"))
    for stored in listed:
        loser = json.loads(stored.payload)["loser"]
        kind = text.t("hub_cli_game" if stored.kind == "game" else "hub_cli_half")
        origin = f" ({text.t(_ORIGINS[stored.origin])})" if stored.origin in _ORIGINS else ""
        print(f"{stored.id}: {kind}, {text.t('desk_lost_by', name=loser)}{origin}")


def _card(args: argparse.Namespace) -> TableCard:
    """The table card the options give (read as the desk's page reads its fields)."""
    return TableCard(args.halves, args.final or "", args.out1 or "", args.out2 or "",
                     tuple(args.schock_aus))  # fmt: skip


def minutes_argument(text: str) -> float:
    """An argparse type: a time box in minutes, 0 (none) to a day's 1440."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"{text} minutes: give 0 to 1440")
    return value
