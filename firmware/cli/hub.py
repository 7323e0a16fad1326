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

Every line it prints or refuses with is in German, or in English with --lang en or an English
locale (LC_ALL, LC_MESSAGES, LANG).

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
from firmware.hub.desk import refusal_reason
from firmware.hub.hub import Hub, HubError, init_tournament
from firmware.hub.hub_words import HubWords
from firmware.hub.store import HubStore, HubStoreError
from firmware.userfile import path_problem

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def sub(name: str, help_: str, what: str = "what it prints") -> argparse.ArgumentParser:
        command = action.add_parser(name, help=help_)
        command.add_argument("--db", metavar="FILE", required=True, help="the tournament's file")
        add_lang_argument(command, what)
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
    finish = sub("finish", "finish the running round: later results are refused", "the warning")
    finish.add_argument("--yes", action="store_true",
                        help="finish even while tables hold unreported results (listed first)")
    approve = sub("approve", "let waiting results count (approval on)")
    approve.add_argument("id", nargs="?", help="one result's id (default: all waiting)")
    sub("standings", "print the standings", "the standings")
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
    export = sub("export", "the standings as CSV or PDF, or a table's sheet (PDF)", "the export")
    export.add_argument("form", choices=("csv", "pdf", "sheet"))
    export.add_argument("--round", type=int, metavar="N")
    export.add_argument("--table", type=int, metavar="N")
    export.add_argument("--output", "-o", metavar="FILE", required=True)
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
    parser.add_argument("--why", required=why_required, metavar="TEXT",
                        help="why (kept; a paper card's default: the words for one)")  # fmt: skip


def _hub(args: argparse.Namespace) -> Hub:
    return Hub(HubStore(Path(args.db)))


def run(args: argparse.Namespace) -> int:
    """Run ``schocken hub ACTION``: every line it prints or refuses with in the language
    ``--lang`` or the environment chooses (:func:`output_language`)."""
    text = HubWords(output_language(args))
    try:
        return _run(args, text)
    except (HubError, HubStoreError) as error:
        raise CliError(error.said(text)) from None
    except ScoringError as error:  # a scheme's own file broken: not the director's input
        raise CliError(str(error)) from None


def _run(args: argparse.Namespace, text: HubWords) -> int:
    if args.action == "init":
        init_tournament(Path(args.db), args.event)
        print(text.t("hub_cli_made", path=args.db, event=args.event))
        return 0
    hub = _hub(args)
    match args.action:
        case "players":
            return hub_desk.players(hub, args, text)
        case "format":
            return _format(hub, args, text)
        case "draw":
            tables = hub.draw_round(args.seed)
            key = "hub_drawn_one" if len(tables) == 1 else "hub_drawn"
            print(text.t(key, n=hub.current_round(), tables=len(tables)))
            for table in tables:
                print(f"  {text.t('hub_table', n=table.table_no)}: {', '.join(table.players)}")
        case "start":
            state = hub.start_round(time.time(), args.minutes)
            print(text.t("hub_started", n=state.round))
        case "finish":
            return _finish(hub, args, text)
        case "approve":
            print(text.t("hub_cli_approved", n=hub.store.approve(args.id)))
        case "standings":
            from firmware.hub.pages import standings_document
            from firmware.report.document import document_rows

            document = standings_document(hub.view(time.time()), text.language)
            for row in document_rows(document):
                print("  ".join(row))
        case "refusals":
            _refusals(hub, text)
        case "status":
            _status(hub, text)
        case "results" | "paper" | "correct" | "void" | "accept" | "desk":
            return hub_desk.desk(hub, args, text)
        case "serve":
            return _serve(hub, args, text)
        case "export":
            return _export(hub, args, text)
        case "refill":
            return _refill(hub, args, text)
        case other if other in hub_desk.ACTIONS:
            return hub_desk.run(hub, args, text)
    return 0


