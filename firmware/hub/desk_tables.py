"""The director's desk's own tables in the hub's SQLite file (:mod:`firmware.hub.store` makes
them with its own): the roster's full names, the players withdrawn, disqualified or replaced,
and the history of the desk's actions after the draw (``desk_log``: who left, a draw redone, a
round reopened), with who, when and why. A game's result changed at the desk is kept apart, in
the store's own ``desk`` with the result before and after.

A leaf of text (it imports nothing), so that the store can make these tables without importing
the desk's modules, which import the store.
"""

from __future__ import annotations

__all__ = ["DESK_SCHEMA"]

DESK_SCHEMA = """
CREATE TABLE IF NOT EXISTS roster (name TEXT PRIMARY KEY, full_name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS leavers (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, round INTEGER NOT NULL,
    how TEXT NOT NULL, after INTEGER NOT NULL, substitute TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS desk_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, who TEXT NOT NULL,
    action TEXT NOT NULL, round INTEGER NOT NULL, detail TEXT NOT NULL, why TEXT NOT NULL);
"""
