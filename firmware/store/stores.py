"""The device's stores, opened together from one state directory.

:func:`open_stores` is where the wiring (or a test) opens what the app keeps: the games
(:class:`~firmware.store.gamestore.GameStore`), the last setup
(:class:`~firmware.store.setupfile.SettingsFile`) and the remembered names
(:class:`~firmware.store.roster.RosterFile`). A damaged setup or names file is set aside beside
the games, where the app reports it on the screen, and the device starts from its
configuration. The app is handed the stores; it opens none itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.store.gamestore import GameStore
from firmware.store.roster import ROSTER_FILE, RosterFile
from firmware.store.setupfile import SETUP_FILE, SettingsFile
from hal.ports import Storage

__all__ = ["Stores", "open_stores"]


@dataclass(frozen=True, slots=True)
class Stores:
    """What the device keeps: the games (None without a state directory), the last setup and
    the remembered names (both in memory only without one)."""

    games: GameStore | None
    settings: SettingsFile
    roster: RosterFile


def open_stores(storage: Storage | None) -> Stores:
    """The stores on ``storage``, or stores that keep nothing (None)."""
    games = GameStore(storage) if storage is not None else None
    settings = SettingsFile(storage)
    if games is not None and settings.damage is not None:
        games.set_aside(SETUP_FILE, f"{settings.damage}; the setup starts from the configuration")
    roster = RosterFile(storage)
    if games is not None and roster.damage is not None:
        games.set_aside(ROSTER_FILE, f"{roster.damage}; the names start from the configuration")
    return Stores(games, settings, roster)
