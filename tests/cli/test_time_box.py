"""`schocken spieltag begin --time-box`: the minutes after which the game in play goes on
"scharf"; bad time boxes and a second evening are one line and change nothing; a scharf game
in the journal is told by `schocken replay` and counted by `stats` and `sheet`."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from engine import Game, GameSetup
from firmware.store.gamestore import GameStore
from firmware.store.journal import JournalHeader
from firmware.store.spieltagfile import SPIELTAG_FILE, open_spieltag_id
from hal.storage import StateDirectory

Run = Callable[..., tuple[int, str, str]]
PLAYERS = ("Anna", "Ben", "Carla")


def begin(schocken: Run, root: Path, *more: str) -> tuple[int, str, str]:
    return schocken("spieltag", "begin", "--name", "8", "--state-dir", str(root), *more)


def test_the_time_box_is_kept_with_the_time_the_evening_began(
    schocken: Run, tmp_path: Path
) -> None:
    before = datetime.now().astimezone().replace(microsecond=0)
    status, out, err = begin(schocken, tmp_path, "--time-box", "70")
    assert (status, err) == (0, "") and "begonnen" in out
    kept = json.loads((tmp_path / SPIELTAG_FILE).read_text())
    assert kept["time_box_minutes"] == 70
    assert before <= datetime.fromisoformat(kept["began_at"]) <= datetime.now().astimezone()


@pytest.mark.parametrize(
    ("minutes", "words"),
    [
        ("0", "--time-box 0: must be a whole number of minutes from 1 to 600"),
        ("-5", "--time-box -5: must be a whole number of minutes from 1 to 600"),
        ("601", "--time-box 601: must be a whole number of minutes from 1 to 600"),
        ("99999", "--time-box 99999: must be"),
        ("70.5", "--time-box '70.5': must be a whole number of minutes from 1 to 600"),
        # digits 0-9 and nothing else, as every number of the command line (Python's int
        # would take these)
        ("７０", "--time-box '７０': must be a whole number of minutes"),
        (" 70", "--time-box ' 70': must be a whole number of minutes"),
        ("+70", "--time-box '+70': must be a whole number of minutes"),
        ("7_0", "--time-box '7_0': must be a whole number of minutes"),
        ("70 ", "--time-box '70 ': must be a whole number of minutes"),
    ],
)
def test_a_time_box_that_is_no_time_is_one_line_and_begins_nothing(
    schocken: Run, tmp_path: Path, minutes: str, words: str
) -> None:
    status, out, err = begin(schocken, tmp_path, f"--time-box={minutes}")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err, err
    assert list(tmp_path.iterdir()) == [], "nothing written"


def test_beginning_a_spieltag_while_one_is_going_on_is_one_line_and_keeps_it(
    schocken: Run, tmp_path: Path
) -> None:
    assert begin(schocken, tmp_path, "--time-box", "60")[0] == 0
    kept = (tmp_path / SPIELTAG_FILE).read_bytes()
    status, out, err = schocken(
        "spieltag", "begin", "--name", "9", "--time-box", "75", "--state-dir", str(tmp_path)
    )
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "the Spieltag '8'" in err and "is still going on: end it first" in err
    assert (tmp_path / SPIELTAG_FILE).read_bytes() == kept


def test_a_damaged_time_box_in_the_file_is_named_in_one_line(
    schocken: Run, tmp_path: Path
) -> None:
    assert begin(schocken, tmp_path, "--time-box", "60")[0] == 0
    path = tmp_path / SPIELTAG_FILE
    path.write_text(path.read_text().replace('"time_box_minutes": 60', '"time_box_minutes": 0.5'))
    kept = path.read_bytes()
    status, _, err = schocken("stats", "--spieltag", "--state-dir", str(tmp_path))
    assert status == 2 and err.count("\n") == 1
    assert "is damaged (time_box_minutes = 0.5: must be a whole number" in err
    assert path.read_bytes() == kept


def scharf_game(root: Path) -> Game:
    """A game of the evening whose time box ran out in its roll-off: three scharf rounds."""
    store = GameStore(StateDirectory(root))
    store.open()
    setup = GameSetup(PLAYERS)
    game = Game(setup)
    store.begin(JournalHeader(setup, spieltag=open_spieltag_id(store.storage)))
    store.record(game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)]))  # Anna opens
    store.record(game.go_scharf(70))
    for throws in (
        [(4, 3, 1), (6, 5, 3), (6, 6, 2)],  # Anna loses half 1 at once
        [(6, 6, 6), (5, 4, 1), (2, 2, 3)],  # Carla loses half 2
        [(5, 5, 5), (6, 3, 2)],  # Carla opens the Finale, Anna loses it
    ):
        store.record(game.roll(throws[0]))
        store.record(game.stand())
        for dice in throws[1:]:
            store.record(game.roll(dice))
    assert game.is_over and game.loser == "Anna"
    return game


def test_replay_stats_and_sheet_see_the_scharf_game(schocken: Run, tmp_path: Path) -> None:
    assert begin(schocken, tmp_path, "--time-box", "70")[0] == 0
    scharf_game(tmp_path)
    status, out, err = schocken("replay", "--state-dir", str(tmp_path), "--lang", "en")
    assert (status, err) == (0, "")
    assert "time up after 70 minutes: scharf from now on (a round's loser loses the half)" in out
    assert out.count("scharf: Anna loses the half") == 2  # half 1 and the Finale
    assert out.count("scharf: Carla loses the half") == 1
    status, out, _ = schocken("stats", "--spieltag", "--state-dir", str(tmp_path), "--lang", "en")
    assert status == 0 and "after 1 game\n" in out
    status, out, _ = schocken("sheet", "--json", "--state-dir", str(tmp_path))
    partie = json.loads(out)["partien"][0]
    assert status == 0
    assert (partie["half_1"], partie["half_2"], partie["final"]) == ("Anna", "Carla", "Anna")
