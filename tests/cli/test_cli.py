"""The `schocken` command line through its real main(): rank, rules, judge and their errors."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine import preset_names
from schockbesteck.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys: pytest.CaptureFixture[str], *argv: str, **kwargs: object) -> str:
    """Run and check the failure contract: exit 2, nothing on stdout, one line on stderr."""
    code, out, err = run(capsys, *argv, **kwargs)  # type: ignore[arg-type]
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


# -- the parser ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ((), "schocken: error: the following arguments are required: COMMAND"),
        (("dance",), "schocken: error: argument COMMAND: invalid choice: 'dance'"),
        (("rank", "--bogus"), "unrecognized arguments: --bogus"),
        (("rules",), "schocken rules: error: the following arguments are required: ACTION"),
        (("rules", "drop"), "schocken rules: error: argument ACTION: invalid choice: 'drop'"),
        (("rules", "show"), "schocken rules show: error: the following arguments are required"),
        (("judge", "a.json", "b.json"), "schocken judge: error: unrecognized arguments: b.json"),
        (("rank", "--bogus"), "schocken rank: error: unrecognized arguments: --bogus"),
        (("rules", "show", "bvb", "-x"), "schocken rules show: error: unrecognized arguments: -x"),
    ],
)
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                   expected: str) -> None:
    assert expected in fails(capsys, *argv)


def test_help_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rank", "--help")
    assert code == 0 and "--all" in out and "--built" in out


# -- rank ---------------------------------------------------------------------------------------


def test_rank_one_throw_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rank", "4", "1", "1", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == {
        "dice": [4, 1, 1], "read_as": [4, 1, 1], "hand": True, "kind": "schock",
        "name": "Schock 4", "deckel": 4, "strength": 53,
    }


def test_rank_text_and_shorthand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rank", "1-1-1")
    assert code == 0
    assert out.splitlines()[0].startswith("Schock aus  (1-1-1, from the hand")
    assert "Deckel    all" in out and "strength  56 (weakest 1, best 56)" in out


@pytest.mark.parametrize(
    ("argv", "kind", "deckel"),
    [
        (("5", "5", "5", "--built", "--rules", "dsm"), "general", 3),
        (("6", "5", "4", "--built", "--rules", "dsm"), "hausnummer", 1),  # Straße only in one throw
        (("4", "2", "1", "--rules", "westfalen"), "jule", 7),
        (("2", "2", "1", "--rules", "westfalen"), "siebener", 7),
        (("1", "1", "1"), "schock_aus", "all"),
    ],
)
def test_rank_under_other_rules(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                kind: str, deckel: object) -> None:
    code, out, _ = run(capsys, "rank", *argv, "--json")
    data = json.loads(out)
    assert code == 0 and (data["kind"], data["deckel"]) == (kind, deckel)
    assert data["hand"] == ("--built" not in argv)


def test_rank_two_dice_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "dortmund.toml"
    rules.write_text('preset = "standard"\ntwo_dice = true\n', encoding="utf-8")
    code, out, _ = run(capsys, "rank", "6", "4", "--rules", str(rules), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["dice"], data["read_as"], data["name"]) == ([6, 4], [6, 5, 4], "Straße 6-5-4")
    assert "need 2 dice" in fails(capsys, "rank", "6", "5", "4", "--rules", str(rules))


def test_rank_all_matches_seed_003(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rank", "--all", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 56
    assert [r["name"] for r in rows[:3]] == ["Schock aus", "Schock 6", "Schock 5"]
    assert [r["deckel"] for r in rows[:16]] == ["all", 6, 5, 4, 3, 2, 3, 3, 3, 3, 3, 2, 2, 2, 2, 1]
    assert (rows[15]["name"], rows[-1]["name"]) == ("Hausnummer 665", "Hausnummer 221")
    strengths = [r["strength"] for r in rows]
    assert strengths == sorted(strengths, reverse=True)


def test_rank_all_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rank", "--all", "--rules", "bvb")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 + 56
    assert lines[1].split() == ["#", "dice", "name", "kind", "Deckel", "strength"]
    assert lines[2].split() == ["1", "1-1-1", "Schock", "aus", "schock_aus", "all", "56"]
    # BVB: the General, which BVB calls "Jenie", stands above Schock 2
    names = [" ".join(line.split()[2:4]) for line in lines[2:]]
    assert names.index("Jenie 2") < names.index("Schock 2")
    # Columns line up: every row's kind starts where the header's "kind" does.
    column = lines[1].index("kind")
    assert all(line[column - 1] == " " and line[column].isalpha() for line in lines[2:])


def test_rank_all_ranks_a_built_jule_as_hausnummer_421_under_hand_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = tmp_path / "hand.toml"
    rules.write_text(
        'hand_only = ["general", "strasse", "jule"]\njule = true\ndeckel = 15\n', encoding="utf-8"
    )
    code, out, _ = run(capsys, "rank", "--all", "--rules", str(rules))
    rows = {" ".join(line.split()[1:3]): line.split() for line in out.splitlines()[2:]}
    assert code == 0
    assert rows["4-2-1 built"][4:7] == ["421", "hausnummer", "1"]
    assert rows["4-2-1 Jule"][3:5] == ["jule", "7"]
    # Built up, a General and a Straße are plain Hausnummern too, ranked by their number.
    assert rows["6-6-6 built"][4:6] == ["666", "hausnummer"]
    assert int(rows["6-6-6 built"][-1]) > int(rows["6-6-5 Hausnummer"][-1])
    assert rows["6-5-4 built"][4:6] == ["654", "hausnummer"]
    assert int(rows["4-2-1 built"][-1]) < int(rows["4-2-2 Hausnummer"][-1])
    code, out, _ = run(capsys, "rank", "4", "2", "1", "--built", "--rules", str(rules), "--json")
    assert json.loads(out)["name"] == "Hausnummer 421"
    code, out, _ = run(capsys, "rules", "show", str(rules))
    # The list ends with "und", so the next option is not read as a fourth hand-only throw.
    assert "aber 15 Deckel, nur aus der Hand: General, Straße und Jule, Jule 4-2-1" in out


def test_rank_all_equal_strassen_share_a_place(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    rules = tmp_path / "equal.toml"
    rules.write_text('strasse_order = "equal"\n', encoding="utf-8")
    code, out, _ = run(capsys, "rank", "--all", "--rules", str(rules))
    places = {line.split()[0] for line in out.splitlines() if "Straße" in line}
    assert code == 0 and len(places) == 1


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("rank", "1", "1", "7"), "schocken rank: error: die '7': allowed are the numbers 1 to 6"),
        (("rank", "1", "1"), "need 3 dice under rules 'standard', got 2: 1 1"),
        (("rank", "1", "2", "3", "4"), "got 4"),
        (("rank", "x", "2", "3"), "die 'x'"),
        (("rank",), "give the dice"),
        (("rank", "--all", "1", "1", "1"), "give either dice or --all, not both"),
        (("rank", "1", "1", "1", "--rules", "kneipe"), "unknown rules 'kneipe'"),
        (("rank", "1", "1", "1", "--rules", "gone.toml"),
         "rules file gone.toml: does not exist; give a preset"),
    ],
)
def test_rank_bad_input(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                        expected: str) -> None:
    assert expected in fails(capsys, *argv)


def test_rank_bad_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("jule = 1\n", encoding="utf-8")
    assert f"{bad}: jule = 1: must be true or false" in fails(capsys, "rank", "--all",
                                                              "--rules", str(bad))


# -- rules --------------------------------------------------------------------------------------


def test_rules_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and names == preset_names()
    assert {"standard", "bvb", "dsm"} <= set(names)
    assert "Borussia Dortmund" in out
    code, out, _ = run(capsys, "rules", "list", "--json")
    assert [p["name"] for p in json.loads(out)] == names


def test_rules_show_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "show", "bvb", "--lang", "en")
    assert code == 0
    assert out.startswith("rules:       bvb\n")
    assert 'source:      Borussia Dortmund, "Schocken is the name of the game"' in out
    lines = {line.split()[0]: line for line in out.splitlines()[4:] if line}
    assert len(lines) == 21, "every option but name, description and source"
    assert lines["ties"].split()[1:] == ['"nachgelegt"', "(standard:", '"fewer_throws")']
    assert lines["deckel"].split()[1:] == ["13"]


def test_rules_show_file_round_trips(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mine = tmp_path / "stammtisch.toml"
    mine.write_text('preset = "dsm"\ndeckel = 15\njule = true\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", str(mine), "--json")
    data = json.loads(out)
    assert code == 0 and (data["name"], data["deckel"], data["jule"]) == ("dsm+", 15, True)
    assert data["hand_only"] == ["strasse"]
    code, out, _ = run(capsys, "rules", "show", str(mine), "--lang", "en")
    assert f"file:        {mine}" in out


def test_rules_show_names_what_a_file_changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "fifteen.toml"
    mine.write_text("deckel = 15\n", encoding="utf-8")  # no preset: standard, changed
    code, out, _ = run(capsys, "rules", "show", str(mine), "--lang", "en")
    assert code == 0
    assert out.splitlines()[:4] == [
        "rules:       standard+",
        f"file:        {mine}",
        "based on:    standard, changed: deckel",
        "description: like standard, but 15 Deckel",
    ]
    assert "13 Deckel" not in out
    mine.write_text('preset = "bvb"\njule = true\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", str(mine), "--lang", "en")
    lines = {line.split()[0]: line for line in out.splitlines() if line}
    assert lines["rules:"] == "rules:       bvb+"
    assert lines["jule"].split()[1:] == ["true", "(bvb:", "false)"]  # against its own preset
    assert lines["ties"].split()[1:] == ['"nachgelegt"']  # as in bvb: no note


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"schocken {version('schockbesteck')}\n")


@pytest.mark.parametrize("more", [("x",), ("rank", "1", "1", "1"), ("--help",)])
def test_version_with_anything_after_it_is_one_line(
    capsys: pytest.CaptureFixture[str], more: tuple[str, ...]
) -> None:
    message = fails(capsys, "--version", *more)
    assert message.startswith(f"schocken: error: --version takes nothing after it, got {more[0]}")


def test_rules_show_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    message = fails(capsys, "rules", "show", "kneipe")
    assert f"unknown rules 'kneipe': give a preset ({', '.join(preset_names())})" in message


# -- judge --------------------------------------------------------------------------------------

BEISPIEL_1 = {
    "pot": 13,
    "deckel": {"Anna": 0, "Ben": 0, "Carla": 0},
    "players": [
        {"name": "Carla", "dice": [6, 5, 2], "throws": 3},
        {"name": "Anna", "dice": [1, 4, 1], "throws": 2},
        {"name": "Ben", "dice": [5, 4, 2], "throws": 3},
    ],
}


def test_judge_text(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, "judge", stdin=json.dumps(BEISPIEL_1), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Reveal, best first: Anna (Schock 4), Carla (Hausnummer 652), Ben (Hausnummer 542)",
        "Winner: Anna with Schock 4 (4-1-1, built, 2 throws)",
        "Loser:  Ben with Hausnummer 542 (5-4-2, built, 3 throws)",
        "Deckel: 4 from the pot to Ben (Schock 4 is worth 4)",
        "Now:    pot 9; Anna 0, Ben 4, Carla 0",
        "Out:    nobody new",
        "Half over: no; Ben opens the next round",
    ]


def test_judge_json_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps({
        "pot": 0,
        "deckel": {"Anna": 5, "Ben": 6, "Carla": 2},
        "players": [
            {"name": "Carla", "dice": [6, 6, 5], "throws": 1},
            {"name": "Anna", "dice": [1, 1, 6], "throws": 1},
            {"name": "Ben", "dice": [5, 3, 2], "throws": 1},
        ],
    }), encoding="utf-8")
    code, out, _ = run(capsys, "judge", str(round_file), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["winner"], data["loser"], data["due"], data["moved"], data["from"]) == (
        "Anna", "Ben", 6, 5, "winner"
    )
    assert data["out"] == ["Anna"] and data["half_over"] is False
    assert data["deckel"] == {"Anna": 0, "Ben": 11, "Carla": 2} and data["pot"] == 0
    assert data["winning"]["name"] == "Schock 6" and data["order"] == ["Anna", "Carla", "Ben"]


def test_judge_half_over_and_blind(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = tmp_path / "blind.toml"
    rules.write_text("blind = true\n", encoding="utf-8")
    round_ = {
        "pot": 3, "deckel": {"Anna": 4, "Ben": 6},
        "players": [{"name": "Anna", "dice": [3, 3, 3], "throws": 1, "blind": True},
                    {"name": "Ben", "dice": [4, 3, 1], "throws": 1}],
    }
    code, out, _ = run(capsys, "judge", "--rules", str(rules), "--json",
                       stdin=json.dumps(round_), monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 0 and (data["due"], data["moved"], data["blind"]) == (6, 3, True)
    code, out, _ = run(capsys, "judge", "--rules", str(rules), stdin=json.dumps(round_),
                       monkeypatch=monkeypatch)
    assert "Deckel: 3 from the pot to Ben (General 3 is worth 3, doubled by Blind to 6; " \
           "the pot held only 3)" in out
    schock_aus = {**round_, "players": [{"name": "Anna", "dice": [1, 1, 1], "throws": 1},
                                        {"name": "Ben", "dice": [4, 3, 1], "throws": 1}]}
    code, out, _ = run(capsys, "judge", stdin=json.dumps(schock_aus), monkeypatch=monkeypatch)
    assert "Deckel: Schock aus, all 13 go to Ben" in out
    assert "Half over: yes, Ben holds all the Deckel and loses it" in out
    # The half is over for everyone: Anna, now without Deckel, did not leave it.
    assert "Out:    nobody new" in out


def test_judge_lists_as_out_only_who_really_left_the_half(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pot is empty; Anna hands her last Deckel over and Ben then holds all 13.
    last = {
        "pot": 0, "deckel": {"Anna": 2, "Ben": 11, "Carla": 0, "Dora": 0},
        "players": [{"name": "Anna", "dice": [2, 1, 1], "throws": 1},
                    {"name": "Ben", "dice": [4, 3, 1], "throws": 1}],
    }
    code, out, _ = run(capsys, "judge", "--json", stdin=json.dumps(last), monkeypatch=monkeypatch)
    data = json.loads(out)
    assert code == 0 and data["half_over"] is True and data["out"] == []
    # A round that does not end the half still sends the player without Deckel out.
    going_on = {**last, "deckel": {"Anna": 2, "Ben": 9, "Carla": 2, "Dora": 0},
                "players": [*last["players"], {"name": "Carla", "dice": [5, 3, 1], "throws": 1}]}
    code, out, _ = run(capsys, "judge", stdin=json.dumps(going_on), monkeypatch=monkeypatch)
    assert "Out:    Anna" in out and "Half over: no" in out


def with_change(path: str, value: object) -> str:
    """BEISPIEL_1 with one value replaced (path like 'players.1.dice'); None deletes it."""
    data = json.loads(json.dumps(BEISPIEL_1))
    *parents, last = path.split(".")
    target = data
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    if value is None:
        del target[int(last) if last.isdigit() else last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        ("", "stdin is empty: expected the round as a JSON object"),
        ("{", "stdin: cut off: the JSON ends too soon, after line 1; give the round"),
        ("{} {}", "stdin: more text after the JSON value, at line 1, column 4; give the round"),
        ('{"pot" 13}', "stdin: not valid JSON at line 1, column 8; give the round"),
        ("[]", "the round must be a JSON object with keys pot, deckel, players"),
        (with_change("pot", None), "missing key 'pot'; required: pot, deckel, players"),
        (with_change("extra", 1), "unknown key 'extra'; allowed: pot, deckel, players"),
        (with_change("pot", "13"), 'pot = "13": must be a whole number'),
        (with_change("pot", True), "pot = true: must be a whole number"),
        (with_change("pot", 12), "pot 12 plus the players' 0 Deckel make 12; rules 'standard' "
                                 "play with 13"),
        (with_change("deckel", []), "deckel must be an object of player names"),
        (with_change("deckel.Ben", -1), 'deckel["Ben"] = -1: allowed are 0 to 13'),
        (with_change("players", []), "players must be a list of at least two players"),
        (with_change("players.1", "Anna"), "players[1] must be an object with keys name, dice"),
        (with_change("players.1.dice", None), "players[1]: missing key 'dice'"),
        (with_change("players.1.dize", [1, 1, 1]), "players[1]: unknown key 'dize'"),
        (with_change("players.1.name", 7), "players[1].name = 7: must be a non-empty string"),
        (with_change("players.1.name", "Dora"), "players[1]: 'Dora' has no entry in deckel"),
        (with_change("players.1.name", "Carla"), "players[1]: 'Carla' appears twice"),
        (with_change("players.1.dice", [1, 1]), "players[1].dice = [1, 1]: need a list of 3 dice"),
        (with_change("players.1.dice", [1, 1, 7]), "players[1].dice: 7 is not a die; allowed are "
                                                   "1 to 6"),
        (with_change("players.1.dice", [1, 1, "1"]), 'players[1].dice: "1" is not a die'),
        (with_change("players.1.throws", 4), "players[1].throws = 4: allowed are 1 to 3"),
        (with_change("players.1.throws", 0), "players[1].throws = 0: allowed are 1 to 3"),
        (with_change("players.1.hand", "yes"), 'players[1].hand = "yes": must be true or false'),
        (with_change("players.1.blind", True), "players[1].blind: rules 'standard' have no Blind"),
        (with_change("players.0.throws", 1), "players[1].throws = 2: Carla went first with 1, "
                                             "the limit for everyone"),
    ],
)
def test_judge_bad_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                         stdin: str, expected: str) -> None:
    message = fails(capsys, "judge", stdin=stdin, monkeypatch=monkeypatch)
    assert message.startswith("schocken judge: error: ")
    assert expected in message


def test_judge_refuses_out_players_and_finished_halves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out_player = {
        "pot": 0, "deckel": {"Anna": 0, "Ben": 11, "Carla": 2},
        "players": [{"name": "Ben", "dice": [6, 4, 2], "throws": 1},
                    {"name": "Anna", "dice": [3, 3, 3], "throws": 1}],
    }
    message = fails(capsys, "judge", stdin=json.dumps(out_player), monkeypatch=monkeypatch)
    assert "players[1]: Anna has no Deckel and the pot is empty: out for the rest of the half" \
        in message
    over = {**out_player, "deckel": {"Anna": 0, "Ben": 13, "Carla": 0}}
    message = fails(capsys, "judge", stdin=json.dumps(over), monkeypatch=monkeypatch)
    assert "Ben holds all 13 Deckel: the half is already over" in message


def test_judge_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    message = fails(capsys, "judge", str(tmp_path / "nope.json"))
    assert message.endswith(
        "nope.json: does not exist; give the round as one JSON object, in a file or on stdin "
        "(docs/cli.md)"
    )


def test_a_closed_pipe_is_not_an_error(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert main(["rank", "--all"]) == 1
    assert capsys.readouterr().err == ""


# -- the newer rules in judge and replay ---------------------------------------------------------


def test_judge_and_replay_use_the_tables_own_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    round_ = {
        "pot": 13, "deckel": {"Anna": 0, "Ben": 0},
        "players": [{"name": "Anna", "dice": [5, 5, 5], "throws": 1},
                    {"name": "Ben", "dice": [2, 1, 1], "throws": 1}],
    }
    code, out, _ = run(capsys, "judge", "--rules", "bvb", stdin=json.dumps(round_),
                       monkeypatch=monkeypatch)
    assert code == 0 and "Winner: Anna with Jenie 5" in out
    code, out, _ = run(capsys, "judge", "--rules", "bvb", "--json", stdin=json.dumps(round_),
                       monkeypatch=monkeypatch)
    winning = json.loads(out)["winning"]
    assert (winning["name"], winning["kind"]) == ("Jenie 5", "general")
    mine = tmp_path / "honecker.toml"
    mine.write_text('[names]\nschock_2 = "Honecker"\n', encoding="utf-8")
    code, out, _ = run(capsys, "judge", "--rules", str(mine), stdin=json.dumps(round_),
                       monkeypatch=monkeypatch)
    assert "Winner: Ben with Honecker" in out


def test_replay_tells_the_names_and_a_dropped_cup() -> None:
    from engine import Game, GameSetup, load_preset
    from engine.rules import DroppedCup
    from firmware.cli.replay import narrate

    rules = replace(load_preset("bvb"), dropped_cup=DroppedCup.ROUND)
    game = Game(GameSetup(("Anna", "Ben", "Carla"), rules))
    game.roll_off([(1, 1, 1), (2, 2, 2), (3, 3, 3)])
    game.roll((5, 5, 5))
    game.stand()
    game.roll((6, 4, 1))
    game.drop("Ben")
    game.roll((3, 2, 2))
    lines = list(narrate(game.setup, game.actions))
    assert "  Anna: wirft 5-5-5 → Jenie 5 (1 Wurf)" in lines
    # Ben's one throw ended his turn (the limit); then his cup fell.
    assert "  Ben: Becher gefallen – verliert die Runde" in lines
    assert any(line.startswith("  Ben (Becher gefallen) bekommt 3 Deckel") for line in lines)
    # Ben opens the next round and drops the cup in the middle of his turn.
    game.roll((6, 6, 2))
    game.drop("Ben")
    english = list(narrate(game.setup, game.actions, "en"))
    assert "  Ben: throws 6-6-2 … dropped the cup – loses the round" in english
