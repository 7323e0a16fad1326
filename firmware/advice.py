"""The hint (a long press on FLIP): the action the odds bot would take now, and the chance of not
being the round's loser ("nicht Letzter") when playing on that way, from the exact odds.

The hint plays by the odds bot's objective (:class:`engine.bots.OddsStrategy`, :func:`engine.bots.
avoid_goal`): not to be the round's loser, and, beside it, to make the loser pay more when the
holder's throw is the round's highest. It reads the round as the player whose turn it is has
seen it (the engine's table view, through :func:`engine.bots.view_of`): the results shown, and
under ``hidden_last_throw`` only the laid-out dice and the throws of the earlier players. For the
last player of a round whose results were all shown, the chance is exact against the lowest of
them; before that, the players still to come are the ``odds-v1`` bot under the limit that is set
(for the opener: the limit this turn will set). The position is the engine's (what is laid out and
what was just thrown), so the hint does not depend on dice merely marked on the screen.

:func:`best_hint` computes; :func:`hint_lines` words it. To compute a hint off the main loop,
:func:`hint_question` reads what it needs from the game on the loop, and
:meth:`HintQuestion.answer` computes it anywhere (it reads nothing of the game).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engine.bots import OddsStrategy, avoid_goal, view_of
from engine.game import Game
from engine.odds import (
    ActionKind,
    ActionOdds,
    Choice,
    Number,
    Position,
    action_odds,
    chance_playing,
)
from engine.rules import Rules
from firmware.screen.oled_words import OledWords

__all__ = ["Hint", "HintQuestion", "best_hint", "hint_lines", "hint_question", "percent"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The action the objective picks, and the chance of not being the round's loser after it."""

    action: ActionOdds
    #: The chance of not being the round's loser, playing on by the objective.
    not_last: Number


@dataclass(frozen=True, slots=True)
class HintQuestion:
    """What a hint is about: the position, the round as the player has seen it, the rules."""

    position: Position
    #: The odds strategy's situation (:meth:`engine.bots.OddsStrategy.situation`).
    situation: Hashable
    rules: Rules

    def known(self) -> bool:
        """Whether this hint was computed before (asking it again then costs a lookup)."""
        return self in _answers

    def answer(self) -> Hint:
        """The objective's action and the chance of not being Letzter (builds the tables it
        needs; any thread)."""
        found = _answers.get(self)
        if found is not None:
            return found
        rules, situation, position = self.rules, self.situation, self.position
        goal = avoid_goal(rules, situation)
        action = action_odds(position, goal, rules)[0]
        choice = Choice(action.kind, action.keep if action.kind is ActionKind.THROW else ())
        not_last = avoid_goal(rules, situation, share=False)
        chance = chance_playing(position, choice, goal, not_last, rules)
        hint = Hint(action, min(1.0, max(0.0, chance)))  # sums of floats may stray by 1e-16
        if len(_answers) >= MAX_ANSWERS:
            _answers.clear()
        _answers[self] = hint
        return hint


#: Hints computed, by question (a dictionary's single operations are safe across threads).
_answers: dict[HintQuestion, Hint] = {}
MAX_ANSWERS = 1024


def hint_question(game: Game) -> HintQuestion:
    """The hint to compute for the player whose turn it is (RuntimeError outside a turn)."""
    turn = game.turn
    if turn is None:
        raise RuntimeError("no turn is in progress")
    situation = OddsStrategy().situation(view_of(game), game.rules)
    return HintQuestion(Position.from_turn(turn), situation, game.rules)


def best_hint(game: Game) -> Hint:
    """The hint for the player whose turn it is (raises RuntimeError outside a turn)."""
    return hint_question(game).answer()


def percent(p: Number, catalogue: OledWords) -> str:
    """A chance as shown: whole percent from 10 % up, one decimal below and near certainty
    (never "100 %" for what is not certain; German: a comma)."""
    value = 100 * float(p)
    if 99.5 <= value < 100:
        text = f"{min(value, 99.9):.1f}"
    else:
        text = f"{value:.0f}" if value >= 9.95 or value == 0 else f"{value:.1f}"
    if catalogue.language == "de":
        text = text.replace(".", ",")
    return f"{text} %"


def hint_lines(hint: Hint, catalogue: OledWords) -> tuple[str, str, str]:
    """The headline (the chance), the action in words, and what the chance is for."""
    t = catalogue.t
    action = hint.action
    if action.kind is ActionKind.STAND:
        words = t("hint_stand")
    elif action.kind is ActionKind.FLIP:
        words = t("hint_flip")
    elif action.keep:
        words = t("hint_keep", dice=_join(action.keep, t("hint_and")))
    else:
        words = t("hint_throw_all")
    return percent(hint.not_last, catalogue), words, t("hint_not_last")


def _join(dice: Sequence[int], conjunction: str) -> str:
    words = [str(value) for value in dice]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {conjunction} " + words[-1]
