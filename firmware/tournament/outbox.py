"""The table's outbox: results waiting for the hub's acknowledgement, kept on the medium.

A result goes into the outbox (one fsync'd append) *before* it is published, and leaves it only
when the hub's Ack says it was stored (or was already there). So a pulled plug, a lost Wi-Fi or
a dead broker loses nothing: whatever is in the outbox is sent again, under the same id, and
the hub stores each id once.

The file, ``tournament.outbox`` in the state directory beside the game journals, is a list of
records in the journal's format (``LENGTH CRC32 JSON``, :mod:`firmware.store.journal`), each an
append that is on the medium when it returns::

    {"result": "<the Result's JSON text, as published>", "id": "..."}
    {"ack": "<id>", "status": "stored" | "duplicate" | "refused", "reason": "..."}

Reading it back keeps the intact records and stops at a torn or damaged one (a pulled plug in
the middle of an append): the file is copied into ``damaged/`` whole first, then cut back. A
result whose record was torn was never published (the append comes first), and the reporter
finds it again in the game's journal (:mod:`firmware.tournament.recount`).

Results acknowledged stay known by their id only, so that a recount from the journals does not
send them again; :meth:`Outbox.compact` rewrites the file (atomically) without their texts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from firmware.store.journal import decode_records, encode_record
from hal.ports import Storage, StorageError

__all__ = ["OUTBOX", "Outbox", "Refusal"]

#: The outbox's file name in the state directory.
OUTBOX = "tournament.outbox"
#: Rewrite the file once this many of its records say nothing the ids alone would not.
_COMPACT_AFTER = 256

log = logging.getLogger("schockbesteck.tournament")


@dataclass(frozen=True, slots=True)
class Refusal:
    """A result the hub refused: kept (never resent), shown on the screen."""

    id: str
    reason: str


class Outbox:
    """The results of one state directory not acknowledged yet, in the order they were made.

    Raises :class:`~hal.ports.StorageError` where a write fails: the caller must not publish a
    result the outbox could not keep.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        #: id -> the Result's JSON text, in the order added.
        self.pending: dict[str, str] = {}
        #: Results the hub refused, by id (kept, not resent).
        self.refused: dict[str, Refusal] = {}
        #: Ids the hub acknowledged ("stored" or "duplicate").
        self.done: set[str] = set()
        #: One line about damage found when the file was read, or None.
        self.problem: str | None = None
        #: True when the file could not be read or repaired: nothing is written to it then
        #: (it is never overwritten), every put fails.
        self.broken = False
        self._records = 0
        self._load()

    # -- reading -----------------------------------------------------------------------------

    def _load(self) -> None:
        """Read the file; damage is cut back (a copy kept first). A file that cannot be read
        or repaired is left as it is and reported in :attr:`problem`: the device starts, and
        its results stay in the journals for the next start to recount."""
        try:
            data = self.storage.read_bytes(OUTBOX)
            if data is None:
                return
            records, intact, problem = decode_records(data)
            if problem is not None:
                stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
                kept = self.storage.set_aside(OUTBOX, f"{stamp}-{OUTBOX}", copy=True)
                self.storage.truncate(OUTBOX, intact)
                self.problem = f"{OUTBOX}: {problem}; cut back, the whole file is copied to {kept}"
                log.warning("%s", self.problem)
        except StorageError as error:
            self.problem = f"{OUTBOX}: {error}"
            self.broken = True
            log.error("the outbox cannot be read or repaired: %s", error)
            return
        for record in records:
            self._take(record)
        self._records = len(records)

    def _take(self, record: dict[str, object]) -> None:
        result, ident, ack = record.get("result"), record.get("id"), record.get("ack")
        if isinstance(result, str) and isinstance(ident, str):
            if ident not in self.done and ident not in self.refused:
                self.pending.setdefault(ident, result)
        elif isinstance(ack, str):
            status, reason = record.get("status"), record.get("reason")
            self.pending.pop(ack, None)
            if status == "refused":
                self.refused[ack] = Refusal(ack, reason if isinstance(reason, str) else "")
            else:
                self.done.add(ack)

    # -- what is known -------------------------------------------------------------------------

    def knows(self, ident: str) -> bool:
        """Whether the result ``ident`` was ever put in (pending, acknowledged or refused)."""
        return ident in self.pending or ident in self.done or ident in self.refused

    def __len__(self) -> int:
        """Results waiting for the hub (the screen's "noch nicht gemeldet (3)")."""
        return len(self.pending)

    # -- changes -----------------------------------------------------------------------------

    def put(self, ident: str, text: str) -> bool:
        """Keep a result durably before it is published. False if it was known already."""
        if self.knows(ident):
            return False
        self._append({"result": text, "id": ident})
        self.pending[ident] = text
        return True

    def acknowledge(self, ident: str, status: str, reason: str = "") -> bool:
        """The hub's Ack for ``ident``: "stored" or "duplicate" take it out, "refused" keeps it
        as refused. False (nothing written) for an id not pending."""
        if ident not in self.pending:
            return False
        refused = status == "refused"
        self._append({"ack": ident, "status": status, "reason": reason if refused else ""})
        del self.pending[ident]
        if refused:
            self.refused[ident] = Refusal(ident, reason)
        else:
            self.done.add(ident)
            kept = len(self.done) + len(self.pending) + len(self.refused)
            if self._records - kept >= _COMPACT_AFTER:
                self.compact()
        return True

    def compact(self) -> None:
        """Rewrite the file in one atomic step: the pending and refused results as they are,
        the acknowledged ones as their ids only."""
        if self.broken:
            return
        lines: list[bytes] = [
            encode_record({"ack": ident, "status": "stored", "reason": ""})
            for ident in sorted(self.done)
        ]
        lines += [encode_record({"result": text, "id": ident})
                  for ident, text in self.pending.items()]
        lines += [encode_record({"ack": r.id, "status": "refused", "reason": r.reason})
                  for r in self.refused.values()]
        self.storage.write_atomic(OUTBOX, b"".join(lines).decode("utf-8"))
        self._records = len(lines)

    def _append(self, record: dict[str, object]) -> None:
        if self.broken:
            raise StorageError(self.problem or f"{OUTBOX} cannot be read")
        self.storage.append_durable(OUTBOX, encode_record(record))
        self._records += 1
