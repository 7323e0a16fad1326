"""Where modules live: the app's layers, few loose modules in firmware/ and sim/, one name a module.

The device app (``firmware/app/``) is built in four layers, each importing only the ones below:

* ``firmware/app/session/``: the session layer (the game, computer players, journal, setup
  file); it never imports the stages, the flow or the shell;
* ``firmware/app/stages/``: the stages and overlays; they never import the flow or the shell;
* ``firmware/app/flow.py``: the router, the only place a moment of the game becomes a stage;
* ``firmware/app/device.py``: the shell around them.

A stage's module and the shell stay under :data:`MAX_LINES`.

Only direct imports are checked here: a longer way round from a lower layer to a higher one ends
in a cycle (the higher layer imports the lower), which ``test_cycles.py`` names.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import pytest

from schockbesteck.cli import SUBCOMMANDS
from tests.architecture.importgraph import PROJECT, ROOT, imports, modules

#: The device app's layers: each one's place, what it holds, and what it never imports.
LAYERS = {
    "firmware/app/session": (
        "the session layer: the game, computer players, journal, setup file",
        ("firmware.app.stages", "firmware.app.flow", "firmware.app.device"),
    ),
    "firmware/app/stages": (
        "the stages and overlays",
        ("firmware.app.flow", "firmware.app.device"),
    ),
    "firmware/app/flow.py": ("the router, the only place a moment becomes a stage", ()),
    "firmware/app/device.py": ("the shell", ()),
}
#: The most lines a module of the device app's stages, and its shell, may have: a stage is one
#: step of the game with its buttons and its screen; the shell only routes (what is not routing
#: belongs to the session, a stage or the notices, not to ``device.py``).
MAX_LINES = {"firmware/app/stages": 450, "firmware/app/device.py": 450}
#: How many modules may sit directly in firmware/ (its __init__.py not counted).
MAX_LOOSE_FIRMWARE_MODULES = 12
#: How many modules may sit directly in sim/ (its __init__.py not counted): the backends and the
#: simulator's command; the bench, the tournament tools and the pictures have wings of their own.
MAX_LOOSE_SIM_MODULES = 12
#: Names any package may use for its own: its marker, its ``-m`` entry, its command line.
PACKAGE_TOP_NAMES = {"__init__", "__main__", "cli"}
#: Modules that share a name, each with why (none today); remove an entry when its modules part.
SharedNames = dict[str, tuple[set[str], str]]
SHARED_NAMES: SharedNames = {}


def missing_layers(root: Path = ROOT) -> list[str]:
    """The device app's layers that are not there yet, one line each."""
    found = []
    for place, (holds, _) in LAYERS.items():
        path = root / place
        present = path.is_file() if place.endswith(".py") else (path / "__init__.py").is_file()
        if not present:
            kind = "module" if place.endswith(".py") else "package (with its __init__.py)"
            found.append(f"{place} is missing: the {kind} for {holds}")
    return found


def layer_violations(root: Path = ROOT) -> list[str]:
    """Imports from a layer of the device app into one above it."""
    found = []
    for place, (_, forbidden) in LAYERS.items():
        for path in modules(root):
            name = path.relative_to(root).as_posix()
            if name != place and not name.startswith(place + "/"):
                continue
            for imported in imports(path, root):
                for above in forbidden:
                    if imported.module == above or imported.module.startswith(above + "."):
                        found.append(
                            f"{name}:{imported.line} imports {imported.module}: "
                            f"{place} never imports {above}"
                        )
    return found


def overlong_modules(root: Path = ROOT, limits: dict[str, int] = MAX_LINES) -> list[str]:
    """The modules of the places in ``limits`` longer than their place's limit, one line each."""
    found = []
    for place, limit in limits.items():
        path = root / place
        for module in [path] if place.endswith(".py") else sorted(path.rglob("*.py")):
            if not module.is_file():
                continue
            lines = len(module.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{module.relative_to(root).as_posix()} has {lines} lines "
                             f"(at most {limit}); move out what is not its own")
    return found


def loose_firmware_modules(root: Path = ROOT) -> list[str]:
    """The modules directly in firmware/, its __init__.py aside."""
    return sorted(p.stem for p in (root / "firmware").glob("*.py") if p.name != "__init__.py")


