"""The director's desk on the command line: `schocken hub results|paper|correct|void|accept|desk`.

Each action goes through :class:`firmware.hub.hub.Hub` (the table's own checks, who, when and
why kept in the file's ``desk``) and prints the standings' lines it changed: the standings are
recounted from the stored games after every commit, here and in a running `serve`, which
publishes them again.
"""

from __future__ import annotations

import argparse
import json
import time

from engine.scoring import GameResult
from firmware.cli import CliError
from firmware.hub.hub import Hub

__all__ = ["desk"]


def desk(hub: Hub, args: argparse.Namespace) -> int:
    """Run one desk command."""
    now = time.time()
    if args.action == "results":
        _results(hub, args)
        return 0
    if args.action == "desk":
        for row in hub.store.desk():
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row.at))
            print(f"{stamp} {row.who}: {row.action} {row.result_id}: {row.why}")
        return 0
    before = _lines(hub)
    if args.action == "paper":
        seats = {seat.table_no: seat for seat in hub.store.seats(args.round)}
        if args.table not in seats:
            raise CliError(f"table {args.table} plays no game in round {args.round}")
        players = _names(args.players) if args.players else seats[args.table].players
        report = hub.paper_result(args.round, args.table, args.game,
                                  _game(players, args), args.who, args.why, now)  # fmt: skip
        print(f"{report.id}: stored from paper")
    elif args.action == "correct":
        stored = next((r for r in hub.store.results() if r.id == args.id), None)
        if stored is None:
            raise CliError(f"no result {args.id!r} counts: `schocken hub results` lists them")
        players = tuple(json.loads(stored.payload)["players"])
        report = hub.correct_result(args.id, _game(players, args), args.who, args.why, now)
        print(f"{report.id}: corrected")
    elif args.action == "void":
        hub.void_result(args.id, args.who, args.why, now)
        print(f"{args.id}: void")
    else:
        report = hub.accept_refused(args.number, args.who, args.why, now)
        print(f"{report.id}: accepted")
    _changed_lines(before, _lines(hub))
    return 0


def _results(hub: Hub, args: argparse.Namespace) -> None:
    for stored in hub.store.results(args.round):
        if args.table is not None and stored.table_no != args.table:
            continue
        loser = json.loads(stored.payload)["loser"]
        origin = "" if stored.origin == "table" else f" ({stored.origin})"
        print(f"{stored.id}: {stored.kind}, lost by {loser}{origin}")


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _game(players: tuple[str, ...], args: argparse.Namespace) -> GameResult:
    """The game the options describe (the hub checks it as it checks a table's report)."""
    halves = _names(args.halves)
    if len(halves) != 2:
        raise CliError(f"--halves {args.halves}: give the two halves' losers, A,B")
    orders = []
    for half, loser in enumerate(halves, start=1):
        given = getattr(args, f"out{half}")
        if given:
            order = tuple(_names(group.replace("+", ",")) for group in given.split(","))
        else:
            order = (tuple(p for p in players if p != loser), (loser,))
        orders.append(tuple(group for group in order if group))
    schock_aus = []
    for item in args.schock_aus:
        name, _, count = item.rpartition(":")
        if not name or not count.isdigit():
            raise CliError(f"--schock-aus {item}: give NAME:N")
        schock_aus.append((name, int(count)))
    final = args.final.strip() if args.final else None
    return GameResult(
        players, (halves[0], halves[1]), final, final or halves[0], (orders[0], orders[1]),
        tuple(schock_aus),
    )  # fmt: skip


def _lines(hub: Hub) -> dict[str, tuple[int, int | None, int]]:
    return {
        line.name: (line.points, line.lives, line.games_lost) for line in hub.progress().lines
    }


def _changed_lines(
    before: dict[str, tuple[int, int | None, int]], after: dict[str, tuple[int, int | None, int]]
) -> None:
    """The standings' lines the action changed, recounted."""
    for name, now in after.items():
        if before.get(name) != now:
            points, lives, lost = now
            life = "" if lives is None else f", lives {lives}"
            print(f"  {name}: points {points}{life}, games lost {lost}")
