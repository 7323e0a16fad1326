"""The page's Spieltag answers on a real state directory: recounted only when the directory
changed, the game in play's scharf added; the sheet's file named after its Spieltag."""

from __future__ import annotations

from pathlib import Path

from pytest_mock import MockerFixture

from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.link import evening_page
from firmware.link.evening_page import SpieltagAnswers, sheet_filename
from firmware.store.spieltagfile import SpieltagFiles
from hal.storage import StateDirectory
from tests.durable.evening import play_games

PLAYERS = ("Anna", "Ben", "Cem", "Dora")


def test_twenty_pages_asking_cost_one_recount_until_a_game_ends(
    tmp_path: Path, mocker: MockerFixture
) -> None:
    storage = StateDirectory(tmp_path)
    SpieltagFiles(storage).begin(
        Spieltag("t1", "7. Spieltag", load_scheme("platzpunkte"), "2026-12-01")
    )
    play_games(tmp_path, PLAYERS, 2, deckel=3)
    counted = mocker.spy(evening_page, "spieltag_answer")
    answers = SpieltagAnswers(storage)
    seen = [answers.answer(scharf=page % 2 == 0) for page in range(20)]
    assert counted.call_count == 1
    assert {answer["games"] for answer in seen} == {2}
    assert [answer["scharf"] for answer in seen[:2]] == [True, False]
    play_games(tmp_path, PLAYERS, 1, seed=9, deckel=3)
    assert answers.answer()["games"] == 3 and counted.call_count == 2
    SpieltagFiles(storage).end()
    assert answers.answer() == {"spieltag": None} and counted.call_count == 3


def test_the_sheet_is_named_after_its_spieltag() -> None:
    spieltag = Spieltag("t1", "7. Spieltag: Süd/Nord", load_scheme("leben"), "2026-12-01")
    named = sheet_filename(spieltag, "pdf")
    assert named == "Spielberichtsbogen-7-Spieltag-Süd-Nord-2026-12-01.pdf"
    blank = Spieltag("20261201-190000", "!!!", load_scheme("leben"), "2026-12-01")
    assert sheet_filename(blank, "csv") == "Spielberichtsbogen-20261201-190000-2026-12-01.csv"
