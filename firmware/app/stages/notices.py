"""What the device says once on its screen about its own state, the log saying why.

State files found damaged and set aside when the device started, a game that is no longer saved
(the storage failed), a damaged ``spieltag.json`` found when a game began or resumed, with
whether that game still counts for the evening, and a game the evening's scheme cannot score
("Platzpunkte zählt zu dritt oder zu viert: dieses Spiel zählt nicht"), before its first
throw. :class:`Notices` remembers what it said, so the
shell asks it after every input and each is said once, until it changes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware.app.session.session import Session
from firmware.app.stages.overlays import Message
from firmware.app.stages.standings import evening_damage_lines, uncounted_message

__all__ = ["Notices"]

logger = logging.getLogger(__name__)


@dataclass(eq=False)
class Notices:
    """The messages about the device's storage, each put up once."""

    session: Session
    #: The storage failure and the Spieltag's damage said last (None: nothing yet).
    failure_shown: str | None = None
    evening_shown: str | None = None
    #: The game whose not counting was said last.
    uncounted_shown: object = None

    def damaged_state(self) -> list[Message]:
        """One message per state file set aside as damaged when the device started."""
        t = self.session.t
        return [Message("state_damaged_title", report.screen_lines(t))
                for report in self.session.damage_found]

    def due(self) -> list[Message]:
        """What is to be said now and was not yet: that the game is no longer saved, or that
        the Spieltag's file is damaged (whether the game still counts for it)."""
        session, t = self.session, self.session.t
        due = []
        failure = session.storage_failure
        if failure is not None and failure != self.failure_shown:
            self.failure_shown = failure
            due.append(Message("storage_failed_title", (t("storage_failed_1"),
                                                        t("storage_failed_2"))))
        problem = session.evening_problem
        if problem is not None and problem != self.evening_shown:
            self.evening_shown = problem
            logger.warning("%s", problem)
            # Whether the game still belongs to the evening.
            kept = bool(session.table_spieltag)
            lines = evening_damage_lines(session.catalogue, kept, this_game=True)
            due.append(Message("evening_damaged_title", lines))
        scheme, table = session.uncounted_under, session.table
        if scheme is not None and table is not None and table is not self.uncounted_shown:
            self.uncounted_shown = table
            due.append(uncounted_message(session.catalogue, scheme))
        return due
