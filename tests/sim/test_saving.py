"""A laptop keeps its games like the device: `schocken sim --terminal` in a real pseudo-terminal,
left with Esc, started again, killed with SIGKILL mid-round and resumed, and a second simulator
refused.

The simulators in the terminal settle the cup sooner than the device's default (the config
``timing_config`` writes), and each key waits for what it does on disk, not a fixed time: a
press typed just before a shake is decoded first (its release comes before the shake's edges)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import Event, Game, to_notation
from firmware.store.gamestore import CURRENT
from firmware.store.journal import Recovery, recover
from hal.storage import StateDirectory
from tests.sim.test_terminal_play import LAUNCH, ROOT, pending_events, read_for, timing_config

#: How long a simulator may take to draw its first frame on a busy machine.
START_S = 20.0


class TerminalSim:
    """`schocken sim --terminal ARGS` on a pseudo-terminal: keys in, the screen's bytes out."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        # The pty's size, not COLUMNS/LINES of the caller's environment (pytest-xdist sets 80x24).
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env |= {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
        config = timing_config(cwd)
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "sim", "--terminal", "--config", str(config), *args],
            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True,
        )
        os.close(slave)
        self.shown = bytearray()
        deadline = time.monotonic() + START_S
        while "▀".encode() not in self.shown and time.monotonic() < deadline:
            read_for(self.master, 0.1, self.shown)  # until the first frame is drawn
        assert "▀".encode() in self.shown, self.text()

    def keys(self, *steps: tuple[str, float]) -> None:
        for key, pause in steps:
            os.write(self.master, key.encode())
            read_for(self.master, pause, self.shown)

    def wait_until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + START_S
        while not done():
            assert time.monotonic() < deadline, f"never: {what}"
            read_for(self.master, 0.05, self.shown)

    def finish(self, *, kill: bool = False) -> int:
        if kill:
            self.process.send_signal(signal.SIGKILL)
        try:
            return self.process.wait(timeout=10)
        finally:
            read_for(self.master, 0.2, self.shown)
            os.close(self.master)

    def text(self) -> str:
        return self.shown.decode("utf-8", errors="replace")


def journal(state: Path) -> Recovery:
    recovery = recover(StateDirectory(state), CURRENT)
    assert recovery is not None, "an unfinished game is kept"
    return recovery


def on_disk(state: Path) -> int:
    """How many actions the journal in ``state`` holds (none before the game begins)."""
    recovery = recover(StateDirectory(state), CURRENT)
    return len(recovery.actions) if recovery is not None else 0


def shake_until(sim: TerminalSim, state: Path, actions: int) -> None:
    """Space (a whole shake), then wait until the throw is on disk: the ``actions``-th action."""
    sim.keys((" ", 0.0))
    sim.wait_until(lambda: on_disk(state) == actions, f"action {actions} on disk")


def position(recovery: Recovery) -> str:
    return to_notation(Game.replay(recovery.setup, recovery.actions))


