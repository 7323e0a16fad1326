"""deploy/install.sh, run with --root into a temporary directory (system commands only printed)."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import (
    BOOKWORM_CONFIG_TXT,
    DEFAULT_CONFIG,
    INSTALL_SH,
    REPO,
    UNIT_FILE,
    Installed,
    Result,
    Runner,
    bookworm_root,
    copy_into,
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


def write_config(target: Path, text: str) -> None:
    config = target / CONFIG
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)


# --- installs shared by the tests of a module --------------------------------------------------



InstallWith = Callable[[str], Installed]


@pytest.fixture(scope="module")
def installed_with(tmp_path_factory: pytest.TempPathFactory) -> InstallWith:
    """A fresh install with a configuration (its text; "" leaves the default to come), made
    once per module with SCHOCKBESTECK_NO_PIP=1 and read by every test that starts from it. A
    test reads it as it is; to change it, it works on a copy (:func:`copy_into`)."""
    made: dict[str, Installed] = {}

    def install_with(config: str) -> Installed:
        if config not in made:
            root = bookworm_root(tmp_path_factory.mktemp("installed") / "root")
            if config:
                write_config(root, config)
            result = run_install(
                "--root", str(root), "--python", sys.executable, env={"SCHOCKBESTECK_NO_PIP": "1"}
            )
            assert result.returncode == 0, result.stderr
            made[config] = Installed(root, result)
        return made[config]

    return install_with


@pytest.fixture(scope="module")
def fresh(installed_with: InstallWith) -> Installed:
    """The fresh install with the default configuration (shared: never changed)."""
    return installed_with("")


#: The players of the configuration already on :func:`used_pi`.
USED_PI_CONFIG = '[game]\nplayers = ["Ute", "Jupp"]\n'


@pytest.fixture(scope="module")
def used_pi(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh install onto a Pi that has been used, made once per module: raspi-config is
    there, the service user exists in every group but i2c, a configuration of its own (0640)
    is in place, and apt's package lists have no python3-lgpio. Each test reads one of these;
    none changes it."""
    root = bookworm_root(tmp_path_factory.mktemp("used") / "root")
    raspi_config = root / "usr/bin/raspi-config"
    raspi_config.parent.mkdir(parents=True)
    raspi_config.write_text("#!/bin/sh\nexit 0\n")
    raspi_config.chmod(0o755)
    (root / "etc/passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\n"
        "schockbesteck:x:996:996::/var/lib/schockbesteck:/usr/sbin/nologin\n"
    )
    (root / "etc/group").write_text(
        "root:x:0:\ndialout:x:20:pi,schockbesteck\ni2c:x:998:pi\ngpio:x:997:schockbesteck\n"
        "schockbesteck:x:996:\n"
    )
    write_config(root, USED_PI_CONFIG)
    (root / CONFIG).chmod(0o640)
    apt_lists(root, "python3", "python3-venv", "python3-systemd", "i2c-tools", "python3-pil")
    result = run_install("--root", str(root), "--no-pip", "--python", sys.executable)
    assert result.returncode == 0, result.stderr
    return Installed(root, result)



@pytest.fixture(scope="module")
def repaired(tmp_path_factory: pytest.TempPathFactory, fresh: Installed) -> Installed:
    """The fresh install with three things changed since, installed over once, made once per
    module: its unit edited, its venv without system site-packages, and a modprobe now on the
    target (with /etc/modules gone). Each test reads what became of one of them."""
    root = tmp_path_factory.mktemp("repaired") / "root"
    shutil.copytree(fresh.root, root, symlinks=True)
    (root / UNIT).write_text("[Service]\nExecStart=/bin/false\n")
    cfg = root / VENV / "pyvenv.cfg"
    cfg.write_text(cfg.read_text().replace("= true", "= false"))
    (root / "etc/modules").unlink()
    modprobe = root / "usr/sbin/modprobe"
    modprobe.parent.mkdir(parents=True)
    modprobe.write_text("#!/bin/sh\nexit 0\n")
    modprobe.chmod(0o755)
    result = run_install("--root", str(root), "--no-pip", "--python", sys.executable)
    assert result.returncode == 0, result.stderr
    return Installed(root, result)


# --- a fresh install -------------------------------------------------------------------------


def test_fresh_install_writes_config_unit_and_venv(fresh: Installed) -> None:
    result, target = fresh.result, fresh.root

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


