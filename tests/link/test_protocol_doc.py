"""docs/protocol.md against the code: its table of host commands names every command of
``firmware.link.protocol.COMMANDS`` once, and its pairing paragraph every changing one (two
branches that each add commands merge into one table and one list)."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.link.protocol import COMMANDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def host_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## Host to device", 1)[1].split("\n## ", 1)[0]


def test_the_host_table_lists_every_command_once() -> None:
    rows = [line for line in host_section().splitlines() if line.startswith("| `")]
    words = [re.findall(r"^\| `([a-z-]+)", row)[0] for row in rows]
    assert sorted(words) == sorted(command.word for command in COMMANDS)
    # One table: no paragraph splits it.
    lines = host_section().splitlines()
    first, last = lines.index(rows[0]), lines.index(rows[-1])
    assert all(line.startswith("|") for line in lines[first : last + 1])


def test_the_pairing_paragraph_names_every_changing_command() -> None:
    paragraphs = [p for p in host_section().split("\n\n") if "need a paired connection" in p]
    assert len(paragraphs) == 1
    named = set(re.findall(r"`([a-z-]+)`", paragraphs[0].split("need a paired", 1)[0]))
    assert named == {command.word for command in COMMANDS if command.changing}
