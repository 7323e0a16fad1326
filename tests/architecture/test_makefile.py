"""The Makefile: `make` alone and `make help` list every target; `make clean` removes what the
targets create. Run with the real make on a copy of the Makefile in a temporary folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make(folder: Path, *targets: str) -> str:
    done = subprocess.run(
        ["make", "--no-print-directory", *targets], cwd=folder, capture_output=True, text=True,
        timeout=60, check=True,
    )
    return done.stdout


def phony_targets() -> set[str]:
    text = MAKEFILE.read_text(encoding="utf-8")
    line = re.search(r"^\.PHONY:(.*)$", text, re.MULTILINE)
    assert line is not None
    return set(line.group(1).split())


@pytest.mark.parametrize("targets", [(), ("help",)])
def test_make_alone_and_make_help_list_every_target(
    tmp_path: Path, targets: tuple[str, ...]
) -> None:
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    out = make(tmp_path, *targets)
    listed = set(re.findall(r"^  make ([a-z-]+) ", out, re.MULTILINE))
    assert listed == phony_targets()
    assert not (tmp_path / ".venv").exists(), "listing the targets installs nothing"


def test_make_clean_removes_what_the_targets_create(tmp_path: Path) -> None:
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    made = [
        ".venv/bin", ".pytest_cache/v", ".mypy_cache/3.11", ".ruff_cache/0.6",
        ".hypothesis/examples", "schockbesteck.egg-info", "build/lib", "engine/__pycache__",
        "tests/sim/__pycache__",
    ]
    for name in made:
        (tmp_path / name).mkdir(parents=True)
        (tmp_path / name / "file").write_text("x")
    (tmp_path / "engine" / "game.py").write_text("kept")
    make(tmp_path, "clean")
    left = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*"))
    assert left == ["Makefile", "engine", "engine/game.py", "tests", "tests/sim"]


# -- the two installs: what playing needs, then the checking tools ---------------------------------

#: A stand-in for python3 and every program of the venv: it notes how it was called in $CALLS,
#: and `-m venv DIR` makes DIR/bin with a copy of itself under each name the Makefile runs.
FAKE_PROGRAM = """#!/bin/sh
echo "$(basename "$0") $*" >> "$CALLS"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    for name in python schocken ruff mypy pytest; do cp "$0" "$3/bin/$name"; done
fi
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with the Makefile, a pyproject.toml and a fake python3 (see FAKE_PROGRAM)."""
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("[project]\n", encoding="utf-8")
    fake = tmp_path / "fake-python3"
    fake.write_text(FAKE_PROGRAM, encoding="utf-8")
    fake.chmod(0o755)
    return tmp_path


def calls(folder: Path, *targets: str) -> list[str]:
    """The programs `make TARGETS` ran (with the fake python3), one line each."""
    log = folder / "calls.txt"
    log.unlink(missing_ok=True)
    subprocess.run(
        ["make", "--no-print-directory", f"PYTHON={folder / 'fake-python3'}", *targets],
        cwd=folder, capture_output=True, text=True, timeout=60, check=True,
        env={"PATH": "/usr/bin:/bin", "CALLS": str(log)},
    )  # fmt: skip
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def installs(lines: list[str]) -> list[str]:
    return [line for line in lines if " -m pip install " in line and "--upgrade pip" not in line]


def test_make_sim_installs_only_what_playing_needs(checkout: Path) -> None:
    ran = calls(checkout, "sim")
    assert installs(ran) == ["python -m pip install --quiet -e .[sim]"]
    assert ran[-1] == "schocken sim --rules standard"
    assert calls(checkout, "sim") == ["schocken sim --rules standard"], "installed once"


def test_make_sim_with_the_page_installs_the_web_extra_too(checkout: Path) -> None:
    ran = calls(checkout, "sim", "SIM_ARGS=--web")
    assert installs(ran) == [
        "python -m pip install --quiet -e .[sim]",
        "python -m pip install --quiet -e .[sim,web]",
    ]
    assert ran[-1] == "schocken sim --rules standard --web"
    assert installs(calls(checkout, "sim", "SIM_ARGS=--web")) == [], "installed once"


def test_make_test_after_make_sim_installs_the_rest(checkout: Path) -> None:
    calls(checkout, "sim")
    ran = calls(checkout, "test")
    assert not any(" -m venv " in line for line in ran), "the same venv"
    everything = "python -m pip install --quiet -e .[pi,sim,dev,web,mqtt,hub,browser-test]"
    assert installs(ran) == [everything]
    assert [line.split()[0] for line in ran[1:]] == ["ruff", "mypy", "mypy", "pytest"]
    assert installs(calls(checkout, "sim", "test")) == [], "both stamps are up to date"


def test_make_test_on_a_fresh_checkout_installs_both(checkout: Path) -> None:
    assert installs(calls(checkout, "test")) == [
        "python -m pip install --quiet -e .[sim]",
        "python -m pip install --quiet -e .[pi,sim,dev,web,mqtt,hub,browser-test]",
    ]


def test_a_changed_pyproject_installs_again(checkout: Path) -> None:
    calls(checkout, "test")
    earlier = (checkout / "pyproject.toml").stat().st_mtime - 100
    for stamp in (checkout / ".venv").glob(".*-stamp"):
        os.utime(stamp, (earlier, earlier))  # as if pyproject.toml changed after both installs
    assert len(installs(calls(checkout, "sim"))) == 1
    assert len(installs(calls(checkout, "test"))) == 1


@pytest.mark.slow
def test_the_first_install_prints_no_setuptools_warning(tmp_path: Path) -> None:
    """A real editable install of the package (no extras) into a fresh venv: pip passes on
    what the build backend warns, and setuptools' boxed warning must not be among it."""
    root = MAKEFILE.parent
    copy = tmp_path / "checkout"
    archive = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode().split("\0")
    for name in filter(None, archive):
        source = root / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, copy / name)
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                   capture_output=True, check=True, timeout=300)  # fmt: skip
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "-e", str(copy)],
        capture_output=True, text=True, check=True, timeout=300,
    )
    assert "Warning" not in done.stderr and "!!" not in done.stderr, done.stderr
    probe = "import engine, firmware, sim, schockbesteck; print(engine.__file__)"
    found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True,
                           cwd=tmp_path)  # fmt: skip
    assert found.stdout.strip() == str(copy / "engine" / "__init__.py")


