"""The hub's web server (aiohttp) on a thread of its own: the TV and phone views, the exports,
and the live state as server-sent events.

It serves fixed GET routes (path -> a function of the query that returns the media type, the
body and a download name) and ``/events``, a ``text/event-stream``. :meth:`HubServer.push` (from
any thread) gives it each new state, and with it, where the caller has them, the changes from
the state before (JSON both; the hub's come from :class:`firmware.hub.view_changes.ViewFeed`). A
watcher gets the whole state on connect (an unnamed event), then each change as a ``changes``
event; every event has the id ``EPOCH-VERSION``, so a browser that reconnects (its
``Last-Event-ID``) gets only the changes it missed. A watcher that falls behind (a slow phone)
gets, once it reads again, the changes it missed where the server still holds them (the last
:data:`HISTORY`) and they are smaller than the state, else the newest state whole, never a
backlog. A watcher holds at most its socket's buffers (:data:`WATCHER_SEND_BUFFER` and the
transport's) and the event being written. A write that waits :data:`WRITE_TIMEOUT_S` for the
watcher closes its stream.

Each event is compressed once for every watcher that accepts gzip (all browsers do): each one
deflated on its own and flushed to a byte's boundary, so that any sequence of them after a gzip
header is one valid gzip stream, and :data:`MAX_WATCHERS` watchers cost one compression, not
one each. A watcher holds no copy of its own: its place in the versions and its socket's buffer.
The pages and the state as JSON are compressed too.

A route finds the request's checked ``Host`` in its query as :data:`HOST_KEY`. As the table's
page, it answers only requests whose ``Host`` is its own address, localhost or one of the names it
is given (:func:`hal.web_server.host_allowed`), so a foreign name pointed at it gets nothing.

Given a ``forms`` handler (the director's desk), every GET and POST under ``forms_at`` goes to
it as an :class:`~hal.ports.HttpRequest` with its form's fields (a POST's urlencoded body, at
most :data:`MAX_FORM_BYTES`), its cookies and the client's address, and its
:class:`~hal.ports.HttpAnswer` comes back with the headers it sets (a cookie, a redirect, the
page's own policy). What a form may do, who is logged in, and whether a POST came from the
desk's own page are the handler's to decide; the other routes stay GET only.

This module and :mod:`hal.web_server` alone import aiohttp.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import secrets
import socket
import threading
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl

from aiohttp import web

from hal.listening import listen_problem
from hal.ports import HttpAnswer, HttpRequest
from hal.web_server import (
    SECURITY_HEADERS,
    host_allowed,
    start_server_thread,
    stop_server_thread,
)

__all__ = [
    "HISTORY", "HOST_KEY", "MAX_FORM_BYTES", "MAX_WATCHERS", "FormHandler", "HubServer",
    "HubServerError", "Route",
]

logger = logging.getLogger(__name__)

#: A route: the query's parameters -> (media type, body, download file name or "").
Route = Callable[[Mapping[str, str]], tuple[str, bytes, str]]
#: A form's handler: the request -> the answer (runs on a worker thread of the server's).
FormHandler = Callable[[HttpRequest], HttpAnswer]
#: The largest form body taken (a table card's fields are well under 2 kB).
MAX_FORM_BYTES = 16 * 1024
#: Most fields a form may have.
MAX_FORM_FIELDS = 64
#: Most event streams at once (TVs, phones): a DM's hall of 600 players with room to spare.
MAX_WATCHERS = 1000
#: The last changes the server keeps for a watcher that fell behind or reconnects.
HISTORY = 64
#: A write to a watcher that waits this long (a phone gone without a word) ends its stream.
WRITE_TIMEOUT_S = 30.0
#: The kernel's send buffer of a watcher's socket (Linux doubles it; left alone it grows to
#: megabytes): with the transport's own 64 KiB, what a watcher that reads nothing holds.
WATCHER_SEND_BUFFER = 64 * 1024
#: A comment line every so often keeps proxies and the browser from closing a quiet stream.
KEEPALIVE_S = 15.0
EVENTS_PATH = "/events"
#: The key under which a route finds the request's ``Host`` among its query's parameters (one the
#: server checked, never one the query sent): the TV's QR code points phones to the same name.
HOST_KEY = "@host"
#: A gzip member's header (deflate, no name, no time, unknown system): the stream's first bytes.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
#: File descriptors beyond the watchers' the process keeps for itself (the store, the broker).
SPARE_DESCRIPTORS = 256


class HubServerError(OSError):
    """The server cannot listen where it was asked to: one line."""


def deflated(data: bytes) -> bytes:
    """``data`` deflated on its own (no reference to anything before it) and flushed to a byte
    boundary without ending the stream: any sequence of these after :data:`GZIP_HEADER` is
    one gzip stream that a browser inflates as it arrives."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


