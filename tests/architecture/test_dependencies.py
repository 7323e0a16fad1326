"""The dependency rules of docs/architecture.md, checked on every module's imports.

``engine <- firmware -> hal (ports) <- hal backends, sim backends``: nothing imports upward, the
engine stays pure, and each hardware library is imported inside its own backend module only.
The `schocken` command (``schockbesteck``) sits on top and nothing imports it. Every import is an
import statement: one hidden in a string (``importlib.import_module("...")``, ``__import__``)
is a violation wherever it is, because no reader and no rule here would see it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.architecture.importgraph import PROJECT, ROOT, called_name, imports, modules, nodes

HARDWARE = {"gpiozero", "luma", "serial", "pygame", "systemd", "sdnotify", "aiohttp", "paho"}
#: The hal modules the firmware may use; the rest are backends, built at the edge.
HAL_PORT_LEVEL = {"hal", "hal.ports", "hal.inputs", "hal.power", "hal.settings", "hal.quietlog"}
#: The firmware's edge: the commands that turn the config's names into backend objects.
EDGE = {
    "firmware/cli/run.py",
    "firmware/cli/stats.py",
    "firmware/cli/replay.py",
    "firmware/cli/statedir.py",
    "firmware/cli/spieltag.py",
    "firmware/cli/sheet.py",
    "firmware/cli/saison.py",
    "firmware/cli/hub.py",
}
#: The simulator's edge: its command and the files it writes, the remote panel, the benchmarks and
#: the README pictures, which put the firmware together, and its words (on the firmware's one
#: mechanism for words); every other sim module is a backend (or a fake) of hal's ports.
SIM_EDGE = {
    "sim/attach.py",
    "sim/sim_words.py",
    "sim/bench/whole_game.py",
    "sim/bench/dice_entry.py",
    "sim/bench/cli.py",
    "sim/bench/web.py",
    "sim/bench/evening_sheet.py",
    "sim/bench/hub_load.py",
    "sim/bench/hub_work.py",
    "sim/bench/phones.py",
    "sim/pictures/league_match.py",
    "sim/cli.py",
    "sim/bench/measure.py",
    "sim/outputs.py",
    "sim/pictures/docs.py",
    "sim/pictures/browser.py",
    "sim/tournament/simulated_table.py",
    "sim/tournament/demo.py",
    "sim/tournament/whole_tournament.py",
}
#: The one module allowed to import each hardware library (the sim's own hands and window too).
HARDWARE_HOMES = {
    "gpiozero": {"hal/gpio.py", "sim/gpio_mock.py"},
    "luma": {"hal/oled.py"},
    "serial": {"hal/serial_link.py"},
    "pygame": {"sim/window.py"},
    "systemd": {"hal/watchdog.py"},
    "sdnotify": {"hal/watchdog.py"},
    "aiohttp": {"hal/web_server.py", "hal/hub_server.py"},
    "paho": {"hal/mqtt.py"},
}
#: What the engine may import besides itself: the standard library, nothing with side effects.
ENGINE_FORBIDDEN = {"random", "time", "datetime", "threading", "socket", "os", "io", "logging",
                    "secrets", "subprocess", "pathlib", "asyncio", "PIL"}  # fmt: skip


def problems(root: Path = ROOT) -> list[str]:
    """Every import under ``root`` that breaks a rule, one line each."""
    found = []
    for path in modules(root):
        name = path.relative_to(root).as_posix()
        package = name.split("/")[0]
        for found_import in imports(path, root):
            module, line = found_import.module, found_import.line
            top = module.split(".")[0]
            where = f"{name}:{line} imports {module}"
            if found_import.hidden:
                found.append(f"{where} hidden in a string: write an import statement")
                continue
            if top in HARDWARE and name not in HARDWARE_HOMES[top]:
                found.append(f"{where}: {top} belongs in {sorted(HARDWARE_HOMES[top])}")
            if top in ("schockbesteck", "tests") and package != top:
                found.append(f"{where}: nothing imports the command on top, or the tests")
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
            if package == "sim" and name not in SIM_EDGE and top in {"engine", "firmware"}:
                found.append(f"{where}: a simulator backend uses hal's ports only")
    return found


def test_the_dependency_rules_hold() -> None:
    assert problems() == []


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("engine", "import random\n", "no I/O, clock, randomness"),
        ("firmware", "from hal.gpio import GpioInput\n", "the edge builds backends"),
        ("firmware", "import sim.fakes\n", "never imports the simulator"),
        ("firmware", "from .. import sim\n", "never imports the simulator"),
        ("hal", "from firmware.app import DeviceApp\n", "imports nothing above it"),
        ("hal", "from ..firmware import app\n", "imports nothing above it"),
        ("sim", "import pygame\n", "pygame belongs in"),
        ("firmware", "from aiohttp import web\n", "aiohttp belongs in"),
        ("sim", "from firmware.app import DeviceApp\n", "a simulator backend uses hal's ports"),
        ("sim", "from schockbesteck.cli import main\n", "nothing imports the command on top"),
        (
            "firmware",
            "import importlib\n\nCLI = importlib.import_module('sim.cli')\n",
            "imports sim.cli hidden in a string",
        ),
        (
            "sim",
            "from importlib import import_module\n\nimport_module(NAME)\n",
            "imports a computed name hidden in a string",
        ),
        ("engine", "odds = __import__('engine.odds')\n", "imports engine.odds hidden in a string"),
    ],
)
def test_a_violation_is_reported(package: str, source: str, expected: str, tmp_path: Path) -> None:
    (tmp_path / package).mkdir()
    (tmp_path / package / "intruder.py").write_text(source, encoding="utf-8")
    found = problems(tmp_path)
    assert len(found) == 1 and expected in found[0], found


def test_a_backend_imported_from_its_package_by_name_is_reported(tmp_path: Path) -> None:
    """``from hal import gpio`` imports the backend hal.gpio, not the port-level package."""
    for name in ("hal/__init__.py", "hal/gpio.py", "hal/ports.py", "firmware/__init__.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "firmware/wiring.py").write_text("from hal import gpio, ports\n", encoding="utf-8")
    assert problems(tmp_path) == [
        "firmware/wiring.py:1 imports hal.gpio: the firmware uses hal's ports; the edge builds "
        "backends"
    ]


#: Where a stage may be told apart by its type: the stage modules of the device app.
STAGE_MODULES = {
    path.relative_to(ROOT).as_posix() for path in (ROOT / "firmware/app/stages").glob("*.py")
}


def stage_type_checks() -> list[str]:
    """``isinstance`` on a stage type outside the stages: the app asks a stage, never its type."""
    stage_names = {
        node.name
        for module in STAGE_MODULES
        for node in nodes(ROOT / module)
        if isinstance(node, ast.ClassDef)
    } | {"Stage"}
    found = []
    for path in modules():
        where = path.relative_to(ROOT).as_posix()
        if where in STAGE_MODULES:
            continue
        for node in nodes(path):
            if isinstance(node, ast.Call) and called_name(node.func) == "isinstance":
                if len(node.args) != 2:
                    continue
                names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                for name in sorted(names & stage_names):
                    found.append(f"{where}:{node.lineno}: isinstance on the stage type {name}")
    return found


def test_no_module_outside_the_stages_asks_a_stage_for_its_type() -> None:
    assert stage_type_checks() == []
