"""Begin or end a Spieltag (an evening of games) in the state directory, register a
substitute on one, take a game out of it, put it back, or score it under another scheme.

While a Spieltag is going on, every game begun on the device or in `schocken sim` belongs to
it (its journal says so), until `schocken spieltag end`. Its standings: `schocken stats
--spieltag`; its sheet: `schocken sheet`. For a league match give --home and --guest, each
player's seat, league number and table with --player, and on the second table's device
--table 2; `schocken sheet` then merges both tables' evenings into one match sheet. The
league's header (--league, --match-number, the captains, --remarks) is printed on the sheet. A
substitute (Auswechselspieler) comes in on a listed player's seat: --substitute at the
beginning, or `schocken spieltag substitute SEAT=NAME[:NUMBER][@TABLE]` while the evening goes
on or after it ended (before its sheet is printed).

The scheme (--scoring) is a preset (verlustpunkte, siegpunkte, platzpunkte, leben) or a TOML
file with a [scoring] table: a preset plus its parameters (docs/sheet.md).

A game played at a table the scheme cannot score (two players under Platzpunkte) never blocks
the evening: it is named and not counted. `take-out PARTIE` takes a game out (played, not
counted), `put-back PARTIE` counts it again, `scoring NAME|FILE` scores the evening under
another scheme: each is recounted at once and kept in the evening's history (`history`), in the
Spieltag's own file; the games' journals are never changed.

Writing the Spieltag's file is one atomic replace, safe next to the running device (run it as
the device's user, or with sudo, on the device's /var/lib/schockbesteck).
"""

from __future__ import annotations

import argparse
import re
from datetime import datetime
from pathlib import Path

from engine.kasse import Kasse, kasse_from_toml
from engine.league import with_substitute
from engine.limits import ascii_whole_number
from engine.scoring import MAX_SCORING_BYTES, SCHEME_PRESETS, Scheme, load_scheme, scheme_from_toml
from engine.spieltag import Amendment, Change, LeaguePlayer, time_box_problem
from firmware.cli import CliError
from firmware.cli.cli_words import CliWords
from firmware.cli.common import whole_number
from firmware.cli.language import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.report.sheet_words import scheme_label
from firmware.store.evening import evening_of
from firmware.store.gamestore import GameStore
from firmware.store.spieltagamend import Amended, amend_evening
from firmware.store.spieltagbegin import COMMAND_LINE, SpieltagRequest, begin_spieltag
from firmware.store.spieltagfile import SpieltagFiles
from firmware.userfile import UserFileError, names_a_toml_file, read_user_text
from hal.storage import StateDirectory, user_state_dir

__all__ = [
    "add_arguments", "parse_player", "run", "scheme_from_argument", "scoring_from_argument",
    "time_box_from_text",
]

