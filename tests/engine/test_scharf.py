"""The time box: once a Spieltag's time is up the game goes on "scharf" (:class:`GoScharf`).

The Schockfreunde's Punkterunde: "die restlichen Punkte ohne Deckelverteilung ausgeschockt
... Hierbei erhält der Verlierer eines Durchgangs (es wurde reihum gewürfelt) keine Deckel,
sondern verliert direkt die Halbzeit." The decisions the sources leave open (a round under way,
the Finale) are in docs/rules.md.
"""

from __future__ import annotations

import pytest

from engine import (
    FinalStarts,
    Game,
    GameOver,
    GameSetup,
    GoScharf,
    HalfOver,
    IllegalActionError,
    Reason,
    RoundOver,
    Scharf,
    from_json,
    from_notation,
    to_json,
    to_notation,
)
from engine.scoring import SCHEME_PRESETS, game_points, game_result

PLAYERS = ("Anna", "Ben", "Carla")


def started(players: tuple[str, ...] = PLAYERS) -> Game:
    """Anna opens the first round (she wins the roll-off)."""
    game = Game(GameSetup(players))
    game.roll_off([(1, 1, 1), *[(2, 2, 2 + i) for i in range(len(players) - 1)]])
    assert game.current_player == "Anna"
    return game


def one_throw_each(game: Game, *throws: tuple[int, int, int]) -> list:
    """The opener throws once and stands (limit 1): everyone else's one throw ends their turn."""
    events = game.roll(throws[0])
    events += game.stand()
    for dice in throws[1:]:
        events += game.roll(dice)
    return events


def test_a_scharf_round_ends_the_half_with_its_loser_and_moves_no_deckel() -> None:
    game = started()
    assert game.go_scharf(70) == [GoScharf(70)]
    assert game.scharf is Scharf.ON
    events = one_throw_each(game, (4, 3, 1), (6, 5, 3), (6, 6, 2))
    reveal = next(e for e in events if isinstance(e, RoundOver))
    assert reveal.scharf and reveal.loser == "Anna" and reveal.winner == "Carla"
    assert reveal.deckel == 0 and reveal.pot == 13 and dict(reveal.holdings) == dict.fromkeys(
        PLAYERS, 0
    )
    assert reveal.out == ()
    assert HalfOver(1, "Anna") in events
    # The half's loser opens the second half, which is scharf too.
    assert game.section == 2 and game.current_player == "Anna" and game.scharf is Scharf.ON


def test_without_the_time_box_the_same_round_only_moves_deckel() -> None:
    game = started()
    events = one_throw_each(game, (4, 3, 1), (6, 5, 3), (6, 6, 2))
    reveal = next(e for e in events if isinstance(e, RoundOver))
    assert not reveal.scharf and reveal.deckel == 1 and game.section == 1


def test_a_round_under_way_is_settled_as_ever_and_the_next_is_scharf() -> None:
    game = started()
    game.roll((4, 3, 1))
    game.stand()
    game.go_scharf(60)  # Anna has thrown: this round was begun under the ordinary stakes
    assert game.scharf is Scharf.NEXT_ROUND
    assert to_notation(game).endswith(" s")
    events = game.roll((6, 5, 3)) + game.roll((6, 6, 2))
    reveal = next(e for e in events if isinstance(e, RoundOver))
    assert not reveal.scharf and reveal.deckel == 1 and game.section == 1
    assert game.scharf is Scharf.ON and to_notation(game).endswith(" S")
    # Anna lost that round and opens the next, the first scharf one.
    events = one_throw_each(game, (3, 3, 2), (5, 5, 1), (6, 4, 1))
    reveal = next(e for e in events if isinstance(e, RoundOver))
    assert reveal.scharf and reveal.loser == "Anna"
    assert HalfOver(1, "Anna") in events and game.section == 2


def test_the_time_box_at_a_round_boundary_makes_that_round_scharf() -> None:
    game = started()
    one_throw_each(game, (4, 3, 1), (6, 5, 3), (6, 6, 2))  # Anna takes 1 Deckel
    assert game.round_untouched
    game.go_scharf()
    assert game.scharf is Scharf.ON


