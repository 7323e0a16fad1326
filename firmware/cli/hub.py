"""The tournament director's hub: players, the format, the draw, the rounds, the standings,
and `serve`, which takes every table's results from the MQTT broker and shows the TV view.

The tournament lives in one SQLite file (--db FILE): the source of truth, which `serve` and
the other commands may use at once (a draw or a round's start made beside a running `serve`
is published by it within a second).

  schocken hub init --event dm2026 --db dm.db
  schocken hub players add --db dm.db "Vera Neumann:Rot" Bernd:Rot ...   (NAME or NAME:TEAM)
  schocken hub players import --db dm.db verein.csv      (a club's roster: firmware/cli/hub_desk.py)
  schocken hub format --db dm.db kamen --minutes 70
  schocken hub draw --db dm.db ; schocken hub start --db dm.db ; ... ; schocken hub finish
  schocken hub serve --db dm.db --broker mqtt://127.0.0.1:1883 --listen 0.0.0.0:8080
  schocken hub export --db dm.db csv|pdf|sheet [--round N --table N] -o FILE
  schocken hub status --db dm.db            (the tables' links, refusals, broker denials)
  schocken hub finish --db dm.db [--yes]    (lists the tables with unreported results first)
  schocken hub paper|correct|void|accept|results|desk --db dm.db ...   (the director's desk:
      a game's results; firmware/cli/hub_desk.py)
  schocken hub seating|withdraw|disqualify|replace|redraw|reopen|history ...  (the director's
      desk: the players and the rounds; firmware/cli/hub_desk.py)
  schocken hub refill --db dm.db        (a lost file: the tables send their results again)

`serve` logs in to the broker as user "hub" with the password in $SCHOCKEN_HUB_PASSWORD or the
file --password-file names; the director's desk on the page (/desk) takes the password in
$SCHOCKEN_DESK_PASSWORD or the file --desk-password-file names.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from pathlib import Path

from engine.scoring import SCHEME_PRESETS, ScoringError, load_scheme
from engine.tournament import FORMAT_PRESETS
from firmware.cli import CliError, hub_desk
from firmware.cli.language import add_lang_argument, output_language
from firmware.hub.hub import Hub, HubError, init_tournament
from firmware.hub.hub_words import HubWords
from firmware.hub.store import HubStore, HubStoreError

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def sub(name: str, help_: str) -> argparse.ArgumentParser:
        command = action.add_parser(name, help=help_)
        command.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        return command

    init = sub("init", "make the tournament's file")
    init.add_argument("--event", required=True, help="the event's slug, e.g. dm2026")
    hub_desk.add_players_arguments(action)
    fmt = sub("format", "the format (a preset), its points scheme, time box and approval")
    fmt.add_argument("preset", nargs="?", choices=tuple(FORMAT_PRESETS))
    fmt.add_argument(
        "--scheme",
        choices=tuple(name for name, scheme in SCHEME_PRESETS.items() if not scheme.counts_lives),
        help="the points rounds' scheme (KO rounds count lives)",
    )
    fmt.add_argument(
        "--minutes", metavar="N", type=hub_desk.minutes_argument,
        help="a round's time box (0: none)",
    )
    fmt.add_argument("--approval", choices=("on", "off"), help="results count once approved")
    fmt.add_argument("--team-score", choices=("points", "lives_lost"))
    draw = sub("draw", "draw the next round onto tables")
    draw.add_argument("--seed", metavar="N", type=int, help="repeat a draw (default: a fresh one)")
    start = sub("start", "start the drawn round now")
    start.add_argument(
        "--minutes", metavar="N", type=hub_desk.minutes_argument, help="its time box (0: none)"
    )
    finish = sub("finish", "finish the running round: later results are refused")
    finish.add_argument("--yes", action="store_true",
                        help="finish even while tables hold unreported results (listed first)")
    add_lang_argument(finish, "the warning")  # fmt: skip
    approve = sub("approve", "let waiting results count (approval on)")
    approve.add_argument("id", nargs="?", help="one result's id (default: all waiting)")
    standings = sub("standings", "print the standings")
    add_lang_argument(standings, "the standings")
    sub("refusals", "list every refused message kept and why, and how many were counted")
    sub("status", "the round, the tables' links, the hub's link, refusals and broker denials")
    listing = sub("results", "list the stored results that count, with their ids")
    listing.add_argument("--round", type=int, metavar="N")
    listing.add_argument("--table", type=int, metavar="N")
    paper = sub("paper", "enter a game from a paper table card (a table whose device died)")
    paper.add_argument("--round", type=int, metavar="N", required=True)
    paper.add_argument("--table", type=int, metavar="N", required=True)
    paper.add_argument("--game", type=int, metavar="N", required=True,
                       help="its number on the card")  # fmt: skip
    paper.add_argument("--players", metavar="A,B,...",
                       help="who played it (default: the table's players of the round)")
    _game_arguments(paper)
    _desk_arguments(paper, why_required=False)
    correct = sub("correct", "correct a stored game's result (who, when and why are kept)")
    correct.add_argument("id", help="the result's id (`schocken hub results`)")
    _game_arguments(correct)
    _desk_arguments(correct)
    void = sub("void", "let a stored result count no more (who, when and why are kept)")
    void.add_argument("id", help="the result's id (`schocken hub results`)")
    _desk_arguments(void)
    accept = sub("accept", "store a refused result after all (who, when and why are kept)")
    accept.add_argument("number", type=int, help="the refusal's number (`schocken hub refusals`)")
    _desk_arguments(accept)
    sub("desk", "list what the director did to results: who, when, what and why")
    serve = sub("serve", "take the tables' results from the broker; serve the TV view")
    serve.add_argument("--broker", metavar="URL", required=True, help="mqtt://HOST:PORT")
    serve.add_argument("--listen", metavar="HOST:PORT", default="127.0.0.1:8080")
    serve.add_argument("--password-file", metavar="FILE", help="the hub user's broker password")
    serve.add_argument("--ca-file", metavar="FILE", help="a CA file for mqtts://")
    serve.add_argument("--desk-password-file", metavar="FILE",
                       help="the director's desk's password (/desk; or $SCHOCKEN_DESK_PASSWORD; "
                            "without: the desk is off)")  # fmt: skip
    serve.add_argument("--broker-log", metavar="FILE",
                       help="the broker's log file: count the publishes and subscriptions it "
                            "denies")  # fmt: skip
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
    hub_desk.add_desk_arguments(action)


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    """A game as a table card has it: the halves' losers, the final's, who went out when."""
    parser.add_argument("--halves", metavar="A,B", required=True,
                        help="the losers of half 1 and half 2 (the same name: a Durchmarsch)")
    parser.add_argument("--final", metavar="NAME", help="the final's loser (none: a Durchmarsch)")
    for half in (1, 2):
        parser.add_argument(f"--out{half}", metavar="A+B,C,D",
                            help=f"half {half}: who went out in order, '+' joining those out in "
                                 "the same round, its loser last (default: all others together)")
    parser.add_argument("--schock-aus", metavar="NAME:N", action="append", default=[],
                        help="Schock aus a player stood with (from the hand)")  # fmt: skip


def _desk_arguments(parser: argparse.ArgumentParser, *, why_required: bool = True) -> None:
    parser.add_argument("--who", required=True, metavar="NAME", help="who does it (kept)")
    parser.add_argument("--why", required=why_required, metavar="TEXT", default="paper table card",
                        help="why (kept)")  # fmt: skip


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
            return hub_desk.players(hub, args)
        case "format":
            return _format(hub, args)
        case "draw":
            tables = hub.draw_round(args.seed)
            text = HubWords(output_language(_no_lang(args)))
            key = "hub_drawn_one" if len(tables) == 1 else "hub_drawn"
            print(text.t(key, n=hub.current_round(), tables=len(tables)))
            for table in tables:
                print(f"  {text.t('hub_table', n=table.table_no)}: {', '.join(table.players)}")
        case "start":
            state = hub.start_round(time.time(), args.minutes)
            print(HubWords(output_language(_no_lang(args))).t("hub_started", n=state.round))
        case "finish":
            return _finish(hub, args)
        case "approve":
            print(f"{hub.store.approve(args.id)} approved")
        case "standings":
            from firmware.hub.pages import standings_document
            from firmware.report.document import document_rows

            document = standings_document(hub.view(time.time()), output_language(args))
            for row in document_rows(document):
                print("  ".join(row))
        case "refusals":
            for kept in hub.store.refusal_rows():
                stamp = time.strftime("%H:%M:%S", time.localtime(kept.at))
                print(f"{kept.seq} {stamp} {kept.topic} {kept.result_id or '-'}: {kept.reason}")
            _refusal_counts(hub)
        case "status":
            _status(hub)
        case "results" | "paper" | "correct" | "void" | "accept" | "desk":
            return hub_desk.desk(hub, args)
        case "serve":
            return _serve(hub, args)
        case "export":
            return _export(hub, args)
        case "refill":
            return _refill(hub, args)
        case other if other in hub_desk.ACTIONS:
            return hub_desk.run(hub, args)
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


def _finish(hub: Hub, args: argparse.Namespace) -> int:
    """Finish the round; first, the tables that still hold results, and only with --yes then."""
    text = HubWords(output_language(args))
    waiting = hub.unreported()
    if waiting:
        print(text.t("hub_unreported", n=hub.current_round()))
        for table in waiting:
            link = text.t("hub_online" if table.online else "hub_offline")
            print(f"  {text.t('hub_table', n=table.table)}: "
                  f"{text.t('hub_outbox', n=table.count)} ({link})")  # fmt: skip
        if not args.yes:
            raise CliError(text.t("hub_finish_confirm", n=hub.current_round()))
    state = hub.finish_round(confirmed=True)
    print(text.t("hub_finished", n=state.round))
    return 0


def _refusal_counts(hub: Hub) -> None:
    """The refusals counted per source, where more were counted than kept."""
    kept: dict[str, int] = {}
    for _at, topic, _id, _reason in hub.store.refusals():
        source = topic.split("/")[3] if topic.count("/") >= 4 else ""
        kept[source] = kept.get(source, 0) + 1
    for source, count in sorted(hub.store.refusal_counts().items()):
        if count > kept.get(source, 0):
            print(f"{source or '-'}: {count} refused, the first {kept.get(source, 0)} kept")


def _status(hub: Hub) -> None:
    """What the director checks at a glance: the round, each table's link and what waits."""
    view = hub.view(time.time())
    state = view.round.state or "no round drawn"
    print(f"event {view.event}; round {view.round.number} {state}")
    if view.broker is None:
        print("the hub's broker link: no `schocken hub serve` has run")
    else:
        stamp = time.strftime("%H:%M:%S", time.localtime(view.broker[1]))
        print(f"the hub's broker link: {'up' if view.broker[0] else 'DOWN'} since {stamp}")
    offline = [t for t in view.tables if not t.online]
    known = view.broker is not None and view.broker[0]
    print(f"tables {len(view.tables) - len(offline)} of {len(view.tables)} online"
          + ("" if known else " when the hub last heard from its broker"))  # fmt: skip
    for table in offline:
        print(f"  table {table.table} offline, {table.outbox} results not reported")
    print(f"refused {view.refused} (`schocken hub refusals`)")
    denials = hub.store.denials()
    print(f"denied by the broker {sum(row.count for row in denials)}")
    for row in denials:
        kind = "publishes" if row.kind == "publish" else "subscriptions"
        stamp = time.strftime("%H:%M:%S", time.localtime(row.at))
        print(f"  {row.user}: {row.count} {kind}, the last at {stamp} on {row.last_topic}")


