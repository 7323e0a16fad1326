"""What the engine refuses, and that each refusal names the problem in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import (
    Game,
    GameSetup,
    IllegalActionError,
    Roll,
    RulesError,
    Stand,
    TurnOver,
    evaluate,
    from_notation,
    load_preset,
    rules_from_toml,
)
from engine.rules import PRESET_NAMES

STANDARD = load_preset("standard")
SETUP = GameSetup(("Anna", "Ben"), STANDARD)


def one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(error.value)
    assert message and "\n" not in message
    assert isinstance(error.value, ValueError)
    return message


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 1, 7), "1-6, got 7"),
        ((0, 2, 3), "1-6, got 0"),
        ((1, 2), "need 3 dice, got 2"),
        ((1, 2, 3, 4), "need 3 dice, got 4"),
        # True and 1.0 equal 1 and hash like it: the rank table once took them for a die.
        ((True, 2, 3), "1-6, got True"),
        ((1.0, 2, 3), "1-6, got 1.0"),
    ],
)
def test_impossible_dice(dice: tuple[int, ...], expected: str) -> None:
    with pytest.raises(IllegalActionError) as error:
        evaluate(dice, True, STANDARD)
    assert expected in one_line(error)
    game = from_notation("1 13 Anna=0,Ben=0 - - Anna:---/0", SETUP)
    with pytest.raises(IllegalActionError) as error:
        game.roll(dice)
    assert expected in one_line(error)
    assert game.turn is not None and game.turn.throws == 0, "a refused throw changes nothing"


def test_actions_that_are_not_allowed_now() -> None:
    game = Game(SETUP)
    with pytest.raises(IllegalActionError) as error:
        game.roll((1, 2, 3))
    assert "roll-off" in one_line(error)
    game.roll_off([(1, 1, 1), (2, 2, 2)])
    with pytest.raises(IllegalActionError) as error:
        game.roll_off([(1, 1, 1), (2, 2, 2)])
    assert "roll-off is over" in one_line(error)
    with pytest.raises(IllegalActionError) as error:
        game.apply(Roll("Ben", (), (1, 2, 3)))
    assert "it is Anna's turn, not 'Ben'" in one_line(error)
    with pytest.raises(IllegalActionError) as error:
        game.flip()
    assert "throw first" in one_line(error)
    with pytest.raises(IllegalActionError) as error:
        game.apply(TurnOver("Anna", (1, 1, 1), True, 1, "Schock aus", 3))
    assert "outcome, not an action" in one_line(error)
    game.roll((2, 3, 5))
    with pytest.raises(IllegalActionError) as error:
        game.flip()
    assert "two sixes" in one_line(error)
    with pytest.raises(IllegalActionError) as error:
        game.roll((1,), keep=(0, 1, 5))
    assert "positions are 0 to 2" in one_line(error)


def test_nothing_after_the_game_is_over() -> None:
    game = from_notation("over Anna Anna,Anna", SETUP)
    with pytest.raises(IllegalActionError) as error:
        game.apply(Stand("Anna"))
    assert "the game is over (loser: Anna)" in one_line(error)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError) as error:
        load_preset("kneipe")
    assert "unknown rules preset 'kneipe'; presets: boerde, bvb, dsm" in one_line(error)


def test_the_preset_names_are_the_files_in_the_presets_folder() -> None:
    folder = Path(__file__).parents[2] / "engine" / "presets"
    assert list(PRESET_NAMES) == sorted(path.stem for path in folder.glob("*.toml"))
    assert all(load_preset(name).name == name for name in PRESET_NAMES)


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("jul = true", "unknown rules key 'jul'; allowed keys: preset, name"),
        ("jule = 1", "jule = 1: must be true or false"),
        ("deckel = true", "deckel = True: must be a whole number"),
        ('deckel = "13"', "deckel = '13': must be a whole number"),
        ('ties = "later"', "ties = 'later': allowed are 'fewer_throws', 'nachgelegt'"),
        ("deckel = 1", "deckel = 1: allowed are 2 to 99 Deckel"),
        ('preset = "kneipe"', "unknown rules preset 'kneipe'"),
        ("jule = ", "not valid TOML"),
    ],
)
def test_bad_rules_toml(toml: str, expected: str) -> None:
    with pytest.raises(RulesError) as error:
        rules_from_toml(toml, origin="pub.toml")
    message = one_line(error)
    assert message.startswith("pub.toml: ")
    assert expected in message
