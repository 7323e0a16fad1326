"""Scoring schemes: every example the clubs quote, the standings of an evening recounted by hand
from the events of ten random games, and every bad [scoring] input as one line."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine import (
    Event,
    Game,
    GameOver,
    GameSetup,
    HalfOver,
    PenaltyGiven,
    RoundOver,
    load_preset,
)
from engine.scoring import (
    SCHEME_PRESETS,
    GameResult,
    LifeCost,
    ScoringError,
    game_points,
    game_result,
    load_scheme,
    result_from_events,
    scheme_from_mapping,
    scheme_from_toml,
    scheme_to_mapping,
    standings,
)
from tests.engine.randomplay import play_random_game

FOUR = ("Anna", "Ben", "Cem", "Dora")


def gone(*players: str) -> RoundOver:
    """A reveal after which ``players`` are out of the half."""
    return RoundOver("x", "y", "", "", 1, "pot", tuple(players), 0, ())


def a_game(
    players: tuple[str, ...],
    half1: list[tuple[str, ...]],
    half2: list[tuple[str, ...]],
    final: str | None,
) -> GameResult:
    """A finished game: each half's groups in the order they went out, its loser last."""
    events: list[Event] = []
    losers = []
    for groups in (half1, half2):
        events += [gone(*group) for group in groups[:-1]]
        (loser,) = groups[-1]
        losers.append(loser)
        events.append(HalfOver(len(losers), loser))
    if final is not None:
        events.append(HalfOver(3, final))
    loser = final or losers[0]
    events.append(GameOver(loser, final is None, tuple(losers)))
    return result_from_events(players, events)


def durchmarsch_of(loser: str, players: tuple[str, ...] = FOUR) -> GameResult:
    others = [(p,) for p in players if p != loser]
    return a_game(players, [*others, (loser,)], [*others, (loser,)], None)


def final_game(half1: str, half2: str, final: str, players: tuple[str, ...] = FOUR) -> GameResult:
    first = [(p,) for p in players if p != half1]
    second = [(p,) for p in players if p != half2]
    return a_game(players, [*first, (half1,)], [*second, (half2,)], final)


# -- the examples the clubs quote ----------------------------------------------------------------


def test_verlustpunkte_three_games_and_two_halves_beat_four_games() -> None:
    """SV Gonzerath: "3 verlorene Spiele + 2 Hälften sind besser als 4 verlorene Spiele"."""
    scheme = load_scheme("verlustpunkte")
    games = [
        # Anna loses three finals (each after losing a half) and two more halves.
        final_game("Anna", "Cem", "Anna"),
        final_game("Anna", "Cem", "Anna"),
        final_game("Dora", "Anna", "Anna"),
        final_game("Anna", "Dora", "Dora"),
        final_game("Cem", "Anna", "Cem"),
        # Ben loses four finals, each after one half.
        final_game("Ben", "Cem", "Ben"),
        final_game("Ben", "Dora", "Ben"),
        final_game("Cem", "Ben", "Ben"),
        final_game("Dora", "Ben", "Ben"),
    ]
    table = {line.player: line for line in standings(scheme, games)}
    anna, ben = table["Anna"], table["Ben"]
    assert (anna.games_lost, anna.halves_lost - anna.games_lost) == (3, 2)
    assert (ben.games_lost, ben.halves_lost - ben.games_lost) == (4, 0)
    assert anna.score == ben.score == 8
    assert anna.place < ben.place


def test_verlustpunkte_of_one_game() -> None:
    scheme = load_scheme("verlustpunkte")
    assert game_points(scheme, final_game("Anna", "Ben", "Ben")) == {
        "Anna": 1, "Ben": 2, "Cem": 0, "Dora": 0,
    }
    assert game_points(scheme, durchmarsch_of("Cem")) == {"Anna": 0, "Ben": 0, "Cem": 3, "Dora": 0}


def test_verlustpunkte_fewer_is_better() -> None:
    lines = standings(load_scheme("verlustpunkte"), [final_game("Anna", "Ben", "Ben")])
    assert [(line.place, line.player, line.score) for line in lines] == [
        (1, "Cem", 0), (1, "Dora", 0), (3, "Anna", 1), (4, "Ben", 2),
    ]


