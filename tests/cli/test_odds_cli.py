"""`schocken odds`: exact odds of every action, and the table of kinds."""

from __future__ import annotations

import json

import pytest


def test_giessen_position_lists_actions_best_first(schocken) -> None:
    status, out, err = schocken("odds", "--beat", "6", "1", "1", "--thrown", "6", "3", "1",
                                "--ties-win", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    actions = data["actions"]
    assert data["p_beat"] == actions[0]["p_beat"]
    assert [a["p_beat"] for a in actions] == sorted((a["p_beat"] for a in actions), reverse=True)
    best = actions[0]
    assert best["description"] == "keep 6 and 1, throw 1 die"
    assert best["keep"] == [6, 1] and best["throw"] == 1
    assert best["p_beat"] == pytest.approx(11 / 36)
    assert {"stand", "throw"} == {a["action"] for a in actions}
    assert data["position"] == {"laid_out": [], "thrown": [6, 3, 1], "throws": 1, "limit": 3}


def test_ties_lose_unless_ties_win(schocken) -> None:
    args = ("odds", "--beat", "6", "1", "1", "--thrown", "6", "1", "1", "--limit", "1", "--json")
    lose = json.loads(schocken(*args)[1])
    win = json.loads(schocken(*args, "--ties-win")[1])
    assert lose["p_beat"] == 0.0 and win["p_beat"] == 1.0
    assert win["actions"] == [{"action": "stand", "description": "stand (Schock 6)", "p_beat": 1.0}]


def test_before_the_first_throw(schocken) -> None:
    status, out, _ = schocken("odds", "--beat", "2", "1", "1", "--json")
    data = json.loads(out)
    assert status == 0 and len(data["actions"]) == 1
    assert data["actions"][0]["description"] == "throw all 3 dice"
    table = json.loads(schocken("odds", "--table", "--json")[1])
    schock3 = next(r for r in table["reach"] if r["level"] == "Schock 3")
    assert data["p_beat"] == pytest.approx(schock3["p"][2])


def test_flip_action_under_boerdeschock(schocken) -> None:
    status, out, _ = schocken("odds", "--beat", "1", "1", "1", "--ties-win", "--rules", "boerde",
                              "--laid-out", "6", "--thrown", "6", "4", "--throw", "2", "--json")
    flips = [a for a in json.loads(out)["actions"] if a["action"] == "flip"]
    assert status == 0 and len(flips) == 1
    assert flips[0]["laid_out"] == [1] and flips[0]["free"] == [6, 4]
    assert flips[0]["description"].startswith("flip sixes into ones (laid out: 1), then ")


def test_text_output(schocken) -> None:
    status, out, _ = schocken("odds", "--beat", "2", "1", "1", "--thrown", "6", "3", "1")
    assert status == 0
    assert "Beat Schock 2 (equal strength loses), rules standard" in out
    assert "keep 1, throw 2 dice" in out and "%" in out


def test_table(schocken) -> None:
    status, out, _ = schocken("odds", "--table", "--json")
    data = json.loads(out)
    assert status == 0
    assert [(r["name"], r["outcomes"]) for r in data["single_throw"]] == [
        ("Schock aus", 1), ("Schock", 15), ("General", 5), ("Straße", 24), ("Hausnummer", 171)
    ]
    assert data["reach"][0]["level"] == "Schock aus" and len(data["reach"][0]["p"]) == 3
    status, out, _ = schocken("odds", "--table", "--rules", "westfalen")
    assert status == 0 and "Jule" in out and "Achter" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--beat", "2", "1", "x"), "dice are 1 to 6"),
        (("--beat", "2", "1"), "needs 3 dice"),
        (("--beat", "2", "1", "1", "--thrown", "6", "3"), "must make 3 dice"),
        (("--beat", "2", "1", "1", "--thrown", "6", "3", "1", "--throw", "5"), "throws made 5"),
        (("--beat", "2", "1", "1", "--thrown", "6", "3", "1", "--limit", "zero"), "--limit"),
        (("--beat", "2", "1", "1", "--rules", "nope"), "unknown rules"),
        (("--beat", "2", "1", "1", "--laid-out", "1", "--thrown", "3", "4"), "--throw 2"),
        (("--thrown", "6", "3", "1"), "--beat"),
        (("--table", "--beat", "2", "1", "1"), "--table takes only"),
    ],
)
def test_bad_input_exits_2_with_one_line(schocken, args, message) -> None:
    status, out, err = schocken("odds", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("schocken odds: error:")


@pytest.mark.parametrize("preset", ["standard", "bvb", "dsm", "westfalen", "boerde"])
def test_every_table_names_a_throw_as_the_rules_do(schocken, preset: str) -> None:
    """`odds --table`: the kinds of one throw and the reach table use the same names (bvb
    calls the General "Jenie" in both), in the text and in the JSON."""
    from engine.rules import load_preset

    rules = load_preset(preset)
    status, out, _ = schocken("odds", "--table", "--rules", preset, "--json")
    assert status == 0
    data = json.loads(out)
    kinds = {row["name"] for row in data["single_throw"]}
    reach = {row["level"] for row in data["reach"]}
    general = rules.name_of("general") or "General"
    assert general in kinds and general in reach
    assert not ({"General", "Jenie"} - {general}) & (kinds | reach)
    status, text, _ = schocken("odds", "--table", "--rules", preset)
    assert status == 0
    first, second = text.split("\n\n")
    assert f"  {general} " in first and f"  {general} " in second
