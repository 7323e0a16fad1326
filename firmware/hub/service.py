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
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from firmware.hub.hub import Hub, Publication
from firmware.wire.messages import ROOT

__all__ = ["BrokerLink", "HubService"]

logger = logging.getLogger(__name__)

#: How often the worker looks for another process's commit, in seconds.
POLL_S = 0.25


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
        #: Results taken whose standings are not published yet.
        self._dirty = False

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
        """The hub's link is up or down: the TVs show it; on every (re)connect, publish the
        retained messages again."""
        self.hub.broker_linked = up
        self._jobs.put(self._republish if up else self._changed)

    def call(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the worker, between two messages."""
        self._jobs.put(job)

    def start(self, link: BrokerLink) -> None:
        """Subscribe, connect, and start the worker."""
        self._link = link
        for topic in self.subscriptions():
            link.subscribe(topic)
        self._thread = threading.Thread(target=self._work, name="hub", daemon=True)
        self._thread.start()
        self.hub.broker_linked = False  # until the first connect
        link.start()

    def stop(self) -> None:
        """Finish the queued messages, then stop the worker and the link."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self._link is not None:
            self._link.stop()

    # -- the worker -----------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=POLL_S)
            except queue.Empty:
                self._look_for_commands()
                continue
            if job is None:
                return
            try:
                if callable(job):
                    job()
                else:
                    self._take(*job)
                if self._dirty and self._jobs.empty():
                    self._flush()
            except Exception:  # a bad message must not end the intake
                logger.exception("hub: a message could not be handled")

    def _take(self, topic: str, payload: bytes) -> None:
        answer = self.hub.receive(topic, payload, self._clock(), standings=False)
        self.taken += 1
        self._publish(answer)  # the Ack: its result is committed
        self._dirty = True

    def _flush(self) -> None:
        """A burst of results is acknowledged one by one; its standings and the TVs' state
        follow once, when the queue is empty."""
        self._dirty = False
        self._publish([self.hub.standings_publication()])
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