def test_fresh_install_prints_the_system_commands(fresh: Installed) -> None:
    commands = fresh.result.target_commands

    assert "apt-get update" in commands
    apt = next(c for c in commands if c.startswith("apt-get install"))
    for package in ("python3-venv", "python3-lgpio", "i2c-tools"):
        assert package in apt.split()
    useradd = next(c for c in commands if c.startswith("useradd"))
    assert "--system" in useradd
    assert "--groups gpio,i2c,dialout" in useradd
    assert useradd.endswith(" schockbesteck")
    assert commands[-2:] == [
        "systemctl daemon-reload",
        "systemctl enable --now schockbesteck.service",
    ]


def test_pip_step_is_skipped_and_shown(fresh: Installed) -> None:
    result, target = fresh.result, fresh.root

    assert "skipped (--no-pip" in result.stdout
    assert "-m pip install" in result.stdout
    assert not (target / "opt/schockbesteck/installed-source.sha256").exists()


def test_no_pip_environment_variable(fresh: Installed) -> None:
    result = fresh.result  # installed with SCHOCKBESTECK_NO_PIP=1 in place of --no-pip

    assert result.returncode == 0, result.stderr
    assert "skipped (--no-pip / SCHOCKBESTECK_NO_PIP=1)" in result.stdout


def test_raspi_config_enables_i2c_when_present(used_pi: Installed) -> None:
    result, target = used_pi.result, used_pi.root  # raspi-config is there

    assert "raspi-config nonint do_i2c 0" in result.target_commands
    assert "modprobe i2c-dev" not in result.target_commands
    assert (target / BOOT_CONFIG).read_text() == BOOKWORM_CONFIG_TXT  # raspi-config's job


