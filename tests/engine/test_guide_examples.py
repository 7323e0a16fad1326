"""The worked examples ("Durchgerechnete Beispiele") of the rule guide "Schocken: Regeln und
Varianten", through the Game API and settle().

The guide states who has the best and the worst throw and what happens to the Deckel, not every
die; the dice below are one set of throws that fits each sentence.
"""

from __future__ import annotations

from engine import (
    FinalStarts,
    Game,
    GameSetup,
    HalfOver,
    RoundOver,
    RoundStarted,
    TurnResult,
    from_notation,
    load_preset,
    settle,
)

STANDARD = load_preset("standard")
SETUP = GameSetup(("Anna", "Ben", "Carla"), STANDARD)


def only(events: list[object], kind: type) -> object:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, events
    return found[0]


# -- Beispiel 1: Deckel aus dem Topf ----------------------------------------------------------


def test_beispiel_1_through_the_game() -> None:
    """"Carla beginnt und braucht drei Würfe ... Annas Schock 4 ist der beste Wurf ... Ben hat
    mit der Hausnummer den schlechtesten. Er bekommt 4 Deckel aus dem Topf, dort bleiben 9. Ben
    beginnt die nächste Runde." """
    game = Game(SETUP)
    events = game.roll_off([(2, 3, 4), (5, 3, 2), (1, 1, 1)])  # Carla wins the roll-off
    assert only(events, RoundStarted) == RoundStarted(1, 1, ("Carla", "Anna", "Ben"))
    assert game.pot == 13

    game.roll((6, 5, 2))
    game.roll((3,), keep=(0, 1))
    game.roll((2,), keep=(0, 1))  # Carla's third throw ends her turn: 6-5-2
    assert game.limit == 3, "Carla needed three throws, so everyone has three"
    assert game.current_player == "Anna"

    game.roll((1, 4, 5))
    game.roll((1,), keep=(0, 1))  # 1-4-1: Schock 4 after two throws
    game.stand()

    game.roll((5, 3, 2))
    game.roll((4, 1), keep=(0,))
    events = game.roll((2,), keep=(0, 1))  # Ben ends on Hausnummer 542

    over = only(events, RoundOver)
    assert isinstance(over, RoundOver)
    assert (over.winner, over.winning) == ("Anna", "Schock 4")
    assert (over.loser, over.losing) == ("Ben", "Hausnummer 542")
    assert (over.deckel, over.source, over.pot) == (4, "pot", 9)
    assert dict(over.holdings) == {"Anna": 0, "Ben": 4, "Carla": 0}
    assert only(events, RoundStarted) == RoundStarted(1, 2, ("Ben", "Carla", "Anna"))
    assert game.current_player == "Ben"


def test_beispiel_1_through_settle() -> None:
    result = settle(
        STANDARD,
        13,
        {"Anna": 0, "Ben": 0, "Carla": 0},
        [
            TurnResult("Carla", (6, 5, 2), False, 3),
            TurnResult("Anna", (4, 1, 1), False, 2),
            TurnResult("Ben", (5, 4, 2), False, 3),
        ],
    )
    assert (result.winner, result.loser, result.due, result.moved) == ("Anna", "Ben", 4, 4)
    assert (result.source, result.pot_after, result.half_over, result.out) == ("pot", 9, False, ())
    assert result.order == ("Anna", "Carla", "Ben")


# -- Beispiel 2: Topf leer, Abgeben, Hälfte verloren --------------------------------------------

# "Anna hat 5 Deckel, Ben 6, Carla keinen, im Topf liegen noch 2." Ben opens (he lost last).
BEISPIEL_2 = "1 2 Anna=5,Ben=6,Carla=0 - - Ben:---/0"


