"""The players who left at the director's desk, as the store keeps them (its ``leavers``
table, :mod:`firmware.hub.desk_tables`): read for the standings (:class:`Hub.progress
<firmware.hub.hub.Hub>`), written by the desk (:mod:`firmware.hub.desk`)."""

from __future__ import annotations

import sqlite3

from engine.tournament import Leaving, TournamentError
from firmware.hub.store import HubStore, HubStoreError

__all__ = ["leavings", "record_leaving"]


def leavings(store: HubStore) -> tuple[Leaving, ...]:
    """Every player who left, in the order they left."""
    rows = store.select(
        "SELECT name, round, how, after, substitute FROM leavers ORDER BY seq"
    )
    try:
        return tuple(
            Leaving(str(name), int(number), str(how), int(after), str(substitute))
            for name, number, how, after, substitute in rows
        )
    except TournamentError as error:
        raise HubStoreError("hub_bad_leaving", path=str(store.path), reason=str(error)) from None


def record_leaving(db: sqlite3.Connection, leaving: Leaving) -> None:
    """Keep ``leaving`` (inside the desk's transaction)."""
    db.execute(
        "INSERT INTO leavers (name, round, how, after, substitute) VALUES (?, ?, ?, ?, ?)",
        (leaving.name, leaving.round, leaving.how, leaving.after, leaving.substitute),
    )
