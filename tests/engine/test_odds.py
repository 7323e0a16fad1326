"""Exact odds: checked against brute force over the real Game, hand-derived figures and sampling."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from engine import Game, GameSetup, Rules, TwoTwoOne, load_preset, odds, preset_names, rank_table
from engine.chance import sorted_throw_outcomes
from engine.events import TurnOver
from engine.odds import (
    ActionKind,
    Choice,
    Position,
    Target,
    action_chances,
    action_odds,
    best_choice,
    best_within,
    chance_to_beat,
    pick_within,
    reach_table,
    single_throw,
    sorted_dice,
    turn_distribution,
)
from engine.settle import TurnResult, settle
from engine.throws import Kind

STANDARD = load_preset("standard")
BOERDE = load_preset("boerde")


def strength(dice: tuple[int, ...], rules: Rules = STANDARD, hand: bool = True) -> int:
    return rank_table(rules).evaluate(dice, hand).strength


# -- one throw -----------------------------------------------------------------------------------


def test_single_throw_matches_a_brute_force_count_of_216_outcomes() -> None:
    counts = {"Schock aus": 0, "Schock": 0, "General": 0, "Straße": 0, "Hausnummer": 0}
    for dice in itertools.product(range(1, 7), repeat=3):
        high, mid, low = sorted(dice, reverse=True)
        if dice == (1, 1, 1):
            counts["Schock aus"] += 1
        elif mid == low == 1:
            counts["Schock"] += 1
        elif high == mid == low:
            counts["General"] += 1
        elif high - mid == mid - low == 1:
            counts["Straße"] += 1
        else:
            counts["Hausnummer"] += 1
    shares = single_throw(STANDARD)
    assert {s.name: s.outcomes for s in shares} == counts
    assert [s.name for s in shares] == ["Schock aus", "Schock", "General", "Straße", "Hausnummer"]
    assert {s.total for s in shares} == {216}
    # "Schocken: Regeln, Wertigkeiten der Würfe und Deckel" (its own count): a Schock from the
    # hand three times as often as a General; Schock aus 1 in 216.
    assert counts["Schock"] == 3 * counts["General"] and counts["Schock aus"] == 1


def test_two_dice_variant_counts_36_outcomes() -> None:
    shares = single_throw(replace(STANDARD, two_dice=True))
    assert sum(s.outcomes for s in shares) == 36 and {s.total for s in shares} == {36}


def test_reach_table_first_column_is_the_single_throw() -> None:
    rows = {row.level.name: row.chances for row in reach_table(STANDARD, exact=True)}
    assert rows["Schock aus"][0] == Fraction(1, 216)
    assert rows["Schock 6"][0] == Fraction(4, 216)  # 1-1-1 and the three orders of 1-1-6
    assert rows["General"][0] == Fraction(21, 216)  # every Schock ranks above the General
    assert rows["Hausnummer"] == (1, 1, 1)
    for chances in rows.values():
        assert chances[0] <= chances[1] <= chances[2]


# -- brute force over every strategy, through the real Game ---------------------------------------


def game_at(rules: Rules, laid: tuple[int, ...], thrown: tuple[int, ...], throws: int) -> Game:
    """A two-player game whose opener P0 stands at (laid, thrown) after ``throws`` throws."""
    game = Game(GameSetup(("P0", "P1"), rules))
    count = rules.dice_count
    game.roll_off([(1,) * count, (2,) * count] if count == 3 else [(1, 1), (2, 3)])
    assert game.current_player == "P0"
    if throws == 1:
        assert not laid
        game.roll(thrown)
        return game
    first = (*laid, *(5,) * (count - len(laid)))  # 5s: no flip, no Schock
    game.roll(first)
    for _ in range(throws - 2):
        game.roll((5,) * (count - len(laid)), keep=range(len(laid)))
    game.roll(thrown, keep=range(len(laid)))
    return game


def brute_force(game: Game, targets: Sequence[Target]) -> tuple[float, ...]:
    """The best chance over every strategy for each of ``targets``, trying every legal action
    of the Game (one walk through the Game serves them all: each takes its own best action)."""
    values = brute_force_actions(game, targets).values()
    return tuple(max(column) for column in zip(*values, strict=True))


def _after(game: Game, events: list, targets: Sequence[Target]) -> tuple[float, ...]:
    over = next((e for e in events if isinstance(e, TurnOver)), None)
    if over is None:
        return brute_force(game, targets)
    evaluation = game.evaluate(over.dice, over.hand)
    return tuple(1.0 if target.wins(evaluation, over.throws) else 0.0 for target in targets)


def brute_force_actions(
    game: Game, targets: Sequence[Target]
) -> dict[tuple[str, tuple[int, ...]], tuple[float, ...]]:
    """Each legal action's best chance for each of ``targets``: ("stand", ()), ("flip", ()),
    ("throw", kept values)."""
    turn = game.turn
    assert turn is not None
    values: dict[tuple[str, tuple[int, ...]], tuple[float, ...]] = {}
    if game.can_stand():
        copy = game.copy()
        values[("stand", ())] = _after(copy, copy.stand(), targets)
    # Bördeschock with take_back could flip forever; the odds follow MAX_THROWS throws.
    if game.can_flip() and turn.limit + game.rules.boerdeschock <= odds.MAX_THROWS:
        copy = game.copy()
        values[("flip", ())] = _after(copy, copy.flip(), targets)
    if game.can_roll():
        for keep in game.legal_keeps():
            kept = sorted_dice(turn.values[i] for i in keep)  # type: ignore[misc]
            total = [0.0] * len(targets)
            for dice, p in sorted_throw_outcomes(game.dice_to_throw(keep)):
                copy = game.copy()
                after = _after(copy, copy.roll(dice[::-1], keep), targets)
                total = [sum_ + float(p) * value for sum_, value in zip(total, after, strict=True)]
            best = values.get(("throw", kept), (0.0,) * len(targets))
            values[("throw", kept)] = tuple(map(max, best, total))
    return values


def assert_agrees(
    expected: dict[tuple[str, tuple[int, ...]], tuple[float, ...]],
    position: Position,
    targets: Sequence[Target],
    rules: Rules,
) -> None:
    """The solver's chance of every action equals the brute force's, for each target."""
    for index, target in enumerate(targets):
        got = dp_actions(position, target, rules)
        assert got.keys() == expected.keys()
        for key, values in expected.items():
            assert got[key] == pytest.approx(values[index], abs=1e-12), (key, target)


def dp_actions(position: Position, target: Target, rules: Rules) -> dict:
    result = {}
    for action in action_odds(position, target, rules):
        key = (action.kind.value, action.keep if action.kind is ActionKind.THROW else ())
        result[key] = action.p
    return result


ONE_THROW_LEFT = [
    ((), (6, 3, 1), 1),
    ((), (6, 6, 2), 1),
    ((), (6, 6, 6), 1),
    ((), (1, 1, 4), 1),
    ((), (5, 4, 2), 1),
    ((1,), (6, 6), 2),
    ((6,), (6, 1), 2),
    ((1, 1), (3,), 2),
    ((6, 6), (6,), 2),
]


@pytest.mark.parametrize("preset", ["standard", "boerde", "bvb", "dsm", "westfalen"])
@pytest.mark.parametrize(("laid", "thrown", "throws"), ONE_THROW_LEFT)
def test_dp_agrees_with_brute_force_with_one_throw_left(preset, laid, thrown, throws) -> None:
    rules = load_preset(preset)
    limit = throws + 1
    rules = replace(rules, max_throws=max(rules.max_throws, limit))
    targets = [
        Target.at_least(strength((2, 1, 1), rules)),
        Target.at_least(strength((1, 1, 1), rules, hand=False)),
        Target.of((6, 5, 4), rules, throws=limit),
        Target.of((6, 6, 5), rules, throws=throws),
        Target.of((5, 1, 1), rules, hand=False, throws=limit, ties_win=True),
    ]
    game = game_at(replace(rules, max_throws=limit), laid, thrown, throws)
    expected = brute_force_actions(game, targets)
    assert_agrees(expected, Position(laid, thrown, throws, limit), targets, rules)


@pytest.mark.parametrize(
    "overrides",
    [
        {"take_back": True},
        {"keep_only_ones": True},
        {"keep_only_ones": True, "boerdeschock": True},
        {"boerdeschock": True, "take_back": True},
        {"two_dice": True},
        {"hand_only": ("general", "strasse"), "naturschock_above_built": True},
        {"hand_only": ("jule", "achter", "siebener"), "jule": True, "achter": True,
         "two_two_one": TwoTwoOne.SIEBENER},
        {"hand_only": ("neuner",), "two_two_one": TwoTwoOne.NEUNER},
        {"flip_sixes": False},
    ],
)
def test_dp_agrees_with_brute_force_under_house_rules(overrides, monkeypatch) -> None:
    rules = replace(STANDARD, max_throws=2, **overrides)
    if rules.boerdeschock and rules.take_back:
        # Flips could go on forever; a low bound keeps the brute force small (both obey it).
        monkeypatch.setattr(odds, "MAX_THROWS", 3)
        odds._solver.cache_clear()
        odds._target_goal.cache_clear()
    count = rules.dice_count
    positions = [((), (6, 6, 1)[:count], 1), ((), (6, 1, 4)[:count], 1), ((), (2, 2, 2)[:count], 1)]
    targets = [
        Target.at_least(strength((6, 1, 1)[:count], rules)),
        Target.of((2, 2, 2)[:count], rules, throws=1),
        Target.at_least(strength((3, 2, 1)[:count], rules, hand=False)),
        # A hand-only special throw: only a throw of all dice at once reaches it.
        Target.at_least(strength((4, 2, 1)[:count], rules)),
        Target.at_least(strength((3, 3, 1)[:count], rules)),
    ]
    for laid, thrown, throws in positions:
        expected = brute_force_actions(game_at(rules, laid, thrown, throws), targets)
        assert_agrees(expected, Position(laid, thrown, throws, 2), targets, rules)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "boerde"])
def test_dp_agrees_with_brute_force_with_two_throws_left(preset) -> None:
    rules = load_preset(preset)
    for thrown in [(6, 3, 1), (6, 6, 4)]:
        target = Target.at_least(strength((6, 1, 1), rules))
        expected = brute_force_actions(game_at(rules, (), thrown, 1), [target])
        got = dp_actions(Position((), thrown, 1, 3), target, rules)
        for key, (value,) in expected.items():
            assert got[key] == pytest.approx(value, abs=1e-12)


def test_target_wins_agrees_with_engine_settle_for_every_pair() -> None:
    for preset in preset_names():
        rules = load_preset(preset)
        table = rank_table(rules)
        sample = [*table.ranking[::7], table.evaluate((6, 5, 4)), table.evaluate((3, 2, 1))]
        for theirs, ours in itertools.product(sample, repeat=2):
            for their_throws, our_throws in itertools.product((1, 2, 3), repeat=2):
                results = [
                    TurnResult("them", theirs.dice, theirs.hand, their_throws),
                    TurnResult("us", ours.dice, ours.hand, our_throws),
                ]
                settled = settle(rules, rules.deckel, {"them": 0, "us": 0}, results)
                target = Target.beat(theirs, rules, throws=their_throws)
                assert target.wins(ours, our_throws) == (settled.loser == "them")


# -- hand-derived figures -------------------------------------------------------------------------


def test_giessen_6_exact_figures() -> None:
    """After 6-1-x with two throws left: keep 6 and 1 (one die) or only the 1 (two dice)."""
    start = Position((), (6, 3, 1), 1, 3)

    def chances(level: tuple[int, ...], rules: Rules) -> dict[tuple[int, ...], Fraction]:
        target = Target.at_least(strength(level, rules, hand=False))
        return {a.keep: a.p for a in action_odds(start, target, rules, exact=True)
                if a.kind is ActionKind.THROW}

    schock6 = chances((6, 1, 1), STANDARD)
    assert schock6[(6, 1)] == 1 - Fraction(5, 6) ** 2  # only a 1 helps, two tries
    # Only the 1: 1-1 or 6-1 at once; 6-6 flips to 1-1 and the other six must be thrown again
    # (1 or 6 needed); after 1-x (x 2..5) keep 1-1 and hope for 1 or 6; after 6-x keep 6-1 and
    # hope for a 1; else 1-1, 1-6, 6-6 in the last throw.
    assert schock6[(1,)] == (
        Fraction(3, 36) + Fraction(1, 36) * Fraction(1, 3)
        + Fraction(8, 36) * Fraction(1, 3) + Fraction(8, 36) * Fraction(1, 6)
        + Fraction(16, 36) * Fraction(3, 36)
    )
    any_schock = chances((2, 1, 1), STANDARD)
    assert any_schock[(6, 1)] == 1 - Fraction(5, 6) ** 2
    assert any_schock[(1,)] > any_schock[(6, 1)]
    aus = chances((1, 1, 1), STANDARD)
    assert aus[(6, 1)] == 0
    # Bördeschock: the laid-out 6 can be flipped when a second 6 comes.
    assert chances((6, 1, 1), BOERDE)[(6, 1)] > schock6[(6, 1)]
    assert chances((1, 1, 1), BOERDE)[(6, 1)] > 0


def test_a_choice_within_a_margin_of_one_goal_is_the_best_for_another() -> None:
    """The Gießen 6 for two goals: any Schock (only the 1: 29/54, 6 and 1: 11/36) and a Schock 6
    or better (6 and 1 better). The second goal decides only within the margin of the first."""
    start = Position((), (6, 3, 1), 1, 3)
    any_schock = Target.at_least(strength((2, 1, 1), hand=False))
    schock6 = Target.at_least(strength((6, 1, 1), hand=False))
    chances = action_chances(start, (any_schock, schock6), STANDARD)
    # Each goal's chance after each action is action_odds' for that goal alone.
    for index, target in enumerate((any_schock, schock6)):
        alone = {
            Choice(a.kind, a.keep if a.kind is ActionKind.THROW else ()): a.p
            for a in action_odds(start, target, STANDARD)
        }
        assert {choice: values[index] for choice, values in chances} == alone
    only_the_1, six_and_1 = Choice(ActionKind.THROW, (1,)), Choice(ActionKind.THROW, (6, 1))
    assert dict(chances)[only_the_1][0] == pytest.approx(29 / 54)
    assert dict(chances)[six_and_1][0] == pytest.approx(11 / 36)
    gap = 29 / 54 - 11 / 36  # 23.1 points of any Schock given up for the Schock 6
    assert pick_within(chances, 0.0) == only_the_1
    assert best_within(start, any_schock, schock6, gap - 0.001, STANDARD) == only_the_1
    assert best_within(start, any_schock, schock6, gap + 0.001, STANDARD) == six_and_1
    # Right after a flip there is no standing; before the first throw only the throw.
    flipped = action_chances(Position((1,), (6, 3), 1, 3, flipped=True), (schock6,), STANDARD)
    assert all(choice.kind is ActionKind.THROW for choice, _ in flipped)
    assert [c for c, _ in action_chances(Position.start(3), (schock6,), STANDARD)] == [
        Choice(ActionKind.THROW)
    ]


def test_flip_three_sixes_standard() -> None:
    """6-6-6 with one throw left: flipping lays out 1-1 and one die hopes for a 1."""
    actions = action_odds(Position((), (6, 6, 6), 1, 2), Target.at_least(strength((1, 1, 1))),
                          STANDARD, exact=True)
    assert actions[0].kind is ActionKind.FLIP
    assert actions[0].laid_out == (1, 1) and actions[0].free == (6,)
    assert actions[0].p == Fraction(1, 6)
    assert "flip" in actions[0].describe() and "throw 1 die" in actions[0].describe()


def test_boerdeschock_flip_earns_a_throw_and_uses_laid_out_sixes() -> None:
    position = Position((6,), (6, 4), 2, 3)
    target = Target.at_least(strength((1, 1, 1), BOERDE, hand=False))
    flips = [a for a in action_odds(position, target, BOERDE) if a.kind is ActionKind.FLIP]
    assert len(flips) == 1 and flips[0].laid_out == (1,) and flips[0].free == (6, 4)
    after = chance_to_beat(Position((1,), (6, 4), 2, 4, flipped=True), target, BOERDE)
    assert flips[0].p == pytest.approx(after)
    # Without the Bördeschock the laid-out six cannot be flipped.
    assert all(a.kind is not ActionKind.FLIP for a in action_odds(position, target, STANDARD))


def test_before_the_first_throw_the_only_action_is_to_throw() -> None:
    target = Target.at_least(strength((2, 1, 1)))
    actions = action_odds(Position.start(3), target, STANDARD)
    assert [a.describe() for a in actions] == ["throw all 3 dice"]
    rows = {r.level.name: r.chances for r in reach_table(STANDARD)}
    assert actions[0].p == pytest.approx(rows["Schock 2"][2])


def test_bad_positions_raise_one_line_errors() -> None:
    target = Target.at_least(10)
    for position in [
        Position((), (6, 3), 1, 3),
        Position((), (6, 3, 9), 1, 3),
        Position((), (6, 3, 1), 4, 3),
        Position((1, 1, 1), (), 2, 3),
        Position((), (6, 3, 1), 0, 3),
    ]:
        with pytest.raises(ValueError) as error:
            action_odds(position, target, STANDARD)
        assert "\n" not in str(error.value)


# -- sampling through the real Game ---------------------------------------------------------------


@pytest.mark.parametrize("turns", [1000, pytest.param(3000, marks=pytest.mark.slow)])
def test_dp_start_value_matches_seeded_play_through_the_game(turns: int) -> None:
    """The solver's chance, against as many turns played through the Game by its choices
    (`make test` a third of the slow selection's, within the same four standard errors)."""
    rules = BOERDE
    target = Target.at_least(strength((4, 1, 1), rules, hand=False))
    expected = chance_to_beat(Position.start(3), target, rules)
    rng = random.Random(2024)
    wins = 0
    for _ in range(turns):
        game = game_at(rules, (), tuple(rng.randint(1, 6) for _ in range(3)), 1)
        while True:
            turn = game.turn
            assert turn is not None and turn.player == "P0"
            choice = best_choice(Position.from_turn(turn), target, rules)
            if choice.kind is ActionKind.STAND:
                events = game.stand()
            elif choice.kind is ActionKind.FLIP:
                events = game.flip()
            else:
                keep = []
                wanted = list(choice.keep)
                for i, (v, out) in enumerate(zip(turn.values, turn.laid_out, strict=True)):
                    if out:
                        keep.append(i)
                        wanted.remove(v)  # type: ignore[arg-type]
                for i, (v, out) in enumerate(zip(turn.values, turn.laid_out, strict=True)):
                    if not out and v in wanted:
                        keep.append(i)
                        wanted.remove(v)
                count = 3 - len(keep)
                events = game.roll(tuple(rng.randint(1, 6) for _ in range(count)), sorted(keep))
            over = next((e for e in events if isinstance(e, TurnOver)), None)
            if over is not None:
                wins += target.wins(game.evaluate(over.dice, over.hand), over.throws)
                break
    # The first throw is sampled too, so the whole turn's value applies; 4 standard errors.
    sigma = (expected * (1 - expected) / turns) ** 0.5
    assert abs(wins / turns - expected) < 4 * sigma


def test_turn_distribution_of_the_optimal_policy_sums_to_its_value() -> None:
    target = Target.at_least(strength((3, 1, 1)))
    ends = turn_distribution(STANDARD, 3, lambda pos: best_choice(pos, target, STANDARD))
    assert sum(ends.values()) == pytest.approx(1.0)
    table = rank_table(STANDARD)
    won = sum(p for (laid, free, throws), p in ends.items()
              if target.wins(table.evaluate((*laid, *free), not laid), throws))
    assert won == pytest.approx(chance_to_beat(Position.start(3), target, STANDARD))
    kinds = {table.evaluate((*laid, *free), not laid).kind for laid, free, _ in ends}
    assert kinds <= set(Kind) and Kind.SCHOCK in kinds


# -- payoffs per position, and one goal played for another -----------------------------------------


@pytest.mark.parametrize("preset", ["standard", "boerde"])
def test_a_goal_by_position_equals_the_same_goal_by_result(preset: str) -> None:
    """A payoff given per position stood on, that only reads the result, plays as the goal by
    (dice, hand) does: every action of every position after one throw has the same chance."""
    rules = load_preset(preset)
    target = odds.Target.of((4, 1, 1), rules, throws=2)
    table = rank_table(rules)

    def by_state(laid: tuple[int, ...], free: tuple[int, ...], throws: int) -> float:
        evaluation = table.evaluate(odds.sorted_dice((*laid, *free)), not laid)
        return 1.0 if target.wins(evaluation, throws) else 0.0

    goal = odds.goal_by_state(rules, by_state, odds.most_throws(rules, 3))
    for dice in itertools.combinations_with_replacement(range(6, 0, -1), 3):
        position = odds.Position((), dice, 1, 3)
        assert [a.p for a in odds.action_odds(position, goal, rules)] == pytest.approx(
            [a.p for a in odds.action_odds(position, target, rules)], abs=1e-12
        ), dice


def test_a_goal_played_for_itself_has_the_chance_action_odds_gives() -> None:
    """chance_playing(decide=value) is each action's own chance; played for another goal it is
    that goal's chance under the first one's choices, never more than that goal's best."""
    schock = odds.Target.at_least(rank_table(STANDARD).evaluate((2, 1, 1), True).strength)
    schock_6 = odds.Target.at_least(rank_table(STANDARD).evaluate((6, 1, 1), True).strength)
    position = odds.Position((), (6, 3, 1), 1, 3)
    for action in odds.action_odds(position, schock, STANDARD):
        keep = action.keep if action.kind is odds.ActionKind.THROW else ()
        choice = odds.Choice(action.kind, keep)
        assert odds.chance_playing(position, choice, schock, schock, STANDARD) == pytest.approx(
            float(action.p), abs=1e-12
        )
        other = odds.chance_playing(position, choice, schock, schock_6, STANDARD)
        assert other <= odds.chance_to_beat(position, schock_6, STANDARD) + 1e-12
    # Keeping only the 1 for any Schock (29/54) then reaches a Schock 6 or better less often
    # than playing for it from the start (Gießen 6: keep 6 and 1, 11/36).
    only_one = odds.Choice(odds.ActionKind.THROW, (1,))
    assert odds.chance_playing(position, only_one, schock, schock_6, STANDARD) < 11 / 36
