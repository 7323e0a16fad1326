"""The hub's own CPU per result, in one process: ``python -m sim.bench.hub_work``.

A tournament file as ``schocken bench --only phones`` makes it (150 tables, 600 players in
teams of five, a running DM round), ``--games`` games stored through the intake first, then
``--results`` more, each as a table sends it: its status (one result waiting), the result, its
status again (none waiting). After each message (``--flush each``) or once a result (``--flush
once``, what the hub's flush bound gives at ten times a DM's pace) it does what ``schocken hub
serve`` does when it flushes: the standings' publication, the view, the TV's state and its
changes. Measured is the process's CPU (user and system: the machine may be shared), not the
wall clock; the MQTT link, the server's sends to the phones and the broker are not in it
(``schocken bench --only phones`` measures those with the rest).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from engine.scoring import GameResult
from engine.tournament import Entrant
from firmware.hub.hub import Hub, init_tournament
from firmware.hub.store import SeatRow
from firmware.hub.view import HubView, ViewJson
from firmware.hub.view_changes import ViewFeed
from firmware.wire.messages import Result, TableStatus, result_topic, status_topic, table_user

__all__ = ["HubWork", "main"]

EVENT = "bench"


class HubWork:
    """A hub on a fresh file in ``folder`` with ``tables`` tables of a running round."""

    def __init__(self, folder: Path, tables: int = 150, seed: int = 3) -> None:
        self.hub: Hub = init_tournament(folder / "hub.db", EVENT)
        self.hub.store.set("format", "dm")
        players = [Entrant(f"Player {i:03d}", f"Team {i // 5:03d}") for i in range(4 * tables)]
        self.hub.store.add_players(players)
        self.seats: list[SeatRow] = self.hub.draw_round(seed=1)
        self.hub.start_round(time.time(), 70)
        self._rng = random.Random(seed)
        self._games = {seat.table_no: 0 for seat in self.seats}
        self._feed, self._states = ViewFeed(), ViewJson()
        self._shown: HubView | None = None

    def store_games(self, count: int) -> None:
        """``count`` games through the intake, nothing flushed."""
        for _ in range(count):
            seat = self._rng.choice(self.seats)
            self._receive(result_topic(EVENT, table_user(seat.table_no)), self._game(seat))

    def result(self, *, each: bool) -> None:
        """One result as a table sends it, with its two statuses; flushed after each message
        (``each``) or once."""
        seat = self._rng.choice(self.seats)
        user = table_user(seat.table_no)
        for topic, payload in (
            (status_topic(EVENT, user), TableStatus(user, True, 1).to_json()),
            (result_topic(EVENT, user), self._game(seat)),
            (status_topic(EVENT, user), TableStatus(user, True, 0).to_json()),
        ):
            self._receive(topic, payload)
            if each:
                self.flush()
        if not each:
            self.flush()

    def flush(self) -> None:
        """What ``serve`` does when it flushes: the standings' publication, then the TV's state
        and its changes where the view changed."""
        self.hub.standings_publication()
        view = self.hub.view(time.time())
        same = replace(view, now=0.0)
        if same != self._shown:
            self._shown = same
            self._feed.next(self._states.state(view))

    def _receive(self, topic: str, payload: bytes) -> None:
        self.hub.receive(topic, payload, time.time(), standings=False)

    def _game(self, seat: SeatRow) -> bytes:
        self._games[seat.table_no] += 1
        game = self._games[seat.table_no]
        players = tuple(seat.players)
        loser, other = players[game % len(players)], players[(game + 1) % len(players)]
        order = (*((p,) for p in players if p != loser), (loser,))
        order2 = (*((p,) for p in players if p != other), (other,))
        result = GameResult(players, (loser, other), loser, loser, (order, order2))
        return Result.from_game(EVENT, table_user(seat.table_no), 1, game, result).to_json()


def measure(tables: int, games: int, results: int, *, each: bool) -> tuple[float, float]:
    """The hub's user and system CPU per result, in ms."""
    with tempfile.TemporaryDirectory(prefix="schock-hub-work-") as folder:
        work = HubWork(Path(folder), tables)
        work.store_games(games)
        work.flush()
        before = os.times()
        for _ in range(results):
            work.result(each=each)
        after = os.times()
        work.hub.store.close()
    return (1000 * (after.user - before.user) / results,
            1000 * (after.system - before.system) / results)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.bench.hub_work", description=__doc__)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--games", type=int, default=1000, help="games stored before")
    parser.add_argument("--results", type=int, default=200, help="results measured")
    parser.add_argument("--flush", choices=("each", "once"), default="once")
    args = parser.parse_args(argv)
    if min(args.tables, args.results) < 1 or args.games < 0:
        parser.error("--tables and --results must be at least 1, --games at least 0")
    logging.disable(logging.WARNING)  # a refusal would be the bench's own mistake
    try:
        user, system = measure(args.tables, args.games, args.results, each=args.flush == "each")
    finally:
        logging.disable(logging.NOTSET)
    print(f"hub: CPU per result, {args.tables} tables, {args.games} games stored before, "
          f"flushed {args.flush}: {user + system:.2f} ms ({user:.2f} user, {system:.2f} system)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
