"""The game at the table: the engine's game, its computer players, and the round log.

:meth:`Table.apply` is the only way an action's events leave the game: first into the journal
(durable), then to the event sink; a screen shows an action only after that. :meth:`Table.follow`
is the round log: it reads the events an action caused and says which stages come next (the
reveal, banners for a penalty, a lost half, the final, the end of the game, and the hand-over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.events import (
    Drop,
    Event,
    FinalStarts,
    GameOver,
    HalfOver,
    PenaltyGiven,
    RollOff,
    RoundOver,
    RoundStarted,
    TurnOver,
    to_json,
)
from engine.game import FINAL, Game, Phase
from firmware.app.reveal import GameOverBanner, HalfOverBanner, PenaltyBanner, RevealStage
from firmware.app.rolloff import RollOffStage
from firmware.app.setup import marked
from firmware.app.stage import Stage
from firmware.app.turn import HandOverStage
from firmware.screen.views import Tally

if TYPE_CHECKING:
    from engine.bots import StrategyBot
    from firmware.app.context import AppContext

__all__ = ["SECTION_KEYS", "Table"]

#: The text key of each section: the two Hälften (halves) and the Finale.
SECTION_KEYS = {1: "section_1", 2: "section_2", FINAL: "section_final"}


class Table:
    """One game: the engine's :class:`~engine.game.Game`, who the computer plays, the round log."""

    def __init__(self, ctx: AppContext, game: Game, bots: dict[str, StrategyBot]) -> None:
        self.ctx = ctx
        self.game = game
        #: The computer players, by name.
        self.bots = bots
        #: The section (1, 2 or :data:`~engine.game.FINAL`) and round the log is in.
        self.section, self.round_number = 1, 0
        #: This round's finished turns, for the reveal.
        self.round_turns: list[TurnOver] = []
        #: False while a journal is replayed on resume: the listeners saw those events before.
        self.recording = True

    # --- who is who -----------------------------------------------------------------------------

    def is_bot(self, name: str | None) -> bool:
        return name is not None and name in self.bots

    def only_bots(self) -> bool:
        """Whether everyone still playing this section is a computer player."""
        return all(name in self.bots for name in self.game.in_play())

    def label(self, name: str) -> str:
        """A player's name as shown: with the computer mark if the device plays it."""
        return marked(name, name in self.bots)

    def board(self, current: str | None) -> tuple[Tally, ...]:
        """Every player's Deckel for the score bar, ``current`` highlighted."""
        game = self.game
        return tuple(
            Tally(self.label(name), game.holdings[name], name == current, name in game.out)
            for name in game.participants
        )

    def section_name(self, section: int) -> str:
        """The first or second Hälfte (half) or the Finale, in words."""
        return self.ctx.t(SECTION_KEYS[section])

    # --- actions and their consequences ---------------------------------------------------------

    def apply(self, events: list[Event]) -> None:
        """An action was applied: write it durably first (the screen shows it only after this)."""
        store = self.ctx.store
        if store is not None and self.recording:
            store.record(events)
        if not self.recording:
            return
        for event in events:
            self.ctx.emit(to_json(event))

    def follow(self, events: Sequence[Event]) -> list[Stage]:
        """Follow round and section changes; return the stages they call for, in order."""
        stages: list[Stage] = []
        half: HalfOverBanner | None = None
        for event in events:
            if isinstance(event, RoundStarted):
                self.round_turns = []
                self.section, self.round_number = event.section, event.number
            elif isinstance(event, TurnOver):
                self.round_turns.append(event)
            elif isinstance(event, RoundOver):
                stages.append(
                    RevealStage(self, tuple(self.round_turns), event, self.round_number)
                )
            elif isinstance(event, Drop):
                self._dropped(event.player)
            elif isinstance(event, PenaltyGiven):
                stages.append(PenaltyBanner(self, event))
                self.round_turns = [t for t in self.round_turns if t.player not in event.out]
            elif isinstance(event, HalfOver):
                half = HalfOverBanner(self, event)
                stages.append(half)
            elif isinstance(event, FinalStarts) and half is not None:
                half.final = event.players
            elif isinstance(event, GameOver):
                stages.append(GameOverBanner(self))
        game = self.game
        started = any(isinstance(event, RoundStarted) for event in events)
        if started and not game.is_over and not isinstance(events[0], RollOff):
            player = game.current_player
            assert player is not None
            stages.append(HandOverStage(self, player))
        return stages

    def _dropped(self, player: str) -> None:
        """A dropped cup's row for the reveal: in place of the player's turn, or next in line."""
        row = TurnOver(player, (), False, 0, self.ctx.t("dropped_row"), 0)
        players = [turn.player for turn in self.round_turns]
        if player in players:
            self.round_turns[players.index(player)] = row
        else:
            self.round_turns.append(row)

    def next(self) -> Stage:
        """The stage the game calls for when nothing is queued."""
        game = self.game
        if game.is_over:
            return GameOverBanner(self)
        if game.phase is Phase.ROLL_OFF:
            return RollOffStage(self.ctx, self)
        player = game.current_player
        assert player is not None
        return HandOverStage(self, player)
