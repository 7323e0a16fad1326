"""``dropped_cup = "round"``: whoever drops their cup loses the round, whatever they throw.

Wikipedia ("Schocken"): "Wer seine Würfel fallen lässt, verliert meist eine Spielrunde. In
manchen Regionen kostet das eine vereinbarte Zahl von Steinen, meist zwei" (``"deckel"``).
The decisions for the cases the source leaves open are in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    Drop,
    Game,
    GameSetup,
    HalfOver,
    IllegalActionError,
    Reason,
    RoundOver,
    RoundStarted,
    Rules,
    TurnResult,
    from_json,
    from_notation,
    settle,
    to_json,
    to_notation,
)
from engine.rules import DroppedCup, rules_from_toml

ROUND = Rules(dropped_cup=DroppedCup.ROUND)
PLAYERS = ("Anna", "Ben", "Carla")


def started(rules: Rules = ROUND, players: tuple[str, ...] = PLAYERS) -> Game:
    """Anna opens the first round (she wins the roll-off)."""
    game = Game(GameSetup(players, rules))
    game.roll_off([(1, 1, 1), *[(2, 2, 2 + i) for i in range(len(players) - 1)]])
    assert game.current_player == "Anna"
    return game


def over(events: list) -> RoundOver:
    return next(e for e in events if isinstance(e, RoundOver))


def test_the_current_player_drops_loses_the_round_and_takes_the_best_others_deckel() -> None:
    game = started()
    game.roll((1, 1, 1))  # Schock aus under her cup: it does not count once the cup fell
    events = game.drop("Anna")
    assert events == [Drop("Anna")]
    assert game.current_player == "Ben" and game.limit is None
    # Ben is the first to finish: his one throw sets the limit, as an opener's would.
    game.roll((3, 3, 2))
    game.stand()
    assert game.limit == 1
    events = game.roll((1, 1, 4))  # Carla: Schock 4, the best of the others
    result = over(events)
    assert (result.loser, result.winner, result.losing, result.winning) == (
        "Anna", "Carla", "Becher gefallen", "Schock 4"
    )
    assert result.deckel == 4 and dict(result.holdings)["Anna"] == 4 and game.pot == 9
    # The loser of the round opens the next one.
    assert RoundStarted(1, 2, ("Anna", "Ben", "Carla")) in events


def test_a_finished_throw_no_longer_counts_after_a_drop() -> None:
    game = started()
    game.roll((1, 1, 6))
    game.stand()  # Anna: Schock 6, the best throw of the round so far
    game.roll((6, 5, 2))  # Ben
    game.drop("Anna")
    result = over(game.roll((5, 4, 2)))  # Carla, the last: the round is settled
    assert (result.loser, result.winner, result.deckel) == ("Anna", "Ben", 1)


def test_the_last_to_throw_drops_and_the_round_is_settled_at_once() -> None:
    game = started()
    game.roll((2, 2, 2))
    game.stand()
    game.roll((6, 5, 4))  # Carla has the cup now and drops it before throwing
    result = over(game.drop("Carla"))
    assert (result.loser, result.winner, result.deckel, result.source) == (
        "Carla", "Anna", 3, "pot"
    )
    assert game.round_players[0] == "Carla" and game.current_player == "Carla"


def test_one_still_to_throw_drops_and_leaves_the_throw_order() -> None:
    game = started()
    game.roll((6, 4, 1))
    game.drop("Carla")  # while Anna still throws
    assert game.round_players == ("Carla", "Anna", "Ben")
    assert game.current_player == "Anna"
    # The notation keeps the dropped cup where it fell, and reads back the same position.
    line = to_notation(game)
    assert " Carla:~ Anna:" in line
    again = from_notation(line, game.setup)
    assert to_notation(again) == line and again.round_players == game.round_players
    game.stand()
    result = over(game.roll((6, 5, 3)))
    assert (result.loser, result.winner, result.deckel) == ("Carla", "Ben", 1)


def test_with_only_one_other_player_that_player_throws_alone() -> None:
    game = started(players=("Anna", "Ben"))
    game.drop("Anna")  # the opener, before her first throw
    assert game.current_player == "Ben" and game.turn is not None and game.turn.limit == 3
    game.roll((6, 6, 3))
    game.roll((5,), keep=(0, 1))
    result = over(game.roll((1,), keep=(0, 1)))  # his third throw ends the round
    assert (result.loser, result.winner, result.winning, result.deckel) == (
        "Anna", "Ben", "Hausnummer 661", 1
    )


def test_schock_aus_among_the_others_gives_the_dropper_every_deckel() -> None:
    game = started()
    game.drop("Anna")
    game.roll((1, 1, 1))
    game.stand()
    events = game.roll((6, 5, 3))
    assert over(events).source == "all" and HalfOver(1, "Anna") in events


def test_blind_among_the_others_doubles_the_dropper_deckel() -> None:
    game = started(replace(ROUND, blind=True))
    game.roll((1, 1, 3))
    game.blind()  # Anna: Schock 3, blind
    game.drop("Ben")
    result = over(game.roll((4, 4, 2)))
    assert (result.loser, result.winner, result.deckel) == ("Ben", "Anna", 6)


def test_once_the_pot_is_empty_the_winner_hands_over_his_deckel() -> None:
    game = from_notation("1 0 Anna=5,Ben=6,Carla=2 - - Anna:---/0", GameSetup(PLAYERS, ROUND))
    game.roll((1, 1, 5))
    game.stand()
    game.drop("Ben")
    result = over(game.roll((6, 6, 6)))
    assert (result.loser, result.winner, result.deckel, result.source) == (
        "Ben", "Anna", 5, "winner"
    )
    assert result.out == ("Anna",)


def test_one_drop_per_round_and_only_under_the_rule() -> None:
    game = started()
    game.drop("Ben")
    with pytest.raises(IllegalActionError, match="Ben dropped the cup already") as error:
        game.drop("Carla")
    assert error.value.reason is Reason.ALREADY_DROPPED
    with pytest.raises(IllegalActionError, match="does not throw in this round"):
        game.drop("Dora")
    deckel = started(Rules())
    refusal = deckel.why_not(Drop("Ben"))
    assert refusal is not None and refusal.reason is Reason.DROP_IS_PENALTY
    assert 'dropped_cup = "deckel"' in refusal.message
    rolling = Game(GameSetup(PLAYERS, ROUND))
    with pytest.raises(IllegalActionError, match="once the game is under way"):
        rolling.drop("Anna")


def test_a_drop_in_the_final_loses_the_final_round_the_same_way() -> None:
    game = started(replace(ROUND, deckel=2))
    game.roll((1, 1, 1))
    game.stand()
    game.roll((6, 6, 6))
    game.roll((3, 2, 2))  # Carla loses the first half (Schock aus) and opens the second
    game.roll((6, 6, 6))
    game.stand()
    game.roll((1, 1, 1))
    game.roll((3, 2, 2))  # Ben loses the second half: Ben and Carla play the final
    assert game.section == 3 and game.participants == ("Ben", "Carla")
    assert game.current_player == "Ben"
    game.drop("Ben")
    game.roll((6, 5, 4))
    events = game.stand()
    result = over(events)
    assert (result.loser, result.winner, result.deckel) == ("Ben", "Carla", 2)
    assert game.is_over and game.loser == "Ben"


def test_settle_and_the_event_log_know_a_dropped_cup() -> None:
    results = [
        TurnResult("Anna", (), False, 0, dropped=True), TurnResult("Ben", (2, 1, 1), True, 1)
    ]
    settled = settle(ROUND, 13, {"Anna": 0, "Ben": 0}, results)
    assert (settled.loser, settled.due, settled.losing.name) == ("Anna", 2, "Becher gefallen")
    assert settled.order == ("Ben", "Anna")
    with pytest.raises(IllegalActionError, match="one dropped cup per round"):
        settle(ROUND, 13, {"Anna": 0, "Ben": 0}, [results[0], replace(results[1], dropped=True)])
    assert from_json(to_json(Drop("Ben"))) == Drop("Ben")
    game = started()
    game.roll((4, 4, 1))
    game.drop("Anna")
    replayed = Game.replay(game.setup, game.actions)
    assert to_notation(replayed) == to_notation(game)


def test_files_and_the_link_name_the_rule() -> None:
    rules = rules_from_toml('dropped_cup = "round"\n')
    assert rules.dropped_cup is DroppedCup.ROUND
    assert rules.description == 'as standard, but dropped_cup = "round"'
    with pytest.raises(Exception, match="dropped_cup = 'floor': allowed are 'round', 'deckel'"):
        rules_from_toml('dropped_cup = "floor"\n')
