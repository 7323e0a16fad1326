"""An evening amended as pure records: a Partie taken out and put back, another scheme, each
kept in the history and read back from the Spieltag's JSON form; a damaged history is one line;
and under Leben a player out loses no more and is placed by when they went out."""

from __future__ import annotations

from typing import Any

import pytest

from engine import GameSetup, load_preset
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