def test_a_scharf_game_is_decided_in_three_rounds_with_the_finale_scharf_too() -> None:
    game = started()
    game.go_scharf(70)
    events = one_throw_each(game, (4, 3, 1), (6, 5, 3), (6, 6, 2))  # Anna loses half 1
    events += one_throw_each(game, (6, 6, 6), (5, 4, 1), (2, 2, 3))  # Anna opens, Carla loses
    assert HalfOver(2, "Carla") in events and FinalStarts(("Anna", "Carla")) in events
    assert game.section == 3 and game.scharf is Scharf.ON
    events = one_throw_each(game, (5, 5, 5), (6, 3, 2))  # Carla opens the Finale
    assert HalfOver(3, "Anna") in events
    assert GameOver("Anna", False, ("Anna", "Carla")) in events
    result = game_result(game.setup, game.actions)
    assert result.half_losers == ("Anna", "Carla") and result.final_loser == "Anna"
    # Nobody went out of a scharf half: the two others share the best place.
    places = game_points(SCHEME_PRESETS["platzpunkte"], result)
    assert places == {"Anna": 0 + 3 - 1, "Ben": 3 + 3, "Carla": 3 + 0}


def test_the_time_box_runs_out_once() -> None:
    game = started()
    game.go_scharf(70)
    with pytest.raises(IllegalActionError) as caught:
        game.go_scharf(70)
    assert caught.value.reason is Reason.ALREADY_SCHARF
    assert game.why_not(GoScharf(5)) is not None


@pytest.mark.parametrize("minutes", [-1, 601, True, "70", 2.5])
def test_a_time_box_that_is_no_time_is_refused_in_one_line(minutes: object) -> None:
    game = started()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(GoScharf(minutes))  # type: ignore[arg-type]
    assert "\n" not in str(caught.value) and "600" in str(caught.value)
    assert game.scharf is Scharf.OFF and game.actions[-1].kind == "roll_off"


def test_scharf_after_the_game_is_over_is_refused() -> None:
    game = started()
    game.go_scharf()
    one_throw_each(game, (4, 3, 1), (6, 5, 3), (6, 6, 2))
    one_throw_each(game, (6, 6, 6), (5, 4, 1), (2, 2, 3))
    one_throw_each(game, (5, 5, 5), (6, 3, 2))
    assert game.is_over
    with pytest.raises(IllegalActionError) as caught:
        game.go_scharf()
    assert caught.value.reason is Reason.GAME_OVER


def test_scharf_in_the_roll_off_makes_the_first_round_scharf_and_shows_in_the_notation() -> None:
    game = Game(GameSetup(PLAYERS))
    game.go_scharf(75)
    assert to_notation(game) == "rolloff Anna,Ben,Carla S"
    again = from_notation(to_notation(game), game.setup)
    assert again.scharf is Scharf.ON and to_notation(again) == to_notation(game)
    game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)])
    assert game.scharf is Scharf.ON


def test_the_action_replays_from_its_json_and_the_notation_round_trips() -> None:
    game = started()
    game.roll((4, 3, 1))
    game.stand()
    game.go_scharf(70)
    line = to_json(game.actions[-1])
    assert line == {"event": "scharf", "minutes": 70}
    assert from_json(line) == GoScharf(70)
    replayed = Game.replay(game.setup, [from_json(to_json(a)) for a in game.actions])
    assert replayed.state() == game.state() and replayed.scharf is Scharf.NEXT_ROUND
    text = to_notation(game)
    assert to_notation(from_notation(text, game.setup)) == text
    assert from_notation(text, game.setup).scharf is Scharf.NEXT_ROUND
    # A reveal written before the time box existed still reads (scharf defaults to false).
    reveal = {k: v for k, v in to_json(RoundOver("A", "B", "x", "y", 1, "pot", (), 12,
                                                 (("A", 0), ("B", 1)))).items() if k != "scharf"}
    assert from_json(reveal) == RoundOver("A", "B", "x", "y", 1, "pot", (), 12,
                                          (("A", 0), ("B", 1)))


def test_a_real_dice_game_goes_scharf_the_same_way() -> None:
    game = Game(GameSetup(PLAYERS, real_dice=True))
    game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)])
    game.report((4, 3, 1), 1)
    game.go_scharf(70)
    assert game.scharf is Scharf.NEXT_ROUND
    game.report((6, 5, 3), 1)
    game.report((6, 6, 2), 1)
    events = game.report((4, 3, 1), 1) + game.report((6, 5, 3), 1) + game.report((6, 6, 2), 1)
    assert HalfOver(1, "Anna") in events


def test_a_real_dice_round_with_no_result_entered_yet_is_settled_as_ever() -> None:
    """With real cups the device cannot tell whether anyone has thrown: results are entered as
    turns end, under ``hidden_last_throw`` only at the reveal. A round in play when the time
    runs out is settled as ever; only the roll-off (no round begun) makes the first round
    scharf at once."""
    game = Game(GameSetup(PLAYERS, real_dice=True))
    game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)])
    assert game.round_untouched
    game.go_scharf(70)
    assert game.scharf is Scharf.NEXT_ROUND
    rolling_off = Game(GameSetup(PLAYERS, real_dice=True))
    rolling_off.go_scharf(70)
    assert rolling_off.scharf is Scharf.ON