def events(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def kinds(actions: list[Event]) -> list[str]:
    return [type(action).__name__ for action in actions]


def test_a_game_survives_esc_and_sigkill_and_resumes_at_the_same_action(tmp_path: Path) -> None:
    state = tmp_path / "state"
    game = ("--players", "2", "--seed", "3", "--state-dir", str(state))

    # Esc after the roll-off and the first throw: the game is kept. Each throw after a press
    # waits for what the press does (its events): on a busy machine the press's release could
    # come among the shake's edges.
    seen = [tmp_path / "first", tmp_path / "second"]
    for folder in seen:
        folder.mkdir()
    first = TerminalSim(tmp_path, *game, "--events", str(seen[0] / "events.jsonl"))
    shake_until(first, state, 1)
    first.keys(("s", 0.0))
    first.wait_until(lambda: "round_started" in pending_events(seen[0]), "the round started")
    shake_until(first, state, 2)
    first.keys(("\x1b", 0.0))
    assert first.finish() == 0
    assert "das unfertige Spiel liegt in" in first.text()
    after_esc = journal(state)
    assert kinds(after_esc.actions) == ["RollOff", "Roll"]

    # Started again: "Weiterspielen?" (OK goes on), one more throw, then SIGKILL mid-round.
    second = TerminalSim(tmp_path, *game, "--events", str(seen[1] / "events.jsonl"))
    second.keys(("s", 0.0))
    second.wait_until(lambda: "game_resumed" in pending_events(seen[1]), "the game resumed")
    shake_until(second, state, 3)
    assert second.finish(kill=True) == -signal.SIGKILL
    killed = journal(state)
    assert killed.actions[:2] == after_esc.actions and kinds(killed.actions)[2] == "Roll"

    # And again (a script of nothing, in this process: the terminal's way back in is the
    # second's): it resumes exactly there, and nothing is added by going on and leaving.
    played, nothing = tmp_path / "events.jsonl", tmp_path / "nothing.txt"
    nothing.write_text("")
    assert sim(*game, "--events", str(played), "--script", str(nothing)) == 0
    resumed = [event for event in events(played) if event["event"] == "game_resumed"]
    assert resumed == [{"event": "game_resumed", "game": 1, "actions": 3}]
    assert "game_started" not in [event["event"] for event in events(played)]
    assert journal(state).actions == killed.actions
    assert position(journal(state)) == position(killed)


@pytest.mark.slow  # make test: test_a_run_that_played_nothing_keeps_no_game_and_says_none
def test_quitting_before_anything_was_played_keeps_no_game_and_says_none(
    tmp_path: Path,
) -> None:
    """As on the "terminal too small" screen: q at once. The journal holds no action, the next
    start drops it, so no line says that an unfinished game is kept."""
    state = tmp_path / "state"
    quick = TerminalSim(tmp_path, "--players", "2", "--seed", "3", "--state-dir", str(state))
    quick.keys(("q", 0.0))
    assert quick.finish() == 0
    assert "das unfertige Spiel liegt in" not in quick.text()
    assert not journal(state).actions


@pytest.mark.slow  # make test: the lock's refusal in tests/hal/test_storage.py, the device's in
# tests/firmware/test_run.py
def test_a_second_simulator_on_the_same_state_directory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schockbesteck.cli import main

    state = tmp_path / "state"
    first = TerminalSim(tmp_path, "--players", "2", "--seed", "5", "--state-dir", str(state))
    try:
        shake_until(first, state, 1)
        first.keys(("s", 0.0))
        shake_until(first, state, 2)
        before = journal(state)
        script = tmp_path / "play.txt"
        script.write_text("shake\nstand\nshake\nstand\n")
        status = main(["sim", "--script", str(script), "--state-dir", str(state)])
        err = capsys.readouterr().err
        assert status == 2
        assert err == (
            f"schocken sim: error: the state directory {state} is in use by another "
            f"Schockbesteck (process {first.process.pid}): end that game first, or play with "
            "--state-dir DIR or --no-save\n"
        )
        assert journal(state).actions == before.actions  # untouched by the second one
        first.keys(("s", 0.0))
        shake_until(first, state, len(before.actions) + 2)  # the stand, then the next throw
        first.keys(("q", 0.0))
    finally:
        assert first.finish() == 0
    assert journal(state).actions[: len(before.actions)] == before.actions
    assert len(journal(state).actions) > len(before.actions)  # the first one played on
    # nothing damaged; the players' names are remembered for the setup
    assert sorted(path.name for path in state.iterdir()) == [CURRENT, "lock", "names.json"]


# -- headless runs and where the games go ------------------------------------------------------

SCRIPTS = ROOT / "sim" / "scripts"
WHOLE_GAME = ["--players", "3", "--rules", str(SCRIPTS / "three-deckel.toml"), "--seed", "7",
              "--script", str(SCRIPTS / "whole-game.txt")]


def sim(*argv: str) -> int:
    from schockbesteck.cli import main

    return main(["sim", *argv])


def test_a_script_run_keeps_nothing_unless_asked(tmp_path: Path) -> None:
    assert sim(*WHOLE_GAME) == 0
    home = Path(os.environ["XDG_STATE_HOME"])
    assert list(home.iterdir()) == []  # not even the folder


def test_a_script_run_with_a_state_dir_keeps_the_finished_game_for_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schockbesteck.cli import main

    state = tmp_path / "games"
    assert sim(*WHOLE_GAME, "--state-dir", str(state)) == 0
    assert sorted(path.name for path in state.iterdir()) == [
        "game-000001.journal", "lock", "names.json", "stats.json",
    ]
    capsys.readouterr()
    assert main(["stats", "--state-dir", str(state), "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert sorted(players) == ["Anna", "Ben", "Carla"]
    assert sum(figures["lost"] for figures in players.values()) == 1


def test_a_run_that_played_nothing_keeps_no_game_and_says_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run that ends before the first action (a script of nothing; the terminal's q at once
    in the slow selection): its journal holds no action, no line says a game is kept, and the
    next start drops it rather than go on with it (three players now, where a game begun with
    two would resume with two)."""
    state = tmp_path / "state"
    nothing, one = tmp_path / "nothing.txt", tmp_path / "one.txt"
    nothing.write_text("")
    one.write_text("shake\n")
    assert sim("--players", "2", "--seed", "3", "--state-dir", str(state),
               "--script", str(nothing)) == 0
    assert "das unfertige Spiel liegt in" not in capsys.readouterr().err
    assert not journal(state).actions

    assert sim("--players", "3", "--seed", "3", "--state-dir", str(state),
               "--script", str(one)) == 0
    assert "das unfertige Spiel liegt in" in capsys.readouterr().err
    assert journal(state).setup.players == ("Anna", "Ben", "Carla")


def test_the_configs_storage_section_chooses_the_folder(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "from-config"}"\n')
    short = tmp_path / "short.txt"
    short.write_text("shake\nstand\nshake\n")  # the roll-off, go on, a throw: unfinished
    assert sim("--config", str(config), "--players", "2", "--script", str(short)) == 0
    assert journal(tmp_path / "from-config").actions
    # --state-dir wins over the config, --no-save over both
    assert sim("--config", str(config), "--players", "2", "--script", str(short),
               "--state-dir", str(tmp_path / "given")) == 0
    assert journal(tmp_path / "given").actions
    (tmp_path / "from-config" / CURRENT).unlink()
    assert sim("--config", str(config), "--players", "2", "--script", str(short),
               "--no-save") == 0
    assert not (tmp_path / "from-config" / CURRENT).exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--state-dir", "{tmp}/no/such/games"),
         "--state-dir {tmp}/no/such/games: its folder {tmp}/no does not exist; create it "
         "first, or give another"),
        (("--state-dir", "{tmp}/a-file"),
         "--state-dir {tmp}/a-file: is a file, not a folder; give a folder to keep the games in"),
        (("--state-dir", "{tmp}/games", "--no-save"),
         "argument --no-save: not allowed with argument --state-dir"),
        (("--state-dir", "{tmp}/games", "--attach", "loop://"),
         "--attach drives a device elsewhere: --state-dir cannot be used with it"),
    ],
)
def test_a_state_dir_that_cannot_be_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    (tmp_path / "a-file").write_text("")
    script = tmp_path / "play.txt"
    script.write_text("shake\n")
    words = [word.format(tmp=tmp_path) for word in argv]
    if "--attach" not in words:
        words += ["--script", str(script)]
    assert sim(*words) == 2
    err = capsys.readouterr().err
    assert message.format(tmp=tmp_path) in err and err.count("\n") == 1
    assert not (tmp_path / "no").exists() and not (tmp_path / "games").exists()


# -- stats and replay find the laptop's games without flags ------------------------------------


@pytest.fixture
def no_device(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This computer is no Schockbesteck (whatever the machine running the tests is)."""
    monkeypatch.setattr("firmware.cli.statedir.DEVICE_STATE_DIR", str(tmp_path / "no-device"))


def test_stats_and_replay_find_the_laptops_games(
    no_device: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schockbesteck.cli import main

    home = Path(os.environ["XDG_STATE_HOME"]) / "schockbesteck"
    assert main(["stats"]) == 0
    assert capsys.readouterr().out == "Noch keine beendeten Spiele.\n"
    assert main(["replay"]) == 2
    assert "no games on this computer yet: play one with `schocken sim`" in (
        capsys.readouterr().err
    )

    assert sim(*WHOLE_GAME, "--state-dir", str(home)) == 0
    capsys.readouterr()
    assert main(["stats", "--lang", "en"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:3] == ["Player", "Games", "Lost"]
    assert sorted(line.split()[0] for line in table[1:]) == ["Anna", "Ben", "Carla"]

    assert main(["replay", "--list", "--lang", "en"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 1 and listed[0].startswith("    1  Anna, Ben, Carla – loser: ")
    assert main(["replay"]) == 0
    newest = capsys.readouterr()
    assert newest.err == "", "which game it found is no error"
    first, second = newest.out.splitlines()[:2]
    assert first == f"Journal: {home / 'game-000001.journal'}"
    assert second.startswith("Spiel: Anna, Ben, Carla")
    assert "Verlierer des Spiels" in newest.out
    assert main(["replay", "1"]) == 0
    assert capsys.readouterr().out == newest.out

    # An unfinished game comes first: it is the one people ask about.
    short = tmp_path / "short.txt"
    short.write_text("shake\nstand\nshake\n")
    assert sim("--players", "2", "--script", str(short), "--state-dir", str(home)) == 0
    capsys.readouterr()
    assert main(["replay"]) == 0
    going = capsys.readouterr()
    assert (going.err, going.out.splitlines()[0]) == ("", f"Journal: {home / CURRENT}")
    assert going.out.splitlines()[-1].startswith("(Spiel unterbrochen")
    assert main(["replay", "7"]) == 2
    assert capsys.readouterr().err == (
        f"schocken replay: error: game 7 is not in {home}: `schocken replay --list` shows "
        "the games there\n"
    )