def test_siegpunkte_one_per_half_survived_and_the_final_loser_gives_one_back() -> None:
    scheme = load_scheme("siegpunkte")
    assert game_points(scheme, final_game("Anna", "Ben", "Ben")) == {
        "Anna": 1, "Ben": 0, "Cem": 2, "Dora": 2,
    }
    assert game_points(scheme, final_game("Anna", "Ben", "Anna")) == {
        "Anna": 0, "Ben": 1, "Cem": 2, "Dora": 2,
    }
    assert game_points(scheme, durchmarsch_of("Dora")) == {"Anna": 2, "Ben": 2, "Cem": 2, "Dora": 0}


def test_siegpunkte_the_card_totals_every_players_points() -> None:
    """The table totals the card "um Fehler zu vermeiden": a final game hands out 2(n-1) - 1
    points, a Durchmarsch 2(n-1)."""
    scheme = load_scheme("siegpunkte")
    assert sum(game_points(scheme, final_game("Anna", "Ben", "Ben")).values()) == 5
    assert sum(game_points(scheme, durchmarsch_of("Anna")).values()) == 6


def test_platzpunkte_at_four() -> None:
    """3. Kompanie Werl: first out 3, second 2, third 1, the half's loser 0, the final lost −1."""
    scheme = load_scheme("platzpunkte")
    game = a_game(
        FOUR,
        [("Cem",), ("Dora",), ("Ben",), ("Anna",)],
        [("Anna",), ("Cem",), ("Dora",), ("Ben",)],
        "Ben",
    )
    assert game_points(scheme, game) == {
        "Cem": 3 + 2, "Dora": 2 + 1, "Ben": 1 + 0 - 1, "Anna": 0 + 3,
    }


def test_platzpunkte_durchmarsch_costs_one() -> None:
    scheme = load_scheme("platzpunkte")
    game = a_game(
        FOUR,
        [("Ben",), ("Cem",), ("Dora",), ("Anna",)],
        [("Dora",), ("Cem",), ("Ben",), ("Anna",)],
        None,
    )
    assert game_points(scheme, game) == {"Anna": -1, "Ben": 4, "Cem": 4, "Dora": 4}


def test_platzpunkte_at_three() -> None:
    """At three: 3 / 1 / 0, the final lost −1."""
    scheme = load_scheme("platzpunkte")
    three = ("Anna", "Ben", "Cem")
    game = a_game(three, [("Cem",), ("Ben",), ("Anna",)], [("Anna",), ("Cem",), ("Ben",)], "Anna")
    assert game_points(scheme, game) == {"Cem": 4, "Ben": 1, "Anna": 2}


def test_platzpunkte_players_out_in_the_same_round_share_the_better_place() -> None:
    scheme = load_scheme("platzpunkte")
    game = a_game(
        FOUR,
        [("Cem", "Dora"), ("Ben",), ("Anna",)],
        [("Anna",), ("Cem",), ("Dora",), ("Ben",)],
        "Anna",
    )
    points = game_points(scheme, game)
    assert (points["Cem"], points["Dora"], points["Ben"]) == (3 + 2, 3 + 1, 1 + 0)


def test_platzpunkte_for_seven_is_one_line() -> None:
    scheme = load_scheme("platzpunkte")
    seven = tuple(f"P{i}" for i in range(7))
    problem = scheme.table_problem(7)
    assert problem is not None and "\n" not in problem
    assert "3 and 4" in problem and "7" in problem
    with pytest.raises(ScoringError, match="not 7"):
        game_points(scheme, durchmarsch_of("P0", seven))


def test_leben_a_lost_game_costs_one_and_none_left_is_out() -> None:
    """Velen Masters Cup: 3 lives; a lost game costs one; out at none."""
    scheme = load_scheme("leben")
    games = [
        durchmarsch_of("Anna"),
        final_game("Anna", "Ben", "Anna"),
        final_game("Ben", "Anna", "Anna"),
    ]
    table = {line.player: line for line in standings(scheme, games)}
    assert table["Anna"].score == 0 and table["Anna"].out
    assert table["Ben"].score == 3 and not table["Ben"].out
    assert table["Anna"].per_game == (2, 1, 0)
    assert standings(scheme, games)[-1].player == "Anna"


