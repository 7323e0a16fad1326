"""Headless play through `schocken sim --script`: a whole game, reproducible, frame by frame."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

import schockbesteck.cli

GOLDEN = Path(__file__).parent / "golden"
SCRIPTS = Path(__file__).resolve().parents[2] / "sim" / "scripts"
GAME = ["--players", "3", "--rules", str(SCRIPTS / "three-deckel.toml"), "--seed", "7"]
WHOLE_GAME = SCRIPTS / "whole-game.txt"


@pytest.fixture(autouse=True)
def only_the_sim_subcommand(monkeypatch: pytest.MonkeyPatch) -> None:
    """`schocken` through its real main(), with just the sim registered (fewer imports)."""
    commands = schockbesteck.cli.SUBCOMMANDS
    monkeypatch.setattr(schockbesteck.cli, "SUBCOMMANDS", {"sim": commands["sim"]})


def schocken(*argv: str) -> int:
    return schockbesteck.cli.main(["sim", *argv])


def play(tmp_path: Path, *extra: str, seed: str = "7") -> list[dict[str, object]]:
    events = tmp_path / f"events-{seed}.jsonl"
    argv = [*GAME[:-1], seed, "--script", str(WHOLE_GAME), "--events", str(events)]
    assert schocken(*argv, *extra) == 0
    return [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]


def test_a_seeded_script_plays_a_whole_game_to_game_over(tmp_path: Path) -> None:
    events = play(tmp_path)
    assert all("event" in event for event in events)
    assert events[0]["event"] == "game_started"
    assert events[-1]["event"] == "game_over"
    assert events[-1]["loser"] in ("Anna", "Ben", "Carla")
    kinds = [event["event"] for event in events]
    assert kinds.count("game_over") == 1 and "roll" in kinds and "round_over" in kinds


def test_the_same_seed_plays_the_same_game_and_another_seed_another(tmp_path: Path) -> None:
    first, again = play(tmp_path), play(tmp_path)
    assert first == again
    assert play(tmp_path, seed="8") != first


def test_the_frames_match_the_golden_frames(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    play(tmp_path, "--frames", str(frames))
    produced = sorted(frames.glob("frame_*.png"))
    if os.environ.get("SCHOCKEN_REFRESH_GOLDEN"):
        for old in GOLDEN.glob("frame_*.png"):
            old.unlink()
        for path in produced:
            shutil.copy(path, GOLDEN / path.name)
    expected = sorted(GOLDEN.glob("frame_*.png"))
    assert [p.name for p in produced] == [p.name for p in expected], (
        "the game shows a different number of frames; if the screens changed on purpose, "
        "refresh with SCHOCKEN_REFRESH_GOLDEN=1 (docs/simulator.md)"
    )
    for made, golden in zip(produced, expected, strict=True):
        with Image.open(made) as a, Image.open(golden) as b:
            assert a.mode == b.mode == "1"
            assert a.tobytes() == b.tobytes(), f"{made.name} differs from {golden}"


def test_the_gif_is_written_and_timed_by_the_simulated_clock(tmp_path: Path) -> None:
    gif = tmp_path / "game.gif"
    play(tmp_path, "--record", str(gif))
    with Image.open(gif) as animation:
        assert animation.size == (384, 192)
        assert animation.n_frames > 20
        total = 0
        for index in range(animation.n_frames):
            animation.seek(index)
            total += animation.info["duration"]
    assert 60_000 < total < 120_000  # about the game time the script describes


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "11"], "--players 11: allowed are 2 to 10 players"),
        (["--players", "2", "--names", "A,B,C"], "--players 2 but --names gives 3 names"),
        (["--names", "Anna,Anna"], "player names must differ"),
        (["--rules", "nonsense"], "unknown rules 'nonsense'"),
        (
            ["--record", "out.mp4", "--script", "x"],
            "--record out.mp4: the file name must end in .gif",
        ),
        (["--script", "missing.txt"], "missing.txt"),
        (["--script", "x", "--terminal"], "--script plays headless: --terminal cannot be used"),
        (["--players", "3", "--bots", ",odds"], "--bots ,odds: 2 entries for 3 players"),
        (["--bots", "human,genius"], "unknown strategy 'genius': use odds, threshold"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert schocken(*argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("schocken sim: error: ")
    assert message in err


def test_a_bad_script_line_is_named_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "demo.txt"
    script.write_text("shake\nstand\n# fine so far\nthorw\n", encoding="utf-8")
    assert schocken("--seed", "1", "--script", str(script)) == 2
    err = capsys.readouterr().err
    assert err == (
        f"schocken sim: error: {script} line 4: unknown action 'thorw' in 'thorw'; "
        "use keep1, keep2, keep3, flip, stand, hold BUTTON, shake, wait SECONDS\n"
    )


def test_without_game_options_the_device_setup_runs(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    script = tmp_path / "setup.txt"
    script.write_text("stand\n", encoding="utf-8")
    assert schocken("--script", str(script), "--events", str(events)) == 0
    assert events.read_text(encoding="utf-8") == ""  # still in the setup menu: no game yet


def test_without_display_or_terminal_it_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert schocken("--players", "2") == 2
    assert capsys.readouterr().err == (
        "schocken sim: error: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), "
        "and no terminal to play in: use --script FILE to play headless\n"
    )


def test_a_person_against_a_bot_plays_to_game_over_on_a_simple_script(tmp_path: Path) -> None:
    """The person throws once and stands; every press while the bot plays only hurries it."""
    script = tmp_path / "versus.txt"
    script.write_text("shake\nstand\nwait 2\n" * 400, encoding="utf-8")
    events_file = tmp_path / "events.jsonl"
    argv = ["--bots", ",odds", "--seed", "7", "--script", str(script), "--events", str(events_file)]
    assert schocken(*argv) == 0
    events = [json.loads(line) for line in events_file.read_text(encoding="utf-8").splitlines()]
    assert events[0]["players"] == ["Anna", "Ben"] and events[0]["bots"] == {"Ben": "odds"}
    assert events[-1]["event"] == "game_over"
    stood = {event["player"] for event in events if event["event"] in ("stand", "turn_over")}
    assert stood == {"Anna", "Ben"}
