"""Real dice at the table: the engine takes each turn's reported result (``Report``), checks it
against the rules in words, lets a wrong entry be corrected until the round is settled, and
never mixes reported turns with the device's own dice."""

from __future__ import annotations

import pytest

from engine import (
    Correct,
    Game,
    GameSetup,
    IllegalActionError,
    Reason,
    Report,
    Roll,
    RoundOver,
    Rules,
    Stand,
    TurnOver,
    from_json,
    from_notation,
    load_preset,
    to_json,
    to_notation,
)

PLAYERS = ("Anna", "Ben", "Carla")


def real(rules: Rules | None = None, players: tuple[str, ...] = PLAYERS) -> Game:
    """A real-dice game in which Anna opens the first round."""
    rules = rules or Rules()
    game = Game(GameSetup(players, rules, real_dice=True))
    count = rules.dice_count
    game.roll_off([(1,) * count, *[(2,) * (count - 1) + (2 + i,) for i in range(len(players) - 1)]])
    assert game.current_player == "Anna"
    return game


def test_a_report_ends_the_turn_and_the_opener_sets_the_limit() -> None:
    game = real()
    events = game.report((4, 1, 1), 2)
    assert events[0] == Report("Anna", (4, 1, 1), 2, False)
    assert events[1] == TurnOver("Anna", (4, 1, 1), False, 2, "Schock 4", 3)
    assert game.limit == 2 and game.current_player == "Ben"
    assert game.reported_throws_allowed() == 2
    game.report((6, 6, 6), 1)
    events = game.report((3, 2, 2), 2)
    (over,) = [e for e in events if isinstance(e, RoundOver)]
    assert (over.winner, over.loser, over.deckel, over.source) == ("Anna", "Carla", 4, "pot")
    assert game.current_player == "Carla" and game.limit is None


@pytest.mark.parametrize(
    ("dice", "throws", "hand", "reason", "words"),
    [
        ((7, 1, 1), 1, True, Reason.INVALID, "7"),
        ((1, 1), 1, True, Reason.INVALID, "3 dice"),
        ((1, 1, 1), 0, True, Reason.INVALID, "1 or more throws"),
        ((1, 1, 1), 4, False, Reason.OVER_LIMIT, "at most 3"),
        ((6, 5, 4), 1, False, Reason.IMPOSSIBLE_REPORT, "single throw is always from the hand"),
    ],
)
def test_an_impossible_report_is_refused_in_words(
    dice: tuple[int, ...], throws: int, hand: bool, reason: Reason, words: str
) -> None:
    game = real()
    action = Report("Anna", dice, throws, hand)
    refusal = game.why_not(action)
    assert refusal is not None and refusal.reason is reason and words in refusal.message
    with pytest.raises(IllegalActionError, match=words) as raised:
        game.apply(action)
    assert raised.value.reason is reason
    assert game.current_player == "Anna" and game.actions[-1].kind == "roll_off"


def test_more_throws_than_the_opener_took_are_refused_naming_the_limit() -> None:
    game = real()
    game.report((5, 5, 2), 1)
    refusal = game.why_not(Report("Ben", (3, 1, 1), 2, False))
    assert refusal is not None and refusal.reason is Reason.OVER_LIMIT
    assert refusal.message == "2 throws: Anna opened with 1, the limit for everyone"


def test_boerdeschock_allows_the_throws_flips_earn() -> None:
    game = real(Rules(boerdeschock=True))
    game.report((5, 5, 2), 1)
    assert game.reported_throws_allowed() == 3
    assert game.why_not(Report("Ben", (3, 1, 1), 3, False)) is None
    refusal = game.why_not(Report("Ben", (3, 1, 1), 4, False))
    assert refusal is not None and "2 more with flips (Bördeschock)" in refusal.message


def test_only_ones_may_be_laid_out_so_a_built_result_holds_a_one() -> None:
    game = real(Rules(keep_only_ones=True))
    refusal = game.why_not(Report("Anna", (6, 5, 4), 3, False))
    assert refusal is not None and refusal.reason is Reason.IMPOSSIBLE_REPORT
    assert game.why_not(Report("Anna", (6, 5, 4), 3, True)) is None
    assert game.why_not(Report("Anna", (6, 5, 1), 3, False)) is None


def test_blind_is_reported_after_one_throw_under_rules_that_have_it() -> None:
    refusal = real().why_not(Report("Anna", (3, 3, 3), 1, True, blind=True))
    assert refusal is not None and refusal.reason is Reason.NO_BLIND
    game = real(Rules(blind=True))
    refusal = game.why_not(Report("Anna", (3, 3, 3), 2, True, blind=True))
    assert refusal is not None and refusal.reason is Reason.BLIND_TOO_LATE
    game.report((3, 3, 3), 1, blind=True)
    game.report((6, 5, 1), 1)
    events = game.report((4, 2, 1), 1)
    (over,) = [e for e in events if isinstance(e, RoundOver)]
    assert over.loser == "Carla" and over.deckel == 6  # General 3 doubled by Blind