def _no_lang(args: argparse.Namespace) -> argparse.Namespace:
    return args if hasattr(args, "lang") else argparse.Namespace(lang=None)


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


def _desk_password(args: argparse.Namespace) -> str:
    """The desk's password ("" for none: the desk is off), never printed."""
    if args.desk_password_file:
        try:
            text = Path(args.desk_password_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            problem = getattr(error, "strerror", None) or "not a text file"
            raise CliError(f"--desk-password-file {args.desk_password_file}: {problem}") from None
        if not text:
            raise CliError(f"--desk-password-file {args.desk_password_file}: it is empty")
        return text
    return os.environ.get("SCHOCKEN_DESK_PASSWORD", "")


def _serve(hub: Hub, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from firmware.hub.desk_login import DeskLogin
    from firmware.hub.desk_page import DeskPage
    from firmware.hub.pages import hub_routes
    from firmware.hub.service import HubService
    from firmware.hub.view import HubView, ViewJson
    from firmware.hub.view_changes import ViewFeed
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
    password = _desk_password(args)
    # The desk's own connection to the file, as the command line's: serve notices its commits.
    desk = DeskPage(_hub(args), DeskLogin(password, time.time) if password else None, time.time)
    try:
        server = HubServer(
            host.strip("[]"), int(port_text), hub_routes(hub, time.time), names=args.host_name,
            on_error=lambda error: str(error) if isinstance(error, HubError) else "",
            forms=desk,
        )  # fmt: skip
    except HubServerError as error:
        raise CliError(str(error)) from None

    last: list[HubView | None] = [None]
    lock = threading.Lock()
    feed, states = ViewFeed(), ViewJson()

    def changed() -> None:
        """Push the state and its changes to the TVs and phones if it changed (the worker's and
        the main thread's)."""
        with lock:
            view = hub.view(time.time())
            same = replace(view, now=0.0)
            if same != last[0]:
                last[0] = same
                server.push(*feed.next(states.state(view)))

    service = HubService(hub, time.time, changed)
    if args.broker_log:
        service.watch_broker_log(Path(args.broker_log))
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
                 phone=f"{shown}/phone", desk=f"{shown}/desk"), flush=True)  # fmt: skip
    try:
        while not stop.wait(1.0):
            changed()  # what another process committed (a draw, a start) shows even unchanged
    finally:
        service.stop()
        server.close()
    return 0
