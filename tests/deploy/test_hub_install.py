"""deploy/install.sh --hub, run with --root into a temporary folder (system commands only printed),
and the broker it writes, started in Debian's real mosquitto."""

from __future__ import annotations

import os
import pwd
import queue
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware.hub.brokerlog import Denial, denials_in
from firmware.wire.broker import acl_text, mosquitto_conf
from sim.tournament import processes
from tests.broker import MOSQUITTO, free_port, mosquitto_missing

from .conftest import INSTALL_SH, REPO, Installed, Result, copy_into, run_install, snapshot

HUB_UNIT = Path("etc/systemd/system/schocken-hub.service")
STORE = Path("var/lib/schocken-hub")
SECRETS = Path("etc/schockbesteck/hub")
TABLES = SECRETS / "tables.toml"
HUB_PASSWORD = SECRETS / "mqtt-password"
DESK_PASSWORD = SECRETS / "desk-password"
CONF = Path("etc/mosquitto/conf.d/schocken.conf")
ACL = Path("etc/mosquitto/schocken.acl")
PASSWD = Path("etc/mosquitto/schocken.passwd")

needs_mosquitto = pytest.mark.skipif(
    mosquitto_missing() is not None, reason=str(mosquitto_missing())
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def hub_target(tmp_path: Path) -> Path:
    """A plain Debian 12 root (no Raspberry Pi OS): a hub may be any Debian-family machine."""
    return debian_root(tmp_path / "root")


def debian_root(root: Path) -> Path:
    """``root`` made a plain Debian 12 root, as :func:`hub_target`."""
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n'
    )
    return root


def hub(root: Path, *args: str) -> Result:
    return run_install("--root", str(root), "--no-pip", "--python", sys.executable, "--hub", *args)



#: The shared hub's arguments: three tables of the event dm2026, reached at 10.0.0.2.
HUB_ARGS = ("--tables", "3", "--event", "dm2026", "--address", "10.0.0.2")


