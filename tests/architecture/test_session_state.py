"""The session is closed, and only the session layer writes a game's journal.

``Session`` keeps its state to itself: the stages, the overlays, the shell, the link, the
simulator and the tests read it and change it through its methods (choose the rules, switch
the dice, start a game, ...), never by assigning one of its attributes, nor one of its private
slots on whatever name holds it (``s = session; s._plan = None``). And only
``firmware/app/session/`` (with the store itself) writes a game's journal: no other module of
``firmware/`` calls the game store's writers, and no stage imports the journal, the game store
or the session's evening desk (a stage asks the session for the statistics and the evening).

Read with ``ast``, so a rule can be tried on a small tree in a temporary folder.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path

import pytest

from tests.architecture.importgraph import ROOT, imports, modules, nodes, parsed

#: The session layer: the one place a session's state is assigned and a journal written.
SESSION_LAYER = "firmware/app/session/"
#: What a session object is called where it is used: ``session``, ``self.session``,
#: ``self._session``, ``app._session``.
SESSION_NAMES = {"session", "_session"}
#: The module of the class ``Session``, the one place its private slots are assigned.
SESSION_MODULE = "firmware/app/session/session.py"
#: The device app above the session layer: its stages and overlays, the router, the shell.
ABOVE_THE_SESSION = ("firmware/app/stages/", "firmware/app/flow.py", "firmware/app/device.py")
#: Where a game's journal may be written: the session layer and the store itself.
JOURNAL_HOMES = (SESSION_LAYER, "firmware/store/")
#: The stages and overlays, which import nothing that writes a journal.
STAGES = "firmware/app/stages/"
#: The game store's writers (:class:`~firmware.store.gamestore.GameStore`, and the session's
#: ``Table``). Above the session no class has a method of these names, so there the name of the
#: call is enough; elsewhere in ``firmware/`` (where a set's ``discard`` or the link's Spieltag
#: desk's ``begin`` are no journal's) the call counts when what it is called on names a store or
#: a table (:data:`JOURNAL_HOLDERS`).
JOURNAL_WRITERS = {"begin", "record", "note", "resume", "discard"}
#: The word parts of a name that holds a journal's writer: ``store``, ``app.store``,
#: ``self._store``, ``open_stores(root).games``, ``GameStore(storage)``, ``table``, ``Table(...)``.
JOURNAL_HOLDERS = {"store", "stores", "journal", "table"}
#: What a session would hold its game store by: none of the stages, the router and the shell
#: reaches it (they ask the session: ``keeps_games``, ``statistics()``, ``evening()``, ...).
SESSION_STORES = {"store", "_store", "stores", "_stores"}
#: The modules that know and write a journal's bytes, and the session's desk that reads and
#: writes the evening through the game store.
JOURNAL_MODULES = (
    "firmware.store.journal", "firmware.store.gamestore", "firmware.app.session.evening_desk",
)


def files_of_the_tests(root: Path = ROOT) -> Iterator[Path]:
    """The tests' modules (a test builds a session too)."""
    yield from sorted((root / "tests").rglob("*.py"))


def python_files(root: Path = ROOT) -> Iterator[Path]:
    """The project's modules and the tests'."""
    yield from modules(root)
    yield from files_of_the_tests(root)


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


def session_slots(root: Path = ROOT) -> frozenset[str]:
    """The names in ``Session.__slots__`` (:data:`SESSION_MODULE`): a session has no
    ``__dict__`` and its public names are read-only properties, so these are all that can be
    assigned on one."""
    path = root / SESSION_MODULE
    if not path.is_file():
        return frozenset()
    for node in nodes(path):
        if isinstance(node, ast.ClassDef) and node.name == "Session":
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "__slots__"
                            for t in statement.targets)
                ):
                    value = ast.literal_eval(statement.value)
                    return frozenset([value] if isinstance(value, str) else value)
    return frozenset()