def test_the_hand_flag_decides_where_the_rules_need_it() -> None:
    dsm = real(load_preset("dsm"))
    # DSM: "werten sie nur, wenn sie in einem Wurf fällt".
    assert dsm.hand_matters((4, 5, 6)) and not dsm.hand_matters((6, 5, 2))
    assert dsm.evaluate((6, 5, 4), True).name == "Straße 6-5-4"
    assert dsm.evaluate((6, 5, 4), False).name != "Straße 6-5-4"
    assert not real().hand_matters((4, 5, 6))
    natur = real(Rules(naturschock_above_built=True))
    assert natur.hand_matters((1, 1, 1)) and not natur.hand_matters((1, 1, 2))


def test_a_game_mixes_nothing() -> None:
    game = real()
    for action in (Roll("Anna", (), (1, 2, 3)), Stand("Anna")):
        refusal = game.why_not(action)
        assert refusal is not None and refusal.reason is Reason.REAL_DICE
    assert not game.can_roll() and not game.can_stand() and not game.can_flip()
    assert not game.can_blind() and list(game.legal_keeps()) == []
    assert game.keep_problem(()) is not None
    device = Game(GameSetup(PLAYERS))
    device.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)])
    for reported in (Report("Anna", (1, 1, 1), 1, True), Correct("Anna", (1, 1, 1), 1, True)):
        refusal = device.why_not(reported)
        assert refusal is not None and refusal.reason is Reason.DEVICE_DICE


def test_a_wrong_entry_is_corrected_until_the_round_is_settled() -> None:
    game = real()
    game.report((6, 5, 2), 3)
    game.report((4, 4, 1), 2)
    events = game.correct("Anna", (2, 1, 1), 2)
    assert events[1] == TurnOver("Anna", (2, 1, 1), False, 2, "Schock 2", 3)
    assert game.limit == 2 and game.current_player == "Carla"
    assert [r.dice for r in game.results] == [(2, 1, 1), (4, 4, 1)]
    # A second correction of the same report replaces the first.
    game.correct("Anna", (3, 1, 1), 2)
    assert [r.dice for r in game.results] == [(3, 1, 1), (4, 4, 1)]
    assert game.actions[-1] == Correct("Anna", (3, 1, 1), 2, False)
    assert Game.replay(game.setup, game.actions).state() == game.state()
    events = game.report((5, 3, 2), 2)
    assert [e.loser for e in events if isinstance(e, RoundOver)] == ["Ben"]
    refusal = game.why_not(Correct("Anna", (1, 1, 1), 1, True))
    assert refusal is not None and refusal.reason is Reason.NOTHING_TO_CORRECT
    assert "a settled round stays as it is" in refusal.message


def test_a_correction_that_rules_out_a_later_entry_is_refused() -> None:
    game = real()
    game.report((6, 5, 2), 3)
    game.report((4, 4, 1), 3)
    refusal = game.why_not(Correct("Anna", (6, 5, 2), 1, True))
    assert refusal is not None and refusal.reason is Reason.CORRECTION_CONFLICT
    assert "Anna opened with 1" in refusal.message
    refusal = game.why_not(Correct("Carla", (6, 5, 2), 1, True))
    assert refusal is not None and refusal.reason is Reason.NOTHING_TO_CORRECT
    refusal = game.why_not(Correct("Ben", (6, 5, 9), 1, True))
    assert refusal is not None and refusal.reason is Reason.INVALID


def test_reports_and_corrections_survive_json_and_replay() -> None:
    game = real(Rules(blind=True))
    game.report((3, 3, 3), 1, blind=True)
    game.report((6, 5, 4), 1)
    game.correct("Ben", (6, 5, 3), 1)
    for action in game.actions:
        assert from_json(to_json(action)) == action
    assert to_json(game.actions[1]) == {
        "event": "report", "player": "Anna", "dice": (3, 3, 3), "throws": 1, "hand": True,
        "blind": True,
    }
    rebuilt = Game.replay(game.setup, [from_json(to_json(a)) for a in game.actions])
    assert rebuilt.state() == game.state()


def test_the_position_of_a_reported_round_in_the_notation() -> None:
    game = real()
    game.report((4, 1, 1), 2)
    game.report((6, 6, 6), 1)
    line = to_notation(game)
    assert line == "1 13 Anna=0,Ben=0,Carla=0 2 Anna:411b2,Ben:666h1 Carla:---/0"
    again = from_notation(line, game.setup)
    assert again.real_dice and again.state() == game.state()
    again.report((2, 2, 1), 2)
    assert again.is_over is False and again.current_player == "Carla"


def test_a_dropped_cup_and_a_penalty_as_on_the_device() -> None:
    game = real()
    game.report((6, 6, 1), 2)
    events = game.penalty("Ben")
    assert events[-1].kind == "penalty_given" and game.holdings["Ben"] == 2
    assert game.current_player == "Ben"
    game.report((5, 4, 1), 2)
    events = game.report((3, 2, 1), 1)
    assert [e.loser for e in events if isinstance(e, RoundOver)] == ["Ben"]


def test_two_dice_are_reported_as_two() -> None:
    game = real(Rules(two_dice=True))
    refusal = game.why_not(Report("Anna", (1, 1, 1), 1, True))
    assert refusal is not None and refusal.reason is Reason.INVALID
    game.report((1, 1), 1)
    assert game.results[0].dice == (1, 1)
