"""The hub's SQLite file: the tournament's source of truth.

One file per tournament (``schocken hub init --db FILE``), in WAL mode so the TV's reads never
wait for an intake. Each result is stored in one transaction under its id (the primary key), so
a result the broker delivers twice, or a table sends again after a pulled plug, is stored once;
the hub acknowledges a result only after that transaction committed. What the hub refused is
kept too, with the reason (``refusals``): the first :attr:`HubStore.kept_refusals` of each
source (the table's topic level), and every one counted (``refusal_counts``), so that a table
sending junk costs the disk a bounded amount. What the broker denied (from its log) is counted
per login and kind (``denials``).
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
from firmware.hub.hub_words import SaidError
from firmware.wire.messages import RoundStage, round_stage

__all__ = [
    "DenialRow", "DeskRow", "HubStore", "HubStoreError", "RefusalRow", "RoundRow", "SeatRow",
    "StoredResult",
]  # fmt: skip

#: The longest reason a refusal keeps (a field's value quoted in it is cut).
MAX_REASON = 300
#: The longest payload a refusal keeps, for the director to accept (a game's is about 460 B).
MAX_REFUSED_PAYLOAD = 2048
#: Columns added since the first files, with their defaults for the rows already there.
_ADDED_COLUMNS = {
    "refusals": (("source", "TEXT NOT NULL DEFAULT ''"), ("payload", "TEXT NOT NULL DEFAULT ''"),
                 ("said", "TEXT NOT NULL DEFAULT ''")),
    "results": (("origin", "TEXT NOT NULL DEFAULT 'table'"),
                ("voided", "INTEGER NOT NULL DEFAULT 0")),
}  # fmt: skip
_RESULT_COLUMNS = "id, round, table_no, game, kind, payload, received_at, approved, origin, voided"

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
CREATE TABLE IF NOT EXISTS refusal_counts (source TEXT PRIMARY KEY, count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS denials (
    user TEXT NOT NULL, kind TEXT NOT NULL, count INTEGER NOT NULL, last_topic TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (user, kind));
CREATE TABLE IF NOT EXISTS desk (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, who TEXT NOT NULL,
    action TEXT NOT NULL, result_id TEXT NOT NULL, why TEXT NOT NULL, before TEXT NOT NULL,
    after TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    table_no INTEGER PRIMARY KEY, online INTEGER NOT NULL, outbox INTEGER NOT NULL,
    at REAL NOT NULL);
"""


class HubStoreError(SaidError):
    """The file cannot be the hub's store (missing, not SQLite, another program's): one line,
    as one of the hub's words and its values."""


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
    #: ``table`` (its device sent it), ``paper`` (the director entered its table card),
    #: ``accepted`` (a refused one the director accepted).
    origin: str = "table"


@dataclass(frozen=True, slots=True)
class DeskRow:
    """One thing the director did to a result: who, when, what (``paper``, ``correct``,
    ``void``, ``accept``), why, and the result's wire JSON before and after ('' for none)."""

    seq: int
    at: float
    who: str
    action: str
    result_id: str
    why: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class RefusalRow:
    """A refusal as kept: its number, when, the topic, the id it named, why (in English), its
    payload, and why as one of the hub's words (JSON ``{"key": ..., "values": {...}}``; ''
    where the reason is the wire's own)."""

    seq: int
    at: float
    topic: str
    result_id: str
    reason: str
    payload: str
    said: str = ""


@dataclass(frozen=True, slots=True)
class DenialRow:
    """What the broker denied one login, of one kind (``publish``, ``subscribe``): how often,
    the last topic and when."""

    user: str
    kind: str
    count: int
    last_topic: str
    at: float


