"""Hostile command lines and input files: each gives one clear line and exit status 2.

Every case goes through the real entry point (:func:`schockbesteck.cli.main`) with real files in a
temporary directory; nothing is mocked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from schockbesteck.cli import main


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run and check the failure contract: exit 2, nothing on stdout, one line on stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


def deep_toml(tmp_path: Path, name: str, prefix: str, levels: int = 5000) -> str:
    path = tmp_path / name
    path.write_text(prefix + "[" * levels + "]" * levels + "\n", encoding="utf-8")
    return str(path)


# -- deep nesting and long files -----------------------------------------------------------------


def test_deeply_nested_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = deep_toml(tmp_path, "deep.toml", "deckel = ")
    for argv in (("rank", "--rules", rules, "6", "6", "6"), ("rules", "show", rules),
                 ("simulate", "--rules", rules, "--games", "2")):
        line = fails(capsys, *argv)
        assert line.endswith(f"{rules}: nested deeper than 32 levels of tables and arrays"), line


@pytest.mark.parametrize("command", ["run", "sim"])
def test_deeply_nested_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    config = deep_toml(tmp_path, "config.toml", "[game]\nplayers = ")
    line = fails(capsys, command, "--config", config)
    assert line == (
        f"schocken {command}: error: {config}: nested deeper than 32 levels of tables and arrays"
    )


def test_endless_files_are_not_read_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert fails(capsys, "rank", "--rules", "/dev/zero", "1", "1", "1").endswith(
        "rules file /dev/zero is too long: at most 65536 bytes are allowed"
    )
    assert fails(capsys, "run", "--config", "/dev/zero").endswith(
        "config file /dev/zero is too long: at most 262144 bytes are allowed"
    )
    assert fails(capsys, "judge", "/dev/zero").endswith(
        "/dev/zero is too long: at most 1048576 bytes are allowed"
    )
    assert fails(capsys, "replay", "/dev/zero").endswith(
        "/dev/zero is too long for a game journal: at most 16777216 bytes"
    )


def test_deeply_nested_judge_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert fails(capsys, "judge", str(path)).endswith(
        "nested deeper than 32 levels of objects and arrays"
    )


# -- whole numbers are ASCII digits --------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (("simulate", "--games", "１０"), "--games '１０': must be a whole number"),
        (("simulate", "--games", "+10"), "--games '+10': must be a whole number"),
        (("simulate", "--games", "1_0"), "--games '1_0': must be a whole number"),
        (("simulate", "--games", " 10"), "--games ' 10': must be a whole number"),
        (("simulate", "--games", "10", "--players", "٣"), "--players '٣': must be a whole number"),
        (("simulate", "--games", "10", "--seed", "７"), "--seed '７': must be a whole number"),
        (("rank", "６", "６", "６"), "die '６'"),
        (("odds", "--beat", "6", "6", "6", "--limit", "３"), "--limit '３'"),
        (("sim", "--players", "３", "--script", "/dev/null"), "--players '３': must be a whole"),
    ],
)
def test_whole_numbers_are_ascii_digits(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], named: str
) -> None:
    assert named in fails(capsys, *argv)


def test_sim_and_simulate_refuse_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("abc", "-1", "１０", " 10", "+10", "1_0", "9" * 30):
        lines = {fails(capsys, command, "--seed", seed, *more).split(": error: ", 1)[1]
                 for command, *more in (("simulate",), ("sim", "--script", "/dev/null"))}
        assert len(lines) == 1, lines


def test_the_same_seed_deals_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "round.txt"
    script.write_text("shake\nstand\nwait 2\n", encoding="utf-8")
    games = []
    for name in ("a.jsonl", "b.jsonl"):
        events = tmp_path / name
        argv = ["sim", "--players", "2", "--seed", "10", "--script", str(script)]
        assert main([*argv, "--events", str(events)]) == 0
        games.append(events.read_text(encoding="utf-8").splitlines()[:3])
    capsys.readouterr()
    assert games[0] == games[1] and '"dice"' in "".join(games[0])


@pytest.mark.parametrize("argv", [("--frobnicate",), ("--frobnicate", "rank", "1", "1", "1"),
                                  ("--frobnicate=3",)])
def test_an_unknown_option_before_the_subcommand_is_named(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    line = fails(capsys, *argv)
    assert line.startswith(f"schocken: error: unrecognized arguments: {argv[0]}"), line
    assert "required" not in line


def test_the_same_digits_in_ascii_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "10", "--players", "3", "--seed", "7"]) == 0
    assert "10 games, 3 players" in capsys.readouterr().out


# -- sim scripts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "named"),
    [
        ("wait 99999999999\n", "line 1: wait needs seconds from 0 to 3600"),
        ("wait 3600.5\n", "line 1: wait needs seconds from 0 to 3600"),
        ("wait １０\n", "line 1: wait needs seconds from 0 to 3600, in digits 0-9"),
        ("wait 1e3\n", "line 1: wait needs seconds"),
        ("wait nan\n", "line 1: wait needs seconds"),
        ("shake\n" + "wait 3600\n" * 25, "line 26: the waits add up to more than 86400 seconds"),
        ("\u212aeep1\n", "line 1: unknown action '\u212aeep1'"),
        ("hold \u212aeep1\n", "line 1: hold needs one button"),
    ],
)
def test_bad_sim_scripts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str, named: str
) -> None:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    assert named in fails(capsys, "sim", "--script", str(path))


# -- outputs appear only on success -------------------------------------------------------------


def test_a_failed_run_leaves_no_outputs_and_keeps_older_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("shake\nbogus\n", encoding="utf-8")
    events, frames, gif = tmp_path / "out.jsonl", tmp_path / "frames", tmp_path / "out.gif"
    outputs = ("--events", str(events), "--frames", str(frames), "--record", str(gif))
    assert "line 2: unknown action 'bogus'" in fails(capsys, "sim", "--script", str(bad), *outputs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"], "nothing, not even temps"

    good = tmp_path / "good.txt"
    good.write_text("shake\nstand\nwait 1\n", encoding="utf-8")
    argv = ["sim", "--script", str(good), "--players", "2", "--seed", "3", *outputs]
    assert main(argv) == 0
    capsys.readouterr()
    (frames / "notes.txt").write_text("mine", encoding="utf-8")
    written = (events.read_bytes(), gif.read_bytes(), sorted(frames.iterdir()))
    assert written[0].count(b"\n") >= 2 and written[1].startswith(b"GIF8")

    assert "line 2" in fails(capsys, "sim", "--script", str(bad), *outputs)
    assert (events.read_bytes(), gif.read_bytes(), sorted(frames.iterdir())) == written
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.txt", "frames", "good.txt", "out.gif", "out.jsonl"
    ]
    assert main(argv) == 0, "a new run replaces its own frames, not other files"
    assert (frames / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_an_output_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("shake\n", encoding="utf-8")
    missing = tmp_path / "no" / "such" / "out.jsonl"
    line = fails(capsys, "sim", "--script", str(good), "--events", str(missing))
    assert line.endswith(
        f"--events {missing}: its folder {tmp_path / 'no'} does not exist; create it first, or "
        "give another path"
    )
    line = fails(capsys, "sim", "--script", str(good), "--frames", str(good))
    assert line.endswith(f"--frames {good}: is a file; give a folder")


# -- player names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "named"),
    [
        ("Anna," + "x" * 900, "player name 'xxxxxxxxxxxx'… has 900 characters: at most 40"),
        ("Anna,Be\u202en", "--names: player name 'Be\\u202en': holds the control or format"),
    ],
)
def test_sim_refuses_names_the_name_rule_refuses(
    capsys: pytest.CaptureFixture[str], names: str, named: str
) -> None:
    assert named in fails(capsys, "sim", "--names", names, "--script", "/dev/null")


# -- what `make sim` leaves out --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "module", "extra"),
    [
        (("sim", "--gpio-mock", "--terminal", "--no-save"), "gpiozero", "pi"),
        (("bench", "--quick", "--only", "games"), "luma.oled", "pi"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], mocker: MockerFixture, argv: tuple[str, ...],
    module: str, extra: str,
) -> None:
    """`make sim` installs only the `sim` extra: an option that needs another says which, in one
    line, instead of a traceback (the library hidden as if it were not installed)."""
    hidden = {name: None for name in (module, "luma.oled.device", "gpiozero.pins.mock")}
    mocker.patch.dict("sys.modules", hidden)
    line = fails(capsys, *argv)
    assert f"{module.split('.')[0]}" in line and f"the '{extra}' extra" in line, line
    assert f"pip install -e '.[{extra}]'" in line


def test_a_missing_module_of_our_own_is_a_bug_shown_in_full(mocker: MockerFixture) -> None:
    import firmware.cli.rank

    missing = ModuleNotFoundError("No module named 'firmware.gone'", name="firmware.gone")
    mocker.patch.object(firmware.cli.rank, "run", side_effect=missing)
    with pytest.raises(ModuleNotFoundError):
        main(["rank", "1", "1", "1"])
