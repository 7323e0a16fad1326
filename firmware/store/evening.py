"""An evening's games with their results (:class:`engine.spieltag.Evening`), read from a state
directory or an exported file.

:func:`load_evening` finds the Spieltag and replays each of its games (its journal) into a
:class:`~engine.scoring.GameResult`; :func:`evening_to_export` writes the evening with every
game's actions, so an exported evening is recounted exactly like one read from the device.
"""

from __future__ import annotations

import json
from typing import Any

from engine import GameSetup, from_json, rules_from_mapping, to_json
from engine.errors import SchockenError
from engine.limits import InputLimitError, json_loads
from engine.scoring import game_result
from engine.spieltag import (
    Evening,
    EveningGame,
    Spieltag,
    SpieltagError,
    spieltag_from_mapping,
    spieltag_to_mapping,
    table_of,
)
from firmware.store.gamestore import GameStore
from firmware.store.journal import header_record
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import Storage

__all__ = ["evening_from_export", "evening_to_export", "load_evening"]

_EXPORT = "schockbesteck-spieltag"
_FORMAT = 1
_MAX_EXPORT_BYTES = 32 * 1024 * 1024


def load_evening(storage: Storage, spieltag_id: str | None = None) -> Evening:
    """The evening ``spieltag_id`` (None: the one going on, else the last one ended) and its
    finished games. SpieltagError (one line) if there is none or its file is damaged."""
    spieltag = SpieltagFiles(storage).find(spieltag_id)
    games = []
    for partie, (_, recovery) in enumerate(GameStore(storage).evening_games(spieltag.id), 1):
        result = game_result(recovery.setup, recovery.actions)
        table = table_of(spieltag, recovery.setup.players)
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
    table = entry.get("table", table_of(spieltag, setup.players))
    if table not in (1, 2) or isinstance(table, bool):
        raise SpieltagError(f"game {index}: table = {table!r} must be 1 or 2")
    return EveningGame(index, table, setup, events, result)
