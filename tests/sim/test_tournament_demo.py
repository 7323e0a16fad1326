"""`make tournament-demo` (sim/tournament/demo.py): its private broker in Debian's real mosquitto,
the lines it prints, that every way out stops the broker and removes its folder (`make test`: a
SIGTERM; slow: Ctrl-C and the end of ``--seconds``, in English), and (slow) that its run plays
the tournament to a winner the TV shows."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.wire.broker import HUB_USER, WATCH_USER
from firmware.wire.messages import ack_topic, table_user
from hal.mqtt import MqttLink, MqttSettings
from sim.tournament.demo import MOSQUITTO, MOSQUITTO_PASSWD, DemoBroker, main, make_broker
from tests.broker import mosquitto_missing

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(mosquitto_missing() is not None, reason=str(mosquitto_missing()))


@pytest.fixture(scope="module")
def demo_broker() -> Iterator[DemoBroker]:
    """One broker for the tests that only log in to it and read its files."""
    # Right under the system's temp folder: run as root, mosquitto runs as its own user.
    folder = Path(tempfile.mkdtemp(prefix="schock-demo-test-"))
    broker = make_broker(MOSQUITTO, MOSQUITTO_PASSWD, folder, tables=3)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def test_the_tables_and_the_hub_log_in_with_their_passwords(demo_broker: DemoBroker) -> None:
    assert set(demo_broker.passwords) == {HUB_USER, WATCH_USER, "table-1", "table-2", "table-3"}
    inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    table = MqttLink(
        MqttSettings(url=demo_broker.url, client_id="t1", username=table_user(1),
                     password=demo_broker.passwords[table_user(1)]),
        on_message=lambda topic, payload: inbox.put((topic, payload)),
    )  # fmt: skip
    table.subscribe(ack_topic("demo", table_user(1)))
    hub = MqttLink(
        MqttSettings(url=demo_broker.url, client_id="hub", username=HUB_USER,
                     password=demo_broker.passwords[HUB_USER]),
        on_message=lambda topic, payload: None,
    )  # fmt: skip
    try:
        table.start()
        hub.start()
        assert table.wait_connected(5) and hub.wait_connected(5)
        # The demo's ACL is the tournament's: the hub's ack reaches its table.
        for _ in range(40):
            hub.publish(ack_topic("demo", table_user(1)), b"{}")
            try:
                assert inbox.get(timeout=0.25)[0] == ack_topic("demo", table_user(1))
                break
            except queue.Empty:
                continue
        else:
            pytest.fail("the hub's ack never reached table-1")
    finally:
        table.stop()
        hub.stop()


def test_no_password_is_kept_in_the_clear(demo_broker: DemoBroker) -> None:
    stored = (demo_broker.folder / "passwords").read_text()
    assert len(stored.splitlines()) == len(demo_broker.passwords) == 5
    for user, password in demo_broker.passwords.items():
        assert password not in stored
        assert re.search(rf"^{user}:\$7\$", stored, re.MULTILINE), "mosquitto's PBKDF2 hash"


@pytest.mark.slow  # make test: the lines and the clean-up of the run stopped with SIGTERM below
def test_a_short_run_prints_what_it_starts_and_cleans_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--seconds", "0", "--tables", "2", "--event", "dm2026", "--lang", "en"]) == 0

    out = capsys.readouterr().out.splitlines()
    broker = re.fullmatch(
        r"Broker: mqtt://127\.0\.0\.1:(\d+) \(this machine only; folder (\S+)\); tables: 2", out[0]
    )
    assert broker, out
    assert out[1].startswith("Hub: ") and "dm2026" in out[1]
    assert out[2].startswith("Tables: ") and "table-1 … table-2" in out[2]
    assert out[-1] == "Stopped: the broker is down and its folder removed."
    assert not Path(broker.group(2)).exists()
    assert not listening(int(broker.group(1)))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--mosquitto", "/no/mosquitto"], "mosquitto fehlt (/no/mosquitto): sudo apt-get install"),
        (["--tables", "0"], "--tables 0: allowed are 1 to 200"),
        (["--tables", "zwei"], "--tables 'zwei': must be a whole number 1 to 200"),
        (["--event", "DM/2026"], "--event 'DM/2026' must be 1-32 lower-case letters"),
        (["--seconds", "-1"], "--seconds '-1': must be a whole number"),
    ],
)  # fmt: skip
def test_what_stops_it_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2

    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"tournament-demo: {message}")


@pytest.mark.parametrize(
    ("sig", "tables"),
    # Ctrl-C in the slow selection: its way out is the one of every other end of the run
    # (test_a_short_run_prints_what_it_starts_and_cleans_up), SIGTERM's is its own handler.
    [pytest.param(signal.SIGINT, 1, marks=pytest.mark.slow), (signal.SIGTERM, 2)],
    ids=["ctrl-c", "sigterm"],
)
def test_ctrl_c_and_sigterm_stop_the_broker_and_remove_its_folder(
    sig: signal.Signals, tables: int
) -> None:
    """Stopped by a signal, in German by default (the environment's ``LANG`` names no
    language): what it started, each line (one table named alone, two as a range), then the
    broker stopped and its folder removed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.tournament.demo", "--tables", str(tables), "--event",
         "dm2026"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    lines = []
    try:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Läuft; Strg+C beendet."):
                break
        process.send_signal(sig)
        rest, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    broker = re.fullmatch(
        r"Broker: mqtt://127\.0\.0\.1:(\d+) \(nur dieser Rechner; Ordner (\S+)\); Tische: "
        rf"{tables}",
        lines[0],
    )
    assert broker, lines
    assert lines[1].startswith("Hub: ") and "dm2026" in lines[1]
    named = "(table-1 … table-2)" if tables == 2 else "(table-1)"  # one table is named alone
    assert lines[2].startswith(f"Tische: {tables} simuliert") and named in lines[2], lines
    assert process.returncode == 0, err
    assert err == ""
    assert rest.splitlines()[-1] == "Beendet: Broker gestoppt, sein Ordner gelöscht."
    assert not Path(broker.group(2)).exists()
    assert not listening(int(broker.group(1)))


@pytest.mark.slow
def test_the_default_run_plays_to_its_winner_and_the_tv_shows_the_tournament_over() -> None:
    """The demo's own run, unpaced and on two tables: the points rounds, the KO rounds, the
    final, then the winner printed, while the TV's page says the tournament is over."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.tournament.demo", "--tables", "2", "--pace", "0",
         "--listen", "127.0.0.1:0", "--lang", "en", "--seconds", "900"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    lines: list[str] = []
    try:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(("Winner: ", "tournament-demo: ")):
                break
        tv = next(line.split()[-1] for line in lines if line.startswith("TV view: "))
        with urllib.request.urlopen(tv, timeout=10) as page:
            html = page.read().decode()
        process.send_signal(signal.SIGTERM)
        rest, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert lines[-1].startswith("Winner: "), lines
    over = next(line for line in lines if line.startswith("Tournament over: "))
    assert "0 lost, 0 in no journal; standings as recounted: yes" in over
    rounds = int(re.search(r"over: (\d+) rounds", over).group(1))  # type: ignore[union-attr]
    assert rounds > 3  # two points rounds, KO rounds and the final: more than the old three
    assert '"over":true' in html.replace(" ", "")
    winner = lines[-1].removeprefix("Winner: ").split(" (")[0]
    assert winner in html
    assert process.returncode == 0, err
    assert rest.splitlines()[-1] == "Stopped: the broker is down and its folder removed."
