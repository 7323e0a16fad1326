"""The hub's intake through a real mosquitto (the `broker` fixture) into a real SQLite file.

The table here is a small client of our own MQTT link (hal/mqtt.py) that does what a table's
outbox does: it publishes its results and sends again every one not acknowledged yet.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware.hub.hub import Hub
from firmware.hub.service import HubService
from firmware.hub.store import HubStore
from firmware.wire.broker import HUB_USER
from firmware.wire.messages import (
    Ack,
    Assignment,
    Result,
    StandingsBoard,
    ack_topic,
    assign_topic,
    result_topic,
    standings_topic,
    table_user,
)
from hal.mqtt import MqttLink, MqttSettings
from tests.broker import Broker
from tests.hub.helpers import EVENT, game_result, running_round, tournament, wait_until

ROOT = Path(__file__).resolve().parents[2]


class Table:
    """A table's reporting, reduced to its outbox: resend until the hub's Ack."""

    def __init__(
        self,
        broker: Broker,
        number: int,
        on_connect_change: Callable[[bool], None] | None = None,
    ) -> None:
        self.user = table_user(number)
        password = broker.passwords.get(self.user) or broker.add_table(number)[1]
        self.acks: list[Ack] = []
        self.boards: list[StandingsBoard] = []
        self.outbox: dict[str, Result] = {}
        self._lock = threading.Lock()
        self._got = threading.Condition(self._lock)
        self.link = MqttLink(
            MqttSettings(broker.url, self.user, self.user, password),
            self._message,
            on_connect_change,
        )
        self.link.subscribe(ack_topic(EVENT, self.user))
        self.link.subscribe(standings_topic(EVENT))
        self.link.start()
        assert self.link.wait_connected(5)

    def _message(self, topic: str, payload: bytes) -> None:
        if topic == standings_topic(EVENT):
            with self._got:
                self.boards.append(StandingsBoard.from_json(payload))
                self._got.notify_all()
            return
        ack = Ack.from_json(payload)
        with self._got:
            self.acks.append(ack)
            if ack.status in ("stored", "duplicate"):
                self.outbox.pop(ack.id, None)
            self._got.notify_all()

    def send(self, result: Result) -> None:
        with self._lock:
            self.outbox[result.id] = result
        self.link.publish(result_topic(EVENT, self.user), result.to_json())

    def wait_for(self, count: int, timeout_s: float = 5.0) -> list[Ack]:
        with self._got:
            self._got.wait_for(lambda: len(self.acks) >= count, timeout_s)
            return list(self.acks)

    def resend_until_empty(self, timeout_s: float) -> bool:
        """Send every unacknowledged result again each second (as a table's outbox does, not
        faster than the hub answers); whether all were acknowledged in time."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                waiting = list(self.outbox.values())
            if not waiting:
                return True
            for result in waiting:
                self.link.publish(result_topic(EVENT, self.user), result.to_json())
            with self._got:
                self._got.wait_for(lambda: not self.outbox, 1.0)
        return False


def hub_link(broker: Broker, service: HubService) -> MqttLink:
    user, password = broker.hub_credentials
    settings = MqttSettings(broker.url, f"hub-{EVENT}", user, password)
    return MqttLink(settings, service.post, service.connection_changed)


@pytest.fixture
def hub_service(broker: Broker, tmp_path: Path) -> Iterator[tuple[Hub, HubService]]:
    hub = tournament(tmp_path / "t.db")
    running_round(hub)
    service = HubService(hub, time.time)
    service.start(hub_link(broker, service))
    try:
        yield hub, service
    finally:
        service.stop()


def test_a_result_arriving_twice_is_stored_once(
    broker: Broker, hub_service: tuple[Hub, HubService]
) -> None:
    hub, _service = hub_service
    table = Table(broker, 1)
    result = game_result(hub.store.seats(1)[0], 1)
    table.send(result)
    table.send(result)
    acks = table.wait_for(2)
    assert [a.status for a in acks] == ["stored", "duplicate"]
    assert [r.id for r in hub.store.results()] == [result.id]
    # The standings every table and TV reads count the game once.
    with table._got:
        table._got.wait_for(
            lambda: any(sum(r.games_lost for r in b.rows) for b in table.boards), 5
        )
    assert sum(r.games_lost for r in table.boards[-1].rows) == 1
    table.link.stop()