def test_beispiel_2_through_the_game() -> None:
    game = from_notation(BEISPIEL_2, SETUP)

    # Round 1: "ist ein General 3 Deckel wert, im Topf liegen aber nur noch 2. Carla bekommt die
    # 2, der Topf ist leer."
    game.roll((3, 3, 3))
    game.stand()  # one throw: everyone has one
    game.roll((4, 3, 1))
    events = game.roll((6, 5, 2))
    over = only(events, RoundOver)
    assert isinstance(over, RoundOver)
    assert (over.winner, over.winning, over.loser) == ("Ben", "General 3", "Carla")
    assert (over.deckel, over.source, over.pot, over.out) == (2, "pot", 0, ())
    assert dict(over.holdings) == {"Anna": 5, "Ben": 6, "Carla": 2}
    assert only(events, RoundStarted) == RoundStarted(1, 2, ("Carla", "Anna", "Ben"))

    # Round 2: "müsste Anna für ihren Schock 6 sechs Deckel abgeben, sie hat aber nur 5. Sie gibt
    # alle an Ben ab und ist damit raus."
    game.roll((6, 6, 5))
    game.stand()  # Carla's one throw is the limit
    game.roll((1, 1, 6))
    events = game.roll((5, 3, 2))
    over = only(events, RoundOver)
    assert isinstance(over, RoundOver)
    assert (over.winner, over.winning, over.loser) == ("Anna", "Schock 6", "Ben")
    assert (over.deckel, over.source, over.out) == (5, "winner", ("Anna",))
    assert dict(over.holdings) == {"Anna": 0, "Ben": 11, "Carla": 2}
    # "Weiter spielen nur noch Ben und Carla."
    assert only(events, RoundStarted) == RoundStarted(1, 3, ("Ben", "Carla"))
    assert game.in_play() == ("Ben", "Carla")

    # Round 3: "gibt Carla ihre 2 Deckel an Ben, der jetzt alle 13 hat und die Hälfte verliert."
    game.roll((6, 4, 2))
    game.stand()
    events = game.roll((2, 3, 4))
    over = only(events, RoundOver)
    assert isinstance(over, RoundOver)
    assert (over.winner, over.winning, over.loser) == ("Carla", "Straße 4-3-2", "Ben")
    assert (over.deckel, over.source) == (2, "winner")
    assert dict(over.holdings)["Ben"] == 13
    assert only(events, HalfOver) == HalfOver(1, "Ben")
    assert not [e for e in events if isinstance(e, FinalStarts)]
    # The second half: full pot, everyone back in, the half's loser opens.
    assert only(events, RoundStarted) == RoundStarted(2, 1, ("Ben", "Carla", "Anna"))
    assert (game.section, game.pot, game.half_losers) == (2, 13, ["Ben"])


def test_beispiel_2_through_settle() -> None:
    first = settle(
        STANDARD,
        2,
        {"Anna": 5, "Ben": 6, "Carla": 0},
        [
            TurnResult("Ben", (3, 3, 3), True, 1),
            TurnResult("Carla", (4, 3, 1), True, 1),
            TurnResult("Anna", (6, 5, 2), True, 1),
        ],
    )
    assert (first.winner, first.loser, first.due, first.moved, first.source) == (
        "Ben", "Carla", 3, 2, "pot"
    )
    assert first.pot_after == 0 and first.out == () and not first.half_over

    second = settle(
        STANDARD,
        first.pot_after,
        dict(first.holdings_after),
        [
            TurnResult("Carla", (6, 6, 5), True, 1),
            TurnResult("Anna", (6, 1, 1), True, 1),
            TurnResult("Ben", (5, 3, 2), True, 1),
        ],
    )
    assert (second.winner, second.loser, second.due, second.moved, second.source) == (
        "Anna", "Ben", 6, 5, "winner"
    )
    assert second.out == ("Anna",)
    assert dict(second.holdings_after) == {"Anna": 0, "Ben": 11, "Carla": 2}

    third = settle(
        STANDARD,
        0,
        dict(second.holdings_after),
        [TurnResult("Ben", (6, 4, 2), True, 1), TurnResult("Carla", (4, 3, 2), True, 1)],
    )
    assert (third.winner, third.loser, third.moved, third.source) == ("Carla", "Ben", 2, "winner")
    assert dict(third.holdings_after) == {"Anna": 0, "Ben": 13, "Carla": 0}
    assert third.half_over
