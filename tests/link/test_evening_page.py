"""The page's Spieltag answers on a real state directory: recounted only when the directory
changed, the game in play's scharf added; the sheet's file named after its Spieltag; the
Kasse on the card and the season's download."""

from __future__ import annotations

from pathlib import Path

from pytest_mock import MockerFixture

from engine.kasse import Kasse
from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.link import evening_page
from firmware.link.evening_page import SpieltagAnswers, sheet_filename
from firmware.link.pairing import Pairing
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import HttpRequest
from hal.storage import StateDirectory
from tests.durable.evening import play_games
from tests.engine.kassecount import hand_count

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


def test_the_kasse_on_the_spieltag_card_and_the_season_for_a_paired_phone(
    tmp_path: Path,
) -> None:
    """The ``spieltag`` answer gives each standings line the evening's and the season's Kasse
    (recounted by hand from the games' events); the season's CSV goes to a paired phone only."""
    kasse = Kasse(half_lost=50, final_lost=100, durchmarsch=200, schock_aus_against=50, stake=100)
    storage = StateDirectory(tmp_path)
    spieltag = Spieltag("20260109-193000", "1. Abend", load_scheme("verlustpunkte"),
                        "2026-01-09", kasse=kasse)  # fmt: skip
    SpieltagFiles(storage).begin(spieltag)
    games = play_games(tmp_path, ("Anna", "Ben", "Cem"), 2, seed=7, deckel=3)
    answer = evening_page.spieltag_answer(storage)
    assert answer["spieltag"]["kasse"] is True
    owed = hand_count(kasse, games)
    assert {line["player"]: line["kasse"] for line in answer["standings"]} == owed
    assert {line["player"]: line["kasse_season"] for line in answer["standings"]} == owed
    pairing = Pairing()
    token = pairing.pair(pairing.show_pin(0.0), 0.0)
    route = evening_page.season_route(storage, pairing, "csv")
    refused = route(HttpRequest("/saison.csv", {}, {}))
    assert (refused.status, b"pair this phone" in refused.body) == (403, True)
    paired = {"authorization": f"Bearer {token}"}
    given = route(HttpRequest("/saison.csv", {"lang": "en"}, paired))
    assert given.status == 200 and given.filename == "Saison-2026-01-09-2026-01-09.csv"
    text = given.body.decode("utf-8")
    anna = owed["Anna"]
    assert "Season (Saison)" in text and f"€{anna // 100}.{anna % 100:02d}" in text
