"""A player's turn: the hand-over, the turn itself, and the dice after a last throw.

* :class:`HandOverStage` ("Becher an Ben") hides the dice the previous player left under the cup;
  a press or a shake takes the cup.
* :class:`TurnStage`: shake to throw, KEEP_n to mark a die to lay out, FLIP to turn two sixes into
  a one, STAND to end the turn, a long press on FLIP for the hint. Why a press is refused comes
  from the engine (:meth:`engine.game.Game.keep_problem` and friends), worded here.
* :class:`TurnDoneStage`: a turn ended by its last throw; the thrower sees the dice until a press.

A computer player's turn runs on the same stage, driven by
:class:`~firmware.app.stages.bot_driver.BotDriver` through the narrow
:class:`~firmware.app.stages.bot_driver.BotTurn`. What a throw, a flip or a stand calls for next
is the table's to say (:mod:`firmware.app.session.table`): the stage hands its moments on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import Reason, Refusal
from engine.game import TurnState
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.app.stages.base import CONTINUE, Goto, Stage, Transition
from firmware.app.stages.hint import hint_for
from firmware.app.stages.players import pot_text, scoreboard, short_name, shown_name
from firmware.app.stages.timing import BOT_PAUSE_S, FRAME_S
from firmware.screen.oled_words import section_name
from firmware.screen.views import DieFace, HandOverView, TableCup, TurnView
from hal.ports import Button, InputEvent, InputKind

if TYPE_CHECKING:
    from firmware.app.stages.bot_driver import BotDriver

__all__ = ["HandOverStage", "TurnDoneStage", "TurnStage"]

_KEEPS = {Button.KEEP_1: 0, Button.KEEP_2: 1, Button.KEEP_3: 2}

#: What the turn screen says when the engine refuses a press, by the engine's reason.
_KEEP_NOTICES = {
    Reason.NOT_THROWN: "notice_shake_first",
    Reason.NO_THROWS_LEFT: "notice_stand",
    Reason.ALL_LAID_OUT: "notice_stand",
    Reason.STAYS_OUT: "notice_stays_out",
    Reason.KEEPS_EVERY_DIE: "notice_all_out",
    Reason.ONLY_ONES: "notice_only_ones",
}
_STAND_NOTICES = {Reason.MUST_THROW: "notice_throw_after_flip"}


def _notice(refusal: Refusal, notices: dict[Reason, str], default: str) -> str:
    return notices.get(refusal.reason, default)


@dataclass(eq=False)
class HandOverStage(Stage):
    """The cup goes to ``player``; ``shown`` is what ``previous`` left on the table."""


    session: Session
    table: Table
    player: str
    previous: str | None = None
    shown: tuple[DieFace, ...] = ()

    @property
    def bot_plays(self) -> bool:
        return self.table.is_bot(self.player)

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind in (InputKind.PRESS, InputKind.LONG_PRESS):
            return Goto((TurnStage(self.session, self.table),))
        if event.kind is InputKind.SHAKE_START:
            turn = TurnStage(self.session, self.table)
            turn.start_shaking(event.at)
            return Goto((turn,))
        return None

    def auto_at(self, now: float) -> float | None:
        return now + BOT_PAUSE_S if self.bot_plays else None

    def auto_step(self) -> Transition | None:
        return Goto((TurnStage(self.session, self.table),))

    def view(self) -> HandOverView:
        table = self.table
        t, game = self.session.t, table.game
        if self.previous is not None:
            info = ""
            if game.limit is not None:
                info = t("limit_one" if game.limit == 1 else "limit", n=game.limit)
            note = short_name(table, self.previous) + ":"
        else:
            info = section_name(self.session.catalogue, table.section)
            note = t("opens_round", n=table.round_number)
        return HandOverView(
            t("pass_cup"),
            info,
            shown_name(table, self.player),
            note,
            self.shown,
            t("bot_hand_over" if table.is_bot(self.player) else "hint_hand_over"),
            scoreboard(table, self.player),
        )


@dataclass(eq=False)
class TurnStage(Stage):
    """The turn of the game's current player."""


    session: Session
    table: Table
    #: The dice marked to lay out (or laid out), by position.
    marks: list[bool] = field(default_factory=list)
    shaking: bool = False
    frame: int = 0
    frame_at: float | None = None
    #: Why the last press was refused (a text key), shown on the status line.
    notice: str = ""
    #: Drives a computer player's turn; None for a person's.
    driver: BotDriver | None = None

    def __post_init__(self) -> None:
        if not self.marks:
            self.marks = [False] * self.table.game.rules.dice_count
        table = self.table
        player = table.game.current_player
        if player is not None and table.is_bot(player):
            # Only games with computer players need the driver.
            from firmware.app.stages.bot_driver import BotDriver

            session = self.session
            self.driver = BotDriver(
                self, table.game, table.bots[player], ask=session.ask, now=lambda: session.now
            )

    @property
    def bot_plays(self) -> bool:
        return self.driver is not None

    @property
    def allows_blind(self) -> bool:
        return self.driver is None

    def announce_blind(self) -> Transition:
        return self.stand(blind=True)

    def start_shaking(self, at: float) -> None:
        """The cup starts shaking at ``at`` (the animation's first frame is one step later)."""
        self.shaking = True
        self.frame = 0
        self.frame_at = at + FRAME_S

    def cup_down(self) -> Transition | None:
        """The shaking cup comes down: the dice that are not marked fall, if a throw is left."""
        transition = self.throw() if self.shaking and self.table.game.can_roll() else None
        self.shaking = False
        return transition

    def show_marks(self, marks: list[bool]) -> None:
        """Mark these dice to lay out (a computer player shows them before its throw)."""
        self.marks = marks

    # --- a person's input -----------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> Transition | None:
        game = self.table.game
        self.notice = ""
        kind, button = event.kind, event.button
        if kind is InputKind.LONG_PRESS and button is Button.FLIP:
            return None if self.shaking else self._hint()
        if kind is InputKind.SHAKE_START:
            if game.can_roll():
                self.start_shaking(event.at)
            else:
                self.notice = "notice_stand"
        elif kind is InputKind.THROW:
            return self.cup_down()
        elif kind is InputKind.PRESS and button in _KEEPS:
            self._toggle(_KEEPS[button])
        elif kind is InputKind.PRESS and button is Button.FLIP:
            refusal = game.flip_problem()
            if refusal is None:
                self.flip()
            else:
                shake_first = refusal.reason is Reason.NOT_THROWN
                self.notice = "notice_shake_first" if shake_first else "notice_no_flip"
        elif kind is InputKind.PRESS and button is Button.STAND:
            refusal = game.stand_problem()
            if refusal is None:
                return self.stand()
            self.notice = _notice(refusal, _STAND_NOTICES, "notice_shake_first")
        return None

    def _toggle(self, index: int) -> None:
        game = self.table.game
        if index >= game.rules.dice_count:
            return
        marks = list(self.marks)
        marks[index] = not marks[index]
        keep = tuple(i for i, marked in enumerate(marks) if marked)
        refusal = game.keep_problem(keep)
        if refusal is not None:
            self.notice = _notice(refusal, _KEEP_NOTICES, "notice_not_allowed")
            return
        self.marks = marks
        self.table.mark(marks)

    def _hint(self) -> Transition:
        return hint_for(self.session, self.table.game)

    # --- actions, for a person and a computer player alike --------------------------------------

    def throw(self) -> Goto | None:
        """Throw the dice that are not marked, from the dice source."""
        game = self.table.game
        turn = game.turn
        assert turn is not None
        keep = tuple(i for i, marked in enumerate(self.marks) if marked) if turn.throws else ()
        return self.throw_with(keep, self.session.dice.throw(game.dice_to_throw(keep)))

    def throw_with(self, keep: tuple[int, ...], dice: tuple[int, ...]) -> Goto | None:
        """Throw ``dice`` with the dice at ``keep`` laid out; a last throw ends the turn."""
        table = self.table
        moments = table.roll(keep, dice, shows_dice=not self.bot_plays)
        if moments is not None:
            return Goto(tuple(moments))
        after = table.game.turn
        assert after is not None
        self.marks = list(after.laid_out)
        return None

    def flip(self) -> None:
        """Turn two sixes into a one; a six that was only marked goes back into the cup."""
        self.marks = list(self.table.flip(self.marks))

    def stand(self, *, blind: bool = False) -> Goto:
        """End the turn as the dice lie, or by Blind."""
        return Goto(tuple(self.table.stand(blind=blind)))

    # --- timers ---------------------------------------------------------------------------------

    def frame_deadline(self) -> float | None:
        return self.frame_at if self.shaking else None

    def advance_frames(self, now: float) -> bool:
        frame_at = self.frame_at
        if not self.shaking or frame_at is None or now < frame_at:
            return False
        steps = int((now - frame_at) / FRAME_S) + 1
        self.frame += steps
        self.frame_at = frame_at + steps * FRAME_S
        return True

    def auto_at(self, now: float) -> float | None:
        return None if self.driver is None else self.driver.next_step_at(now)

    def auto_step(self) -> Transition | None:
        return None if self.driver is None else self.driver.step()

    # --- the screen -----------------------------------------------------------------------------

    def view(self) -> TurnView:
        # A computer player's dice in the cup stay hidden under a hidden last throw, as at a
        # real table; a person holding the device sees their own.
        return self._view(None if self.driver is not None else self.table.game.current_player)

    def table_view(self) -> TurnView:
        return self._view(None)

    def table_cup(self) -> TableCup:
        dice = self.table_view().dice
        return TableCup(
            self.table.game.current_player or "", tuple(face.value for face in dice),
            tuple(face.out for face in dice), self.shaking,
        )  # fmt: skip

    def _view(self, observer: str | None) -> TurnView:
        """The turn screen as ``observer`` sees the cup (None: anyone who is not throwing)."""
        table = self.table
        t, game = self.session.t, table.game
        turn = game.turn
        assert turn is not None
        seen = game.table_view(observer).current
        assert seen is not None
        faces = []
        # A mark is laid out only by the next throw. A person's mark may still be taken back or
        # end in a stand, so a die the engine covers stays in the cup for the table until the
        # shaking commits it; a computer player's marks always go with its throw.
        committed = self.shaking or self.driver is not None
        for i, value in enumerate(turn.values):
            covered = seen.values[i] is None
            if (
                turn.throws == 0
                or (covered and not (committed and self.marks[i]))
                or (self.shaking and not self.marks[i])
            ):
                faces.append(DieFace(None))
            else:
                fixed = turn.laid_out[i] and not game.rules.take_back
                faces.append(DieFace(value, out=self.marks[i], fixed=fixed))
        hidden = seen.covered  # never before the first throw
        if self.driver is not None:
            status = t(self.driver.activity or "bot_thinks")
            if not self.driver.activity and not hidden and turn.throws:
                status = t("status_flipped") if turn.flipped else _throw_name(table, turn)
        elif hidden and not self.shaking:
            status = t("status_covered")
        elif self.notice:
            status = t(self.notice)
        elif self.shaking:
            status = t("status_shaking")
        elif turn.throws == 0:
            status = t("status_shake")
        elif game.can_flip():
            status = t("status_flip")
        elif not game.can_roll():
            status = t("status_stand")
        elif turn.flipped:
            # The other six went back into the cup: there is no throw to name until it is thrown.
            status = t("status_flipped")
        else:
            status = _throw_name(table, turn)
        return TurnView(
            shown_name(table, turn.player),
            t("throw_of", n=turn.throws, limit=turn.limit),
            tuple(faces),
            status,
            # A refusal takes the whole status line; the pot is back with the next press.
            "" if self.notice and self.driver is None else pot_text(t, table),
            scoreboard(table, turn.player),
            shaking=self.shaking,
            frame=self.frame,
        )


