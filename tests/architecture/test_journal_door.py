"""The game journal has one door: only ``firmware/store/journal.py`` knows its bytes.

What a journal holds is declared there once (the header, the notes) with the one codec and the
one reader; every other module reads and writes through its typed values. Read with ``ast``
from the source: a module outside the store that imports the journal's record codec, its
framing or its writer (or the module whole, under any name) would be a second channel beside
the typed one.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.architecture.importgraph import ROOT, modules, nodes

JOURNAL = "firmware.store.journal"
#: The journal's own bytes: the writer, the codec of its records, and who may use each.
PRIVATE = {
    "Journal": ("firmware/store/",),
    "header_to_record": ("firmware/store/",),
    "header_from_record": ("firmware/store/",),
    "note_to_record": ("firmware/store/",),
    "note_from_record": ("firmware/store/",),
    "count_intact_after": ("firmware/store/",),
    # The tournament's outbox keeps its own file in the journal's framing, through these two.
    "encode_record": ("firmware/store/", "firmware/tournament/outbox.py"),
    "decode_records": ("firmware/store/", "firmware/tournament/outbox.py"),
}


def _imports_it_whole(node: ast.AST) -> bool:
    """``import firmware.store.journal`` or ``from firmware.store import journal`` (as any
    name): the module whole, every name of it at hand."""
    if isinstance(node, ast.Import):
        return any(alias.name == JOURNAL for alias in node.names)
    return (
        isinstance(node, ast.ImportFrom) and node.module == "firmware.store"
        and any(alias.name == "journal" for alias in node.names)
    )


def doors(root: Path = ROOT) -> list[str]:
    """Every import of the journal's private names by a module that may not use them."""
    found = []
    for path in modules(root):
        where = path.relative_to(root).as_posix()
        for node in nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module == JOURNAL:
                for alias in node.names:
                    allowed = PRIVATE.get(alias.name)
                    if allowed is not None and not where.startswith(allowed):
                        found.append(f"{where}:{node.lineno} imports {alias.name} from {JOURNAL}")
            elif where.startswith("firmware/store/"):
                continue
            elif _imports_it_whole(node):
                found.append(f"{where}:{node.lineno} imports {JOURNAL} whole")
    return found


def test_only_the_store_knows_the_journals_bytes() -> None:
    assert doors() == []


def test_the_rule_finds_a_second_door(tmp_path: Path) -> None:
    stage = tmp_path / "firmware" / "app" / "stages" / "turn.py"
    stage.parent.mkdir(parents=True)
    stage.write_text("from firmware.store.journal import KeepMarks, note_to_record\n")
    (tmp_path / "firmware" / "store").mkdir()
    store = tmp_path / "firmware" / "store" / "gamestore.py"
    store.write_text("from firmware.store.journal import Journal\n")
    hooks = tmp_path / "firmware" / "link" / "hooks.py"
    hooks.parent.mkdir(parents=True)
    hooks.write_text("from firmware.store import journal as _j\nimport firmware.store.journal\n")
    assert doors(tmp_path) == [
        "firmware/app/stages/turn.py:1 imports note_to_record from firmware.store.journal",
        "firmware/link/hooks.py:1 imports firmware.store.journal whole",
        "firmware/link/hooks.py:2 imports firmware.store.journal whole",
    ]
