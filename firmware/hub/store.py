"""The hub's SQLite file: the tournament's source of truth.

One file per tournament (``schocken hub init --db FILE``), in WAL mode so the TV's reads never
wait for an intake. Each result is stored in one transaction under its id (the primary key), so
a result the broker delivers twice, or a table sends again after a pulled plug, is stored once;
the hub acknowledges a result only after that transaction committed. What the hub refused is
kept too, with the reason (``refusals``), and counted nowhere but in that list.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tournament import Entrant, PhaseKind
from firmware.hub.desk_tables import DESK_SCHEMA
from firmware.wire.messages import RoundStage, round_stage

__all__ = ["HubStore", "HubStoreError", "RoundRow", "SeatRow", "StoredResult"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, team TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    number INTEGER PRIMARY KEY, state TEXT NOT NULL, seed INTEGER NOT NULL,
    starts_at REAL, ends_at REAL);
CREATE TABLE IF NOT EXISTS seats (
    round INTEGER NOT NULL, table_no INTEGER NOT NULL, kind TEXT NOT NULL,
    players TEXT NOT NULL, lives TEXT NOT NULL, PRIMARY KEY (round, table_no));
CREATE TABLE IF NOT EXISTS results (
    id TEXT PRIMARY KEY, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
    game INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
    received_at REAL NOT NULL, approved INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS refusals (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, topic TEXT NOT NULL,
    result_id TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    table_no INTEGER PRIMARY KEY, online INTEGER NOT NULL, outbox INTEGER NOT NULL,
    at REAL NOT NULL);
"""


