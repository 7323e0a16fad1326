"""``make tournament-demo``: a tournament on this machine, with nothing but Debian's mosquitto.

A private broker on loopback, in a temporary folder, with the tournament's own configuration
(:mod:`firmware.wire.broker`: persistence on every change, no anonymous users, the ACL) and
one broker user per table; then the hub (``schocken hub serve``, with its TV view) and the
simulated tables on it, which play a tournament of two points rounds and KO rounds to its
winner (:mod:`sim.tournament.whole_tournament`), one table every ``--pace`` seconds; with
``--faults`` the broker and the hub are killed on the way and some tables lose the network, and
nothing is lost. The TV view stays up until Ctrl+C (or ``--seconds``), with the winner and the
podium once the tournament is over. At the end the broker stops and its folder goes.

    python -m sim.tournament.demo [--tables N] [--event SLUG] [--seconds S] [--pace S]
                                  [--faults] [--listen HOST:PORT] [--lang de|en]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware.cli import CliError
from firmware.cli.common import whole_number
from firmware.cli.language import add_lang_argument, output_language
from firmware.wire.broker import HUB_USER, WATCH_USER, acl_text, mosquitto_conf
from firmware.wire.messages import WireError, check_level, table_user
from sim.sim_words import SimWords
from sim.tournament import processes
from sim.tournament.processes import free_port
from sim.tournament.whole_tournament import Faults, TournamentRun

#: Debian's broker and its password tool (package mosquitto).
MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
DEFAULT_TABLES = 8
MAX_TABLES = 200
DEFAULT_EVENT = "demo"
#: The most rounds the demo plays: the format ends long before (points-then-ko: two points
#: rounds, KO rounds until four are left, then their final).
MAX_ROUNDS = 30

Say = Callable[..., str]


class DemoError(Exception):
    """Why the demo cannot run: one line for the terminal."""


@dataclass
class DemoBroker(processes.ChildProcess):
    """A mosquitto of the demo's own: loopback only, its files in ``folder``."""

    mosquitto: Path
    folder: Path
    port: int
    #: Broker user -> password: the hub's and every table's.
    passwords: dict[str, str] = field(default_factory=dict)
    #: Ends with the process that starts it, whatever ends that (the bench's broker):
    #: :func:`~sim.tournament.processes.tied_to_this_process`.
    tied: bool = False
    _process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log_file(self) -> Path:
        return self.folder / "mosquitto.log"

    @property
    def pid(self) -> int | None:
        """The running mosquitto's process id (the bench reads its CPU and memory), or None."""
        return self._process.pid if self._process is not None and self.running else None

    def start(self, timeout_s: float = 10.0) -> None:
        """Start mosquitto and wait until its port takes connections."""
        self._process = subprocess.Popen(
            [str(self.mosquitto), "-c", str(self.folder / "mosquitto.conf")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            **(processes.tied_to_this_process() if self.tied else {}),
        )
        started = processes.await_port(self._process, self.port, timeout_s)
        if started is processes.Started.EXITED:
            raise DemoError(f"mosquitto stopped at once ({self.last_log_line()})")
        if started is processes.Started.TIMED_OUT:
            self.stop()
            raise DemoError(
                f"mosquitto did not listen on port {self.port} within {timeout_s:.0f} s"
            )

    def last_log_line(self) -> str:
        lines = (
            self.log_file.read_text(errors="replace").splitlines() if self.log_file.exists() else []
        )
        return lines[-1] if lines else f"no log in {self.log_file}"


def make_broker(
    mosquitto: Path, mosquitto_passwd: Path, folder: Path, tables: int, port: int = 0, *,
    tied: bool = False,
) -> DemoBroker:
    """Write the broker's configuration, ACL and password file into ``folder``.

    The passwords are random; ``mosquitto_passwd -U`` hashes all of them in one call. Run as
    root, mosquitto drops to its own user, so the folder is handed to that user; a ``tied``
    broker (it ends with the process that starts it) stays root instead, since changing its
    user would clear the kernel's parent-death signal (prctl(2)); it listens on loopback only.
    """
    broker = DemoBroker(mosquitto, folder, port or free_port(), tied=tied)
    users = [HUB_USER, WATCH_USER, *(table_user(n) for n in range(1, tables + 1))]
    broker.passwords = {user: secrets.token_urlsafe(12) for user in users}
    password_file = folder / "passwords"
    write_hashed(mosquitto_passwd, password_file, broker.passwords)
    (folder / "acl").write_text(acl_text())
    (folder / "data").mkdir()
    conf = mosquitto_conf(
        port=broker.port,
        persistence_dir=folder / "data",
        password_file=password_file,
        acl_file=folder / "acl",
        log_file=broker.log_file,
    )
    if tied and os.geteuid() == 0:
        conf += "user root\n"
    (folder / "mosquitto.conf").write_text(conf)
    hand_to_mosquitto(folder)
    return broker


def write_hashed(
    mosquitto_passwd: Path, password_file: Path, passwords: Mapping[str, str]
) -> None:
    """Add ``passwords`` (user -> password) to ``password_file``, hashed: one pass of
    ``mosquitto_passwd -U`` over a plain file (mode 0600) beside it, whatever their number."""
    plain = password_file.with_name(password_file.name + ".plain")
    plain.write_text("".join(f"{user}:{password}\n" for user, password in passwords.items()))
    plain.chmod(0o600)
    try:
        hashed = subprocess.run(
            [str(mosquitto_passwd), "-U", str(plain)], capture_output=True, text=True, check=False
        )
        if hashed.returncode != 0:
            reason = " ".join(hashed.stderr.split()) or f"exit {hashed.returncode}"
            raise DemoError(f"mosquitto_passwd failed: {reason}")
        with password_file.open("a") as kept:
            kept.write(plain.read_text())
        password_file.chmod(0o600)
    finally:
        plain.unlink(missing_ok=True)


def hand_to_mosquitto(folder: Path) -> None:
    """As root, mosquitto runs as the user ``mosquitto``: that user must own its folder."""
    if os.geteuid() != 0:
        return
    try:
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    for path in [folder, *folder.rglob("*")]:
        # A running broker renames its mosquitto.db.new as it saves: gone is fine.
        with contextlib.suppress(FileNotFoundError):
            os.chown(path, user.pw_uid, user.pw_gid)


def start_tournament(
    broker: DemoBroker, event: str, tables: int, args: argparse.Namespace, say: Say
) -> tuple[TournamentRun, threading.Thread]:
    """The hub (``schocken hub serve``, its own process) and ``tables`` simulated tables on
    ``broker``, playing the tournament in a thread of their own, one table every ``--pace``
    seconds so that the TV view fills in as a hall's would."""
    faults = Faults() if args.faults else Faults.none()
    if args.faults:
        faults = Faults(
            broker_kills=((1, 0.3, 0.5), (2, 0.6, 0.8)), hub_kills=((2, 0.2, 0.5),),
            offline=((1, max(1, tables // 10)),),
        )  # fmt: skip
    run = TournamentRun(
        broker.folder / "run", broker, tables=tables, event=event, faults=faults,
        listen=args.listen, pace_s=args.pace, rounds=MAX_ROUNDS,
        report=lambda key, **fields: print(say(key, **fields), flush=True),
    )  # fmt: skip
    run.__enter__()

    def play() -> None:
        try:
            run.play()
            if not run.stopping.is_set():
                outcome = run.check()
                print(say("sim_demo_over", rounds=outcome.rounds, games=outcome.games,
                          stored=outcome.stored, lost=len(outcome.lost),
                          unexpected=len(outcome.unexpected),
                          equal=say("sim_demo_yes" if outcome.ok else "sim_demo_no")),
                      flush=True)  # fmt: skip
                if outcome.winner is not None:
                    print(say("sim_demo_winner", name=outcome.winner), flush=True)
        except Exception as error:  # the demo says what stopped it and keeps the TV up
            print(f"tournament-demo: {error}", file=sys.stderr, flush=True)

    player = threading.Thread(target=play, name="tournament", daemon=True)
    return run, player


# -- the command ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m sim.tournament.demo",
        description="A tournament on this machine: a private mosquitto on loopback, the hub "
        "and simulated tables with computer players (Ctrl+C stops).",
    )
    parser.add_argument(
        "--tables",
        default=str(DEFAULT_TABLES),
        help=f"simulated tables, 1-{MAX_TABLES} (default {DEFAULT_TABLES})",
    )
    parser.add_argument(
        "--event",
        default=DEFAULT_EVENT,
        help=f"the tournament's slug in the topics (default {DEFAULT_EVENT})",
    )
    parser.add_argument(
        "--seconds", default=None, help="stop after this many seconds (default: at Ctrl+C)"
    )
    parser.add_argument("--port", default="0", help="the broker's port (default: a free one)")
    parser.add_argument(
        "--listen", default="127.0.0.1:8080", help="the TV view's HOST:PORT (default: port 8080)"
    )
    parser.add_argument(
        "--pace", default="1", help="seconds between two tables' rounds, 0-60 (default 1)"
    )
    parser.add_argument(
        "--faults", action="store_true",
        help="kill the broker and the hub on the way, and take tables off the network",
    )  # fmt: skip
    parser.add_argument(
        "--mosquitto",
        default=str(MOSQUITTO),
        help=f"the broker (default {MOSQUITTO}, Debian's package mosquitto)",
    )
    parser.add_argument(
        "--mosquitto-passwd",
        default=str(MOSQUITTO_PASSWD),
        help=f"its password tool (default {MOSQUITTO_PASSWD})",
    )
    add_lang_argument(parser, "the demo's lines")
    return parser.parse_args(argv)


def _pace(text: str) -> float:
    try:
        pace = float(text)
    except ValueError:
        pace = -1.0
    if not 0 <= pace <= 60:
        raise DemoError(f"--pace {text!r}: seconds from 0 to 60")
    return pace


def run(args: argparse.Namespace, say: Say, stop: threading.Event) -> None:
    """The demo itself; raises :class:`DemoError` with one line for what stops it."""
    tables = whole_number(args.tables, "--tables", 1, MAX_TABLES)
    port = whole_number(args.port, "--port", 0, 65535)
    seconds = None if args.seconds is None else whole_number(args.seconds, "--seconds", 0, 86400)
    args.pace = _pace(args.pace)
    try:
        event = check_level(args.event, "--event")
    except WireError as error:
        raise DemoError(str(error)) from None
    mosquitto, passwd = Path(args.mosquitto), Path(args.mosquitto_passwd)
    for tool in (mosquitto, passwd):
        if not os.access(tool, os.X_OK):
            raise DemoError(say("sim_demo_no_mosquitto", path=tool))
    folder = Path(tempfile.mkdtemp(prefix="schock-demo-"))
    broker: DemoBroker | None = None
    run: TournamentRun | None = None
    player: threading.Thread | None = None
    try:
        broker = make_broker(mosquitto, passwd, folder, tables, port)
        broker.start()
        print(say("sim_demo_broker", url=broker.url, folder=folder, tables=tables), flush=True)
        run, player = start_tournament(broker, event, tables, args, say)
        print(say("sim_demo_hub", url=broker.url, user=HUB_USER, event=event), flush=True)
        users = f"{table_user(1)} … {table_user(tables)}" if tables > 1 else table_user(1)
        print(say("sim_demo_tables_one" if tables == 1 else "sim_demo_tables", count=tables,
                  users=users), flush=True)
        if args.faults:
            print(say("sim_demo_faults"), flush=True)
        print(say("sim_demo_tv", url=f"{run.tv}/"), flush=True)
        print(say("sim_demo_running"), flush=True)
        player.start()
        stop.wait(seconds)
        if not broker.running and not args.faults:
            raise DemoError(say("sim_demo_broker_died", line=broker.last_log_line()))
    finally:
        if run is not None:
            run.stopping.set()
            if player is not None and player.is_alive():
                player.join(timeout=30)
            run.__exit__(None, None, None)
        if broker is not None:
            broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(say("sim_demo_stopped"), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; 0 at the end, 2 with one line on stderr when it cannot run."""
    try:
        args = parse_args(argv)
        say = SimWords(output_language(args)).t
    except (CliError, ValueError) as error:
        print(f"tournament-demo: {error}", file=sys.stderr)
        return 2
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        run(args, say, stop)
    except KeyboardInterrupt:
        print(say("sim_demo_stopped"), flush=True)
    except (DemoError, CliError, ValueError) as error:
        print(f"tournament-demo: {error}", file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
