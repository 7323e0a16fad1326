"""The device as one table of a tournament: its card from the menu, and the assigned game.

The card (:class:`TableCard`) shows what the hub assigned this table, "Tisch 7 · Runde 2" (the
hub sends the table's number; the card words it in the device's language), its players (in a
KO round those with a life left; a name longer than the screen shows, shortened as on every
screen), the time left in the round, and whether every finished half and game has reached the
hub: "gemeldet ✓" or "noch nicht gemeldet (3)". Between games its OK starts the assigned game
with those players (every seat a person; a KO table with one player left plays no more: "Tisch
ausgespielt"). A name the device's one name rule refuses (:func:`firmware.names.name_problem`:
a character the screen cannot draw, say, from a hub that checked less) is never played: the
card says so in one line and OK starts nothing. The game's journal then names
its place in the tournament (:meth:`~firmware.tournament.reporter.Reporter.place_for`), and
the round's end goes to the session's ``time_box_ends_at`` for the time box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game import GameSetup
from firmware.app.stages.base import CLOSE_ALL, OK_BUTTONS, Goto, Overlay, Push, Step, Transition
from firmware.names import name_problem
from firmware.screen.oled_words import OledWords
from firmware.screen.shortnames import short_names
from firmware.screen.views import TableCardView
from hal.ports import InputEvent, InputKind

if TYPE_CHECKING:
    from firmware.app.session.session import Session
    from firmware.tournament.reporter import Reporter

__all__ = ["TableCard", "playable", "report_line", "table_card", "tournament_entries"]


def playable(players: tuple[str, ...]) -> bool:
    """Whether the device can play a game with ``players``: every name passes the one rule of
    a player's name, none twice."""
    return len(set(players)) == len(players) and all(name_problem(p) is None for p in players)


def report_line(texts: OledWords, reporter: Reporter) -> str:
    """"gemeldet ✓", "noch nicht gemeldet (3)", or what keeps the reports from the hub (a
    journal of a tournament game that cannot be read whole among them)."""
    state = reporter.state()
    if state.failure is not None:
        return texts.t("tournament_not_saved")
    if state.unreadable:  # its results may be missing: the director must hear of it
        return texts.t("tournament_unreadable", n=state.unreadable)
    if state.pending:
        return texts.t("tournament_pending", n=state.pending)
    if state.refused:
        return texts.t("tournament_refused", n=state.refused)
    return texts.t("tournament_reported")


def table_card(texts: OledWords, reporter: Reporter, *, can_play: bool) -> TableCardView:
    """The card's view: the assignment (or that there is none yet) and the reports' state."""
    own_label = texts.t("tournament_label", number=reporter.table.number)
    assignment = reporter.assignment
    report = report_line(texts, reporter)
    if assignment is None:  # not drawn yet, or the hub's retained draw not reached yet
        waiting = "tournament_waiting" if reporter.online else "tournament_offline"
        return TableCardView(own_label, (), texts.t(waiting), report, ("", "", "OK"))
    label = texts.t("tournament_label", number=assignment.number)
    title = texts.t("tournament_title", label=label, round=assignment.round)
    left = reporter.time_left()
    players = reporter.players_in()
    if not playable(players):  # never on the screen, never into a game
        return TableCardView(title, (), texts.t("tournament_bad_names"), report, ("", "", "OK"))
    shown = short_names(players)
    if len(players) < 2:  # a KO table with one player left (or none) plays no more game
        clock = texts.t("tournament_table_done")
    elif left is None:
        clock = texts.t("tournament_no_time")
    elif left <= 0:
        clock = texts.t("tournament_time_up")
    else:
        clock = texts.t("tournament_time_left", minutes=math.ceil(left / 60))
    key = texts.t("key_play") if can_play else "OK"
    return TableCardView(title, tuple(shown[p] for p in players), clock, report, ("", "", key))


@dataclass(eq=False)
class TableCard(Overlay):
    """The table's card; between games OK starts the assigned game, any other press closes it
    and the menu."""

    session: Session
    reporter: Reporter

    def can_play(self) -> bool:
        """Whether OK starts the assigned game: there is one, at least two of its players
        are still in (a KO round), their names pass the name rule, and no game is under way."""
        table = self.session.table
        running = table is not None and not table.game.is_over
        players = self.reporter.players_in()
        return len(players) >= 2 and playable(players) and not running

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if event.button in OK_BUTTONS and self.can_play():
            return self.play()
        return CLOSE_ALL

    def play(self) -> Transition:
        """Start the assigned game: its players still in, in the hub's order, every seat a
        person, the device's rules; the round's end is the game's time box."""
        session, assignment = self.session, self.reporter.assignment
        assert assignment is not None
        rules = session.plan.rules if session.plan is not None else session.config.game.rule_set
        setup = GameSetup(self.reporter.players_in(), rules, session.real_dice)
        return Goto((session.start_game(setup, bots=(), round_ends_at=assignment.ends_at),))

    def view(self, texts: OledWords) -> TableCardView:
        return table_card(texts, self.reporter, can_play=self.can_play())


def tournament_entries(session: Session) -> list[tuple[str, Step]]:
    """The menu's "Turnier" entry while the device is a table of a tournament."""
    reporter = session.tournament
    if reporter is None:
        return []

    def show() -> Transition:
        assert reporter is not None
        return Push(TableCard(session, reporter))

    return [("menu_tournament", show)]
