"""A league match's team result, substitutes and a Spieltag's league fields, on the engine's
pure records: the sides' totals recounted from standings, the Mannschaftspunkte by the scheme's
``team_points``, and every bad field one line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.league import team_result, with_substitute
from engine.scoring import (
    Standing,
    load_scheme,
    scheme_from_mapping,
    scheme_from_toml,
    scheme_to_mapping,
)
from engine.spieltag import (
    LeaguePlayer,
    Spieltag,
    SpieltagError,
    spieltag_from_mapping,
    spieltag_to_mapping,
)

PLAYERS = (
    LeaguePlayer("Anna", "H1"), LeaguePlayer("Ben", "H2"), LeaguePlayer("Cem", "G1"),
    LeaguePlayer("Dora", "G2"),
)  # fmt: skip
LIGA = replace(load_scheme("verlustpunkte"), team_points=(2, 1, 0))


def lines(scores: dict[str, int]) -> list[Standing]:
    return [Standing(place, name, score, 5, 1, 2, 1, 0, 0) for place, (name, score) in
            enumerate(sorted(scores.items(), key=lambda item: item[1]), 1)]  # fmt: skip


@pytest.mark.parametrize(
    ("scheme", "scores", "expected"),
    [
        # Verlustpunkte: fewer is better, 7 : 9 wins for home
        (LIGA, {"Anna": 3, "Ben": 4, "Cem": 5, "Dora": 4}, (7, 9, "H", 2, 0)),
        (LIGA, {"Anna": 3, "Ben": 5, "Cem": 4, "Dora": 4}, (8, 8, None, 1, 1)),
        # Siegpunkte: more is better, no team points given
        (load_scheme("siegpunkte"), {"Anna": 3, "Ben": 4, "Cem": 5, "Dora": 4},
         (7, 9, "G", None, None)),
    ],
)
def test_the_team_result_is_each_sides_total_ranked_by_the_scheme(
    scheme: object, scores: dict[str, int], expected: tuple[object, ...]
) -> None:
    result = team_result(scheme, PLAYERS, lines(scores))  # type: ignore[arg-type]
    assert result is not None
    assert (result.home_total, result.guest_total, result.winner, result.home_points,
            result.guest_points) == expected  # fmt: skip


def test_a_substitute_counts_for_the_seats_side_and_an_unlisted_player_for_none() -> None:
    players = (*PLAYERS, LeaguePlayer("Ida", "G2", substitute=True))
    result = team_result(LIGA, players, lines({"Anna": 1, "Ben": 1, "Cem": 1, "Ida": 6, "Xa": 9}))
    assert result is not None and (result.home_total, result.guest_total) == (2, 7)
    assert team_result(LIGA, (), lines({"Anna": 1})) is None  # not a league match


def test_team_points_read_back_and_leave_a_plain_schemes_mapping_as_it_was() -> None:
    scheme = scheme_from_toml("[scoring]\nteam_points = { won = 3, drawn = 1, lost = 0 }\n")
    assert scheme.team_points == (3, 1, 0)
    assert scheme_from_mapping(scheme_to_mapping(scheme)) == scheme
    assert "team_points" not in scheme_to_mapping(load_scheme("verlustpunkte"))


MATCH = Spieltag("20261201-190000", "7. Spieltag", LIGA, "2026-12-01", home="H", guest="G",
                 players=PLAYERS, league="Staffel B", match_number="117", home_captain="Anna",
                 guest_captain="Cem", remarks="Protest Gast")  # fmt: skip


def test_the_league_fields_and_a_substitute_read_back_and_an_old_file_reads_without_them() -> None:
    spieltag = with_substitute(MATCH, "H2", "Ida", "1299")
    assert spieltag_from_mapping(spieltag_to_mapping(spieltag)) == spieltag
    assert spieltag.players[-1] == LeaguePlayer("Ida", "H2", "1299", 1, True)
    old = {key: value for key, value in spieltag_to_mapping(MATCH).items()
           if key not in ("league", "match_number", "home_captain", "guest_captain", "remarks")}
    old["players"] = [{k: v for k, v in p.items() if k != "substitute"} for p in old["players"]]
    assert spieltag_from_mapping(old) == replace(
        MATCH, league="", match_number="", home_captain="", guest_captain="", remarks=""
    )  # fmt: skip


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"remarks": "x" * 501}, "remarks = 'xxxx"),
        ({"league": 7}, "league = '7': must be a text of at most 80 characters"),
        ({"players": [{"name": "Ida", "seat": "H9", "substitute": True}]},
         "substitute on H9: no player is listed on H9"),
        ({"players": [{"name": "Ida", "seat": "H1", "substitute": "ja"}]},
         "substitute = 'ja' of Ida: must be true or false"),
    ],
)
def test_a_bad_league_field_in_the_file_is_one_line(change: dict[str, object], words: str) -> None:
    with pytest.raises(SpieltagError) as raised:
        spieltag_from_mapping({**spieltag_to_mapping(MATCH), **change})
    assert words in str(raised.value) and "\n" not in str(raised.value)
