"""A table cut off silently (sim/tournament/cutoff.py) on Debian's mosquitto: no DISCONNECT, no
FIN or RST, only bytes that stop; so the broker's keepalive gives up on the table and publishes
its Last Will, what the table published meanwhile is lost on the way, and once the network is
back the table's outbox brings every result to the hub once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from engine.scoring import load_scheme, scheme_to_mapping
from firmware.wire.messages import Assignment
from sim.fakes import FakeClock
from sim.tournament.cutoff import CutOffProxy
from sim.tournament.simulated_table import SimulatedTable, TableSettings, recount_from_journal
from tests.broker import Broker
from tests.tournament.hubstand import HubStand, wait_for

EVENT = "cut26"
START = 1_800_000_000.0


@pytest.fixture
def proxy(module_broker: Broker) -> Iterator[CutOffProxy]:
    running = CutOffProxy(module_broker.port)
    running.start()
    yield running
    running.close()


def test_a_table_cut_off_silently_gets_its_will_and_loses_nothing(
    module_broker: Broker, proxy: CutOffProxy, tmp_path: Path
) -> None:
    _user, password = module_broker.add_table(31)
    hub = HubStand(module_broker, EVENT, client_id="hub-cut")
    # A keepalive of 1 s: the broker gives up on a silent table after 1.5 keepalives, at its
    # next look (about 5 s here); the device's 15 s is the same path, some 25 s long.
    table = SimulatedTable(31, TableSettings(proxy.url, EVENT, password, keepalive_s=1),
                           tmp_path, FakeClock(START))
    table.rules = replace(table.rules, deckel=3)
    assignment = Assignment(EVENT, 1, "table-31", 31, ("Anna", "Ben", "Carla"), START,
                            START + 3600, scheme_to_mapping(load_scheme("verlustpunkte")))
    # Try again every 0.1-0.4 s once the network is back (the device's backoff starts at 1 s).
    table.link._client.reconnect_delay_set(min_delay=0.1, max_delay=0.4)  # type: ignore[arg-type]
    table.start()
    try:
        wait_for(lambda: "table-31" in hub.status and hub.status["table-31"].online,
                 step=table.step, what="the table's online status")
        proxy.cut()
        assert table.reporter.online  # nothing told the table
        table.play_round(assignment, games=1)  # published into the void
        wait_for(lambda: not hub.status["table-31"].online, step=table.step,
                 what="the Last Will the broker publishes for the silent table")
        assert hub.received == []
        assert proxy.dropped > 0
        assert table.pending > 0
        proxy.restore()
        wait_for(lambda: table.pending == 0, step=table.step, timeout_s=30,
                 what="the acks once the network is back")
        wait_for(lambda: hub.status["table-31"].online, step=table.step,
                 what="the table's online status again")
    finally:
        table.close()
        hub.stop()
    recounted = sorted(r.id for r in recount_from_journal(tmp_path))
    assert len(recounted) >= 2
    assert sorted(hub.stored) == recounted
