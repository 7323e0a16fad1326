"""The computer players' driver: one action per step, on the turn stage, so the table can follow.

A computer player first shows the dice it lays out (marked on the screen), then shakes, then the
dice fall; it flips and stands in steps of their own (:data:`~firmware.app.timing.BOT_STEP_S`).
It decides on what the table has seen (:func:`engine.bots.view_of`, from the engine's table
view); its dice come from the app's dice source like everyone's, so a seeded game replays
exactly.

A decision that needs the strategy is asked of the app's odds worker (:mod:`firmware.work`):
until the answer is back the computer player goes on thinking, and the main loop goes on
serving the buttons and the screen. With the inline worker of tests and scripts the answer is
there at once, in the same step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.bots import Move, MoveKind, view_of
from firmware.app.stage import Transition
from firmware.app.timing import BOT_SHAKE_S, BOT_STEP_S

if TYPE_CHECKING:
    from engine.odds import Choice
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
        #: True while the odds worker thinks about the next move.
        self.thinking = False
        #: The worker's answer, until the step that carries it out.
        self._answer: Move | None = None

    def next_step_at(self, now: float) -> float | None:
        """When the next step is due: the cup coming down, at once when the worker has answered,
        never while it thinks (its answer re-arms the timer), or one step from ``now``."""
        if self.stage.shaking and self.throw_at is not None:
            return self.throw_at
        if self.thinking:
            return None
        return now if self._answer is not None else now + BOT_STEP_S

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
        move = self._answer if self._answer is not None else self._decide()
        self._answer = None
        if move is None:  # the worker is thinking; its answer re-arms the timer
            return None
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

    def _decide(self) -> Move | None:
        """The next move, or None while the odds worker thinks about it."""
        table = self.stage.table
        game = table.game
        turn = game.turn
        assert turn is not None
        bot = table.bots[turn.player]
        move = bot.obvious_move(game)
        if move is not None:
            return move

        def answered(choice: Choice) -> None:
            self.thinking = False
            self._answer = bot.move_for(game, choice)

        self.thinking = True
        table.ctx.ask(bot.question(game, view_of(game)), answered)
        if self._answer is None:
            return None
        move, self._answer = self._answer, None
        return move

    def _shake(self) -> None:
        now = self.stage.table.ctx.now
        self.stage.start_shaking(now)
        self.activity = "bot_throws"
        self.throw_at = now + BOT_SHAKE_S
