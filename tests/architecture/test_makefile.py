"""The Makefile: `make` alone and `make help` list every target; `make clean` removes what the
targets create. Run with the real make on a copy of the Makefile in a temporary folder."""

from __future__ import annotations

import re
import shutil
import subprocess
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