@pytest.fixture(scope="module")
def fresh_hub(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """One fresh hub install (:data:`HUB_ARGS`) made once per module and read by every test that
    starts from it; a test that changes it works on a copy (:func:`copy_into`)."""
    if mosquitto_missing() is not None:
        pytest.skip(str(mosquitto_missing()))
    root = debian_root(tmp_path_factory.mktemp("hub") / "root")
    result = hub(root, *HUB_ARGS)
    assert result.returncode == 0, result.stderr
    return Installed(root, result)



def passwords(root: Path) -> dict[str, str]:
    data = tomllib.loads((root / TABLES).read_text())
    return {user: entry["password"] for user, entry in data.items() if isinstance(entry, dict)}


def printed_blocks(result: Result) -> list[dict[str, object]]:
    """Each table's [tournament] block as printed for its card, read as TOML."""
    text = result.stdout.split("==> Table cards\n", 1)[1]
    blocks = re.split(r"^    # Tisch \d+ .*$", text, flags=re.MULTILINE)[1:]
    return [
        tomllib.loads("\n".join(line[4:] for line in block.splitlines() if line[:4] == "    "))[
            "tournament"
        ]
        for block in blocks
    ]


@needs_mosquitto
def test_a_fresh_hub_install(fresh_hub: Installed) -> None:
    result, hub_target = fresh_hub.result, fresh_hub.root

    assert result.returncode == 0, result.stderr
    assert (hub_target / HUB_UNIT).read_bytes() == (
        REPO / "deploy/schocken-hub.service"
    ).read_bytes()
    assert (hub_target / ACL).read_text() == acl_text()
    assert (hub_target / CONF).read_text() == mosquitto_conf(
        port=1883, persistence_dir=None, bind=None,
        password_file=Path("/") / PASSWD, acl_file=Path("/") / ACL, log_denials=True,
    )  # fmt: skip
    # The broker's log: Debian's file (mosquitto takes one "log_dest file"), at the levels the
    # hub counts denials from, its folder the hub's group's to read; the service reads it.
    conf = (hub_target / CONF).read_text()
    assert "log_dest" not in conf and "log_type debug\nlog_type subscribe\n" in conf
    assert mode(hub_target / "var/log/mosquitto") == 0o2750
    assert "--broker-log /var/log/mosquitto/mosquitto.log" in (hub_target / HUB_UNIT).read_text()
    # Secrets: root's alone; the broker's files for root and the group mosquitto.
    assert mode(hub_target / SECRETS) == 0o700
    assert mode(hub_target / TABLES) == mode(hub_target / HUB_PASSWORD) == 0o600
    # The director's desk's password: root's too (the service gets it as a credential), its
    # place said, itself never printed, and not the broker's.
    desk = (hub_target / DESK_PASSWORD).read_text().strip()
    assert mode(hub_target / DESK_PASSWORD) == 0o600 and len(desk) >= 24
    assert desk != (hub_target / HUB_PASSWORD).read_text().strip()
    assert desk not in result.stdout and desk not in result.stderr
    assert f"sudo cat /{DESK_PASSWORD}" in result.stdout
    assert mode(hub_target / ACL) == mode(hub_target / PASSWD) == 0o640
    assert mode(hub_target / CONF) == 0o644
    assert mode(hub_target / STORE) == 0o700
    assert tomllib.loads((hub_target / TABLES).read_text())["event"] == "dm2026"
    # One user per table and the hub, each hashed (none in the clear).
    stored = (hub_target / PASSWD).read_text()
    assert re.findall(r"^([^:]+):\$7\$", stored, re.MULTILINE) == [
        "hub", "table-1", "table-2", "table-3"
    ]  # fmt: skip
    for password in [*passwords(hub_target).values(), (hub_target / HUB_PASSWORD).read_text(),
                     desk]:  # fmt: skip
        assert password.strip() not in stored
    assert not list((hub_target / SECRETS).glob(".*")), "no password file left in the clear"


@needs_mosquitto
def test_each_table_gets_its_block_for_its_config(fresh_hub: Installed) -> None:
    result = fresh_hub.result

    known = passwords(fresh_hub.root)
    assert printed_blocks(result) == [
        {"broker": "mqtt://10.0.0.2:1883", "event": "dm2026", "table": n,
         "password": known[f"table-{n}"]}
        for n in (1, 2, 3)
    ]  # fmt: skip


@needs_mosquitto
def test_the_system_commands_it_prints(fresh_hub: Installed) -> None:
    commands = fresh_hub.result.target_commands

    apt = next(c for c in commands if c.startswith("apt-get install"))
    assert {"mosquitto", "python3-venv"} <= set(apt.split())
    assert "python3-lgpio" not in apt and "i2c-tools" not in apt  # no device on a hub
    assert "chgrp mosquitto /etc/mosquitto/schocken.passwd" in commands
    assert "chgrp mosquitto /etc/mosquitto/schocken.acl" in commands
    assert "install -d -o mosquitto -g schocken-hub -m 2750 /var/log/mosquitto" in commands
    assert commands[-3:] == [
        "systemctl restart mosquitto.service",
        "systemctl daemon-reload",
        "systemctl enable --now schocken-hub.service",
    ]
    assert not any(c.startswith(("raspi-config", "modprobe", "usermod")) for c in commands)
    useradd = next(c for c in commands if c.startswith("useradd"))
    assert "--system" in useradd and "--groups" not in useradd  # no device groups
    assert useradd.endswith(" schocken-hub")
    # The store is made by the hub itself, as its user, for the event.
    assert "chown schocken-hub:schocken-hub /var/lib/schocken-hub" in commands
    assert (
        "runuser -u schocken-hub -- /opt/schockbesteck/venv/bin/schocken hub init "
        "--event dm2026 --db /var/lib/schocken-hub/tournament.db"
    ) in commands


@needs_mosquitto
def test_a_second_run_changes_nothing_and_prints_no_password(
    hub_target: Path, fresh_hub: Installed
) -> None:
    first = copy_into(fresh_hub, hub_target)
    before = snapshot(hub_target)

    second = hub(hub_target)

    assert first.returncode == second.returncode == 0
    assert second.changes == []
    assert snapshot(hub_target) == before
    assert "Nothing to do" in second.stdout
    assert not any(p in second.stdout for p in passwords(hub_target).values())
    assert (hub_target / DESK_PASSWORD).read_text().strip() not in second.stdout
    assert "systemctl restart mosquitto.service" not in second.target_commands


@needs_mosquitto
@pytest.mark.slow  # two runs that hash passwords; make test: a second run keeps them all
def test_more_tables_keep_the_old_passwords_and_fewer_remove_users(
    hub_target: Path, fresh_hub: Installed
) -> None:
    copy_into(fresh_hub, hub_target)  # three tables
    old = passwords(hub_target)

    more = hub(hub_target, "--tables", "5")
    grown = passwords(hub_target)
    fewer = hub(hub_target, "--tables", "1")

    assert more.returncode == fewer.returncode == 0
    assert {u: grown[u] for u in old} == old
    assert [block["table"] for block in printed_blocks(more)] == [4, 5]  # only the new ones
    # A run without --event keeps the hub's event (dm2026) for the new tables' blocks.
    assert {block["event"] for block in printed_blocks(more)} == {"dm2026"}
    assert "systemctl restart mosquitto.service" in more.target_commands
    assert list(passwords(hub_target)) == ["table-1"]
    assert re.findall(r"^([^:]+):", (hub_target / PASSWD).read_text(), re.MULTILINE) == [
        "hub", "table-1"
    ]  # fmt: skip


def one_line_error(result: Result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hub", "--tables", "0"], "--tables '0': must be a whole number 1 to 999"),
        (["--hub", "--tables", "1000"], "--tables '1000': must be a whole number 1 to 999"),
        (["--hub", "--tables", "drei"], "--tables 'drei': must be a whole number"),
        (["--hub", "--tables"], "--tables needs an argument"),
        (["--hub", "--event", "DM 2026"], "--event 'DM 2026': 1-32 lower-case letters"),
        (["--hub", "--event", "dm/#"], "--event 'dm/#': 1-32 lower-case letters"),
        (["--hub", "--address", "a b"], "--address 'a b': a host name or an IP address"),
        (["--tables", "3"], "--tables, --event and --address go with --hub"),
        (["--hub", "--fast-i2c"], "--fast-i2c is for the game device, not with --hub"),
    ],
)
def test_usage_errors(hub_target: Path, args: list[str], message: str) -> None:
    result = run_install("--root", str(hub_target), "--no-pip", *args)

    assert result.returncode == 2
    assert message in one_line_error(result)
    assert not (hub_target / "etc/schockbesteck").exists()


