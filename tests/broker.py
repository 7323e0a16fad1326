"""A real mosquitto for tests: Debian's broker on a free loopback port, in a folder of the test's.

The configuration is the product's own (:mod:`firmware.wire.broker`): persistence saved
on every change, no anonymous users, the tournament's ACL. :meth:`Broker.kill` is a ``kill -9``;
:meth:`Broker.start` after it starts the same broker on the same port, with what it saved.

Run as root, mosquitto drops to the user ``mosquitto``: the folder is handed to that user so
that the broker can write its database and read its password file.
"""

from __future__ import annotations

import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware.wire.broker import HUB_USER, WATCH_USER, acl_text, mosquitto_conf
from firmware.wire.messages import table_user
from sim.tournament import processes
from sim.tournament.demo import hand_to_mosquitto, write_hashed
from sim.tournament.processes import free_port

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


def mosquitto_missing() -> str | None:
    """Why the broker cannot run here, or None."""
    if not Path(MOSQUITTO).exists() or not Path(MOSQUITTO_PASSWD).exists():
        return "Debian's mosquitto is not installed (apt-get install mosquitto; .ci/run does)"
    return None


def _accepts(port: int, user: str, password: str) -> bool:
    """Whether the broker on ``port`` accepts ``user`` now: one MQTT 3.1.1 CONNECT (clean
    session, so nothing stays behind) and its CONNACK, by hand."""

    def text(value: str) -> bytes:
        data = value.encode()
        return len(data).to_bytes(2, "big") + data

    body = (text("MQTT") + bytes([4, 0xC2]) + (30).to_bytes(2, "big")
            + text(f"probe-{secrets.token_hex(4)}") + text(user) + text(password))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
            assert len(body) < 128, "one byte of remaining length"
            connection.sendall(bytes([0x10, len(body)]) + body)
            answer = connection.recv(4)
            if len(answer) == 4 and answer[0] == 0x20 and answer[3] == 0:
                connection.sendall(bytes([0xE0, 0]))
                return True
    except OSError:
        pass
    return False


class Broker(processes.ChildProcess):
    """One mosquitto process, its users and its saved state in ``folder``."""

    def __init__(self, folder: Path, *, port: int | None = None) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.passwords: dict[str, str] = {}
        self.password_file = folder / "passwords"
        self.acl_file = folder / "acl"
        self.conf_file = folder / "mosquitto.conf"
        self.log_file = folder / "mosquitto.log"
        self.data = folder / "data"
        self.data.mkdir(exist_ok=True)
        self._add_users([HUB_USER, WATCH_USER])
        self.acl_file.write_text(acl_text())
        self.conf_file.write_text(
            mosquitto_conf(
                port=self.port,
                persistence_dir=self.data,
                password_file=self.password_file,
                acl_file=self.acl_file,
                log_file=self.log_file,
            )
        )

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def hub_credentials(self) -> tuple[str, str]:
        return HUB_USER, self.passwords[HUB_USER]

    def add_user(self, user: str, password: str | None = None) -> tuple[str, str]:
        """Make (or change) a broker user; mosquitto reads it at its next start or restart."""
        password = password or secrets.token_urlsafe(12)
        create = [] if self.password_file.exists() else ["-c"]
        subprocess.run(
            [MOSQUITTO_PASSWD, *create, "-b", str(self.password_file), user, password],
            check=True,
            capture_output=True,
        )
        self.passwords[user] = password
        self._hand_over()
        if self.running:
            self.reload()
            self._await_user(user, password)
        return user, password

    def _await_user(self, user: str, password: str, timeout_s: float = 10.0) -> None:
        """Wait until the reloaded broker takes ``user``'s password: SIGHUP returns at once,
        and a client that connects before mosquitto has reread its password file is refused
        (paho then waits its reconnect delay, seconds on a busy machine)."""
        deadline = time.monotonic() + timeout_s
        while not _accepts(self.port, user, password):
            if time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto did not take user {user} within {timeout_s} s")
            time.sleep(0.05)

    def add_table(self, number: int) -> tuple[str, str]:
        """A table's user: ``table-N`` with a fresh password."""
        return self.add_user(table_user(number))

    def add_tables(self, count: int) -> None:
        """Users ``table-1`` to ``table-COUNT`` at once: one pass of ``mosquitto_passwd -U``
        over the file and one reload, where :meth:`add_table` costs a pass and a reload each."""
        self._add_users([table_user(n) for n in range(1, count + 1)])

    def _add_users(self, users: list[str]) -> None:
        """Users with fresh passwords, in one pass over the file and one reload."""
        fresh = {user: secrets.token_urlsafe(12) for user in users}
        write_hashed(Path(MOSQUITTO_PASSWD), self.password_file, fresh)
        self.passwords.update(fresh)
        self._hand_over()
        if self.running:
            self.reload()
            self._await_user(users[-1], fresh[users[-1]])

    def start(self, timeout_s: float = 10.0) -> None:
        """Start mosquitto and wait until it takes connections."""
        if self.running:
            return
        self._hand_over()
        self._process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf_file)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started = processes.await_port(self._process, self.port, timeout_s)
        if started is processes.Started.EXITED:
            raise RuntimeError(f"mosquitto stopped at once; see {self.log_file}")
        if started is processes.Started.TIMED_OUT:
            raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout_s} s")

    def reload(self) -> None:
        """SIGHUP: mosquitto rereads its password file and ACL (it returns at once: the callers
        wait until the broker takes the user they added)."""
        if self._process is not None:
            self._process.send_signal(signal.SIGHUP)

    def _hand_over(self) -> None:
        """As root, mosquitto runs as its own user: give it the folder."""
        hand_to_mosquitto(self.folder)


@contextmanager
def running_broker() -> Iterator[Broker]:
    """A started :class:`Broker` in a fresh folder right under the system's temp folder (run as
    root, mosquitto runs as its own user, which cannot pass through pytest's private folders);
    stopped and its folder removed at the end. For a module fixture of tests that each log in
    with client ids and publish on topics of their own (the ``broker`` fixture is one a test)."""
    folder = Path(tempfile.mkdtemp(prefix="schock-broker-"))
    running = Broker(folder)
    running.start()
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)