def loose_sim_modules(root: Path = ROOT) -> list[str]:
    """The modules directly in sim/, its __init__.py aside (not those in its wings)."""
    return sorted(p.stem for p in (root / "sim").glob("*.py") if p.name != "__init__.py")


def shared_basenames(
    root: Path = ROOT,
    subcommands: Collection[str] = SUBCOMMANDS,
    listed_names: SharedNames = SHARED_NAMES,
) -> list[str]:
    """Names that two project modules share without a reason listed in ``listed_names``.

    Exempt are a package's ``__init__``, ``__main__`` and ``cli`` at the top of a package, and a
    module of ``firmware/cli/`` named after the subcommand it runs. A listed reason whose modules
    no longer share the name is reported too, to be removed.
    """
    by_name: dict[str, set[str]] = {}
    for path in modules(root):
        where = path.relative_to(root).as_posix()
        at_package_top = len(path.relative_to(root).parts) == 2
        if path.stem in PACKAGE_TOP_NAMES and (at_package_top or path.stem == "__init__"):
            continue
        if where.startswith("firmware/cli/") and path.stem in subcommands:
            continue
        by_name.setdefault(path.stem, set()).add(where)
    found = []
    for name, places in sorted(by_name.items()):
        listed = listed_names.get(name)
        if len(places) > 1 and (listed is None or listed[0] != places):
            found.append(f"{name}: {', '.join(sorted(places))} share a name")
    for name, (places, _) in sorted(listed_names.items()):
        if by_name.get(name) != places:
            found.append(f"{name}: {', '.join(sorted(places))} no longer share it; unlist it")
    return found


def test_the_device_app_has_its_layers() -> None:
    missing = missing_layers()
    if missing:
        pytest.fail("the device app's layers (tests/architecture/test_layout.py):\n"
                    + "\n".join(missing))  # fmt: skip


def test_no_layer_of_the_device_app_imports_one_above_it() -> None:
    assert layer_violations() == []


def test_the_stages_and_the_shell_stay_short() -> None:
    assert overlong_modules() == []


def test_firmware_keeps_its_loose_modules_few() -> None:
    loose = loose_firmware_modules()
    assert len(loose) <= MAX_LOOSE_FIRMWARE_MODULES, (
        f"{len(loose)} modules directly in firmware/ (at most {MAX_LOOSE_FIRMWARE_MODULES}): "
        f"{', '.join(loose)}; give a group of them a folder of their own"
    )


def test_sim_keeps_its_loose_modules_few() -> None:
    loose = loose_sim_modules()
    assert len(loose) <= MAX_LOOSE_SIM_MODULES, (
        f"{len(loose)} modules directly in sim/ (at most {MAX_LOOSE_SIM_MODULES}): "
        f"{', '.join(loose)}; give a group of them a wing of their own"
    )


def test_no_two_modules_share_a_name() -> None:
    assert shared_basenames() == []


# --- the rules themselves, on small trees ---------------------------------------------------------


def write(root: Path, names: Collection[str], text: str = "") -> Path:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


#: A tree with every layer of the device app, each module empty.
APP = [
    "firmware/__init__.py", "firmware/app/__init__.py", "firmware/app/session/__init__.py",
    "firmware/app/stages/__init__.py", "firmware/app/flow.py", "firmware/app/device.py",
]  # fmt: skip


def test_each_missing_layer_is_named(tmp_path: Path) -> None:
    root = write(tmp_path, ["firmware/app/device.py", "firmware/app/stages/turn.py"])
    assert missing_layers(root) == [
        "firmware/app/session is missing: the package (with its __init__.py) for the session "
        "layer: the game, computer players, journal, setup file",
        "firmware/app/stages is missing: the package (with its __init__.py) for the stages and "
        "overlays",
        "firmware/app/flow.py is missing: the module for the router, the only place a moment "
        "becomes a stage",
    ]
    assert missing_layers(write(tmp_path, APP)) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("firmware/app/session/game.py", "from firmware.app.stages.turn import TurnStage\n",
         "imports firmware.app.stages.turn: "
         "firmware/app/session never imports firmware.app.stages"),
        ("firmware/app/session/game.py", "from .. import flow\n",
         "imports firmware.app.flow: firmware/app/session never imports firmware.app.flow"),
        ("firmware/app/session/deep/bots.py", "def f() -> None:\n    import firmware.app.device\n",
         ":2 imports firmware.app.device: firmware/app/session never imports firmware.app.device"),
        ("firmware/app/stages/turn.py", "from firmware.app import device\n",
         "imports firmware.app.device: firmware/app/stages never imports firmware.app.device"),
        ("firmware/app/stages/turn.py",
         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..flow import Flow\n",
         ":3 imports firmware.app.flow: firmware/app/stages never imports firmware.app.flow"),
    ],
)  # fmt: skip
def test_an_import_into_a_higher_layer_is_reported(
    tmp_path: Path, module: str, source: str, expected: str
) -> None:
    root = write(tmp_path, APP)
    write(root, [module], source)
    (found,) = layer_violations(root)
    assert found.startswith(module) and found.endswith(expected), found


