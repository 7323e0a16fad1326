"""Why the engine refuses an action (its Reason), and what each player sees (the table view)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    Blind,
    Flip,
    Game,
    GameSetup,
    IllegalActionError,
    Reason,
    Roll,
    Stand,
    from_notation,
    load_preset,
    to_notation,
)
from engine.bots import OddsStrategy, Shown, view_of
from firmware.advice import hint_question

STANDARD = load_preset("standard")
OPEN = replace(STANDARD, hidden_last_throw=False, blind=True)
NAMES = ("Anna", "Ben", "Carla")


def opened(rules: object = OPEN) -> Game:
    """A game whose roll-off Anna won: her turn, nothing thrown."""
    game = Game(GameSetup(NAMES, rules))  # type: ignore[arg-type]
    game.roll_off([(1, 1, 3), (6, 6, 5), (3, 2, 2)])
    return game


@pytest.mark.parametrize(
    ("notation", "action", "reason"),
    [
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:---/0", Stand("Anna"), Reason.NOT_THROWN),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:---/0", Flip("Anna"), Reason.NOT_THROWN),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:---/0", Stand("Ben"), Reason.NOT_YOUR_TURN),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:-11/0", Roll("Anna", (1,), (2, 3)),
         Reason.NOT_THROWN),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/1h", Flip("Anna"), Reason.NO_TWO_SIXES),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:661/1h", Stand("Anna"), None),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:1*61/2f", Stand("Anna"), Reason.MUST_THROW),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:1*61/2f", Flip("Anna"), Reason.ALREADY_FLIPPED),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:1*61/2f", Roll("Anna", (0, 1), (4,)),
         Reason.SIX_GOES_BACK),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/1h", Roll("Anna", (0, 1, 2), ()),
         Reason.KEEPS_EVERY_DIE),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/3h", Roll("Anna", (), (1, 1, 1)),
         Reason.NO_THROWS_LEFT),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:661/3h", Flip("Anna"), Reason.NO_THROWS_LEFT),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/1h", Blind("Anna"), None),
        ("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/2h", Blind("Anna"), Reason.BLIND_TOO_LATE),
    ],
)
def test_why_not_gives_the_reason_apply_raises(
    notation: str, action: Roll, reason: Reason | None
) -> None:
    game = from_notation(notation, GameSetup(NAMES, OPEN))
    refusal = game.why_not(action)
    assert (refusal.reason if refusal else None) is reason
    before = to_notation(game)
    if refusal is None:
        game.apply(action)
        return
    with pytest.raises(IllegalActionError) as error:
        game.apply(action)
    assert error.value.reason is reason and str(error.value) == refusal.message
    assert to_notation(game) == before, "asking why not changes nothing"


def test_keep_problem_names_each_refusal_of_marking_dice() -> None:
    setup = GameSetup(NAMES, replace(OPEN, keep_only_ones=True))
    game = from_notation("1 13 Anna=0,Ben=0,Carla=0 - - Anna:1*53/2", setup)
    assert game.keep_problem((0,)) is None
    refusal = game.keep_problem((0, 1))
    assert refusal is not None and refusal.reason is Reason.ONLY_ONES
    refusal = game.keep_problem(())
    assert refusal is not None and refusal.reason is Reason.STAYS_OUT
    assert set(game.legal_keeps()) == {(0,)}
    assert Reason.ONLY_ONES.value == "only_ones"
    no_rules = from_notation("1 13 Anna=0,Ben=0,Carla=0 - - Anna:531/1h",
                             GameSetup(NAMES, replace(OPEN, flip_sixes=False)))
    assert no_rules.flip_problem() is not None
    assert no_rules.flip_problem().reason is Reason.NO_FLIPPING  # type: ignore[union-attr]


def test_the_thrower_sees_the_cup_and_the_table_only_under_open_rules() -> None:
    for rules, table_sees in ((OPEN, True), (STANDARD, False)):
        game = opened(rules)
        game.roll((1, 4, 3))
        own = game.table_view("Anna").current
        table = game.table_view().current
        assert own is not None and own.values == (1, 4, 3) and not own.covered
        assert table is not None and (table.values == (1, 4, 3)) is table_sees
        game.roll((6, 5), keep=(0,))  # the one is laid out: everyone sees it
        table = game.table_view("Ben").current
        assert table is not None and table.values[0] == 1 and table.laid_out == (True, False, False)
        assert table.laid_out_values == (1,)


def test_a_finished_turn_stays_under_the_cup_when_hidden_or_blind() -> None:
    cases = [(OPEN, "stand", False), (STANDARD, "stand", True), (OPEN, "blind", True)]
    for rules, ending, covered in cases:
        game = opened(rules)
        game.roll((6, 4, 3))
        game.stand() if ending == "stand" else game.blind()
        seen = game.table_view("Ben").finished
        assert [turn.player for turn in seen] == ["Anna"]
        assert seen[0].covered is covered, (rules.name, ending)
        assert (seen[0].dice is None) is covered and (seen[0].hand is None) is covered
        assert seen[0].blind is (ending == "blind")
        assert game.table_view("Anna").finished[0].dice == (6, 4, 3), "the thrower saw them"
        assert game.last_turn() == seen[0] and game.table_view().seat == 1


def test_bots_and_the_hint_read_the_same_table_view() -> None:
    game = opened(OPEN)
    game.roll((6, 6, 6))
    game.blind()  # General, announced blind: the table has not seen it
    assert view_of(game).shown == (Shown("Anna", 1, (), None, None),)
    # The hint asks the odds bot's question of the same view: Anna's dice unseen.
    assert hint_question(game).situation == OddsStrategy().situation(view_of(game), game.rules)
    assert hint_question(game).situation == (1, 1, ((1, (), None, None),))
    game.roll((2, 2, 3))  # Anna's one throw is the limit: Ben's first throw ends his turn
    assert view_of(game).shown[1] == Shown("Ben", 1, (), (3, 2, 2), True)
    assert hint_question(game).situation == (0, 1, ((1, (), None, None), (1, (), (3, 2, 2), True)))


def test_the_last_turn_is_kept_past_the_end_of_its_round() -> None:
    game = opened(OPEN)
    game.roll((6, 4, 3))
    game.stand()  # one throw is the limit: the others' first throws end their turns
    game.roll((5, 4, 3))
    game.roll((2, 2, 3))
    assert game.table_view().finished == ()  # a new round began
    last = game.last_turn()
    assert last is not None and last.player == "Carla" and last.dice == (3, 2, 2)


def test_from_state_rebuilds_a_position() -> None:
    game = opened(OPEN)
    game.roll((1, 4, 3))
    game.roll((1, 5), keep=(0,))
    game.stand()
    copy = Game.from_state(game.setup, game.state())
    assert copy.state() == game.state()
    assert to_notation(copy) == to_notation(game)
    assert copy.actions == []