class HubStore:
    """The hub's tables in one SQLite file; safe to share between threads (one lock)."""

    #: Refusals kept in full per source; the rest are counted only.
    kept_refusals = 100

    def __init__(self, path: Path, *, create: bool = False) -> None:
        if not create and not path.is_file():
            raise HubStoreError("hub_no_file", path=str(path))
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA + DESK_SCHEMA)
            for table, added in _ADDED_COLUMNS.items():  # a file of an earlier hub
                have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                for column, declared in added:
                    if column not in have:
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declared}")
            self._db.execute("CREATE INDEX IF NOT EXISTS refusals_by_source ON refusals (source)")
            # The results not approved or voided, counted for the standings' basis.
            self._db.execute("CREATE INDEX IF NOT EXISTS results_unsettled ON results (round) "
                             "WHERE approved = 0 OR voided = 1")  # fmt: skip
        except sqlite3.DatabaseError:
            raise HubStoreError("hub_not_a_file", path=str(path)) from None
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
                raise HubStoreError("hub_registered_already", name=entrant.name)
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
        *,
        desk: tuple[str, str, str] | None = None,
    ) -> bool:
        """Store a result in its own transaction; False if its id is stored already. With
        ``desk`` (who, action, why) the director's action is kept in the same transaction."""
        origin = "table" if desk is None else ("paper" if desk[1] == "paper" else "accepted")
        with self.transaction() as db:
            cursor = db.execute(
                f"INSERT OR IGNORE INTO results ({_RESULT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (result_id, round_, table_no, game, kind, payload, now, int(approved), origin),
            )
            if cursor.rowcount == 1 and desk is not None:
                _keep_desk(db, now, desk, result_id, "", payload)
            return cursor.rowcount == 1

    def correct_result(
        self, result_id: str, payload: str, now: float, who: str, why: str
    ) -> None:
        """Replace a stored result's payload (its id stays), the old one kept at the desk."""
        with self.transaction() as db:
            before = _payload_of(db, result_id)
            db.execute("UPDATE results SET payload = ? WHERE id = ?", (payload, result_id))
            _keep_desk(db, now, (who, "correct", why), result_id, before, payload)

    def void_result(self, result_id: str, now: float, who: str, why: str) -> None:
        """Let a stored result count no more (its id stays known: a resend is a duplicate)."""
        with self.transaction() as db:
            before = _payload_of(db, result_id)
            db.execute("UPDATE results SET voided = 1 WHERE id = ?", (result_id,))
            _keep_desk(db, now, (who, "void", why), result_id, before, "")

    def desk(self) -> list[DeskRow]:
        """Everything the director did to results, in order."""
        return [
            DeskRow(int(n), float(at), str(w), str(a), str(i), str(y), str(b), str(f))
            for n, at, w, a, i, y, b, f in self._rows("SELECT * FROM desk ORDER BY seq")
        ]

    def overruled(self, result_id: str) -> bool:
        """Whether the director corrected or voided ``result_id``: the table's own copy of it,
        sent again, is then a duplicate, not another result under a stored id."""
        return bool(self._rows(
            "SELECT 1 FROM desk WHERE result_id = ? AND action IN ('correct', 'void')", result_id
        ))  # fmt: skip

    def is_voided(self, result_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM results WHERE id = ? AND voided = 1", result_id))

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
        """The stored results that count (of one round; none voided), in the order stored."""
        sql = f"SELECT {_RESULT_COLUMNS} FROM results WHERE voided = 0"
        sql += " AND round = ?" if round_ is not None else ""
        args = (round_,) if round_ is not None else ()
        return [
            StoredResult(str(i), int(r), int(t), int(g), str(k), str(p), float(at), bool(ok),
                         str(o))
            for i, r, t, g, k, p, at, ok, o, _v in self._rows(sql + " ORDER BY rowid", *args)
        ]  # fmt: skip

    def results_after(
        self, rowid: int
    ) -> tuple[list[tuple[int, StoredResult, bool]], tuple[Any, ...], tuple[Any, ...]]:
        """The results stored after row ``rowid``, each with its row number and whether it is
        voided, in the order stored; with the :meth:`basis` as it was without them and as it
        is, all from one read of the file (another process's commit is in all or none)."""
        sql = f"SELECT rowid, {_RESULT_COLUMNS} FROM results WHERE rowid > ? ORDER BY rowid"
        with self._lock:
            self._db.execute("BEGIN")
            try:
                rows = [
                    (int(n), StoredResult(str(i), int(r), int(t), int(g), str(k), str(p),
                                          float(at), bool(ok), str(o)), bool(v))
                    for n, i, r, t, g, k, p, at, ok, o, v in self._db.execute(sql, (rowid,))
                ]  # fmt: skip
                after = self.basis()
            finally:
                self._db.execute("COMMIT")
        unsettled = sum(not stored.approved or voided for _n, stored, voided in rows)
        return rows, (*after[:-1], after[-1] - unsettled), after

    def basis(self) -> tuple[Any, ...]:
        """What the standings rest on but the results as stored: the players, the rounds and
        their states, who left, the director's actions on results and on the rounds, the
        format's settings and a refill's, and (last) how many results wait for approval or
        are voided. The same basis, and the only change new results: the standings can take
        their games one by one (:mod:`firmware.hub.tally`)."""
        (row,) = self._rows(
            "SELECT (SELECT COUNT(*) || ':' || IFNULL(MAX(seq), 0) FROM players),"
            " (SELECT GROUP_CONCAT(number || state, ',') FROM rounds),"
            " (SELECT COUNT(*) || ':' || IFNULL(MAX(seq), 0) FROM leavers),"
            " (SELECT IFNULL(MAX(seq), 0) FROM desk), (SELECT IFNULL(MAX(seq), 0) FROM desk_log),"
            " (SELECT GROUP_CONCAT(key || '=' || value, ',') FROM settings WHERE key IN"
            "  ('format', 'scheme', 'team_score', 'approval', 'refill', 'refill_rounds')),"
            " (SELECT COUNT(*) FROM results WHERE approved = 0 OR voided = 1)"
        )
        return tuple(row)

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

    def refuse(
        self, source: str, topic: str, result_id: str, reason: str, now: float, payload: bytes,
        said: str = "",
    ) -> bool:
        """Count a refusal of ``source`` (a table's topic level) and keep it in full while the
        source has fewer than :attr:`kept_refusals` kept (its payload if it is short and text,
        for the director to accept; ``said``: see :class:`RefusalRow`); whether it was kept."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO refusal_counts VALUES (?, 1) "
                "ON CONFLICT (source) DO UPDATE SET count = count + 1",
                (source,),
            )
            (kept,) = db.execute(
                "SELECT COUNT(*) FROM refusals WHERE source = ?", (source,)
            ).fetchone()
            if int(kept) >= self.kept_refusals:
                return False
            try:
                text = payload.decode() if len(payload) <= MAX_REFUSED_PAYLOAD else ""
            except UnicodeDecodeError:
                text = ""
            db.execute(
                "INSERT INTO refusals (at, topic, result_id, reason, source, payload, said) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (now, topic, result_id, reason[:MAX_REASON], source, text, said),
            )
            return True

    def refusal(self, seq: int) -> RefusalRow | None:
        """The kept refusal number ``seq`` (as `schocken hub refusals` numbers them), or None."""
        rows = self._rows(
            "SELECT seq, at, topic, result_id, reason, payload, said FROM refusals WHERE seq = ?",
            seq,
        )
        return RefusalRow(*rows[0]) if rows else None

    def refusal_rows(self) -> list[RefusalRow]:
        """Every kept refusal, with its number."""
        return [
            RefusalRow(*row)
            for row in self._rows(
                "SELECT seq, at, topic, result_id, reason, payload, said FROM refusals "
                "ORDER BY seq"
            )
        ]

    def refusal_counts(self) -> dict[str, int]:
        """Every refusal counted, kept or not, by source (a file of a hub before the bound
        counts its kept ones)."""
        counts = {str(s): int(n) for s, n in self._rows("SELECT * FROM refusal_counts")}
        for source, kept in self._rows(
            "SELECT source, COUNT(*) FROM refusals GROUP BY source"
        ):
            counts[str(source)] = max(counts.get(str(source), 0), int(kept))
        return counts

    def count_denials(
        self, denials: Sequence[tuple[str, str, str]], now: float, position: str
    ) -> None:
        """Add what the broker denied, ``(user, kind, topic)`` each, and where the broker's log
        was read to (the setting ``broker_log_position``), in one transaction."""
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO settings VALUES ('broker_log_position', ?)", (position,)
            )
            db.executemany(
                "INSERT INTO denials VALUES (?, ?, 1, ?, ?) ON CONFLICT (user, kind) "
                "DO UPDATE SET count = count + 1, last_topic = excluded.last_topic, "
                "at = excluded.at",
                [(user, kind, topic, now) for user, kind, topic in denials],
            )

    def denials(self) -> list[DenialRow]:
        """What the broker denied, by login and kind."""
        return [
            DenialRow(str(u), str(k), int(n), str(t), float(at))
            for u, k, n, t, at in self._rows("SELECT * FROM denials ORDER BY user, kind")
        ]

    def refusals(self) -> list[tuple[float, str, str, str]]:
        """Every refused message: when, on which topic, its id (if it had one), why."""
        return [
            (float(at), str(topic), str(rid), str(reason))
            for at, topic, rid, reason in self._rows(
                "SELECT at, topic, result_id, reason FROM refusals ORDER BY seq"
            )
        ]

    def set_table_status(self, table_no: int, online: bool, outbox: int, at: float) -> None:
        """A table's link and its count of unreported results. Offline (its Last Will, which
        the broker sends for it and which cannot know the count) keeps the last count known."""
        with self.transaction() as db:
            if not online:
                row = db.execute(
                    "SELECT outbox FROM tables WHERE table_no = ?", (table_no,)
                ).fetchone()
                outbox = max(outbox, int(row[0])) if row else outbox
            db.execute(
                "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)",
                (table_no, int(online), outbox, at),
            )

    def set_broker_link(self, up: bool, at: float) -> None:
        """The hub's own link to its broker, as ``serve`` last saw it."""
        self.set("broker_link", f"{'up' if up else 'down'} {at!r}")

    def broker_link(self) -> tuple[bool, float] | None:
        """Whether ``serve`` was connected to its broker, and since when (None: never ran)."""
        state, _, since = self.get("broker_link").partition(" ")
        try:
            return (state == "up", float(since)) if state else None
        except ValueError:
            return None

    def table_status(self) -> dict[int, tuple[bool, int, float]]:
        return {
            int(n): (bool(online), int(outbox), float(at))
            for n, online, outbox, at in self._rows("SELECT * FROM tables")
        }


def _payload_of(db: sqlite3.Connection, result_id: str) -> str:
    row = db.execute("SELECT payload FROM results WHERE id = ?", (result_id,)).fetchone()
    if row is None:
        raise HubStoreError("hub_not_stored", id=result_id)
    return str(row[0])


def _keep_desk(
    db: sqlite3.Connection,
    now: float,
    desk: tuple[str, str, str],
    result_id: str,
    before: str,
    after: str,
) -> None:
    who, action, why = desk
    db.execute(
        "INSERT INTO desk (at, who, action, result_id, why, before, after) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now, who, action, result_id, why, before, after),
    )


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _stage(value: Any) -> RoundStage:
    stage = round_stage(value)
    if stage is None:
        raise HubStoreError("hub_bad_round_state", state=str(value))
    return stage


def _kind(value: Any) -> PhaseKind:
    try:
        return PhaseKind(value)
    except ValueError:
        raise HubStoreError("hub_bad_table_kind", kind=str(value)) from None
