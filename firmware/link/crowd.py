"""The table's page under a crowd: what unpaired pages ask is answered off the main loop.

The main loop reads the buttons; its time is the table's. So whatever a page that is not paired
may ask (``state``, ``log`` pages, ``stats``, ``frames``, ``hello``, ``ping``, ``help``, and every
refusal) is answered on the web server's thread, by the page's :class:`PageGate`, from a
:class:`Snapshot` the main loop publishes once per change (:meth:`Snapshot.build`): a page asking
again gets the same lines, already made, not new work. A wrong ``pair`` or ``auth`` is refused
there too (:class:`~firmware.link.pairing.Door`): only a right PIN or token, a paired page's
lines, and a recount of the statistics reach the main loop, and what of that comes from
unpaired pages shares one budget (:class:`CrowdBudget`); a right PIN or token has a budget of
its own per address (:meth:`CrowdBudget.pairing_call`), so that a person pairs whatever the
crowd asks.

Answers are bounded before they are made: a page whose send queue holds more than
:data:`ANSWER_QUEUE_BYTES` is refused (``error busy``) instead of queueing more, and all unpaired
pages together get at most :data:`ANSWER_LINES_PER_S` lines a second of answers (their own
questions; the table's events and frames go to every page as before). A refused page hears
``error busy ...`` once, until it is answered again.

Every line is parsed once, by the gate as it arrives (:func:`~firmware.link.protocol.read_line`):
what the gate does not answer itself goes to the main loop as the parsed command (or its
refusal), in the page's order, for the page's :class:`~firmware.link.remote.Remote` to carry
out. Whether the page is paired is its :class:`~firmware.link.connection.Connection`'s to say,
one object that the gate and the remote both read.

Threads: :meth:`PageGate.received` runs on the server's thread; :meth:`Snapshot.build`, and
whatever the gate forwards, on the main loop. A snapshot is immutable once published (its log
pages are made on first request, on the server's thread only), and the gate's counts and the
connection's flags are single values that one side writes and the other reads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, overload

from engine.game import Game
from firmware.link.connection import Connection
from firmware.link.pairing import PairingRefused, address_key
from firmware.link.protocol import (
    INTERNAL_ERROR,
    Auth,
    Command,
    Frames,
    Hello,
    Help,
    Log,
    Pair,
    Parsed,
    Ping,
    ProtocolError,
    State,
    Stats,
    format_line,
    help_text,
    log_page,
    one_line,
    read_line,
)
from firmware.link.tablefeed import table_log_entries
from hal.ports import PageLink
from hal.quietlog import QuietLog, failure_place, where_it_failed

__all__ = [
    "ANSWER_LINES_PER_S",
    "ANSWER_QUEUE_BYTES",
    "LOOP_CALLS_PER_S",
    "STATS_REFRESH_S",
    "CrowdBudget",
    "PageGate",
    "Snapshot",
    "stats_text",
]

#: A page whose send queue holds more than this many bytes gets ``error busy`` instead of an
#: answer (two ``log`` pages: a page that reads gets every answer).
ANSWER_QUEUE_BYTES = 64 * 1024
#: Answer lines a second for all unpaired pages together (a ``log`` page is up to ~200 lines) ...
ANSWER_LINES_PER_S = 2000.0
#: ... and at once.
ANSWER_LINES_BURST = 4000.0
#: Calls a second on the main loop for all unpaired pages together (a right PIN or token, a
#: recount of the statistics, a line that waits for one of them) ...
LOOP_CALLS_PER_S = 20.0
#: ... and at once.
LOOP_CALLS_BURST = 40.0
#: Seconds the statistics an unpaired page gets may be old (a recount reads the journal).
STATS_REFRESH_S = 2.0
#: Calls a second on the main loop for a right PIN or a paired token, per peer address (an
#: IPv6 /64), beside the crowd's budget: a person pairs whatever the crowd asks ...
PAIRING_CALLS_PER_S = 2.0
#: ... and at once.
PAIRING_CALLS_BURST = 6.0
#: Peer addresses whose pairing budget is remembered (the oldest is forgotten first).
PAIRING_ADDRESSES_KEPT = 1024
#: Lines of a page that may follow its right PIN or token to the main loop before it is carried
#: out, beside the crowd's budget (a page asks for its frames, log, statistics and Spieltag).
PAIRING_FOLLOWERS = 8

logger = logging.getLogger(__name__)
#: What the pages' lines trip in the device's own code, logged once a minute at most.
QUIET = QuietLog(logger)

_BUSY = "error busy: many pages are asking; ask again in a moment"


class _Bucket:
    """A token bucket on the monotonic clock: ``rate`` a second, ``burst`` at once.

    It reads real time, not the device's :class:`~hal.ports.Clock`: the crowd's rate is the
    network's, in seconds that pass, also under the simulator's fake clock (which jumps); and
    the server's thread reads it, where the device's clock belongs to the main loop."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class CrowdBudget:
    """What all unpaired pages share: answer lines a second, and calls on the main loop; and,
    apart from that, what a right PIN or token may cost the main loop per address."""

    def __init__(
        self,
        answer_lines_per_s: float = ANSWER_LINES_PER_S,
        loop_calls_per_s: float = LOOP_CALLS_PER_S,
    ) -> None:
        self._lock = threading.Lock()
        self._answers = _Bucket(answer_lines_per_s, max(ANSWER_LINES_BURST, answer_lines_per_s))
        self._calls = _Bucket(loop_calls_per_s, max(LOOP_CALLS_BURST, loop_calls_per_s))
        self._pairing: OrderedDict[str, _Bucket] = OrderedDict()
        #: Answers and main-loop calls refused for the budget, since the start.
        self.refused = 0
        #: Right PINs and tokens refused for their address's budget, since the start.
        self.pairing_refused = 0

    def pairing_call(self, peer: str) -> bool:
        """Whether a right PIN or token from ``peer`` may go to the main loop now: its
        address's own small budget, whatever the crowd has used of its own."""
        key = address_key(peer)
        with self._lock:
            bucket = self._pairing.pop(key, None) or _Bucket(
                PAIRING_CALLS_PER_S, PAIRING_CALLS_BURST
            )
            self._pairing[key] = bucket
            while len(self._pairing) > PAIRING_ADDRESSES_KEPT:
                self._pairing.popitem(last=False)
            ok = bucket.take()
            self.pairing_refused += not ok
            return ok

    def answer(self, lines: int) -> bool:
        """Whether ``lines`` answer lines may go out now."""
        with self._lock:
            ok = self._answers.take(lines)
            self.refused += not ok
            return ok

    def loop_call(self) -> bool:
        """Whether one call may go to the main loop now."""
        with self._lock:
            ok = self._calls.take()
            self.refused += not ok
            return ok


