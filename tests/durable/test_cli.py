"""`schocken stats` and `schocken replay` through the real CLI entry point."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from engine import Game
from firmware.store.gamestore import CURRENT, GameStore
from firmware.store.journal import Journal, JournalHeader
from hal.storage import StateDirectory
from schockbesteck.cli import main
from tests.durable.conftest import blattschuss_game, random_actions


def finished_games(root: Path, times: int = 2) -> None:
    store = GameStore(StateDirectory(root))
    setup, actions = blattschuss_game()
    for _ in range(times):
        game = Game(setup)
        store.begin(JournalHeader(setup))
        for action in actions:
            store.record(game.apply(action))


def test_stats_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_games(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("  ")[0] == "Spieler"
    assert "Blattschüsse" in lines[0] and "Schock aus" in lines[0]
    assert lines[1].split() == ["Anna", "2", "0", "0", "0", "0", "4"]
    assert lines[2].split() == ["Ben", "2", "2", "4", "2", "2", "0"]


def test_stats_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_games(tmp_path, times=1)
    assert main(["stats", "--json", "--state-dir", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"]["Ben"] == {
        "games": 1, "lost": 1, "halves_lost": 2, "blattschuss": 1, "schocks": 1, "schock_aus": 0,
    }
    assert main(["stats", "--csv", "--state-dir", str(tmp_path)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["player"] for row in rows] == ["Anna", "Ben"]
    assert rows[0]["schock_aus"] == "2" and rows[1]["blattschuss"] == "1"


def test_stats_of_an_empty_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--lang", "en", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "No finished games yet.\n"


def test_stats_of_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--state-dir", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err and "--state-dir" in err


def test_stats_does_not_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_games(tmp_path, times=1)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    main(["stats", "--state-dir", str(tmp_path)])
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_replay_of_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_games(tmp_path, times=1)
    assert main(["replay", str(tmp_path / "game-000001.journal")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Spiel: Anna, Ben – Regeln: standard (13 Deckel)"
    assert out[1] == "Auswürfeln: Anna 1-1-1, Ben 2-3-5"
    assert "  Anna: wirft 1-1-1 → Schock aus (1 Wurf)" in out
    assert "Ben verliert die 1. Hälfte." in out
    assert out[-1] == "Verlierer des Spiels: Ben (Blattschuss: beide Hälften verloren)"


def test_replay_of_an_interrupted_game_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup, actions = random_actions(3)
    state = StateDirectory(tmp_path)
    journal = Journal.create(state, CURRENT, JournalHeader(setup))
    game = Game(setup)
    for action in actions[:60]:
        game.apply(action)
        journal.append(action)
    with (tmp_path / CURRENT).open("ab") as file:
        file.write(b"57 0badc0de {\"n\": 60, \"ev")  # the plug was pulled mid-append
    assert main(["replay", "--lang", "en", str(tmp_path / CURRENT)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("Game: P0, P1, P2 – rules: standard")
    assert any(line.startswith("First half, round 1: ") for line in lines)
    turn = game.turn
    assert turn is not None
    assert lines[-1] == (
        f"(game interrupted: {turn.player} to throw, throw {turn.throws + 1} of {turn.limit})"
    )
    assert "damaged end ignored" in captured.err and "torn" in captured.err


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "does not exist"), (b"", "is not a Schockbesteck journal"),
     (b"\x89PNG\r\n", "is not a Schockbesteck journal")],
)
def test_replay_of_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "x.journal"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
