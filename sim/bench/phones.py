"""Phones on the hub's event stream, for ``schocken bench --only phones`` and the tests.

:class:`EventStream` reads ``/events`` as a browser does: the HTTP/1.1 chunks, the gzip stream
(each event deflated on its own, flushed), the server-sent events; :class:`WatchedState` is
what a page keeps: the whole state on connect, then each ``changes`` event applied
(:func:`firmware.hub.view_changes.apply_view_changes`, as ``web/tv.html`` applies them).

``python -m sim.bench.phones HOST PORT COUNT SAMPLE`` is the bench's child: COUNT phones on
loopback, each its own connection asking for gzip as a phone's browser does, counting every
byte of its stream after the headers (chunk framing included); SAMPLE of them also inflate and
apply what they get. On stdin: ``mark`` (counts from now; answered ``{}``), ``report`` (one JSON
line: the bytes and events since the mark, the state's bytes on connect, each sample's state's
digest), ``quit``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EventStream", "ServerEvent", "WatchedState", "state_digest"]


@dataclass(frozen=True, slots=True)
class ServerEvent:
    """One server-sent event: its type ("message" where unnamed), id and data."""

    kind: str
    ident: str
    data: bytes


@dataclass(slots=True)
class EventStream:
    """An event stream's body, fed as it arrives: ``chunked`` (HTTP/1.1's framing) and
    ``packed`` (gzip) as the response's headers said."""

    chunked: bool = False
    packed: bool = False
    _raw: bytes = b""
    _text: bytes = b""
    _left: int = 0
    _inflate: Any = field(default_factory=lambda: zlib.decompressobj(16 + zlib.MAX_WBITS))

    def feed(self, data: bytes) -> list[ServerEvent]:
        """The events that ``data`` completes."""
        body = self._unchunk(data) if self.chunked else data
        self._text += self._inflate.decompress(body) if self.packed else body
        *whole, self._text = self._text.split(b"\n\n")
        return [event for block in whole if (event := _event(block)) is not None]

    def _unchunk(self, data: bytes) -> bytes:
        self._raw += data
        found = b""
        while self._raw:
            if self._left:
                piece = self._raw[: self._left]
                found += piece
                self._raw = self._raw[len(piece) :]
                self._left -= len(piece)
                continue
            line, crlf, rest = self._raw.partition(b"\r\n")
            if not crlf:
                break
            if not line:  # the CRLF after a chunk
                self._raw = rest
                continue
            self._left = int(line.split(b";")[0], 16)
            self._raw = rest
            if not self._left:
                break  # the last chunk: the stream ended
        return found


def _event(block: bytes) -> ServerEvent | None:
    kind, ident, data = "message", "", []
    for line in block.split(b"\n"):
        name, _, value = line.partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"event":
            kind = value.decode()
        elif name == b"id":
            ident = value.decode()
        elif name == b"data":
            data.append(value)
    return ServerEvent(kind, ident, b"\n".join(data)) if data else None


@dataclass(slots=True)
class WatchedState:
    """The state a page keeps from the stream's events."""

    state: dict[str, Any] | None = None
    events: int = 0

    def take(self, event: ServerEvent) -> None:
        from firmware.hub.view_changes import apply_view_changes

        self.events += 1
        if event.kind == "changes":
            if self.state is None:
                raise ValueError("changes came before any state")
            self.state = apply_view_changes(self.state, json.loads(event.data))
        else:
            self.state = json.loads(event.data)


def state_digest(state: Mapping[str, Any] | None) -> str:
    """A short digest of ``state`` that ignores the order of a row's fields."""
    text = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- the bench's phones (a child process) -------------------------------------------------------


@dataclass(slots=True)
class _Phone:
    decode: bool
    bytes: int = 0
    #: The bytes until the first event was whole (the state on connect; a checked phone's).
    first: int = 0
    stream: EventStream | None = None
    watched: WatchedState = field(default_factory=WatchedState)
    failed: str = ""


async def _phone(host: str, port: int, phone: _Phone, first: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Accept-Encoding: gzip, deflate\r\nAccept: text/event-stream\r\n\r\n"
                     .encode())  # fmt: skip
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            phone.failed = head.split(b"\r\n", 1)[0].decode(errors="replace")
            first.set()
            return
        lower = head.lower()
        phone.stream = EventStream(b"chunked" in lower, b"content-encoding: gzip" in lower)
        while data := await reader.read(1 << 16):
            phone.bytes += len(data)
            if phone.decode:
                for event in phone.stream.feed(data):
                    phone.watched.take(event)
                    phone.first = phone.first or phone.bytes
            first.set()
    except (OSError, asyncio.IncompleteReadError) as error:
        phone.failed = str(error) or type(error).__name__
        first.set()


async def _phones_main(host: str, port: int, count: int, sample: int) -> int:
    phones = [_Phone(decode=index < sample) for index in range(count)]
    firsts = [asyncio.Event() for _ in phones]
    tasks = [asyncio.create_task(_phone(host, port, phone, first))
             for phone, first in zip(phones, firsts, strict=True)]  # fmt: skip
    await asyncio.wait_for(asyncio.gather(*(first.wait() for first in firsts)), 120)
    failed = [phone.failed for phone in phones if phone.failed]
    print(json.dumps({"ready": count - len(failed), "failed": failed[:3]}), flush=True)
    loop = asyncio.get_running_loop()
    marks, events = [0] * count, 0
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if line == "mark":
            marks = [phone.bytes for phone in phones]
            events = phones[0].watched.events
            print("{}", flush=True)
        elif line == "report":
            report = {
                "bytes": [phone.bytes - mark for phone, mark in zip(phones, marks, strict=True)],
                "events": phones[0].watched.events - events,
                "first": phones[0].first,
                "open": sum(1 for phone in phones if not phone.failed),
                "samples": [state_digest(phone.watched.state) for phone in phones[:sample]],
            }
            print(json.dumps(report), flush=True)
        else:
            break
    for task in tasks:
        task.cancel()
    return 0


if __name__ == "__main__":
    _host, _port, _count, _sample = sys.argv[1:5]
    sys.exit(asyncio.run(_phones_main(_host, int(_port), int(_count), int(_sample))))
