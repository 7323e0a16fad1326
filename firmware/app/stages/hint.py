"""The hint on the device (a long press on FLIP during a person's turn): an overlay.

The action that keeps the best chance of not being the round's loser (within 0.1 points; the odds
bot's objective decides within that margin), its exact chance, and the next choice's chance
(:mod:`firmware.advice`). Until the odds worker has built the tables of the round as the holder
has seen it, the hint says "one moment" and is computed there; a hint asked again in the same
round and turn is computed at once. The hint speaks of the dice in the cup, so it is
private: the link's table view never shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game import Game
from firmware.app.stages.base import CLOSE, Overlay, Push, Transition
from firmware.app.stages.overlays import Message
from firmware.screen.oled_words import OledWords
from firmware.screen.views import BannerView
from hal.ports import InputEvent, InputKind

if TYPE_CHECKING:
    from firmware.advice import Hint
    from firmware.app.session.session import Session

__all__ = ["PendingHint", "hint_for", "hint_view"]


def hint_for(session: Session, game: Game) -> Transition:
    """The hint's overlay for the player whose turn it is, or why there is none."""
    if not game.rules.hints:
        refused = (session.t("hint_refused_1"), session.t("hint_refused_2"))
        return Push(Message("hint_title", refused))
    from firmware.advice import hint_question  # the odds load with the first hint

    question = hint_question(game)
    if session.work.ready(game.rules) and question.known():
        return Push(PendingHint(question.answer()))
    pending = PendingHint()
    session.ask(question.answer, pending.answer)
    return Push(pending)


@dataclass(eq=False)
class PendingHint(Overlay):
    """The hint asked of the odds worker: "one moment" until the answer is in; a press closes.

    Private, as the hint itself: the table's view shows the turn under it.
    """

    hint: Hint | None = None
    private = True

    def answer(self, hint: Hint) -> None:
        self.hint = hint

    def on_input(self, event: InputEvent) -> Transition | None:
        return CLOSE if event.kind is InputKind.PRESS else None

    def view(self, texts: OledWords) -> BannerView:
        if self.hint is None:
            return BannerView(texts.t("hint_title"), "", (texts.t("hint_wait"),), ("", "", "OK"))
        return hint_view(self.hint, texts)


def hint_view(hint: Hint, texts: OledWords) -> BannerView:
    """The hint's screen: the chance big, the action, what the chance is for; with another
    choice of a different chance, that one and its chance in a line under them, and what the
    chances are for in the title bar."""
    from firmware.advice import hint_lines, hint_other

    chance, action, goal = hint_lines(hint, texts)
    title, keys = texts.t("hint_title"), ("", "", "OK")
    other = hint_other(hint, texts)
    if other:
        return BannerView(title, chance, (action,), keys, aside=goal, note=other)
    return BannerView(title, chance, (action, goal), keys)
