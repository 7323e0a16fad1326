"""deploy/schockbesteck.service: contents, `systemd-analyze verify` and the security score."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import INSTALL_SH, UNIT_FILE

# The exposure level the unit must keep, with the watchdog on and with the network drop-in
# (docs/deploy.md); a change that loosens the sandbox fails here instead of slipping through.
MAX_EXPOSURE = 1.5

ERROR_UNIT_FILE = UNIT_FILE.parent / "schockbesteck-error.service"
NETWORK_DROPIN = UNIT_FILE.parent / "network.conf"


def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment; systemd allows a key more than once."""
    entries = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.append((section, key.strip(), value.strip()))
    return entries


ENTRIES = unit_entries(UNIT_FILE.read_text())


def values(
    key: str, section: str = "Service", entries: list[tuple[str, str, str]] = ENTRIES
) -> list[str]:
    return [v for s, k, v in entries if s == section and k == key]


def single(
    key: str, section: str = "Service", entries: list[tuple[str, str, str]] = ENTRIES
) -> str:
    found = values(key, section, entries)
    assert len(found) == 1, f"{key}: {found}"
    return found[0]


def seconds(value: str) -> float:
    """A systemd time span of the simple forms used here: "30", "30s", "2min"."""
    match = re.fullmatch(r"(\d+)(s|min)?", value)
    assert match, value
    return int(match.group(1)) * (60 if match.group(2) == "min" else 1)


def install_sh_constant(name: str) -> str:
    match = re.search(rf"^readonly {name}=(\S+)$", INSTALL_SH.read_text(), re.MULTILINE)
    assert match, name
    return match.group(1)


def test_runs_the_venv_entry_point_with_the_installed_config() -> None:
    venv = install_sh_constant("VENV_DIR")
    config = install_sh_constant("CONFIG")

    assert single("ExecStart") == f"{venv}/bin/schocken run --config {config}"
    assert single("User") == install_sh_constant("SERVICE_USER")


def test_restart_state_and_working_directory() -> None:
    assert single("Restart") == "on-failure"
    assert single("StateDirectory") == "schockbesteck"
    # lgpio writes its FIFOs into the working directory: it must be the writable state directory.
    assert single("WorkingDirectory") == "/var/lib/schockbesteck"
    assert install_sh_constant("STATE_DIR") == "/var/lib/schockbesteck"
    assert single("WantedBy", "Install") == "multi-user.target"


def test_hardening_keeps_gpio_i2c_and_serial_reachable() -> None:
    assert values("PrivateDevices") == []  # would hide /dev/gpiochip*, /dev/i2c-*, serial ports
    assert values("PrivateUsers") == []  # would unmap the gpio, i2c and dialout groups
    assert values("ProcSubset") == []  # would hide /proc/device-tree from gpiozero
    assert single("DevicePolicy") == "closed"
    allowed = {v.split()[0]: v.split()[1] for v in values("DeviceAllow")}
    assert allowed == {
        "char-gpiochip": "rw",
        "char-i2c": "rw",
        "char-ttyGS": "rw",
        "char-ttyAMA": "rw",
        "char-ttyS": "rw",
        "char-ttyUSB": "rw",
        "char-ttyACM": "rw",
    }


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectKernelModules", "yes"),
        ("ProtectControlGroups", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX"),
        ("PrivateNetwork", "yes"),
        ("IPAddressDeny", "any"),
        ("CapabilityBoundingSet", ""),
    ],
)
def test_hardening_option(key: str, value: str) -> None:
    assert single(key) == value


def test_no_network_without_the_drop_in() -> None:
    assert values("IPAddressAllow") == []


def test_network_drop_in_opens_only_inet_to_local_networks() -> None:
    entries = unit_entries(NETWORK_DROPIN.read_text())

    assert single("PrivateNetwork", entries=entries) == "no"
    assert single("RestrictAddressFamilies", entries=entries) == "AF_UNIX AF_INET AF_INET6"
    allowed = single("IPAddressAllow", entries=entries).split()
    assert "any" not in allowed and "0.0.0.0/0" not in allowed and "::/0" not in allowed
    assert values("IPAddressDeny", entries=entries) == []  # the unit's IPAddressDeny=any stays


def test_notify_and_watchdog() -> None:
    assert single("Type") == "notify"
    assert single("NotifyAccess") == "main"
    watchdog = seconds(single("WatchdogSec"))
    # hal.watchdog pings every WatchdogSec/2; a first odds table takes about 1 s on a Pi Zero 2 W.
    assert 10 <= watchdog <= 120


def test_the_file_limit_leaves_room_above_the_pages_connections() -> None:
    from hal.web_server import FD_RESERVE, MAX_CONNECTIONS, MAX_OPEN

    limit = int(single("LimitNOFILE"))
    assert MAX_CONNECTIONS < MAX_OPEN and limit / 2 >= MAX_OPEN + FD_RESERVE, "room to spare"


