"""Directed tests for the sections of a game: two halves, then the final or a Blattschuss.

Wikipedia, BVB: "Verlieren zwei verschiedene Spieler die beiden Hälften, spielen nur diese
beiden ein Finale aus"; "Verliert ein Spieler beide Hälften, nennt man das meist einen
Blattschuss" ("Was ist Schocken?": "so entfällt das Finale und man spricht von einem
Durchmarsch"); the final runs "nach denselben Regeln" (Regeln und Varianten: "Danach beginnt die
zweite Hälfte mit vollem Topf"), and "Danach beginnt immer der Verlierer der vorigen Runde".
"""

from __future__ import annotations

import pytest

from engine import (
    FinalStarts,
    Game,
    GameOver,
    GameSetup,
    HalfOver,
    IllegalActionError,
    Reason,
    Roll,
    RoundOver,
    RoundStarted,
    Rules,
)

PLAYERS = ("Anna", "Ben", "Carla", "Dora")


def lose_half(game: Game, loser: str) -> list:
    """A round in which the opener throws Schock aus and ``loser`` has the lowest throw (2-2-1):
    the loser takes every Deckel and the half is over. Returns the round's last events."""
    opener = game.current_player
    assert opener is not None and opener != loser
    game.roll((1, 1, 1))
    events = game.stand()
    for player in game.round_players[1:]:
        assert game.current_player == player
        events = game.roll((2, 2, 1) if player == loser else (6, 6, 6))
    return events


def started(deckel: int = 13) -> Game:
    game = Game(GameSetup(PLAYERS, Rules(deckel=deckel)))
    game.roll_off([(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)])  # Anna opens
    return game


def test_the_final_is_played_by_the_two_half_losers_and_the_second_half_loser_opens() -> None:
    game = started()
    events = lose_half(game, "Carla")
    assert HalfOver(1, "Carla") in events
    # The half's loser opens the second half, with everyone back in and a full pot.
    assert RoundStarted(2, 1, ("Carla", "Dora", "Anna", "Ben")) in events
    assert game.pot == 13 and set(game.holdings.values()) == {0}
    events = lose_half(game, "Dora")
    assert HalfOver(2, "Dora") in events
    # Only the two half losers play the final, in seat order.
    assert FinalStarts(("Carla", "Dora")) in events
    # The final's first round is opened by the loser of the round before: Dora.
    assert RoundStarted(3, 1, ("Dora", "Carla")) in events
    assert game.section == 3 and game.participants == ("Carla", "Dora")
    assert game.in_play() == ("Carla", "Dora") and game.current_player == "Dora"
    # The final's Deckel start from a full pot; nobody holds any.
    assert game.pot == 13 and game.holdings == {"Carla": 0, "Dora": 0}
    # Anna and Ben watch: they cannot throw, nor be penalised.
    with pytest.raises(IllegalActionError) as error:
        game.apply(Roll("Anna", (), (1, 2, 3)))
    assert error.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalActionError, match="does not play this section"):
        game.penalty("Ben")
    # The first round of the final takes its Deckel from the full pot.
    game.roll((1, 1, 4))
    game.stand()
    events = game.roll((6, 5, 2))
    result = next(e for e in events if isinstance(e, RoundOver))
    assert (result.loser, result.deckel, result.source, result.pot) == ("Carla", 4, "pot", 9)
    assert RoundStarted(3, 2, ("Carla", "Dora")) in events
    # Whoever loses the final loses the game.
    events = lose_half(game, "Dora")
    assert HalfOver(3, "Dora") in events
    assert events[-1] == GameOver("Dora", False, ("Carla", "Dora")) and game.loser == "Dora"


def test_losing_both_halves_is_a_blattschuss_and_ends_the_game_without_a_final() -> None:
    game = started(deckel=5)
    lose_half(game, "Ben")
    assert game.current_player == "Ben"
    # Ben opens the second half: Anna's Schock aus comes second, Ben stays lowest.
    game.roll((2, 2, 1))
    game.stand()
    game.roll((1, 1, 1))
    game.roll((6, 6, 6))
    events = game.roll((5, 5, 5))
    assert HalfOver(2, "Ben") in events
    assert not any(isinstance(e, FinalStarts) for e in events)
    assert not any(isinstance(e, RoundStarted) for e in events)
    assert events[-1] == GameOver("Ben", True, ("Ben", "Ben"))
    assert game.is_over and game.section == 2 and game.loser == "Ben"
    with pytest.raises(IllegalActionError, match="the game is over") as error:
        game.penalty("Anna")
    assert error.value.reason is Reason.GAME_OVER
