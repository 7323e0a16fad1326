"""The session is closed, and only the session layer writes a game's journal.

``Session`` keeps its state to itself: the stages, the overlays, the shell, the link, the
simulator and the tests read it and change it through its methods (choose the rules, switch
the dice, start a game, ...), never by assigning one of its attributes. And only
``firmware/app/session/`` writes a game's journal: no stage, no router and no shell calls the
game store's writers, and no stage imports the journal or the game store (a stage reads the
statistics and the evening's standings through the session's store and evening desk).

Read with ``ast``, so a rule can be tried on a small tree in a temporary folder.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from tests.architecture.importgraph import ROOT, imports, modules

#: The session layer: the one place a session's state is assigned and a journal written.
SESSION_LAYER = "firmware/app/session/"
#: What a session object is called where it is used: ``session``, ``self.session``,
#: ``self._session``, ``app._session``.
SESSION_NAMES = {"session", "_session"}
#: The device app above the session layer: its stages and overlays, the router, the shell.
ABOVE_THE_SESSION = ("firmware/app/stages/", "firmware/app/flow.py", "firmware/app/device.py")
#: The stages and overlays, which import nothing that writes a journal.
STAGES = "firmware/app/stages/"
#: The game store's writers (:class:`~firmware.store.gamestore.GameStore`); no stage has a
#: method of these names, so the name of the call is enough.
JOURNAL_WRITERS = {"begin", "record", "note", "resume", "discard"}
#: The modules that know and write a journal's bytes.
JOURNAL_MODULES = ("firmware.store.journal", "firmware.store.gamestore")


def python_files(root: Path = ROOT) -> Iterator[Path]:
    """The project's modules and the tests' (a test builds a session too)."""
    yield from modules(root)
    yield from sorted((root / "tests").rglob("*.py"))


def _is_session(node: ast.expr) -> bool:
    """Whether ``node`` reads a session object by its usual names."""
    if isinstance(node, ast.Name):
        return node.id in SESSION_NAMES
    return isinstance(node, ast.Attribute) and node.attr in SESSION_NAMES


def _through_a_session(node: ast.expr) -> bool:
    """Whether ``node`` is a session or something held in one: ``session``,
    ``session.settings.remembered``, ``self._session.plan[0]``."""
    while True:
        if _is_session(node):
            return True
        if not isinstance(node, ast.Attribute | ast.Subscript):
            return False
        node = node.value


def _targets(node: ast.AST) -> Iterator[ast.expr]:
    """What a statement assigns (or deletes), tuples and starred targets unpacked."""
    if isinstance(node, ast.Assign | ast.Delete):
        pending = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        pending = [node.target]
    else:
        pending = []
    while pending:
        target = pending.pop()
        if isinstance(target, ast.Tuple | ast.List):
            pending.extend(target.elts)
        elif isinstance(target, ast.Starred):
            pending.append(target.value)
        else:
            yield target


def session_assignments(root: Path = ROOT) -> list[str]:
    """Every assignment to an attribute of a session, or to something it holds, outside the
    session layer, one line each: ``session.x = ...``, ``self._session.x += ...``,
    ``session.settings.remembered.x = ...``, ``setattr(session, ...)``, ``del``."""
    found = []
    for path in python_files(root):
        where = path.relative_to(root).as_posix()
        if where.startswith(SESSION_LAYER):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node):
                held = isinstance(target, ast.Attribute | ast.Subscript)
                if held and _through_a_session(target.value):
                    found.append(f"{where}:{node.lineno} assigns {ast.unparse(target)}: "
                                 "change a session through its methods")  # fmt: skip
            if (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("setattr", "delattr") and node.args
                and _is_session(node.args[0])
            ):
                found.append(f"{where}:{node.lineno} assigns an attribute of "
                             f"{ast.unparse(node.args[0])}: change a session through its methods")
    return sorted(found)


def _above_the_session(where: str, places: Collection[str] = ABOVE_THE_SESSION) -> bool:
    return any(where == place or where.startswith(place) for place in places)


def journal_writers(root: Path = ROOT) -> list[str]:
    """Calls of the game store's writers above the session layer, and a stage's imports of
    the modules that write a journal, one line each."""
    found = []
    for path in modules(root):
        where = path.relative_to(root).as_posix()
        if not _above_the_session(where):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in JOURNAL_WRITERS
            ):
                found.append(f"{where}:{node.lineno} calls {ast.unparse(node.func)}: only "
                             f"{SESSION_LAYER} writes a game's journal")
        if not where.startswith(STAGES):
            continue
        for imported in imports(path, root):
            for module in JOURNAL_MODULES:
                if imported.module == module or imported.module.startswith(module + "."):
                    found.append(f"{where}:{imported.line} imports {imported.module}: a stage "
                                 f"reads the games through the session, never its journal")
    return found


def test_no_module_outside_the_session_layer_assigns_a_session() -> None:
    assert session_assignments() == []


def test_only_the_session_layer_writes_a_journal() -> None:
    assert journal_writers() == []


# --- the rules themselves, on small trees ---------------------------------------------------------


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"firmware/__init__.py": "", "tests/__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("firmware/app/stages/table_card.py", "def play(session):\n    session.seat_bots = ()\n",
         "firmware/app/stages/table_card.py:2 assigns session.seat_bots"),
        ("firmware/app/device.py", "class A:\n    def f(self):\n        self._session.now = 1\n",
         "firmware/app/device.py:3 assigns self._session.now"),
        ("firmware/app/stages/menu.py", "def f(self):\n    self.session.contrast += 8\n",
         "firmware/app/stages/menu.py:2 assigns self.session.contrast"),
        ("firmware/app/stages/setup.py", "def f(session):\n    a, session.plan = 1, 2\n",
         "firmware/app/stages/setup.py:2 assigns session.plan"),
        ("firmware/app/stages/setup.py", "def f(session):\n    session.bots: tuple = ()\n",
         "firmware/app/stages/setup.py:2 assigns session.bots"),
        ("sim/pictures/match.py", "def f(session):\n    setattr(session, 'catalogue', 1)\n",
         "sim/pictures/match.py:2 assigns an attribute of session"),
        ("tests/firmware/test_fit.py", "def f(app):\n    app._session.catalogue = None\n",
         "tests/firmware/test_fit.py:2 assigns app._session.catalogue"),
        ("firmware/app/stages/menu.py", "def f(session):\n    session.settings.remembered.x = 1\n",
         "firmware/app/stages/menu.py:2 assigns session.settings.remembered.x"),
    ],
)  # fmt: skip
def test_an_assignment_to_a_session_is_reported(
    tmp_path: Path, module: str, source: str, expected: str
) -> None:
    root = tree(tmp_path, {"sim/__init__.py": "", module: source})
    (found,) = session_assignments(root)
    assert found.startswith(expected), found


def test_the_session_layer_and_other_objects_may_be_assigned(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "firmware/app/session/session.py": "class Session:\n    def f(self):\n"
                                           "        self._plan = None\n",
        "firmware/app/session/resume.py": "def f(session):\n    session.x = 1\n",
        "firmware/app/stages/setup.py": "def f(self, session):\n    self.session = session\n"
                                        "    table = session.table\n    table.game = None\n",
    })  # fmt: skip
    assert session_assignments(root) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("firmware/app/stages/turn.py", "def f(session):\n    session.store.note(None)\n",
         "firmware/app/stages/turn.py:2 calls session.store.note: only firmware/app/session/"),
        ("firmware/app/device.py", "def f(store):\n    store.discard()\n",
         "firmware/app/device.py:2 calls store.discard"),
        ("firmware/app/flow.py", "def f(table):\n    table.record([])\n",
         "firmware/app/flow.py:2 calls table.record"),
        ("firmware/app/stages/entry.py", "from firmware.store.journal import EntryNote\n",
         "firmware/app/stages/entry.py:1 imports firmware.store.journal: a stage reads"),
        ("firmware/app/stages/menu.py",
         "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
         "    from firmware.store import gamestore\n",
         "firmware/app/stages/menu.py:3 imports firmware.store.gamestore"),
    ],
)  # fmt: skip
def test_a_journal_written_above_the_session_is_reported(
    tmp_path: Path, module: str, source: str, expected: str
) -> None:
    root = tree(tmp_path, {
        "firmware/store/__init__.py": "", "firmware/store/journal.py": "",
        "firmware/store/gamestore.py": "", module: source,
    })  # fmt: skip
    (found,) = journal_writers(root)
    assert found.startswith(expected), found


def test_the_session_layer_writes_and_a_stage_reads(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "firmware/store/__init__.py": "", "firmware/store/gamestore.py": "",
        "firmware/store/stats.py": "",
        "firmware/app/session/session.py": "from firmware.store.gamestore import GameStore\n"
                                           "def f(store):\n    store.begin(None)\n",
        "firmware/app/stages/menu.py": "from firmware.store.stats import PlayerStats\n"
                                       "def f(session):\n    session.store.stats()\n"
                                       "    session.require_table().mark(())\n",
        "firmware/cli/stats.py": "from firmware.store.gamestore import GameStore\n",
    })  # fmt: skip
    assert journal_writers(root) == []
