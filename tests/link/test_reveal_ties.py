"""The reveal's ``ties``: where the highest or the lowest throw was as strong as the next one,
the table hears whom it tied with and which rule put them apart (the engine's own ranking)."""

from __future__ import annotations

from engine import Game, GameSetup, load_preset
from engine.events import DroppedTurn, RoundOver, TurnOver
from engine.rules import Rules
from firmware.link.tablefeed import TableFeed, reveal_ties


def turn(player: str, dice: tuple[int, ...], throws: int, name: str = "") -> TurnOver:
    return TurnOver(player, dice, throws == 1, throws, name or "-".join(map(str, dice)), 3)


def reveal(winner: str, loser: str, *turns: TurnOver | DroppedTurn) -> RoundOver:
    holdings = tuple((t.player, 0) for t in turns)
    return RoundOver(winner, loser, "", "", 1, "pot", (), 12, holdings, turns)


def test_fewer_throws_put_the_later_of_two_equal_throws_ahead() -> None:
    rules = load_preset("standard")  # ties = fewer_throws
    event = reveal(
        "Carla", "Ben",
        turn("Anna", (6, 4, 2), 1), turn("Ben", (6, 4, 2), 2), turn("Carla", (4, 1, 1), 1),
    )  # fmt: skip
    assert reveal_ties(rules, event) == {"loser": {"with": "Anna", "rule": "fewer_throws"}}


def test_equal_throws_and_counts_go_to_the_earlier_thrower() -> None:
    rules = load_preset("standard")
    event = reveal(
        "Carla", "Ben",
        turn("Anna", (6, 4, 2), 2), turn("Ben", (6, 4, 2), 2), turn("Carla", (4, 1, 1), 1),
    )  # fmt: skip
    assert reveal_ties(rules, event) == {"loser": {"with": "Anna", "rule": "earlier"}}


def test_nachgelegt_puts_the_earlier_thrower_ahead_whatever_the_throws() -> None:
    rules = load_preset("bvb")  # "Bei gleichem Wurf gewinnt, wer ihn zuerst geworfen hat"
    event = reveal(
        "Carla", "Ben",
        turn("Anna", (6, 4, 2), 3), turn("Ben", (6, 4, 2), 1), turn("Carla", (4, 1, 1), 1),
    )  # fmt: skip
    assert reveal_ties(rules, event) == {"loser": {"with": "Anna", "rule": "earlier"}}


def test_a_tie_at_the_top_is_the_winners() -> None:
    rules = Rules()
    event = reveal(
        "Ben", "Carla",
        turn("Anna", (4, 1, 1), 3), turn("Ben", (4, 1, 1), 2), turn("Carla", (6, 4, 2), 1),
    )  # fmt: skip
    assert reveal_ties(rules, event) == {"winner": {"with": "Anna", "rule": "fewer_throws"}}


def test_no_tie_and_a_dropped_cup_say_nothing() -> None:
    rules = Rules()
    plain = reveal("Anna", "Ben", turn("Anna", (4, 1, 1), 1), turn("Ben", (6, 4, 2), 1))
    assert reveal_ties(rules, plain) == {}
    dropped = reveal("Anna", "Ben", turn("Anna", (6, 4, 2), 1), DroppedTurn("Ben"))
    assert reveal_ties(rules, dropped) == {}


def test_the_table_feed_adds_the_ties_to_a_real_reveal() -> None:
    game = Game(GameSetup(("Anna", "Ben"), Rules(hidden_last_throw=False)))
    game.roll_off([[6, 6, 6], [2, 3, 4]])  # Anna opens
    # Anna stands after one throw: the limit is one, so Ben's throw ends his turn and the round.
    events = game.roll([6, 4, 2]) + game.stand() + game.roll([6, 4, 2])
    (over,) = [event for event in events if isinstance(event, RoundOver)]
    line = TableFeed().event(game, over)
    assert over.loser == "Ben"
    # Two players, one tie: the highest and the lowest throw are the same pair.
    assert line["ties"] == {
        "loser": {"with": "Anna", "rule": "earlier"},
        "winner": {"with": "Ben", "rule": "earlier"},
    }
    assert [row["kind"] for row in line["turns"]] == ["hausnummer", "hausnummer"]
