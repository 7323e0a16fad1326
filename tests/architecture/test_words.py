"""Words by surface: each surface looks up only words of the homes it composes, every word of a
home is looked up somewhere, keys are written literally, and no surface imports another's home.

One mechanism (:mod:`firmware.words`) is below every surface; each surface's words live in a home
of its own (docs/architecture.md lists them), and its catalogue composes them with the shared
ones. The code is read with ``ast`` (the pages' HTML as text): a lookup is a call of ``t``,
``say`` or ``_say``, its key its first argument; a key written anywhere else (a table from a
value to its key, an overlay's title) counts as a use too. The device never imports the hub's
words and the hub none of the device's.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import pytest

from firmware.cli.cli_words import CliWords
from firmware.hub.hub_words import HubWords, TvWords
from firmware.link.page_words import PageWords
from firmware.report.sheet_words import SheetWords
from firmware.screen.oled_words import OledWords
from firmware.words import Catalogue
from sim.sim_words import SimWords
from tests.architecture.importgraph import ROOT, imports, module_name, modules, parsed

#: The homes, each a module holding one dict of words (key -> (German, English)) by this name.
HOMES = {
    "firmware/screen/oled_words.py": "OLED_WORDS",
    "firmware/report/sheet_words.py": "SHEET_WORDS",
    "firmware/link/page_words.py": "PAGE_WORDS",
    "firmware/hub/hub_words.py": "HUB_WORDS",
    "firmware/cli/cli_words.py": "CLI_WORDS",
    "sim/sim_words.py": "SIM_WORDS",
}
#: The names of calls that look a word up.
LOOKUPS = {"t", "say", "_say"}
#: What is no use of a word: a home itself, the lists it borrows, a module's public names.
NOT_A_USE = re.compile(r".*_WORDS|FROM_THE_.*|FOR_THE_.*|__all__")
#: Quoted strings of a page that are named like a word but are none: the link protocol's event
#: kinds (docs/protocol.md) the page tells apart.
PAGE_NON_WORDS = {"penalty_given"}
#: A key's shape; a built key's literal start ends in "_".
KEY = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")
KEY_START = re.compile(r"[a-z][a-z0-9_]*_")


@dataclass(frozen=True)
class Surface:
    """Where a surface's code lives (folders end in "/"; the longest match wins), the
    catalogues it looks its words up in, and its browser page with that page's catalogue."""

    places: tuple[str, ...]
    catalogues: tuple[type[Catalogue], ...]
    page: tuple[str, type[Catalogue]] | None = None

    def words(self) -> frozenset[str]:
        """Every key the surface may look up."""
        return _words_of(self.catalogues)


@cache
def _words_of(catalogues: tuple[type[Catalogue], ...]) -> frozenset[str]:
    return frozenset(key for catalogue in catalogues for key in catalogue.WORDS)


SURFACES = {
    "the OLED": Surface(
        ("firmware/app/", "firmware/screen/", "firmware/store/", "firmware/advice.py",
         "firmware/check.py"),
        (OledWords,),
    ),
    # the page composes the rules screen's words for its setup (firmware.screen.rulestext)
    "the table's page": Surface(
        ("firmware/link/",), (PageWords, OledWords), ("firmware/link/web/table.html", PageWords)
    ),
    "the sheet": Surface(("firmware/report/",), (SheetWords,)),
    "the hub": Surface(
        ("firmware/hub/", "firmware/cli/hub.py", "firmware/cli/hub_desk.py"), (HubWords, TvWords),
        ("firmware/hub/web/tv.html", TvWords),
    ),
    # the command line prints a rules screen's words (`schocken rules`) and draws the error screen
    "the command line": Surface(("firmware/cli/",), (CliWords, OledWords)),
    "the simulator": Surface(("sim/",), (SimWords, OledWords)),
}  # fmt: skip


def surface_of(where: str) -> str | None:
    """The surface whose place names ``where`` most closely, or None."""
    matches = [
        (len(place), name) for name, surface in SURFACES.items() for place in surface.places
        if where == place or (place.endswith("/") and where.startswith(place))
    ]  # fmt: skip
    return max(matches)[1] if matches else None


@cache
def homes() -> dict[str, dict[str, tuple[str, str]]]:
    """Each home's words, read from its module with ``ast`` (no import)."""
    found = {}
    for where, name in HOMES.items():
        tree = parsed(ROOT / where)
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == name:
                assert node.value is not None
                found[where] = ast.literal_eval(node.value)
    assert set(found) == set(HOMES), "every home holds one dict of words"
    return found


@cache
def every_key() -> dict[str, str]:
    """Every key of every home -> the home's module."""
    return {key: where for where, words in homes().items() for key in words}


@dataclass(frozen=True)
class Lookup:
    """A call that looks a word up: where, and its key (None: not written there)."""

    line: int
    key: str | None


