"""The hub's intake on MQTT: every table's results in, each acknowledged after its commit.

:class:`HubService` owns one thread that does everything with the store: the broker's
messages arrive on paho's network thread and are only queued (:meth:`HubService.post`); the
worker hands each to :meth:`Hub.receive`, which commits it to SQLite, and only then publishes
the Ack and the new standings. A hub killed between the two has committed but not answered:
the table sends the result again and hears "duplicate". A hub killed before the commit lost
nothing either: the table's outbox keeps the result until an Ack comes.

The director's commands may run in another process (``schocken hub start`` beside ``schocken
hub serve``): the worker notices another connection's commit (SQLite's ``data_version``) and
publishes the retained round, assignments and standings again.

Given the broker's log (:meth:`HubService.watch_broker_log`), the worker reads it every
second and counts what the broker denied each login (:mod:`firmware.hub.brokerlog`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from firmware.hub.brokerlog import BrokerLog, Denial
from firmware.hub.hub import Hub, Publication
from firmware.wire.messages import ROOT

__all__ = ["BrokerLink", "HubService"]

logger = logging.getLogger(__name__)

#: How often the worker looks for another process's commit, in seconds.
POLL_S = 0.25
#: The shortest time between two flushes of the standings and the TVs' state, in seconds: a
#: burst of results and statuses within it is shown once, at its end (each state costs the
#: server a send to every phone watching: about 15 ms of CPU for 600). A result waits for the
#: next flush half of this on average.
FLUSH_S = 0.05
#: How often it reads the broker's log, and at least how often it saves where it is in it.
LOG_POLL_S = 1.0
LOG_SAVE_S = 30.0
#: The setting that keeps the place in the broker's log across restarts.
LOG_POSITION = "broker_log_position"


class BrokerLink(Protocol):
    """What the hub needs of its MQTT client (``hal.mqtt.MqttLink``)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False) -> object:
        """Queue a message (QoS 1) for the broker."""

    def subscribe(self, topic: str, qos: int = 1) -> None: ...


_Job = tuple[str, bytes] | Callable[[], None] | None


