"""No import cycles among the project's modules, whatever kind of import closes them.

Every import counts (:mod:`tests.architecture.importgraph`): one under ``if TYPE_CHECKING:`` or
inside a function still ties the two modules together for a reader, for a refactoring and for
the type checker, even where Python would load them in either order. A cycle is a strongly
connected component of more than one module, or a module that imports itself; the failure names
each one with the imports that close it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.architecture.importgraph import ROOT, Edge, cycles, import_graph


def cycle_report(root: Path = ROOT) -> list[str]:
    """One paragraph per cycle: its modules, then each import between them and where it is."""
    graph = import_graph(root)
    report = []
    for cycle in cycles(graph):
        members = set(cycle)
        ties: list[Edge] = [
            edge
            for module in cycle
            for target, edge in sorted(graph[module].items())
            if target in members
        ]
        lines = [f"cycle of {len(cycle)} module(s): {', '.join(cycle)}"]
        lines += [f"  {edge.source} -> {edge.target} ({edge.where})" for edge in ties]
        report.append("\n".join(lines))
    return report


def test_no_module_imports_itself_through_any_chain_of_imports() -> None:
    report = cycle_report()
    if report:
        pytest.fail("import cycles:\n" + "\n".join(report))


# --- the rule itself, on small trees --------------------------------------------------------------


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_closed_by_a_type_checking_import_and_a_local_one_is_named_with_its_edges(
    tmp_path: Path,
) -> None:
    root = write(tmp_path, {
        "sim/__init__.py": "",
        "sim/a.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import sim.b\n",
        "sim/b.py": "def later() -> None:\n    from sim import a\n",
        "sim/c.py": "import sim.a\n",
    })  # fmt: skip
    assert cycle_report(root) == [
        "cycle of 2 module(s): sim.a, sim.b\n"
        "  sim.a -> sim.b (sim/a.py:4)\n"
        "  sim.b -> sim.a (sim/b.py:2)"
    ]


def test_relative_imports_and_imported_submodules_are_resolved(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "firmware/__init__.py": "",
        "firmware/app/__init__.py": "",
        "firmware/app/one.py": "from . import two\n",
        "firmware/app/two.py": "from ..app.three import X\n",
        "firmware/app/three.py": "from firmware.app import one\nX = 1\n",
    })  # fmt: skip
    (report,) = cycle_report(root)
    assert report.splitlines() == [
        "cycle of 3 module(s): firmware.app.one, firmware.app.three, firmware.app.two",
        "  firmware.app.one -> firmware.app.two (firmware/app/one.py:1)",
        "  firmware.app.three -> firmware.app.one (firmware/app/three.py:1)",
        "  firmware.app.two -> firmware.app.three (firmware/app/two.py:1)",
    ]


def test_a_name_from_a_package_ties_to_its_init_and_a_self_import_is_a_cycle(
    tmp_path: Path,
) -> None:
    root = write(tmp_path, {
        "hal/__init__.py": "from hal.ports import Clock\n",
        "hal/ports.py": "from hal import Clock as Again\n",
        "engine/__init__.py": "",
        "engine/game.py": "import engine.game\n",
    })  # fmt: skip
    assert cycle_report(root) == [
        "cycle of 1 module(s): engine.game\n  engine.game -> engine.game (engine/game.py:1)",
        "cycle of 2 module(s): hal, hal.ports\n"
        "  hal -> hal.ports (hal/__init__.py:1)\n"
        "  hal.ports -> hal (hal/ports.py:1)",
    ]


def test_imports_that_only_point_down_are_no_cycle(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "engine/__init__.py": "",
        "engine/rules.py": "import json\n",
        "engine/game.py": "from engine import rules\nfrom . import rules as again\n",
        "firmware/__init__.py": "",
        "firmware/app.py": "import engine.game\nfrom engine.rules import Rules\n",
    })  # fmt: skip
    assert cycle_report(root) == []
    assert set(import_graph(root)["firmware.app"]) == {"engine.game", "engine.rules"}
