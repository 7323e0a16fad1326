"""The hint (a long press on FLIP): the best action now and its chance, from the exact odds.

The chance is to beat the strongest result the table has *seen* this round, as the engine's table
view (:meth:`engine.game.Game.table_view`) tells it: under open rules the finished turns' throws (a
blind turn's dice stay unseen); under ``hidden_last_throw`` nobody has seen anyone's result, so
there is nothing to beat. With nothing to beat (the round's opener, or
every result still under the cup) the hint plays for a Schock or better, the throw that usually
keeps a player off the bottom, and says so. The position is the engine's (what is laid out and
what was just thrown), so the hint does not depend on dice merely marked on the screen.

:func:`best_hint` computes; :func:`hint_lines` words it. The odds tables are cached per rule set
and target (:mod:`engine.odds`), so only the first hint of a kind costs a table build. To compute a
hint off the main loop, :func:`hint_question` reads what it needs from the game on the loop, and
:meth:`HintQuestion.answer` computes it anywhere (it reads nothing of the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import Game
from engine.odds import (
    ActionKind,
    ActionOdds,
    Number,
    Position,
    Target,
    action_odds,
    ties_by_throws,
)
from engine.rules import Rules
from engine.settle import TurnResult
from engine.throws import Evaluation, Kind, rank_table
from firmware.screen.i18n import Catalogue

__all__ = ["Hint", "HintQuestion", "best_hint", "hint_lines", "hint_question", "percent",
           "strongest_seen"]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Hint:
    """The best action, its chance, and what the chance is for."""

    action: ActionOdds
    #: The result to beat, or None: the chance is for a Schock or better.
    beat: Evaluation | None


def strongest_seen(game: Game) -> TurnResult | None:
    """The finished turn of this round that is hardest to beat, among those the player whose
    turn it is has seen (the engine's table view: covered dice are not seen)."""
    view = game.table_view(game.current_player)
    seen = [
        TurnResult(turn.player, dice, bool(turn.hand), turn.throws, turn.blind)
        for turn in view.finished
        if (dice := turn.dice) is not None
    ]
    if not seen:
        return None

    def hardness(result: TurnResult) -> tuple[int, int]:
        evaluation = game.evaluate(result.dice, result.hand)
        # Equal strength: under a fewer-throws tie rule, fewer throws are harder to beat.
        by_throws = ties_by_throws(evaluation.kind, game.rules)
        return evaluation.strength, -result.throws if by_throws else 0

    return max(seen, key=hardness)


@dataclass(frozen=True, slots=True)
class HintQuestion:
    """What a hint is about: the position, what to play for, and the rules."""

    position: Position
    target: Target
    #: The result to beat, or None: the chance is for a Schock or better.
    beat: Evaluation | None
    rules: Rules

    def answer(self) -> Hint:
        """The best action and its chance (builds the odds tables it needs; any thread)."""
        return Hint(action_odds(self.position, self.target, self.rules)[0], self.beat)


def hint_question(game: Game) -> HintQuestion:
    """The hint to compute for the player whose turn it is (RuntimeError outside a turn)."""
    turn = game.turn
    if turn is None:
        raise RuntimeError("no turn is in progress")
    rules = game.rules
    best = strongest_seen(game)
    if best is not None:
        evaluation = game.evaluate(best.dice, best.hand)
        target = Target.beat(evaluation, rules, throws=best.throws)
        beat: Evaluation | None = evaluation
    else:
        target = Target.at_least(_weakest_schock(game))
        beat = None
    return HintQuestion(Position.from_turn(turn), target, beat, rules)


def best_hint(game: Game) -> Hint:
    """The hint for the player whose turn it is (raises RuntimeError outside a turn)."""
    return hint_question(game).answer()


def _weakest_schock(game: Game) -> int:
    table = rank_table(game.rules)
    return min(e.strength for e in table.ranking if e.kind in (Kind.SCHOCK, Kind.SCHOCK_AUS))


def percent(p: Number, catalogue: Catalogue) -> str:
    """A chance as shown: whole percent from 10 % up, one decimal below (German: a comma)."""
    value = 100 * float(p)
    text = f"{value:.0f}" if value >= 9.95 or value == 0 else f"{value:.1f}"
    if catalogue.language == "de":
        text = text.replace(".", ",")
    return f"{text} %"


def hint_lines(hint: Hint, catalogue: Catalogue) -> tuple[str, str, str]:
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
    goal = t("hint_beat", name=hint.beat.name) if hint.beat is not None else t("hint_reach")
    return percent(action.p, catalogue), words, goal


def _join(dice: Sequence[int], conjunction: str) -> str:
    words = [str(value) for value in dice]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {conjunction} " + words[-1]
