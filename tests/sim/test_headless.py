"""Headless play through `schocken sim --script`: a whole game, reproducible, frame by frame."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from pytest_mock import MockerFixture

import schockbesteck.cli
from firmware.app.device import DeviceApp
from firmware.screen.screens import render
from firmware.screen.views import BannerView, RevealView, TurnView, View
from sim.recorder import FrameRecorder, render_oled
from tests.sim.view_lines import view_line

GOLDEN = Path(__file__).parent / "golden"
#: The text golden: one line per frame of the whole game (see view_lines.py for the format).
GOLDEN_VIEWS = GOLDEN / "whole-game.views.txt"
REFRESH_HINT = (
    "if the screens changed on purpose, refresh with SCHOCKEN_REFRESH_GOLDEN=1 and read the "
    "diff (docs/simulator.md)"
)
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


@dataclass(frozen=True)
class Watched:
    """The whole game played with ``--frames``: the view behind each PNG, the PNGs, the
    events."""

    views: list[View]
    frames: list[Path]
    events: list[dict[str, object]]


def play_and_watch(tmp_path: Path, mocker: MockerFixture) -> Watched:
    """Play the whole game with ``--frames``: the view behind each PNG written, and the PNGs.

    The recorder writes a PNG when the picture the loop hands it differs from the last one; that
    picture is :meth:`DeviceApp.screen` of the moment, so the app's view then is the frame's view.
    """
    screens = mocker.spy(DeviceApp, "screen")
    display = FrameRecorder.display
    views: list[View] = []

    def display_and_note_the_view(recorder: FrameRecorder, image: Image.Image) -> None:
        written = recorder.files_written
        display(recorder, image)
        if recorder.files_written > written:
            assert image is screens.spy_return, "the recorder was handed another picture"
            views.append(screens.call_args.args[0].view)

    mocker.patch.object(
        FrameRecorder, "display", autospec=True, side_effect=display_and_note_the_view
    )
    frames = tmp_path / "frames"
    events = play(tmp_path, "--frames", str(frames))
    return Watched(views, sorted(frames.glob("frame_*.png")), events)


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory, module_mocker: MockerFixture) -> Watched:
    """:func:`play_and_watch` once for the module (some 200 PNGs), in the environment every
    test has (tests/conftest.py's German and state home, only the sim registered); read only."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
        patch.delenv("LC_ALL", raising=False)
        patch.delenv("LC_MESSAGES", raising=False)
        patch.setenv("LANG", "C.UTF-8")
        commands = schockbesteck.cli.SUBCOMMANDS
        patch.setattr(schockbesteck.cli, "SUBCOMMANDS", {"sim": commands["sim"]})
        try:
            return play_and_watch(tmp_path_factory.mktemp("watched"), module_mocker)
        finally:
            module_mocker.stopall()  # the spy and the recorder's patch end with the game


def first_thrown_turn(views: list[View]) -> int:
    """A turn with dice on the table: the first with all three thrown."""
    return next(
        index
        for index, view in enumerate(views)
        if isinstance(view, TurnView) and all(die.value is not None for die in view.dice)
    )


def final_reveal(views: list[View]) -> int:
    """The final reveal, with its marks, the player who is out and the Deckel that went."""
    return max(index for index, view in enumerate(views) if isinstance(view, RevealView))


def last_banner(views: list[View]) -> int:
    """The banner that ends the 2. Hälfte and announces the Finale (the last before the final
    reveal)."""
    before = final_reveal(views)
    return max(i for i, view in enumerate(views[:before]) if isinstance(view, BannerView))


#: The frames kept as pixel goldens, by their file in golden/ and how to find them in the game.
PIXEL_GOLDENS = {
    "turn.png": first_thrown_turn,
    "banner.png": last_banner,
    "reveal.png": final_reveal,
}


def test_the_views_and_three_frames_match_the_golden_ones(
    tmp_path: Path, watched: Watched
) -> None:
    """Every frame of the whole game as one line of its view, and three frames as pixels.

    Line N of ``golden/whole-game.views.txt`` is the view of ``frame_N.png`` as
    ``schocken sim --frames`` writes it: the views are noted at the very moment the recorder
    writes a file, and each is checked to render to exactly the pixels of that file, so the lines
    pin the same frames in the same order as the PNGs do (when the text golden replaced the 213
    PNG goldens, its 213 lines rendered to those 213 PNGs, byte for byte). The rendering itself is
    pinned by three frames kept as PNGs (a turn, a banner, a reveal) and by tests/firmware's
    per-screen goldens.
    """
    views, frames = watched.views, watched.frames
    assert len(views) == len(frames), "a PNG was written without its view being noted"
    for view, frame in zip(views, frames, strict=True):
        with Image.open(frame) as written:
            assert render(view).tobytes() == written.tobytes(), f"{frame.name} is not its view"
    lines = [view_line(view) for view in views]
    text = "".join(f"{line}\n" for line in lines)
    if os.environ.get("SCHOCKEN_REFRESH_GOLDEN"):
        GOLDEN_VIEWS.write_text(text, encoding="utf-8")
        for name, find in PIXEL_GOLDENS.items():
            shutil.copy(frames[find(views)], GOLDEN / name)
    expected = GOLDEN_VIEWS.read_text(encoding="utf-8").splitlines()
    if lines != expected:
        produced = tmp_path / GOLDEN_VIEWS.name
        produced.write_text(text, encoding="utf-8")
        first = next(n for n in range(len(lines) + 1) if lines[n : n + 1] != expected[n : n + 1])
        pytest.fail(
            f"the game shows other screens from frame {first + 1} on ({len(lines)} frames, the "
            f"golden has {len(expected)}): diff {GOLDEN_VIEWS} {produced}; {REFRESH_HINT}"
        )
    for name, find in PIXEL_GOLDENS.items():
        made = frames[find(views)]
        with Image.open(made) as a, Image.open(GOLDEN / name) as b:
            assert a.mode == b.mode == "1"
            assert a.tobytes() == b.tobytes(), f"{made.name} differs from golden/{name}"


def test_the_recorded_game_ends_on_the_final_banner(watched: Watched) -> None:
    """After the final reveal and the Finale's banner, the last frame is "Spielende": who lost."""
    views, frames = watched.views, watched.frames
    over = watched.events[-1]
    assert over["event"] == "game_over"
    loser = over["loser"]
    last = views[-1]
    assert isinstance(last, BannerView)
    assert (last.title, last.headline) == ("Spielende", loser)
    assert "hat verloren" in last.lines
    with Image.open(frames[-1]) as written:
        assert render(last).tobytes() == written.tobytes()
    between = views[final_reveal(views) + 1 : -1]  # the Finale's banner: who lost it
    assert [view.title for view in between if isinstance(view, BannerView)] == ["Finale"]


@pytest.mark.slow  # make test: docs/img/demo.gif made again, frame by frame and each duration
# (tests/sim/test_docs_pictures.py)
def test_the_gif_is_written_and_timed_by_the_simulated_clock(tmp_path: Path) -> None:
    gif, frames = tmp_path / "game.gif", tmp_path / "frames"
    play(tmp_path, "--record", str(gif), "--frames", str(frames))
    with Image.open(gif) as animation:
        assert animation.size == (384, 192)
        assert animation.n_frames > 20
        total = 0
        for index in range(animation.n_frames):
            animation.seek(index)
            total += animation.info["duration"]
        last = animation.convert("RGB")
    assert 60_000 < total < 120_000  # about the game time the script describes
    with Image.open(sorted(frames.glob("frame_*.png"))[-1]) as banner:  # "Spielende"
        assert last.tobytes() == render_oled(banner.convert("1"), 3).convert("RGB").tobytes()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "11"], "--players 11: allowed are 2 to 10 players"),
        (["--players", "2", "--names", "A,B,C"], "--players 2 but --names gives 3 names"),
        (["--names", "Anna,Anna"], "--names: player names must differ"),
        (["--names", "Jo,Anne Marie"], "--names: player name 'Anne Marie': must not contain"),
        (["--names", "Jo"], "--names 'Jo' gives 1 name: a game has 2 to 10 players"),
        (["--names", "Jo," + "Annekathrin" * 4],
         "--names: player name 'AnnekathrinA'… has 44 characters: at most 40"),
        (["--names", "Bén,Çarla,🎲🎲"], "--names: player name '🎲🎲': the screen cannot draw '🎲'"),
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