def test_a_table_publishing_for_another_is_refused_by_the_hub(
    broker: Broker, hub_service: tuple[Hub, HubService]
) -> None:
    """table-1 may write its own topics (the ACL); the hub still checks the result's table."""
    hub, _service = hub_service
    table = Table(broker, 1)
    forged = game_result(hub.store.seats(1)[1], 1)  # table-2's game
    table.send(forged)
    (ack,) = table.wait_for(1)
    assert ack.status == "refused" and "table-2" in ack.reason
    assert hub.store.results() == []
    assert len(hub.store.refusals()) == 1
    table.link.stop()


def serve(db: Path, broker: Broker) -> subprocess.Popen[bytes]:
    env = dict(os.environ, SCHOCKEN_HUB_PASSWORD=broker.passwords[HUB_USER])
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; from schockbesteck.cli import main; sys.exit(main())",
         "hub", "serve", "--db", str(db), "--broker", broker.url, "--listen", "127.0.0.1:0",
         "--broker-log", str(broker.log_file)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def test_a_hub_killed_mid_intake_and_restarted_loses_nothing(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    hub = tournament(db)
    seats = running_round(hub)
    hub.store.close()
    process = serve(db, broker)
    try:
        assert process.stdout is not None
        assert b"/phone" in process.stdout.readline()  # serving
        table = Table(broker, 1)
        results = [game_result(seats[0], game, game % 4) for game in range(1, 61)]
        for result in results:
            table.send(result)
        table.wait_for(1)
        process.send_signal(signal.SIGKILL)  # mid-intake: some stored, some not answered
        process.wait(timeout=5)
        # The kill comes at the first Ack: the hub had stored some of the 60 (here 2 to 45),
        # the rest it had queued, taken from the broker unanswered, or not yet received.
        assert len(HubStore(db).results()) > 0
        process = serve(db, broker)
        assert table.resend_until_empty(timeout_s=30), table.outbox
        # The restarted serve counts from its broker's log what the broker denied table-1.
        table.link.publish(result_topic(EVENT, "table-2"), results[0].to_json())
        assert wait_until(lambda: bool(HubStore(db).denials())), "no denial counted"
        assert [(d.user, d.kind) for d in HubStore(db).denials()] == [("table-1", "publish")]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=5)
    stored = HubStore(db).results()
    assert sorted(r.id for r in stored) == sorted(r.id for r in results)
    lost = Hub(HubStore(db)).board().rows
    assert sum(row.games_lost for row in lost) == 60
    assert {a.status for a in table.acks} <= {"stored", "duplicate"}
    table.link.stop()


def test_a_round_started_by_another_process_reaches_the_tables(
    broker: Broker, tmp_path: Path
) -> None:
    """`schocken hub start` beside a running `serve`: the service sees the other connection's
    commit and publishes the retained assignment the table reads."""
    hub = tournament(tmp_path / "t.db")
    service = HubService(hub, time.time)
    service.start(hub_link(broker, service))
    try:
        user, password = broker.add_table(1)
        assigned: list[Assignment] = []
        got = threading.Event()

        def message(_topic: str, payload: bytes) -> None:
            if payload:
                assigned.append(Assignment.from_json(payload))
                got.set()

        table = MqttLink(MqttSettings(broker.url, user, user, password), message)
        table.subscribe(assign_topic(EVENT, user))
        table.start()
        director = Hub(HubStore(tmp_path / "t.db"))  # another connection, as another process
        director.draw_round(seed=1)
        director.start_round(5000.0, 70)
        assert got.wait(5)
        assert assigned[-1].round == 1 and assigned[-1].ends_at == 5000.0 + 70 * 60
        assert set(assigned[-1].players) == set(director.store.seats(1)[0].players)
        table.stop()
    finally:
        service.stop()
