"""The links the hub shows, through Debian's real mosquitto: a table's Last Will marks it offline
and keeps its count of unreported results; the hub's own link to the broker, lost and back, is
logged and shown (the TV shows no table as connected meanwhile)."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware.hub.hub import Unreported, UnreportedResults
from firmware.wire.messages import TableStatus, status_topic
from tests.broker import Broker
from tests.hub.helpers import EVENT, running_round, serving, tournament, wait_until


def test_a_tables_last_will_marks_it_offline_and_keeps_its_count(
    module_broker: Broker, tmp_path: Path
) -> None:
    hub = tournament(tmp_path / "t.db", 12)
    running_round(hub)
    user = "table-3"
    with serving(hub, module_broker):
        # A table as the reporter sets it up: its Will is its status with online false (the
        # broker cannot know the count), then its own status: 7 results not yet acknowledged.
        client = paho.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=paho.MQTTv5)
        client.username_pw_set(user, module_broker.passwords[user])
        topic = status_topic(EVENT, user)
        client.will_set(topic, TableStatus(user, False).to_json(), qos=1, retain=True)
        up = threading.Event()
        client.on_connect = lambda *_args: up.set()
        client.connect("127.0.0.1", module_broker.port, keepalive=15)
        client.loop_start()
        assert up.wait(5)
        status = TableStatus(user, True, 7, 1, time.time())
        client.publish(topic, status.to_json(), qos=1, retain=True).wait_for_publish(5)
        assert wait_until(lambda: hub.store.table_status().get(3, (False,))[0])
        # The Wi-Fi gone: no DISCONNECT, the socket just ends; the broker sends the Will.
        client.loop_stop()
        sock = client.socket()
        assert sock is not None
        sock.close()
        assert wait_until(lambda: not hub.store.table_status()[3][0])
        (table,) = [t for t in hub.view(time.time()).tables if t.table == 3]
        assert (table.online, table.outbox) == (False, 7)
        # Finishing the round now warns first, naming the table and its count.
        with pytest.raises(UnreportedResults) as warned:
            hub.finish_round()
        assert warned.value.tables == [Unreported(3, 7, False)]
        row = hub.store.round(1)
        assert row is not None and row.state == "running"
    # The next start of the table says its own count again.
    hub.receive(topic, TableStatus(user, True, 0, 1, time.time()).to_json(), time.time())
    assert hub.store.table_status()[3][:2] == (True, 0)


def test_the_hubs_lost_broker_is_logged_and_shown(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    hub = tournament(tmp_path / "t.db", 8)
    running_round(hub)
    with caplog.at_level(logging.WARNING, "firmware.hub.service"), serving(hub, broker):
        assert wait_until(lambda: (hub.store.broker_link() or (False,))[0])
        broker.kill()
        assert wait_until(lambda: not (hub.store.broker_link() or (True,))[0])
        view = hub.view(time.time())
        assert view.broker is not None and view.to_json()["broker"]["connected"] is False
        assert "hub: lost the broker" in caplog.text
        broker.start()
        assert wait_until(lambda: (hub.store.broker_link() or (False,))[0])
    assert caplog.text.count("hub: connected to the broker") == 2
    stopped = hub.store.broker_link()
    assert stopped is not None and not stopped[0]  # serve's stop says so too
