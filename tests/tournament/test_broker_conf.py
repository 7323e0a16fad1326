"""firmware/wire/broker.py's text, as Debian's mosquitto reads it: alone (the tests' and the
demo's broker) and as a conf.d file under Debian's own mosquitto.conf (the hub's install)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.wire.broker import HUB_USER, acl_text, mosquitto_conf
from sim.tournament import processes
from sim.tournament.demo import hand_to_mosquitto
from tests.broker import MOSQUITTO, MOSQUITTO_PASSWD, free_port, mosquitto_missing

#: Debian 12's /etc/mosquitto/mosquitto.conf, with its folders moved into the test's.
DEBIAN_MAIN_CONF = """\
pid_file {folder}/mosquitto.pid
persistence true
persistence_location {folder}/data/
log_dest file {folder}/mosquitto.log
include_dir {folder}/conf.d
"""


@pytest.fixture
def folder() -> Iterator[Path]:
    if missing := mosquitto_missing():
        pytest.skip(missing)
    # Right under the system's temp folder: run as root, mosquitto runs as its own user.
    made = Path(tempfile.mkdtemp(prefix="schock-conf-"))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def wait_for_port(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    started = processes.await_port(process, port, 10)
    if started is processes.Started.EXITED:
        text = log.read_text() if log.exists() else ""
        pytest.fail(f"mosquitto stopped at once: {process.stderr and process.stderr.read()!r}"
                    f" {text}")  # fmt: skip
    if started is processes.Started.TIMED_OUT:
        pytest.fail(f"mosquitto did not listen on {port}")


def test_the_text_as_a_conf_d_file_under_debians_mosquitto_conf(folder: Path) -> None:
    (folder / "conf.d").mkdir()
    (folder / "data").mkdir()
    passwords, acl = folder / "passwords", folder / "acl"
    subprocess.run([MOSQUITTO_PASSWD, "-c", "-b", str(passwords), HUB_USER, "pw"], check=True)
    acl.write_text(acl_text())
    port = free_port()
    # persistence_dir None: Debian's file names the folder, and a second value is an error.
    text = mosquitto_conf(port=port, persistence_dir=None, password_file=passwords, acl_file=acl)
    assert "persistence_location" not in text and "max_queued_messages 100000" in text
    (folder / "conf.d" / "schocken.conf").write_text(text)
    main = folder / "mosquitto.conf"
    main.write_text(DEBIAN_MAIN_CONF.format(folder=folder))
    hand_to_mosquitto(folder)

    process = subprocess.Popen([MOSQUITTO, "-c", str(main)], stderr=subprocess.PIPE)
    try:
        wait_for_port(process, port, folder / "mosquitto.log")
    finally:
        process.terminate()
        process.wait(timeout=10)

    # A clean stop saves the database in Debian's folder, the one its package owns.
    assert (folder / "data" / "mosquitto.db").exists()


def test_listening_on_every_address_leaves_the_address_out() -> None:
    text = mosquitto_conf(
        port=1883, persistence_dir=None, password_file=Path("/p"), acl_file=Path("/a"), bind=None
    )
    assert "listener 1883\n" in text
