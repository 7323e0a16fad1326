"""The odds worker: odds tables and computer players' decisions, computed off the main loop.

The exact odds (:mod:`engine.odds`) build their tables on first use. For a rule set's odds bots
that takes about 0.1 s here and about 1 s on a Pi Zero 2 W, for the hint's position graph
10-15 ms here (0.1-0.2 s on the Pi), and the odds bot and the hint meet a new situation every
turn or two, each a fraction of a second here and a few seconds on the Pi (docs/performance.md:
"a hint: …"). On the main loop that freezes the screen and the buttons. So the app hands this work
to a :class:`Work`:

* :meth:`Work.prepare` when a game begins: build the tables its hints and computer players need,
  and the opener's objective at this table, while the roll-off is on screen;
* :meth:`Work.submit` for a computer player's decision and a hint in a situation not met before:
  the job runs, and its result comes back to the main loop.

:class:`BackgroundWork` runs every job on one worker thread, in order, and hands each result back
through the main loop's thread-safe call queue (:meth:`firmware.loop.MainLoop.call_soon`); the app
sees a result only on the loop's thread. :class:`InlineWork` runs each job at once on the caller's
thread: for the fake clock of tests and scripted games, where a game must go the same way on every
run and a table built on the loop costs no game time. The engine stays free of threads; only the
jobs' functions come from it, and they read nothing that the loop changes meanwhile.

Once a prepare has built its tables, the worker takes them, and everything else the device holds
by then, out of the garbage collector's full passes (:func:`settle_heap`): such a pass walks every
object while it holds the interpreter, and the page's server and the main loop wait for it.
"""

from __future__ import annotations

import gc
import logging
import queue
import sys
import threading
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from engine.rules import Rules

__all__ = ["BackgroundWork", "InlineWork", "Work", "prepare_tables", "settle_heap"]

logger = logging.getLogger(__name__)

#: The interpreter's switch interval while the worker computes (see BackgroundWork._work).
JOB_SWITCH_INTERVAL_S = 0.0005
#: How long closing waits for the job running on the thread before it leaves it to end with
#: the process.
CLOSE_WAIT_S = 0.5

Result = TypeVar("Result")


class Work(Protocol):
    """Where the app's odds work runs."""

    def prepare(self, rules: Rules, strategies: Collection[str], players: int = 0) -> None:
        """Build what a game under ``rules`` needs: the odds tables, those of ``strategies``
        (computer players' strategy names), and with ``players`` the opener's objective at a
        table of that many (the hint's and the odds bot's first question of every round)."""

    def ready(self, rules: Rules) -> bool:
        """Whether the odds tables of ``rules`` are built (a hint then costs little)."""

    def submit(self, job: Callable[[], Result], done: Callable[[Result], None]) -> None:
        """Run ``job`` off the main loop, then ``done(result)`` on it."""

    def close(self) -> None:
        """Stop; jobs not yet run are dropped."""


def prepare_tables(rules: Rules, strategies: Collection[str], players: int = 0) -> None:
    """Build the odds tables of ``rules`` and those that ``strategies`` need, and with
    ``players`` the opener's objective at a table of that many (any thread)."""
    from engine.bots import make_strategy, prepare_opening
    from engine.odds import build_tables

    build_tables(rules)
    for name in sorted(set(strategies)):
        make_strategy(name).prepare(rules)
    if players >= 2:
        prepare_opening(rules, players)


def settle_heap() -> None:
    """Leave what exists now out of the garbage collector's full passes: it is what the device
    keeps (its modules, its page, the odds tables just built). A full pass walks every object
    it tracks, on whichever thread allocated last, holding the interpreter all the while: with
    the tables that was 40-60 ms of a core each time (this container, under load), which the
    page's server and the main loop waited out. So: the young generations' garbage is collected
    (a few milliseconds), and the rest frozen (:func:`gc.freeze`, which costs nothing).

    Not a full pass first: that would hold the interpreter as long as the passes it saves, at
    every prepare. The price: what is frozen and later becomes garbage in a reference cycle
    stays; docs/performance.md ("A flood of lines") gives what that came to. Any thread."""
    gc.collect(1)
    gc.freeze()


