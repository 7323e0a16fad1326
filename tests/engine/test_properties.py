"""Property tests: seeded random games under every preset and random house rules (hypothesis)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Game,
    GameOver,
    GameSetup,
    HalfOver,
    Phase,
    RoundOver,
    RoundStarted,
    Rules,
    StrasseOrder,
    TieRule,
    TwoTwoOne,
    from_json,
    from_notation,
    load_preset,
    preset_names,
    to_json,
    to_notation,
)
from engine.rules import HAND_ONLY_KINDS, DroppedCup
from tests.engine.randomplay import play_step

house_rules = st.builds(
    Rules,
    name=st.just("random"),
    deckel=st.integers(2, 30),
    max_throws=st.integers(1, 4),
    general_above_schock2=st.booleans(),
    strasse_order=st.sampled_from(StrasseOrder),
    hand_only=st.lists(st.sampled_from(HAND_ONLY_KINDS), unique=True).map(
        lambda kinds: tuple(k for k in HAND_ONLY_KINDS if k in kinds)
    ),
    naturschock_above_built=st.booleans(),
    ties=st.sampled_from(TieRule),
    jule=st.booleans(),
    two_two_one=st.sampled_from(TwoTwoOne),
    achter=st.booleans(),
    flip_sixes=st.booleans(),
    blind=st.booleans(),
    boerdeschock=st.booleans(),
    two_dice=st.booleans(),
    keep_only_ones=st.booleans(),
    take_back=st.booleans(),
    dropped_cup=st.sampled_from(DroppedCup),
    penalty_deckel=st.integers(0, 2),
)


def check_whole_game(rules: Rules, players: int, seed: int) -> None:
    rng = random.Random(seed)
    setup = GameSetup(tuple(f"P{i}" for i in range(players)), rules)
    game = Game(setup)
    log: list[dict[str, object]] = []
    losers = []
    for _ in range(50_000):
        if game.is_over:
            break
        events = play_step(game, rng)
        log.extend(to_json(e) for e in events)
        # Deckel are conserved: the pot and the players' Deckel always make the total.
        assert game.pot + sum(game.holdings.values()) == rules.deckel
        assert all(count >= 0 for count in game.holdings.values())
        if any(isinstance(e, RoundStarted) for e in events) and game.pot == 0:
            # Once the pot is empty, only players with Deckel start a round.
            assert all(game.holdings[p] > 0 for p in game.in_play()), to_notation(game)
        for index, event in enumerate(events):
            if isinstance(event, HalfOver):
                losers.append(event.loser)
                before = [e for e in events[:index] if isinstance(e, RoundOver)]
                if before:
                    # The half ends with exactly one player holding every Deckel.
                    holdings = dict(before[-1].holdings)
                    assert holdings[event.loser] == rules.deckel
                    assert sum(1 for v in holdings.values() if v) == 1
        if game.phase is Phase.TURN and len(game.actions) % 16 == 0:
            # The notation describes the position exactly.
            assert to_notation(from_notation(to_notation(game), setup)) == to_notation(game)
    assert game.is_over, "the game did not end"
    # The serialised log, read back through JSON text: one GameOver, and its replay gives the
    # live state.
    parsed = [from_json(json.loads(json.dumps(entry))) for entry in log]
    over = [e for e in parsed if isinstance(e, GameOver)]
    assert len(over) == 1 and over[0].loser == game.loser
    assert game.loser in setup.players
    assert len(losers) in (2, 3)
    assert (len(losers) == 2) == (losers[0] == losers[1])
    assert Game.replay(setup, parsed).state() == game.state()


def whole_games() -> int:
    """How many random whole games a property plays: the profile's examples in the slow
    selection (1,000), a tenth of the quick profile's in `make test` (a game of up to ten
    players takes tens of milliseconds, and each game already makes hundreds of checks)."""
    examples = settings().max_examples
    return examples if examples >= 1000 else max(1, examples // 10)


@settings(derandomize=True, max_examples=whole_games())
@given(
    preset=st.sampled_from(preset_names()), players=st.integers(2, 10), seed=st.integers(0, 2**32)
)
def test_random_games_under_every_preset(preset: str, players: int, seed: int) -> None:
    check_whole_game(load_preset(preset), players, seed)


@settings(derandomize=True, max_examples=whole_games())
@given(rules=house_rules, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_games_under_random_house_rules(rules: Rules, players: int, seed: int) -> None:
    check_whole_game(rules, players, seed)


def test_replay_midway_equals_live_state() -> None:
    rng = random.Random(7)
    setup = GameSetup(("Anna", "Ben", "Carla"), replace(load_preset("standard"), blind=True))
    game = Game(setup)
    for step in range(400):
        if game.is_over:
            break
        play_step(game, rng)
        if step % 37 == 0:
            assert Game.replay(setup, game.actions).state() == game.state()
            copy = game.copy()
            assert copy.state() == game.state()
