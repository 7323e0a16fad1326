"""The roll-off (auswürfeln): one throw each decides who opens the first round.

A shake, or OK, throws for everyone still contending; equal best throws roll off again. Once it is
decided, a press or another shake goes on to the first hand-over. When only computer players
contend, they throw by themselves after a pause.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import Phase
from firmware.app.session.moments import RollOffDue
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.app.stages.base import CONTINUE, OK_BUTTONS, Goto, Stage, Transition
from firmware.app.stages.players import short_name, shown_name
from firmware.app.stages.timing import BOT_PAUSE_S
from firmware.screen.font import FONT
from firmware.screen.views import RollOffRow, RollOffView
from hal.ports import SCREEN_SIZE, InputEvent, InputKind

__all__ = ["RollOffStage"]


@dataclass(eq=False)
class RollOffStage(Stage):
    """Everyone throws once; the best throw opens."""


    session: Session
    table: Table
    rows: tuple[RollOffRow, ...] = ()
    shaking: bool = False
    decided: bool = False

    def on_input(self, event: InputEvent) -> Transition | None:
        if self.decided:
            # A press (short or long) or another shake goes on: people reach for the cup as
            # often as a button.
            if event.kind in (InputKind.PRESS, InputKind.LONG_PRESS, InputKind.THROW):
                return CONTINUE
            return None
        if self.table.game.real_dice:
            # Real dice: the tie's throws are entered like the first ones.
            if event.kind in (InputKind.PRESS, InputKind.LONG_PRESS, InputKind.THROW):
                return Goto((RollOffDue(),))
            return None
        if event.kind is InputKind.SHAKE_START:
            self.shaking = True
        elif event.kind is InputKind.THROW or (
            event.kind is InputKind.PRESS and event.button in OK_BUTTONS
        ):
            self.throw()
        return None

    def throw(self) -> None:
        """Throw the dice source's dice for every contender."""
        game = self.table.game
        dice = self.session.dice
        self.throw_with([dice.throw(game.rules.dice_count) for _ in game.contenders])

    def throw_with(self, throws: Sequence[Sequence[int]]) -> None:
        """The roll-off with these throws, one per contender in seat order."""
        contenders = self.table.game.contenders
        self.table.roll_off(throws)
        self.show(contenders, throws)

    def show(self, contenders: Sequence[str], throws: Sequence[Sequence[int]]) -> None:
        """Show the throws ``contenders`` made (the game has taken them already)."""
        table = self.table
        game = table.game
        leaders = game.contenders if game.phase is Phase.ROLL_OFF else ()
        opener = game.current_player
        self.rows = tuple(
            RollOffRow(
                shown_name(table, name),
                tuple(sorted(dice, reverse=True)),
                name in leaders or name == opener,
            )
            for name, dice in zip(contenders, throws, strict=True)
        )
        self.shaking = False
        self.decided = game.phase is not Phase.ROLL_OFF

    def auto_at(self, now: float) -> float | None:
        if self.shaking:
            return None
        table = self.table
        if (
            not self.decided and not table.game.real_dice
            and all(table.is_bot(name) for name in table.game.contenders)
        ):
            return now + BOT_PAUSE_S
        if self.decided and table.only_bots():
            return now + BOT_PAUSE_S
        return None

    def auto_step(self) -> Transition | None:
        if self.decided:
            return CONTINUE
        self.throw()
        return None

    def view(self) -> RollOffView:
        t, table = self.session.t, self.table
        game = table.game
        rows = self.rows
        if self.decided:
            message = t("rolloff_opens", name=short_name(table, game.current_player or ""))
        elif rows:
            tied = ", ".join(short_name(table, name) for name in game.contenders)
            message = t("rolloff_tie", names=tied)
            if FONT.width(message) > SCREEN_SIZE[0] - 2:  # the lit rows say who
                message = t("rolloff_tie_again")
        else:
            message = t("rolloff_shake")
        waiting: tuple[str, ...] = ()
        if not rows:
            waiting = tuple(shown_name(table, name) for name in game.contenders)
        elif self.shaking:
            rows, waiting = (), tuple(shown_name(table, name) for name in game.contenders)
        return RollOffView(t("rolloff_title"), rows, waiting, message, self.shaking)