class HubService:
    """The hub's worker: the intake, the publications, and the TV's wake-ups."""

    def __init__(
        self,
        hub: Hub,
        clock: Callable[[], float],
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.hub = hub
        self._clock = clock
        self._on_change = on_change
        self._jobs: queue.Queue[_Job] = queue.Queue()
        self._link: BrokerLink | None = None
        self._thread: threading.Thread | None = None
        self._version = hub.store.data_version()
        #: Messages taken since the start.
        self.taken = 0
        #: Results taken whose standings are not published yet; when the last flush was
        #: (monotonic), and the standings published last.
        self._dirty = False
        self._flushed_at = -FLUSH_S
        self._standings: Publication | None = None
        self._broker_log: BrokerLog | None = None
        self._log_read_at = 0.0
        self._log_saved_at = 0.0

    def watch_broker_log(self, path: Path) -> None:
        """Count what the broker denies from ``path``, its log (before :meth:`start`), on from
        where the last run stopped (or from its end, the first time)."""
        inode, _, offset = self.hub.store.get(LOG_POSITION).partition(":")
        position = (int(inode), int(offset)) if inode.isdigit() and offset.isdigit() else None
        self._broker_log = BrokerLog(path, position)

    def subscriptions(self) -> list[str]:
        """The topics the hub reads: every table's results and status, and its answers to a
        refill (:mod:`firmware.hub.refill`)."""
        base = f"{ROOT}/{self.hub.event}/table/+"
        return [f"{base}/result", f"{base}/status", f"{base}/refill", f"{base}/seat"]

    # -- any thread -----------------------------------------------------------------------------

    def post(self, topic: str, payload: bytes) -> None:
        """A message from the broker (paho's thread): queued for the worker."""
        self._jobs.put((topic, payload))

    def connection_changed(self, up: bool) -> None:
        """The hub's link to its broker came or went: logged and recorded (the TV and
        ``schocken hub status`` show it); on every (re)connect, the retained messages again."""
        if up:
            logger.warning("hub: connected to the broker")
        else:
            logger.warning("hub: lost the broker; the tables' links are unknown until it is back")
        self._jobs.put(lambda: self._record_link(up))
        if up:
            self._jobs.put(self._republish)

    def _record_link(self, up: bool) -> None:
        self.hub.store.set_broker_link(up, self._clock())
        self._changed()

    def call(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the worker, between two messages."""
        self._jobs.put(job)

    def start(self, link: BrokerLink) -> None:
        """Subscribe, connect, and start the worker."""
        self._link = link
        self.hub.store.set_broker_link(False, self._clock())  # not yet connected
        for topic in self.subscriptions():
            link.subscribe(topic)
        self._thread = threading.Thread(target=self._work, name="hub", daemon=True)
        self._thread.start()
        link.start()

    def stop(self) -> None:
        """Finish the queued messages, then stop the worker and the link."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self._link is not None:
            self._link.stop()
            self.hub.store.set_broker_link(False, self._clock())

    # -- the worker -----------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            wait = POLL_S
            if self._dirty:
                wait = max(0.0, min(wait, self._flushed_at + FLUSH_S - time.monotonic()))
            try:
                job = self._jobs.get(timeout=wait)
            except queue.Empty:
                self._flush_due()
                self._look_for_commands()
                self._read_broker_log()
                continue
            if job is None:
                return
            try:
                if callable(job):
                    job()
                else:
                    self._take(*job)
                if self._jobs.empty():
                    self._flush_due()
            except Exception:  # a bad message must not end the intake
                logger.exception("hub: a message could not be handled")
            self._read_broker_log()

    def _flush_due(self) -> None:
        """Flush what was taken if :data:`FLUSH_S` passed since the last flush (else the
        worker waits for that, or for the next message)."""
        if self._dirty and time.monotonic() >= self._flushed_at + FLUSH_S:
            try:
                self._flush()
            except Exception:
                logger.exception("hub: the standings could not be published")

    def _take(self, topic: str, payload: bytes) -> None:
        answer = self.hub.receive(topic, payload, self._clock(), standings=False)
        self.taken += 1
        self._publish(answer)  # the Ack: its result is committed
        self._dirty = True

    def _flush(self) -> None:
        """A burst of results is acknowledged one by one; its standings (where they changed)
        and the TVs' state follow once, when the queue is empty and :data:`FLUSH_S` passed
        since the last."""
        self._dirty = False
        self._flushed_at = time.monotonic()
        standings = self.hub.standings_publication()
        if standings is not self._standings:  # the hub makes it again only when it changed
            self._publish([standings])
            self._standings = standings
        self._changed()

    def _read_broker_log(self) -> None:
        """Every second: count the denials logged since the last read, one commit for all (a
        failure is logged; the intake goes on)."""
        try:
            self._count_denials()
        except Exception:
            logger.exception("hub: the broker's log could not be read")

    def _count_denials(self) -> None:
        now = time.monotonic()
        if self._broker_log is None or now - self._log_read_at < LOG_POLL_S:
            return
        self._log_read_at = now
        denials = self._broker_log.read()
        if not denials and now - self._log_saved_at < LOG_SAVE_S:
            return
        self._log_saved_at = now
        inode, offset = self._broker_log.position
        self.hub.store.count_denials(
            [(d.user, d.kind, d.topic) for d in denials], self._clock(), f"{inode}:{offset}"
        )
        if denials:
            _log_denials(denials)
            self._changed()

    def _look_for_commands(self) -> None:
        version = self.hub.store.data_version()
        if version != self._version:
            self._version = version
            self._republish()

    def _republish(self) -> None:
        self._publish(self.hub.publications())
        self._changed()

    def _publish(self, publications: list[Publication]) -> None:
        if self._link is None:
            return
        for item in publications:
            self._link.publish(item.topic, item.payload, qos=1, retain=item.retain)

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()


def _log_denials(denials: list[Denial]) -> None:
    """One line per login and kind of a read's denials."""
    by: dict[tuple[str, str], list[Denial]] = {}
    for denial in denials:
        by.setdefault((denial.user, denial.kind), []).append(denial)
    for (user, kind), found in sorted(by.items()):
        logger.warning("the broker denied %s %d %s (the last on %s)", user, len(found),
                       "publishes" if kind == "publish" else "subscriptions", found[-1].topic)

