"""Done when: a whole real-dice game of four players, reported turn by turn, ends with the same
Deckel after every round, the same halves, final and loser as ``schocken judge`` gives for the
same results, under ``standard`` and under ``dsm``."""

from __future__ import annotations

import pytest

from engine import Game, GameOver, GameSetup, HalfOver, RoundOver, load_preset
from tests.realdice import ROLL_OFF_WINNER, judged_game, roll_off_dice

PLAYERS = ("Anna", "Ben", "Carla", "Dora")


# Seeds 1 and 3 end in a Blattschuss (one player loses both halves), 2 and 4 in a final.
@pytest.mark.parametrize(("preset", "seed"), [("standard", 1), ("standard", 2), ("dsm", 3),
                                              ("dsm", 4)])
def test_a_reported_game_ends_as_judge_settles_it(
    preset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = load_preset(preset)
    table = judged_game(PLAYERS, rules, preset, seed, monkeypatch)
    game = Game(GameSetup(PLAYERS, rules, real_dice=True))
    events = game.roll_off(roll_off_dice(PLAYERS))
    assert game.current_player == ROLL_OFF_WINNER
    for turn in table.turns:
        assert game.current_player == turn.player
        events += game.report(turn.dice, turn.throws, turn.hand)
    rounds = [(e.pot, dict(e.holdings)) for e in events if isinstance(e, RoundOver)]
    assert rounds == table.rounds
    assert [e.loser for e in events if isinstance(e, HalfOver)][:2] == table.half_losers
    (over,) = [e for e in events if isinstance(e, GameOver)]
    assert (over.loser, over.blattschuss, list(over.half_losers)) == (
        table.loser, table.blattschuss, table.half_losers
    )
    assert game.is_over and len(table.rounds) > 5
    # The game is its actions: a replay from the journal's list ends the same.
    assert Game.replay(game.setup, game.actions).state() == game.state()


def test_replay_tells_a_reported_game() -> None:
    """`schocken replay`'s story of a real-dice game: each turn as it was reported, a correction
    as such, then the reveal as for any game."""
    from firmware.cli.replay import narrate

    game = Game(GameSetup(("Anna", "Ben"), load_preset("standard"), real_dice=True))
    game.roll_off([(1, 1, 1), (2, 2, 3)])
    game.report((6, 5, 2), 3)
    game.correct("Anna", (4, 1, 1), 2)
    game.report((3, 2, 2), 2)
    lines = list(narrate(game.setup, game.actions))
    assert any("Anna: meldet 6-5-2" in line for line in lines), lines
    assert any("korrigiert auf 4-1-1" in line and "Schock 4" in line for line in lines), lines
    assert any("Ben: meldet 3-2-2" in line for line in lines), lines
