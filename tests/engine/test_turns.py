"""Turn mechanics: the throw limit, flipping sixes, laid-out dice, standing, Blind."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    Game,
    GameSetup,
    IllegalActionError,
    Rules,
    TurnOver,
    from_notation,
    load_preset,
)

PLAYERS = ("Anna", "Ben", "Carla")
START = "1 13 Anna=0,Ben=0,Carla=0 - - Anna:---/0"


def started(rules: Rules | None = None, position: str = START) -> Game:
    return from_notation(position, GameSetup(PLAYERS, rules or load_preset("standard")))


def turn_over(events: list[object]) -> TurnOver:
    found = [e for e in events if isinstance(e, TurnOver)]
    assert len(found) == 1, events
    return found[0]


# -- the throw limit -----------------------------------------------------------------------------


@pytest.mark.parametrize("first_throws", [1, 2, 3])
def test_the_first_players_throws_are_everyones_limit(first_throws: int) -> None:
    game = started()
    game.roll((6, 5, 2))
    for _ in range(first_throws - 1):
        game.roll((3,), keep=(0, 1))
    if first_throws < 3:
        game.stand()
    assert game.limit == first_throws
    assert game.current_player == "Ben"
    for throw in range(1, first_throws + 1):
        events = game.roll((6, 5, 3))
        assert bool([e for e in events if isinstance(e, TurnOver)]) == (throw == first_throws)
    assert game.current_player == "Carla", "Ben's turn ended at the limit"
    assert game.turn is not None and game.turn.limit == first_throws


def test_a_later_player_may_stop_before_the_limit() -> None:
    game = started()
    game.roll((6, 5, 2))
    game.roll((3,), keep=(0, 1))
    game.roll((3,), keep=(0, 1))
    game.roll((4, 4, 4))
    assert turn_over(game.stand()).throws == 1
    assert game.limit == 3, "only the first player sets the limit"


# -- flipping sixes ------------------------------------------------------------------------------


def test_two_sixes_make_a_one_and_the_other_six_goes_back() -> None:
    game = started()
    # Regeln und Varianten: "Du wirfst 6-3-6 ... auf dem Tisch liegt jetzt 1-3-6"
    game.roll((6, 3, 6))
    game.flip()
    t = game.turn
    assert t is not None
    assert (t.values, t.laid_out, t.throws, t.flipped, t.hand) == (
        (1, 3, 6), (True, False, False), 1, True, False
    )
    # The other six goes back into the cup: it may not be laid out for the next throw.
    assert set(game.legal_keeps()) == {(0,), (0, 1)}
    with pytest.raises(IllegalActionError, match="other six, goes back into the cup"):
        game.roll((4,), keep=(0, 2))
    game.roll((1, 1), keep=(0,))  # "Kommen dabei zwei Einsen, hast du sogar Schock aus."
    assert game.turn is not None and game.turn.values == (1, 1, 1)
    assert turn_over(game.stand()).name == "Schock aus"


def test_three_sixes_make_two_ones() -> None:
    game = started()
    game.roll((6, 6, 6))
    game.flip()
    t = game.turn
    assert t is not None
    assert (t.values, t.laid_out) == ((1, 1, 6), (True, True, False))


def test_a_flip_is_not_a_throw() -> None:
    game = started()
    game.roll((6, 6, 2))
    game.flip()
    assert game.turn is not None and game.turn.throws == 1
    game.roll((5, 4), keep=(0,))
    assert game.turn is not None and game.turn.throws == 2
    # Regeln und Varianten: "Das kostet keinen Extrawurf": the third throw is still Anna's last.
    assert turn_over(game.roll((1,), keep=(0, 1))).throws == 3
    assert game.limit == 3 and game.current_player == "Ben"


def test_no_second_flip_before_the_next_throw() -> None:
    game = started()
    game.roll((6, 6, 6))
    game.flip()
    assert not game.can_flip()
    with pytest.raises(IllegalActionError, match="already flipped"):
        game.flip()


def test_no_flip_after_the_last_throw() -> None:
    # Ben's third throw of three showed two sixes; he may only stand.
    game = started(position="1 13 Anna=0,Ben=0,Carla=0 3 Anna:652b3 Ben:663/3")
    assert not game.can_flip() and not game.can_roll() and game.can_stand()
    with pytest.raises(IllegalActionError, match="no flip after the last allowed throw"):
        game.flip()
    # In play, the last throw ends the turn before a flip could happen.
    game = started(position="1 13 Anna=0,Ben=0,Carla=0 1 Anna:652h1 Ben:---/0")
    turn_over(game.roll((6, 6, 3)))
    assert game.current_player == "Carla"


def test_laid_out_sixes_do_not_flip_without_boerdeschock() -> None:
    game = started()
    game.roll((6, 6, 2))
    game.roll((3,), keep=(0, 1))  # both sixes laid out instead of flipped
    assert not game.can_flip()
    with pytest.raises(IllegalActionError, match="among the dice just thrown"):
        game.flip()
    game = started(replace(load_preset("standard"), boerdeschock=True))
    game.roll((6, 6, 2))
    game.roll((3,), keep=(0, 1))
    assert game.can_flip()


def test_boerdeschock_allows_up_to_five_throws() -> None:
    game = started(load_preset("boerde"))
    game.roll((6, 6, 2))
    game.flip()  # 1* 6 2, one more throw
    game.roll((6, 6), keep=(0,))
    game.flip()  # 1* 1* 6, another
    t = game.turn
    assert t is not None and (t.values, t.limit, t.bonus) == ((1, 1, 6), 5, 2)
    for throw in (3, 4):
        game.roll((5,), keep=(0, 1))
        assert game.current_player == "Anna" and game.turn is not None
        assert game.turn.throws == throw
    assert turn_over(game.roll((1,), keep=(0, 1))).throws == 5
    assert game.limit == 3, "the bonus throws are Anna's own; the limit stays three"


# -- laid-out dice, standing, Blind ---------------------------------------------------------------


def test_laid_out_dice_stay_out() -> None:
    game = started()
    game.roll((1, 5, 3))
    game.roll((4, 2), keep=(0,))
    assert set(game.legal_keeps()) == {(0,), (0, 1), (0, 2)}
    with pytest.raises(IllegalActionError, match="die 1 is laid out and stays out"):
        game.roll((1, 1), keep=(1,))


def test_nothing_is_laid_out_before_the_first_throw() -> None:
    game = started()
    assert set(game.legal_keeps()) == {()}
    with pytest.raises(IllegalActionError, match="nothing to lay out before the first throw"):
        game.roll((1, 1), keep=(0,))


def test_keep_only_ones_refuses_other_dice() -> None:
    game = started(replace(load_preset("standard"), keep_only_ones=True))
    game.roll((1, 6, 1))
    assert set(game.legal_keeps()) == {(), (0,), (2,), (0, 2)}


def test_stand_any_time_after_the_first_throw() -> None:
    game = started()
    assert not game.can_stand()
    with pytest.raises(IllegalActionError, match="has not thrown yet"):
        game.stand()
    game.roll((3, 2, 5))
    assert game.can_stand()
    assert turn_over(game.stand()).throws == 1


def test_blind_right_after_the_first_throw_only() -> None:
    rules = replace(load_preset("standard"), blind=True)
    game = started(rules)
    assert not game.can_blind()
    game.roll((6, 6, 5))
    game.flip()
    assert not game.can_blind(), "a flip is a decision about the dice: no Blind after it"
    game = started(rules)
    game.roll((6, 5, 5))
    game.roll((3,), keep=(0, 1))
    assert not game.can_blind()
    with pytest.raises(IllegalActionError, match="after the first throw only"):
        game.blind()
    game = started(rules)
    game.roll((6, 5, 5))
    over = turn_over(game.blind())
    assert over.throws == 1 and game.limit == 1
    assert game.results[-1].blind


def test_no_stand_right_after_a_flip() -> None:
    # Regeln und Varianten: "Das kostet keinen Extrawurf, man braucht aber noch einen Wurf übrig."
    game = started()
    game.roll((6, 6, 6))
    game.flip()
    assert not game.can_stand()
    with pytest.raises(IllegalActionError, match="after a flip the cup must be thrown"):
        game.stand()
    game.roll((3,), keep=(0, 1))
    assert game.can_stand()
    assert turn_over(game.stand()).name == "Schock 3"


# -- penalties -----------------------------------------------------------------------------------


def test_a_penalty_that_empties_a_player_once_the_pot_is_empty_puts_them_out() -> None:
    # The pot is empty; Carla has 6 and is the richest opponent, so Ben's penalty of 6 takes all
    # of hers. Regeln und Varianten: "Wer keine Deckel mehr hat, ist für den Rest der Hälfte raus."
    game = started(position="1 0 Anna=1,Ben=6,Carla=6 2 Anna:641b2 Ben:---/0")
    events = game.penalty("Ben", 6)
    given = [e for e in events if type(e).__name__ == "PenaltyGiven"]
    assert given and given[0].out == ("Carla",) and dict(given[0].taken_from) == {"Carla": 6}
    assert "Carla" in game.out and game.holdings["Carla"] == 0
    assert game.round_players == ("Anna", "Ben")
    game.roll((2, 2, 3))
    assert game.turn is not None and game.turn.player == "Ben"
    game.stand()
    # Ben's Hausnummer 322 loses to Anna's 641: Anna's last Deckel makes Ben's 13, half over.
    assert game.section == 2 and game.half_losers == ["Ben"]


def test_a_penalty_that_empties_the_player_at_the_cup_passes_the_cup_on() -> None:
    game = started(position="1 0 Anna=1,Ben=6,Carla=6 - - Carla:6*5-/1")
    game.penalty("Ben", 6)
    assert "Carla" in game.out
    assert game.turn is not None and game.turn.player == "Anna"
    assert game.round_players == ("Anna", "Ben")
