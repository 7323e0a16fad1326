"""A game's results from its journal (firmware/tournament/recount.py): one per half and Finale
as each ends, then the game, with the ids the wire's contract fixes, equal to the engine's
scoring of the same game; a game cut short gives the halves it finished."""

from __future__ import annotations

import pytest

from engine import GameSetup, Rules
from engine.events import HalfOver
from engine.scoring import game_result
from firmware.store.journal import TournamentGame
from firmware.tournament.recount import results_of_game
from firmware.wire.messages import Result
from tests.engine.randomplay import play_random_game

PLACE = TournamentGame("cup26", "table-7", 2, 3)


@pytest.mark.parametrize("seed", range(12))
def test_a_games_results_are_its_halves_and_the_game_with_fixed_ids(seed: int) -> None:
    rules = Rules()
    game = play_random_game(3 + seed % 2, rules, seed)
    setup = GameSetup(game.players, rules)
    results = results_of_game(PLACE, setup, game.actions)
    scored = game_result(setup, game.actions)
    halves = [r for r in results if r.kind == "half"]
    sections = [r.section for r in halves]
    assert sections == ([1, 2] if scored.durchmarsch else [1, 2, 3])
    assert [r.id for r in halves] == [f"cup26/table-7/r2/g3/half{n}" for n in sections]
    assert tuple(r.loser for r in halves[:2]) == scored.half_losers
    assert results[-1].id == "cup26/table-7/r2/g3/game"
    assert results[-1].game_result() == scored
    # the out order of each half is the engine's, the half's loser left out
    for half in halves[:2]:
        groups = scored.out_order[half.section - 1]  # type: ignore[operator]
        assert half.out[: len(groups) - 2] == groups[: len(groups) - 2]
    # every result survives the wire, and counting again gives the same
    assert [Result.from_json(r.to_json()) for r in results] == results
    assert results_of_game(PLACE, setup, game.actions) == results


def test_a_game_cut_short_gives_the_halves_it_finished() -> None:
    rules = Rules()
    game = play_random_game(4, rules, 5)
    setup = GameSetup(game.players, rules)
    replay = type(game)(setup)
    count = next(
        number for number, action in enumerate(game.actions, start=1)
        if any(isinstance(event, HalfOver) for event in replay.apply(action))
    )
    results = results_of_game(PLACE, setup, game.actions[:count])
    assert [r.id for r in results] == ["cup26/table-7/r2/g3/half1"]
