"""``make tournament-demo``: a tournament on this machine, with nothing but Debian's mosquitto.

A private broker on loopback, in a temporary folder, with the tournament's own configuration
(:mod:`firmware.tournament.broker`: persistence on every change, no anonymous users, the ACL) and
one broker user per table; then the hub and the simulated tables on it, until Ctrl+C (or
``--seconds``). At the end the broker stops and its folder goes.

Two places below are where the hub and the tables start (:func:`start_hub`,
:func:`start_tables`): until the hub (``firmware.hub``) and the simulated table
(``sim.tournament_table``) are wired in, each says what it would start and with which
credentials.

    python -m sim.tournament_demo [--tables N] [--event SLUG] [--seconds S] [--lang de|en]
"""

from __future__ import annotations

import argparse
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware.cli import CliError
from firmware.cli.common import add_lang_argument, output_language, whole_number
from firmware.screen.i18n import Catalogue
from firmware.tournament.broker import HUB_USER, acl_text, mosquitto_conf, table_user
from firmware.tournament.wire import WireError, check_level

#: Debian's broker and its password tool (package mosquitto).
MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
DEFAULT_TABLES = 8
MAX_TABLES = 200
DEFAULT_EVENT = "demo"

Say = Callable[..., str]


class DemoError(Exception):
    """Why the demo cannot run: one line for the terminal."""


@dataclass
class DemoBroker:
    """A mosquitto of the demo's own: loopback only, its files in ``folder``."""

    mosquitto: Path
    folder: Path
    port: int
    #: Broker user -> password: the hub's and every table's.
    passwords: dict[str, str] = field(default_factory=dict)
    _process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log_file(self) -> Path:
        return self.folder / "mosquitto.log"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

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
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise DemoError(f"mosquitto stopped at once ({self.last_log_line()})")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise DemoError(f"mosquitto did not listen on port {self.port} within {timeout_s:.0f} s")

    def stop(self) -> None:
        """A clean stop: mosquitto saves its database, then exits."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None

    def last_log_line(self) -> str:
        lines = (
            self.log_file.read_text(errors="replace").splitlines() if self.log_file.exists() else []
        )
        return lines[-1] if lines else f"no log in {self.log_file}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def make_broker(
    mosquitto: Path, mosquitto_passwd: Path, folder: Path, tables: int, port: int = 0
) -> DemoBroker:
    """Write the broker's configuration, ACL and password file into ``folder``.

    The passwords are random; ``mosquitto_passwd -U`` hashes all of them in one call. Run as
    root, mosquitto drops to its own user, so the folder is handed to that user.
    """
    broker = DemoBroker(mosquitto, folder, port or free_port())
    users = [HUB_USER, *(table_user(n) for n in range(1, tables + 1))]
    broker.passwords = {user: secrets.token_urlsafe(12) for user in users}
    password_file = folder / "passwords"
    password_file.write_text("".join(f"{u}:{p}\n" for u, p in broker.passwords.items()))
    password_file.chmod(0o600)
    hashed = subprocess.run(
        [str(mosquitto_passwd), "-U", str(password_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    if hashed.returncode != 0:
        reason = " ".join(hashed.stderr.split()) or f"exit {hashed.returncode}"
        raise DemoError(f"mosquitto_passwd failed: {reason}")
    (folder / "acl").write_text(acl_text())
    (folder / "data").mkdir()
    (folder / "mosquitto.conf").write_text(
        mosquitto_conf(
            port=broker.port,
            persistence_dir=folder / "data",
            password_file=password_file,
            acl_file=folder / "acl",
            log_file=broker.log_file,
        )
    )
    hand_to_mosquitto(folder)
    return broker


def hand_to_mosquitto(folder: Path) -> None:
    """As root, mosquitto runs as the user ``mosquitto``: that user must own its folder."""
    if os.geteuid() != 0:
        return
    try:
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, user.pw_uid, user.pw_gid)


@dataclass
class Started:
    """Something the demo started beside the broker: what it is, and how it stops."""

    what: str
    stop: Callable[[], None] = lambda: None
    #: Where a browser sees it (the hub's TV view), if anywhere.
    url: str | None = None


# -- the two places where the hub and the tables start ----------------------------------------


def start_hub(broker: DemoBroker, event: str, say: Say) -> Started:
    """Start the hub on ``broker`` as user ``hub``, for ``event``, with its TV view.

    Wiring point for ``firmware.hub`` (issue 27's hub): start it here with
    ``broker.url``, the user :data:`HUB_USER` and ``broker.passwords[HUB_USER]``, its store in
    ``broker.folder / "hub"``, and return its stop and the TV view's address.
    """
    return Started(say("sim_demo_would_start_hub", url=broker.url, user=HUB_USER, event=event))


def start_tables(broker: DemoBroker, event: str, tables: int, say: Say) -> Started:
    """Start ``tables`` simulated tables with computer players on ``broker``.

    Wiring point for ``sim.tournament_table`` (issue 27's simulated table): start them here,
    table N as broker user ``table_user(N)`` with ``broker.passwords[table_user(N)]``, their
    outboxes in ``broker.folder / "tables"``, and return their stop.
    """
    users = f"{table_user(1)} … {table_user(tables)}" if tables > 1 else table_user(1)
    return Started(say("sim_demo_would_start_tables", count=tables, users=users, event=event))


# -- the command ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m sim.tournament_demo",
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


def run(args: argparse.Namespace, say: Say, stop: threading.Event) -> None:
    """The demo itself; raises :class:`DemoError` with one line for what stops it."""
    tables = whole_number(args.tables, "--tables", 1, MAX_TABLES)
    port = whole_number(args.port, "--port", 0, 65535)
    seconds = None if args.seconds is None else whole_number(args.seconds, "--seconds", 0, 86400)
    try:
        event = check_level(args.event, "--event")
    except WireError as error:
        raise DemoError(str(error)) from None
    mosquitto, passwd = Path(args.mosquitto), Path(args.mosquitto_passwd)
    for tool in (mosquitto, passwd):
        if not os.access(tool, os.X_OK):
            raise DemoError(say("sim_demo_no_mosquitto", path=tool))
    folder = Path(tempfile.mkdtemp(prefix="schock-demo-"))
    started: list[Started] = []
    try:
        broker = make_broker(mosquitto, passwd, folder, tables, port)
        broker.start()
        print(say("sim_demo_broker", url=broker.url, folder=folder, tables=tables), flush=True)
        started.append(start_hub(broker, event, say))
        started.append(start_tables(broker, event, tables, say))
        for each in started:
            print(each.what, flush=True)
        tv = next((each.url for each in started if each.url), None)
        print(say("sim_demo_tv", url=tv) if tv else say("sim_demo_no_tv"), flush=True)
        print(say("sim_demo_running"), flush=True)
        stop.wait(seconds)
        if not broker.running:
            raise DemoError(say("sim_demo_broker_died", line=broker.last_log_line()))
    finally:
        for each in reversed(started):
            each.stop()
        if "broker" in locals():
            broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(say("sim_demo_stopped"), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; 0 at the end, 2 with one line on stderr when it cannot run."""
    try:
        args = parse_args(argv)
        say = Catalogue(output_language(args)).t
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