def test_leben_later_rounds_with_two_and_a_half_costing_one() -> None:
    scheme = scheme_from_mapping({"preset": "leben", "lives": 2, "life_cost": "half"})
    assert scheme.life_cost is LifeCost.HALF
    table = {line.player: line for line in standings(scheme, [final_game("Anna", "Ben", "Ben")])}
    assert (table["Anna"].score, table["Ben"].score, table["Cem"].score) == (1, 1, 2)
    table = {line.player: line for line in standings(scheme, [durchmarsch_of("Cem")])}
    assert table["Cem"].score == 0 and table["Cem"].out


def test_ties_go_to_fewer_games_lost_then_share_the_place() -> None:
    scheme = load_scheme("siegpunkte")
    lines = standings(scheme, [final_game("Anna", "Ben", "Ben")])
    assert [(line.place, line.player) for line in lines] == [
        (1, "Cem"), (1, "Dora"), (3, "Anna"), (4, "Ben"),
    ]


def test_a_tie_break_on_schock_aus() -> None:
    scheme = scheme_from_mapping({"preset": "siegpunkte", "tie_breaks": ["schock_aus"]})
    game = final_game("Anna", "Ben", "Ben")
    game = replace(game, schock_aus_hand=(("Dora", 1),))
    lines = standings(scheme, [game])
    assert [(line.place, line.player) for line in lines[:2]] == [(1, "Dora"), (2, "Cem")]


def test_an_evening_with_no_games_is_one_line() -> None:
    with pytest.raises(ScoringError, match="no finished games"):
        standings(load_scheme("verlustpunkte"), [])


def test_an_unfinished_game_has_no_points() -> None:
    with pytest.raises(ScoringError, match="not finished"):
        result_from_events(FOUR, [HalfOver(1, "Anna")])


# -- ten random games, recounted by hand from the events -----------------------------------------


def hand_count(scheme_name: str, events: Sequence[Sequence[Event]]) -> dict[str, int]:
    """The points as a person with a pencil counts them, from each game's events."""
    total = dict.fromkeys(("P0", "P1", "P2", "P3"), 3 if scheme_name == "leben" else 0)
    places = (3, 2, 1, 0)
    for game in events:
        section, out = 1, set()
        for event in game:
            if isinstance(event, RoundOver | PenaltyGiven):
                went = set(event.out) - out
                if went and section <= 2 and scheme_name == "platzpunkte":
                    for player in went:
                        total[player] += places[len(out)]
                    out |= went
            if isinstance(event, HalfOver):
                if event.section <= 2:
                    # The last one out is not listed: the half ends with that reveal.
                    last = set(total) - out - {event.loser}
                    if scheme_name == "platzpunkte":
                        for player in last:
                            total[player] += places[len(out)]
                    if scheme_name == "verlustpunkte":
                        total[event.loser] += 1
                    if scheme_name == "siegpunkte":
                        for player in total:
                            total[player] += player != event.loser
                    section, out = section + 1, set()
                elif scheme_name in ("siegpunkte", "platzpunkte"):
                    total[event.loser] -= 1
            if isinstance(event, GameOver):
                if scheme_name == "verlustpunkte":
                    total[event.loser] += 1
                if scheme_name == "platzpunkte" and event.blattschuss:
                    total[event.loser] -= 1
                if scheme_name == "leben":
                    total[event.loser] = max(0, total[event.loser] - 1)
    return total


@functools.cache
def ten_games_at_four() -> tuple[tuple[GameResult, ...], tuple[tuple[Event, ...], ...]]:
    """Ten random games of four under the standard rules: their results and each game's events
    as a replay emits them; played once per process, as every scheme counts the same games."""
    rules = load_preset("standard")
    results, events = [], []
    rng = random.Random(26)
    for _ in range(10):
        game = play_random_game(4, rules, rng.randrange(10**6))
        replayed_events: list[Event] = []
        replay = Game(GameSetup(game.players, rules))
        for action in game.actions:
            replayed_events += replay.apply(action)
        events.append(tuple(replayed_events))
        results.append(game_result(GameSetup(game.players, rules), game.actions))
    return tuple(results), tuple(events)