@dataclass(frozen=True)
class Module:
    """What a module of the firmware or the simulator does with words, read in one walk."""

    where: str
    surface: str | None
    lookups: tuple[Lookup, ...]
    #: Every string literal, but for a home and the lists it borrows.
    uses: frozenset[str]
    #: Where it builds a key, one line each.
    built: tuple[str, ...]


@cache
def code() -> tuple[Module, ...]:
    """Every module of the firmware and the simulator."""
    found = []
    for path in modules(ROOT):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(("firmware/", "sim/")):
            found.append(read(where, parsed(path)))
    return tuple(found)


def read(where: str, tree: ast.Module) -> Module:
    """The lookups, the literals and the built keys of the module ``tree`` at ``where``."""
    skipped: set[int] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else []
        )  # fmt: skip
        if any(isinstance(t, ast.Name) and NOT_A_USE.fullmatch(t.id) for t in targets):
            skipped |= {id(inner) for inner in ast.walk(node)}
    found: list[Lookup] = []
    uses: set[str] = set()
    built: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skipped:
                uses.add(node.value)
        elif isinstance(node, ast.Call) and _called(node) in LOOKUPS and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.JoinedStr | ast.BinOp | ast.Call):
                built.append(f"{where}:{node.lineno} looks up a built key")
            keys = _keys_of(argument)
            found += [Lookup(node.lineno, key) for key in (keys if keys is not None else [None])]
        elif isinstance(node, ast.JoinedStr | ast.BinOp) and _built(node):
            built.append(f"{where}:{node.lineno} builds a key: {ast.unparse(node)}")
    return Module(where, surface_of(where), tuple(found), frozenset(uses), tuple(built))


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _keys_of(node: ast.expr) -> list[str] | None:
    """The keys an argument names: a literal, or the literals of ``a if c else b`` and of
    ``x or "key"``; None if it names none itself (a variable, a table's value)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return [*(_keys_of(node.body) or []), *(_keys_of(node.orelse) or [])]
    if isinstance(node, ast.BoolOp):
        return [key for value in node.values for key in (_keys_of(value) or [])]
    return None


def _built(node: ast.JoinedStr | ast.BinOp) -> bool:
    """Whether ``node`` builds a string from a literal start that begins a key: an f-string or a
    sum ``"prefix_" + x``."""
    start: object = None
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        start = first.value if isinstance(first, ast.Constant) else None
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        start = node.left.value if isinstance(node.left, ast.Constant) else None
    if not isinstance(start, str) or not KEY_START.fullmatch(start):
        return False
    return any(key.startswith(start) for key in every_key())


def page_keys(where: str) -> set[str]:
    """The keys a page's HTML names: in ``t("...")``, or as any quoted string that is a key of a
    home (``data-t="..."``, a table from a value to its key)."""
    text = (ROOT / where).read_text(encoding="utf-8")
    quoted = set(re.findall(r"""["']([a-z][a-z0-9_]*)["']""", text))
    called = set(re.findall(r"""\bt\(\s*["']([a-z0-9_]+)["']""", text))
    return called | (quoted & set(every_key())) - PAGE_NON_WORDS


def used_by(name: str) -> set[str]:
    """Every literal of a surface's code and its page."""
    surface = SURFACES[name]
    used = set().union(*(module.uses for module in code() if module.surface == name))
    return used | (page_keys(surface.page[0]) if surface.page is not None else set())


# --- the checks ---------------------------------------------------------------------------------


def test_every_lookup_finds_its_word_in_a_home_its_surface_composes() -> None:
    missing = []
    for module in code():
        for lookup in module.lookups:
            if lookup.key is None:
                continue
            at = f"{module.where}:{lookup.line}"
            if module.surface is None:
                missing.append(f"{at} looks up {lookup.key!r} outside every surface")
            elif lookup.key not in SURFACES[module.surface].words():
                missing.append(f"{at}: {lookup.key!r} is no word of {module.surface}")
    assert missing == []


def test_no_surface_names_a_word_of_a_home_it_does_not_compose() -> None:
    keys = every_key()
    found = []
    for module in code():
        own = SURFACES[module.surface].words() if module.surface else frozenset()
        foreign = {key for key in module.uses & set(keys) if KEY.fullmatch(key)} - own
        found += [f"{module.where} names {key!r} of {keys[key]}" for key in sorted(foreign)]
    assert found == []


def test_each_page_finds_every_word_it_names_in_what_it_is_sent() -> None:
    for name, surface in SURFACES.items():
        if surface.page is not None:
            where, catalogue = surface.page
            unknown = page_keys(where) - set(catalogue.WORDS)
            assert not unknown, f"{where} ({name}) names words it is not sent: {sorted(unknown)}"


def test_every_word_of_a_home_is_looked_up_by_a_surface_that_composes_it() -> None:
    used = {name: used_by(name) for name in SURFACES}
    dead = [
        f"{key} ({where})" for key, where in every_key().items()
        if not any(key in used[name] and key in SURFACES[name].words() for name in SURFACES)
    ]  # fmt: skip
    assert dead == [], "words nobody looks up"


def test_what_a_surface_borrows_of_another_it_shows() -> None:
    """A catalogue that borrows a few words of another home (not the whole home) uses each."""
    whole = _imported_homes()
    for name, surface in SURFACES.items():
        used = used_by(name)
        for catalogue in surface.catalogues:
            for home in catalogue.HOMES:
                if not any(home is words for words in whole):
                    unused = sorted(set(home) - used)
                    assert not unused, f"{catalogue.__name__} borrows {unused}, unused by {name}"


def _imported_homes() -> list[Mapping[str, tuple[str, str]]]:
    """The homes themselves, as the catalogues hold them."""
    return [getattr(importlib.import_module(module_name(ROOT / where)), name)
            for where, name in HOMES.items()]  # fmt: skip


def test_no_key_is_built() -> None:
    built = [line for module in code() for line in module.built]
    for surface in SURFACES.values():
        if surface.page is not None:
            text = (ROOT / surface.page[0]).read_text(encoding="utf-8")
            for start in re.findall(r"""["'`]([a-z][a-z0-9_]*_)(?:["']\s*\+|\$\{)""", text):
                if any(key.startswith(start) for key in every_key()):
                    built.append(f"{surface.page[0]} builds a key from {start!r}")
    assert built == []


def test_no_key_is_in_two_homes_and_every_word_has_both_languages() -> None:
    seen: dict[str, str] = {}
    for where, words in homes().items():
        for key, (german, english) in words.items():
            assert key not in seen, f"{key} in {seen.get(key)} and {where}"
            seen[key] = where
            assert german and english, key
            placeholders = [set(re.findall(r"{(\w+)", text)) for text in (german, english)]
            assert placeholders[0] == placeholders[1], key


def test_each_surface_imports_only_the_homes_it_composes() -> None:
    allowed = {name: _homes_composed(surface) for name, surface in SURFACES.items()}
    home_of = {module_name(ROOT / where): where for where in HOMES}
    found = []
    for module in code():
        where, surface = module.where, module.surface
        for imported in imports(ROOT / where, ROOT):
            home = home_of.get(imported.module)
            if home is None or home == where:
                continue
            if surface is None or home not in allowed[surface]:
                found.append(f"{where}:{imported.line} imports {imported.module} "
                             f"({surface or 'no surface'} does not compose it)")  # fmt: skip
    assert found == []


def _homes_composed(surface: Surface) -> set[str]:
    """The homes' modules whose words a surface's catalogues hold (each home a whole or in
    part): a word's home is the module that holds it."""
    keys = every_key()
    return {keys[key] for catalogue in surface.catalogues for key in catalogue.WORDS}


@pytest.mark.parametrize(
    ("device", "hub"), [("the OLED", "the hub"), ("the table's page", "the hub")]
)
def test_the_device_composes_none_of_the_hubs_words_nor_the_hub_the_devices(
    device: str, hub: str
) -> None:
    device_homes, hub_homes = _homes_composed(SURFACES[device]), _homes_composed(SURFACES[hub])
    assert "firmware/hub/hub_words.py" not in device_homes
    assert not hub_homes & {"firmware/screen/oled_words.py", "firmware/link/page_words.py",
                            "firmware/cli/cli_words.py"}  # fmt: skip
    assert device_homes & hub_homes == {"firmware/report/sheet_words.py"}, "below both"


# --- the rules themselves, on small cases -------------------------------------------------------


def test_a_built_key_and_a_lookup_of_one_are_found() -> None:
    source = 'key = f"rule_{name}_on"\ntexts.t("hub_kind_" + kind)\nfine = f"{n}/{m}"\n'
    assert sorted(read("firmware/x.py", ast.parse(source)).built) == [
        "firmware/x.py:1 builds a key: f'rule_{name}_on'",
        "firmware/x.py:2 builds a key: 'hub_kind_' + kind",
        "firmware/x.py:2 looks up a built key",
    ]


def test_a_lookup_names_the_keys_of_both_branches_and_none_of_a_variable() -> None:
    source = 't("scharf_now" if now else "scharf_next", n=1)\nsay(key)\nx.t(a or "bot_thinks")\n'
    assert read("sim/x.py", ast.parse(source)).lookups == (
        Lookup(1, "scharf_now"), Lookup(1, "scharf_next"), Lookup(2, None),
        Lookup(3, "bot_thinks"),
    )


def test_the_longest_place_decides_the_surface() -> None:
    assert surface_of("firmware/cli/hub.py") == "the hub"
    assert surface_of("firmware/cli/replay.py") == "the command line"
    assert surface_of("firmware/wiring.py") is None


def test_a_home_its_borrowed_lists_and_public_names_are_no_use_of_their_words() -> None:
    source = (
        'X_WORDS = {"a_b": ("x", "y")}\nFROM_THE_SCREEN = ("c_d",)\n__all__ = ["e_f"]\n'
        'MENU = "g_h"\n'
    )
    assert read("firmware/x.py", ast.parse(source)).uses == {"g_h"}