# -- make tournament-demo: Debian's broker is checked before anything is installed -----------------


def test_make_tournament_demo_without_mosquitto_says_so_in_one_line(checkout: Path) -> None:
    log = checkout / "calls.txt"
    done = subprocess.run(
        ["make", "--no-print-directory", f"PYTHON={checkout / 'fake-python3'}",
         f"MOSQUITTO={checkout / 'no-such-mosquitto'}", "tournament-demo"],
        cwd=checkout, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "CALLS": str(log)},
    )  # fmt: skip
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert lines == ["mosquitto fehlt (mosquitto is missing): sudo apt-get install mosquitto"]
    assert not log.exists() and not (checkout / ".venv").exists(), "nothing was installed"


def test_make_tournament_demo_installs_then_runs_the_demo_module(checkout: Path) -> None:
    broker = checkout / "fake-python3"  # any executable stands in for /usr/sbin/mosquitto
    ran = calls(checkout, f"MOSQUITTO={broker}", "tournament-demo", "DEMO_ARGS=--tables 3")
    assert installs(ran) == ["python -m pip install --quiet -e .[hub]"], "no checking tools"
    assert not any(line.split()[0] in ("ruff", "mypy", "pytest") for line in ran)
    assert ran[-1] == f"python -m sim.tournament.demo --mosquitto {broker} --tables 3"
    again = calls(checkout, f"MOSQUITTO={broker}", "tournament-demo")
    assert again == [f"python -m sim.tournament.demo --mosquitto {broker}"], "installed once"
