"""The preset files: ``standard.toml`` sets every option, the others only what differs from it.

``presets_before.json`` holds every preset's options as the presets gave them while each file
still spelled out every option: the inheritance must not change a single value.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from engine import RulesError
from engine.rules import (
    BASE_PRESET,
    Rules,
    _preset_from_text,
    load_preset,
    preset_names,
    rules_from_mapping,
)

FOLDER = Path(__file__).parents[2] / "engine" / "presets"
BEFORE = json.loads((Path(__file__).parent / "presets_before.json").read_text(encoding="utf-8"))
LABELS = ("name", "description", "source")


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_is_what_it_was(name: str) -> None:
    rules = load_preset(name)
    assert rules.to_mapping() == BEFORE[name]
    assert rules == rules_from_mapping(BEFORE[name], base=Rules())


def test_standard_sets_every_option() -> None:
    data = tomllib.loads((FOLDER / f"{BASE_PRESET}.toml").read_text(encoding="utf-8"))
    assert set(data) >= {field.name for field in fields(Rules)} - {"names"}


@pytest.mark.parametrize("name", [name for name in preset_names() if name != BASE_PRESET])
def test_the_other_presets_hold_only_what_differs(name: str) -> None:
    data = tomllib.loads((FOLDER / f"{name}.toml").read_text(encoding="utf-8"))
    standard = load_preset(BASE_PRESET).to_mapping()
    assert all(label in data for label in LABELS)
    same = [key for key, value in data.items() if key not in LABELS and standard[key] == value]
    assert same == [], f"{name}.toml repeats standard's {same}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('name = "pub"\ndeckel = ', "preset file pub.toml: not valid TOML: "),
        (
            'preset = "bvb"\nname = "pub"\ndescription = ""\nsource = ""',
            "preset file pub.toml: must not name a preset; every preset extends standard",
        ),
        (
            'name = "pub"\njule = true',
            "preset file pub.toml: must give its own description, source",
        ),
        (
            'name = "pub"\ndescription = ""\nsource = ""\njul = true',
            "preset file pub.toml: unknown rules key 'jul'",
        ),
        (
            'name = "pub"\ndescription = ""\nsource = ""\ndeckel = 1',
            "preset file pub.toml: deckel = 1: allowed are 2 to 99 Deckel",
        ),
        ('name = "kneipe"\ndescription = ""\nsource = ""', "preset file pub.toml names itself"),
    ],
)
def test_a_bad_preset_file_gets_one_clear_line(text: str, expected: str) -> None:
    with pytest.raises(RulesError) as error:
        _preset_from_text("pub", text)
    message = str(error.value)
    assert message.startswith(expected) and "\n" not in message