@needs_mosquitto
def test_another_event_is_refused(hub_target: Path, fresh_hub: Installed) -> None:
    """(That a run without --event keeps the hub's: more tables, above.)"""
    copy_into(fresh_hub, hub_target)  # three tables of dm2026

    other = hub(hub_target, "--event", "cup27")

    assert other.returncode == 2
    assert "this hub is set up for 'dm2026'" in one_line_error(other)
    assert list(passwords(hub_target)) == ["table-1", "table-2", "table-3"]


def test_the_first_install_needs_the_number_of_tables(hub_target: Path) -> None:
    result = hub(hub_target)

    assert result.returncode == 2
    assert "--hub needs --tables N the first time" in one_line_error(result)


def test_a_system_without_apt_is_refused_unless_forced(hub_target: Path) -> None:
    (hub_target / "etc/os-release").write_text('ID=fedora\nID_LIKE="rhel centos"\n')

    result = hub(hub_target, "--tables", "2")

    assert result.returncode == 4
    assert "the hub needs a Debian-family system" in one_line_error(result)


def test_the_debian_family_is_told_by_its_id_or_its_likes(tmp_path: Path) -> None:
    """install.sh's own rule for each os-release, in one sourced shell; a whole dry run of a
    derivative below (both in the slow selection)."""
    releases = {
        "ID=debian\n": "yes", "ID=raspbian\n": "yes", "ID=ubuntu\n": "yes",
        'ID=linuxmint\nID_LIKE="ubuntu debian"\n': "yes",
        'ID=fedora\nID_LIKE="rhel centos"\n': "no", 'ID=debianish\nID_LIKE="debian-like"\n': "no",
    }  # fmt: skip
    roots = []
    for number, text in enumerate(releases):
        root = tmp_path / str(number)
        (root / "etc").mkdir(parents=True)
        (root / "etc/os-release").write_text(text)
        roots.append(str(root))
    prelude = f"source <(sed -e '/^main \"\\$@\"$/d' -e 's|^REPO=.*|REPO={REPO}|' {INSTALL_SH}); "
    script = 'for ROOT in "$@"; do if is_debian_family; then echo yes; else echo no; fi; done'
    proc = subprocess.run(
        ["bash", "-c", prelude + script, "bash", *roots], capture_output=True, text=True,
        check=False,
    )  # fmt: skip

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == list(releases.values())


