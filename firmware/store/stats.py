"""Statistics per player name, counted from finished games.

A game's figures come from the events of its replay (:func:`count_events`; :func:`count_game`
replays the actions first): the outcomes (:class:`~engine.TurnOver`, :class:`~engine.HalfOver`,
:class:`~engine.GameOver`) say who stood with which throw, who lost a half and who lost the game.
Only finished games count; an abandoned game counts for nobody.

"Schocks" and "Schock aus" count the throws a player *stood with* (the result of a turn that
went into the reveal), not every intermediate throw: that is what the table saw and what people
remember ("drei Schock aus heute Abend!").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from engine import Event, Game, GameOver, GameSetup, HalfOver, Kind, TurnOver
from engine.throws import rank_table

__all__ = [
    "FIELDS", "PlayerStats", "count_events", "count_game", "merge", "stats_from_mapping",
    "stats_payload", "stats_to_mapping",
]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over all counted games."""

    games: int = 0
    lost: int = 0
    halves_lost: int = 0
    blattschuss: int = 0
    schocks: int = 0
    schock_aus: int = 0

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(*(getattr(self, f) + getattr(other, f) for f in FIELDS))


#: The figures in display and export order.
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerStats))


def count_game(setup: GameSetup, actions: Iterable[Event]) -> dict[str, PlayerStats]:
    """Each player's figures from one game, replayed; empty if the game did not finish."""
    return count_events(setup, Game.replay_events(setup, actions))


def count_events(setup: GameSetup, events: Iterable[Event]) -> dict[str, PlayerStats]:
    """Each player's figures from one game's replay (every event :meth:`Game.apply` returned,
    in order, as :attr:`~firmware.store.journal.Recovery.events` keeps them): :func:`count_game`
    without replaying. Empty if the game did not finish."""
    halves: dict[str, int] = dict.fromkeys(setup.players, 0)
    schocks: dict[str, int] = dict.fromkeys(setup.players, 0)
    schock_aus: dict[str, int] = dict.fromkeys(setup.players, 0)
    over: GameOver | None = None
    ranks = rank_table(setup.rules)
    for event in events:
        match event:
            case TurnOver(player=player, dice=dice, hand=hand):
                kind = ranks.evaluate(dice, hand).kind
                if kind is Kind.SCHOCK:
                    schocks[player] += 1
                elif kind is Kind.SCHOCK_AUS:
                    schock_aus[player] += 1
            case HalfOver(section=1 | 2, loser=loser):
                halves[loser] += 1
            case GameOver():
                over = event
    if over is None:
        return {}
    return {
        name: PlayerStats(
            games=1,
            lost=int(name == over.loser),
            halves_lost=halves[name],
            blattschuss=int(over.blattschuss and name == over.loser),
            schocks=schocks[name],
            schock_aus=schock_aus[name],
        )
        for name in setup.players
    }


def merge(
    total: Mapping[str, PlayerStats], more: Mapping[str, PlayerStats]
) -> dict[str, PlayerStats]:
    """The sum of two tables, by player name."""
    result = dict(total)
    for name, figures in more.items():
        result[name] = result.get(name, PlayerStats()) + figures
    return result


def stats_to_mapping(table: Mapping[str, PlayerStats]) -> dict[str, dict[str, int]]:
    """The table as JSON-ready data, players sorted by name."""
    return {name: asdict(table[name]) for name in sorted(table)}


def stats_payload(table: Mapping[str, PlayerStats]) -> dict[str, Any]:
    """The link's ``stats`` answer: the figures' names in order, and each player's."""
    return {"fields": list(FIELDS), "players": stats_to_mapping(table)}


def stats_from_mapping(data: object) -> dict[str, PlayerStats]:
    """Read :func:`stats_to_mapping`'s form back; ValueError naming the first bad entry."""
    if not isinstance(data, dict):
        raise ValueError("statistics must be a JSON object of player names")
    table: dict[str, PlayerStats] = {}
    for name, figures in data.items():
        if not isinstance(figures, dict) or set(figures) != set(FIELDS):
            raise ValueError(f"statistics of {name!r}: expected the fields {', '.join(FIELDS)}")
        values: dict[str, Any] = {}
        for key in FIELDS:
            value = figures[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"statistics of {name!r}: {key} = {value!r} is not a count")
            values[key] = value
        table[str(name)] = PlayerStats(**values)
    return table
