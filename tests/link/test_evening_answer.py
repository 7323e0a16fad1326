"""What the page is told of an evening that forgives (``spieltag_answer``, the ``spieltag``
line's JSON): the table sizes its scheme scores, the finished games not counted and why, and
under Leben after which Partie each player went out."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from engine.scoring import load_scheme, standings
from engine.spieltag import Change, Spieltag
from firmware.link.evening_page import spieltag_answer
from firmware.store.evening import load_evening
from firmware.store.spieltagamend import amend_evening
from firmware.store.spieltagfile import SpieltagFiles
from hal.storage import StateDirectory
from tests.durable.evening import play_games

FOUR = ("Anna", "Ben", "Carla", "Dora")


def test_the_page_hears_of_the_games_not_counted_and_the_sizes_that_count(
    tmp_path: Path,
) -> None:
    storage = StateDirectory(tmp_path)
    SpieltagFiles(storage).begin(
        Spieltag("20261201-193000", "7. Spieltag", load_scheme("platzpunkte"), "2026-12-01")
    )
    play_games(tmp_path, FOUR[:3], 2, seed=2, deckel=3)
    play_games(tmp_path, FOUR[:2], 1, seed=3, deckel=3)
    amend_evening(storage, None, Change.TAKE_OUT, datetime.now().astimezone(), partie=1)
    answer = spieltag_answer(storage)
    assert answer["spieltag"]["places"] == [3, 4] and answer["games"] == 1
    assert answer["not_counted"] == [
        {"partie": 1, "players": 3, "why": "taken_out"},
        {"partie": 3, "players": 2, "why": "table_size"},
    ]
    (counted,) = load_evening(storage).counted
    expected = standings(load_scheme("platzpunkte"), [counted.result])
    assert [line["score"] for line in answer["standings"]] == [line.score for line in expected]


def test_under_leben_the_page_hears_after_which_partie_a_player_went_out(
    tmp_path: Path,
) -> None:
    storage = StateDirectory(tmp_path)
    scheme = replace(load_scheme("leben"), lives=1)
    SpieltagFiles(storage).begin(Spieltag("20261201-193000", "Leben", scheme, "2026-12-01"))
    played = play_games(tmp_path, FOUR[:3], 2, seed=4, deckel=3)
    answer = spieltag_answer(storage)
    assert answer["spieltag"]["places"] == []
    out = {line["player"]: line["out_after"] for line in answer["standings"] if line["out"]}
    first, second = (game.loser for game in played)
    assert first != second  # the seed's: two players out, one after the other
    assert out == {first: 1, second: 2}
    places = {line["player"]: line["place"] for line in answer["standings"]}
    assert places[second] == 2 and places[first] == 3  # went out later: placed better
