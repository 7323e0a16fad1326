"""Who a login is, in Debian's real mosquitto: a table's password can only ever be that table.

With table-1's password and the client id of the hub (``hub-dm2026``) or of another table, a
client reconnecting in a loop takes neither session (the broker uses the login as the client id,
``use_username_as_clientid``), while another table's results keep being stored. What the broker
denies that login (a publish on another table's topic, a subscription beyond its rights) the hub
counts from the broker's log and shows in its view.

The module's tests share one broker (``module_broker``) and its users.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from pytest_mock import MockerFixture

from firmware.hub.hub import Hub
from firmware.hub.service import HubService
from firmware.wire.messages import result_topic, table_user
from hal.mqtt import MqttLink, MqttSettings
from tests.broker import Broker
from tests.hub.helpers import (
    EVENT,
    game_result,
    running_round,
    serving,
    tournament,
    wait_until,
)
from tests.hub.test_broker_intake import Table


@pytest.fixture
def hub_service(
    module_broker: Broker, tmp_path: Path, mocker: MockerFixture
) -> Iterator[tuple[Hub, HubService]]:
    """The hub's service on its own client id, watching the broker's log; its link's ups and
    downs recorded (``HubService.connection_changed`` spied)."""
    hub = tournament(tmp_path / "t.db", 12)
    running_round(hub)
    spy = mocker.spy(HubService, "connection_changed")
    with serving(hub, module_broker, watch_log=True) as service:
        yield hub, service
    assert spy.call_count >= 1


def impostor(broker: Broker, login: str, client_ids: list[str], stop: threading.Event) -> int:
    """Connect with ``login``'s password under each of ``client_ids`` in turn, persistent
    session asked for, until ``stop``; how many times it got in."""
    connected = 0
    while not stop.is_set():
        for client_id in client_ids:
            client = paho.Client(
                CallbackAPIVersion.VERSION2, client_id=client_id, protocol=paho.MQTTv5
            )
            client.username_pw_set(login, broker.passwords[login])
            properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
            properties.SessionExpiryInterval = 3600
            up = threading.Event()
            client.on_connect = lambda *_args, up=up: up.set()
            client.connect("127.0.0.1", broker.port, clean_start=False, properties=properties)
            client.loop_start()
            if up.wait(5):
                connected += 1
            client.disconnect()
            client.loop_stop()
    return connected


def test_a_tables_login_takes_neither_the_hubs_session_nor_another_tables(
    module_broker: Broker, hub_service: tuple[Hub, HubService], mocker: MockerFixture
) -> None:
    hub, _service = hub_service
    table_changes = mocker.Mock()  # table-2's link's ups and downs
    table = Table(module_broker, 2, on_connect_change=table_changes)
    stop = threading.Event()
    got_in: list[int] = []
    ids = [f"hub-{EVENT}", table_user(2), f"{EVENT}-{table_user(2)}"]
    attack = threading.Thread(
        target=lambda: got_in.append(impostor(module_broker, table_user(1), ids, stop))
    )
    attack.start()
    try:
        seat = hub.store.seats(1)[1]
        for game in range(1, 6):
            table.send(game_result(seat, game))
            table.wait_for(game)
    finally:
        stop.set()
        attack.join(10)
    assert got_in and got_in[0] >= len(ids)  # it got in, as itself, again and again
    assert [ack.status for ack in table.acks] == ["stored"] * 5
    assert len(hub.store.results()) == 5
    # Neither the hub's link nor table-2's was closed by the impostor.
    spy = HubService.connection_changed
    assert [c.args[1:] for c in spy.call_args_list] == [(True,)]  # type: ignore[attr-defined]
    assert [c.args for c in table_changes.call_args_list] == [(True,)]
    log = module_broker.log_file.read_text()
    assert f"as hub-{EVENT} (p5, c0, k60, u'table-1')" not in log
    assert "as table-1 (p5, c0, k60, u'table-1')" in log
    table.link.stop()


def test_what_the_broker_denies_a_login_is_counted_and_shown(
    module_broker: Broker, hub_service: tuple[Hub, HubService]
) -> None:
    hub, _service = hub_service
    inbox: list[str] = []
    link = MqttLink(
        MqttSettings(module_broker.url, "anything", "table-1", module_broker.passwords["table-1"]),
        lambda topic, _payload: inbox.append(topic),
    )
    link.subscribe("schock/#")  # beyond its rights: granted, nothing forbidden delivered
    link.subscribe(f"schock/{EVENT}/ack/table-1")  # its own
    link.start()
    assert link.wait_connected(5)
    forged = game_result(hub.store.seats(1)[1], 1)
    delivery = link.publish(result_topic(EVENT, "table-2"), forged.to_json())
    wait_until(lambda: sum(r.count for r in hub.store.denials()) >= 2)
    link.stop()
    assert delivery.done()  # the broker answered it (PUBACK "not authorised") and dropped it
    assert [(r.user, r.kind, r.count, r.last_topic) for r in hub.store.denials()] == [
        ("table-1", "publish", 1, result_topic(EVENT, "table-2")),
        ("table-1", "subscribe", 1, "schock/#"),
    ]
    view = hub.view(time.time())
    assert view.denied == 2 and view.to_json()["denied"] == 2
    assert {t.table: t.denied for t in view.tables}[1] == 2
    assert hub.store.results() == []  # the forged result never reached the hub
