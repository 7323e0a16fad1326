"""docs/rules.md lists every preset and every option in its presets table, with the values the
preset files hold (bold where a value differs from ``standard``)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from engine.rules import Rules, load_preset, preset_names

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
LABELS = {"name", "description", "source"}


def _shown(key: str, value: object) -> str:
    """A value as the presets table writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if key == "hand_only":
        return json.dumps(list(value)) if value else "[]"  # type: ignore[call-overload]
    if key == "names":
        pairs = dict(value)  # type: ignore[call-overload]
        return ", ".join(f'{k} = "{v}"' for k, v in pairs.items()) if pairs else "{}"
    return str(getattr(value, "value", value))


def test_the_presets_table_is_complete_and_true() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Presets"):text.index("## Sources")]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header[0] == "option" and header[1] == "standard"
    assert sorted(header[1:]) == sorted(preset_names())
    presets = {name: load_preset(name) for name in header[1:]}
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    options = [f.name for f in fields(Rules) if f.name not in LABELS]
    assert list(rows) == options
    standard = presets["standard"]
    for key, cells in rows.items():
        for name, cell in zip(header[1:], cells, strict=True):
            value = getattr(presets[name], key)
            differs = value != getattr(standard, key)
            assert cell == (f"**{_shown(key, value)}**" if differs else _shown(key, value)), (
                key, name
            )
