"""The Kasse (engine/kasse.py): the [kasse] table read or refused in one line, kept with its
Spieltag, and an evening's money recounted from the games' events by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Game, load_preset
from engine.kasse import (
    MAX_CENTS,
    Kasse,
    KasseError,
    KasseLine,
    add_lines,
    kasse_from_mapping,
    kasse_from_toml,
    kasse_lines,
    kasse_to_mapping,
)
from engine.scoring import GameResult, game_result, load_scheme
from engine.spieltag import Spieltag, SpieltagError, spieltag_from_mapping, spieltag_to_mapping
from tests.engine.kassecount import hand_count
from tests.engine.randomplay import play_random_game

PRICES = Kasse(half_lost=50, final_lost=100, durchmarsch=200, schock_aus_against=30, stake=250)
#: Seeds of random games at a table of four with 3 Deckel; seed 12 has a round won with a
#: Schock aus, seed 9 a Durchmarsch.
SEEDS = (8, 9, 10, 11, 12, 13)


@pytest.fixture(scope="module")
def games() -> list[Game]:
    rules = replace(load_preset("standard"), deckel=3)
    return [play_random_game(4, rules, seed) for seed in SEEDS]


@pytest.fixture(scope="module")
def results(games: list[Game]) -> list[GameResult]:
    return [game_result(game.setup, game.actions) for game in games]


def test_an_evenings_kasse_is_what_a_hand_count_of_its_events_gives(
    games: list[Game], results: list[GameResult]
) -> None:
    lines = kasse_lines(PRICES, results)
    assert {line.player: line.cents for line in lines} == hand_count(PRICES, games)
    # The games hold what the Kasse charges: a Schock aus against, a Durchmarsch, finals.
    assert sum(line.schock_aus_against for line in lines) >= 1
    assert sum(line.durchmarsch for line in lines) >= 1
    assert sum(line.finals_lost for line in lines) >= 1
    assert {line.evenings for line in lines} == {1}


def test_each_price_charges_only_its_own_count(
    games: list[Game], results: list[GameResult]
) -> None:
    for key in kasse_to_mapping(PRICES):
        alone = Kasse(**{key: 1})
        assert {line.player: line.cents for line in kasse_lines(alone, results)} == hand_count(
            alone, games
        ), key


def test_a_season_adds_each_evenings_lines_at_its_own_prices(
    games: list[Game], results: list[GameResult]
) -> None:
    cheap, dear = Kasse(half_lost=10, stake=100), Kasse(half_lost=100, final_lost=50)
    first, second = kasse_lines(cheap, results[:3]), kasse_lines(dear, results[3:])
    season = {line.player: line for line in add_lines([first, second])}
    one, two = hand_count(cheap, games[:3]), hand_count(dear, games[3:])
    assert {p: line.cents for p, line in season.items()} == {p: one[p] + two[p] for p in one}
    assert {line.evenings for line in season.values()} == {2}


def test_a_player_without_a_finished_game_owes_nothing() -> None:
    assert kasse_lines(PRICES, []) == ()
    result = GameResult(("A", "B"), ("A", "A"), None, "A", ((("B",), ("A",)), (("B",), ("A",))))
    assert kasse_lines(PRICES, [result]) == (
        KasseLine("A", 2, 0, 1, 0, 1, 2 * 50 + 200 + 250), KasseLine("B", 0, 0, 0, 0, 1, 250),
    )


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"half_lost": -50}, "[kasse] half_lost = -50: must be a whole number of cents"),
        ({"stake": 2.5}, "[kasse] stake = 2.5: must be a whole number of cents"),
        ({"final_lost": "1,00"}, '[kasse] final_lost = "1,00": must be a whole number of cents'),
        ({"durchmarsch": True}, "[kasse] durchmarsch = True: must be a whole number"),
        ({"stake": MAX_CENTS + 1}, f"from 0 to {MAX_CENTS}"),
        ({"half": 50}, "unknown [kasse] key 'half'; keys: half_lost, final_lost, durchmarsch"),
    ],
)
def test_a_bad_amount_is_one_line_naming_it(table: dict[str, object], said: str) -> None:
    with pytest.raises(KasseError) as error:
        kasse_from_mapping(table)
    assert said in str(error.value) and "\n" not in str(error.value)


def test_the_scoring_file_may_hold_a_kasse() -> None:
    text = '[scoring]\npreset = "siegpunkte"\n\n[kasse]\nhalf_lost = 50\nstake = 200\n'
    assert kasse_from_toml(text, origin="abend.toml") == Kasse(half_lost=50, stake=200)
    assert kasse_from_toml('[scoring]\npreset = "leben"\n') is None
    with pytest.raises(KasseError, match=r"^abend.toml: \[kasse\] stake = -1: "):
        kasse_from_toml("[kasse]\nstake = -1\n", origin="abend.toml")
    with pytest.raises(KasseError, match=r"^abend.toml: kasse must be a table"):
        kasse_from_toml("kasse = 5\n", origin="abend.toml")
    with pytest.raises(KasseError, match=r"^abend.toml: not valid TOML"):
        kasse_from_toml("[kasse\n", origin="abend.toml")


def test_a_spieltag_keeps_its_kasse_and_one_without_writes_none() -> None:
    spieltag = Spieltag("20260109-193000", "1. Abend", load_scheme("verlustpunkte"), "2026-01-09")
    assert "kasse" not in spieltag_to_mapping(spieltag)
    kept = replace(spieltag, kasse=PRICES)
    assert spieltag_from_mapping(spieltag_to_mapping(kept)) == kept
    damaged = {**spieltag_to_mapping(kept), "kasse": {"stake": -5}}
    with pytest.raises(SpieltagError, match=r"^kasse: \[kasse\] stake = -5"):
        spieltag_from_mapping(damaged)
