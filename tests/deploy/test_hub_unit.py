"""deploy/schocken-hub.service: contents, `systemd-analyze verify` and the security score, measured
against the device's own unit with its network drop-in (the hub cannot do without a network)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .conftest import UNIT_FILE
from .test_unit import exposure, install_sh_constant, installed_root, single, unit_entries, values

HUB_UNIT_FILE = UNIT_FILE.parent / "schocken-hub.service"
HUB = unit_entries(HUB_UNIT_FILE.read_text())


def test_runs_the_hub_from_the_venv_with_its_password_as_a_credential() -> None:
    venv = install_sh_constant("VENV_DIR")
    secret = install_sh_constant("HUB_PASSWORD")

    exec_start = single("ExecStart", entries=HUB).split()

    def option(name: str) -> str:
        return exec_start[exec_start.index(name) + 1]

    assert exec_start[:3] == [f"{venv}/bin/schocken", "hub", "serve"]
    assert option("--db") == install_sh_constant("HUB_DB")
    assert option("--broker") == f"mqtt://127.0.0.1:{install_sh_constant('BROKER_PORT')}"
    assert option("--listen") == "0.0.0.0:8080"
    # The passwords reach the hub through systemd's credentials, never on its command line:
    # the broker's and the director's desk's.
    assert option("--password-file") == "%d/mqtt-password"
    assert option("--desk-password-file") == "%d/desk-password"
    assert values("LoadCredential", entries=HUB) == [
        f"mqtt-password:{secret}", f"desk-password:{install_sh_constant('HUB_DESK_PASSWORD')}"
    ]  # fmt: skip
    assert single("User", entries=HUB) == single("Group", entries=HUB)
    assert single("User", entries=HUB) == install_sh_constant("HUB_USER")


def test_state_directory_is_the_stores_home() -> None:
    assert single("StateDirectory", entries=HUB) == "schocken-hub"
    assert install_sh_constant("HUB_DB").startswith(install_sh_constant("HUB_STATE_DIR") + "/")
    assert single("WorkingDirectory", entries=HUB) == install_sh_constant("HUB_STATE_DIR")
    assert single("StateDirectoryMode", entries=HUB) == "0700"
    assert single("UMask", entries=HUB) == "0077"


def test_the_broker_is_wanted_not_required() -> None:
    # A broker restart (install.sh --hub changing its files, or a crash) must not stop the hub:
    # its client reconnects by itself.
    assert "mosquitto.service" in single("Wants", "Unit", HUB).split()
    assert "mosquitto.service" in single("After", "Unit", HUB).split()
    assert values("Requires", "Unit", HUB) == values("BindsTo", "Unit", HUB) == []
    assert single("Restart", entries=HUB) == "on-failure"
    assert single("RestartPreventExitStatus", entries=HUB) == "2"
    assert single("WantedBy", "Install", HUB) == "multi-user.target"


def test_no_devices_no_privileges_and_only_local_networks() -> None:
    for key in ("PrivateDevices", "PrivateUsers", "NoNewPrivileges"):
        assert single(key, entries=HUB) == "yes", key
    assert single("CapabilityBoundingSet", entries=HUB) == ""
    assert single("ProtectSystem", entries=HUB) == "strict"
    assert single("RestrictAddressFamilies", entries=HUB) == "AF_UNIX AF_INET AF_INET6"
    assert single("IPAddressDeny", entries=HUB) == "any"
    device_allowed = single("IPAddressAllow", entries=unit_entries(
        (UNIT_FILE.parent / "network.conf").read_text()
    ))  # fmt: skip
    # The same networks as the device's drop-in: this machine and local networks, no internet.
    assert single("IPAddressAllow", entries=HUB) == device_allowed
    assert values("SystemCallFilter", entries=HUB)[0] == "@system-service"


def test_systemd_analyze_verify(systemd_analyze: str, tmp_path: Path) -> None:
    copy = tmp_path / HUB_UNIT_FILE.name
    copy.write_text(
        HUB_UNIT_FILE.read_text().replace(
            "/opt/schockbesteck/venv/bin/schocken", shutil.which("true") or "/bin/true"
        )
    )

    proc = subprocess.run(
        [systemd_analyze, "verify", str(copy)], capture_output=True, text=True, check=False
    )

    problems = [line for line in (proc.stdout + proc.stderr).splitlines() if "hub" in line]
    assert proc.returncode == 0 and problems == [], proc.stdout + proc.stderr


def test_security_exposure_is_as_low_as_the_networked_device(
    systemd_analyze: str, tmp_path: Path
) -> None:
    device = exposure(
        systemd_analyze, installed_root(tmp_path / "device", network=True), "schockbesteck.service"
    )
    hub_root = tmp_path / "hub"
    (hub_root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(HUB_UNIT_FILE, hub_root / "etc/systemd/system" / HUB_UNIT_FILE.name)

    hub = exposure(systemd_analyze, hub_root, HUB_UNIT_FILE.name)

    # The hub needs the network (broker, TV, phones) but no device at all: it must score no
    # worse than the device does once its network drop-in is in (docs/tournament.md has both).
    assert hub <= device
