"""The dependency rules of DESIGN.md, checked on every module's imports.

``engine <- firmware -> hal (ports) <- hal backends, sim backends``: nothing imports upward, the
engine stays pure, and each hardware library is imported inside its own backend module only.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("engine", "hal", "firmware", "sim")
HARDWARE = {"gpiozero", "luma", "serial", "pygame"}
#: The hal modules the firmware may use; the rest are backends, built at the edge.
HAL_PORT_LEVEL = {"hal", "hal.ports", "hal.inputs", "hal.power", "hal.settings"}
#: The firmware's edge: the commands that turn the config's names into backend objects.
EDGE = {"firmware/cli/run.py", "firmware/cli/stats.py"}
#: The one module allowed to import each hardware library (the sim's own hands and window too).
HARDWARE_HOMES = {
    "gpiozero": {"hal/gpio.py", "sim/gpio_mock.py"},
    "luma": {"hal/oled.py"},
    "serial": {"hal/serial_link.py"},
    "pygame": {"sim/window.py"},
}
#: What the engine may import besides itself: the standard library, nothing with side effects.
ENGINE_FORBIDDEN = {"random", "time", "datetime", "threading", "socket", "os", "io", "logging",
                    "secrets", "subprocess", "pathlib", "asyncio", "PIL"}  # fmt: skip


def modules() -> Iterator[Path]:
    for package in PROJECT:
        yield from sorted((ROOT / package).rglob("*.py"))


def imports(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def problems() -> list[str]:
    found = []
    for path in modules():
        name = path.relative_to(ROOT).as_posix()
        package = name.split("/")[0]
        for line, module in imports(path):
            top = module.split(".")[0]
            where = f"{name}:{line} imports {module}"
            if top in HARDWARE and name not in HARDWARE_HOMES[top]:
                found.append(f"{where}: {top} belongs in {sorted(HARDWARE_HOMES[top])}")
            if package == "engine" and (top in PROJECT and top != "engine"):
                found.append(f"{where}: the engine depends on nothing of ours")
            if package == "engine" and top in ENGINE_FORBIDDEN:
                found.append(f"{where}: the engine has no I/O, clock, randomness or threads")
            if package == "engine" and top not in sys.stdlib_module_names and top != "engine":
                found.append(f"{where}: the engine uses the standard library only")
            if package == "hal" and top in {"engine", "firmware", "sim"}:
                found.append(f"{where}: hal imports nothing above it")
            if package == "firmware" and top == "sim":
                found.append(f"{where}: the firmware never imports the simulator")
            if (
                package == "firmware"
                and top == "hal"
                and name not in EDGE
                and module not in HAL_PORT_LEVEL
            ):
                found.append(f"{where}: the firmware uses hal's ports; the edge builds backends")
    return found


def test_the_dependency_rules_hold() -> None:
    assert problems() == []


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("engine", "import random\n", "no I/O, clock, randomness"),
        ("firmware", "from hal.gpio import GpioInput\n", "the edge builds backends"),
        ("firmware", "import sim.fakes\n", "never imports the simulator"),
        ("hal", "from firmware.app import DeviceApp\n", "imports nothing above it"),
        ("sim", "import pygame\n", "pygame belongs in"),
    ],
)
def test_a_violation_is_reported(
    package: str, source: str, expected: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / package).mkdir()
    (tmp_path / package / "intruder.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = problems()
    assert len(found) == 1 and expected in found[0], found
