"""State folders written by an earlier version still resume and count as they did then.

Each folder under ``legacy/`` was written by the firmware of commit 8a81c3c (before the
journal's header and notes became typed), by playing on the device app or recording games the
way the device does; its ``expected.json`` holds what that version showed or counted from it.
The folders are copied before each test, so nothing here changes them.

- ``game-in-progress``: the device's dice, a KEEP mark set after a throw;
- ``entry-in-progress``: real dice, the roll-off entered, the opener's result half entered;
- ``rolloff-entry-in-progress``: real dice, one of three roll-off throws entered, then a die
  changed for the second (that version started such a game afresh: the throws were gone);
- ``evening``: two games before a Spieltag, four of its games finished and one under way;
- ``tournament-table``: two games of round 1 at table 7, reported and never acknowledged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.notation import to_notation
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.store.evening import load_evening
from firmware.store.gamestore import GameStore
from firmware.tournament.recount import recount_journals
from firmware.tournament.reporter import Reporter, TableIdentity
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.harness import make_app

LEGACY = Path(__file__).parent / "legacy"


def copied(name: str, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The legacy folder ``name`` copied into ``tmp_path`` (without its expectations), and
    what it must give."""
    folder = tmp_path / name
    shutil.copytree(LEGACY / name, folder, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((LEGACY / name / "expected.json").read_text(encoding="utf-8"))
    return folder, expected


@pytest.mark.parametrize(
    "name", ["game-in-progress", "entry-in-progress", "rolloff-entry-in-progress"]
)
def test_a_game_under_way_resumes_on_the_screen_it_was_left_on(tmp_path: Path, name: str) -> None:
    folder, expected = copied(name, tmp_path)
    app = make_app(DeviceConfig(), clock=FakeClock(), dice=SeededDice(99),
                   storage=StateDirectory(folder))
    assert app.game is not None, "the game goes on"
    assert len(app.game.actions) == expected["actions"]
    assert to_notation(app.game) == expected["state"]
    assert repr(app.view) == expected["view"]


def test_an_evening_counts_its_games_and_its_game_under_way_is_still_its(tmp_path: Path) -> None:
    folder, expected = copied("evening", tmp_path)
    storage = StateDirectory(folder)
    evening = load_evening(storage)
    assert evening.spieltag.id == expected["spieltag"]
    assert [game.partie for game in evening.games] == expected["parties"]
    assert [list(game.setup.players) for game in evening.games] == expected["players"]
    standings = [[line.place, line.player, line.score] for line in evening.standings()]
    assert standings == expected["standings"]
    stats = {name: [s.games, s.lost] for name, s in GameStore(storage).stats().items()}
    assert stats == expected["stats"]
    app = make_app(DeviceConfig(), clock=FakeClock(), dice=SeededDice(99), storage=storage)
    assert app.resumed and app.game is not None and not app.game.is_over


def test_a_tournament_table_recounts_the_same_results_and_still_waits_for_them(
    tmp_path: Path,
) -> None:
    folder, expected = copied("tournament-table", tmp_path)
    storage = StateDirectory(folder)
    results = [result.to_json().decode() for result in recount_journals(storage, "cup26")]
    assert results == expected["results"]
    reporter = Reporter(TableIdentity("cup26", 7), storage, clock=FakeClock(1000.0),
                        wall=lambda: 1_800_000_000.0, resend_s=30.0)
    assert sorted(reporter.waiting()) == expected["waiting"]