def _on_itself(node: ast.expr) -> bool:
    """Whether ``node`` is ``self`` or ``cls``: an object assigning its own attribute."""
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _attribute_setter(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """The object and the name of a ``setattr``/``delattr``/``object.__setattr__`` call."""
    if not isinstance(node, ast.Call) or len(node.args) < 2:
        return None
    match node.func:
        case ast.Name(id="setattr" | "delattr") | ast.Attribute(
            value=ast.Name(id="object"), attr="__setattr__" | "__delattr__"
        ):
            return node.args[0], node.args[1]
    return None


#: The statements that assign (or delete) a target (:func:`_targets`).
ASSIGNING = (ast.Assign, ast.Delete, ast.AugAssign, ast.AnnAssign)


def session_assignments(root: Path = ROOT, files: Iterable[Path] | None = None) -> list[str]:
    """Every assignment to an attribute of a session, or to something it holds, outside the
    session layer, one line each: ``session.x = ...``, ``self._session.x += ...``,
    ``session.settings.remembered.x = ...``, ``setattr(session, ...)``, ``del``; and outside
    :data:`SESSION_MODULE` every assignment of one of ``Session``'s private slots on anything
    but ``self`` (``s = session; s._plan = None``, ``setattr(s, "_plan", None)``). In ``files``
    (:func:`python_files` unless given)."""
    slots = session_slots(root)
    found = []
    for path in python_files(root) if files is None else files:
        where = path.relative_to(root).as_posix()
        in_the_layer = where.startswith(SESSION_LAYER)
        if where == SESSION_MODULE:
            continue
        for node in nodes(path):
            if not isinstance(node, (*ASSIGNING, ast.Call)):
                continue
            for target in _targets(node):
                held = isinstance(target, ast.Attribute | ast.Subscript)
                if held and not in_the_layer and _through_a_session(target.value):
                    found.append(f"{where}:{node.lineno} assigns {ast.unparse(target)}: "
                                 "change a session through its methods")  # fmt: skip
                elif (
                    isinstance(target, ast.Attribute) and target.attr in slots
                    and not _on_itself(target.value)
                ):
                    found.append(f"{where}:{node.lineno} assigns {ast.unparse(target)}, a "
                                 "session's private slot: change a session through its methods")
            setter = _attribute_setter(node)
            if setter is None:
                continue
            owner, name = setter
            if not in_the_layer and _is_session(owner):
                found.append(f"{where}:{node.lineno} assigns an attribute of "
                             f"{ast.unparse(owner)}: change a session through its methods")
            elif (
                isinstance(name, ast.Constant) and name.value in slots and not _on_itself(owner)
            ):
                found.append(f"{where}:{node.lineno} assigns {name.value} of {ast.unparse(owner)}"
                             ", a session's private slot: change a session through its methods")
    return sorted(found)


def _above_the_session(where: str, places: Collection[str] = ABOVE_THE_SESSION) -> bool:
    return any(where == place or where.startswith(place) for place in places)


def _names_a_holder(node: ast.expr) -> bool:
    """Whether what a call is made on names a store or a table anywhere along it
    (:data:`JOURNAL_HOLDERS`): ``app.store``, ``self._store``, ``stores.games``,
    ``GameStore(storage)``, ``session.require_table()``."""
    while True:
        match node:
            case ast.Name(id=name) | ast.Attribute(attr=name) if (
                _word_parts(name) & JOURNAL_HOLDERS
            ):
                return True
            case ast.Attribute(value=inner) | ast.Subscript(value=inner) | ast.Call(func=inner):
                node = inner
            case _:
                return False


def _word_parts(name: str) -> set[str]:
    """The words of a name, lower case: ``_open_stores`` and ``GameStore`` -> {open, stores},
    {game, store}."""
    return {part.lower() for part in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}


def journal_writers(root: Path = ROOT) -> list[str]:
    """Calls of the game store's writers in ``firmware/`` outside the session layer and the
    store, and a stage's imports of the modules that write a journal, one line each."""
    found = []
    for path in modules(root):
        where = path.relative_to(root).as_posix()
        if not where.startswith("firmware/") or where.startswith(JOURNAL_HOMES):
            continue
        strict = _above_the_session(where)
        for node in nodes(path):
            if (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in JOURNAL_WRITERS
                and (strict or _names_a_holder(node.func.value))
            ):
                found.append(f"{where}:{node.lineno} calls {ast.unparse(node.func)}: only "
                             f"{SESSION_LAYER} writes a game's journal")
            if (
                strict and isinstance(node, ast.Attribute) and node.attr in SESSION_STORES
                and _through_a_session(node.value)
            ):
                found.append(f"{where}:{node.lineno} reads {ast.unparse(node)}: ask the session "
                             "what the games kept say, never its store")
        if not where.startswith(STAGES):
            continue
        for imported in imports(path, root):
            for module in JOURNAL_MODULES:
                if imported.module == module or imported.module.startswith(module + "."):
                    found.append(f"{where}:{imported.line} imports {imported.module}: a stage "
                                 f"reads the games through the session, never its journal")
    return found


@pytest.mark.parametrize(
    "files",
    [
        pytest.param(modules, id="modules"),
        # the tests' own files, parsed for this rule alone: make test reads the project's modules
        pytest.param(files_of_the_tests, id="tests", marks=pytest.mark.slow),
    ],
)
def test_no_module_outside_the_session_layer_assigns_a_session(
    files: Callable[[], Iterator[Path]],
) -> None:
    assert session_assignments(files=files()) == []


def test_only_the_session_layer_writes_a_journal() -> None:
    assert journal_writers() == []


def test_a_session_can_be_assigned_nothing_but_its_slots() -> None:
    """What the slot rule rests on: ``Session`` has no base class (so no ``__dict__``), private
    slots only, and its public names are properties."""
    tree = parsed(ROOT / SESSION_MODULE)
    (session,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session"]
    slots = session_slots()
    assert session.bases == [] and slots and "__dict__" not in slots
    assert all(slot.startswith("_") for slot in slots), slots


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


#: A session module for the small trees: the class and its slots.
SESSION_SOURCE = (
    "class Session:\n    __slots__ = ('_plan', '_table')\n"
    "    def f(self, other):\n        self._plan = None\n        other._table = None\n"
)


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("firmware/app/stages/menu.py", "def f(session):\n    s = session\n    s._plan = None\n",
         "firmware/app/stages/menu.py:3 assigns s._plan, a session's private slot"),
        ("firmware/app/session/resume.py", "def f(session):\n    session._table = None\n",
         "firmware/app/session/resume.py:2 assigns session._table, a session's private slot"),
        ("firmware/app/device.py", "def f(app):\n    del app.s._table\n",
         "firmware/app/device.py:2 assigns app.s._table, a session's private slot"),
        ("tests/firmware/test_fit.py", "def f(s):\n    a, s._plan = 1, 2\n",
         "tests/firmware/test_fit.py:2 assigns s._plan, a session's private slot"),
        ("sim/pictures/match.py", "def f(s):\n    setattr(s, '_plan', None)\n",
         "sim/pictures/match.py:2 assigns _plan of s, a session's private slot"),
        ("firmware/link/hooks.py", "def f(s):\n    object.__setattr__(s, '_table', None)\n",
         "firmware/link/hooks.py:2 assigns _table of s, a session's private slot"),
    ],
)  # fmt: skip
def test_a_private_slot_assigned_on_any_name_is_reported(
    tmp_path: Path, module: str, source: str, expected: str
) -> None:
    root = tree(tmp_path, {
        "sim/__init__.py": "", "firmware/app/session/session.py": SESSION_SOURCE, module: source,
    })  # fmt: skip
    (found,) = session_assignments(root)
    assert found.startswith(expected), found