def test_a_bad_script_touches_no_output_and_no_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Yesterday's frames, events and games stay as they were, down to the folders' times:
    the script is checked before an output is begun or the state directory locked."""
    script = tmp_path / "bad.txt"
    script.write_text("thorw\n", encoding="utf-8")
    out = tmp_path / "out"
    (out / "frames").mkdir(parents=True)
    (out / "frames" / "frame_0001.png").write_bytes(b"old")
    (out / "events.jsonl").write_text("old\n", encoding="utf-8")
    (out / "games").mkdir()
    folders = (out, out / "frames", out / "games")
    for path in (*folders, out / "events.jsonl", out / "frames" / "frame_0001.png"):
        os.utime(path, ns=(10**18, 10**18))
    before = {path: path.stat().st_mtime_ns for path in out.rglob("*")} | {
        out: out.stat().st_mtime_ns
    }
    status = schocken(
        "--script", str(script), "--events", str(out / "events.jsonl"),
        "--frames", str(out / "frames"), "--state-dir", str(out / "games"),
    )
    assert status == 2
    assert "line 1: unknown action 'thorw'" in capsys.readouterr().err
    assert {path: path.stat().st_mtime_ns for path in out.rglob("*")} | {
        out: out.stat().st_mtime_ns
    } == before, "no file or folder touched, no lock file made"


def test_without_game_options_the_device_setup_runs(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    script = tmp_path / "setup.txt"
    script.write_text("stand\n", encoding="utf-8")
    assert schocken("--script", str(script), "--events", str(events)) == 0
    assert events.read_text(encoding="utf-8") == ""  # still in the setup menu: no game yet


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "kein Bildschirm gefunden (weder DISPLAY noch WAYLAND_DISPLAY ist gesetzt), und "
               "kein Terminal zum Spielen: --script DATEI spielt ohne Bildschirm"),
        ("en", "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), and no terminal "
               "to play in: use --script FILE to play headless"),
    ],
)  # fmt: skip
def test_without_display_or_terminal_it_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], language: str, said: str
) -> None:
    """In the screens' language, as the screens would have said it."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert schocken("--players", "2", "--lang", language) == 2
    assert capsys.readouterr().err == f"schocken sim: error: {said}\n"


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


