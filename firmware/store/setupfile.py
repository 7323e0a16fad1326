"""What the device remembers between power cycles: ``setup.json`` in the state directory.

The last setup (players, their names, computer seats, rules, Deckel, real dice or the device's),
the language and the brightness, read
and written through the :class:`~hal.ports.Storage` port. A damaged or missing file is not an
error: the device starts from its configuration. Keys this version does not know are kept.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from engine.game import MAX_PLAYERS, MIN_PLAYERS
from engine.limits import json_loads, json_problem
from engine.strategy_names import strategy_names
from firmware.names import name_problem
from firmware.words import LANGUAGES
from hal.ports import Storage

__all__ = ["DECKEL_RANGE", "SETUP_FILE", "Remembered", "SettingsFile", "clamp_deckel"]

logger = logging.getLogger(__name__)

#: The state file that remembers the last setup, language and brightness.
SETUP_FILE = "setup.json"
#: The longest ``setup.json`` read; a longer one is damage.
MAX_SETUP_BYTES = 64 * 1024
#: Deckel counts the setup offers.
DECKEL_RANGE = (3, 40)


def clamp_deckel(deckel: int) -> int:
    """``deckel`` within what the setup offers."""
    return min(max(deckel, DECKEL_RANGE[0]), DECKEL_RANGE[1])


@dataclass
class Remembered:
    """What ``setup.json`` keeps; None where nothing (valid) is remembered."""

    players: int | None = None
    rules: str | None = None
    deckel: int | None = None
    language: str | None = None
    brightness: int | None = None
    bots: tuple[str, ...] | None = None
    #: The seats' names of the last setup ("" for a numbered default name).
    names: tuple[str, ...] | None = None
    #: Real dice at the table ("Echte Würfel") or the device's, as the menu last switched it.
    real_dice: bool | None = None
    #: The whole file as read, so that unknown keys survive a rewrite.
    extra: dict[str, Any] = field(default_factory=dict)


class SettingsFile:
    """``setup.json`` on a storage (or nowhere, without one)."""

    def __init__(self, storage: Storage | None) -> None:
        self._storage = storage
        #: Why the file could not be read (not JSON, too deep, too long), or None.
        self.damage: str | None = None
        self.remembered = self._read()

    def save(self) -> None:
        """Write :attr:`remembered` atomically; a failure is logged, never raised."""
        if self._storage is None:
            return
        remembered = self.remembered
        data = dict(remembered.extra)
        for key in ("players", "rules", "deckel", "language", "brightness", "real_dice"):
            value = getattr(remembered, key)
            if value is not None:
                data[key] = value
        if remembered.bots is not None:
            data["bots"] = list(remembered.bots)
        if remembered.names is not None:
            data["names"] = list(remembered.names)
        try:
            self._storage.write_atomic(
                SETUP_FILE, json.dumps(data, indent=1, sort_keys=True) + "\n"
            )
        except OSError as error:
            logger.warning("cannot remember the setup: %s", error)

    def _read(self) -> Remembered:
        if self._storage is None:
            return Remembered()
        try:
            text = self._storage.read_text(SETUP_FILE)
        except OSError as error:
            logger.warning("cannot read the last setup: %s", error)
            return Remembered()
        if text is None:
            return Remembered()
        try:
            data = json_loads(text, max_bytes=MAX_SETUP_BYTES)
        except ValueError as error:  # not JSON, or nested too deeply (InputLimitError)
            problem = json_problem(error) if isinstance(error, json.JSONDecodeError) else error
            logger.warning(
                "%s is unreadable (%s); starting from the configuration", SETUP_FILE, problem
            )
            self.damage = f"unreadable ({problem})"
            return Remembered()
        if not isinstance(data, dict):
            return Remembered()
        remembered = Remembered(extra=data)
        players, deckel = data.get("players"), data.get("deckel")
        brightness = data.get("brightness")
        if isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS:
            remembered.players = players
        if isinstance(data.get("rules"), str):
            remembered.rules = data["rules"]
        if isinstance(deckel, int) and DECKEL_RANGE[0] <= deckel <= DECKEL_RANGE[1]:
            remembered.deckel = deckel
        if data.get("language") in LANGUAGES:
            remembered.language = data["language"]
        if isinstance(brightness, int) and 0 <= brightness <= 255:
            remembered.brightness = brightness
        if isinstance(data.get("real_dice"), bool):
            remembered.real_dice = data["real_dice"]
        bots = data.get("bots")
        known = ("", *strategy_names())
        if isinstance(bots, list) and len(bots) <= MAX_PLAYERS and all(b in known for b in bots):
            remembered.bots = tuple(bots)
        names = data.get("names")
        if isinstance(names, list) and len(names) <= MAX_PLAYERS:
            chosen = [name for name in names if name != ""]
            valid = all(name_problem(name) is None for name in chosen)
            if valid and len(set(chosen)) == len(chosen):
                remembered.names = tuple(names)
        return remembered
