"""The names the device remembers for its setup: ``names.json`` in the state directory.

The setup offers each seat a name from this roster, the most recently used first, so that the
regulars of a table pick their names with a few presses instead of spelling them again. Names join
the roster when a game starts with them (from the setup, the configuration or the link's
``setup`` command) and from the configuration's ``[game] names``.

The file is read and written through the :class:`~hal.ports.Storage` port like ``setup.json``:
written atomically (a pulled plug leaves the old or the new list), read with a size limit, and
every entry checked again on reading. A damaged file is not an error: the device starts with the
names of its configuration and the app sets the file aside (``damaged/``), never deletes it. A
name that fails the checks is dropped alone; keys this version does not know are kept.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from engine.limits import json_loads, json_problem
from firmware.names import name_problem
from hal.ports import Storage

__all__ = ["MAX_ROSTER", "ROSTER_FILE", "RosterFile"]

logger = logging.getLogger(__name__)

#: The state file of the remembered names.
ROSTER_FILE = "names.json"
#: The most names remembered; the least recently used go first.
MAX_ROSTER = 50
#: The longest ``names.json`` read; a longer one is damage.
MAX_ROSTER_BYTES = 16 * 1024


class RosterFile:
    """The remembered names, most recently used first, kept in ``names.json`` (or nowhere)."""

    def __init__(self, storage: Storage | None, known: Iterable[str] = ()) -> None:
        self._storage = storage
        #: Why the file could not be read (not JSON, too deep, too long, not a list), or None.
        self.damage: str | None = None
        #: False after a failed read (not damage: a denied or failing disk): the file is then
        #: never overwritten, so the names in it survive until it can be read again.
        self._may_write = True
        self._extra: dict[str, Any] = {}
        self.names: list[str] = self._read()
        self.learn(known)

    def use(self, names: Iterable[str]) -> None:
        """Put ``names`` first, in their order (a game starts with them); saves if it changed."""
        fresh = [name for name in dict.fromkeys(names) if name_problem(name) is None]
        updated = (fresh + [name for name in self.names if name not in fresh])[:MAX_ROSTER]
        if updated != self.names:
            self.names = updated
            self.save()

    def learn(self, names: Iterable[str]) -> None:
        """Add ``names`` the roster lacks after the others (known, but not played lately)."""
        new = [
            name for name in dict.fromkeys(names)
            if name not in self.names and name_problem(name) is None
        ]
        room = MAX_ROSTER - len(self.names)
        if new and room > 0:
            self.names = self.names + new[:room]
            self.save()

    def save(self) -> None:
        """Write the roster atomically; a failure is logged, never raised (the names stay in
        memory and the next change writes them again)."""
        if self._storage is None or not self._may_write:
            return
        data = dict(self._extra)
        data["names"] = list(self.names)
        text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        try:
            self._storage.write_atomic(ROSTER_FILE, text)
        except OSError as error:
            logger.warning("cannot remember the players' names: %s", error)

    def _read(self) -> list[str]:
        if self._storage is None:
            return []
        try:
            text = self._storage.read_text(ROSTER_FILE)
        except OSError as error:
            logger.warning("cannot read the remembered names: %s", error)
            if isinstance(error.__cause__, UnicodeDecodeError):  # there, but not text: damage
                self.damage = "unreadable (not UTF-8 text)"
            else:
                self._may_write = False
            return []
        if text is None:
            return []
        try:
            data = json_loads(text, max_bytes=MAX_ROSTER_BYTES)
        except ValueError as error:  # not JSON, too long, or nested too deeply
            problem = json_problem(error) if isinstance(error, json.JSONDecodeError) else error
            self.damage = f"unreadable ({problem})"
        else:
            if isinstance(data, dict) and isinstance(data.get("names"), list):
                self._extra = {key: value for key, value in data.items() if key != "names"}
                names = [name for name in data["names"] if name_problem(name) is None]
                return list(dict.fromkeys(names))[:MAX_ROSTER]
            self.damage = 'not an object with a list "names"'
        logger.warning("%s is %s; starting from the configuration", ROSTER_FILE, self.damage)
        return []
