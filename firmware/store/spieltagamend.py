"""Amending an evening after its games were played, for every door (the command line, the
device's menu): a Partie taken out (played, not counted), put back, or the evening scored under
another scheme.

Each change is :func:`engine.spieltag.amend`'s, checked against the evening's games as the
journals hold them, and kept in the evening's history (when, and what) in the Spieltag's own
file, written with one atomic replace (:meth:`~firmware.store.spieltagfile.SpieltagFiles.
rewrite`). The journals are never touched: the standings are recounted from them under the
amended Spieltag. A refusal is one :class:`~engine.spieltag.SpieltagError` line, and nothing
is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.scoring import Scheme
from engine.spieltag import Change, Evening, amend
from firmware.store.evening import load_evening
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import Storage

__all__ = ["Amended", "amend_evening", "last_partie"]


@dataclass(frozen=True, slots=True)
class Amended:
    """An evening before and after a change: what a door says of it."""

    before: Evening
    after: Evening


def amend_evening(
    storage: Storage,
    spieltag_id: str | None,
    change: Change,
    now: datetime,
    *,
    partie: int = 0,
    scheme: Scheme | None = None,
) -> Amended:
    """Make ``change`` to the evening ``spieltag_id`` (None: the one going on, else the last one
    ended) at the wall time ``now``, and write it. SpieltagError (one line) if it cannot be
    made (nothing is written), StorageError if it cannot be written."""
    before = load_evening(storage, spieltag_id)
    spieltag = amend(
        before, change, now.isoformat(timespec="seconds"), partie=partie, scheme=scheme
    )
    SpieltagFiles(storage).rewrite(spieltag)
    return Amended(before, before.under(spieltag))


def last_partie(evening: Evening) -> int | None:
    """The evening's last finished game's Partie (what the device's menu takes out or puts
    back); None before the first."""
    return evening.games[-1].partie if evening.games else None
