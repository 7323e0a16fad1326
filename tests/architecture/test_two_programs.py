"""The tournament's hub and the device are two programs on shared parts: neither imports the
other's insides, directly or through any chain of imports.

The hub is ``firmware/hub/`` and its command line ``firmware/cli/hub.py``; the device's insides
are its app, link, screen, store and wiring, and its side of a tournament (the reporter, its
outbox, the recount of its journals). What both need lives below both (docs/architecture.md):
the engine, the wire contract (``firmware/wire/``), the sheet writer (``firmware/report/``), the
name rule (``firmware/names.py``), a user's file (``firmware/userfile.py``) and the words.

An import counts with everything it runs: the module, every package on its way (a package's
``__init__`` runs on import), and all they import in turn, statements inside functions and under
``TYPE_CHECKING`` included (:mod:`tests.architecture.importgraph`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import pytest

from tests.architecture.importgraph import ROOT, Edge, import_graph

#: The hub: its package and its command line.
HUB = ("firmware.hub", "firmware.cli.hub", "firmware.cli.hub_desk")
#: The device's insides, which the hub never reaches.
DEVICE = (
    "firmware.app",
    "firmware.link",
    "firmware.screen",
    "firmware.store",
    "firmware.wiring",
    "firmware.tournament.reporter",
    "firmware.tournament.outbox",
    "firmware.tournament.recount",
)


def _within(module: str, prefixes: Collection[str]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def _packages(module: str) -> list[str]:
    """The packages an import of ``module`` runs first: ``firmware``, ``firmware.hub``, ..."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def _reached(
    graph: Mapping[str, Mapping[str, Edge]], start: str, stop: Callable[[str], bool]
) -> dict[str, str | None]:
    """Every module an import of ``start`` runs, each with the module that brought it in; a
    module ``stop`` names is reached but not followed (the first step over the border is the
    one to name)."""
    came_from: dict[str, str | None] = {start: None}
    queue = [start]
    while queue:
        module = queue.pop(0)
        if module != start and stop(module):
            continue
        # An import runs the packages on the way to its module first; the start's own too.
        targets = [*_packages(module)] if module == start else []
        for imported in graph.get(module, {}):
            targets += [*_packages(imported), imported]
        for target in targets:
            if target in graph and target not in came_from:
                came_from[target] = module
                queue.append(target)
    return came_from


def _chain(came_from: Mapping[str, str | None], end: str) -> str:
    chain = [end]
    while (before := came_from[chain[-1]]) is not None:
        chain.append(before)
    return " -> ".join(reversed(chain))


def crossings(
    root: Path = ROOT,
    hub: Collection[str] = HUB,
    device: Collection[str] = DEVICE,
) -> list[str]:
    """Each way one program reaches the other's insides, as its chain of imports."""
    graph = import_graph(root)

    def insides(module: str) -> bool:
        return _within(module, device)

    def hubs(module: str) -> bool:
        return _within(module, hub)

    found = []
    for module in sorted(graph):
        if hubs(module):
            side, across = "the hub reaches the device", insides
        elif _within(module, device):
            side, across = "the device reaches the hub", hubs
        else:
            continue
        came_from = _reached(graph, module, across)
        over = [other for other in came_from if other != module and across(other)]
        # A package on the way to a module over the border is named by that module's chain.
        found += [
            f"{side}: {_chain(came_from, other)}"
            for other in over
            if not any(deeper.startswith(other + ".") for deeper in over)
        ]
    return found


def test_neither_program_imports_the_others_insides() -> None:
    assert crossings() == []


# --- the rule itself, on small trees -------------------------------------------------------------


def write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


PACKAGES = {
    name: ""
    for name in (
        "firmware/__init__.py", "firmware/hub/__init__.py", "firmware/report/__init__.py",
        "firmware/store/__init__.py", "firmware/screen/__init__.py", "firmware/cli/__init__.py",
    )
}  # fmt: skip


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (  # through a shared part that borrows from the device
            {"firmware/hub/pages.py": "from firmware.report.sheet import x\n",
             "firmware/report/sheet.py": "def f():\n    from firmware.store import journal\n",
             "firmware/store/journal.py": ""},
            ["the hub reaches the device: firmware.hub.pages -> firmware.report.sheet -> "
             "firmware.store.journal"],
        ),
        (  # through a package's __init__, which runs on the way to its module
            {"firmware/hub/pages.py": "import firmware.report.sheet\n",
             "firmware/report/__init__.py": "from firmware.store import journal\n",
             "firmware/report/sheet.py": "", "firmware/store/journal.py": ""},
            ["the hub reaches the device: firmware.hub.pages -> firmware.report -> "
             "firmware.store.journal"],
        ),
        (  # the device's side, under TYPE_CHECKING
            {"firmware/store/journal.py":
             "from typing import TYPE_CHECKING\n"
             "if TYPE_CHECKING:\n    from firmware.hub import hub\n",
             "firmware/hub/hub.py": ""},
            ["the device reaches the hub: firmware.store.journal -> firmware.hub.hub"],
        ),
        (  # the hub's command line is the hub
            {"firmware/cli/hub.py": "from firmware.screen import font\n",
             "firmware/screen/font.py": ""},
            ["the hub reaches the device: firmware.cli.hub -> firmware.screen.font"],
        ),
        (  # the OLED's words are the device's: the hub has its own
            {"firmware/hub/pages.py": "from firmware.screen.oled_words import OledWords\n",
             "firmware/screen/oled_words.py": ""},
            ["the hub reaches the device: firmware.hub.pages -> firmware.screen.oled_words"],
        ),
    ],
)  # fmt: skip
def test_a_crossing_is_reported_with_its_chain(
    tmp_path: Path, files: dict[str, str], expected: list[str]
) -> None:
    root = write(tmp_path, {**PACKAGES, **files})
    assert crossings(root) == expected