def test_a_crash_loop_ends_on_the_error_screen() -> None:
    burst = int(single("StartLimitBurst", "Unit"))
    interval = seconds(single("StartLimitIntervalSec", "Unit"))
    restart = seconds(single("RestartSec"))
    # A process that dies at once is started `burst` times well inside the interval, so the
    # limit is hit and the unit fails instead of restarting forever with a dark screen.
    assert burst * restart * 2 < interval
    assert single("OnFailure", "Unit") == "schockbesteck-error.service"
    assert single("RestartPreventExitStatus") == "2"  # a refused config fails at once
    error_entries = unit_entries(ERROR_UNIT_FILE.read_text())
    assert single("ExecStart", entries=error_entries) == (
        f"{install_sh_constant('VENV_DIR')}/bin/schocken run --error-screen "
        f"--config {install_sh_constant('CONFIG')}"
    )
    assert single("Type", entries=error_entries) == "oneshot"
    assert single("User", entries=error_entries) == install_sh_constant("SERVICE_USER")
    assert values("DeviceAllow", entries=error_entries) == ["char-i2c rw"]
    assert single("PrivateNetwork", entries=error_entries) == "yes"
    assert values("Install", "Install", error_entries) == []  # started by OnFailure= only


def test_starts_after_local_file_systems_and_i2c_not_the_network() -> None:
    after = single("After", "Unit").split()

    assert "systemd-modules-load.service" in after and "local-fs.target" in after
    assert not any(unit.startswith("network") for unit in after)


def test_system_call_filter_starts_from_system_service() -> None:
    filters = values("SystemCallFilter")
    assert filters[0] == "@system-service"
    assert all(f.startswith("~") for f in filters[1:])


def test_logs_go_to_the_journal() -> None:
    # Neither stdout nor stderr is redirected away from the journal.
    assert values("StandardOutput") in ([], ["journal"])
    assert values("StandardError") in ([], ["journal"], ["inherit"])


@pytest.mark.parametrize("unit", [UNIT_FILE, ERROR_UNIT_FILE], ids=lambda path: path.name)
def test_systemd_analyze_verify(systemd_analyze: str, tmp_path: Path, unit: Path) -> None:
    # verify insists that ExecStart's binary exists; the venv is not built here, so check copies
    # whose ExecStart points at a binary that does (same arguments, same everything else).
    for original in (UNIT_FILE, ERROR_UNIT_FILE):
        (tmp_path / original.name).write_text(
            original.read_text().replace(
                "/opt/schockbesteck/venv/bin/schocken", shutil.which("true") or "/bin/true"
            )
        )

    proc = subprocess.run(
        [systemd_analyze, "verify", str(tmp_path / unit.name)],
        capture_output=True,
        text=True,
        check=False,
    )

    problems = [
        line for line in (proc.stdout + proc.stderr).splitlines() if "schockbesteck" in line
    ]
    assert proc.returncode == 0 and problems == [], proc.stdout + proc.stderr


@pytest.mark.parametrize("unit", [UNIT_FILE, ERROR_UNIT_FILE], ids=lambda path: path.name)
def test_systemd_analyze_verify_original_only_misses_the_venv(
    systemd_analyze: str, unit: Path
) -> None:
    proc = subprocess.run(
        [systemd_analyze, "verify", str(unit)], capture_output=True, text=True, check=False
    )

    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    unexpected = [line for line in lines if "/opt/schockbesteck/venv/bin/schocken" not in line]
    assert unexpected == [], "\n".join(lines)


def exposure(systemd_analyze: str, root: Path, unit: str) -> float:
    """`systemd-analyze security --offline=true` of ``unit`` as installed under ``root``."""
    proc = subprocess.run(
        [systemd_analyze, "security", "--offline=true", "--no-pager", f"--root={root}", unit],
        capture_output=True,
        text=True,
        check=False,
    )
    if "--offline" in proc.stderr and "unrecognized" in proc.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")
    match = re.search(rf"Overall exposure level for {re.escape(unit)}: ([0-9.]+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1))


def installed_root(tmp_path: Path, *, network: bool) -> Path:
    units = tmp_path / "etc/systemd/system"
    units.mkdir(parents=True)
    for unit in (UNIT_FILE, ERROR_UNIT_FILE):
        shutil.copy(unit, units / unit.name)
    if network:
        (units / "schockbesteck.service.d").mkdir()
        shutil.copy(NETWORK_DROPIN, units / "schockbesteck.service.d" / "network.conf")
    return tmp_path


@pytest.mark.parametrize("network", [False, True], ids=["closed", "network-drop-in"])
def test_security_exposure_level(systemd_analyze: str, tmp_path: Path, network: bool) -> None:
    root = installed_root(tmp_path, network=network)
    closed_root = installed_root(tmp_path / "closed", network=False)
    closed = exposure(systemd_analyze, closed_root, "schockbesteck.service")

    level = exposure(systemd_analyze, root, "schockbesteck.service")

    assert single("WatchdogSec")  # measured with the watchdog on
    assert level <= MAX_EXPOSURE
    # The drop-in is really read: opening the network costs points, closing it saves them.
    assert (level > closed) is network


def test_error_unit_exposure_level(systemd_analyze: str, tmp_path: Path) -> None:
    root = installed_root(tmp_path, network=False)

    assert exposure(systemd_analyze, root, "schockbesteck-error.service") <= MAX_EXPOSURE
