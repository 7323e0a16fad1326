"""deploy/schockbesteck.service: contents, `systemd-analyze verify` and the security score."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import INSTALL_SH, UNIT_FILE

# The exposure level measured when the unit was written (docs/deploy.md); a change that loosens
# the sandbox noticeably fails here instead of slipping through.
MAX_EXPOSURE = 2.0


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


def values(key: str, section: str = "Service") -> list[str]:
    return [v for s, k, v in ENTRIES if s == section and k == key]


def single(key: str, section: str = "Service") -> str:
    found = values(key, section)
    assert len(found) == 1, f"{key}: {found}"
    return found[0]


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
        ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"),
        ("CapabilityBoundingSet", ""),
    ],
)
def test_hardening_option(key: str, value: str) -> None:
    assert single(key) == value


def test_system_call_filter_starts_from_system_service() -> None:
    filters = values("SystemCallFilter")
    assert filters[0] == "@system-service"
    assert all(f.startswith("~") for f in filters[1:])


def test_logs_go_to_the_journal() -> None:
    # Neither stdout nor stderr is redirected away from the journal.
    assert values("StandardOutput") in ([], ["journal"])
    assert values("StandardError") in ([], ["journal"], ["inherit"])


systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


@systemd_analyze
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify insists that ExecStart's binary exists; the venv is not built here, so check a copy
    # whose ExecStart points at a binary that does (same arguments, same everything else).
    copy = tmp_path / "schockbesteck.service"
    copy.write_text(
        UNIT_FILE.read_text().replace(
            "/opt/schockbesteck/venv/bin/schocken", shutil.which("true") or "/bin/true"
        )
    )

    proc = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, check=False
    )

    problems = [
        line for line in (proc.stdout + proc.stderr).splitlines() if "schockbesteck" in line
    ]
    assert proc.returncode == 0 and problems == [], proc.stdout + proc.stderr


@systemd_analyze
def test_systemd_analyze_verify_original_only_misses_the_venv() -> None:
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(UNIT_FILE)], capture_output=True, text=True, check=False
    )

    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    unexpected = [line for line in lines if "/opt/schockbesteck/venv/bin/schocken" not in line]
    assert unexpected == [], "\n".join(lines)


@systemd_analyze
def test_security_exposure_level() -> None:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT_FILE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if "--offline" in proc.stderr and "unrecognized" in proc.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")

    match = re.search(r"Overall exposure level for schockbesteck\.service: ([0-9.]+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE
