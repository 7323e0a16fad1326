"""The director's desk beside a running hub, through Debian's real mosquitto: a correction and a
paper table card made from another connection to the file (as `schocken hub correct` and
`paper` run beside `serve`) are recounted and published to the tables and TVs, and a table's
own copy of a corrected result, sent again, is answered "duplicate"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.scoring import GameResult
from firmware.hub.hub import Hub
from firmware.hub.store import HubStore
from tests.broker import Broker, mosquitto_missing, running_broker
from tests.hub.helpers import game_result, running_round, serving, tournament
from tests.hub.test_broker_intake import Table


@pytest.fixture(scope="module")
def module_broker() -> Iterator[Broker]:
    if missing := mosquitto_missing():
        pytest.skip(missing)
    with running_broker() as broker:
        broker.add_tables(2)
        yield broker


def lost_on_the_board(table: Table, player: str, count: int) -> bool:
    """Wait until the retained standings the table reads say ``player`` lost ``count`` games."""
    with table._got:
        return table._got.wait_for(
            lambda: bool(table.boards)
            and {r.name: r.games_lost for r in table.boards[-1].rows}.get(player) == count,
            10,
        )


def test_a_correction_and_a_paper_card_reach_the_tables_standings(
    module_broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    hub = tournament(db)
    seats = running_round(hub)
    with serving(hub, module_broker):
        table = Table(module_broker, 1)
        sent = game_result(seats[0], 1)  # lost by players[0]
        table.send(sent)
        assert table.wait_for(1)[0].status == "stored"
        first, second = seats[0].players[:2]
        assert lost_on_the_board(table, first, 1)
        director = Hub(HubStore(db))  # another connection, as another process
        order = (tuple(p for p in seats[0].players if p != second), (second,))
        fixed = GameResult(seats[0].players, (second, second), None, second, (order, order))
        director.correct_result(sent.id, fixed, "Vera", "a Durchmarsch on the card", time.time())
        assert lost_on_the_board(table, first, 0) and lost_on_the_board(table, second, 1)
        table.send(sent)  # the table's own copy again
        assert table.wait_for(2)[1].status == "duplicate"
        a = seats[1].players[0]
        other = (tuple(p for p in seats[1].players if p != a), (a,))
        card = GameResult(seats[1].players, (a, a), None, a, (other, other))
        director.paper_result(1, 2, 1, card, "Vera", "paper table card", time.time())
        assert lost_on_the_board(table, a, 1)
        table.link.stop()
    assert sum(line.games_lost for line in Hub(HubStore(db)).progress().lines) == 2
