"""The computer players' driver: one action per step, on the turn stage, so the table can follow.

A computer player first shows the dice it lays out (marked on the screen), then shakes, then the
dice fall; it flips and stands in steps of their own (:data:`~firmware.app.timing.BOT_STEP_S`).
It decides on what the table has seen (:func:`engine.bots.view_of`, from the engine's table
view); its dice come from the app's dice source like everyone's, so a seeded game replays
exactly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.bots import Move, MoveKind, view_of
from firmware.app.stage import Transition
from firmware.app.timing import BOT_SHAKE_S, BOT_STEP_S

if TYPE_CHECKING:
    from firmware.app.turn import TurnStage

__all__ = ["BotDriver"]


class BotDriver:
    """Plays a computer player's turn on its :class:`~firmware.app.turn.TurnStage`."""

    def __init__(self, stage: TurnStage) -> None:
        self.stage = stage
        #: A throw whose laid-out dice are marked, to be thrown next.
        self.plan: Move | None = None
        #: What the computer player is doing (a text key), shown on the status line.
        self.activity = ""
        #: When the shaking cup comes down.
        self.throw_at: float | None = None
        #: Bots draw no numbers (their dice come from the dice source); the protocol asks for one.
        self._rng = random.Random(0)

    def next_step_at(self, now: float) -> float:
        """When the next step is due: the cup coming down, or one step from ``now``."""
        if self.stage.shaking and self.throw_at is not None:
            return self.throw_at
        return now + BOT_STEP_S

    def step(self) -> Transition | None:
        """The next step: the dice fall, the marked dice are shaken, or the next decision."""
        stage = self.stage
        if stage.shaking and self.throw_at is not None:
            self.plan, self.activity, self.throw_at = None, "", None
            transition = stage.throw()
            stage.shaking = False
            return transition
        if self.plan is not None:  # the dice it lays out are marked: now the cup
            self._shake()
            return None
        table = stage.table
        game = table.game
        turn = game.turn
        assert turn is not None
        move = table.bots[turn.player].decide(game, view_of(game), self._rng)
        if move.kind is MoveKind.ROLL:
            marks = [i in move.keep for i in range(game.rules.dice_count)]
            self.plan = move
            if turn.throws and marks != stage.marks:
                stage.marks, self.activity = marks, "bot_keeps"
            else:
                stage.marks = marks
                self._shake()
            return None
        if move.kind is MoveKind.FLIP:
            stage.flip()
            self.activity = "bot_flipped"
            return None
        return stage.end_by(game.blind if move.kind is MoveKind.BLIND else game.stand)

    def _shake(self) -> None:
        now = self.stage.table.ctx.now
        self.stage.start_shaking(now)
        self.activity = "bot_throws"
        self.throw_at = now + BOT_SHAKE_S