@pytest.mark.parametrize(
    "os_release",
    [
        pytest.param("ID=ubuntu\n", marks=pytest.mark.slow),  # its ID alone: the rule above
        # its ID_LIKE: make test's dry run below runs on it
        pytest.param('ID=linuxmint\nID_LIKE="ubuntu debian"\n', marks=pytest.mark.slow),
    ],
)
def test_debian_family_systems_need_no_force(hub_target: Path, os_release: str) -> None:
    (hub_target / "etc/os-release").write_text(os_release)

    result = hub(hub_target, "--tables", "1", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_dry_run_writes_nothing(hub_target: Path) -> None:
    """On a Debian derivative known by its ID_LIKE alone: it needs no --force either."""
    (hub_target / "etc/os-release").write_text('ID=linuxmint\nID_LIKE="ubuntu debian"\n')
    before = snapshot(hub_target)

    result = hub(hub_target, "--tables", "3", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert snapshot(hub_target) == before
    assert "would: install /etc/mosquitto/conf.d/schocken.conf" in result.stdout
    assert "would: write /etc/mosquitto/schocken.passwd" in result.stdout


@needs_mosquitto
@pytest.mark.slow  # three runs; make test: the hub's uninstall in the venv's test below
def test_uninstall_keeps_the_passwords_and_purge_removes_them(
    hub_target: Path, fresh_hub: Installed
) -> None:
    copy_into(fresh_hub, hub_target)  # three tables
    kept = passwords(hub_target)

    removed = hub(hub_target, "--uninstall")

    assert removed.returncode == 0, removed.stderr
    for path in (HUB_UNIT, CONF, ACL, PASSWD, Path("opt/schockbesteck")):
        assert not (hub_target / path).exists(), path
    assert passwords(hub_target) == kept and (hub_target / STORE).exists()
    assert removed.target_commands == [
        "systemctl disable --now schocken-hub.service",
        "systemctl daemon-reload",
        "install -d -o mosquitto -g root -m 0740 /var/log/mosquitto",
        "systemctl restart mosquitto.service",
    ]
    assert "the tournament's store /var/lib/schocken-hub (remove with --purge)" in removed.stdout
    again = hub(hub_target, "--tables", "3")
    assert passwords(hub_target) == kept, "a new install finds the old tables' passwords"

    purged = hub(hub_target, "--purge")

    assert purged.returncode == 0, purged.stderr
    assert not (hub_target / SECRETS).exists() and not (hub_target / STORE).exists()
    assert again.returncode == 0


@needs_mosquitto
def test_the_game_devices_venv_stays_when_the_hub_goes(
    hub_target: Path, fresh_hub: Installed
) -> None:
    copy_into(fresh_hub, hub_target)
    device_unit = hub_target / "etc/systemd/system/schockbesteck.service"
    device_unit.write_text("[Service]\n")

    result = hub(hub_target, "--uninstall")

    assert (hub_target / "opt/schockbesteck/venv").exists()
    assert "the game device's service uses it too" in result.stdout


# --- the installed broker in Debian's real mosquitto -------------------------------------------


@pytest.fixture
def running_hub_broker(fresh_hub: Installed) -> Iterator[tuple[int, Path, Path]]:
    """The files install.sh --hub wrote, under Debian's own mosquitto.conf layout in a folder of
    the test's, on a free loopback port: only the paths and the listener are moved."""
    hub_target = fresh_hub.root  # read only: its broker's files are copied
    folder = Path(tempfile.mkdtemp(prefix="schock-hub-install-"))
    port = free_port()
    etc = folder / "etc"
    shutil.copytree(hub_target / "etc/mosquitto", etc)
    conf = (etc / "conf.d/schocken.conf").read_text()
    assert "\nlistener 1883\n" in conf
    (etc / "conf.d/schocken.conf").write_text(
        conf.replace("/etc/mosquitto/", f"{etc}/").replace(
            "\nlistener 1883\n", f"\nlistener {port} 127.0.0.1\n"
        )
    )
    (folder / "data").mkdir()
    (folder / "log").mkdir()  # as /var/log/mosquitto: the broker's own folder
    log = folder / "log" / "mosquitto.log"
    (folder / "mosquitto.conf").write_text(
        f"persistence true\npersistence_location {folder}/data/\n"
        f"log_dest file {log}\ninclude_dir {etc}/conf.d\n"
    )
    if os.geteuid() == 0:  # what the printed "chgrp mosquitto" does on the target
        user = pwd.getpwnam("mosquitto")
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, 0, user.pw_gid)
        os.chown(folder / "data", user.pw_uid, user.pw_gid)
        os.chown(folder / "log", user.pw_uid, user.pw_gid)
        os.chmod(folder, 0o750)
    process = subprocess.Popen([MOSQUITTO, "-c", str(folder / "mosquitto.conf")])
    try:
        started = processes.await_port(process, port, 10)
        assert started is not processes.Started.EXITED, "the installed broker did not start"
        assert started is processes.Started.LISTENING, "the installed broker does not listen"
        yield port, hub_target, log
    finally:
        processes.stop(process)
        shutil.rmtree(folder, ignore_errors=True)


def login(port: int, user: str, password: str) -> ReasonCode:
    answer: queue.Queue[ReasonCode] = queue.Queue()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=paho.MQTTv5)
    client.username_pw_set(user, password)
    client.on_connect = lambda _c, _u, _f, reason, _p: answer.put(reason)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        return answer.get(timeout=10)
    finally:
        client.disconnect()
        client.loop_stop()