@dataclass(frozen=True, eq=False)
class _LogView:
    """A game's table log as it stood at one snapshot: the first ``count`` entries."""

    game: Game
    #: The game's actions when it was made.
    actions: int
    entries: list[str]
    count: int
    header: dict[str, Any]
    #: Answers made so far, by their start (made on the server's thread only).
    pages: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def answer(self, start: int) -> tuple[str, ...]:
        made = self.pages.get(start)
        if made is not None:
            return made
        if start > self.count:
            made = (format_line("error", (
                f"log {start}: the game has {self.count} events; give 0 to {self.count}"
            )),)
        else:
            lines, following = log_page(_Prefix(self.entries, self.count), start)
            header = {**self.header, "from": start, "events": len(lines), "next": following}
            made = (format_line("log", header), *lines, "end")
        if len(self.pages) < 64:
            self.pages[start] = made
        return made


class _Prefix(Sequence[str]):
    """The first ``count`` items of a list that only grows, without a copy."""

    def __init__(self, items: list[str], count: int) -> None:
        self._items, self._count = items, count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return self._items[: self._count][index]
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._items[index]


class _Source(Protocol):
    """What a snapshot is made of, on the main loop (the page's :class:`WebTable`)."""

    def game(self) -> Game | None: ...

    def state_line(self) -> str: ...


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What every unpaired page is answered, as it stood after the main loop's last change."""

    #: The greeting of an unpaired page.
    hello: str
    #: The ``state`` line.
    state: str
    #: The log of the last game, if any game was played since the start.
    log: _LogView | None
    #: The table's screen as a ``frame`` line (None until the first frame).
    table_frame: str | None
    #: What :meth:`build` compares to tell whether anything changed.
    key: tuple[Any, ...]

    @staticmethod
    def build(
        source: _Source, previous: Snapshot | None, hello: str, table_frame: str | None,
        upcoming: object,
    ) -> Snapshot:
        """The snapshot now (on the main loop): ``previous`` itself if nothing changed.

        ``upcoming`` is what else the state depends on (the game under way, the next game's
        setup): compared, not shown."""
        game = source.game()
        actions = len(game.actions) if game is not None else 0
        key = (id(game), actions, game.is_over if game is not None else None, upcoming)
        if previous is not None and previous.key == key:
            if previous.table_frame == table_frame:
                return previous
            return replace(previous, table_frame=table_frame)
        log = previous.log if previous is not None else None
        if game is not None and (log is None or log.game is not game or log.actions != actions):
            entries = table_log_entries(game)
            header = {
                "players": list(game.players),
                "rules": game.rules.to_mapping(),
                "total": len(entries),
                "over": game.is_over,
            }
            log = _LogView(game, actions, entries, len(entries), header)
        state = source.state_line()
        if previous is not None and previous.state == state:
            state = previous.state  # the very same string: the queues share it
        return Snapshot(hello, state, log, table_frame, key)


