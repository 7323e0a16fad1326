"""The architecture tests need nothing but pytest: they read the source with ``ast``.

Run here as they would be in a venv with only pytest installed: a fresh venv (no pip, no
system site-packages) whose site-packages links to pytest and the packages pytest itself
requires, and nothing else; no Pillow, no hypothesis, none of the project's extras. Every test
of this folder (the slow selection and this file left out) must be collected (`make test`) and
pass, or skip naming what is missing (the slow selection: running them all costs as much as the
folder itself). So ``tests/conftest.py`` imports only what every test needs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve()
#: What the tests of the other folders import and a bare interpreter must not find.
NOT_THERE = ("PIL", "hypothesis", "pytest_mock", "xdist", "gpiozero", "luma", "aiohttp", "paho")


def _required(name: str, seen: set[str]) -> None:
    """``name`` and every distribution it requires (extras left out), into ``seen``."""
    distribution = metadata.distribution(name)
    key = distribution.metadata["Name"].lower().replace("_", "-")
    if key in seen:
        return
    seen.add(key)
    for requirement in distribution.requires or []:
        requirement, _, marker = requirement.partition(";")
        if "extra" in marker:
            continue
        if marker.strip():
            from packaging.markers import Marker  # pytest requires packaging

            if not Marker(marker).evaluate():
                continue
        found = re.match(r"[A-Za-z0-9_.-]+", requirement.strip())
        assert found is not None, requirement
        _required(found.group(0), seen)


def bare_venv(folder: Path) -> Path:
    """A venv in ``folder`` that sees pytest and its requirements only; its python."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = next((folder / "lib").glob("python3*/site-packages"))
    wanted: set[str] = set()
    _required("pytest", wanted)
    for name in sorted(wanted):
        distribution = metadata.distribution(name)
        linked: set[str] = set()
        for file in distribution.files or []:
            top = file.parts[0]
            if top in linked or top == ".." or top == "__pycache__":
                continue
            linked.add(top)
            (site / top).symlink_to(Path(str(distribution.locate_file(top))))
    return folder / "bin" / "python"


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bare venv's python, checked to see none of :data:`NOT_THERE`."""
    folder = tmp_path_factory.mktemp("bare")
    python = bare_venv(folder / "venv")
    probe = "import importlib.util as u, sys; print(*(m for m in sys.argv[1:] if u.find_spec(m)))"
    found = subprocess.run(
        [str(python), "-c", probe, *NOT_THERE], capture_output=True, text=True, check=True,
        cwd=folder, timeout=60,
    )  # fmt: skip
    assert found.stdout.split() == [], "the bare venv sees more than pytest"
    return python


@pytest.mark.parametrize(
    ("how", "outcome"),
    [
        # `make test`: every test of the folder imports and is collected with pytest alone.
        pytest.param(["--collect-only"], r"\d+ tests? collected", id="collected"),
        # `make test-long`: and each passes there (or skips naming what is missing).
        pytest.param([], r"\d+ passed", id="passed", marks=pytest.mark.slow),
    ],
)
def test_the_architecture_tests_pass_with_nothing_but_pytest(
    bare_python: Path, how: list[str], outcome: str
) -> None:
    run = subprocess.run(
        [
            str(bare_python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
            *how, f"--ignore={HERE}", str(HERE.parent),
        ],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, f"{summary}\n{run.stdout[-3000:]}\n{run.stderr[-2000:]}"
    assert re.search(outcome, summary), summary