def test_i2c_enabled_by_hand_without_raspi_config(fresh: Installed) -> None:
    result, target = fresh.result, fresh.root

    assert "note: skipped: raspi-config (not installed here)" in result.stdout
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
            marks=pytest.mark.slow,  # combined-line replaces a rate too
        ),
        pytest.param(
            "dtparam=i2c_arm=on,i2c_arm_baudrate=50000\n",
            "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n",
            id="combined-line",
            marks=pytest.mark.slow,  # make test edits the rate appended under [all]
        ),
        pytest.param(
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n",
            id="already-set",
            marks=pytest.mark.slow,  # every case's second run finds it already set
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


@pytest.mark.slow  # make test: the second run of test_network_drop_in_follows_the_config
def test_second_run_changes_nothing_and_says_so(install: Runner, target: Path) -> None:
    first = install("--fast-i2c")
    before = snapshot(target)

    second = install("--fast-i2c")

    assert first.returncode == second.returncode == 0
    assert first.changes
    assert second.changes == []
    assert snapshot(target) == before
    assert "Nothing to do: Schockbesteck is already installed and up to date" in second.stdout


def test_existing_config_is_never_overwritten(used_pi: Installed) -> None:
    result, config = used_pi.result, used_pi.root / CONFIG  # its own configuration, 0640

    assert result.returncode == 0, result.stderr
    assert config.read_text() == USED_PI_CONFIG
    assert mode(config) == 0o640
    assert "exists and is kept" in result.stdout


def test_changed_unit_is_replaced_and_reloaded(repaired: Installed) -> None:
    result, target = repaired.result, repaired.root  # its unit was edited

    assert (target / UNIT).read_bytes() == UNIT_FILE.read_bytes()
    assert "systemctl daemon-reload" in result.target_commands


def test_venv_without_system_site_packages_is_rebuilt(repaired: Installed) -> None:
    result, cfg = repaired.result, repaired.root / VENV / "pyvenv.cfg"  # lost system site-packages

    assert "create venv /opt/schockbesteck/venv" in result.stdout
    assert "include-system-site-packages = true" in cfg.read_text()


def test_existing_user_in_all_groups_needs_no_commands(used_pi: Installed) -> None:
    commands = used_pi.result.target_commands  # the user is in every group but i2c

    assert not any(c.startswith(("useradd", "groupadd")) for c in commands)
    assert [c for c in commands if c.startswith("usermod")] == [
        "usermod --append --groups i2c schockbesteck"
    ]


def test_missing_device_group_is_created(forced: Installed) -> None:
    commands = forced.result.target_commands  # no gpio group there

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


def test_dry_run_uninstall_writes_nothing(
    install: Runner, target: Path, fresh: Installed
) -> None:
    copy_into(fresh, target)
    before = snapshot(target)

    result = install("--purge", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert snapshot(target) == before
    assert "would: remove /etc/schockbesteck" in result.stdout


# --- uninstall and purge -----------------------------------------------------------------------


def test_uninstall_keeps_config_and_state(
    install: Runner, target: Path, fresh: Installed
) -> None:
    copy_into(fresh, target)
    (target / STATE).mkdir(parents=True)
    (target / STATE / "game.json").write_text("{}")

    result = install("--uninstall")

    assert result.returncode == 0, result.stderr
    assert not (target / UNIT).exists()
    assert not (target / ERROR_UNIT).exists()
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


def test_purge_removes_config_state_and_user(
    install: Runner, target: Path, fresh: Installed
) -> None:
    copy_into(fresh, target)
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


@pytest.fixture(scope="module")
def forced(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh install with --force onto plain Debian (no rpi-issue, no package lists, no gpio
    group: Raspberry Pi OS's udev rules make it), made once per module."""
    root = bookworm_root(tmp_path_factory.mktemp("forced") / "root")
    (root / "etc/rpi-issue").unlink()
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:\ni2c:x:998:\n")  # no gpio
    result = run_install("--root", str(root), "--no-pip", "--python", sys.executable, "--force")
    assert result.returncode == 0, result.stderr
    return Installed(root, result)


def test_not_raspberry_pi_os(target: Path, forced: Installed) -> None:
    (target / "etc/rpi-issue").unlink()

    refused = run_install("--root", str(target), "--no-pip", "--python", sys.executable)

    assert refused.returncode == 4
    assert "not Raspberry Pi OS" in one_line_error(refused.stderr)
    assert "--force" in refused.stderr
    assert not (target / CONFIG).exists()
    # The same system, with --force: installed.
    assert (forced.root / CONFIG).read_bytes() == DEFAULT_CONFIG.read_bytes()
    assert any(line.startswith("Done: ") for line in forced.result.stdout.splitlines())


@pytest.mark.slow  # make test: test_os_release_is_parsed_not_executed installs on ID="raspbian"
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
    """Without --root: the packages are missing and apt-get update fails (PATH shims).

    The script stops at the apt step, before anything on this machine is touched.
    """
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "calls.log"
    (shims / "dpkg-query").write_text("#!/bin/sh\nprintf not-installed\n")
    # apt offers python3-lgpio (as on Raspberry Pi OS): this machine's own apt-cache would read
    # its whole package cache to say so.
    (shims / "apt-cache").write_text(
        "#!/bin/sh\nprintf 'python3-lgpio:\\n  Installed: (none)\\n  Candidate: 0.2.2-1~rpt1\\n'\n"
    )
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


# --- hostile or unusual targets (issue: trust nothing that comes in) ---------------------------


@pytest.mark.parametrize("args", [["--root", ""], ["--root="], ["--purge", "--root", ""]])
def test_empty_root_is_refused_before_anything_happens(args: list[str]) -> None:
    """A packager's `--root "$DESTDIR"` with DESTDIR unset must never act on the live system."""
    result = run_install(*args, env={"SCHOCKBESTECK_EUID": "0"})

    assert result.returncode == 2
    assert "--root needs a directory, not an empty string" in one_line_error(result.stderr)
    assert result.stdout == ""


def test_os_release_is_parsed_not_executed(install: Runner, target: Path, tmp_path: Path) -> None:
    """A dry run reads os-release as a real install does (and warns where it would stop)."""
    (target / "etc/rpi-issue").unlink()
    ran = [tmp_path / f"ran-{n}" for n in range(4)]
    (target / "etc/os-release").write_text(
        f"NAME=$(touch {ran[0]})\n"
        f"`touch {ran[1]}`\n"
        f"touch {ran[2]}\n"
        f'PRETTY_NAME="x"; touch {ran[3]}\n'
        "ID=debian\n"
        'ID="raspbian"\n'  # a later line wins, as it would in a shell
    )

    result = install("--dry-run")

    assert result.returncode == 0, result.stderr
    assert "not Raspberry Pi OS" not in result.stderr  # the later ID line won
    assert [path for path in ran if path.exists()] == []


#: os-release lines and whether install.sh takes them for Raspberry Pi OS.
OS_RELEASE_LINES = [
    ("ID=raspbian", True),
    ("ID='raspbian'", True),
    ('ID="raspbian"', True),
    ('ID="raspbian', False),  # not a quoted value: taken as it stands
    ("ID=raspbian-ish", False),
    ("ID=$(echo raspbian)", False),
    ("XID=raspbian", False),
]


def sourced(script: str) -> str:
    """``script`` run in bash after install.sh's functions and settings, its main left out;
    what it printed."""
    # Sourced from a pipe, install.sh would take /dev for its checkout (REPO is its own
    # folder's parent) and hash every file under /dev/shm: REPO is set to the checkout.
    prelude = f"source <(sed -e '/^main \"\\$@\"$/d' -e 's|^REPO=.*|REPO={REPO}|' {INSTALL_SH}); "
    proc = subprocess.run(
        ["bash", "-c", prelude + script], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


#: The line make test gives a whole dry run too (one not taken; one taken:
#: test_os_release_is_parsed_not_executed's last line).
DRY_RUN_LINES = {"ID=$(echo raspbian)"}


def test_os_release_values_are_told_apart(tmp_path: Path) -> None:
    """Every line of :data:`OS_RELEASE_LINES` through install.sh's own check, in one shell; a
    dry run of each below (one in make test, all in the slow selection)."""
    roots = []
    for number, (line, _) in enumerate(OS_RELEASE_LINES):
        root = tmp_path / str(number)
        (root / "etc").mkdir(parents=True)
        (root / "etc/os-release").write_text(line + "\n")
        roots.append(shlex.quote(str(root)))

    told = sourced(
        f"for ROOT in {' '.join(roots)}; do if is_pi_os; then echo yes; else echo no; fi; done"
    )

    assert told.split() == ["yes" if recognised else "no" for _, recognised in OS_RELEASE_LINES]


@pytest.mark.parametrize(
    ("line", "recognised"),
    [
        pytest.param(line, recognised, marks=[] if line in DRY_RUN_LINES else pytest.mark.slow)
        for line, recognised in OS_RELEASE_LINES
    ],
)
def test_os_release_values(target: Path, line: str, recognised: bool) -> None:
    (target / "etc/rpi-issue").unlink()
    (target / "etc/os-release").write_text(line + "\n")

    result = run_install("--root", str(target), "--no-pip", "--python", sys.executable, "-n")

    # A dry run goes on everywhere; on another system it warns that a real one would stop.
    assert result.returncode == 0, result.stderr
    assert ("this is not Raspberry Pi OS" in result.stderr) is not recognised


def apt_lists(target: Path, *packages: str) -> None:
    """The target's apt package lists, as apt-get update leaves them, naming ``packages``."""
    lists = target / "var/lib/apt/lists"
    lists.mkdir(parents=True)
    (lists / "deb.debian.org_debian_dists_bookworm_main_binary-arm64_Packages").write_text(
        "".join(f"Package: {name}\nVersion: 1.0\nArchitecture: arm64\n\n" for name in packages)
    )


def apt_install_line(result: Result) -> list[str]:
    return next(c for c in result.target_commands if c.startswith("apt-get install")).split()


def test_lgpio_from_pypi_where_apt_has_no_python3_lgpio(used_pi: Installed) -> None:
    result = used_pi.result  # apt's lists have no python3-lgpio

    assert result.returncode == 0, result.stderr
    assert "python3-lgpio" not in apt_install_line(result)
    assert "python3-systemd" in apt_install_line(result)
    assert "python3-lgpio is not available from apt here" in result.stdout
    pip = next(line for line in result.stdout.splitlines() if "-m pip install" in line)
    words = shlex.split(pip.split(": ", 1)[1])
    # Never the empty lgpio 0.0.0.2, never a build from source.
    assert words[-2:] == ["--only-binary=lgpio", "lgpio>=0.2.2"]


def test_python3_lgpio_from_apt_where_apt_has_it(install: Runner, target: Path) -> None:
    (target / "etc/rpi-issue").unlink()  # even on plain Debian: what apt offers decides
    apt_lists(target, "python3-lgpio", "python3-systemd")

    result = install("--force", "--dry-run")  # the apt line as a real run prints it

    assert result.returncode == 0, result.stderr
    assert "python3-lgpio" in apt_install_line(result)
    assert "lgpio>=" not in result.stdout


@pytest.mark.parametrize(("pi_os", "from_apt"), [(True, True), (False, False)])
def test_lgpio_without_package_lists_follows_the_os(
    fresh: Installed, forced: Installed, pi_os: bool, from_apt: bool
) -> None:
    """No lists to ask (an empty --root): Raspberry Pi OS has python3-lgpio, others do not."""
    # The fresh install: Raspberry Pi OS; the forced one: plain Debian. Neither has lists.
    result = fresh.result if pi_os else forced.result

    assert ("python3-lgpio" in apt_install_line(result)) is from_apt
    assert ("python3-lgpio is not available" in result.stdout) is not from_apt


def test_lgpio_from_pypi_is_part_of_the_install_stamp(target: Path) -> None:
    """Switching lgpio's source changes what pip must install, so the stamp must differ."""
    hashes = []
    for lists in (("python3-lgpio",), ("python3",)):
        root = target.parent / f"root-{lists[0]}"
        shutil.copytree(target, root)
        apt_lists(root, *lists)
        script = (
            f"ROOT={root}; "
            f"PYTHON={sys.executable}; PYTHON_VERSION=3.11.2; missing=(python3-lgpio); "
            "drop_unavailable_lgpio final >/dev/null; source_hash"
        )
        hashes.append(sourced(script).strip())

    assert len(hashes[0]) == 64 and hashes[0] != hashes[1]


def test_modprobe_runs_only_where_there_is_one(fresh: Installed, repaired: Installed) -> None:
    without = fresh.result
    assert "modprobe i2c-dev" not in without.target_commands
    assert "note: skipped: modprobe i2c-dev (no modprobe here" in without.stdout
    assert (fresh.root / "etc/modules").read_text() == "i2c-dev\n"  # loaded at the next boot

    with_modprobe = repaired.result  # a modprobe came, /etc/modules went

    assert "modprobe i2c-dev" in with_modprobe.target_commands
    assert "skipped: modprobe" not in with_modprobe.stdout


# --- the error screen unit and the network drop-in ---------------------------------------------

ERROR_UNIT = Path("etc/systemd/system/schockbesteck-error.service")
DROPIN = Path("etc/systemd/system/schockbesteck.service.d/network.conf")
NETWORK_CONF = INSTALL_SH.parent / "network.conf"


def test_error_unit_is_installed_and_removed(fresh: Installed) -> None:
    """Installed with the game's unit; removed with it (test_uninstall_keeps_config_and_state
    reads that)."""
    assert (fresh.root / ERROR_UNIT).read_bytes() == (
        INSTALL_SH.parent / "schockbesteck-error.service"
    ).read_bytes()


#: A configuration, what install.sh's CONFIG_QUERY answers for it (does the service need the
#: network, and why; does it hold a secret), and the extras its WEB_QUERY gives the venv.
QUERIED = [
    ("", "no", "no", "pi"),  # the default configuration
    ('[link]\nurl = "tcp-listen://0.0.0.0:7777"\n', "yes [link] url = tcp-listen://0.0.0.0:7777",
     "no", "pi"),
    ('[link]\nurl = "socket://192.0.2.1:7777"\n', "yes [link] url = socket://192.0.2.1:7777",
     "no", "pi"),
    ('[link]\nurl = "rfc2217://192.0.2.1:7777"\n', "yes [link] url = rfc2217://192.0.2.1:7777",
     "no", "pi"),
    ('[web]\nlisten = "0.0.0.0:8080"\n', "yes [web]", "no", "pi,web"),
    ('[tournament]\nbroker = "mqtt://hub.local:1883"\n', "yes [tournament]", "no", "pi"),
    ('[link]\nurl = "socket://192.0.2.1:7777"\n[web]\n[tournament]\nbroker = "mqtt://h:1883"\n'
     'password = "pw"\n', "yes [link] url = socket://192.0.2.1:7777, [tournament]", "yes", "pi"),
    ('[link]\nurl = "/dev/serial0"\n', "no", "no", "pi"),
    ('[link]\nurl = "loop://"\n', "no", "no", "pi"),
    ("[web]\nenabled = false\n", "no", "no", "pi"),
    ("[tournament]\nenabled = false\n", "no", "no", "pi"),
    ("[link\nurl = ", "error", "no", "pi"),
]  # fmt: skip


def install_sh_python(name: str) -> str:
    """The Python program install.sh keeps in its variable ``name`` (CONFIG_QUERY, WEB_QUERY),
    as bash hands it to ``python -c``."""
    return sourced(f'printf %s "${name}"')


def run_python(program: str, config: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ``python -c PROGRAM CONFIG`` prints, run in this interpreter (the one install.sh gets
    with --python): the lines."""
    monkeypatch.setattr(sys, "argv", ["-c", str(config)])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(program, "<install.sh>", "exec"), {"__name__": "__main__"})
        except SystemExit as stop:
            assert stop.code in (0, None)
    return out.getvalue().splitlines()


def test_each_configuration_is_read_by_install_sh_s_own_queries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every configuration of :data:`QUERIED` through install.sh's own two Python programs; a
    whole install of some below (the link's tcp-listen:// and [web] in make test, each of them
    in the slow selection)."""
    config_query, web_query = install_sh_python("CONFIG_QUERY"), install_sh_python("WEB_QUERY")
    for number, (text, network, secret, extras) in enumerate(QUERIED):
        config = tmp_path / f"{number}.toml"
        if text:
            config.write_text(text)
        else:
            shutil.copyfile(DEFAULT_CONFIG, config)

        answers = run_python(config_query, config, monkeypatch)

        assert len(answers) == 2, (text, answers)
        if network == "error":  # the parser's own words follow
            assert answers[0].startswith("error "), (text, answers)
        else:
            assert answers[0] == network, (text, answers)
        assert answers[1] == secret, (text, answers)
        assert run_python(web_query, config, monkeypatch) == [extras], text


@pytest.mark.parametrize(
    ("config", "extras"),
    [
        ("", "[pi]"),
        ('[web]\nlisten = "0.0.0.0:8080"\n', "[pi,web]"),
        # make test: WEB_QUERY's answer above, and its install's [pi] for the default
        pytest.param("[web]\nenabled = false\n", "[pi]", marks=pytest.mark.slow),
    ],
)
def test_the_web_page_gets_its_extra(installed_with: InstallWith, config: str, extras: str) -> None:
    result = installed_with(config).result
    skipped = next(line for line in result.stdout.splitlines() if "--no-pip" in line)
    assert skipped.replace("\\", "").split()[-1].endswith(extras), skipped
    # The configuration the firmware reads agrees: the same [web] is on or off there.
    from firmware.config import config_from_toml

    assert config_from_toml(config).web.enabled is (extras == "[pi,web]")
    # And the service gets the network for the page, or none.
    assert (installed_with(config).root / DROPIN).exists() is (extras == "[pi,web]")


def test_default_config_gets_no_network(fresh: Installed) -> None:
    result, target = fresh.result, fresh.root

    assert not (target / DROPIN).exists()
    assert "the configuration needs no network" in result.stdout


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ('[link]\nurl = "tcp-listen://0.0.0.0:7777"\n', "[link] url = tcp-listen://0.0.0.0:7777"),
        ('[web]\nlisten = "0.0.0.0:8080"\n', "[web]"),
        # make test: CONFIG_QUERY's reason for each, above
        pytest.param(
            '[link]\nurl = "socket://192.0.2.1:7777"\n',
            "[link] url = socket://192.0.2.1:7777",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            '[tournament]\nbroker = "mqtt://hub.local:1883"\n',
            "[tournament]",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_config_that_needs_the_network_opens_it(
    installed_with: InstallWith, config: str, reason: str
) -> None:
    """A reason, in its shared install (the link's and the page's in make test, every one of
    CONFIG_QUERY's above); the whole way from open to closed again below, for one of them (all
    of them in the slow selection)."""
    opened = installed_with(config)

    assert (opened.root / DROPIN).read_bytes() == NETWORK_CONF.read_bytes()
    assert f"the configuration needs the network ({reason})" in opened.result.stdout
    assert "systemctl daemon-reload" in opened.result.target_commands


def install_a_tables_broker_password(install: Runner, target: Path) -> None:
    """A table's [tournament] block holds its broker password: the configuration on ``target``,
    0644 while it holds no secret, becomes root:schockbesteck 0640 (the service reads it, no
    other user)."""
    config = target / CONFIG
    assert stat.S_IMODE(config.stat().st_mode) == 0o644  # no secret in it
    write_config(
        target,
        '[tournament]\nbroker = "mqtt://192.168.1.10:1883"\nevent = "dm2026"\ntable = 7\n'
        'password = "Zp3-not-for-the-pi-user"\n',
    )
    config.chmod(0o644)  # as an editor or `cp` leaves it

    result = install()

    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert "chgrp schockbesteck /etc/schockbesteck/config.toml" in result.target_commands
    assert "Zp3-not-for-the-pi-user" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ('[link]\nurl = "tcp-listen://0.0.0.0:7777"\n', "[link] url = tcp-listen://0.0.0.0:7777"),
        pytest.param(
            '[link]\nurl = "socket://192.0.2.1:7777"\n',
            "[link] url = socket://192.0.2.1:7777",
            marks=pytest.mark.slow,
        ),
        pytest.param('[web]\nlisten = "0.0.0.0:8080"\n', "[web]", marks=pytest.mark.slow),
        pytest.param(
            '[tournament]\nbroker = "mqtt://hub.local:1883"\n',
            "[tournament]",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_network_drop_in_follows_the_config(
    install: Runner, target: Path, installed_with: InstallWith, config: str, reason: str
) -> None:
    """Opened, then a table's secret on the way (its broker password), then closed again."""
    opened = copy_into(installed_with(config), target)

    assert (target / DROPIN).read_bytes() == NETWORK_CONF.read_bytes()
    assert f"the configuration needs the network ({reason})" in opened.stdout
    assert "systemctl daemon-reload" in opened.target_commands

    install_a_tables_broker_password(install, target)
    assert (target / DROPIN).read_bytes() == NETWORK_CONF.read_bytes()  # [tournament]'s now
    assert install().changes == []  # idempotent

    write_config(target, '[link]\nurl = "/dev/ttyGS0"\n')
    closed = install()

    assert not (target / DROPIN).exists()
    assert not (target / DROPIN).parent.exists()
    assert "systemctl daemon-reload" in closed.target_commands


@pytest.mark.parametrize(
    "config",
    [
        # make test: CONFIG_QUERY's "no" for each (test_each_configuration_is_read_by_...), and
        # closing the network for /dev/ttyGS0 above
        pytest.param('[link]\nurl = "/dev/serial0"\n', marks=pytest.mark.slow),
        pytest.param('[link]\nurl = "loop://"\n', marks=pytest.mark.slow),
        pytest.param("[web]\nenabled = false\n", marks=pytest.mark.slow),
        pytest.param("[tournament]\nenabled = false\n", marks=pytest.mark.slow),
    ],
)
def test_no_network_for_local_links(installed_with: InstallWith, config: str) -> None:
    installed = installed_with(config)

    assert not (installed.root / DROPIN).exists()


def test_unreadable_config_closes_the_network_and_own_drop_ins_stay(
    install: Runner, target: Path, installed_with: InstallWith
) -> None:
    """The network closes for a configuration that cannot be read, as for one that needs none
    (above): the drop-in goes, the folder stays for the drop-in of the service's own."""
    copy_into(installed_with('[link]\nurl = "tcp-listen://0.0.0.0:7777"\n'), target)
    override = target / DROPIN.parent / "override.conf"  # what `systemctl edit` writes
    override.write_text("[Service]\nEnvironment=X=1\n")
    write_config(target, "[link\nurl = ")

    result = install()

    assert result.returncode == 0, result.stderr
    assert not (target / DROPIN).exists()
    assert "cannot be read" in result.stdout
    assert override.read_text() == "[Service]\nEnvironment=X=1\n"


def test_uninstall_removes_the_network_drop_in(
    install: Runner, target: Path, installed_with: InstallWith
) -> None:
    copy_into(installed_with('[web]\nlisten = "0.0.0.0:8080"\n'), target)

    install("--uninstall")

    assert not (target / DROPIN.parent).exists()


def test_a_dry_run_on_another_linux_warns_and_shows_every_step(target: Path) -> None:
    (target / "etc/rpi-issue").unlink()
    (target / "etc/os-release").write_text('ID=ubuntu\nVERSION_ID="24.04"\n')
    before = sorted(str(path.relative_to(target)) for path in target.rglob("*"))

    result = run_install("--root", str(target), "--no-pip", "--python", sys.executable, "--dry-run")

    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"install.sh: warning: this is not Raspberry Pi OS (no {target}/etc/rpi-issue, "
        "ID='ubuntu'); a real install would stop here (exit 4) unless --force\n"
    )
    assert "Dry run: nothing will be changed." in result.stdout
    assert "  would: " in result.stdout
    assert sorted(str(path.relative_to(target)) for path in target.rglob("*")) == before