class InlineWork:
    """Every job at once, on the caller's thread; the tables are built on first use."""

    def prepare(self, rules: Rules, strategies: Collection[str], players: int = 0) -> None:
        """Nothing ahead: the engine builds each table when it is first needed."""

    def ready(self, rules: Rules) -> bool:
        return True

    def submit(self, job: Callable[[], Result], done: Callable[[Result], None]) -> None:
        done(job())

    def close(self) -> None:
        """Nothing to stop."""


class BackgroundWork:
    """One worker thread; results go back to the main loop through its call queue.

    Jobs submitted before :meth:`start` wait for it (the app asks for its first tables while it
    is built, before its main loop exists). A job that raises hands its exception to the loop,
    where it is raised as if the job had run there.
    """

    def __init__(self) -> None:
        self._call_soon: Callable[[Callable[[], None]], None] | None = None
        self._after: Callable[[], None] | None = None
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Rule sets (and strategies under them) asked for, and those built; the loop's only.
        self._asked: set[tuple[Rules, str]] = set()
        self._built: set[Rules] = set()

    def prepare(self, rules: Rules, strategies: Collection[str], players: int = 0) -> None:
        wanted = {(rules, ""), *((rules, name) for name in strategies)}
        missing = wanted - self._asked
        opening = (rules, f"opening {players}")
        if players >= 2 and opening not in self._asked:
            missing.add(opening)
        if not missing:
            return
        self._asked |= missing
        names = [name for _, name in missing if name and not name.startswith("opening ")]
        count = players if opening in missing else 0

        def build() -> None:
            prepare_tables(rules, names, count)
            settle_heap()  # the tables stay: no full pass need walk them again

        self.submit(build, lambda _: self._built.add(rules))

    def ready(self, rules: Rules) -> bool:
        return rules in self._built

    def submit(self, job: Callable[[], Result], done: Callable[[Result], None]) -> None:
        if not self._closed:
            self._jobs.put(lambda: self._run(job, done))

    def start(
        self,
        call_soon: Callable[[Callable[[], None]], None],
        after: Callable[[], None] | None = None,
    ) -> None:
        """Start the thread. ``call_soon`` runs its argument on the main loop's thread (the loop's
        :meth:`~firmware.loop.MainLoop.call_soon`); ``after`` runs there after each result was
        handed over (the app re-arms its timers and redraws)."""
        if self._thread is not None or self._closed:
            return
        self._call_soon, self._after = call_soon, after
        self._thread = threading.Thread(target=self._work, name="odds-worker", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread: jobs not started are dropped, and the job it is running (pure
        computation, its answer never handed over now) is waited for at most
        :data:`CLOSE_WAIT_S`; the thread is a daemon, so it ends with the process. A Ctrl+C or a
        ``systemctl stop`` during a rule set's tables (seconds on a Pi) does not wait for them."""
        self._closed = True
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(timeout=CLOSE_WAIT_S)

    # --- the worker thread ----------------------------------------------------------------------

    def _work(self) -> None:
        while not self._closed:
            job = self._jobs.get()
            if job is None:
                return
            # While a job computes, the main loop gets the interpreter back sooner: after each
            # blocking call (an fsync, an I2C write) it waits for the lock that the job holds,
            # and by default a holder keeps it up to 5 ms.
            usual = sys.getswitchinterval()
            sys.setswitchinterval(min(usual, JOB_SWITCH_INTERVAL_S))
            try:
                job()
            finally:
                sys.setswitchinterval(usual)

    def _run(self, job: Callable[[], Result], done: Callable[[Result], None]) -> None:
        call_soon = self._call_soon
        assert call_soon is not None  # the thread runs only once started
        try:
            result = job()
        except BaseException as error:  # raised again on the loop, where the app would see it
            logger.debug("an odds job failed", exc_info=True)
            call_soon(partial(_raise, error))
            return
        call_soon(lambda: self._deliver(done, result))

    def _deliver(self, done: Callable[[Any], None], result: Any) -> None:
        if self._closed:
            return
        done(result)
        if self._after is not None:
            self._after()


def _raise(error: BaseException) -> None:
    raise error
