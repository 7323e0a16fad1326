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

Damaged state never stops the device and is never deleted. :meth:`GameStore.open` moves a file
it cannot read (a journal without a usable header, an unreadable ``stats.json``, an archived game
that does not finish) into ``damaged/`` under a timestamped name; a journal damaged after its
header is first copied there whole, then cut back to its intact part, and the game resumes from
that last good point. Each case is logged and kept in :attr:`GameStore.damage` for the screen.

Storage errors never stop a game: the store logs one line, keeps the message in
:attr:`GameStore.failure` for the screen, and the game goes on in memory. The next new game
tries the disk again.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from engine import Event, GameOver
from engine.limits import InputLimitError, json_loads, json_problem
from firmware.store.journal import (
    Journal,
    JournalError,
    JournalHeader,
    Note,
    Recovery,
    read_header,
    read_journal,
)
from firmware.store.roster import ROSTER_FILE
from firmware.store.stats import (
    PlayerStats,
    count_events,
    merge,
    stats_from_mapping,
    stats_to_mapping,
)
from hal.ports import Storage, StorageError

__all__ = [
    "CURRENT", "STATS", "DamageReport", "GameStore", "KeptGame", "StoreLimits", "archive_name",
]

CURRENT = "current.journal"
STATS = "stats.json"
_ARCHIVED = re.compile(r"^game-([0-9]{6,})\.journal$")
_STATS_FORMAT = 1

log = logging.getLogger("schockbesteck.storage")


def archive_name(number: int) -> str:
    """The file name of finished game number ``number``."""
    return f"game-{number:06d}.journal"


#: The longest ``stats.json`` we read (a few hundred bytes per player).
_MAX_STATS_BYTES = 4 * 1024 * 1024
#: Why a journal cannot be read when the reader itself failed (a bug of ours, logged in full):
#: in words, never the exception's class name.
_UNEXPECTED = "the reader failed on it (an error of the program, in the log)"


@dataclass(frozen=True, slots=True)
class DamageReport:
    """Damaged state found by :meth:`GameStore.open`: which file, why, and what became of it."""

    #: The file's name in the state directory (``current.journal``, ``stats.json``, ...).
    name: str
    #: One line naming the damage (where and what: "record 3 at byte 848: checksum mismatch").
    reason: str
    #: Where the damaged file (or, for a journal cut back, its complete copy) now is, relative to
    #: the state directory (``damaged/20250101T201500Z-current.journal``); None if it could not
    #: be set aside (the file then stays untouched).
    kept_in: str | None
    #: Actions of the interrupted game the device resumes with; None if no game is resumed
    #: from this file.
    resumed_actions: int | None = None
    #: Intact records after the damage that the game could not use (they are in the copy).
    intact_after: int = 0

    def screen_lines(self, t: Callable[..., str]) -> tuple[str, str, str]:
        """Three short lines for the device's message titled ``t("state_damaged_title")``.

        ``t`` is the screen's lookup (:meth:`firmware.screen.oled_words.OledWords.t`): the file's
        name, what the device did, and where the damaged file went.
        """
        if self.kept_in is None:
            return self.name, t("state_damaged_stuck"), ""
        if self.resumed_actions:
            one = self.resumed_actions == 1
            outcome = t("state_damaged_resumed_one" if one else "state_damaged_resumed",
                        n=self.resumed_actions)
        elif self.name == CURRENT:
            outcome = t("state_damaged_fresh")
        elif self.name == STATS:
            outcome = t("state_damaged_recounted")
        elif _ARCHIVED.match(self.name):
            outcome = t("state_damaged_not_counted")
        elif self.name == ROSTER_FILE:
            outcome = t("state_damaged_names")
        else:  # the device's own settings (setup.json)
            outcome = t("state_damaged_reset")
        return self.name, outcome, t("state_damaged_kept")

    def __str__(self) -> str:
        head = f"damaged {self.name}: {self.reason}"
        if self.kept_in is None:
            return f"{head}; it cannot be set aside and stays where it is"
        if self.resumed_actions == 0:
            return (
                f"{head}; no action was intact, the device starts afresh; the whole file is "
                f"copied to {self.kept_in}"
                + (f" (with {self.intact_after} intact records)" if self.intact_after else "")
            )
        if self.resumed_actions is not None:
            after = (
                f" (with {self.intact_after} intact records after the damage)"
                if self.intact_after else ""
            )
            return (
                f"{head}; damaged end cut off, the game resumes with {self.resumed_actions} "
                f"actions; the whole file is copied to {self.kept_in}{after}"
            )
        outcome = "; the device starts afresh" if self.name == CURRENT else ""
        return f"{head}{outcome}; moved to {self.kept_in}"