def test_the_session_layer_and_other_objects_may_be_assigned(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "firmware/app/session/session.py": SESSION_SOURCE,
        "firmware/app/session/resume.py": "def f(session):\n    session.x = 1\n",
        "firmware/app/stages/setup.py": "def f(self, session):\n    self.session = session\n"
                                        "    table = session.table\n    table.game = None\n",
        # another class's own private attributes, and one of the same name on itself
        "engine/game.py": "class Game:\n    def copy(self, other):\n"
                          "        other._turn = None\n",
        "firmware/app/stages/turn.py": "class TurnStage:\n    def f(self):\n"
                                       "        self._plan = None\n",
    })  # fmt: skip
    (root / "engine/__init__.py").write_text("")
    assert session_assignments(root) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("firmware/app/stages/turn.py", "def f(store):\n    store.note(None)\n",
         "firmware/app/stages/turn.py:2 calls store.note: only firmware/app/session/"),
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
        ("firmware/app/stages/standings.py",
         "from firmware.app.session.evening_desk import begin_evening\n",
         "firmware/app/stages/standings.py:1 imports firmware.app.session.evening_desk"),
        ("firmware/app/stages/menu.py", "def f(session):\n    return session.store is None\n",
         "firmware/app/stages/menu.py:2 reads session.store: ask the session"),
        ("firmware/app/stages/notices.py", "def f(self):\n    self.session._store.failure\n",
         "firmware/app/stages/notices.py:2 reads self.session._store: ask the session"),
        ("firmware/app/device.py", "def f(self):\n    return self._session.store.damage\n",
         "firmware/app/device.py:2 reads self._session.store: ask the session"),
        # anywhere else in firmware/, on whatever names a store or a table
        ("firmware/link/hooks.py", "def f(app):\n    store = app.store\n    store.record(None)\n",
         "firmware/link/hooks.py:3 calls store.record: only firmware/app/session/"),
        ("firmware/cli/spieltag.py", "def f(storage):\n    GameStore(storage).discard()\n",
         "firmware/cli/spieltag.py:2 calls GameStore(storage).discard"),
        ("firmware/tournament/reporter.py", "def f(stores):\n    stores.games.begin(None)\n",
         "firmware/tournament/reporter.py:2 calls stores.games.begin"),
        ("firmware/hub/hub.py", "def f(app):\n    app.store.resume(None)\n",
         "firmware/hub/hub.py:2 calls app.store.resume"),
        ("firmware/wiring.py", "def f(self):\n    self._store.note(None)\n",
         "firmware/wiring.py:2 calls self._store.note"),
        ("firmware/link/remote.py", "def f(app):\n    app.session.require_table().record([])\n",
         "firmware/link/remote.py:2 calls app.session.require_table().record"),
    ],
)  # fmt: skip
def test_a_journal_written_outside_the_session_is_reported(
    tmp_path: Path, module: str, source: str, expected: str
) -> None:
    root = tree(tmp_path, {
        "firmware/store/__init__.py": "", "firmware/store/journal.py": "",
        "firmware/store/gamestore.py": "", "firmware/app/session/evening_desk.py": "",
        module: source,
    })  # fmt: skip
    (found,) = journal_writers(root)
    assert found.startswith(expected), found


