"""The computer players' driver: one action per step, on the turn stage, so the table can follow.

The driver sees the turn stage only through :class:`BotTurn`: it marks dice, shakes, lets the
cup come down, flips and ends the turn, as a person's buttons would.

A computer player first shows the dice it lays out (marked on the screen), then shakes, then the
dice fall; it flips and stands in steps of their own
(:data:`~firmware.app.stages.timing.BOT_STEP_S`). It decides on what the table has seen
(:func:`engine.bots.view_of`, from the engine's table view); its dice come from the app's dice
source like everyone's, so a seeded game replays
exactly.

A decision that needs the strategy is asked of the app's odds worker (:mod:`firmware.work`):
until the answer is back the computer player goes on thinking, and the main loop goes on
serving the buttons and the screen. With the inline worker of tests and scripts the answer is
there at once, in the same step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.bots import Move, MoveKind, StrategyBot, view_of
from engine.game import Game
from firmware.app.stages.base import Transition
from firmware.app.stages.timing import BOT_SHAKE_S, BOT_STEP_S

if TYPE_CHECKING:
    from engine.odds import Choice

__all__ = ["Asker", "BotDriver", "BotTurn"]

#: Has the odds worker compute a decision: ``ask(job, done)``, ``done(answer)`` on the loop.
Asker = Callable[[Callable[[], "Choice"], Callable[["Choice"], None]], None]


class BotTurn(Protocol):
    """What the driver may do on the turn it plays: what a person's buttons do."""

    @property
    def marks(self) -> Sequence[bool]:
        """The dice marked to lay out, by position."""
        ...

    @property
    def shaking(self) -> bool:
        """Whether the cup is shaking."""
        ...

    def show_marks(self, marks: list[bool]) -> None:
        """Mark these dice to lay out."""
        ...

    def start_shaking(self, at: float) -> None:
        """The cup starts shaking at ``at``."""
        ...

    def cup_down(self) -> Transition | None:
        """The cup comes down: the dice that are not marked fall."""
        ...

    def flip(self) -> None:
        """Turn two sixes into a one."""
        ...

    def stand(self, *, blind: bool = False) -> Transition:
        """End the turn as the dice lie, or by Blind."""
        ...


class BotDriver:
    """Plays a computer player's turn (``bot`` in ``game``) on ``turn``.

    ``ask`` has the odds worker compute a decision; ``now`` is the app's clock.
    """

    def __init__(
        self, turn: BotTurn, game: Game, bot: StrategyBot, *, ask: Asker,
        now: Callable[[], float],
    ) -> None:
        self.turn = turn
        self._game = game
        self._bot = bot
        self._ask = ask
        self._now = now
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
        if self.turn.shaking and self.throw_at is not None:
            return self.throw_at
        if self.thinking:
            return None
        return now if self._answer is not None else now + BOT_STEP_S

    def step(self) -> Transition | None:
        """The next step: the dice fall, the marked dice are shaken, or the next decision."""
        stage = self.turn
        if stage.shaking and self.throw_at is not None:
            self.plan, self.activity, self.throw_at = None, "", None
            return stage.cup_down()
        if self.plan is not None:  # the dice it lays out are marked: now the cup
            self._shake()
            return None
        game = self._game
        turn = game.turn
        assert turn is not None
        move = self._answer if self._answer is not None else self._decide()
        self._answer = None
        if move is None:  # the worker is thinking; its answer re-arms the timer
            return None
        if move.kind is MoveKind.ROLL:
            marks = [i in move.keep for i in range(game.rules.dice_count)]
            self.plan = move
            if turn.throws and marks != list(stage.marks):
                stage.show_marks(marks)
                self.activity = "bot_keeps"
            else:
                stage.show_marks(marks)
                self._shake()
            return None
        if move.kind is MoveKind.FLIP:
            stage.flip()
            self.activity = "bot_flipped"
            return None
        return stage.stand(blind=move.kind is MoveKind.BLIND)

    def _decide(self) -> Move | None:
        """The next move, or None while the odds worker thinks about it."""
        game = self._game
        bot = self._bot
        move = bot.obvious_move(game)
        if move is not None:
            return move

        def answered(choice: Choice) -> None:
            self.thinking = False
            self._answer = bot.move_for(game, choice)

        self.thinking = True
        self._ask(bot.question(game, view_of(game)), answered)
        if self._answer is None:
            return None
        move, self._answer = self._answer, None
        return move

    def _shake(self) -> None:
        now = self._now()
        self.turn.start_shaking(now)
        self.activity = "bot_throws"
        self.throw_at = now + BOT_SHAKE_S