_PLAYER = re.compile(r"^(?P<seat>[HG](?:10|[1-9]))=(?P<name>[^:@]+)(?::(?P<number>[^@]*))?"
                     r"(?:@(?P<table>[12]))?$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    begin = action.add_parser("begin", help="begin a Spieltag: every game from now on is its")
    begin.add_argument("--name", required=True, metavar="NAME", help="its name or number")
    begin.add_argument("--venue", metavar="TEXT", help="the Spielort")
    begin.add_argument("--date", metavar="YYYY-MM-DD", help="the date (default: today)")
    begin.add_argument(
        "--scoring", default="verlustpunkte", metavar="NAME|FILE",
        help=f"the scheme: {', '.join(SCHEME_PRESETS)} or a TOML file with [scoring] "
        "(default: verlustpunkte)",
    )
    begin.add_argument(
        "--time-box", metavar="MINUTES",
        help="after MINUTES (1-600) the game in play goes on scharf: a round's loser loses "
        "the half (a points round: 60-75)",
    )
    begin.add_argument("--home", metavar="TEAM", help="the home team (league match)")
    begin.add_argument("--guest", metavar="TEAM", help="the guest team")
    begin.add_argument("--table", type=int, choices=(1, 2), default=1,
                       help="which table of a league match this device keeps (default 1)")
    begin.add_argument(
        "--player", action="append", default=[], metavar="SEAT=NAME[:NUMBER][@TABLE]",
        help="a league player: seat H1-H10 or G1-G10, name, Spielernummer, table (repeat)",
    )
    begin.add_argument(
        "--substitute", action="append", default=[], metavar="SEAT=NAME[:NUMBER][@TABLE]",
        help="a substitute (Auswechselspieler) on a --player's seat, at that player's table "
        "unless @TABLE (repeat)",
    )
    begin.add_argument("--league", metavar="TEXT", help="the league or Staffel (league match)")
    begin.add_argument("--match-number", metavar="TEXT", help="the match's number in the league")
    begin.add_argument("--home-captain", metavar="NAME", help="the home side's captain")
    begin.add_argument("--guest-captain", metavar="NAME", help="the guest side's captain")
    begin.add_argument("--remarks", metavar="TEXT", help="remarks for the sheet (a protest)")
    substitute = action.add_parser(
        "substitute", help="register a substitute (Auswechselspieler) on a league seat"
    )
    substitute.add_argument(
        "substitute", metavar="SEAT=NAME[:NUMBER][@TABLE]",
        help="the seat of a listed player, the substitute's name, Spielernummer and table "
        "(default: that player's)",
    )
    substitute.add_argument(
        "--spieltag", metavar="ID",
        help="which Spieltag (default: the one going on, else the last one ended)",
    )
    amending = []
    for name, helped in (("take-out", "take game PARTIE out: played, not counted"),
                         ("put-back", "count game PARTIE again")):
        sub = action.add_parser(name, help=helped)
        sub.add_argument("partie", metavar="PARTIE", help="the game's number on the sheet")
        amending.append(sub)
    scoring = action.add_parser("scoring", help="score the Spieltag under another scheme")
    scoring.add_argument(
        "scheme", metavar="NAME|FILE",
        help=f"{', '.join(SCHEME_PRESETS)} or a TOML file with [scoring]",
    )
    history = action.add_parser("history", help="what was changed since it began, and when")
    for sub in (*amending, scoring, history):
        sub.add_argument("--spieltag", metavar="ID", help="which Spieltag (default: the one "
                         "going on, else the last one ended)")
    for sub in (begin, action.add_parser("end", help="end the Spieltag going on"), substitute,
                *amending, scoring, history):
        add_state_dir_argument(sub)
        add_lang_argument(sub, "the messages")


def scheme_from_argument(value: str, label: str = "--scoring") -> Scheme:
    """A preset's name or a TOML file's [scoring]; CliError (one line, beginning with
    ``label``) otherwise."""
    return scoring_from_argument(value, label)[0]


def scoring_from_argument(value: str, label: str = "--scoring") -> tuple[Scheme, Kasse | None]:
    """A preset's name (no Kasse), or a TOML file's [scoring] and its [kasse] if it has one;
    CliError (one line, beginning with ``label``) otherwise."""
    if value in SCHEME_PRESETS:
        return load_scheme(value), None
    if not names_a_toml_file(value):
        raise CliError(
            f"{label} {value}: not a scheme; give one of {', '.join(SCHEME_PRESETS)} or a "
            ".toml file with a [scoring] table"
        )
    advice = f"give one of {', '.join(SCHEME_PRESETS)} or a .toml file with a [scoring] table"
    try:
        text = read_user_text(value, f"scoring file {value}", advice, MAX_SCORING_BYTES)
    except UserFileError as error:
        raise CliError(str(error)) from None
    return scheme_from_toml(text, origin=value), kasse_from_toml(text, origin=value)


def parse_player(value: str, option: str = "--player", table: int = 1) -> LeaguePlayer:
    """``H1=Anna:1234@2``: seat, name, league number, table (``table`` if not given)."""
    match = _PLAYER.match(value)
    if match is None:
        raise CliError(
            f"{option} {value}: expected SEAT=NAME[:NUMBER][@TABLE], the seat H1-H10 or "
            "G1-G10, e.g. H1=Anna:1234@1"
        )
    return LeaguePlayer(
        match["name"].strip(), match["seat"], (match["number"] or "").strip(),
        int(match["table"] or table),
    )


def time_box_from_text(text: str | None) -> int | None:
    """``--time-box`` as typed: whole minutes in ASCII digits (``７０``, `` 70``, ``+70`` and
    ``7_0`` are refused, as every number of the command line); the range is the request's check,
    so ``-5`` and ``0`` are named as the page's are."""
    if text is None:
        return None
    minutes = ascii_whole_number(text.removeprefix("-"))
    if minutes is None:
        raise CliError(str(time_box_problem(text, "--time-box")))
    return -minutes if text.startswith("-") else minutes


def _root(args: argparse.Namespace) -> Path:
    root = state_dir_from_args(args)
    return root if root is not None else user_state_dir()


#: Each amendment's line in the history.
_HISTORY_KEYS = {
    Change.TAKE_OUT: "spieltag_history_taken_out", Change.PUT_BACK: "spieltag_history_put_back",
    Change.SCHEME: "spieltag_history_scheme",
}  # fmt: skip
#: What an amendment says once made.
_DONE_KEYS = {
    Change.TAKE_OUT: "spieltag_taken_out", Change.PUT_BACK: "spieltag_put_back",
    Change.SCHEME: "spieltag_scheme_changed",
}  # fmt: skip


def history_line(amendment: Amendment, text: CliWords) -> str:
    """One amendment of an evening: when, and what."""
    before, after = amendment.before, amendment.after
    return text.t(
        _HISTORY_KEYS[amendment.change], at=amendment.at, partie=amendment.partie,
        before=scheme_label(before.name, text) if before is not None else "",
        after=scheme_label(after.name, text) if after is not None else "",
    )


def _amend(args: argparse.Namespace, storage: StateDirectory, text: CliWords) -> int:
    change = {"take-out": Change.TAKE_OUT, "put-back": Change.PUT_BACK}.get(
        args.action, Change.SCHEME
    )
    if change is Change.SCHEME:
        amended: Amended = amend_evening(
            storage, args.spieltag, change, datetime.now().astimezone(),
            scheme=scheme_from_argument(args.scheme, "scoring"),
        )
    else:
        partie = whole_number(args.partie, "PARTIE", 1, 10_000)
        amended = amend_evening(
            storage, args.spieltag, change, datetime.now().astimezone(), partie=partie
        )
    after = amended.after
    print(text.t(
        _DONE_KEYS[change], partie=getattr(args, "partie", ""), name=after.spieltag.name,
        before=scheme_label(amended.before.spieltag.scheme.name, text),
        after=scheme_label(after.spieltag.scheme.name, text), counted=len(after.counted),
        games=len(after.games),
    ))
    return 0


def run(args: argparse.Namespace) -> int:
    text = CliWords(output_language(args))
    storage = StateDirectory(_root(args))
    if args.action in ("take-out", "put-back", "scoring"):
        return _amend(args, storage, text)
    if args.action == "history":
        spieltag = SpieltagFiles(storage).find(args.spieltag)
        lines = [history_line(amendment, text) for amendment in spieltag.history]
        for line in lines or [text.t("spieltag_history_none", name=spieltag.name)]:
            print(line)
        return 0
    if args.action == "end":
        ended = SpieltagFiles(storage).end()
        games = len(evening_of(ended, GameStore(storage)).games)
        key = "spieltag_ended_one" if games == 1 else "spieltag_ended"
        print(text.t(key, name=ended.name, id=ended.id, games=games))
        return 0
    if args.action == "substitute":
        return _substitute(storage, args, text)
    # What was typed, as the one beginning of a Spieltag takes it (its checks, its ID).
    players = tuple(parse_player(value) for value in args.player)
    scheme, kasse = scoring_from_argument(args.scoring)
    substitutes = tuple(parse_player(value, "--substitute", 0) for value in args.substitute)
    request = SpieltagRequest(
        args.name, scheme, args.date or "", args.venue or "",
        args.home or "", args.guest or "", args.table, players,
        time_box_from_text(args.time_box), kasse,
        league=args.league or "", match_number=args.match_number or "",
        home_captain=args.home_captain or "", guest_captain=args.guest_captain or "",
        remarks=args.remarks or "", substitutes=substitutes,
    )
    spieltag = begin_spieltag(storage, request, datetime.now().astimezone(), COMMAND_LINE)
    print(text.t("spieltag_begun", name=spieltag.name, id=spieltag.id))
    return 0


def _substitute(storage: StateDirectory, args: argparse.Namespace, text: CliWords) -> int:
    """``schocken spieltag substitute``: the substitute on the seat, written into the
    Spieltag's file (one atomic replace)."""
    player = parse_player(args.substitute, "substitute", 0)
    files = SpieltagFiles(storage)
    spieltag = files.find(args.spieltag)
    changed = with_substitute(
        spieltag, player.seat, player.name, player.number, player.table or None
    )
    files.rewrite(changed)
    print(text.t("spieltag_substitute", name=player.name, seat=player.seat, spieltag=spieltag.name))
    return 0