class HubStoreError(Exception):
    """The file cannot be the hub's store (missing, not SQLite, another program's): one line."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round: ``drawn``, ``running`` or ``finished``; its time box once started."""

    number: int
    state: RoundStage
    seed: int
    starts_at: float | None
    ends_at: float | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One table of a round: its number, kind (points, ko, trost), players and their lives."""

    round: int
    table_no: int
    kind: PhaseKind
    players: tuple[str, ...]
    lives: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class StoredResult:
    """A result as stored: its wire payload (JSON) and whether it counts yet."""

    id: str
    round: int
    table_no: int
    game: int
    kind: str
    payload: str
    received_at: float
    approved: bool


class HubStore:
    """The hub's tables in one SQLite file; safe to share between threads (one lock)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        if not create and not path.is_file():
            raise HubStoreError(
                f"{path}: no such tournament file; make one with `schocken hub init --db {path}`"
            )
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA + DESK_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise HubStoreError(f"{path}: not a tournament file ({error})") from None
        self.path = path
        self._lock = threading.RLock()
        #: Transactions this connection committed (with :meth:`data_version`: whether anything
        #: changed since a value was computed).
        self.writes = 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self.writes += 1

    def _rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, args))

    def select(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """The rows of one read (our own SQL): for the desk's tables (:mod:`firmware.hub.desk`)."""
        return self._rows(sql, *args)

    def data_version(self) -> int:
        """A number that changes when another connection (another process) commits."""
        return int(self._rows("PRAGMA data_version")[0][0])

    # -- settings and players -------------------------------------------------------------------

    def get(self, key: str, default: str = "") -> str:
        rows = self._rows("SELECT value FROM settings WHERE key = ?", key)
        return str(rows[0][0]) if rows else default

    def set(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def add_players(self, entrants: Sequence[Entrant]) -> int:
        """Register players (in one transaction); HubStoreError naming one already there."""
        known = {e.name for e in self.players()}
        for entrant in entrants:
            if entrant.name in known:
                raise HubStoreError(f"player {entrant.name!r} is registered already")
            known.add(entrant.name)
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO players (name, team) VALUES (?, ?)",
                [(e.name, e.team) for e in entrants],
            )
        return len(entrants)

    def players(self) -> list[Entrant]:
        """The registered players, in the order registered."""
        return [
            Entrant(str(name), str(team))
            for name, team in self._rows("SELECT name, team FROM players ORDER BY seq")
        ]

    # -- rounds and seats ---------------------------------------------------------------------

    def rounds(self) -> list[RoundRow]:
        return [
            RoundRow(int(n), _stage(s), int(seed), _float(a), _float(b))
            for n, s, seed, a, b in self._rows(
                "SELECT number, state, seed, starts_at, ends_at FROM rounds ORDER BY number"
            )
        ]

    def round(self, number: int) -> RoundRow | None:
        return next((r for r in self.rounds() if r.number == number), None)

    def save_draw(self, number: int, seed: int, tables: Sequence[SeatRow]) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO rounds VALUES (?, 'drawn', ?, NULL, NULL)", (number, seed))
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                [
                    (number, t.table_no, t.kind.value, json.dumps(t.players),
                     json.dumps(dict(t.lives)))
                    for t in tables
                ],
            )

    def set_round(
        self, number: int, state: RoundStage, starts_at: float | None, ends_at: float | None
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE rounds SET state = ?, starts_at = ?, ends_at = ? WHERE number = ?",
                (state, starts_at, ends_at, number),
            )

    def seats(self, number: int) -> list[SeatRow]:
        return [
            SeatRow(
                number,
                int(table_no),
                _kind(kind),
                tuple(json.loads(str(players))),
                tuple(json.loads(str(lives)).items()),
            )
            for table_no, kind, players, lives in self._rows(
                "SELECT table_no, kind, players, lives FROM seats WHERE round = ? "
                "ORDER BY table_no",
                number,
            )
        ]

    # -- results and refusals -------------------------------------------------------------------

    def store_result(
        self,
        result_id: str,
        round_: int,
        table_no: int,
        game: int,
        kind: str,
        payload: str,
        now: float,
        approved: bool,
    ) -> bool:
        """Store a result in its own transaction; False if its id is stored already."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (result_id, round_, table_no, game, kind, payload, now, int(approved)),
            )
            return cursor.rowcount == 1

    def revision(self) -> tuple[int, int]:
        """Changes whenever this connection or another one commits."""
        with self._lock:
            return self.writes, self.data_version()

    def count(self, table: str, where: str = "1") -> int:
        """How many rows of ``table`` (one of ours) match ``where`` (our own SQL)."""
        return int(self._rows(f"SELECT COUNT(*) FROM {table} WHERE {where}")[0][0])

    def has_result(self, result_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM results WHERE id = ?", result_id))

    def result_payload(self, result_id: str) -> str | None:
        """The stored result ``result_id`` as its wire JSON, or None."""
        rows = self._rows("SELECT payload FROM results WHERE id = ?", result_id)
        return str(rows[0][0]) if rows else None

    def results(self, round_: int | None = None) -> list[StoredResult]:
        """The stored results (of one round), in the order stored."""
        sql = "SELECT * FROM results" + (" WHERE round = ?" if round_ is not None else "")
        args = (round_,) if round_ is not None else ()
        return [
            StoredResult(str(i), int(r), int(t), int(g), str(k), str(p), float(at), bool(ok))
            for i, r, t, g, k, p, at, ok in self._rows(sql + " ORDER BY rowid", *args)
        ]

    def approve(self, result_id: str | None = None) -> int:
        """Let a result (or every one waiting) count; how many were waiting."""
        with self.transaction() as db:
            if result_id is None:
                cursor = db.execute("UPDATE results SET approved = 1 WHERE approved = 0")
            else:
                cursor = db.execute(
                    "UPDATE results SET approved = 1 WHERE approved = 0 AND id = ?", (result_id,)
                )
            return cursor.rowcount

    def refuse(self, topic: str, result_id: str, reason: str, now: float) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO refusals (at, topic, result_id, reason) VALUES (?, ?, ?, ?)",
                (now, topic, result_id, reason),
            )

    def refusals(self) -> list[tuple[float, str, str, str]]:
        """Every refused message: when, on which topic, its id (if it had one), why."""
        return [
            (float(at), str(topic), str(rid), str(reason))
            for at, topic, rid, reason in self._rows(
                "SELECT at, topic, result_id, reason FROM refusals ORDER BY seq"
            )
        ]

    def set_table_status(self, table_no: int, online: bool, outbox: int, at: float) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)",
                (table_no, int(online), outbox, at),
            )

    def table_status(self) -> dict[int, tuple[bool, int, float]]:
        return {
            int(n): (bool(online), int(outbox), float(at))
            for n, online, outbox, at in self._rows("SELECT * FROM tables")
        }


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _stage(value: Any) -> RoundStage:
    stage = round_stage(value)
    if stage is None:
        raise HubStoreError(f"a round's state {value!r} is not drawn, running or finished")
    return stage


def _kind(value: Any) -> PhaseKind:
    try:
        return PhaseKind(value)
    except ValueError:
        raise HubStoreError(f"a table's kind {value!r} is not points, ko or trost") from None
