"""Every project module's imports, read with ``ast``: the one walker the architecture tests share.

Every import statement counts, wherever it is: at the top of a module, under
``if TYPE_CHECKING:``, inside a function. Relative imports are resolved, and
``from package import name`` names the submodule ``package.name`` when there is one (else the
package). An import hidden in a string (``importlib.import_module("...")``, ``__import__``) is
reported too, marked ``hidden``.

Each function takes the tree's ``root``, so a rule can be tried on a small tree in a temporary
folder. Every rule reads a module's syntax through :func:`parsed` and :func:`nodes`: each source
is parsed and walked once per process, whichever rules read it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("engine", "hal", "firmware", "sim", "schockbesteck")
#: Calls that import a module named by a string.
STRING_IMPORTERS = {"import_module", "__import__"}


@dataclass(frozen=True, slots=True)
class Import:
    """One import of a module: where, what, and whether it hides in a string."""

    line: int
    module: str
    hidden: bool = False


def modules(root: Path = ROOT) -> Iterator[Path]:
    """Every module file of the project's packages, package by package."""
    for package in PROJECT:
        yield from sorted((root / package).rglob("*.py"))


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module in ``path``: ``firmware/app/__init__.py`` is
    ``firmware.app``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str, root: Path = ROOT) -> bool:
    """Whether ``dotted`` names a module or package of the project under ``root`` (looked up
    once per process: a tree is written before its imports are read)."""
    return _is_module(dotted, root)


@functools.cache
def _is_module(dotted: str, root: Path) -> bool:
    parts = dotted.split(".")
    if parts[0] not in PROJECT:
        return False
    here = root.joinpath(*parts)
    return here.with_suffix(".py").is_file() or (here / "__init__.py").is_file()


def imports(path: Path, root: Path = ROOT) -> Iterator[Import]:
    """Every import in ``path``: statements (relative ones resolved) and string imports."""
    package = list(path.relative_to(root).parent.parts)
    for node in _import_nodes(path.read_text(encoding="utf-8")):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            named = set()
            for alias in node.names:
                submodule = f"{source}.{alias.name}" if source else alias.name
                named.add(submodule if is_module(submodule, root) or not source else source)
            for module in sorted(named):
                yield Import(node.lineno, module)
        elif isinstance(node, ast.Call):
            first = node.args[0] if node.args else None
            module = "a computed name"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                module = first.value
            yield Import(node.lineno, module, hidden=True)


def parsed(path: Path) -> ast.Module:
    """The syntax tree of the module in ``path``, parsed once per process for each source text
    (a rule only reads it)."""
    return _parsed(path.read_text(encoding="utf-8"))


def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the module in ``path``, in :func:`ast.walk`'s order, walked once per
    process for each source text."""
    return _walked(path.read_text(encoding="utf-8"))


@functools.cache
def _parsed(source: str) -> ast.Module:
    return ast.parse(source)


@functools.cache
def _walked(source: str) -> tuple[ast.AST, ...]:
    """:func:`ast.walk`'s nodes in its order (breadth first), without its generators."""
    found: list[ast.AST] = [_parsed(source)]
    for node in found:  # grows as it goes: each node's children join the end
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                found.append(value)
            elif isinstance(value, list):
                found.extend(item for item in value if isinstance(item, ast.AST))
    return tuple(found)


@functools.cache
def _import_nodes(source: str) -> tuple[ast.Import | ast.ImportFrom | ast.Call, ...]:
    """The import statements and string-importing calls of a module's ``source``, found once
    per process (every rule walks every module; the names are resolved afresh each time)."""
    return tuple(
        node
        for node in _walked(source)
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.Call) and called_name(node.func) in STRING_IMPORTERS)
    )


def called_name(function: ast.expr) -> str | None:
    """The name a call is made by: ``f`` for ``f(...)`` and for ``x.f(...)``."""
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def project_module(dotted: str, root: Path = ROOT) -> str | None:
    """The project module an import of ``dotted`` loads last: the longest prefix that is one.

    ``import firmware.app.turn`` loads ``firmware.app.turn``; the packages on the way are run
    by every import of a submodule and are not counted as its dependencies.
    """
    while dotted and not is_module(dotted, root):
        dotted = dotted.rpartition(".")[0]
    return dotted or None


@dataclass(frozen=True, slots=True)
class Edge:
    """``source`` imports ``target``, first at ``where`` (``path:line``)."""

    source: str
    target: str
    where: str


def import_graph(root: Path = ROOT) -> dict[str, dict[str, Edge]]:
    """Each project module and the project modules it imports (hidden imports included)."""
    graph: dict[str, dict[str, Edge]] = {}
    for path in modules(root):
        source = module_name(path, root)
        edges = graph.setdefault(source, {})
        for found in imports(path, root):
            target = project_module(found.module, root)
            if target is not None and target not in edges:
                where = f"{path.relative_to(root).as_posix()}:{found.line}"
                edges[target] = Edge(source, target, where)
    return graph


def cycles(graph: dict[str, dict[str, Edge]]) -> list[list[str]]:
    """The import cycles: each strongly connected component of more than one module, and each
    module that imports itself; sorted names, smallest first module first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm; the graph is ~100 modules deep at most
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, {})):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in graph.get(module, {}):
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)
