"""The director's desk, below its two doors: ``schocken hub paper|correct|...`` and the hub's
``/desk`` page both read a paper table card's fields here and act through :class:`Hub`'s
methods (the table's own checks, who, when and why kept in the file's ``desk``).

A card is written as a director types it: the halves' losers ``A,B``, the final's loser (none
after a Durchmarsch), who went out in each half in order (``A+B,C,D``: ``+`` joins those out in
the same round, the loser last; none: all the others together), Schock aus from the hand
``NAME:N``. A field the hub cannot read is a :class:`DeskError`, a word of the hub's with its
values, which each door says in its language.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from engine.scoring import GameResult
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords
from firmware.wire.messages import Result

__all__ = ["ChangedLine", "DeskError", "TableCard", "changed_lines", "correct", "paper",
           "standings_lines"]  # fmt: skip

#: A standings line as the desk compares it: points, lives (None outside KO), games lost.
Line = tuple[int, int | None, int]


class DeskError(HubError):
    """A desk field the hub cannot read: the word's key and its values (English as the text)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(HubWords("en").t(key, **values), key, **values)


@dataclass(frozen=True, slots=True)
class TableCard:
    """A game as a paper table card has it, each field as typed."""

    halves: str
    final: str = ""
    out1: str = ""
    out2: str = ""
    schock_aus: tuple[str, ...] = ()

    def game(self, players: Sequence[str]) -> GameResult:
        """The game the card describes at a table of ``players`` (the hub checks it as it
        checks a table's report)."""
        halves = names(self.halves)
        if len(halves) != 2:
            raise DeskError("desk_bad_halves", given=self.halves)
        orders = []
        for loser, given in zip(halves, (self.out1, self.out2), strict=True):
            if given.strip():
                order = tuple(names(group.replace("+", ",")) for group in given.split(","))
            else:
                order = (tuple(p for p in players if p != loser), (loser,))
            orders.append(tuple(group for group in order if group))
        schock_aus = []
        for item in self.schock_aus:
            name, _, count = item.strip().rpartition(":")
            if not name.strip() or not count.isascii() or not count.isdigit() or len(count) > 3:
                raise DeskError("desk_bad_schock_aus", given=item)
            schock_aus.append((name.strip(), int(count)))
        final = self.final.strip() or None
        return GameResult(
            tuple(players), (halves[0], halves[1]), final, final or halves[0],
            (orders[0], orders[1]), tuple(schock_aus),
        )  # fmt: skip


def names(text: str) -> tuple[str, ...]:
    """The names of a comma-separated list, each stripped, none empty."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def paper(
    hub: Hub, round_: int, table: int, game: int, card: TableCard, who: str, why: str,
    now: float, players: str = "",
) -> Result:
    """Store game ``game`` of ``table`` in ``round_`` from its paper card; ``players`` who
    played it (default: the table's players of the round)."""  # fmt: skip
    seats = {seat.table_no: seat for seat in hub.store.seats(round_)}
    if table not in seats:
        raise DeskError("desk_no_table", table=table, n=round_)
    at_table = names(players) if players.strip() else seats[table].players
    return hub.paper_result(round_, table, game, card.game(at_table), who, why, now)


def correct(hub: Hub, result_id: str, card: TableCard, who: str, why: str, now: float) -> Result:
    """Replace the stored game ``result_id`` by the card's (the same players)."""
    stored = next((r for r in hub.store.results() if r.id == result_id), None)
    if stored is None:
        raise DeskError("desk_no_result", id=result_id)
    players = tuple(json.loads(stored.payload)["players"])
    return hub.correct_result(result_id, card.game(players), who, why, now)


@dataclass(frozen=True, slots=True)
class ChangedLine:
    """A standings line an action changed, recounted."""

    name: str
    points: int
    lives: int | None
    games_lost: int


def standings_lines(hub: Hub) -> dict[str, Line]:
    """Every player's line, to compare before and after an action."""
    return {
        line.name: (line.points, line.lives, line.games_lost) for line in hub.progress().lines
    }


def changed_lines(before: dict[str, Line], after: dict[str, Line]) -> list[ChangedLine]:
    """The lines that differ after an action, in the standings' order."""
    return [
        ChangedLine(name, *now) for name, now in after.items() if before.get(name) != now
    ]