@needs_mosquitto
def test_the_installed_broker_lets_in_each_table_and_the_hub_with_their_passwords(
    running_hub_broker: tuple[int, Path, Path],
) -> None:
    port, root, log = running_hub_broker

    for user, password in passwords(root).items():
        assert not login(port, user, password).is_failure, user
    assert not login(port, "hub", (root / HUB_PASSWORD).read_text().strip()).is_failure
    assert login(port, "table-1", passwords(root)["table-2"]).is_failure
    assert login(port, "table-4", "").is_failure

    # A table writing on another's topic: the installed broker drops it and says so in the log
    # that the hub reads (here the test's stand-in for Debian's /var/log/mosquitto/mosquitto.log).
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="table-1", protocol=paho.MQTTv5)
    client.username_pw_set("table-1", passwords(root)["table-1"])
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        client.publish("schock/dm2026/table/table-2/result", b"{}", qos=1).wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()
    denied = Denial("table-1", "publish", "schock/dm2026/table/table-2/result")
    deadline = time.monotonic() + 10
    while denied not in denials_in(log.read_text().splitlines()):
        assert time.monotonic() < deadline, "the broker's log names no denied publish"
        time.sleep(0.05)


def test_help_names_the_hub_and_its_flags() -> None:
    result = run_install("--help")

    assert result.returncode == 0
    for flag in ("--hub", "--tables N", "--event SLUG", "--address HOST", "tables.toml"):
        assert flag in result.stdout


@pytest.mark.parametrize(
    ("section", "network"),
    [
        # make test: tests/deploy/test_install.py's CONFIG_QUERY opens the network for a
        # [tournament] broker and keeps it closed for one switched off, and a whole install
        # writes the drop-in for another reason (test_a_config_that_needs_the_network_opens_it)
        pytest.param(
            '[tournament]\nbroker = "mqtt://10.0.0.2:1883"\n', True, marks=pytest.mark.slow
        ),
        pytest.param("[tournament]\nenabled = false\n", False, marks=pytest.mark.slow),
    ],
)
def test_a_table_of_a_tournament_gets_the_network(
    tmp_path: Path, section: str, network: bool
) -> None:
    """The game device as a table reaches the hub's broker: the network drop-in comes with it."""
    root = tmp_path / "pi"
    (root / "etc/schockbesteck").mkdir(parents=True)
    (root / "etc/os-release").write_text("ID=raspbian\n")
    (root / "etc/schockbesteck/config.toml").write_text(section)

    result = run_install("--root", str(root), "--no-pip", "--python", sys.executable)

    assert result.returncode == 0, result.stderr
    dropin = root / "etc/systemd/system/schockbesteck.service.d/network.conf"
    assert dropin.exists() is network
