"""A stand-in for the hub in the table's tests: a real MQTT client (hal.mqtt on paho) that takes
every table's results, keeps each id once, and answers with the hub's Ack as the contract says.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware.wire.messages import (
    Ack,
    Assignment,
    RefillRequest,
    Result,
    TableStatus,
    ack_topic,
    assign_topic,
    refill_topic,
    table_of_topic,
)
from hal.mqtt import MqttLink, MqttSettings
from tests.broker import Broker


@dataclass
class HubStand:
    """Subscribes to ``schock/EVENT/table/+/#``; stores results by id, acks each one."""

    broker: Broker
    event: str
    #: id -> the result, stored once.
    stored: dict[str, Result] = field(default_factory=dict)
    #: Every result id received, in order (twice if delivered twice).
    received: list[str] = field(default_factory=list)
    #: table -> its last retained status.
    status: dict[str, TableStatus] = field(default_factory=dict)
    #: Ids to refuse, with the reason.
    refuse: dict[str, str] = field(default_factory=dict)
    #: False: take results without answering (a hub that is down).
    answering: bool = True
    #: The ids of results sent again for a refill, in order, and the assignments sent with.
    refilled: list[str] = field(default_factory=list)
    seats: list[Assignment] = field(default_factory=list)
    client_id: str = "hub"

    def __post_init__(self) -> None:
        user, password = self.broker.hub_credentials
        self._lock = threading.Lock()
        self.link = MqttLink(
            MqttSettings(self.broker.url, client_id=self.client_id, username=user,
                         password=password),
            on_message=self._message,
        )
        self.link.subscribe(f"schock/{self.event}/table/+/#")
        self.link.start()
        assert self.link.wait_connected(10), "the hub stand could not connect"

    def _message(self, topic: str, payload: bytes) -> None:
        where = table_of_topic(topic)
        assert where is not None, topic
        _event, table, leaf = where
        if leaf == "status":
            with self._lock:
                self.status[table] = TableStatus.from_json(payload)
            return
        if leaf in ("refill", "seat"):
            with self._lock:
                if leaf == "refill":
                    self.refilled.append(Result.from_json(payload).id)
                else:
                    self.seats.append(Assignment.from_json(payload))
            return
        result = Result.from_json(payload)
        with self._lock:
            self.received.append(result.id)
            if not self.answering:
                return
            if result.id in self.refuse:
                ack = Ack(result.id, "refused", self.refuse[result.id])
            elif result.id in self.stored:
                ack = Ack(result.id, "duplicate")
            else:
                self.stored[result.id] = result
                ack = Ack(result.id, "stored")
        self.link.publish(ack_topic(self.event, table), ack.to_json())

    def assign(self, assignment: Assignment) -> None:
        """Publish ``assignment`` retained on its table's topic."""
        self.link.publish(assign_topic(assignment.event, assignment.table),
                          assignment.to_json(), retain=True)

    def ask_refill(self, asked_at: float) -> None:
        """Ask every table to send its results again (retained, as the hub does)."""
        self.link.publish(refill_topic(self.event), RefillRequest(self.event, asked_at).to_json(),
                          retain=True)

    def end_refill(self) -> None:
        self.link.publish(refill_topic(self.event), b"", retain=True)

    def stop(self) -> None:
        self.link.stop()


def wait_for(condition: Callable[[], bool], *, step: Callable[[], None] = lambda: None,
             timeout_s: float = 20.0, what: str = "the condition") -> None:
    """Call ``step`` until ``condition`` holds; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout_s} s")
        step()
        time.sleep(0.02)
