"""deploy/install.sh, run with --root into a temporary directory (system commands only printed)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import (
    DEFAULT_CONFIG,
    INSTALL_SH,
    UNIT_FILE,
    Runner,
    run_install,
    snapshot,
)

CONFIG = Path("etc/schockbesteck/config.toml")
UNIT = Path("etc/systemd/system/schockbesteck.service")
VENV = Path("opt/schockbesteck/venv")
STATE = Path("var/lib/schockbesteck")
BOOT_CONFIG = Path("boot/firmware/config.txt")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- a fresh install -------------------------------------------------------------------------


def test_fresh_install_writes_config_unit_and_venv(install: Runner, target: Path) -> None:
    result = install()

    assert result.returncode == 0, result.stderr
    config = target / CONFIG
    assert config.read_bytes() == DEFAULT_CONFIG.read_bytes()
    assert mode(config) == 0o644
    assert config.stat().st_uid == os.geteuid()
    assert mode(config.parent) == 0o755
    unit = target / UNIT
    assert unit.read_bytes() == UNIT_FILE.read_bytes()
    assert mode(unit) == 0o644
    cfg = (target / VENV / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg
    assert (target / VENV / "bin" / "python").exists()
    assert any(line.startswith("Done: ") for line in result.stdout.splitlines())


def test_fresh_install_prints_the_system_commands(install: Runner) -> None:
    commands = install().target_commands

    assert "apt-get update" in commands
    apt = next(c for c in commands if c.startswith("apt-get install"))
    for package in ("python3-venv", "python3-lgpio", "i2c-tools"):
        assert package in apt.split()
    useradd = next(c for c in commands if c.startswith("useradd"))
    assert "--system" in useradd
    assert "--groups gpio,i2c,dialout" in useradd
    assert useradd.endswith(" schockbesteck")
    assert "modprobe i2c-dev" in commands  # no raspi-config in the root: done by hand
    assert commands[-2:] == [
        "systemctl daemon-reload",
        "systemctl enable --now schockbesteck.service",
    ]


def test_pip_step_is_skipped_and_shown(install: Runner, target: Path) -> None:
    result = install()

    assert "skipped (--no-pip" in result.stdout
    assert "-m pip install" in result.stdout
    assert not (target / "opt/schockbesteck/installed-source.sha256").exists()


def test_no_pip_environment_variable(target: Path) -> None:
    result = run_install(
        "--root", str(target), "--python", sys.executable, env={"SCHOCKBESTECK_NO_PIP": "1"}
    )

    assert result.returncode == 0, result.stderr
    assert "skipped (--no-pip / SCHOCKBESTECK_NO_PIP=1)" in result.stdout


def test_raspi_config_enables_i2c_when_present(install: Runner, target: Path) -> None:
    raspi_config = target / "usr/bin/raspi-config"
    raspi_config.parent.mkdir(parents=True)
    raspi_config.write_text("#!/bin/sh\nexit 0\n")
    raspi_config.chmod(0o755)
    before = (target / BOOT_CONFIG).read_text()

    result = install()

    assert "raspi-config nonint do_i2c 0" in result.target_commands
    assert "modprobe i2c-dev" not in result.target_commands
    assert (target / BOOT_CONFIG).read_text() == before  # raspi-config's job on the target


def test_i2c_enabled_by_hand_without_raspi_config(install: Runner, target: Path) -> None:
    install()

    text = (target / BOOT_CONFIG).read_text()
    assert "#dtparam=i2c_arm=on" not in text  # the commented default line was switched on
    assert text.count("\ndtparam=i2c_arm=on\n") == 1
    assert "i2c_arm_baudrate" not in text  # only with --fast-i2c
    assert (target / "etc/modules").read_text().splitlines() == ["i2c-dev"]


def test_legacy_boot_config_location(install: Runner, target: Path) -> None:
    (target / BOOT_CONFIG).unlink()
    (target / "boot/firmware").rmdir()
    legacy = target / "boot/config.txt"
    legacy.write_text("dtparam=audio=on\n")

    assert install("--fast-i2c").returncode == 0
    assert legacy.read_text() == (
        "dtparam=audio=on\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n"
    )


# --- --fast-i2c --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            "dtparam=audio=on\n[cm4]\notg_mode=1\n",
            "dtparam=audio=on\n[cm4]\notg_mode=1\n[all]\n"
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            id="appended-under-all",
        ),
        pytest.param(
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=100000\n",
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            id="replaced",
        ),
        pytest.param(
            "dtparam=i2c_arm=on,i2c_arm_baudrate=50000\n",
            "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n",
            id="combined-line",
        ),
        pytest.param(
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            id="already-set",
        ),
    ],
)
def test_fast_i2c_edits_the_boot_config_once(
    install: Runner, target: Path, before: str, after: str
) -> None:
    (target / BOOT_CONFIG).write_text(before)

    first = install("--fast-i2c")
    second = install("--fast-i2c")

    assert first.returncode == second.returncode == 0
    assert (target / BOOT_CONFIG).read_text() == after
    assert "dtparam=i2c_arm_baudrate=400000 (400 kHz) already set" in second.stdout
    assert "Reboot to apply" not in second.stdout


# --- idempotence -------------------------------------------------------------------------------


def test_second_run_changes_nothing_and_says_so(install: Runner, target: Path) -> None:
    first = install("--fast-i2c")
    before = snapshot(target)

    second = install("--fast-i2c")

    assert first.returncode == second.returncode == 0
    assert first.changes
    assert second.changes == []
    assert snapshot(target) == before
    assert "Nothing to do: Schockbesteck is already installed and up to date" in second.stdout


def test_existing_config_is_never_overwritten(install: Runner, target: Path) -> None:
    config = target / CONFIG
    config.parent.mkdir(parents=True)
    config.write_text('[game]\nplayers = ["Ute", "Jupp"]\n')
    config.chmod(0o640)

    result = install()

    assert result.returncode == 0, result.stderr
    assert config.read_text() == '[game]\nplayers = ["Ute", "Jupp"]\n'
    assert mode(config) == 0o640
    assert "exists and is kept" in result.stdout


def test_changed_unit_is_replaced_and_reloaded(install: Runner, target: Path) -> None:
    install()
    (target / UNIT).write_text("[Service]\nExecStart=/bin/false\n")

    result = install()

    assert (target / UNIT).read_bytes() == UNIT_FILE.read_bytes()
    assert "systemctl daemon-reload" in result.target_commands


def test_venv_without_system_site_packages_is_rebuilt(install: Runner, target: Path) -> None:
    install()
    cfg = target / VENV / "pyvenv.cfg"
    cfg.write_text(cfg.read_text().replace("= true", "= false"))

    result = install()

    assert "create venv /opt/schockbesteck/venv" in result.stdout
    assert "include-system-site-packages = true" in cfg.read_text()


def test_existing_user_in_all_groups_needs_no_commands(install: Runner, target: Path) -> None:
    (target / "etc/passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\n"
        "schockbesteck:x:996:996::/var/lib/schockbesteck:/usr/sbin/nologin\n"
    )
    (target / "etc/group").write_text(
        "root:x:0:\ndialout:x:20:pi,schockbesteck\ni2c:x:998:pi\ngpio:x:997:schockbesteck\n"
        "schockbesteck:x:996:\n"
    )

    commands = install().target_commands

    assert not any(c.startswith(("useradd", "groupadd")) for c in commands)
    assert [c for c in commands if c.startswith("usermod")] == [
        "usermod --append --groups i2c schockbesteck"
    ]


def test_missing_device_group_is_created(install: Runner, target: Path) -> None:
    (target / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (target / "etc/group").write_text("root:x:0:\ndialout:x:20:\ni2c:x:998:\n")

    commands = install().target_commands

    assert "groupadd --system gpio" in commands
    assert commands.index("groupadd --system gpio") < next(
        i for i, c in enumerate(commands) if c.startswith("useradd")
    )


# --- --dry-run ---------------------------------------------------------------------------------


def test_dry_run_writes_nothing(install: Runner, target: Path) -> None:
    before = snapshot(target)

    result = install("--dry-run", "--fast-i2c")

    assert result.returncode == 0, result.stderr
    assert snapshot(target) == before
    assert "would: install /etc/schockbesteck/config.toml" in result.stdout
    assert "would: create venv" in result.stdout
    assert "would: /boot/firmware/config.txt: dtparam=i2c_arm_baudrate=400000" in result.stdout
    assert "nothing was changed" in result.stdout


def test_dry_run_uninstall_writes_nothing(install: Runner, target: Path) -> None:
    install()
    before = snapshot(target)

    result = install("--purge", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert snapshot(target) == before
    assert "would: remove /etc/schockbesteck" in result.stdout


# --- uninstall and purge -----------------------------------------------------------------------


def test_uninstall_keeps_config_and_state(install: Runner, target: Path) -> None:
    install()
    (target / STATE).mkdir(parents=True)
    (target / STATE / "game.json").write_text("{}")

    result = install("--uninstall")

    assert result.returncode == 0, result.stderr
    assert not (target / UNIT).exists()
    assert not (target / "opt/schockbesteck").exists()
    assert (target / CONFIG).read_bytes() == DEFAULT_CONFIG.read_bytes()
    assert (target / STATE / "game.json").read_text() == "{}"
    assert result.target_commands == [
        "systemctl disable --now schockbesteck.service",
        "systemctl daemon-reload",
    ]
    again = install("--uninstall")
    assert again.changes == []
    assert "Nothing to do: Schockbesteck is already removed" in again.stdout


def test_purge_removes_config_state_and_user(install: Runner, target: Path) -> None:
    install()
    (target / STATE).mkdir(parents=True)
    (target / STATE / "game.json").write_text("{}")

    result = install("--purge")

    assert result.returncode == 0, result.stderr
    assert not (target / "etc/schockbesteck").exists()
    assert not (target / STATE).exists()
    assert not (target / "opt/schockbesteck").exists()
    assert "userdel schockbesteck" in result.target_commands
    assert (target / BOOT_CONFIG).exists()  # I2C stays on: other things may use it


# --- errors ------------------------------------------------------------------------------------


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("install.sh: error: ")
    return lines[0]


def test_not_root_without_root_option() -> None:
    result = run_install("--fast-i2c", env={"SCHOCKBESTECK_EUID": "1000"})

    assert result.returncode == 3
    assert "must run as root: sudo " in one_line_error(result.stderr)
    assert result.stdout == ""


def test_not_raspberry_pi_os(target: Path) -> None:
    (target / "etc/rpi-issue").unlink()
    args = ("--root", str(target), "--no-pip", "--python", sys.executable)

    refused = run_install(*args)

    assert refused.returncode == 4
    assert "not Raspberry Pi OS" in one_line_error(refused.stderr)
    assert "--force" in refused.stderr
    assert not (target / CONFIG).exists()
    forced = run_install(*args, "--force")
    assert forced.returncode == 0, forced.stderr


def test_32_bit_raspberry_pi_os_is_recognised(install: Runner, target: Path) -> None:
    (target / "etc/rpi-issue").unlink()
    (target / "etc/os-release").write_text('ID=raspbian\nVERSION_ID="12"\n')

    assert install().returncode == 0


def fake_python(tmp_path: Path, version: str) -> Path:
    fake = tmp_path / f"python{version}"
    fake.write_text(f"#!/bin/sh\necho {version}\n")
    fake.chmod(0o755)
    return fake


def test_python_older_than_3_11(tmp_path: Path, target: Path) -> None:
    old = fake_python(tmp_path, "3.9.2")

    result = run_install("--root", str(target), "--no-pip", "--python", str(old))

    assert result.returncode == 6
    assert "Python 3.9.2" in one_line_error(result.stderr)
    assert "older than 3.11" in result.stderr
    assert not (target / CONFIG).exists()


def test_python_missing(target: Path, tmp_path: Path) -> None:
    result = run_install("--root", str(target), "--python", str(tmp_path / "nope"))

    assert result.returncode == 6
    assert "python3 not found" in one_line_error(result.stderr)


def test_version_comparison_accepts_newer_python(tmp_path: Path, target: Path) -> None:
    # 3.13 must pass the check; the fake cannot build a venv, so stop at the dry run.
    new = fake_python(tmp_path, "3.13.0")

    result = run_install("--root", str(target), "--no-pip", "--python", str(new), "--dry-run")

    assert result.returncode == 0, result.stderr


def test_no_network_for_apt(tmp_path: Path) -> None:
    """Without --root: the packages are missing and apt-get update fails (a PATH shim).

    The script stops at the apt step, before anything on this machine is touched.
    """
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "calls.log"
    (shims / "dpkg-query").write_text("#!/bin/sh\nprintf not-installed\n")
    (shims / "apt-get").write_text(
        f'#!/bin/sh\necho "apt-get $*" >>{log}\n'
        'echo "E: Could not resolve deb.debian.org" >&2\nexit 100\n'
    )
    for shim in shims.iterdir():
        shim.chmod(0o755)
    env = {
        "PATH": f"{shims}:/usr/bin:/bin",
        "SCHOCKBESTECK_EUID": "0",
    }

    result = run_install("--force", "--python", sys.executable, env=env)

    assert result.returncode == 5
    assert log.read_text() == "apt-get update -qq\n"
    assert result.stderr.strip().splitlines()[-1] == (
        "install.sh: error: apt-get update failed: no network? Check the connection and try again"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown option '--bogus'"),
        (["--root"], "--root needs an argument"),
        (["--root", "/nonexistent/schockbesteck"], "no such directory"),
        (["--uninstall", "--fast-i2c"], "cannot be combined"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = run_install(*args)

    assert result.returncode == 2
    assert message in one_line_error(result.stderr)


def test_unexpected_failure_names_the_command(install: Runner, target: Path) -> None:
    (target / "etc/schockbesteck").write_text("a file where the config directory belongs")

    result = install()

    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("install.sh: error: unexpected failure (exit 1) in: install -d")


def test_bad_no_pip_variable(target: Path) -> None:
    result = run_install("--root", str(target), env={"SCHOCKBESTECK_NO_PIP": "yes"})

    assert result.returncode == 2
    assert "SCHOCKBESTECK_NO_PIP must be 0 or 1" in one_line_error(result.stderr)


def test_help_names_every_flag_and_exit_code() -> None:
    result = run_install("--help")

    assert result.returncode == 0
    for flag in (
        "--fast-i2c",
        "--uninstall",
        "--purge",
        "--dry-run",
        "--root DIR",
        "--no-pip",
        "--python PATH",
        "--force",
        "SCHOCKBESTECK_NO_PIP",
    ):
        assert flag in result.stdout
    for code in (
        "3 not root",
        "4 not Raspberry Pi OS",
        "5 no network for apt",
        "6 Python missing or older than 3.11",
    ):
        assert code in result.stdout


# --- static checks -----------------------------------------------------------------------------


def test_install_sh_is_executable_and_strict() -> None:
    assert os.access(INSTALL_SH, os.X_OK)
    assert "\nset -euo pipefail\n" in INSTALL_SH.read_text()


def test_shellcheck_clean(shellcheck: str) -> None:
    proc = subprocess.run(
        [shellcheck, "--severity=style", str(INSTALL_SH)],
        capture_output=True,
        text=True,
        check=False,
    )

    assert proc.returncode == 0, proc.stdout


def test_a_dry_run_on_another_linux_warns_and_shows_every_step(target: Path) -> None:
    (target / "etc/rpi-issue").unlink()
    (target / "etc/os-release").write_text('ID=ubuntu\nVERSION_ID="24.04"\n')
    before = sorted(str(path.relative_to(target)) for path in target.rglob("*"))

    result = run_install(
        "--root", str(target), "--no-pip", "--python", sys.executable, "--dry-run"
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"install.sh: warning: this is not Raspberry Pi OS (no {target}/etc/rpi-issue, "
        "ID='ubuntu'); a real install would stop here (exit 4) unless --force\n"
    )
    assert "Dry run: nothing will be changed." in result.stdout
    assert "  would: " in result.stdout
    assert sorted(str(path.relative_to(target)) for path in target.rglob("*")) == before
