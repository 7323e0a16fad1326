"""What the page is told besides the protocol (``/page.json``): every house rule its setup can
change, in the device's words in both languages, and the presets to start from; a setup made
of them is one the device takes."""

from __future__ import annotations

import json
from dataclasses import fields

from engine import load_preset, preset_names
from engine.rules import Rules, rules_from_mapping
from firmware.link.page_words import PageWords
from firmware.link.protocol import Setup, parse_command
from firmware.link.webtable import page_data, page_files, rule_choices
from firmware.words import LANGUAGES


def test_every_house_rule_of_the_engine_is_offered() -> None:
    offered = [choice["key"] for choice in rule_choices()]
    options = [f.name for f in fields(Rules) if f.name not in ("name", "description", "source")]
    # The table's own names for throws come with the preset; everything else is a field.
    assert offered == [key for key in options if key != "names"]


def test_each_value_has_the_rules_screens_words_in_both_languages() -> None:
    for choice in rule_choices():
        if choice["type"] == "number":
            assert choice["label"] in PageWords.WORDS
            continue
        for language in LANGUAGES:
            labels = choice["labels"][language]
            assert sorted(labels) == sorted(str(v).lower() for v in choice["values"]), choice
            assert all(labels.values()), choice["key"]
            assert not any(" = " in text for text in labels.values()), "no engine words"
    jule = next(choice for choice in rule_choices() if choice["key"] == "jule")
    assert jule["labels"]["de"] == {"true": "Jule 4-2-1 (7 Deckel)", "false": "keine Jule"}
    ties = next(choice for choice in rule_choices() if choice["key"] == "ties")
    assert ties["labels"]["en"]["nachgelegt"] == "Tie: who threw first wins"


def test_every_preset_carries_every_offered_rule_and_makes_itself_again() -> None:
    offered = {choice["key"] for choice in rule_choices()}
    presets = page_data()["presets"]
    assert [preset["name"] for preset in presets] == list(preset_names())
    for preset in presets:
        assert set(preset["rules"]) == offered
        again = rules_from_mapping({"preset": preset["name"], **preset["rules"]})
        assert again == load_preset(preset["name"])


def test_a_setup_the_page_makes_from_every_field_is_taken() -> None:
    """The page sends the preset and what differs from it: every value of every field parses
    into the rules it names (a change of one field at a time)."""
    for choice in rule_choices():
        key = choice["key"]
        values = (
            [[], list(choice["values"][:2])] if choice["type"] == "kinds"
            else [choice["min"] + 1, 9] if choice["type"] == "number"
            else choice["values"]
        )  # fmt: skip
        for value in values:
            payload = {"players": ["Anna", "Ben"], "rules": {"preset": "standard", key: value}}
            command = parse_command(b"setup " + json.dumps(payload).encode())
            assert isinstance(command, Setup) and isinstance(command.rules, Rules), (key, value)
            shown = command.rules.to_mapping()[key]
            assert shown == value, (key, value, shown)
            others = {k: v for k, v in command.rules.to_mapping().items() if k != key}
            standard = {k: v for k, v in load_preset("standard").to_mapping().items() if k != key}
            assert {k: v for k, v in others.items() if standard[k] != v}.keys() <= {
                "description", "name", "penalty_deckel"
            }, key  # only what was sent changed (a Deckel bound may move the penalty's)


def test_the_page_json_is_what_page_data_says() -> None:
    served = json.loads(page_files()["/page.json"][1])
    assert served == json.loads(json.dumps(page_data()))


def test_every_field_is_taken_on_every_preset() -> None:
    """Any field changed on any preset makes a setup the device takes, or refuses in one line:
    never a bug's error (``two_dice`` on a preset with names of its own once tripped one)."""
    for preset in preset_names():
        for choice in rule_choices():
            if choice["type"] not in ("bool", "choice"):
                continue
            for value in choice["values"]:
                payload = {"players": ["Anna", "Ben"], "rules": {"preset": preset,
                                                                 choice["key"]: value}}
                command = parse_command(b"setup " + json.dumps(payload).encode())
                assert isinstance(command, Setup), (preset, choice["key"], value)