@pytest.mark.parametrize("scheme_name", sorted(SCHEME_PRESETS))
def test_ten_games_at_four_match_a_hand_count(scheme_name: str) -> None:
    results, events = ten_games_at_four()
    scheme = load_scheme(scheme_name)
    lines = standings(scheme, results)
    assert {line.player: line.score for line in lines} == hand_count(scheme_name, events)
    assert sum(line.games for line in lines) == 40
    assert sum(line.games_lost for line in lines) == 10
    scores = [line.score for line in lines]
    better_first = sorted(scores, reverse=scheme.higher_is_better or scheme.counts_lives)
    assert scores == better_first


@pytest.mark.parametrize("games", [10, pytest.param(30, marks=pytest.mark.slow)])
def test_schock_aus_from_the_hand_and_built(games: int) -> None:
    """Random games of three (ten already hold a Schock aus from the hand and a built one)."""
    rules = load_preset("standard")
    seen = hand = built = 0
    for seed in range(games):
        game = play_random_game(3, rules, seed)
        result = game_result(GameSetup(game.players, rules), game.actions)
        seen += sum(result.schock_aus(p) for p in game.players)
        hand += len(result.schock_aus_hand)
        built += len(result.schock_aus_built)
        for player, count in (*result.schock_aus_hand, *result.schock_aus_built):
            assert player in game.players and count > 0
    assert seen > 0 and hand > 0 and built > 0


# -- the [scoring] table -------------------------------------------------------------------------


def test_a_preset_with_its_parameters_from_toml() -> None:
    scheme = scheme_from_toml(
        '[scoring]\npreset = "platzpunkte"\nfinal_lost = -2\nplaces = { 5 = [4, 3, 2, 1, 0] }\n'
    )
    assert scheme.final_lost == -2 and scheme.places_for(5) == (4, 3, 2, 1, 0)
    assert scheme.places_for(4) is None


@pytest.mark.parametrize("name", sorted(SCHEME_PRESETS))
def test_a_scheme_reads_back_from_its_mapping(name: str) -> None:
    scheme = load_scheme(name)
    assert scheme_from_mapping(scheme_to_mapping(scheme)) == scheme


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[scoring]\npreset = 'liga'\n", "unknown scoring preset 'liga'; presets: verlustpunkte"),
        ("[scoring]\npoints = 3\n", "unknown [scoring] key 'points'"),
        ("[scoring]\nhalf_lost = 'one'\n", "half_lost = 'one': must be a whole number"),
        ("[scoring]\nhalf_lost = true\n", "half_lost = True: must be a whole number"),
        ("[scoring]\nlives = -1\n", "lives = -1"),
        ("[scoring]\nlife_cost = 'round'\n", 'life_cost = \'round\': must be "game" or "half"'),
        ("[scoring]\nbetter = 'more'\n", "better = 'more'"),
        ("[scoring]\nplaces = { 4 = [3, 2, 1] }\n", "places.4: must list 4 points"),
        ("[scoring]\nplaces = { eleven = [1] }\n", "table size 'eleven'"),
        ("[scoring]\nplaces = [3, 2, 1, 0]\n", "places: a table of table sizes"),
        ("[scoring]\ntie_breaks = ['luck']\n", "tie_breaks = ['luck']"),
        ("[scoring\n", "not valid TOML"),
        ("preset = 'leben'\n", "has no [scoring] table"),
    ],
)
def test_bad_scoring_is_one_line(text: str, words: str) -> None:
    with pytest.raises(ScoringError) as caught:
        scheme_from_toml(text, origin="abend.toml")
    message = str(caught.value)
    assert message.startswith("abend.toml: ") and words in message and "\n" not in message


def test_every_preset_scheme_has_its_name_in_words() -> None:
    from firmware.report.sheet_words import SCHEME_KEYS, SHEET_WORDS

    assert set(SCHEME_KEYS) == set(SCHEME_PRESETS)
    assert all(key in SHEET_WORDS for key in SCHEME_KEYS.values())
