"""`make sim`: the command line make runs takes its players from SIM_ARGS."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

import schockbesteck.cli

ROOT = Path(__file__).parents[2]
ROUND = ROOT / "sim" / "scripts" / "demo.txt"


def make_sim_command(sim_args: str) -> list[str]:
    """The command `make sim SIM_ARGS=...` runs, as make prints it (the venv taken as made)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    printed = subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", ".venv/.play-stamp", "sim",
         f"SIM_ARGS={sim_args}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip().splitlines()  # fmt: skip
    command = shlex.split(printed[-1])
    assert Path(command[0]).name == "schocken" and command[1] == "sim"
    return command[1:]


def players_of(tmp_path: Path, sim_args: str) -> list[str]:
    """Run `make sim SIM_ARGS=...` headless (a round by script): the players it dealt."""
    events = tmp_path / "events.jsonl"
    argv = make_sim_command(f"{sim_args} --script {ROUND} --events {events}")
    assert schockbesteck.cli.main(argv) == 0
    first = json.loads(events.read_text(encoding="utf-8").splitlines()[0])
    assert first["event"] == "game_started"
    return list(first["players"])


def test_make_sim_deals_three_players_by_default(tmp_path: Path) -> None:
    assert len(players_of(tmp_path, "")) == 3


def test_make_sim_takes_the_players_from_names(tmp_path: Path) -> None:
    assert players_of(tmp_path, "--names Jo,Lu") == ["Jo", "Lu"]


def test_make_sim_takes_the_player_count_from_bots(tmp_path: Path) -> None:
    assert len(players_of(tmp_path, "--bots ,odds")) == 2


def test_only_a_conflicting_players_option_given_by_hand_is_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = make_sim_command("--players 3 --names Jo,Lu --script x.txt")
    assert schockbesteck.cli.main(argv) == 2
    assert "--players 3 but --names gives 2 names" in capsys.readouterr().err
