"""The broker's ACL and logins (firmware/wire/broker.py) in Debian's real mosquitto.

A table writes only below its own ``table/TABLE`` level and reads only its own acks and
assignment; nobody gets in without a user and its password. Each refusal is checked where it
matters: the forbidden message never reaches a subscriber. Each check ends on a sentinel sent
after the forbidden message by the same client (mosquitto passes one client's messages on in
order), so no test waits for something not to happen.

The module's tests share one broker (``module_broker``): the broker takes each login as its client
id, so each test's sessions end with their connections (a session expiry of 0: no session of an
earlier test delivers to a later one), and the hub clears every retained message a test
published.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Iterator

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from engine.tournament import PhaseKind
from firmware.wire.messages import (
    Ack,
    Assignment,
    TableStatus,
    ack_topic,
    assign_topic,
    refill_topic,
    result_topic,
    round_topic,
    standings_topic,
    status_topic,
)
from hal.mqtt import MqttLink, MqttSettings
from tests.broker import Broker

EVENT = "dm2026"
Inbox = queue.Queue[tuple[str, bytes]]

#: Each test's own suffix for its client ids on the module's broker.
_TEST_NUMBERS = itertools.count(1)


class Clients:
    """MqttLinks on the fixture's broker, each with its own inbox; all stopped at the end."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.links: list[MqttLink] = []
        self.suffix = f"t{next(_TEST_NUMBERS)}"
        #: Topics published retained by this test: cleared by the hub at :meth:`close`.
        self.retained: set[str] = set()

    def connect(self, user: str, *topics: str, client_id: str | None = None) -> Inbox:
        inbox: Inbox = queue.Queue()
        link = MqttLink(
            MqttSettings(
                url=self.broker.url,
                client_id=f"{client_id or user}-{self.suffix}",
                username=user,
                password=self.broker.passwords[user],
                session_expiry_s=0,
            ),
            on_message=lambda topic, payload: inbox.put((topic, payload)),
        )
        self.links.append(link)
        for topic in topics:
            link.subscribe(topic)
        link.start()
        assert link.wait_connected(5), f"{user} could not connect"
        return inbox

    def publish(self, user: str, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Publish as ``user`` (its link made by :meth:`connect`) and wait for the PUBACK."""
        link = next(link for link in self.links if link.settings.username == user)
        if retain:
            self.retained.add(topic)
        delivery = link.publish(topic, payload, retain=retain)
        done = threading.Event()
        for _ in range(200):
            if delivery.done():
                return
            done.wait(0.025)
        pytest.fail(f"no PUBACK for {topic}")

    def ready(self, inbox: Inbox, topic: str) -> None:
        """Wait until ``inbox``'s subscriptions are in place: the hub publishes on ``topic``
        until one arrives; then the inbox is emptied of those probes."""
        for _ in range(40):
            self.publish("hub", topic, b'{"probe": true}')
            try:
                arrived, _payload = inbox.get(timeout=0.25)
            except queue.Empty:
                continue
            assert arrived == topic
            while not inbox.empty():
                assert inbox.get_nowait()[0] == topic
            return
        pytest.fail(f"the subscription to {topic} never came into force")

    def close(self) -> None:
        """Clear what this test left retained (an empty retained message), stop every link."""
        try:
            if self.retained:
                if not any(link.settings.username == "hub" for link in self.links):
                    self.connect("hub", client_id="hub-cleaner")
                for topic in sorted(self.retained):
                    self.publish("hub", topic, b"", retain=True)
        finally:
            for link in self.links:
                link.stop()


@pytest.fixture(scope="module")
def acl_broker(module_broker: Broker) -> Broker:
    """The module's broker with table-1 and table-2: one pass over the password file, one
    reload."""
    module_broker.add_tables(2)
    return module_broker


@pytest.fixture
def clients(acl_broker: Broker) -> Iterator[Clients]:
    made = Clients(acl_broker)
    try:
        yield made
    finally:
        made.close()


def until(inbox: Inbox, sentinel_topic: str) -> list[str]:
    """The topics that arrived up to and including ``sentinel_topic``, then whatever is left."""
    seen = []
    while True:
        topic, _payload = inbox.get(timeout=10)
        seen.append(topic)
        if topic == sentinel_topic:
            break
    while not inbox.empty():
        seen.append(inbox.get_nowait()[0])
    return seen


FORBIDDEN_FOR_TABLE_2 = {
    "another table's result": result_topic(EVENT, "table-1"),
    "another table's status": status_topic(EVENT, "table-1"),
    "its own ack": ack_topic(EVENT, "table-2"),
    "its own assignment": assign_topic(EVENT, "table-2"),
    "the round": round_topic(EVENT),
    "the standings": standings_topic(EVENT),
    "the refill request": refill_topic(EVENT),
    "beside the tree": f"schock/{EVENT}/table",
}


@pytest.mark.parametrize("topic", FORBIDDEN_FOR_TABLE_2.values(), ids=FORBIDDEN_FOR_TABLE_2)
def test_a_table_cannot_write_outside_its_own_topics(clients: Clients, topic: str) -> None:
    hub = clients.connect("hub", "schock/#")
    clients.ready(hub, round_topic(EVENT))
    clients.connect("table-2")
    own = result_topic(EVENT, "table-2")

    clients.publish("table-2", topic, b'{"forged": true}')
    clients.publish("table-2", own, b'{"sentinel": true}')

    assert until(hub, own) == [own]


def test_a_forged_retained_status_is_not_kept_either(clients: Clients) -> None:
    clients.connect("table-2")
    forged = TableStatus("table-1", online=False, outbox=0, round=None, at=1.0)
    clients.publish("table-2", status_topic(EVENT, "table-1"), forged.to_json(), retain=True)
    clients.publish("table-2", status_topic(EVENT, "table-2"), b"{}", retain=True)

    # A subscriber that comes later gets the retained messages: only table-2's own.
    late = clients.connect("hub", f"schock/{EVENT}/table/+/status", client_id="hub-late")

    assert until(late, status_topic(EVENT, "table-2")) == [status_topic(EVENT, "table-2")]


def test_a_table_writes_its_own_result_and_status(clients: Clients) -> None:
    hub = clients.connect("hub", "schock/#")
    clients.ready(hub, round_topic(EVENT))
    clients.connect("table-1")

    clients.publish("table-1", result_topic(EVENT, "table-1"), b"{}")
    clients.publish("table-1", status_topic(EVENT, "table-1"), b"{}")

    assert until(hub, status_topic(EVENT, "table-1")) == [
        result_topic(EVENT, "table-1"),
        status_topic(EVENT, "table-1"),
    ]


@pytest.mark.parametrize(
    "subscription",
    [ack_topic(EVENT, "table-1"), f"schock/{EVENT}/ack/+", "schock/#", "#"],
)
def test_a_table_cannot_read_another_tables_acks(clients: Clients, subscription: str) -> None:
    own_ack, other_ack = ack_topic(EVENT, "table-2"), ack_topic(EVENT, "table-1")
    clients.connect("hub")
    spy = clients.connect("table-2", subscription, own_ack)
    clients.ready(spy, own_ack)
    owner = clients.connect("table-1", other_ack)

    # Table 1 gets its acks (at least one probe, then this one) ...
    clients.ready(owner, other_ack)
    clients.publish("hub", other_ack, Ack("r1", "stored").to_json())
    assert until(owner, other_ack) == [other_ack]
    clients.publish("hub", own_ack, Ack("r2", "stored").to_json())

    # ... and none of them reached table 2 before its own.
    assert set(until(spy, own_ack)) == {own_ack}


def test_a_table_cannot_read_another_tables_retained_assignment(clients: Clients) -> None:
    clients.connect("hub")
    for number in (1, 2):
        table = f"table-{number}"
        assignment = Assignment(
            event=EVENT, round=1, table=table, number=number,
            players=("Ute", "Jupp", "Anke"), starts_at=1000.0, ends_at=None,
            scheme={}, kind=PhaseKind.POINTS, lives=(),
        )  # fmt: skip
        clients.publish("hub", assign_topic(EVENT, table), assignment.to_json(), retain=True)

    spy = clients.connect("table-2", f"schock/{EVENT}/assign/+")

    assert set(until(spy, assign_topic(EVENT, "table-2"))) == {assign_topic(EVENT, "table-2")}


def test_a_table_reads_the_round_the_standings_and_a_refill_request(clients: Clients) -> None:
    clients.connect("hub")
    table = clients.connect("table-1", round_topic(EVENT), standings_topic(EVENT),
                            refill_topic(EVENT))  # fmt: skip
    clients.ready(table, round_topic(EVENT))

    clients.publish("hub", round_topic(EVENT), b"{}")
    clients.publish("hub", standings_topic(EVENT), b"{}")
    clients.publish("hub", refill_topic(EVENT), b"{}")

    assert until(table, refill_topic(EVENT)) == [
        round_topic(EVENT), standings_topic(EVENT), refill_topic(EVENT)
    ]


def connack(broker: Broker, username: str | None, password: str | None) -> ReasonCode:
    """The broker's answer to a login, read with paho itself (MqttLink only retries)."""
    answer: queue.Queue[ReasonCode] = queue.Queue()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="intruder", protocol=paho.MQTTv5)
    if username is not None:
        client.username_pw_set(username, password)
    client.on_connect = lambda _c, _u, _f, reason, _p: answer.put(reason)
    client.connect("127.0.0.1", broker.port)
    try:
        return connack_of(client, answer)
    finally:
        client.disconnect()


def connack_of(client: paho.Client, answer: queue.Queue[ReasonCode]) -> ReasonCode:
    """The CONNACK's reason code, paho's loop run on this thread until it comes: paho's own
    thread would, after a refusal, sleep its reconnect delay (a second) before it could stop."""
    deadline = time.monotonic() + 10
    while answer.empty() and time.monotonic() < deadline:
        client.loop(timeout=0.05)
    return answer.get_nowait()


@pytest.mark.parametrize(
    ("username", "password"),
    [
        pytest.param(None, None, id="anonymous"),
        pytest.param("table-1", "wrong", id="wrong-password"),
        pytest.param("table-1", "", id="empty-password"),
        pytest.param("table-99", "guess", id="unknown-user"),
    ],
)
def test_nobody_gets_in_without_a_user_and_its_password(
    clients: Clients, username: str | None, password: str | None
) -> None:
    reason = connack(clients.broker, username, password)

    assert reason.is_failure
    assert reason.getName() in ("Not authorized", "Bad user name or password")


def test_the_right_password_gets_in(clients: Clients) -> None:
    reason = connack(clients.broker, "table-1", clients.broker.passwords["table-1"])

    assert not reason.is_failure
