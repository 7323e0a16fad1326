"""The state directory's games: the one in progress, the finished ones, and the statistics.

Files in the state directory (see docs/durability.md)::

    current.journal       the game in progress (header + one record per action)
    game-000042.journal   finished games, numbered; the newest ``max_games`` are kept
    stats.json            statistics per player, counted through game number ``counted_through``

The life of a game: :meth:`GameStore.begin` writes the header, :meth:`GameStore.record` appends
each action durably *before* the screen confirms it, and the action that ends the game also
moves ``current.journal`` to the next ``game-N.journal`` and adds the game to ``stats.json``.
Each step is a single atomic operation (append, rename, atomic replace), and
:meth:`GameStore.open` finishes whatever a power cut interrupted: a finished game still in
``current.journal`` is archived, archived games beyond ``counted_through`` are counted. So a game
is counted exactly once, whenever the plug is pulled.

Storage errors never stop a game: the store logs one line, keeps the message in
:attr:`GameStore.failure` for the screen, and the game goes on in memory. The next new game
tries the disk again.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Event, GameOver, GameSetup
from firmware.journal import Journal, JournalError, Recovery, recover
from firmware.stats import PlayerStats, count_game, merge, stats_from_mapping, stats_to_mapping
from hal.ports import Storage, StorageError

__all__ = ["CURRENT", "STATS", "GameStore", "StoreLimits", "archive_name"]

CURRENT = "current.journal"
STATS = "stats.json"
_ARCHIVED = re.compile(r"^game-(\d{6,})\.journal$")
_STATS_FORMAT = 1

log = logging.getLogger("schockbesteck.storage")


def archive_name(number: int) -> str:
    """The file name of finished game number ``number``."""
    return f"game-{number:06d}.journal"


@dataclass(frozen=True, slots=True)
class StoreLimits:
    """How many finished games the archive keeps: both bounds hold (the newest game always stays).

    A finished game's journal is 10-30 kB, so the defaults keep a few months of pub evenings in
    a few MB of the SD card.
    """

    max_games: int = 200
    max_bytes: int = 16 * 1024 * 1024


class GameStore:
    """The games of one state directory. Never raises a storage error at its caller."""

    def __init__(self, storage: Storage, *, limits: StoreLimits | None = None) -> None:
        self.storage = storage
        self.limits = limits or StoreLimits()
        #: One line about the last storage failure, or None while everything is written.
        self.failure: str | None = None
        #: Lines about damage found and repaired by :meth:`open` (for the log and the screen).
        self.notices: list[str] = []
        self._journal: Journal | None = None

    # -- start-up --------------------------------------------------------------------------------

    def open(self) -> Recovery | None:
        """Tidy up after whatever stopped the device, and return the interrupted game, if any.

        A damaged journal tail is cut off and reported in :attr:`notices` (and the log); a
        finished game left in ``current.journal`` is archived and counted.
        """
        recovery: Recovery | None = None
        try:
            recovery = self._recover_current()
            if recovery is not None and recovery.game.is_over:
                self._archive_current()
                recovery = None
            self._count_uncounted()
            self._rotate()
        except StorageError as error:
            self._fail(error)
        return recovery

    def _recover_current(self) -> Recovery | None:
        try:
            recovery = recover(self.storage, CURRENT)
        except JournalError as error:
            self._notice(f"{error}; the unreadable game journal was removed")
            self.storage.remove(CURRENT)
            return None
        if recovery is None:
            return None
        if recovery.problem:
            self._notice(
                f"{self.storage.root / CURRENT}: damaged end cut off, "
                f"{len(recovery.actions)} actions kept: {recovery.problem}"
            )
            self.storage.truncate(CURRENT, recovery.intact_length)
            recovery.file_length = recovery.intact_length
        return recovery

    # -- the game in progress --------------------------------------------------------------------

    @property
    def recording(self) -> bool:
        """True while actions of the current game go to disk."""
        return self._journal is not None

    def begin(self, setup: GameSetup, meta: Mapping[str, Any] | None = None) -> bool:
        """Start the journal of a new game (an interrupted one is dropped). True if on disk."""
        self._journal = None
        try:
            self._journal = Journal.create(self.storage, CURRENT, setup, meta)
        except StorageError as error:
            self._fail(error)
            return False
        self.failure = None
        return True

    def resume(self, recovery: Recovery) -> bool:
        """Continue the interrupted game that :meth:`open` returned. True if on disk."""
        try:
            self._journal = Journal.resume(self.storage, CURRENT, recovery)
        except StorageError as error:
            self._fail(error)
            return False
        return True

    def discard(self) -> None:
        """Drop the interrupted (or current) game: it is not archived and counts for nobody."""
        self._journal = None
        try:
            self.storage.remove(CURRENT)
        except StorageError as error:
            self._fail(error)

    def record(self, events: Sequence[Event]) -> None:
        """Write the action that caused ``events`` (``events[0]``, as :meth:`Game.apply` returns).

        Returns once the action is on the medium. When ``events`` end the game, the game is
        archived and counted in the statistics.
        """
        journal = self._journal
        if journal is None or not events:
            return
        try:
            journal.append(events[0])
            if any(isinstance(event, GameOver) for event in events):
                self._journal = None
                self._archive_current()
                self._rotate()
        except StorageError as error:
            self._fail(error)

    def note_ui(self, state: Mapping[str, Any]) -> None:
        """Write UI state of the current turn that is not an action (pending KEEP marks)."""
        if self._journal is None:
            return
        try:
            self._journal.note_ui(state)
        except StorageError as error:
            self._fail(error)

    # -- finished games and statistics -----------------------------------------------------------

    def archived(self) -> list[tuple[int, str]]:
        """(number, file name) of the finished games kept, oldest first."""
        found = []
        for name in self.storage.names():
            match = _ARCHIVED.match(name)
            if match:
                found.append((int(match.group(1)), name))
        return sorted(found)

    def stats(self) -> dict[str, PlayerStats]:
        """Statistics over every finished game, without writing anything (safe for the CLI)."""
        table, counted_through = self._read_stats()
        for number, name in self.archived():
            if number > counted_through:
                table = merge(table, self._count_file(name))
        current = self._safe_recover(CURRENT)
        if current is not None and current.game.is_over:
            table = merge(table, count_game(current.setup, current.actions))
        return table

    def _safe_recover(self, name: str) -> Recovery | None:
        try:
            return recover(self.storage, name)
        except JournalError as error:
            log.warning("%s", error)
            return None

    def _count_file(self, name: str) -> dict[str, PlayerStats]:
        recovery = self._safe_recover(name)
        if recovery is None:
            return {}
        if not recovery.game.is_over:
            log.warning("%s: the game does not finish (%s); not counted",
                        self.storage.root / name, recovery.problem or "journal ends early")
            return {}
        return count_game(recovery.setup, recovery.actions)

    def _read_stats(self) -> tuple[dict[str, PlayerStats], int]:
        text = self.storage.read_text(STATS)
        if text is None:
            return {}, 0
        try:
            data = json.loads(text)
            if data.get("format") != _STATS_FORMAT:
                raise ValueError(f"format {data.get('format')!r} is not {_STATS_FORMAT}")
            counted = data["counted_through"]
            if isinstance(counted, bool) or not isinstance(counted, int) or counted < 0:
                raise ValueError(f"counted_through = {counted!r} is not a game number")
            return stats_from_mapping(data["players"]), counted
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            self._notice(
                f"{self.storage.root / STATS} is unreadable ({error}); "
                "statistics start again from the games kept"
            )
            return {}, 0

    def _write_stats(self, table: Mapping[str, PlayerStats], counted_through: int) -> None:
        data = {
            "format": _STATS_FORMAT,
            "counted_through": counted_through,
            "players": stats_to_mapping(table),
        }
        self.storage.write_atomic(STATS, json.dumps(data, ensure_ascii=False, indent=1) + "\n")

    def _archive_current(self) -> None:
        """Move the finished ``current.journal`` into the archive and count it."""
        _, counted_through = self._read_stats()
        numbers = [number for number, _ in self.archived()]
        number = max([counted_through, *numbers]) + 1
        self.storage.rename(CURRENT, archive_name(number))
        self._count_uncounted()

    def _count_uncounted(self) -> None:
        table, counted_through = self._read_stats()
        newest = counted_through
        for number, name in self.archived():
            if number > counted_through:
                table = merge(table, self._count_file(name))
                newest = number
        if newest != counted_through:
            self._write_stats(table, newest)

    def _rotate(self) -> None:
        games = self.archived()
        sizes = {name: _size(self.storage, name) for _, name in games}
        total = sum(sizes.values())
        while len(games) > 1 and (
            len(games) > self.limits.max_games or total > self.limits.max_bytes
        ):
            _, oldest = games.pop(0)
            self.storage.remove(oldest)
            total -= sizes[oldest]

    # -- failures --------------------------------------------------------------------------------

    def _fail(self, error: StorageError) -> None:
        message = str(error)
        if message != self.failure:
            log.error("state not saved, the game goes on in memory: %s", message)
        self.failure = message
        self._journal = None

    def _notice(self, message: str) -> None:
        log.warning("%s", message)
        self.notices.append(message)


def _size(storage: Storage, name: str) -> int:
    """A file's size for the archive bound; a file that vanished or cannot be read counts as
    empty."""
    try:
        return storage.size(name) or 0
    except StorageError:
        return 0
