"""The tournament director's hub: players, the format, the draw, the rounds, the standings,
and `serve`, which takes every table's results from the MQTT broker and shows the TV view.

The tournament lives in one SQLite file (--db FILE): the source of truth, which `serve` and
the other commands may use at once (a draw or a round's start made beside a running `serve`
is published by it within a second).

  schocken hub init --event dm2026 --db dm.db
  schocken hub players add --db dm.db Anna:Rot Bernd:Rot Cem:Blau ...   (NAME or NAME:TEAM)
  schocken hub players import --db dm.db players.csv                     (name;team per line)
  schocken hub format --db dm.db kamen --minutes 70
  schocken hub draw --db dm.db ; schocken hub start --db dm.db ; ... ; schocken hub finish
  schocken hub serve --db dm.db --broker mqtt://127.0.0.1:1883 --listen 0.0.0.0:8080
  schocken hub export --db dm.db csv|pdf|sheet [--round N --table N] -o FILE
  schocken hub refill --db dm.db        (a lost file: the tables send their results again)

`serve` logs in to the broker as user "hub" with the password in $SCHOCKEN_HUB_PASSWORD or the
file --password-file names.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import signal
import threading
import time
from pathlib import Path

from engine.scoring import SCHEME_PRESETS, ScoringError, load_scheme
from engine.tournament import FORMAT_PRESETS, Entrant
from firmware.cli import CliError
from firmware.cli.language import add_lang_argument, output_language
from firmware.hub.hub import Hub, HubError, init_tournament
from firmware.hub.hub_words import HubWords
from firmware.hub.store import HubStore, HubStoreError
from firmware.names import MAX_NAME_LENGTH, name_problem
from firmware.userfile import UserFileError, read_user_text

__all__ = ["add_arguments", "run"]

_MAX_CSV_BYTES = 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def sub(name: str, help_: str) -> argparse.ArgumentParser:
        command = action.add_parser(name, help=help_)
        command.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        return command

    init = sub("init", "make the tournament's file")
    init.add_argument("--event", required=True, help="the event's slug, e.g. dm2026")
    players = action.add_parser("players", help="register players (add, import) or list them")
    how = players.add_subparsers(dest="how", metavar="HOW", required=True)
    for name, help_, items in (
        ("add", "add players by name, each NAME or NAME:TEAM", "NAME[:TEAM]"),
        ("import", "add the players of a CSV file (name;team per line)", "CSV"),
        ("list", "list the registered players", ""),
    ):
        command = how.add_parser(name, help=help_)
        command.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        if items:
            command.add_argument("items", nargs="+" if name == "add" else 1, metavar=items)
    fmt = sub("format", "the format (a preset), its points scheme, time box and approval")
    fmt.add_argument("preset", nargs="?", choices=tuple(FORMAT_PRESETS))
    fmt.add_argument(
        "--scheme",
        choices=tuple(name for name, scheme in SCHEME_PRESETS.items() if not scheme.counts_lives),
        help="the points rounds' scheme (KO rounds count lives)",
    )
    fmt.add_argument("--minutes", metavar="N", type=_minutes, help="a round's time box (0: none)")
    fmt.add_argument("--approval", choices=("on", "off"), help="results count once approved")
    fmt.add_argument("--team-score", choices=("points", "lives_lost"))
    draw = sub("draw", "draw the next round onto tables")
    draw.add_argument("--seed", metavar="N", type=int, help="repeat a draw (default: a fresh one)")
    start = sub("start", "start the drawn round now")
    start.add_argument("--minutes", metavar="N", type=_minutes, help="its time box (0: none)")
    sub("finish", "finish the running round: later results are refused")
    approve = sub("approve", "let waiting results count (approval on)")
    approve.add_argument("id", nargs="?", help="one result's id (default: all waiting)")
    standings = sub("standings", "print the standings")
    add_lang_argument(standings, "the standings")
    sub("refusals", "list every refused message and why")
    serve = sub("serve", "take the tables' results from the broker; serve the TV view")
    serve.add_argument("--broker", metavar="URL", required=True, help="mqtt://HOST:PORT")
    serve.add_argument("--listen", metavar="HOST:PORT", default="127.0.0.1:8080")
    serve.add_argument("--password-file", metavar="FILE", help="the hub user's broker password")
    serve.add_argument("--ca-file", metavar="FILE", help="a CA file for mqtts://")
    serve.add_argument("--host-name", action="append", default=[], metavar="NAME",
                       help="a name the TV page may be asked by (besides its address)")  # fmt: skip
    refill = sub("refill", "a lost file made again: every table sends its results again "
                 "(beside a running serve; init, format and players first)")
    refill.add_argument("--quiet", metavar="S", type=float, default=10.0,
                        help="done once no answer came for S seconds (default 10)")
    refill.add_argument("--wait", metavar="S", type=float, default=300.0,
                        help="give up after S seconds without any answer (default 300)")
    export = sub("export", "the standings as CSV or PDF, or a table's sheet (PDF)")
    export.add_argument("form", choices=("csv", "pdf", "sheet"))
    export.add_argument("--round", type=int, metavar="N")
    export.add_argument("--table", type=int, metavar="N")
    export.add_argument("--output", "-o", metavar="FILE", required=True)
    add_lang_argument(export, "the export")


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"{text} minutes: give 0 to 1440")
    return value


def _hub(args: argparse.Namespace) -> Hub:
    try:
        return Hub(HubStore(Path(args.db)))
    except HubStoreError as error:
        raise CliError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except (HubError, HubStoreError, ScoringError) as error:
        raise CliError(str(error)) from None


def _run(args: argparse.Namespace) -> int:
    if args.action == "init":
        init_tournament(Path(args.db), args.event)
        print(f"{args.db}: tournament {args.event}")
        return 0
    hub = _hub(args)
    match args.action:
        case "players":
            return _players(hub, args)
        case "format":
            return _format(hub, args)
        case "draw":
            tables = hub.draw_round(args.seed)
            text = HubWords(output_language(_no_lang(args)))
            print(text.t("hub_drawn", n=hub.current_round(), tables=len(tables)))
            for table in tables:
                print(f"  {text.t('hub_table', n=table.table_no)}: {', '.join(table.players)}")
        case "start":
            state = hub.start_round(time.time(), args.minutes)
            print(HubWords(output_language(_no_lang(args))).t("hub_started", n=state.round))
        case "finish":
            state = hub.finish_round()
            print(HubWords(output_language(_no_lang(args))).t("hub_finished", n=state.round))
        case "approve":
            print(f"{hub.store.approve(args.id)} approved")
        case "standings":
            from firmware.hub.pages import standings_document
            from firmware.report.document import document_rows

            document = standings_document(hub.view(time.time()), output_language(args))
            for row in document_rows(document):
                print("  ".join(row))
        case "refusals":
            for at, topic, result_id, reason in hub.store.refusals():
                stamp = time.strftime("%H:%M:%S", time.localtime(at))
                print(f"{stamp} {topic} {result_id or '-'}: {reason}")
        case "serve":
            return _serve(hub, args)
        case "export":
            return _export(hub, args)
        case "refill":
            return _refill(hub, args)
    return 0


def _refill(hub: Hub, args: argparse.Namespace) -> int:
    """Ask the tables (through ``serve``), wait until their answers stop, rebuild."""
    from firmware.hub import refill

    if not hub.store.players():
        raise CliError("refill: register the players first (the same roster as before)")
    refill.ask(hub.store, time.time())
    print(f"refill of {hub.event} asked: every table sends its results again "
          f"(done once none came for {args.quiet:g} s)", flush=True)  # fmt: skip
    started = last_change = time.monotonic()
    seen = (0, 0)
    while True:
        time.sleep(0.25)
        now = time.monotonic()
        count = refill.staged(hub.store)
        if count != seen:
            seen, last_change = count, now
            print(f"  {count[0]} answers from {count[1]} tables", flush=True)
        if seen[0] and now - last_change >= args.quiet:
            break
        if not seen[0] and now - started >= args.wait:
            refill.cancel(hub.store)
            raise CliError(f"refill: no table answered within {args.wait:g} s; is `schocken hub "
                           "serve` running and linked to the broker?")
    done = refill.rebuild(hub.store, hub.format(), time.time())
    rounds = ", ".join(map(str, done.rounds)) or "none"
    print(f"refilled from {done.tables} tables: {done.stored} results stored, {done.known} "
          f"stored already, {len(done.unfit)} fit no table; rounds made: {rounds}")
    if done.running is not None:
        print(f"round {done.running} runs: `schocken hub finish` when its time is up")
    for ident in done.unfit:
        print(f"  fits no table of its round: {ident}")
    return 0


def _no_lang(args: argparse.Namespace) -> argparse.Namespace:
    return args if hasattr(args, "lang") else argparse.Namespace(lang=None)


def _entrant(item: str, where: str) -> Entrant:
    name, _, team = item.partition(":")
    name, team = name.strip(), team.strip()
    problem = name_problem(name)  # the device's rule: every table can play the name
    if problem is None and (len(team) > MAX_NAME_LENGTH or not team.isprintable()):
        problem = f"team {team!r}: at most {MAX_NAME_LENGTH} printable characters"
    if problem is not None:
        raise CliError(f"{where}: {problem}")
    return Entrant(name, team)


def _players(hub: Hub, args: argparse.Namespace) -> int:
    if args.how == "list":
        for entrant in hub.store.players():
            print(f"{entrant.name}:{entrant.team}" if entrant.team else entrant.name)
        return 0
    if args.how == "add":
        entrants = [_entrant(item, item) for item in args.items]
    else:
        entrants = _read_csv(Path(args.items[0]))
    count = hub.store.add_players(entrants)
    print(f"{count} players added, {len(hub.store.players())} registered")
    return 0


def _read_csv(path: Path) -> list[Entrant]:
    """Players from a CSV of ``name;team`` (or ``,``), a header line ``name`` allowed."""
    try:
        text = read_user_text(path, f"CSV {path}", "give a file of name;team lines", _MAX_CSV_BYTES)
    except UserFileError as error:
        raise CliError(str(error)) from None
    text = text.lstrip("\ufeff")
    dialect = ";" if ";" in text.splitlines()[0] else "," if text.strip() else ";"
    entrants = []
    for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=dialect), start=1):
        if not row or not "".join(row).strip():
            continue
        if number == 1 and row[0].strip().lower() in ("name", "spieler", "player"):
            continue
        team = row[1] if len(row) > 1 else ""
        entrants.append(_entrant(f"{row[0]}:{team}", f"{path}:{number}"))
    if not entrants:
        raise CliError(f"{path}: no players in it (one name;team per line)")
    return entrants


def _format(hub: Hub, args: argparse.Namespace) -> int:
    store = hub.store
    if store.rounds() and (args.preset or args.scheme or args.team_score):
        raise CliError("the format is fixed once a round is drawn; only --minutes and --approval")
    if args.preset:
        store.set("format", args.preset)
    if args.scheme:
        load_scheme(args.scheme)
        store.set("scheme", args.scheme)
    if args.minutes is not None:
        store.set("minutes", f"{args.minutes:g}")
    if args.approval:
        store.set("approval", args.approval)
    if args.team_score:
        store.set("team_score", args.team_score)
    fmt = hub.format()
    print(
        f"format {fmt.name} ({fmt.source}); scheme {store.get('scheme', 'verlustpunkte')}; "
        f"time box {store.get('minutes', '0')} min; approval {store.get('approval', 'off')}; "
        f"team score {fmt.team_score}"
    )
    return 0


def _export(hub: Hub, args: argparse.Namespace) -> int:
    from firmware.hub.pages import standings_csv, standings_pdf, table_sheet_pdf

    lang = output_language(args)
    if args.form == "csv":
        data = standings_csv(hub.view(time.time()), lang)
    elif args.form == "pdf":
        data = standings_pdf(hub.view(time.time()), lang)
    else:
        if args.round is None or args.table is None:
            raise CliError("export sheet: give --round N and --table N")
        data = table_sheet_pdf(hub, args.round, args.table, lang)
    try:
        Path(args.output).write_bytes(data)
    except OSError as error:
        raise CliError(f"--output {args.output}: {error.strerror or error}") from None
    return 0


def _password(args: argparse.Namespace) -> str:
    if args.password_file:
        try:
            return Path(args.password_file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise CliError(f"--password-file {args.password_file}: {error.strerror}") from None
    password = os.environ.get("SCHOCKEN_HUB_PASSWORD", "")
    if not password:
        raise CliError("serve: the broker needs the hub's password: --password-file FILE or "
                       "$SCHOCKEN_HUB_PASSWORD")  # fmt: skip
    return password


def _serve(hub: Hub, args: argparse.Namespace) -> int:
    import json
    from dataclasses import replace

    from firmware.hub.pages import hub_routes
    from firmware.hub.service import HubService
    from firmware.hub.view import HubView
    from firmware.wire.broker import HUB_USER
    from hal.hub_server import HubServer, HubServerError
    from hal.mqtt import MqttError, MqttLink, MqttSettings

    host, _, port_text = args.listen.rpartition(":")
    if not host or not port_text.isdigit():
        raise CliError(f"--listen {args.listen}: give HOST:PORT, e.g. 0.0.0.0:8080")
    try:
        MqttSettings(args.broker, f"hub-{hub.event}")  # the URL first: its mistake is plainer
        settings = MqttSettings(
            args.broker, f"hub-{hub.event}", HUB_USER, _password(args), args.ca_file
        )
    except MqttError as error:
        raise CliError(str(error)) from None
    try:
        server = HubServer(
            host.strip("[]"), int(port_text), hub_routes(hub, time.time), names=args.host_name,
            on_error=lambda error: str(error) if isinstance(error, HubError) else "",
        )  # fmt: skip
    except HubServerError as error:
        raise CliError(str(error)) from None

    last: list[HubView | None] = [None]
    lock = threading.Lock()

    def changed() -> None:
        """Push the state to the TVs if it changed (the worker's and the main thread's)."""
        with lock:
            view = hub.view(time.time())
            same = replace(view, now=0.0)
            if same != last[0]:
                last[0] = same
                server.push(json.dumps(view.to_json()).encode())

    service = HubService(hub, time.time, changed)
    try:
        link = MqttLink(settings, service.post, service.connection_changed)
    except MqttError as error:
        server.close()
        raise CliError(str(error)) from None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    changed()
    service.start(link)
    where, port = server.address
    shown = f"http://{'127.0.0.1' if where in ('0.0.0.0', '::') else where}:{port}"
    text = HubWords(output_language(argparse.Namespace(lang=None)))
    print(text.t("hub_serving", event=hub.event, broker=args.broker, tv=f"{shown}/",
                 phone=f"{shown}/phone"), flush=True)  # fmt: skip
    try:
        while not stop.wait(1.0):
            changed()  # what another process committed (a draw, a start) shows even unchanged
    finally:
        service.stop()
        server.close()
    return 0