class _Table(Protocol):
    """What a gate needs of its page's table (:class:`~firmware.link.webtable.WebTable`)."""

    @property
    def snapshot(self) -> Snapshot: ...

    @property
    def budget(self) -> CrowdBudget: ...

    def now(self) -> float: ...

    def forward(self, gate: PageGate, parsed: Parsed) -> None: ...

    def stats_line(self, gate: PageGate) -> str | None: ...


class PageGate:
    """One page's lines as they arrive (server's thread), each parsed once: answered here
    while the page is unpaired and nothing of it waits on the main loop, else forwarded there,
    parsed, in order. ``connection`` is the page's pairing and frames, which its remote on the
    main loop reads and writes too."""

    def __init__(self, table: _Table, link: PageLink, connection: Connection) -> None:
        self._table = table
        self.link = link
        self.connection = connection
        #: The last frame line the page was sent.
        self.last_frame: str | None = None
        #: Lines forwarded to the main loop (server's thread) and handled there (main loop).
        self.forwarded = 0
        self.handled = 0
        #: The count of forwarded lines at the last right PIN or token (its place in line), and
        #: how many lines followed it to the main loop before it was carried out.
        self._pairing_at = 0
        self._followers = 0
        self._busy = False

    def received(self, raw: bytes) -> None:
        """One line from the page, on the server's thread."""
        try:
            parsed = read_line(raw)
        except Exception as error:  # a bug of ours: one error line in the page's order
            QUIET.note(
                f"parse {failure_place(error)}",
                f"web: a page's line failed to parse: {where_it_failed(error)}; "
                f"the line began {raw[:60]!r}",
                logging.ERROR,
            )
            parsed = ProtocolError(INTERNAL_ERROR)
        if parsed is None:
            return
        if self.connection.paired:
            self._forward(parsed)
            return
        if self.forwarded != self.handled:  # keep the page's order behind a line on the loop
            self._behind(parsed)
            return
        refused = self.connection.refusal(parsed)  # pairing first, then the payload's problem
        if refused is None and isinstance(parsed, ProtocolError):
            refused = parsed
        if refused is not None:
            self._answer((format_line("error", one_line(str(refused))),))
        elif isinstance(parsed, Command):
            self._execute(parsed)

    def _execute(self, command: Command) -> None:
        if self.link.queued_bytes > ANSWER_QUEUE_BYTES:  # before any answer is made
            self._refuse_busy()
            return
        snapshot = self._table.snapshot
        match command:
            case State():
                self._answer((snapshot.state,))
            case Log(start):
                if snapshot.log is None:
                    self._answer((format_line(
                        "error", "log: no game has been played since the device started"
                    ),))
                else:
                    self._answer(snapshot.log.answer(start))
            case Stats():
                line = self._table.stats_line(self)
                if line is not None:  # else it comes once the main loop has counted
                    self._answer((line,))
            case Frames(on):
                self.connection.frames = on
                lines = [f"ok frames {'on' if on else 'off'}"]
                if on and snapshot.table_frame is not None:
                    lines.append(snapshot.table_frame)
                    self.last_frame = snapshot.table_frame
                else:
                    self.last_frame = None
                self._answer(tuple(lines))
            case Hello():
                self.connection.frames = False
                self.last_frame = None
                self._answer((snapshot.hello, snapshot.state))
            case Help():
                self._answer((format_line("help", help_text()),))
            case Ping(token):
                self._answer((format_line("pong", token or None),))
            case Pair(pin):
                self._try(lambda: self.connection.door.pin(pin, self._table.now()), command)
            case Auth(token):
                self._try(lambda: self.connection.door.token(token, self._table.now()), command)
            case _:  # a command this gate does not answer itself: the main loop does
                if self._table.budget.loop_call():
                    self._forward(command)
                else:
                    self._refuse_busy()

    def _behind(self, parsed: Parsed) -> None:
        """A line while one of the page's waits on the main loop: forwarded, in order. Behind a
        right PIN or token (a page asks for its frames, log and statistics right after it) a
        few go free; a ``pair`` or ``auth`` on its address's budget (the main loop checks it
        there); anything else on the crowd's budget."""
        budget = self._table.budget
        if isinstance(parsed, Pair | Auth):
            if budget.pairing_call(self.connection.door.peer):
                self._forward(parsed)
            else:
                self._refuse_busy(again=True)
        elif self.handled < self._pairing_at and self._followers < PAIRING_FOLLOWERS:
            self._followers += 1
            self._forward(parsed)
        elif budget.loop_call():
            self._forward(parsed)
        else:
            self._refuse_busy()

    def _try(self, check: Callable[[], None], command: Command) -> None:
        """A PIN or token: refused here if wrong (the same answer whatever the menu shows),
        carried out on the main loop if right, on its address's own budget (never the
        crowd's: a person pairs whatever the crowd asks)."""
        try:
            check()
        except PairingRefused as refusal:
            self.link.send_line(format_line("error", one_line(str(refusal))))
            if refusal.close:
                self.link.close()
            return
        if self._table.budget.pairing_call(self.connection.door.peer):
            self._forward(command)
            self._pairing_at, self._followers = self.forwarded, 0
        else:
            self._refuse_busy(again=True)

    def _forward(self, parsed: Parsed) -> None:
        self.forwarded += 1
        self._table.forward(self, parsed)

    def _answer(self, lines: tuple[str, ...]) -> None:
        """Queue an answer, unless the page's queue or the crowd's budget is full."""
        if self.link.queued_bytes > ANSWER_QUEUE_BYTES or not self._table.budget.answer(
            len(lines)
        ):
            self._refuse_busy()
            return
        self._busy = False
        for line in lines:
            self.link.send_line(line)

    def send_stats(self, line: str) -> None:
        """The statistics the main loop counted for this page (any thread)."""
        self._answer((line,))

    def _refuse_busy(self, *, again: bool = False) -> None:
        """``error busy``, once until the page is answered again; ``again``: every time (a
        ``pair`` or ``auth``, which the page must hear of to send it again)."""
        if again or not self._busy:
            self._busy = True
            self.link.send_line(_BUSY)


def stats_text(stats: Callable[[], dict[str, Any]] | None) -> str:
    """The answer to ``stats`` (on the main loop): the ``stats`` line, or why there is none."""
    if stats is None:
        return format_line("error", "stats: this device keeps no games (no state directory)")
    return format_line("stats", stats())