def _throw_name(table: Table, turn: TurnState) -> str:
    values = [v for v in turn.values if v is not None]
    return table.game.evaluate(values, turn.hand).name


@dataclass(eq=False)
class TurnDoneStage(Stage):
    """A turn ended by its last throw: the thrower sees the dice until a press."""


    session: Session
    table: Table
    player: str
    throws: int
    limit: int
    faces: tuple[DieFace, ...]
    throw_name: str
    #: Why the last press did not go on (a text key), shown on the status line.
    notice: str = ""

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is InputKind.LONG_PRESS and event.button is Button.FLIP:
            self.notice = "notice_no_hint_turn_over"  # the hint is for a turn under way
            return None
        return CONTINUE if event.kind in (InputKind.PRESS, InputKind.LONG_PRESS) else None

    def auto_at(self, now: float) -> float | None:
        return now + BOT_PAUSE_S if self.table.only_bots() else None

    def auto_step(self) -> Transition | None:
        return CONTINUE

    def view(self) -> TurnView:
        if self.notice:  # the whole line, as on the turn screen
            return self._view(self.faces, self.session.t(self.notice), side="")
        return self._view(self.faces, self.throw_name)

    def table_view(self) -> TurnView:
        seen = self.table.game.last_turn()
        if seen is None or seen.player != self.player or not seen.covered:
            return self.view()
        faces = tuple(
            face if value is not None else DieFace(None)
            for face, value in zip(self.faces, seen.values, strict=True)
        )
        return self._view(faces, self.session.t("status_covered"))

    def _view(self, faces: tuple[DieFace, ...], status: str, side: str | None = None) -> TurnView:
        t = self.session.t
        return TurnView(
            shown_name(self.table, self.player),
            t("throw_of", n=self.throws, limit=self.limit),
            faces,
            status,
            t("key_continue") if side is None else side,
            scoreboard(self.table, self.player),
        )

