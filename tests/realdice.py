"""A real-dice table for tests: typical reported results, and the same game settled round by
round by ``schocken judge`` (the command line's own main), as the oracle a reported game must
match: the same Deckel after every round, the same half losers, final and loser."""

from __future__ import annotations

import contextlib
import io
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import Rules
from schockbesteck.cli import main
from sim.bench.dice_entry import Reported, Step, entry_steps, typical_result

__all__ = [
    "ROLL_OFF_WINNER", "JudgedGame", "Reported", "Step", "entry_steps", "judge", "judged_game",
    "roll_off_dice", "typical_result",
]

#: The roll-off every scripted game starts with: Ben's Schock aus opens the first round.
ROLL_OFF_WINNER = "Ben"


def roll_off_dice(players: tuple[str, ...]) -> list[tuple[int, ...]]:
    """One throw per player; only :data:`ROLL_OFF_WINNER` has a Schock aus."""
    low = [(6, 4, 2), (5, 3, 2), (6, 5, 3), (6, 4, 3), (5, 4, 2), (6, 5, 2), (5, 4, 1), (6, 3, 2),
           (5, 3, 1), (6, 4, 1)]
    return [(1, 1, 1) if name == ROLL_OFF_WINNER else low[i] for i, name in enumerate(players)]


def judge(rules_file: str, pot: int, holdings: dict[str, int], turns: list[Reported],
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``schocken judge --json`` on one round, through the real entry point."""
    round_ = {
        "pot": pot, "deckel": holdings,
        "players": [{"name": t.player, "dice": list(t.dice), "throws": t.throws, "hand": t.hand}
                    for t in turns],
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(round_)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["judge", "--rules", rules_file, "--json"])
    assert status == 0, out.getvalue()
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


@dataclass
class JudgedGame:
    """A whole game as the table and ``schocken judge`` play it."""

    #: Every reported turn in the order the table threw.
    turns: list[Reported] = field(default_factory=list)
    #: Per round: (the pot after it, every player's Deckel after it) as judge gives them.
    rounds: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    half_losers: list[str] = field(default_factory=list)
    loser: str | None = None
    blattschuss: bool = False


def judged_game(players: tuple[str, ...], rules: Rules, rules_file: str, seed: int,
                monkeypatch: pytest.MonkeyPatch) -> JudgedGame:
    """Play a whole game with ``typical_result`` turns, settling every round with judge.

    The flow between rounds is the rules' own (docs/rules.md): the round's loser opens the next,
    a player out for the half is skipped, the half's loser opens the next section, two different
    half losers play the final, one player losing both halves is a Blattschuss.
    """
    rng = random.Random(seed)
    game = JudgedGame()
    participants, opener, section = players, ROLL_OFF_WINNER, 1
    while game.loser is None:
        pot, holdings, out = rules.deckel, dict.fromkeys(participants, 0), set[str]()
        while True:
            start = participants.index(opener)
            order = [participants[(start + k) % len(participants)]
                     for k in range(len(participants))]
            turns: list[Reported] = []
            limit: int | None = None
            for name in (p for p in order if p not in out):
                turn = typical_result(rng, name, rules, limit)
                limit = min(turn.throws, rules.max_throws) if limit is None else limit
                turns.append(turn)
            settled = judge(rules_file, pot, holdings, turns, monkeypatch)
            game.turns.extend(turns)
            pot, holdings = settled["pot"], settled["deckel"]
            out |= set(settled["out"])
            game.rounds.append((pot, dict(holdings)))
            opener = settled["loser"]
            if settled["half_over"]:
                break
        if section == 3:
            game.loser = opener
        elif section == 2 and game.half_losers[0] == opener:
            game.half_losers.append(opener)
            game.loser, game.blattschuss = opener, True
        else:
            game.half_losers.append(opener)
            if section == 2:
                participants = tuple(p for p in players if p in game.half_losers)
            section += 1
    return game

