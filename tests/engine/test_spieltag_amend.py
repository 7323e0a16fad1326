"""An evening amended as pure records: a Partie taken out and put back, another scheme, each
kept in the history and read back from the Spieltag's JSON form; a damaged history is one line;
under Leben a player out loses no more and is placed by when they went out; the Kasse charges a
game the scheme cannot score but not one taken out, and a season adds neither; a merged match
keeps table 1's history and both tables' Partien taken out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.kasse import Kasse, kasse_lines
from engine.saison import evening_kasse, make_season
from engine.scoring import GameResult, evening_points, load_scheme, standings
from engine.spieltag import (
    Change,
    Evening,
    EveningGame,
    NotCounted,
    Spieltag,
    SpieltagError,
    Uncounted,
    amend,
    merge_match,
    spieltag_from_mapping,
    spieltag_to_mapping,
)

AT = "2026-12-01T23:05:12+01:00"


def result(players: tuple[str, ...], loser: str) -> GameResult:
    """A game ``loser`` lost by a Durchmarsch, the others out in seat order."""
    others = tuple((p,) for p in players if p != loser)
    order = (*others, (loser,))
    return GameResult(players, (loser, loser), None, loser, (order, order))


def evening(scheme: str, *games: tuple[tuple[str, ...], str]) -> Evening:
    spieltag = Spieltag("20261201-193000", "7. Spieltag", load_scheme(scheme), "2026-12-01")
    played = tuple(
        EveningGame(n, 1, GameSetup(players, load_preset("standard")), (), result(players, loser))
        for n, (players, loser) in enumerate(games, 1)
    )
    return Evening(spieltag, played)


FOUR = ("Anna", "Ben", "Cem", "Dora")


def test_taken_out_put_back_and_rescored_each_kept_and_read_back() -> None:
    night = evening("platzpunkte", (FOUR, "Anna"), (FOUR, "Ben"), (FOUR[:2], "Ben"))
    assert night.uncounted == (Uncounted(3, 2, NotCounted.TABLE_SIZE),)
    taken = night.under(amend(night, Change.TAKE_OUT, AT, partie=1))
    assert [game.partie for game in taken.counted] == [2]
    assert taken.standings() == standings(night.spieltag.scheme, [night.games[1].result])
    back = taken.under(amend(taken, Change.PUT_BACK, AT, partie=1))
    assert back.standings() == night.standings()
    rescored = amend(back, Change.SCHEME, AT, scheme=load_scheme("verlustpunkte"))
    assert len(back.under(rescored).counted) == 3  # every table size counts now
    read = spieltag_from_mapping(spieltag_to_mapping(rescored))
    assert read == rescored and [a.change for a in read.history] == [
        Change.TAKE_OUT, Change.PUT_BACK, Change.SCHEME,
    ]


@pytest.mark.parametrize(
    ("change", "partie", "message"),
    [
        (Change.TAKE_OUT, 4, "no Partie 4 in the Spieltag '7. Spieltag': its Partien are 1-1"),
        (Change.PUT_BACK, 1, "Partie 1 is not taken out: it counts already"),
        (Change.SCHEME, 0, "is scored so already (platzpunkte): nothing changed"),
    ],
)
def test_a_change_that_cannot_be_made_is_one_line(
    change: Change, partie: int, message: str
) -> None:
    night = evening("platzpunkte", (FOUR, "Anna"))
    with pytest.raises(SpieltagError, match=message.replace("(", r"\(").replace(")", r"\)")):
        amend(night, change, AT, partie=partie, scheme=night.spieltag.scheme)


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ([{"at": "gestern", "what": "take_out", "partie": 1}], "history 1: at = 'gestern'"),
        ([{"at": AT, "what": "delete", "partie": 1}], "history 1: what = 'delete' must be one"),
        ([{"at": AT, "what": "take_out", "partie": 0}], "history 1: partie = 0"),
        ([{"at": AT, "what": "scheme", "before": {}, "after": {"preset": "x"}}],
         "history 1: after: unknown scoring preset 'x'"),
        ("nope", "history: must be a list"),
    ],
)
def test_a_damaged_history_is_one_line(history: Any, message: str) -> None:
    data = spieltag_to_mapping(evening("leben").spieltag)
    with pytest.raises(SpieltagError, match=message) as raised:
        spieltag_from_mapping({**data, "history": history})
    assert "\n" not in str(raised.value)


def test_under_leben_a_player_out_loses_no_more_and_later_out_is_placed_better() -> None:
    three = ("Anna", "Ben", "Cem")
    # Ben goes out later than Cem but, playing on, loses more games: when counts, not that.
    losers = ("Cem", "Cem", "Cem", "Ben", "Ben", "Ben", "Ben", "Ben")
    games = [result(three, loser) for loser in losers]
    scheme = load_scheme("leben")
    counted = evening_points(scheme, games)
    assert [points["Ben"] for points in counted] == [0, 0, 0, -1, -1, -1, 0, 0]
    lines = {line.player: line for line in standings(scheme, games)}
    assert (lines["Cem"].out_after, lines["Ben"].out_after) == (3, 6)
    assert lines["Ben"].games_lost > lines["Cem"].games_lost
    assert (lines["Anna"].place, lines["Ben"].place, lines["Cem"].place) == (1, 2, 3)
    assert all(3 + sum(p[name] for p in counted) == lines[name].score for name in three)


#: Prices that tell a half, a Durchmarsch and a stake apart.
PRICES = Kasse(half_lost=50, durchmarsch=200, stake=300)


def test_the_kasse_charges_a_game_the_scheme_cannot_score_but_not_one_taken_out() -> None:
    night = evening("platzpunkte", (FOUR, "Anna"), (FOUR, "Ben"), (FOUR[:2], "Ben"))
    night = replace(night, spieltag=replace(night.spieltag, kasse=PRICES))
    games = [game.result for game in night.games]
    assert evening_kasse(night) == kasse_lines(PRICES, games)  # the two-player game charges
    taken = night.under(amend(night, Change.TAKE_OUT, AT, partie=1))
    assert evening_kasse(taken) == kasse_lines(PRICES, games[1:])
    assert {line.player: line.cents for line in evening_kasse(taken)}["Anna"] == 300  # stake
    # A season adds the games that count, and the Kasse of those not taken out.
    season = make_season([taken])
    assert {line.player: line.score for line in season.players} == {
        line.player: line.score for line in taken.standings()
    }
    assert season.kasse == evening_kasse(taken)
    # An evening none of whose games counts adds no score, but its Kasse.
    stray = evening("platzpunkte", (FOUR[:2], "Ben"))
    stray = replace(stray, spieltag=replace(stray.spieltag, kasse=PRICES))
    assert stray.counted == () and make_season([stray]).players == ()
    assert make_season([stray]).kasse == kasse_lines(PRICES, [stray.games[0].result])


def test_a_merged_match_keeps_table_ones_history_and_both_tables_partien_taken_out() -> None:
    def table(number: int, losers: tuple[str, str]) -> Evening:
        # Each game at its own seating: the actions are left out here, and a game in both
        # tables (the same players and actions) is refused.
        seatings = (FOUR[number - 1:] + FOUR[:number - 1], FOUR[number + 1:] + FOUR[:number + 1])
        night = evening("verlustpunkte", *zip(seatings, losers, strict=True))
        night = replace(night, spieltag=replace(
            night.spieltag, id=f"20261201-19300{number}", home="Werl", guest="Soest",
            table=number,
        ))  # fmt: skip
        return night.under(amend(night, Change.TAKE_OUT, AT, partie=number))

    one, two = table(1, ("Anna", "Cem")), table(2, ("Ben", "Dora"))
    match = merge_match(two, one)
    assert match.spieltag.taken_out == (1, 4)
    assert match.spieltag.history == one.spieltag.history
    assert [game.partie for game in match.counted] == [2, 3]
    assert match.under(match.spieltag).counted == match.counted
