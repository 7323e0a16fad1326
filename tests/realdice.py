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

from engine import Game, Rules
from hal.ports import Button
from schockbesteck.cli import main

#: The roll-off every scripted game starts with: Ben's Schock aus opens the first round.
ROLL_OFF_WINNER = "Ben"


def roll_off_dice(players: tuple[str, ...]) -> list[tuple[int, ...]]:
    """One throw per player; only :data:`ROLL_OFF_WINNER` has a Schock aus."""
    low = [(6, 4, 2), (5, 3, 2), (6, 5, 3), (6, 4, 3), (5, 4, 2), (6, 5, 2), (5, 4, 1), (6, 3, 2),
           (5, 3, 1), (6, 4, 1)]
    return [(1, 1, 1) if name == ROLL_OFF_WINNER else low[i] for i, name in enumerate(players)]


@dataclass(frozen=True, slots=True)
class Reported:
    """One turn's result as the table reports it."""

    player: str
    dice: tuple[int, ...]
    throws: int
    hand: bool


def typical_result(rng: random.Random, player: str, rules: Rules, limit: int | None) -> Reported:
    """A result as real cups give it: any dice, the throws up to the limit (the opener up to the
    rules' maximum), from the hand after one throw and now and then after more."""
    top = rules.max_throws if limit is None else limit
    throws = rng.choice([t for t in (1, 2, 3, 3) if t <= top] or [1])
    dice = tuple(rng.randint(1, 6) for _ in range(rules.dice_count))
    hand = throws == 1 or rng.random() < 0.25
    return Reported(player, dice, throws, hand)


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


# -- entering results on the five buttons ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One press (or, with ``hold``, a long press) of ``button`` on the entry screen."""

    button: Button
    hold: bool = False


_DIE_BUTTONS = (Button.KEEP_1, Button.KEEP_2, Button.KEEP_3)


def die_steps(position: int, shown: int, wanted: int) -> list[Step]:
    """Step die ``position`` from ``shown`` to ``wanted``: presses step up, a hold steps down;
    the quicker way (a hold takes about four presses' time, so only a six is a hold from one)."""
    up = (wanted - shown) % 6
    down = (shown - wanted) % 6
    button = _DIE_BUTTONS[position]
    return [Step(button, hold=True)] * down if down * 4 < up else [Step(button)] * up


def entry_steps(game: Game, shown: tuple[int, ...], turn: Reported | tuple[int, ...]) -> list[Step]:
    """The presses that enter ``turn`` (a reported turn, or a roll-off throw) on an entry screen
    that shows ``shown`` and the throws the round allows (as a fresh entry starts)."""
    dice = turn.dice if isinstance(turn, Reported) else turn
    pairs = enumerate(zip(shown, dice, strict=True))
    steps = [step for i, (now, wanted) in pairs for step in die_steps(i, now, wanted)]
    if isinstance(turn, Reported):
        most = game.reported_throws_allowed()
        start = game.rules.max_throws if game.limit is None else game.limit
        steps += [Step(Button.FLIP)] * ((turn.throws - start) % most)
        if game.hand_matters(turn.dice) and turn.hand != (turn.throws == 1):
            steps.append(Step(Button.FLIP, hold=True))
    steps.append(Step(Button.STAND))
    return steps
