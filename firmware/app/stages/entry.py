"""Real dice at the table ("Echte Würfel"): a turn's result, or a roll-off throw, entered on the
five buttons.

* KEEP_n steps die n up (1-6, wrapping); a hold steps it down, so a six is one hold from the one
  every die starts on. The dice start on ones: after two ones the third die decides the Schock.
* FLIP steps the throws (1 up to what the round allows, wrapping); a hold on FLIP switches
  between "from the hand" and "built up", which the screen names only where the rules count
  them differently (``hand_only``, ``naturschock_above_built``, the DSM's Straße).
* STAND confirms. The engine checks the report and says why it refuses one
  (:meth:`engine.game.Game.why_not`), worded here on the status line. The round's last entry
  waits for one more STAND ("STAND: abrechnen", settle): until then any other button changes
  it again, so that the last entry can be corrected before the round is settled, like the
  others.

The same stage corrects a report of the round before it is settled (from the menu, "Korrigieren"),
and enters the roll-off's throws one contender after another. A correction begun can be left
unmade (the menu again, "Korrektur abbrechen"; its screen says so until the first button): the
entry it interrupted comes back as it stood. Every step is noted in the journal
(a UI note), so a pulled plug comes back to the same entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import Reason
from engine.events import Correct, Report
from engine.game import Phase
from firmware.app.session.moments import RollOffThrown
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.app.stages.base import Goto, Stage, Transition
from firmware.app.stages.players import pot_text, scoreboard, shown_name
from firmware.screen.views import DieFace, TurnView
from hal.ports import Button, InputEvent, InputKind

__all__ = ["EntryStage"]

_DICE_BUTTONS = {Button.KEEP_1: 0, Button.KEEP_2: 1, Button.KEEP_3: 2}

#: What the entry screen says when the engine refuses a report, by the engine's reason.
_NOTICES = {
    Reason.OVER_LIMIT: "notice_over_limit",
    Reason.IMPOSSIBLE_REPORT: "notice_impossible",
    Reason.CORRECTION_CONFLICT: "notice_correction_conflict",
    Reason.BLIND_TOO_LATE: "notice_blind_one_throw",
}


@dataclass(eq=False)
class EntryStage(Stage):
    """Enter one result thrown with real dice: the current turn's, a correction of
    ``correcting``'s report, or (in the roll-off) the next contender's throw."""

    session: Session
    table: Table
    dice: list[int] = field(default_factory=list)
    throws: int = 0
    hand: bool = True
    #: Whose report of this round is put right (None: the current turn's).
    correcting: str | None = None
    #: The roll-off throws entered so far, one per contender in seat order.
    roll_off: list[tuple[int, ...]] = field(default_factory=list)
    #: Why the last confirmation was refused (a text key), shown on the status line.
    notice: str = ""
    #: The round's last entry is confirmed once and waits for STAND to settle the round.
    settling: bool = False
    #: A correction's way back: the entry it interrupted (None: after a restart, or none).
    resumes: EntryStage | None = None
    #: No button was pressed on this correction yet: its status line says how to cancel it.
    untouched: bool = True

    def __post_init__(self) -> None:
        game = self.table.game
        if len(self.dice) != game.rules.dice_count:
            self.dice = [1] * game.rules.dice_count
        if self.rolling_off:
            self.throws, self.hand = 1, True
        elif not 1 <= self.throws <= self._most_throws():
            # Most turns use every throw the round allows.
            self.throws = self._default_throws()
            self.hand = self.throws == 1

    @property
    def rolling_off(self) -> bool:
        return self.table.game.phase is Phase.ROLL_OFF

    @property
    def player(self) -> str:
        """Whose result is being entered."""
        game = self.table.game
        if self.correcting is not None:
            return self.correcting
        if self.rolling_off:
            return game.contenders[len(self.roll_off)]
        assert game.current_player is not None
        return game.current_player

    @property
    def allows_blind(self) -> bool:
        return not self.rolling_off and self.correcting is None and self.table.game.rules.blind

    def announce_blind(self) -> Transition | None:
        """Blind after the first throw: the dice as entered, one throw, from the hand."""
        self.throws, self.hand = 1, True
        return self._confirm(blind=True)

    @property
    def _corrects_opener(self) -> bool:
        game = self.table.game
        return self.correcting is not None and self.correcting == game.round_players[0]

    def _most_throws(self) -> int:
        game = self.table.game
        if self._corrects_opener:
            return game.rules.max_throws  # a corrected opener sets the limit anew
        return game.reported_throws_allowed()

    def _default_throws(self) -> int:
        game = self.table.game
        return game.rules.max_throws if game.limit is None else game.limit

    # --- input ----------------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> Transition | None:
        kind, button = event.kind, event.button
        if kind not in (InputKind.PRESS, InputKind.LONG_PRESS):
            return None
        self.notice = ""
        self.untouched = False
        if button is Button.STAND and kind is InputKind.PRESS and self.settling:
            return self._settle()
        self.settling = False
        if button in _DICE_BUTTONS:
            index = _DICE_BUTTONS[button]
            if index < len(self.dice):
                step = 1 if kind is InputKind.PRESS else -1
                self.dice[index] = (self.dice[index] - 1 + step) % 6 + 1
        elif button is Button.FLIP and kind is InputKind.PRESS and not self.rolling_off:
            self.throws = self.throws % self._most_throws() + 1
            self.hand = self.throws == 1
        elif button is Button.FLIP and not self.rolling_off:
            if self.throws == 1:
                self.notice = "notice_one_throw_hand"
            else:
                self.hand = not self.hand
        elif button is Button.STAND and kind is InputKind.PRESS:
            return self._confirm()
        else:
            return None
        self._note()
        return None

    def cancel_correction(self) -> Transition:
        """Leave this correction unmade: back to the entry it interrupted as it stood (after a
        restart, the current turn's entry afresh), noted so that a pulled plug comes back
        there and not to the correction."""
        back = self.resumes if self.resumes is not None else EntryStage(self.session, self.table)
        back._note()
        return Goto((back,), keep_queue=False)

    def _note(self) -> None:
        self.table.entering(
            self.dice, self.throws, self.hand, correcting=self.correcting,
            roll_off=self.roll_off, settling=self.settling,
        )

    def _confirm(self, *, blind: bool = False) -> Transition | None:
        table, game = self.table, self.table.game
        dice = tuple(self.dice)
        if self.rolling_off:
            self.roll_off.append(dice)
            if len(self.roll_off) < len(game.contenders):
                self.dice = [1] * game.rules.dice_count
                self._note()
                return None
            contenders, throws = game.contenders, tuple(self.roll_off)
            table.roll_off(throws)
            return Goto((RollOffThrown(contenders, throws),))
        if self.correcting is not None:
            action: Report | Correct = Correct(self.correcting, dice, self.throws, self.hand)
        else:
            action = Report(self.player, dice, self.throws, self.hand, blind)
        refusal = game.why_not(action)
        if refusal is not None:
            self.notice = _NOTICES.get(refusal.reason, "notice_not_allowed")
            return None
        if isinstance(action, Report) and not blind and self._settles_round:
            self.settling = True  # one more STAND settles the round; any other button edits
            self._note()
            return None
        if isinstance(action, Correct):
            moments = table.correct(action.player, dice, self.throws, self.hand)
        else:
            moments = table.report(dice, self.throws, self.hand, blind=blind)
        return Goto(tuple(moments))

    @property
    def _settles_round(self) -> bool:
        """Whether the current turn's report is the round's last: it settles the round."""
        game = self.table.game
        return len(game.results) + 1 >= len(game.round_players)

    def _settle(self) -> Transition:
        """The round's last entry, confirmed twice: settle the round (the reveal comes next)."""
        self.settling = False
        return Goto(tuple(self.table.report(tuple(self.dice), self.throws, self.hand)))

    # --- the screen -----------------------------------------------------------------------------

    def table_view(self) -> TurnView:
        """Under ``hidden_last_throw`` the link's watchers see the round at the reveal, as the
        engine covers a finished turn until then: not the dice being entered."""
        view = self.view()
        if self.rolling_off or not self.table.game.rules.hidden_last_throw:
            return view
        faces = tuple(DieFace(None) for _ in self.dice)
        return TurnView(view.player, view.throw_text, faces, self.session.t("status_covered"),
                        pot_text(self.session.t, self.table), view.board)

    def view(self) -> TurnView:
        t, table, game = self.session.t, self.table, self.table.game
        player = self.player
        side = pot_text(t, table)
        if self.rolling_off:
            top, status = "", t("rolloff_title")
            side = t("entry_rolloff", n=len(self.roll_off) + 1, total=len(game.contenders))
        else:
            # The limit as the table states it ("max. 2 Würfe"): the opener's, once known.
            opener = game.limit is None or self._corrects_opener
            limit = game.rules.max_throws if opener else game.limit
            key = "entry_correct" if self.correcting is not None else "entry_throws"
            top = t(key, n=self.throws, limit=limit)
            status = game.evaluate(self.dice, self.hand).name
        # Beside the throw: from the hand or built up where the rules tell them apart, else the pot.
        if not self.rolling_off and game.hand_matters(self.dice):
            side = t("entry_hand" if self.hand else "entry_built")
        if self.settling:  # the whole line, as a notice
            status, side = t("entry_settle"), ""
        if self.correcting is not None and self.untouched:
            status, side = t("entry_correct_cancel"), ""
        if self.notice:
            status, side = t(self.notice), ""
        return TurnView(
            shown_name(table, player),
            top,
            tuple(DieFace(value) for value in self.dice),
            status,
            side,
            scoreboard(table, player),
        )
