"""Bots play only legal moves; the fast simulator plays exactly the bots' turns and settles like
engine.settle."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Game, GameSetup, Rules, load_preset, preset_names, rank_table, settle
from engine.bots import (
    COMPARISON_STRATEGIES,
    Move,
    MoveKind,
    OddsStrategy,
    Shown,
    StrategyBot,
    View,
    avoid_goal,
    make_bot,
    make_strategy,
    play_game,
    play_turn,
    strategy_names,
    view_of,
)
from engine.chance import sorted_throw_outcomes
from engine.events import TurnOver
from engine.odds import Position, Target, chance_playing, stand_states, ties_by_throws
from engine.rules import HAND_ONLY_KINDS
from engine.settle import TurnResult
from engine.simulation import Simulator, TurnTable, score_of, settle_scores, turn_table

STANDARD = load_preset("standard")

HOUSE_RULES = [
    {"take_back": True},
    {"keep_only_ones": True},
    {"keep_only_ones": True, "boerdeschock": True},
    {"two_dice": True},
    {"blind": True, "max_throws": 2},
    {"flip_sixes": False, "hidden_last_throw": False},
    {"hand_only": ("general", "strasse", "jule"), "jule": True},
]


def test_registry_names_and_unknown_name() -> None:
    assert strategy_names() == ["odds", "threshold"]
    with pytest.raises(ValueError, match="strategies: odds, threshold"):
        make_bot("genius")


#: Presets whose two-player game `make test` leaves to the slow selection: each of their rules
#: is played by the bots in `make test` elsewhere (Bördeschock in the house rules with
#: keep_only_ones, the DSM's General above Schock 2 under bvb and its hand-only Straße in the
#: house rules' hand_only).
_SLOW_TWO_PLAYER_PRESETS = ("boerde", "dsm")


def _preset_games() -> list[object]:
    """(preset, players, seed) of the preset games: at three players, four seeds a preset (an
    odds bot's first decisions at a table of three build its tables, seconds each); `make test`
    plays the standard's first and one game of two players under the presets whose rules no
    other game in `make test` plays (:data:`_SLOW_TWO_PLAYER_PRESETS` in the slow selection)."""
    games: list[object] = []
    for preset in preset_names():
        for seed in (3, 0, 1, 2):
            quick = preset == "standard" and seed == 3
            games.append(pytest.param(preset, 3, seed, marks=() if quick else pytest.mark.slow))
        if preset != "standard":
            slow = preset in _SLOW_TWO_PLAYER_PRESETS
            games.append(pytest.param(preset, 2, 3, marks=pytest.mark.slow if slow else ()))
    return games


@pytest.mark.parametrize(("preset", "players", "seed"), _preset_games())
def test_bots_play_only_legal_moves_under_every_preset(
    preset: str, players: int, seed: int
) -> None:
    """A game of both bots under each preset; an even seed seats two odds bots at a table of
    three. Two players: an odds bot and a threshold bot."""
    rules = load_preset(preset)
    rng = random.Random(seed)
    names = ("A", "B", "C")[:players]
    third = ["odds", "threshold"][seed % 2]
    bots = {"A": make_bot("threshold"), "B": make_bot("odds"), "C": make_bot(third)}
    game = play_game(GameSetup(names, rules), {name: bots[name] for name in names}, rng)
    assert game.is_over and game.loser in names  # the Game raises on any illegal move


#: House rules whose odds tables `make test` leaves to the slow selection (their mechanics stay
#: in `make test` in the others: keep_only_ones with Bördeschock, flip_sixes in the presets;
#: take_back in tests/engine/test_odds.py, whose odds play it, alone and with Bördeschock,
#: against the real Game's every action).
_SLOW_HOUSE_RULES = (
    {"take_back": True},
    {"keep_only_ones": True},
    {"flip_sixes": False, "hidden_last_throw": False},
)


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param(rules, marks=pytest.mark.slow) if rules in _SLOW_HOUSE_RULES else rules
        for rules in HOUSE_RULES
    ],
)
def test_bots_play_only_legal_moves_under_house_rules(overrides: dict) -> None:
    """Three games of two players a rule set (the first builds the odds bot's tables)."""
    rules = replace(STANDARD, deckel=7, **overrides)
    for seed in range(3):
        bots = {"A": make_bot("odds"), "B": make_bot("threshold")}
        game = play_game(GameSetup(("A", "B"), rules), bots, random.Random(seed))
        assert game.is_over


def test_odds_bot_as_last_player_never_risks_the_round_it_cannot_lose() -> None:
    """The opener stood on a shown 2-2-1 (the worst throw): the last player cannot be lowest
    unless it throws 2-2-1 again; it plays on for more Deckel only where that stays certain."""
    rules = replace(STANDARD, hidden_last_throw=False)
    game = Game(GameSetup(("P0", "P1"), rules))
    game.roll_off([(1, 1, 1), (2, 2, 2)])
    game.roll((2, 2, 1))
    game.roll((2, 2, 1), keep=())
    game.stand()
    game.roll((6, 4, 3))
    turn = game.turn
    assert turn is not None
    strategy = OddsStrategy()
    situation = strategy.situation(view_of(game), rules)
    position = Position.from_turn(turn)
    choice = strategy.choose(position, situation, rules)
    not_last = Target.of((2, 2, 1), rules, throws=2)  # exact for the last player
    goal = avoid_goal(rules, situation)
    assert chance_playing(position, choice, goal, not_last, rules) == pytest.approx(1)
    # The same chance without the Deckel share: the last player's is exact against 2-2-1.
    alone = avoid_goal(rules, situation, share=False)
    assert chance_playing(position, choice, goal, alone, rules) == pytest.approx(1)
    # The threshold bot does not look: it throws on.
    move = make_bot("threshold").decide(game, view_of(game), random.Random(0))
    assert move.kind is MoveKind.ROLL


def test_the_comparison_strategy_is_for_simulate_only() -> None:
    from engine.strategy_names import COMPARISON_NAMES

    assert sorted(COMPARISON_STRATEGIES) == list(COMPARISON_NAMES) == ["odds-v1"]
    assert make_strategy("odds-v1").name == "odds-v1"
    assert "odds-v1" not in strategy_names()  # the device and its config do not offer it


# bvb's General above Schock 2 and its ties in the slow selection; the bots play them above.
@pytest.mark.parametrize("preset", ["standard", pytest.param("bvb", marks=pytest.mark.slow)])
def test_the_opener_counts_the_next_player_exactly_as_odds_v1_plays(preset: str) -> None:
    """Two players: the opener's chance of not being the loser on each throw it may stand on is
    one less the chance that odds-v1, seeing what the table sees of it, ends stronger, by the
    simulator's own turn table and settlement scores."""
    rules = load_preset(preset)
    table = rank_table(rules)
    situation = OddsStrategy().situation(View(0, 2, None, ()), rules)
    goal = avoid_goal(rules, situation, share=False)
    assert goal.by_state is not None
    legacy = make_strategy("odds-v1")
    tables: dict[tuple[int, tuple[int, ...]], TurnTable] = {}  # what the next player sees
    checked = 0
    for throws in (1, 2, 3):
        for state, (laid, free) in enumerate(stand_states(rules)):
            if len(free) == 0 or (throws == 1 and laid):
                continue
            theirs = tables.get((throws, laid))
            if theirs is None:
                shown = Shown("", throws, laid, None, None)  # the dice stay under the cup
                view = View(1, 2, throws, (shown,))
                situation = legacy.situation(view, rules)
                theirs = tables[throws, laid] = turn_table(rules, legacy, situation, throws)
            evaluation = table.evaluate(tuple(sorted(laid + free, reverse=True)), not laid)
            ours = score_of(evaluation.strength, throws, ties_by_throws(evaluation.kind, rules))
            previous = beaten = 0.0
            for cumulative, outcome in zip(theirs.cumulative, theirs.outcomes, strict=True):
                if outcome[0] > ours:
                    beaten += cumulative - previous
                previous = cumulative
            assert goal.by_state[throws][state] == pytest.approx(1 - beaten, abs=1e-9)
            checked += 1
    assert checked > 100


# -- the fast path against the real Game ----------------------------------------------------------


def exact_turn_via_game(game: Game, bot: StrategyBot, shown: list[Shown]) -> dict:
    """Every way the current turn can end, with its probability, driving the real Game."""
    ends: dict[tuple[tuple[int, ...], bool, int], float] = {}
    player = game.current_player

    def walk(g: Game, p: float) -> None:
        move = bot.decide(g, view_of(g, shown), random.Random(0))
        if move.kind is MoveKind.ROLL:
            for dice, q in sorted_throw_outcomes(g.dice_to_throw(move.keep)):
                copy = g.copy()
                finish(copy, copy.roll(dice[::-1], move.keep), p * float(q))
        elif move.kind is MoveKind.FLIP:
            copy = g.copy()
            finish(copy, copy.flip(), p)
        else:
            copy = g.copy()
            finish(copy, copy.stand(), p)

    def finish(g: Game, events: list, p: float) -> None:
        over = next((e for e in events if isinstance(e, TurnOver) and e.player == player), None)
        if over is None:
            walk(g, p)
        else:
            key = (tuple(sorted(over.dice, reverse=True)), over.hand, over.throws)
            ends[key] = ends.get(key, 0.0) + p

    walk(game, 1.0)
    return ends


def fast_ends(rules: Rules, strategy: str, view: View, limit: int) -> dict:
    """The fast path's table for the same situation, as {(dice, hand, throws): p}."""
    chosen = make_strategy(strategy)
    table = turn_table(rules, chosen, chosen.situation(view, rules), limit)
    ends: dict[tuple[tuple[int, ...], bool, int], float] = {}
    previous = 0.0
    for cumulative, end in zip(table.cumulative, table.ends, strict=True):
        ends[end] = ends.get(end, 0.0) + cumulative - previous
        previous = cumulative
    return ends


def assert_same(game_ends: dict, table_ends: dict) -> None:
    assert table_ends.keys() == game_ends.keys()
    for key, p in game_ends.items():
        assert table_ends[key] == pytest.approx(p, abs=1e-9), key


def _odds_slow_but_standard(strategy: str, preset: str) -> object:
    """The odds strategy's tables at a table of three take a second or more to build: `make
    test` builds the standard's, the slow selection every preset's."""
    slow = strategy == "odds" and preset != "standard"
    return pytest.param(preset, strategy, marks=pytest.mark.slow) if slow else (preset, strategy)


@pytest.mark.parametrize(
    ("preset", "strategy"),
    [
        _odds_slow_but_standard(strategy, preset)
        for preset in ("standard", "boerde", "westfalen")
        for strategy in ("threshold", "odds", "odds-v1")
    ],
)
def test_fast_turn_tables_equal_the_real_game_exactly(strategy: str, preset: str) -> None:
    # Two throws keep the walk through the Game short; the slow test below takes three.
    check_turn_tables(strategy, replace(load_preset(preset), max_throws=2))


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["threshold", "odds"])
@pytest.mark.parametrize("preset", ["standard", "boerde"])
def test_fast_turn_tables_equal_the_real_game_with_three_throws(strategy: str, preset: str) -> None:
    check_turn_tables(strategy, load_preset(preset))


@pytest.mark.parametrize("strategy", ["threshold", pytest.param("odds", marks=pytest.mark.slow)])
def test_fast_turn_tables_equal_the_real_game_under_hand_only(strategy: str) -> None:
    rules = replace(STANDARD, max_throws=2, jule=True, achter=True, hand_only=HAND_ONLY_KINDS)
    check_turn_tables(strategy, rules)


def check_turn_tables(strategy: str, rules: Rules) -> None:
    rules = replace(rules, hidden_last_throw=False)
    limit = rules.max_throws
    # The opener's turn (two players still to come).
    game = Game(GameSetup(("P0", "P1", "P2"), rules))
    game.roll_off([(1, 1, 1), (2, 2, 2), (3, 3, 3)])
    bot = make_bot(strategy)
    view = view_of(game, [])
    assert_same(exact_turn_via_game(game, bot, []), fast_ends(rules, strategy, view, limit))
    # The second player's turn after the opener stood on 6-5-3 after two throws (limit 2).
    game.roll((6, 5, 3))
    game.roll((6, 5, 3), keep=())
    if game.current_player == "P0":
        game.stand()
    shown = [Shown("P0", 2, (), (6, 5, 3), True)]
    view = view_of(game, shown)
    assert view.seat == 1 and view.limit == 2 and view.later == 1
    assert_same(exact_turn_via_game(game, bot, shown), fast_ends(rules, strategy, view, 2))


def test_fast_turn_table_with_hidden_last_throw_matches_the_game() -> None:
    """The opener stood at once on a hidden throw: others see one throw and no laid-out dice."""
    rules = STANDARD
    game = Game(GameSetup(("P0", "P1"), rules))
    game.roll_off([(1, 1, 1), (2, 2, 2)])
    game.roll((1, 4, 3))
    before = game.turn
    shown: list[Shown] = []
    play_turn(game, _StandingBot(), shown, random.Random(0))
    assert before is not None and shown == [Shown("P0", 1, (), None, None)]
    view = view_of(game, shown)
    assert (view.seat, view.limit, view.later) == (1, 1, 0)
    bot = make_bot("odds")
    assert_same(exact_turn_via_game(game, bot, shown), fast_ends(rules, "odds", view, 1))


class _StandingBot:
    """Stands at once (sets up positions)."""

    name = "stand"

    def decide(self, game: Game, view: View, rng: random.Random) -> Move:
        return Move(MoveKind.STAND)


# -- settlement ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", [*preset_names(), "hand_only"])
def test_fast_settlement_agrees_with_engine_settle_on_random_rounds(preset: str) -> None:
    if preset == "hand_only":
        rules = replace(STANDARD, jule=True, achter=True, hand_only=HAND_ONLY_KINDS)
    else:
        rules = load_preset(preset)
    rng = random.Random(preset)
    ranking = rank_dice(rules)
    for _ in range(400):
        players = rng.randint(2, 6)
        seats = list(range(players))
        pot = rng.choice([rules.deckel, rng.randint(0, rules.deckel)])
        holdings = [0] * players
        for _ in range(rules.deckel - pot):
            holdings[rng.randrange(players)] += 1
        order = [s for s in seats if pot > 0 or holdings[s] > 0]
        if len(order) < 2:
            continue
        rng.shuffle(order)
        results, scores, deckel = [], [], []
        for seat in order:
            dice, hand = rng.choice(ranking)
            throws = rng.randint(1, 3)
            results.append(TurnResult(f"P{seat}", dice, hand, throws))
            evaluation = rank_table(rules).evaluate(dice, hand)
            by_throws = ties_by_throws(evaluation.kind, rules)
            scores.append(score_of(evaluation.strength, throws, by_throws))
            deckel.append(0 if evaluation.deckel is None else evaluation.deckel)
        expected = settle(rules, pot, {f"P{s}": holdings[s] for s in seats}, results)
        fast_holdings = list(holdings)
        loser, winner, moved, pot_after, out, over = settle_scores(
            order, scores, deckel, pot, fast_holdings, rules.deckel
        )
        assert (f"P{loser}", f"P{winner}", moved, pot_after, over) == (
            expected.loser, expected.winner, expected.moved, expected.pot_after, expected.half_over
        )
        assert tuple(f"P{s}" for s in out) == expected.out
        assert {f"P{s}": fast_holdings[s] for s in seats} == dict(expected.holdings_after)


def rank_dice(rules: Rules) -> list[tuple[tuple[int, ...], bool]]:
    return [(e.dice, e.hand) for e in rank_table(rules).ranking]


# -- whole games -----------------------------------------------------------------------------------


def test_simulator_is_reproducible_with_a_seed() -> None:
    strategy = make_strategy("threshold")
    first = Simulator(STANDARD, [strategy, strategy, strategy])
    second = Simulator(STANDARD, [make_strategy("threshold")] * 3)
    a = [first.play_game(random.Random(5)) for _ in range(3)]
    b = [second.play_game(random.Random(5)) for _ in range(3)]
    assert a == b
    records = [first.play_game(random.Random(seed)) for seed in range(200)]
    assert {r.loser for r in records} == {0, 1, 2}
    assert all(r.rounds >= 2 and r.throws >= r.rounds * 2 for r in records)


@pytest.mark.slow
def test_simulator_matches_bots_driving_the_real_game() -> None:
    """Rounds per game and loss shares of the fast path agree with play through the Game."""
    rules = STANDARD
    rng = random.Random(11)
    games = 1500
    slow_losses = [0, 0, 0]
    for _ in range(games):
        game = play_game(
            GameSetup(("A", "B", "C"), rules),
            {"A": make_bot("odds"), "B": make_bot("threshold"), "C": make_bot("threshold")}, rng,
        )
        slow_losses["ABC".index(game.loser)] += 1
    sim = Simulator(rules, [make_strategy(name) for name in ("odds", "threshold", "threshold")])
    fast_losses = [0, 0, 0]
    for _ in range(games * 4):
        fast_losses[sim.play_game(rng).loser] += 1
    for seat in range(3):
        slow, fast = slow_losses[seat] / games, fast_losses[seat] / (games * 4)
        assert abs(slow - fast) < 4 * (fast * (1 - fast) / games) ** 0.5 + 0.01


def test_the_strategy_names_are_those_of_the_strategies() -> None:
    from engine.bots import STRATEGIES
    from engine.strategy_names import STRATEGY_NAMES

    assert sorted(STRATEGIES) == list(STRATEGY_NAMES) == strategy_names()
