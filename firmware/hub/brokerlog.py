"""The hub watching its own broker's log: the publishes and subscriptions mosquitto denies.

mosquitto 2.0.11 tells no one but its log when its ACL refuses a publish ("Denied PUBLISH from
table-1 (d0, q1, r0, m3, 'schock/dm2026/table/table-2/result', ... (261 bytes))", at its debug
level), and it grants every subscription, checking the read ACL on each delivery instead; its
``subscribe`` log type names each one ("table-1 1 schock/#"). With ``use_username_as_clientid``
(:mod:`firmware.wire.broker`) the client named in a line is the login, so a denial is the
table's whose password was used.

:func:`denials_in` reads lines (pure); :class:`BrokerLog` follows the file from where it last
stopped, through truncation and rotation, a bounded read at a time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from firmware.wire.broker import HUB_USER, table_may_read

__all__ = ["BrokerLog", "Denial", "denials_in"]

#: At most this much of the log is read at a time (a flood is counted over several reads).
MAX_READ_BYTES = 1 << 20

_DENIED_PUBLISH = re.compile(r"^\d+: Denied PUBLISH from (\S+) \(d\d, q\d, r\d, m\d+, '(.*)',")
_SUBSCRIBE = re.compile(r"^\d+: (\S+) [012] (\S+)$")


@dataclass(frozen=True, slots=True)
class Denial:
    """One thing the broker kept from a login: a publish it dropped, or a subscription beyond
    the login's rights (granted, but nothing forbidden is delivered on it)."""

    user: str
    kind: Literal["publish", "subscribe"]
    topic: str


def denials_in(lines: Iterable[str]) -> list[Denial]:
    """The denials among mosquitto's log lines (any other line is passed over)."""
    found = []
    for line in lines:
        line = line.rstrip("\n")
        if match := _DENIED_PUBLISH.match(line):
            found.append(Denial(match[1], "publish", match[2][:200]))
        elif (
            (match := _SUBSCRIBE.match(line))
            and match[1] != HUB_USER
            and not table_may_read(match[1], match[2])
        ):
            found.append(Denial(match[1], "subscribe", match[2][:200]))
    return found


class BrokerLog:
    """A follower of mosquitto's log file: :meth:`read` returns the denials logged since the
    last read, from ``position`` (the file's inode and offset, as :attr:`position` gave it)."""

    def __init__(self, path: Path, position: tuple[int, int] | None = None) -> None:
        self.path = path
        self._inode, self._offset = position if position is not None else self._end()
        self._partial = b""

    @property
    def position(self) -> tuple[int, int]:
        """Where the next read starts: the file's inode and the offset of its first unread line."""
        return self._inode, self._offset - len(self._partial)

    def _end(self) -> tuple[int, int]:
        """A first start reads from the end: what was logged before the hub watched is not its."""
        try:
            info = os.stat(self.path)
        except OSError:
            return 0, 0
        return info.st_ino, info.st_size

    def read(self) -> list[Denial]:
        """The denials logged since the last read (none if the file is missing)."""
        try:
            with self.path.open("rb") as log:
                info = os.fstat(log.fileno())
                if info.st_ino != self._inode or info.st_size < self._offset:
                    # Rotated or truncated: the new file from its start.
                    self._inode, self._offset, self._partial = info.st_ino, 0, b""
                log.seek(self._offset)
                data = log.read(MAX_READ_BYTES)
        except OSError:
            return []
        self._offset += len(data)
        data = self._partial + data
        complete, _, self._partial = data.rpartition(b"\n")
        if len(self._partial) > MAX_READ_BYTES:  # no line is that long: not a log's
            self._partial = b""
        if not complete:
            return []
        return denials_in(complete.decode("utf-8", "replace").split("\n"))