def test_writers_of_the_same_name_elsewhere_are_not_a_journal(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "firmware/check.py": "def f(self, button):\n    self.down.discard(button)\n",
        "firmware/link/remote.py": "def f(desk, command):\n    desk.begin(command)\n",
        "firmware/store/gamestore.py": "class GameStore:\n    def f(self):\n"
                                       "        self.begin(None)\n",
        "sim/bench/journal.py": "def f(store):\n    store.record(None)\n",
    })  # fmt: skip
    assert journal_writers(root) == []


def test_the_session_layer_writes_and_a_stage_reads(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "firmware/store/__init__.py": "", "firmware/store/gamestore.py": "",
        "firmware/store/stats.py": "",
        "firmware/app/session/session.py": "from firmware.store.gamestore import GameStore\n"
                                           "def f(store):\n    store.begin(None)\n",
        "firmware/app/stages/menu.py": "from firmware.store.stats import PlayerStats\n"
                                       "def f(session):\n    session.statistics()\n"
                                       "    session.require_table().mark(())\n",
        "firmware/app/device.py": "class DeviceApp:\n    def f(self):\n"
                                  "        return self._store\n",
        "firmware/cli/stats.py": "from firmware.store.gamestore import GameStore\n",
    })  # fmt: skip
    assert journal_writers(root) == []