def test_imports_down_the_layers_are_allowed(tmp_path: Path) -> None:
    root = write(tmp_path, APP)
    write(root, ["firmware/app/session/game.py"], "from engine import Game\n")
    write(root, ["firmware/app/stages/turn.py"], "from firmware.app.session import game\n")
    write(root, ["firmware/app/flow.py"], "from .stages import turn\nfrom .session import game\n")
    write(root, ["firmware/app/device.py"], "from firmware.app import flow, stages\n")
    assert layer_violations(root) == []


def test_a_module_over_its_places_limit_is_named(tmp_path: Path) -> None:
    root = write(tmp_path, APP)
    write(root, ["firmware/app/stages/menu.py"], "x = 1\n" * 5)
    write(root, ["firmware/app/stages/turn.py"], "x = 1\n" * 3)
    write(root, ["firmware/app/device.py"], "x = 1\n" * 4)
    limits = {"firmware/app/stages": 4, "firmware/app/device.py": 3, "firmware/app/gone.py": 1}
    assert overlong_modules(root, limits) == [
        "firmware/app/stages/menu.py has 5 lines (at most 4); move out what is not its own",
        "firmware/app/device.py has 4 lines (at most 3); move out what is not its own",
    ]


def test_the_loose_modules_of_firmware_are_counted_without_packages(tmp_path: Path) -> None:
    write(tmp_path, ["firmware/__init__.py", "firmware/app/device.py", "firmware/loop.py",
                     "firmware/config.py", "firmware/web/table.html"])  # fmt: skip
    assert loose_firmware_modules(tmp_path) == ["config", "loop"]


def test_the_loose_modules_of_sim_are_counted_without_its_wings(tmp_path: Path) -> None:
    write(tmp_path, ["sim/__init__.py", "sim/window.py", "sim/fakes.py", "sim/bench/__init__.py",
                     "sim/bench/measure.py", "sim/scripts/demo.txt"])  # fmt: skip
    assert loose_sim_modules(tmp_path) == ["fakes", "window"]


def test_a_shared_name_is_reported_unless_it_is_exempt(tmp_path: Path) -> None:
    root = write(tmp_path, [
        f"{package}/__init__.py" for package in PROJECT
    ] + [
        "engine/rules.py", "firmware/cli/rules.py",  # a subcommand: exempt
        "sim/cli.py", "schockbesteck/cli.py", "schockbesteck/__main__.py",  # package tops
        "engine/bots.py", "firmware/app/bots.py",  # listed
        "hal/clock.py", "sim/deep/clock.py",  # neither
        "firmware/cli/common.py", "sim/common.py",  # common is no subcommand
        "firmware/screen/cli.py", "hal/inner/cli.py", "hal/inner/__main__.py",  # deeper down
    ])  # fmt: skip
    listed: SharedNames = {"bots": ({"engine/bots.py", "firmware/app/bots.py"}, "two meanings")}
    assert shared_basenames(root, subcommands={"rules"}, listed_names=listed) == [
        "cli: firmware/screen/cli.py, hal/inner/cli.py share a name",
        "clock: hal/clock.py, sim/deep/clock.py share a name",
        "common: firmware/cli/common.py, sim/common.py share a name",
    ]
    (tmp_path / "firmware/app/bots.py").unlink()
    assert shared_basenames(root, subcommands={"rules"}, listed_names=listed)[-1] == (
        "bots: engine/bots.py, firmware/app/bots.py no longer share it; unlist it"
    )