def test_the_summary_counts_the_actions_played_not_the_script_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = WHOLE_GAME.read_text(encoding="utf-8")
    summaries = []
    for extra in (0, 150, 1200):
        longer = tmp_path / f"game-{extra}.txt"
        longer.write_text(lines + "shake\nstand\n" * (extra // 2), encoding="utf-8")
        assert schocken(*GAME, "--script", str(longer)) == 0
        summaries.append(capsys.readouterr().err)
    played = {summary.split(" Skript-Aktionen gespielt")[0] for summary in summaries}
    assert len(played) == 1, summaries  # the same game, the same count
    count = int(played.pop().removeprefix("schocken sim: "))
    actions = [line for line in lines.splitlines() if line.split("#")[0].strip()]
    assert 0 < count <= len(actions) + 2
    assert f"(das Spiel war vor den übrigen {len(actions) + 1200 - count} aus)" in summaries[2]
    assert all("Spiel aus" in summary for summary in summaries)


#: The events of ``schocken sim --players 3 --seed 7 --script sim/scripts/whole-game.txt
#: --events - --no-save``, one JSON line each, as the device's event sink hands them out.
GOLDEN_EVENTS = GOLDEN / "whole-game.events.jsonl"


def test_the_whole_game_gives_the_golden_events(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "3", "--seed", "7", "--script", str(WHOLE_GAME), "--events", "-",
            "--no-save"]
    assert schocken(*argv) == 0
    events = capsys.readouterr().out
    if os.environ.get("SCHOCKEN_REFRESH_GOLDEN"):
        GOLDEN_EVENTS.write_text(events, encoding="utf-8")
    assert events == GOLDEN_EVENTS.read_text(encoding="utf-8"), REFRESH_HINT
