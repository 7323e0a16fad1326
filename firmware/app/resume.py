"""Resuming the game a power cut interrupted, on the screen its last action led to.

Every action but the last is replayed into the game through the round log; the last one goes
through the same stage code as when it was played, so the stage (hand-over, reveal, banners) is
the one the players saw. UI state after the last action that is not an action (which dice were
marked to lay out) comes from the journal's UI note. Nothing replayed is written or announced
again.

The device goes on by itself (the plug was pulled, the players are still at the table). The
simulator asks first: :class:`ResumeQuestion` lies over the resumed game and says whose game it
is and where it stands; OK goes on, "Neu" (after a confirmation) drops it for a new game.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Blind, Drop, Event, Flip, HalfOver, Penalty, Roll, RollOff, Stand
from engine.game import GameSetup
from firmware.app.context import AppContext
from firmware.app.overlays import Menu, Overlay
from firmware.app.rolloff import RollOffStage
from firmware.app.stage import (
    CLOSE_ALL,
    OK_BUTTONS,
    Goto,
    Push,
    Stage,
    Step,
    Transition,
    close_step,
)
from firmware.app.table import SECTION_KEYS, Table
from firmware.app.turn import HandOverStage, TurnStage
from firmware.config import LANGUAGES
from firmware.screen.font import FONT
from firmware.screen.i18n import Catalogue
from firmware.screen.views import BannerView
from firmware.store.journal import Recovery
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind

__all__ = ["ResumeQuestion", "resume"]


def resume(ctx: AppContext, recovery: Recovery) -> list[Stage]:
    """Rebuild the interrupted game in ``ctx``; return the current stage and those queued."""
    assert ctx.store is not None
    seat_bots = recovery.meta.get("bots")
    if isinstance(seat_bots, list) and all(isinstance(b, str) for b in seat_bots):
        ctx.seat_bots = tuple(seat_bots)
    table = ctx.open_table(recovery.setup)
    game = table.game
    stages: list[Stage] = [RollOffStage(ctx, table)]
    table.recording = False
    try:
        for action in recovery.actions[:-1]:
            table.follow(game.apply(action))
        if recovery.actions:
            marks = (recovery.ui or {}).get("marks")
            stages = _replay_last(ctx, table, recovery.actions[-1], marks)
    finally:
        table.recording = True
    # The language the game started in, unless the menu has chosen one since (remembered).
    language = recovery.meta.get("language")
    if ctx.settings.remembered.language is None and language in LANGUAGES:
        ctx.catalogue = Catalogue(str(language))
    ctx.store.resume(recovery)
    ctx.resumed = True
    ctx.emit({"event": "game_resumed", "game": ctx.game_number, "actions": len(recovery.actions)})
    return stages


def _replay_last(ctx: AppContext, table: Table, action: Event, marks: object) -> list[Stage]:
    """The stages after the last action; a turn that goes on gets its marks from the UI note."""
    game = table.game
    turn = game.turn
    if isinstance(action, RollOff):
        roll_off = RollOffStage(ctx, table)
        roll_off.throw_with(action.dice)
        return [roll_off]
    if isinstance(action, Roll):
        stage = TurnStage(table, [i in action.keep for i in range(game.rules.dice_count)])
        transition = stage.throw_with(action.keep, action.dice)
        if transition is not None:
            return list(transition.stages)
        _restore_marks(stage, marks)
        return [stage]
    if isinstance(action, Flip):
        assert turn is not None
        stage = TurnStage(table, list(turn.laid_out))
        stage.flip()
        _restore_marks(stage, marks)
        return [stage]
    if isinstance(action, Stand | Blind):
        stage = TurnStage(table, list(turn.laid_out) if turn else [])
        return list(stage.end_by(game.stand if isinstance(action, Stand) else game.blind).stages)
    assert isinstance(action, Penalty | Drop)
    events = game.apply(action)
    stages = table.follow(events)
    after = game.turn
    if after is not None and not any(isinstance(event, HalfOver) for event in events):
        stages.append(
            TurnStage(table, list(after.laid_out)) if after.throws
            else HandOverStage(table, after.player)
        )
    return stages


def _restore_marks(stage: TurnStage, marks: object) -> None:
    """Mark the dice the journal's UI note remembers, if they may be laid out."""
    if not isinstance(marks, list) or len(marks) != len(stage.marks):
        return
    keep = tuple(i for i, marked in enumerate(marks) if marked is True)
    if keep in set(stage.table.game.legal_keeps()):
        stage.marks = [marked is True for marked in marks]


@dataclass(eq=False)
class ResumeQuestion(Overlay):
    """"Weiterspielen?" over a resumed game: its players, its half and round, who throws.

    KEEP_3 or STAND (OK) and FLIP (back) go on with the game; KEEP_1 ("Neu") asks once more,
    then drops the game and starts ``instead`` (the game the command line asked for) or, without
    one, the setup.
    """

    ctx: AppContext
    instead: GameSetup | None = None

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if event.button in (*OK_BUTTONS, Button.FLIP):
            return CLOSE_ALL
        if event.button is Button.KEEP_1:
            entries: list[tuple[str, Step]] = [("no", close_step), ("yes_new_game", self._new_game)]
            return Push(Menu("confirm_new_game", entries))
        return None

    def _new_game(self) -> Transition:
        return Goto((self.ctx.abandon_game(then=self.instead),))

    def view(self, texts: Catalogue) -> BannerView:
        game = self.ctx.require_table().game
        names = ", ".join(game.players)
        # The players' names if they fit on two lines, else how many they are.
        if FONT.width(names) > 2 * (SCREEN_SIZE[0] - 2) - FONT.width("WWWWWWWWWW"):
            names = texts.t("resume_players", n=len(game.players))
        lines = [names]
        if game.round_number == 0:
            lines.append(texts.t("rolloff_title"))
        else:
            section = texts.t(SECTION_KEYS[game.section])
            lines.append(f"{section}, {texts.t('round_n', n=game.round_number)}")
        if game.current_player is not None:
            lines.append(texts.t("resume_turn", name=game.current_player))
        keys = (texts.t("key_new_game"), "", texts.t("key_resume"))
        return BannerView(texts.t("resume_title"), "", tuple(lines), keys)
