"""An evening's games with their results: read from a state directory or an exported file, and
two tables' evenings merged into one league match.

:func:`load_evening` finds the Spieltag and replays each of its games (its journal) into a
:class:`~engine.scoring.GameResult`; :func:`evening_to_export` writes the evening with every
game's actions, so an exported evening is recounted exactly like one read from the device;
:func:`merge_match` joins table 1's and table 2's parts of a league match.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine import Event, GameSetup, from_json, rules_from_mapping, to_json
from engine.errors import SchockenError
from engine.limits import InputLimitError, json_loads
from engine.scoring import GameResult, Standing, game_result, standings
from firmware.store.gamestore import GameStore
from firmware.store.journal import header_record
from firmware.store.spieltag import (
    Spieltag,
    SpieltagError,
    SpieltagFiles,
    spieltag_from_mapping,
    spieltag_to_mapping,
)
from hal.ports import Storage

__all__ = [
    "Evening",
    "EveningGame",
    "evening_from_export",
    "evening_to_export",
    "load_evening",
    "merge_match",
]

_EXPORT = "schockbesteck-spieltag"
_FORMAT = 1
_MAX_EXPORT_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class EveningGame:
    """One finished game of an evening: its number on the sheet (the Partie), its table."""

    partie: int
    table: int
    setup: GameSetup
    actions: tuple[Event, ...]
    result: GameResult


@dataclass(frozen=True, slots=True)
class Evening:
    """A Spieltag and its finished games, in the order played."""

    spieltag: Spieltag
    games: tuple[EveningGame, ...]

    def standings(self) -> tuple[Standing, ...]:
        """The standings under the evening's scheme; SpieltagError for an evening without
        games."""
        if not self.games:
            raise SpieltagError(
                f"the Spieltag {self.spieltag.name!r} has no finished games yet: play one first"
            )
        return standings(self.spieltag.scheme, [game.result for game in self.games])


def _table_of(spieltag: Spieltag, players: Sequence[str]) -> int:
    """The table a game was played at: its players' table on the league sheet, else the
    device's (one device may run both tables' games in turn)."""
    for name in players:
        player = spieltag.player(name)
        if player is not None:
            return player.table
    return spieltag.table


def load_evening(storage: Storage, spieltag_id: str | None = None) -> Evening:
    """The evening ``spieltag_id`` (None: the one going on, else the last one ended) and its
    finished games. SpieltagError (one line) if there is none or its file is damaged."""
    spieltag = SpieltagFiles(storage).find(spieltag_id)
    games = []
    for partie, (_, recovery) in enumerate(GameStore(storage).evening_games(spieltag.id), 1):
        result = game_result(recovery.setup, recovery.actions)
        table = _table_of(spieltag, recovery.setup.players)
        games.append(EveningGame(partie, table, recovery.setup, tuple(recovery.actions), result))
    return Evening(spieltag, tuple(games))


def evening_to_export(evening: Evening) -> dict[str, Any]:
    """The evening as an exported file's data: the Spieltag and each game's actions."""
    return {
        "export": _EXPORT,
        "format": _FORMAT,
        "spieltag": spieltag_to_mapping(evening.spieltag),
        "games": [
            {
                **header_record(game.setup),
                "partie": game.partie,
                "table": game.table,
                "actions": [to_json(action) for action in game.actions],
            }
            for game in evening.games
        ],
    }


def evening_from_export(text: str, origin: str) -> Evening:
    """An exported evening (:func:`evening_to_export`'s JSON); every game is replayed, so a
    changed result cannot pass. SpieltagError naming ``origin`` and the problem."""
    try:
        data = json_loads(text, max_bytes=_MAX_EXPORT_BYTES)
        if not isinstance(data, dict) or data.get("export") != _EXPORT:
            raise SpieltagError("not an exported Spieltag (schocken sheet --export)")
        if data.get("format") != _FORMAT:
            raise SpieltagError(f"format {data.get('format')!r} is not {_FORMAT}")
        spieltag = spieltag_from_mapping(data.get("spieltag"))
        entries = data.get("games")
        if not isinstance(entries, list):
            raise SpieltagError("games: must be a list")
        games = tuple(_game(spieltag, index, entry) for index, entry in enumerate(entries, 1))
    except (json.JSONDecodeError, InputLimitError, SpieltagError, SchockenError) as error:
        raise SpieltagError(f"{origin}: {' '.join(str(error).split())}") from None
    return Evening(spieltag, games)


def _game(spieltag: Spieltag, index: int, entry: object) -> EveningGame:
    if not isinstance(entry, dict):
        raise SpieltagError(f"game {index}: must be an object")
    players, rules, actions = entry.get("players"), entry.get("rules"), entry.get("actions")
    if not isinstance(players, list) or not isinstance(rules, dict) or not isinstance(
        actions, list
    ):
        raise SpieltagError(f"game {index}: needs players, rules and actions")
    try:
        setup = GameSetup(tuple(players), rules_from_mapping(rules))
        events = tuple(from_json(action) for action in actions)
        result = game_result(setup, events)
    except (SchockenError, TypeError) as error:
        raise SpieltagError(f"game {index}: {error}") from None
    table = entry.get("table", _table_of(spieltag, setup.players))
    if table not in (1, 2) or isinstance(table, bool):
        raise SpieltagError(f"game {index}: table = {table!r} must be 1 or 2")
    return EveningGame(index, table, setup, events, result)


def merge_match(first: Evening, second: Evening) -> Evening:
    """Table 1's and table 2's evenings of one league match as one: table 1's games first,
    the Partien numbered through. SpieltagError if they are not two tables of one match."""
    a, b = sorted((first, second), key=lambda evening: evening.spieltag.table)
    one, two = a.spieltag, b.spieltag
    if (one.home, one.guest) != (two.home, two.guest) or not one.home or not one.guest:
        raise SpieltagError(
            f"not one league match: home and guest differ ({one.home!r} v {one.guest!r} and "
            f"{two.home!r} v {two.guest!r}); begin both tables' Spieltag with the same --home "
            "and --guest"
        )
    if one.table == two.table:
        raise SpieltagError(
            f"both evenings are table {one.table}: begin the other device's Spieltag with "
            "--table 2"
        )
    if one.date != two.date:
        raise SpieltagError(f"not one evening: the dates differ ({one.date} and {two.date})")
    players = list(one.players)
    for player in two.players:
        known = one.player(player.name)
        if known is None:
            players.append(player)
        elif (known.seat, known.number) != (player.seat, player.number):
            raise SpieltagError(
                f"{player.name} is {known.seat} ({known.number}) at table 1 but "
                f"{player.seat} ({player.number}) at table 2"
            )
    games = [*a.games, *b.games]
    merged = tuple(replace(game, partie=number) for number, game in enumerate(games, 1))
    spieltag = replace(one, players=tuple(players), table=1)
    return Evening(spieltag, merged)
