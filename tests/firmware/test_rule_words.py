"""The rules in the catalogue's words: what a rules file that changes its preset says of itself.

The engine words a change plainly (``deckel = 15``); the device, which reads the files
(:func:`firmware.store.rulesfile.load_rules`), describes them as a preset's description does,
in German: "wie standard, aber 15 Deckel".
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from engine.rules import Rules, rules_from_toml
from firmware.screen.oled_words import OLED_WORDS, OledWords
from firmware.screen.rulestext import (
    DESCRIPTION_NUMBER_KEYS,
    DESCRIPTION_VALUE_KEYS,
    RULE_NUMBER_KEYS,
    RULE_VALUE_KEYS,
    describe_changes,
    option_words,
)
from firmware.store.rulesfile import load_rules
from tests.engine.option_values import OPTIONS, sample_values


def described(text: str) -> Rules:
    return rules_from_toml(text, describe=describe_changes)


def test_a_file_without_preset_says_it_changes_standard(tmp_path: Path) -> None:
    rules = described("deckel = 15\n")
    assert (rules.name, rules.description) == ("standard+", "wie standard, aber 15 Deckel")
    path = tmp_path / "fifteen.toml"
    path.write_text("deckel = 15\n", encoding="utf-8")
    assert load_rules(str(path)) == rules


def test_a_changed_preset_is_described_by_its_effective_options() -> None:
    rules = described('preset = "westfalen"\ndeckel = 7\njule = false\nties = "nachgelegt"\n')
    assert rules.description == (
        "wie westfalen, aber 7 Deckel, Gleichstand: wer zuerst warf, gewinnt, keine Jule"
    )
    assert described('dropped_cup = "round"\n').description == (
        "wie standard, aber gefallener Becher verliert die Runde"
    )
    rules = described('hand_only = ["general", "strasse", "jule"]\nmax_throws = 1\n')
    assert rules.description == (
        "wie standard, aber höchstens 1 Wurf, nur aus der Hand: General, Straße und Jule"
    )


def test_renamed_throws_are_listed_with_their_labels() -> None:
    rules = described(
        'preset = "bvb"\n[names]\nschock_2 = "Honecker"\nnaturschock = "Hanl"\n'
        'schock_aus = "Schock Out"\n'
    )
    assert rules.description == (
        "wie bvb, aber eigene Namen: Schock aus = Schock Out, Naturschock = Hanl, "
        "Schock 2 = Honecker und General = Jenie"
    )


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("key", OPTIONS)
def test_every_option_has_words_for_each_value(key: str, language: str) -> None:
    values = sample_values(key)
    words = [option_words(key, value, OledWords(language)) for value in values]
    assert len(set(words)) == len(values) and all(words), words
    assert not any(f"{key} = " in text for text in words), "no words in the catalogue"


def test_every_key_of_the_tables_is_in_the_catalogue() -> None:
    tables = [*RULE_VALUE_KEYS.values(), *DESCRIPTION_VALUE_KEYS.values()]
    keys = {key for table in tables for key in table.values()}
    keys |= {*RULE_NUMBER_KEYS.values(), *DESCRIPTION_NUMBER_KEYS.values()}
    assert keys <= set(OLED_WORDS), sorted(keys - set(OLED_WORDS))
    options = {f.name for f in fields(Rules)}
    assert set(RULE_VALUE_KEYS) | set(DESCRIPTION_VALUE_KEYS) <= options
