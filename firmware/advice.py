"""The hint (a long press on FLIP): what to do now, and the chance of not being the round's loser
("nicht Letzter") of that choice and of the next best, from the exact odds.

The hint plays not to be the round's loser, full stop. Of the legal actions it advises none whose
chance of not being the loser is more than :data:`NOT_LAST_MARGIN` (0.1 percentage points) below
another's; only between the actions within that margin does it prefer the odds bot's choice
(:class:`engine.bots.OddsStrategy`, :func:`engine.bots.avoid_goal`), which also makes the loser
pay more when the holder's throw is the round's highest. A choice's chance is the best chance of
not being the loser after it, playing on for that alone (:func:`engine.bots.avoid_chances`). The
hint names the strongest other choice too, when its chance differs. (The odds bot itself gives
up more of that chance for Deckel: it loses fewer games so; docs/odds.md measures both.)

It reads the round as the player whose turn it is has seen it (the engine's table view, through
:func:`engine.bots.view_of`): the results shown, and under ``hidden_last_throw`` only the laid-out
dice and the throws of the earlier players. For the last player of a round whose results were all
shown, the chance is exact against the lowest of them; before that, the players still to come are
the ``odds-v1`` bot under the limit that is set (for the opener: the limit this turn will set). The
position is the engine's (what is laid out and what was just thrown), so the hint does not depend
on dice merely marked on the screen.

:func:`best_hint` computes; :func:`hint_lines` and :func:`hint_other` word it. To compute a hint
off the main loop, :func:`hint_question` reads what it needs from the game on the loop, and
:meth:`HintQuestion.answer` computes it anywhere (it reads nothing of the game).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engine.bots import OddsStrategy, avoid_chances, view_of
from engine.game import Game
from engine.odds import ActionKind, Choice, Number, Position, pick_within
from engine.rules import Rules
from firmware.screen.oled_words import OledWords

__all__ = [
    "NOT_LAST_MARGIN", "Hint", "HintQuestion", "best_hint", "hint_lines", "hint_other",
    "hint_question", "percent",
]


#: The most chance of not being the round's loser the hint gives up for Deckel: 0.1 percentage
#: points against the choice that is best for not being the loser.
NOT_LAST_MARGIN = 0.001


@dataclass(frozen=True, slots=True)
class Hint:
    """The action the hint advises and its chance of not being the round's loser; beside it the
    other choice with the best such chance (None when there is no other choice)."""

    action: Choice
    #: The best chance of not being the round's loser after ``action``.
    not_last: Number
    other: Choice | None = None
    #: The same for ``other``.
    other_not_last: Number = 0.0


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
        """The advised action, the strongest other, and their chances of not being Letzter
        (builds the tables it needs; any thread)."""
        found = _answers.get(self)
        if found is not None:
            return found
        chances = avoid_chances(self.position, self.situation, self.rules)
        chosen = pick_within(chances, NOT_LAST_MARGIN)
        # Sums of floats may stray by 1e-16.
        not_last = {choice: min(1.0, max(0.0, float(values[0]))) for choice, values in chances}
        others = [choice for choice, _ in chances if choice != chosen]
        other = max(others, key=lambda choice: not_last[choice], default=None)
        hint = Hint(chosen, not_last[chosen], other, 0.0 if other is None else not_last[other])
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


def percent(p: Number, catalogue: OledWords, *, tenths: bool = False) -> str:
    """A chance as shown: whole percent from 10 % up, one decimal below and near certainty, or
    with ``tenths`` one decimal throughout (never "100 %" for what is not certain; German: a
    comma)."""
    value = 100 * float(p)
    if 99.5 <= value < 100 or (tenths and 0 < value < 100):
        text = f"{min(value, 99.9):.1f}"
    else:
        text = f"{value:.0f}" if value >= 9.95 or value == 0 else f"{value:.1f}"
    if catalogue.language == "de":
        text = text.replace(".", ",")
    return f"{text} %"


def hint_lines(hint: Hint, catalogue: OledWords) -> tuple[str, str, str]:
    """The headline (the chance), the action in words, and what the chance is for. Beside
    another choice (:func:`hint_other`) the chance has one decimal, as the other's."""
    tenths = bool(hint_other(hint, catalogue))
    chance = percent(hint.not_last, catalogue, tenths=tenths)
    return chance, _words(hint.action, catalogue), catalogue.t("hint_not_last")


def hint_other(hint: Hint, catalogue: OledWords) -> str:
    """The other choice with the best chance and its chance ("1 und 1 liegen lassen: 98,3 %"),
    or "" when there is none or its chance reads the same as the advised one's."""
    if hint.other is None:
        return ""
    ours = percent(hint.not_last, catalogue, tenths=True)
    theirs = percent(hint.other_not_last, catalogue, tenths=True)
    if theirs == ours:
        return ""
    return catalogue.t("hint_other", action=_words(hint.other, catalogue), chance=theirs)


def _words(action: Choice, catalogue: OledWords) -> str:
    t = catalogue.t
    if action.kind is ActionKind.STAND:
        return t("hint_stand")
    if action.kind is ActionKind.FLIP:
        return t("hint_flip")
    if action.keep:
        return t("hint_keep", dice=_join(action.keep, t("hint_and")))
    return t("hint_throw_all")


def _join(dice: Sequence[int], conjunction: str) -> str:
    words = [str(value) for value in dice]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {conjunction} " + words[-1]
