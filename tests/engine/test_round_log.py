"""``RoundOver.turns``: the round's turns as the reveal shows them, built once, in the engine.

The oracle below is the round log the device kept for its reveal before the engine carried it
(``Table.follow``'s ``round_turns``, ``_dropped`` and the penalty's ``out``), re-implemented here
on the events, so that the engine's list is checked against an independent reading of them.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import (
    Drop,
    DroppedTurn,
    Event,
    Game,
    GameSetup,
    IllegalActionError,
    PenaltyGiven,
    RoundOver,
    RoundStarted,
    Rules,
    TurnOver,
    from_json,
    load_preset,
    to_json,
)
from engine.rules import DroppedCup
from tests.engine.randomplay import play_step


class RevealOracle:
    """The device's old round log: turns as they end, a drop in place, the penalised out gone."""

    def __init__(self) -> None:
        self.turns: list[TurnOver | DroppedTurn] = []
        self.seen: Counter[str] = Counter()

    def follow(self, event: Event) -> tuple[TurnOver | DroppedTurn, ...] | None:
        """Read one event; at a ``RoundOver``, the turns the reveal shows."""
        if isinstance(event, RoundStarted):
            self.turns = []
        elif isinstance(event, TurnOver):
            self.turns.append(event)
        elif isinstance(event, Drop):
            row = DroppedTurn(event.player)
            players = [turn.player for turn in self.turns]
            if event.player in players:
                self.turns[players.index(event.player)] = row
                self.seen["drop in place"] += 1
            else:
                self.turns.append(row)
                self.seen["drop appended"] += 1
        elif isinstance(event, PenaltyGiven):
            before = len(self.turns)
            self.turns = [turn for turn in self.turns if turn.player not in event.out]
            if event.out:
                self.seen["penalty out"] += 1
            if len(self.turns) < before:
                self.seen["turn removed"] += 1
        elif isinstance(event, RoundOver):
            return tuple(self.turns)
        return None


def rule_sets() -> list[Rules]:
    standard = load_preset("standard")
    dsm, bvb = load_preset("dsm"), load_preset("bvb")
    dropped = DroppedCup.ROUND
    return [
        replace(standard, dropped_cup=dropped),
        replace(standard, dropped_cup=dropped, hidden_last_throw=False, deckel=5),
        replace(standard, hidden_last_throw=True, penalty_deckel=3, deckel=7),
        replace(dsm, dropped_cup=dropped),
        replace(bvb, dropped_cup=dropped, deckel=6),
        dsm,
        bvb,
    ]


def play(rules: Rules, players: int, seed: int) -> list[Event]:
    """A random game with penalties now and then (often enough to put players out)."""
    rng = random.Random(seed)
    game = Game(GameSetup(tuple(f"P{i}" for i in range(players)), rules))
    events: list[Event] = []
    for _ in range(20_000):
        if game.is_over:
            return events
        if game.turn is not None and rules.penalty_deckel and rng.random() < 0.03:
            events += game.penalty(rng.choice(game.in_play()))
        else:
            events += play_step(game, rng)
    raise AssertionError(f"game did not end (seed {seed})")


@pytest.mark.parametrize("seeds", [4, pytest.param(12, marks=pytest.mark.slow)])
def test_round_over_carries_the_turns_the_device_revealed(seeds: int) -> None:
    """Random games of every rule set, ``seeds`` a rule set (four already reach every case of
    the old log several times; the slow selection plays twelve)."""
    seen: Counter[str] = Counter()
    reveals = 0
    for index, rules in enumerate(rule_sets()):
        for seed in range(seeds):
            oracle = RevealOracle()
            for event in play(rules, 2 + (seed + index) % 5, seed * 31 + index):
                expected = oracle.follow(event)
                if expected is None:
                    continue
                assert isinstance(event, RoundOver)
                assert event.turns == expected, (rules.name, seed)
                reveals += 1
                back = from_json(json.loads(json.dumps(to_json(event))))
                assert back == event
            seen += oracle.seen
    # The random games reach every case of the old log.
    assert reveals > 500
    for case in ("drop in place", "drop appended", "penalty out", "turn removed"):
        assert seen[case] > 0, case


def test_the_turns_in_json_are_turn_over_events_and_dropped_rows() -> None:
    game = Game(GameSetup(("Anna", "Ben", "Carla"), Rules(dropped_cup=DroppedCup.ROUND)))
    game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 3)])
    game.roll((6, 5, 3))
    game.stand()
    game.drop("Ben")
    events = game.roll((1, 1, 4))
    over = next(event for event in events if isinstance(event, RoundOver))
    turn_over = next(event for event in events if isinstance(event, TurnOver))
    data = to_json(over)
    assert list(data)[-1] == "turns"
    assert data["turns"][1] == {"event": "turn_over", "player": "Ben", "dropped": True}
    assert data["turns"][2] == to_json(turn_over)
    assert data["turns"][0] == {
        "event": "turn_over", "player": "Anna", "dice": (6, 5, 3), "hand": True, "throws": 1,
        "name": "Hausnummer 653", "limit": 3,
    }
    assert from_json(data) == over


def test_a_round_over_without_turns_still_reads() -> None:
    data = to_json(RoundOver("Anna", "Ben", "Schock 4", "Hausnummer 321", 4, "pot", (), 9, ()))
    del data["turns"]
    assert from_json(data).turns == ()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("turns", "problem"),
    [
        ("none", "turns must be a list"),
        ([1], "each turn must be a JSON object"),
        ([{"event": "turn_over", "player": "Ben", "dropped": True, "dice": []}], "dropped turn"),
        ([{"event": "stand", "player": "Ben"}], "turn_over events only"),
        ([{"event": "turn_over", "player": "Ben"}], "expected fields"),
    ],
)
def test_bad_turns_are_refused_in_one_line(turns: object, problem: str) -> None:
    data = to_json(RoundOver("Anna", "Ben", "Schock 4", "Hausnummer 321", 4, "pot", (), 9, ()))
    data["turns"] = turns
    with pytest.raises(IllegalActionError, match=problem) as error:
        from_json(data)
    assert "\n" not in str(error.value)