@dataclass(slots=True)
class _Event:
    """One server-sent event, as sent and as compressed (made when first asked for)."""

    plain: bytes
    _packed: bytes | None = field(default=None, repr=False)

    def bytes(self, packed: bool) -> bytes:
        if not packed:
            return self.plain
        if self._packed is None:
            self._packed = deflated(self.plain)
        return self._packed


KEEPALIVE = _Event(b": keepalive\n\n")


class HubServer:
    """Serves ``routes`` and the event stream on ``host:port`` (0: any free port)."""

    def __init__(
        self,
        host: str,
        port: int,
        routes: Mapping[str, Route],
        *,
        names: Iterable[str] = (),
        on_error: Callable[[Exception], str] | None = None,
        forms: FormHandler | None = None,
        forms_at: str = "/desk",
    ) -> None:
        self._routes = dict(routes)
        self._forms = forms
        self._forms_at = forms_at
        self._names = frozenset(name.lower().rstrip(".") for name in names)
        #: Turns a route's exception into the one line the browser sees (400); others: 500.
        self._on_error = on_error
        _enough_descriptors(MAX_WATCHERS + SPARE_DESCRIPTORS)
        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._socket = socket.create_server((host, port), family=family, backlog=1024)
        except OSError as error:
            raise HubServerError(f"hub on {host}:{port}: {listen_problem(error)}") from None
        #: This run's name in the events' ids: a hub started again numbers from 1 again.
        self._epoch = secrets.token_hex(4)
        self._latest: _Event | None = None
        self._version = 0
        #: (version, its changes from the version before), the newest last.
        self._history: deque[tuple[int, _Event]] = deque(maxlen=HISTORY)
        self._changed: asyncio.Event | None = None
        #: Keepalives sent so far: one every :data:`KEEPALIVE_S` without a new state, to all.
        self._beats = 0
        self._keepalive: asyncio.Task[None] | None = None
        self._watchers = 0
        self._runner: web.AppRunner | None = None
        self._closed = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hub-web", daemon=True)
        start_server_thread(self._thread, self._loop, self._serve, self.close)

    @property
    def address(self) -> tuple[str, int]:
        name = self._socket.getsockname()
        return str(name[0]), int(name[1])

    @property
    def watchers(self) -> int:
        """Event streams open now."""
        return self._watchers

    @property
    def version(self) -> int:
        """How many states the server has taken in so far (each one's number in its events)."""
        return self._version

    def push(self, state: bytes, changes: bytes | None = None) -> None:
        """A new state for every event stream (any thread), and where known its ``changes`` from
        the state pushed before (None: watchers get the whole state)."""
        with contextlib.suppress(RuntimeError):  # closed: nobody to tell
            self._loop.call_soon_threadsafe(self._set, state, changes)

    def close(self) -> None:
        """Stop serving and end the thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        stop_server_thread(self._loop, self._thread, self._socket, self._shutdown, "hub web")

    # -- the server's thread -------------------------------------------------------------------

    def _set(self, state: bytes, changes: bytes | None) -> None:
        self._version += 1
        ident = f"id: {self._epoch}-{self._version}\n".encode()
        self._latest = _Event(ident + _data(state))
        if changes is None:
            self._history.clear()  # no way from before this version to it but the whole state
        else:
            self._history.append((self._version, _Event(ident + b"event: changes\n" +
                                                        _data(changes))))  # fmt: skip
        self._wake()

    def _wake(self) -> None:
        """Every watcher looks again: a new state, or a keepalive to send."""
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def _keep_alive(self) -> None:
        """One timer for all watchers, not one each: a keepalive comment every
        :data:`KEEPALIVE_S` in which no state was pushed."""
        version = self._version
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            if self._version == version:
                self._beats += 1
                self._wake()
            version = self._version

    def _since(self, seen: int | None, packed: bool) -> bytes:
        """What brings a watcher at version ``seen`` (None: nothing yet) to the latest: the
        changes since, where all are held and together smaller than the state, else the state."""
        assert self._latest is not None
        history = self._history
        if seen is not None and history and history[0][0] <= seen + 1:
            # The history holds consecutive versions up to the latest: the missed are its end
            # (one, mostly), taken without a pass over all of it per watcher.
            missed = [history[-back][1] for back in range(self._version - seen, 0, -1)]
            # Measured as sent plain, so that gzip or not, a watcher gets the same events.
            if sum(len(event.plain) for event in missed) < len(self._latest.plain):
                return b"".join(event.bytes(packed) for event in missed)
        return self._latest.bytes(packed)

    def _last_seen(self, request: web.Request) -> int | None:
        """The version a reconnecting browser had (its ``Last-Event-ID`` of this run), or None."""
        epoch, _, version = request.headers.get("Last-Event-ID", "").partition("-")
        if epoch != self._epoch or not version.isascii() or not version.isdigit():
            return None
        if len(version) > 18:  # no version of this run is that long (nor a number int() refuses)
            return None
        return int(version) if int(version) <= self._version else None

    async def _serve(self) -> None:
        self._changed = asyncio.Event()
        self._keepalive = asyncio.create_task(self._keep_alive())
        app = web.Application(middlewares=[self._check_host], client_max_size=MAX_FORM_BYTES)
        app.router.add_get(EVENTS_PATH, self._events)
        for path in self._routes:
            app.router.add_get(path, self._page)
        if self._forms is not None:
            for path in (self._forms_at, self._forms_at + "/{action}"):
                app.router.add_get(path, self._form)
                app.router.add_post(path, self._form)
        # A watcher that closes its stream is cancelled at once, which frees its place.
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5,
                               handler_cancellation=True)  # fmt: skip
        await runner.setup()
        await web.SockSite(runner, self._socket).start()
        self._runner = runner

    async def _shutdown(self) -> None:
        if self._keepalive is not None:
            self._keepalive.cancel()
        if self._changed is not None:
            self._changed.set()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        local = str(sockname[0]) if sockname else ""
        if not host_allowed(request.headers.get("Host"), local, self._names):
            return web.Response(status=421, text="this hub answers to its own address only\n")
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        route = self._routes[request.path]
        query = {key: value for key, value in request.query.items()}
        query[HOST_KEY] = request.host
        try:
            # Exports read the store and may draw a PDF: off the server's loop.
            media, body, name = await asyncio.get_running_loop().run_in_executor(None, route, query)
        except Exception as error:
            if self._on_error is not None:
                line = self._on_error(error)
                if line:
                    return web.Response(status=400, text=line + "\n")
            logger.exception("hub web: %s failed", request.path)
            return web.Response(status=500, text="the hub could not answer this\n")
        headers = dict(SECURITY_HEADERS)
        headers["Cache-Control"] = "no-store"
        if name:
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        response = web.Response(body=body, content_type=media.split(";")[0], headers=headers,
                                charset="utf-8" if "charset" in media else None)  # fmt: skip
        if media.startswith(("text/", "application/json")):
            response.enable_compression()  # the page carries the state: 150 kB at a DM
        return response

    async def _form(self, request: web.Request) -> web.Response:
        """A GET or POST of the forms' handler, off the server's loop."""
        assert self._forms is not None
        fields: dict[str, str] = {}
        if request.method == "POST":
            try:
                body = await request.read()
                fields = dict(parse_qsl(body.decode("utf-8"), max_num_fields=MAX_FORM_FIELDS))
            except web.HTTPRequestEntityTooLarge:
                return web.Response(status=413, text="this form is too large\n")
            except (UnicodeDecodeError, ValueError):
                return web.Response(status=400, text="this form cannot be read\n")
        asked = HttpRequest(
            request.path, dict(request.query),
            {name.lower(): value for name, value in request.headers.items()},
            request.method, fields, _cookies(request.headers.get("Cookie", "")),
            request.remote or "",
        )  # fmt: skip
        try:
            answer = await asyncio.get_running_loop().run_in_executor(None, self._forms, asked)
        except Exception:
            logger.exception("hub web: the form %s failed", request.path)
            return web.Response(status=500, text="the hub could not answer this\n")
        headers = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
        cookies = []
        for name, value in answer.headers:
            if name.lower() == "set-cookie":
                cookies.append(value)
            else:
                headers[name] = value
        media, _, charset = answer.content_type.partition("; charset=")
        response = web.Response(status=answer.status, body=answer.body, content_type=media,
                                charset=charset or None, headers=headers)  # fmt: skip
        for value in cookies:
            response.headers.add("Set-Cookie", value)
        return response

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if self._watchers >= MAX_WATCHERS:
            return web.Response(status=503, text="too many watchers\n")
        self._watchers += 1
        packed = "gzip" in request.headers.get("Accept-Encoding", "").lower()
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        if packed:
            headers["Content-Encoding"] = "gzip"
        response = web.StreamResponse(headers=headers)
        connection = request.transport.get_extra_info("socket") if request.transport else None
        if connection is not None:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WATCHER_SEND_BUFFER)
        try:
            await response.prepare(request)
            if packed:
                await response.write(GZIP_HEADER)
            seen = self._last_seen(request)
            beat = self._beats
            transport = request.transport
            while not self._closed:
                # Taken before the write: a state pushed while it waits for the watcher has set
                # this one, not the next.
                changed = self._changed
                assert changed is not None
                if self._latest is not None and self._version != seen:
                    chunk = self._since(seen, packed)
                    seen = self._version
                    await _write(response, transport, chunk)
                elif self._beats != beat:
                    await _write(response, transport, KEEPALIVE.bytes(packed))
                beat = self._beats
                await changed.wait()
        except _Stuck:  # the watcher stopped reading: its stream ends, its place is free
            if request.transport is not None:
                request.transport.abort()
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._watchers -= 1
        return response


#: What aiohttp adds to a chunk at most (HTTP/1.1's chunk size line and its end).
_FRAMING = 32


class _Stuck(Exception):
    """A watcher read nothing for :data:`WRITE_TIMEOUT_S`."""


async def _write(
    response: web.StreamResponse, transport: asyncio.BaseTransport | None, chunk: bytes
) -> None:
    """``chunk`` to a watcher, or :class:`_Stuck` where it waits too long for the watcher.

    Where the chunk fits below the transport's high-water mark the write cannot wait (aiohttp
    waits only for a paused transport), and no timer is set: 600 of them a state cost the
    server a third of its time."""
    if isinstance(transport, asyncio.WriteTransport):
        high = transport.get_write_buffer_limits()[1]
        if transport.get_write_buffer_size() + len(chunk) + _FRAMING < high:
            await response.write(chunk)
            return
    try:
        async with asyncio.timeout(WRITE_TIMEOUT_S):
            await response.write(chunk)
    except TimeoutError:
        raise _Stuck from None


def _data(payload: bytes) -> bytes:
    """The data line of a server-sent event carrying ``payload`` (JSON: one line)."""
    return b"data: " + payload.replace(b"\n", b" ") + b"\n\n"


def _enough_descriptors(wanted: int) -> None:
    """Raise this process's soft limit of open files to ``wanted`` where the hard limit allows:
    every watcher is a socket, and a service's soft limit is often 1024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _cookies(header: str) -> dict[str, str]:
    """A request's cookies by name (none where the header cannot be read)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in jar.items()}