@dataclass(frozen=True, slots=True)
class StoreLimits:
    """How many finished games the archive keeps: both bounds hold (the newest game always stays).

    A finished game's journal is 10-30 kB, so the defaults keep a few months of pub evenings in
    a few MB of the SD card.
    """

    max_games: int = 200
    max_bytes: int = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A game's journal in the state directory, its header read: ``number`` is its number in the
    archive (for ``current.journal``, the number it will be archived under), ``header`` None
    where the header cannot be read (``problem`` says why, in one line)."""

    number: int
    name: str
    header: JournalHeader | None
    problem: str | None = None
    #: The journal's bytes as its header was read from them, where the store kept them
    #: (:meth:`GameStore.latest` does): :meth:`GameStore.read` then reads the file no more.
    data: bytes | None = field(default=None, compare=False, repr=False)

    @property
    def current(self) -> bool:
        """Whether this is the game in ``current.journal`` (under way, or finished and not yet
        archived after a power cut)."""
        return self.name == CURRENT


class GameStore:
    """The games of one state directory. Never raises a storage error at its caller."""

    def __init__(
        self,
        storage: Storage,
        *,
        limits: StoreLimits | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.storage = storage
        self.limits = limits or StoreLimits()
        #: One line about the last storage failure, or None while everything is written.
        self.failure: str | None = None
        #: Lines about damage found and repaired by :meth:`open` (for the log and the screen).
        self.notices: list[str] = []
        #: The damaged files :meth:`open` (or the end of a game) found, in the order found.
        self.damage: list[DamageReport] = []
        self._journal: Journal | None = None
        self._now = now or (lambda: datetime.now(UTC))
        #: True while a damaged ``current.journal`` could not be set aside: it must not be
        #: replaced by a new game's journal until it is.
        self._current_unsafe = False
        #: The last :meth:`stats` and the state of the files it was counted from.
        self._stats_kept: tuple[object, dict[str, PlayerStats]] | None = None

    def wall_time(self) -> datetime:
        """The date and time by the device's clock (what a Spieltag is dated by)."""
        return self._now().astimezone()

    # -- start-up --------------------------------------------------------------------------------

    def open(self) -> Recovery | None:
        """Tidy up after whatever stopped the device, and return the interrupted game, if any.

        Never raises. A damaged journal is copied into ``damaged/`` and cut back to its intact
        part; a file that cannot be read at all is moved there (see :attr:`damage`); a finished
        game left in ``current.journal`` is archived and counted.
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
        origin = str(self.storage.root / CURRENT)
        try:
            data = self.storage.read_bytes(CURRENT)
        except StorageError as error:
            self._set_aside(CURRENT, f"cannot be read: {error}")
            return None
        if data is None:
            return None
        try:
            recovery = read_journal(data, origin=origin)
        except JournalError as error:
            self._set_aside(CURRENT, _without_origin(str(error), origin))
            return None
        except Exception:  # a bug of ours must not keep the device dark
            log.exception("reading %s failed", origin)
            self._set_aside(CURRENT, f"cannot be read: {_UNEXPECTED}")
            return None
        if recovery.problem:
            copied = self._set_aside(
                CURRENT, recovery.problem, copy=True, resumed=len(recovery.actions),
                intact_after=recovery.intact_after,
            )
            if not copied:
                return None  # the original stays whole; the game starts afresh in memory
            self.storage.truncate(CURRENT, recovery.intact_length)
            recovery = replace(recovery, file_length=recovery.intact_length)
        return recovery

    def set_aside(self, name: str, reason: str) -> bool:
        """Move another damaged state file (the device's ``setup.json``) into ``damaged/``.

        Reported like the store's own files (:attr:`damage`, the log). True if it went there.
        """
        return self._set_aside(name, reason)

    def _set_aside(
        self, name: str, reason: str, *, copy: bool = False, resumed: int | None = None,
        intact_after: int = 0,
    ) -> bool:
        """Move (or copy) a damaged file into ``damaged/`` and report it. True if it went there.

        If it cannot be set aside the storage failure is reported too, and the file stays as it
        is: a damaged file is never deleted.
        """
        stamp = self._now().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        kept_in: str | None = None
        failure: StorageError | None = None
        try:
            kept_in = self.storage.set_aside(name, f"{stamp}-{name}", copy=copy)
        except StorageError as error:
            failure = error
        report = DamageReport(
            name, reason, kept_in, resumed if kept_in is not None else None, intact_after
        )
        self.damage.append(report)
        self._notice(str(report))
        if name == CURRENT:
            self._current_unsafe = kept_in is None
        if failure is not None:
            self._fail(failure)
        return kept_in is not None

    # -- the game in progress --------------------------------------------------------------------

    @property
    def recording(self) -> bool:
        """True while actions of the current game go to disk."""
        return self._journal is not None

    def begin(self, header: JournalHeader) -> bool:
        """Start the journal of a new game (an interrupted one is dropped). True if on disk.

        A damaged ``current.journal`` that :meth:`open` could not set aside is tried again
        first; while it stays, the new game runs in memory only.
        """
        self._journal = None
        if self._current_unsafe and not self._set_aside(CURRENT, "damaged at start-up"):
            return False
        try:
            self._journal = Journal.create(self.storage, CURRENT, header)
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
        if self._current_unsafe:
            return  # a damaged journal is never deleted
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

    def note(self, note: Note) -> None:
        """Write a note of the screen's state that is not an action (pending KEEP marks, a
        result being entered): it holds until the next action."""
        if self._journal is None:
            return
        try:
            self._journal.note(note)
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

    def kept(self) -> list[KeptGame]:
        """Every game journal kept, oldest first, with its header read (not the whole journal):
        the archive, then ``current.journal`` if there is one, numbered as it will be archived.
        Reads only."""
        archived = self.archived()
        games = [self._kept(number, name) for number, name in archived]
        current = self._kept_current(archived)
        return games if current is None else [*games, current]

    def latest(self, *, archived: bool = True, current: bool = True) -> list[KeptGame]:
        """The newest finished game kept (if ``archived``) and ``current.journal`` (if
        ``current`` and there is one), as :meth:`kept` gives them, reading only their headers:
        the end of :meth:`kept` without every other journal. Each keeps the bytes it was read
        from, so that :meth:`read` of it reads nothing again. Reads only."""
        finished = self.archived()
        games = [self._kept(*finished[-1], keep=True)] if archived and finished else []
        playing = self._kept_current(finished, keep=True) if current else None
        return games if playing is None else [*games, playing]

    def _kept_current(
        self, archived: Sequence[tuple[int, str]], *, keep: bool = False
    ) -> KeptGame | None:
        """``current.journal`` with its header read, numbered as it will be archived after
        the games ``archived`` (:meth:`archived`); None if there is none. ``keep``: with the
        bytes read."""
        try:
            present = self.storage.size(CURRENT) is not None
        except StorageError:
            present = True  # reading it says why it cannot be read
        if not present:
            return None
        numbers = [number for number, _ in archived]
        return self._kept(max([self.counted_through(), *numbers]) + 1, CURRENT, keep=keep)

    def _kept(self, number: int, name: str, *, keep: bool = False) -> KeptGame:
        """Game ``name`` with its header read (``keep``: and the bytes it was read from)."""
        origin = str(self.storage.root / name)
        try:
            data = self.storage.read_bytes(name)
            if data is None:
                return KeptGame(number, name, None, "the file is gone")
            header = read_header(data, origin=origin)
            return KeptGame(number, name, header, data=data if keep else None)
        except (JournalError, StorageError) as error:
            return KeptGame(number, name, None, _without_origin(str(error), origin))

    def read(self, game: KeptGame) -> Recovery | str:
        """The whole journal of ``game`` (from the bytes it keeps, if it does), or one line
        saying why it cannot be read."""
        recovery = self._read_quietly(game.name, game.data)
        return "the file is gone" if recovery is None else recovery

    def counted_through(self) -> int:
        """The number of the newest game the statistics count (games are numbered on from it,
        so a game deleted from the archive leaves a gap)."""
        return self._read_stats(tidy=False)[1]

    def game_spieltag(self, number: int) -> str | None:
        """The Spieltag finished game ``number`` belongs to; None outside any evening.
        ValueError (one line) if there is no such game."""
        game = self._kept(number, archive_name(number))
        if game.header is None:
            kept = [n for n, _ in self.archived()]
            shown = f"{kept[0]}-{kept[-1]}" if kept else "none"
            raise ValueError(f"no readable finished game {number} here; games kept: {shown}")
        return game.header.spieltag

    def stats(self) -> dict[str, PlayerStats]:
        """Statistics over every finished game, without writing anything (safe for the CLI).

        Kept until the files change (a file more or less, or a new size of the journal or the
        statistics file): a page may ask twenty times a second, and each count reads and
        replays the current journal.
        """
        storage = self.storage
        try:
            key = (tuple(storage.names()), storage.size(CURRENT), storage.size(STATS))
        except StorageError:
            key = None
        if key is not None and self._stats_kept is not None and self._stats_kept[0] == key:
            return dict(self._stats_kept[1])
        table = self._count_stats()
        self._stats_kept = None if key is None else (key, table)
        return dict(table)

    def _count_stats(self) -> dict[str, PlayerStats]:
        table, counted_through = self._read_stats(tidy=False)
        for number, name in self.archived():
            if number > counted_through:
                table = merge(table, self._count_file(name, tidy=False))
        current = self._read_quietly(CURRENT)
        if isinstance(current, Recovery) and current.game.is_over:
            table = merge(table, count_events(current.setup, current.events))
        return table

    def _read_quietly(self, name: str, data: bytes | None = None) -> Recovery | str | None:
        """The journal ``name`` (from ``data``, its bytes read already, when given); a line
        saying why it cannot be read; None if there is none."""
        origin = str(self.storage.root / name)
        try:
            if data is None:
                data = self.storage.read_bytes(name)
            return None if data is None else read_journal(data, origin=origin)
        except (JournalError, StorageError) as error:
            return _without_origin(str(error), origin)
        except Exception:  # a bug of ours must not stop the start or the statistics
            log.exception("reading %s failed", origin)
            return f"cannot be read: {_UNEXPECTED}"

    def _count_file(self, name: str, *, tidy: bool = True) -> dict[str, PlayerStats]:
        """The statistics of archived game ``name``; a damaged one is set aside if ``tidy``."""
        recovery = self._read_quietly(name)
        if recovery is None:
            return {}
        problem = recovery if isinstance(recovery, str) else None
        if isinstance(recovery, Recovery) and not recovery.game.is_over:
            problem = f"the game does not finish ({recovery.problem or 'the journal ends early'})"
        if problem is None and isinstance(recovery, Recovery):
            return count_events(recovery.setup, recovery.events)
        if tidy:
            self._set_aside(name, f"{problem}; not counted")
        else:
            log.warning("%s: %s; not counted", self.storage.root / name, problem)
        return {}

    def _read_stats(self, *, tidy: bool = True) -> tuple[dict[str, PlayerStats], int]:
        """The statistics file: (table, number of the last game it counts).

        An unreadable file counts as none: with ``tidy`` it is set aside (and the statistics
        start again from the games kept), else only logged.
        """
        try:
            text = self.storage.read_text(STATS)
            if text is None:
                return {}, 0
            data = json_loads(text, max_bytes=_MAX_STATS_BYTES)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            if data.get("format") != _STATS_FORMAT:
                raise ValueError(f"format {data.get('format')!r} is not {_STATS_FORMAT}")
            counted = data["counted_through"]
            if isinstance(counted, bool) or not isinstance(counted, int) or counted < 0:
                raise ValueError(f"counted_through = {counted!r} is not a game number")
            return stats_from_mapping(data["players"]), counted
        except (StorageError, InputLimitError, ValueError, TypeError, KeyError,
                AttributeError) as error:
            problem = (
                json_problem(error) if isinstance(error, json.JSONDecodeError)
                else _without_origin(str(error), str(self.storage.root / STATS))
            )
            reason = f"unreadable ({problem})"
            if tidy:
                self._set_aside(STATS, f"{reason}; statistics start again from the games kept")
            else:
                log.warning("%s is %s", self.storage.root / STATS, reason)
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


def _without_origin(message: str, origin: str) -> str:
    """``message`` without the file path it starts with (the report names the file itself)."""
    for prefix in (f"{origin}: ", f"{origin} is ", f"{origin} ", f"cannot read {origin}: "):
        if message.startswith(prefix):
            return message[len(prefix):]
    return message


def _size(storage: Storage, name: str) -> int:
    """A file's size for the archive bound; a file that vanished counts as empty."""
    try:
        return storage.size(name) or 0
    except StorageError:
        return 0
