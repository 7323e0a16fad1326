"""The hub's flushes through a real mosquitto (firmware/hub/service.py): a burst of results is
acknowledged one by one, and its standings and the TVs' state follow at most once per
FLUSH_S; a table's status changes the TVs' state but publishes no standings again."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from pytest_mock import MockerFixture

from firmware.hub.service import FLUSH_S, HubService
from firmware.wire.messages import TableStatus, standings_topic, status_topic
from tests.broker import Broker
from tests.hub.helpers import EVENT, game_result, running_round, tournament, wait_until
from tests.hub.test_broker_intake import Table, hub_link


def on_worker(service: HubService, probe: Callable[[], bool]) -> bool:
    """``probe`` run on the service's worker between two jobs (False if it does not answer)."""
    answer: list[bool] = []
    done = threading.Event()

    def job() -> None:
        answer.append(probe())
        done.set()

    service.call(job)
    return done.wait(5) and answer[0]


def test_a_burst_is_shown_at_most_once_a_flush_and_a_status_publishes_no_standings(
    module_broker: Broker, tmp_path: Path, mocker: MockerFixture
) -> None:
    hub = tournament(tmp_path / "t.db", 8)
    seats = running_round(hub)
    shown = []
    lock = threading.Lock()

    def changed() -> None:
        with lock:
            shown.append(time.monotonic())

    service = HubService(hub, time.time, changed)
    link = hub_link(module_broker, service)
    published = mocker.spy(link, "publish")
    service.start(link)
    table = Table(module_broker, 1)
    try:
        assert link.wait_connected(5)
        assert wait_until(lambda: len(shown) >= 2)  # the link recorded, the state on connect
        began = time.monotonic()
        for game in range(1, 21):
            table.send(game_result(seats[0], game, game % 4))
        assert [a.status for a in table.wait_for(20)] == ["stored"] * 20
        # Flushed: asked on the worker itself, between two of its jobs, so that no flush is
        # half done (its flag goes down before it publishes and tells the TV).
        assert wait_until(
            lambda: on_worker(
                service, lambda: len(hub.store.results()) == 20 and not service._dirty
            )
        )
        took = time.monotonic() - began
        with lock:
            flushes = [at for at in shown if at >= began]
        assert 1 <= len(flushes) <= took / FLUSH_S + 2
        assert all(b - a >= FLUSH_S * 0.99 for a, b in pairwise(flushes))
        boards = [c for c in published.call_args_list if c.args[0] == standings_topic(EVENT)]
        assert 1 <= len(boards) <= len(flushes) + 1  # and the one on connect
        before, count = len(boards), len(shown)
        status = TableStatus("table-1", True, 3)
        table.link.publish(status_topic(EVENT, "table-1"), status.to_json(), retain=True)
        # Stored and flushed, asked on the worker as above: then the TV has been told.
        assert wait_until(
            lambda: on_worker(service, lambda: 1 in hub.store.table_status() and not service._dirty)
        )
        assert hub.store.table_status()[1][1] == 3
        assert len(shown) > count  # the TV sees the table's 3 waiting
        boards = [c for c in published.call_args_list if c.args[0] == standings_topic(EVENT)]
        assert len(boards) == before
    finally:
        table.link.stop()
        service.stop()
