"""The director's desk on the command line: `schocken hub results|paper|correct|void|accept|desk`.

Each action goes through :class:`firmware.hub.hub.Hub` (the table's own checks, who, when and
why kept in the file's ``desk``), the card's fields read by :mod:`firmware.hub.desk` as the
hub's ``/desk`` page reads them, and prints the standings' lines it changed: the standings are
recounted from the stored games after every commit, here and in a running `serve`, which
publishes them again.
"""

from __future__ import annotations

import argparse
import json
import time

from firmware.hub.desk import TableCard, changed_lines, correct, paper, standings_lines
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
    before = standings_lines(hub)
    if args.action == "paper":
        report = paper(hub, args.round, args.table, args.game, _card(args), args.who, args.why,
                       now, args.players or "")  # fmt: skip
        print(f"{report.id}: stored from paper")
    elif args.action == "correct":
        report = correct(hub, args.id, _card(args), args.who, args.why, now)
        print(f"{report.id}: corrected")
    elif args.action == "void":
        hub.void_result(args.id, args.who, args.why, now)
        print(f"{args.id}: void")
    else:
        report = hub.accept_refused(args.number, args.who, args.why, now)
        print(f"{report.id}: accepted")
    for line in changed_lines(before, standings_lines(hub)):
        life = "" if line.lives is None else f", lives {line.lives}"
        print(f"  {line.name}: points {line.points}{life}, games lost {line.games_lost}")
    return 0


def _results(hub: Hub, args: argparse.Namespace) -> None:
    for stored in hub.store.results(args.round):
        if args.table is not None and stored.table_no != args.table:
            continue
        loser = json.loads(stored.payload)["loser"]
        origin = "" if stored.origin == "table" else f" ({stored.origin})"
        print(f"{stored.id}: {stored.kind}, lost by {loser}{origin}")


def _card(args: argparse.Namespace) -> TableCard:
    """The table card the options give (read as the desk's page reads its fields)."""
    return TableCard(args.halves, args.final or "", args.out1 or "", args.out2 or "",
                     tuple(args.schock_aus))  # fmt: skip
