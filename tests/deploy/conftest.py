"""Fixtures for the deploy tests: run deploy/install.sh against a fake root in tmp_path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL_SH = REPO / "deploy" / "install.sh"
UNIT_FILE = REPO / "deploy" / "schockbesteck.service"
DEFAULT_CONFIG = REPO / "deploy" / "config.toml"

# A Bookworm-style config.txt: ends in an [all] section, has conditional sections before it.
BOOKWORM_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def target_commands(self) -> list[str]:
        """The system commands that --root printed instead of running."""
        prefix = "  target: "
        return [line[len(prefix) :] for line in self.stdout.splitlines() if line.startswith(prefix)]

    @property
    def changes(self) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith("  changed: ")]


Runner = Callable[..., Result]


@dataclass(frozen=True)
class Installed:
    """An install shared by a module's tests: its root and what install.sh printed."""

    root: Path
    result: Result


def copy_into(installed: Installed, target: Path) -> Result:
    """The shared install copied to this test's ``target``, to change and install over; what
    install.sh printed when it made it."""
    shutil.rmtree(target)
    shutil.copytree(installed.root, target, symlinks=True)
    return installed.result


def run_install(*args: str, env: dict[str, str] | None = None) -> Result:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("SCHOCKBESTECK_")}
    full_env.update(env or {})
    proc = subprocess.run(
        ["bash", str(INSTALL_SH), *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
        check=False,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """An empty Raspberry Pi OS Bookworm (64-bit) root: os-release, rpi-issue, config.txt."""
    return bookworm_root(tmp_path / "root")


def bookworm_root(root: Path) -> Path:
    """``root`` made an empty Raspberry Pi OS Bookworm (64-bit) root, as :func:`target`."""
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n'
        "VERSION_CODENAME=bookworm\n"
    )
    (root / "etc" / "rpi-issue").write_text("Raspberry Pi reference 2024-11-19\n")
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOKWORM_CONFIG_TXT)
    return root


@pytest.fixture
def install(target: Path) -> Runner:
    """Run install.sh --root TARGET --no-pip with this interpreter, plus any extra arguments."""

    def run(*args: str, env: dict[str, str] | None = None) -> Result:
        return run_install(
            "--root", str(target), "--no-pip", "--python", sys.executable, *args, env=env
        )

    return run


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes | str]]:
    """Every path under root with its mode, mtime and content (or link target)."""
    state: dict[str, tuple[int, int, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        if path.is_symlink():
            content: bytes | str = os.readlink(path)
        elif path.is_file():
            content = path.read_bytes()
        else:
            content = ""
        state[str(path.relative_to(root))] = (st.st_mode, st.st_mtime_ns, content)
    return state


def debian_tool(tool: str, package: str) -> str:
    """The path of ``tool``; the test is skipped, naming Debian's ``package``, where it is missing
    (.ci/run installs it before make test: a test installs nothing)."""
    found = shutil.which(tool)
    if not found:
        pytest.skip(f"{tool} is missing: apt-get install {package} (.ci/run does)")
    return found


@pytest.fixture(scope="session")
def systemd_analyze() -> str:
    """systemd-analyze (Debian's systemd package; .ci/run installs it)."""
    return debian_tool("systemd-analyze", "systemd")
