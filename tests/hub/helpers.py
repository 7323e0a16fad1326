"""What the hub's tests share: a tournament file with players, and a table's game result."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from engine.scoring import GameResult
from engine.tournament import Entrant
from firmware.hub.hub import Hub, init_tournament
from firmware.hub.service import HubService
from firmware.hub.store import SeatRow
from firmware.wire.messages import Result
from hal.mqtt import MqttLink, MqttSettings
from tests.broker import Broker

EVENT = "dm2026"


def tournament(path: Path, players: int = 8, *, teams: int = 0, fmt: str = "dm") -> Hub:
    """A tournament file at ``path`` with ``players`` players (in ``teams`` teams)."""
    hub = init_tournament(path, EVENT)
    hub.store.set("format", fmt)
    hub.store.add_players(
        [Entrant(f"P{i:02}", f"T{i % teams}" if teams else "") for i in range(players)]
    )
    return hub


def running_round(hub: Hub, now: float = 1000.0) -> list[SeatRow]:
    """Draw the next round (seed 1) and start it with a 60-minute time box."""
    tables = hub.draw_round(seed=1)
    hub.start_round(now, 60)
    return tables


def game_result(
    table: SeatRow, game: int, loser_index: int = 0, *, table_name: str | None = None
) -> Result:
    """The Result of game ``game`` at ``table``: its player ``loser_index`` lost half 1 and
    the final, the next player half 2."""
    players: Sequence[str] = table.players
    loser = players[loser_index]
    other = players[(loser_index + 1) % len(players)]
    order = (*((p,) for p in players if p != loser), (loser,))
    order2 = (*((p,) for p in players if p != other), (other,))
    result = GameResult(tuple(players), (loser, other), loser, loser, (order, order2))
    return Result.from_game(
        EVENT, table_name or f"table-{table.table_no}", table.round, game, result
    )


@contextmanager
def serving(hub: Hub, broker: Broker, *, watch_log: bool = False) -> Iterator[HubService]:
    """The hub's service on the real ``broker`` under its own client id, connected (watching the
    broker's log for denials if ``watch_log``); stopped at the end."""
    service = HubService(hub, time.time)
    if watch_log:
        service.watch_broker_log(broker.log_file)
    user, password = broker.hub_credentials
    settings = MqttSettings(broker.url, f"hub-{EVENT}", user, password)
    link = MqttLink(settings, service.post, service.connection_changed)
    service.start(link)
    assert link.wait_connected(5), "the hub could not connect"
    try:
        yield service
    finally:
        service.stop()


def wait_until(condition: Callable[[], object], timeout_s: float = 10.0) -> bool:
    """Poll ``condition`` every 20 ms until it holds or ``timeout_s`` pass; whether it held."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
