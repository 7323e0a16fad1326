"""Evenings of random games written into a real state directory, for the Spieltag's tests."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from pathlib import Path

from engine import Event, Game, GameSetup, load_preset
from firmware.store.gamestore import GameStore
from firmware.store.journal import JournalHeader
from firmware.store.spieltagfile import open_spieltag_id
from hal.storage import StateDirectory
from tests.engine.randomplay import play_random_game


def play_games(
    root: Path, players: tuple[str, ...], count: int, seed: int = 26, *, deckel: int | None = None
) -> list[Game]:
    """``count`` finished random games of ``players``, each journalled through the store as the
    device does (under ``standard``, with ``deckel`` Deckel where given: a short game counts
    on an evening as a long one does); returns the games as played."""
    rules = load_preset("standard")
    if deckel is not None:
        rules = replace(rules, deckel=deckel)
    store = GameStore(StateDirectory(root))
    store.open()
    rng = random.Random(seed)
    played = []
    for _ in range(count):
        model = play_random_game(len(players), rules, rng.randrange(10**6))
        mapping = dict(zip(model.players, players, strict=True))
        setup = GameSetup(players, rules)
        game = Game(setup)
        store.begin(JournalHeader(setup, spieltag=open_spieltag_id(store.storage)))
        for action in model.actions:
            store.record(game.apply(_renamed(action, mapping)))
        assert game.is_over
        played.append(game)
    return played


def _renamed(action: Event, mapping: dict[str, str]) -> Event:
    """``action`` with the model game's seat names (P0, P1, ...) replaced by ``mapping``."""
    changes: dict[str, object] = {}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name == "player":
            changes[f.name] = mapping[value]
        elif f.name == "players":
            changes[f.name] = tuple(mapping[name] for name in value)
    return replace(action, **changes)