def _refill(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    """Ask the tables (through ``serve``), wait until their answers stop, rebuild."""
    from firmware.hub import refill

    if not hub.store.players():
        raise CliError(text.t("hub_refill_no_players"))
    refill.ask(hub.store, time.time())
    print(text.t("hub_refill_asked", event=hub.event, s=f"{args.quiet:g}"), flush=True)
    started = last_change = time.monotonic()
    seen = (0, 0)
    while True:
        time.sleep(0.25)
        now = time.monotonic()
        count = refill.staged(hub.store)
        if count != seen:
            seen, last_change = count, now
            print(text.t("hub_refill_answers", n=count[0], tables=count[1]), flush=True)
        if seen[0] and now - last_change >= args.quiet:
            break
        if not seen[0] and now - started >= args.wait:
            refill.cancel(hub.store)
            raise CliError(text.t("hub_refill_silent", s=f"{args.wait:g}"))
    done = refill.rebuild(hub.store, hub.format(), time.time())
    rounds = ", ".join(map(str, done.rounds)) or text.t("hub_refill_no_rounds")
    print(text.t("hub_refilled", tables=done.tables, stored=done.stored, known=done.known,
                 unfit=len(done.unfit), rounds=rounds))  # fmt: skip
    if done.running is not None:
        print(text.t("hub_refill_running", n=done.running))
    for ident in done.unfit:
        print(text.t("hub_refill_unfit", id=ident))
    return 0


def _finish(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    """Finish the round; first, the tables that still hold results, and only with --yes then."""
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


def _refusals(hub: Hub, text: HubWords) -> None:
    """Every refusal kept (its number, when, the topic, the id it named, why), then the ones
    counted per source where more were counted than kept."""
    rows = hub.store.refusal_rows()
    for kept in rows:
        stamp = time.strftime("%H:%M:%S", time.localtime(kept.at))
        why = refusal_reason(text, kept)
        print(f"{kept.seq} {stamp} {kept.topic} {kept.result_id or '-'}: {why}")
    counted = hub.store.refusal_counts()
    if not rows and not any(counted.values()):
        print(text.t("desk_no_refusals"))
    kept_by: dict[str, int] = {}
    for _at, topic, _id, _reason in hub.store.refusals():
        source = topic.split("/")[3] if topic.count("/") >= 4 else ""
        kept_by[source] = kept_by.get(source, 0) + 1
    for source, count in sorted(counted.items()):
        if count > kept_by.get(source, 0):
            print(text.t("hub_cli_refusals_counted", source=source or "-", n=count,
                         kept=kept_by.get(source, 0)))  # fmt: skip


#: The state of a round, in words.
_STATES = {"drawn": "hub_state_drawn", "running": "hub_state_running",
           "finished": "hub_state_finished"}  # fmt: skip


def _status(hub: Hub, text: HubWords) -> None:
    """What the director checks at a glance: the round, each table's link and what waits."""
    view = hub.view(time.time())
    if view.round.state:
        print(text.t("hub_cli_status", event=view.event, n=view.round.number,
                     state=text.t(_STATES[view.round.state])))  # fmt: skip
    else:
        print(text.t("hub_cli_status_none", event=view.event))
    if view.broker is None:
        print(text.t("hub_cli_link_never"))
    else:
        stamp = time.strftime("%H:%M:%S", time.localtime(view.broker[1]))
        print(text.t("hub_cli_link_up" if view.broker[0] else "hub_cli_link_down", at=stamp))
    offline = [t for t in view.tables if not t.online]
    known = view.broker is not None and view.broker[0]
    print(text.t("hub_cli_online" if known else "hub_cli_online_then",
                 n=len(view.tables) - len(offline), of=len(view.tables)))  # fmt: skip
    for table in view.tables:  # what `finish` would wait for, in its words
        if table.online and not table.outbox:
            continue
        link = text.t("hub_online" if table.online else "hub_offline")
        held = f"{text.t('hub_outbox', n=table.outbox)} ({link})" if table.outbox else link
        print(f"  {text.t('hub_table', n=table.table)}: {held}")
    print(text.t("hub_cli_refused", n=view.refused))
    denials = hub.store.denials()
    print(text.t("hub_cli_denied", n=sum(row.count for row in denials)))
    for row in denials:
        stamp = time.strftime("%H:%M:%S", time.localtime(row.at))
        print(text.t("hub_cli_denied_publish" if row.kind == "publish" else
                     "hub_cli_denied_subscribe", user=row.user, n=row.count, at=stamp,
                     topic=row.last_topic))  # fmt: skip


#: What each format preset is, in words (the English is the preset's own source).
FORMAT_DESCRIPTIONS = {
    "dm": "hub_format_dm", "velen": "hub_format_velen", "kamen": "hub_format_kamen",
    "dm-ko": "hub_format_dm_ko", "points-then-ko": "hub_format_points_then_ko",
}  # fmt: skip
#: How teams are scored (``--team-score``), in words.
_TEAM_SCORES = {"points": "hub_team_points", "lives_lost": "hub_team_lives_lost"}


def _format(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    store = hub.store
    if store.rounds() and (args.preset or args.scheme or args.team_score):
        raise CliError(text.t("hub_cli_format_fixed"))
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
    described = FORMAT_DESCRIPTIONS.get(fmt.name)
    source = text.t(described) if described else fmt.source
    team = _TEAM_SCORES.get(fmt.team_score)
    print(text.t(
        "hub_cli_format", name=fmt.name, source=source,
        scheme=store.get("scheme", "verlustpunkte"), minutes=store.get("minutes", "0"),
        approval=text.t("hub_cli_on" if store.get("approval", "off") == "on" else "hub_cli_off"),
        team=text.t(team) if team else fmt.team_score,
    ))  # fmt: skip
    return 0


def _export(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    from firmware.hub.pages import standings_csv, standings_pdf, table_sheet_pdf

    lang = text.language
    if args.form == "csv":
        data = standings_csv(hub.view(time.time()), lang)
    elif args.form == "pdf":
        data = standings_pdf(hub.view(time.time()), lang)
    else:
        if args.round is None or args.table is None:
            raise CliError(text.t("hub_cli_sheet_which"))
        data = table_sheet_pdf(hub, args.round, args.table, lang)
    hub_desk.write(args.output, data, text)
    return 0


def _password(args: argparse.Namespace, text: HubWords) -> str:
    if args.password_file:
        return _read_secret("--password-file", args.password_file, text)
    password = os.environ.get("SCHOCKEN_HUB_PASSWORD", "")
    if not password:
        raise CliError(text.t("hub_cli_no_password"))
    return password


def _desk_password(args: argparse.Namespace, text: HubWords) -> str:
    """The desk's password ("" for none: the desk is off), never printed."""
    if args.desk_password_file:
        secret = _read_secret("--desk-password-file", args.desk_password_file, text)
        if not secret:
            raise CliError(text.t("hub_cli_secret_empty", option="--desk-password-file",
                                  path=args.desk_password_file))  # fmt: skip
        return secret
    return os.environ.get("SCHOCKEN_DESK_PASSWORD", "")


def _read_secret(option: str, path: str, text: HubWords) -> str:
    """The password in the file ``path`` (``option`` names it), stripped; never printed."""
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as error:
        problem = path_problem(path, error)
    except UnicodeDecodeError:
        problem = text.t("hub_cli_not_text")
    raise CliError(text.t("hub_cli_secret_unread", option=option, path=path, problem=problem))


def _serve(hub: Hub, args: argparse.Namespace, text: HubWords) -> int:
    from dataclasses import replace

    from firmware.hub.desk_login import DeskLogin
    from firmware.hub.desk_page import DeskPage
    from firmware.hub.pages import hub_routes, refused_line
    from firmware.hub.service import HubService
    from firmware.hub.view import HubView, ViewJson
    from firmware.hub.view_changes import ViewFeed
    from firmware.wire.broker import HUB_USER
    from firmware.work import settle_heap
    from hal.hub_server import HubServer, HubServerError
    from hal.mqtt import MqttError, MqttLink, MqttSettings

    host, _, port_text = args.listen.rpartition(":")
    if not host or not port_text.isdigit():
        raise CliError(text.t("hub_cli_listen", given=args.listen))
    try:
        MqttSettings(args.broker, f"hub-{hub.event}")  # the URL first: its mistake is plainer
        settings = MqttSettings(
            args.broker, f"hub-{hub.event}", HUB_USER, _password(args, text), args.ca_file
        )
    except MqttError as error:
        raise CliError(str(error)) from None
    password = _desk_password(args, text)
    # The desk's own connection to the file, as the command line's: serve notices its commits.
    desk = DeskPage(_hub(args), DeskLogin(password, time.time) if password else None, time.time)
    try:
        server = HubServer(
            host.strip("[]"), int(port_text), hub_routes(hub, time.time), names=args.host_name,
            on_error=refused_line,
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
    settle_heap()  # the hub's tournament as loaded: no full pass of the collector walks it again
    where, port = server.address
    shown = f"http://{'127.0.0.1' if where in ('0.0.0.0', '::') else where}:{port}"
    print(text.t("hub_serving", event=hub.event, broker=args.broker, tv=f"{shown}/",
                 phone=f"{shown}/phone", desk=f"{shown}/desk"), flush=True)  # fmt: skip
    try:
        while not stop.wait(1.0):
            changed()  # what another process committed (a draw, a start) shows even unchanged
    finally:
        service.stop()
        server.close()
    return 0
