"""The table's web page: an HTTP and WebSocket server (aiohttp) on a thread of its own.

The server serves a few fixed files (the page, its texts) and speaks the link protocol
(docs/protocol.md) over a WebSocket at ``/ws``: one text message is one protocol line, either
way. Each WebSocket is a :class:`~hal.ports.Link` of its own (:class:`WebSocketLink`), handed to
the firmware through the :class:`~hal.ports.LinkServer` callbacks; the firmware answers it exactly
as it answers the serial link. This module alone imports aiohttp.

Threads. The server runs an asyncio loop on its own thread. Received lines go to the link's
``on_line`` callback on that thread (the firmware hands them to the main loop); lines the main
loop sends are queued under a lock and written by a task of the connection, so the main loop
never waits for a browser.

A pub's Wi-Fi is not a trusted network, so the server itself refuses:

* any request whose ``Host`` is not the device's own: an IP literal of the address the request
  arrived on, ``localhost`` or a loopback address, or one of the names it is given (``[web]
  hosts``), so that a foreign name pointed at the device (DNS rebinding) gets nothing (421);
* a WebSocket whose ``Origin`` names another host than the one the browser asked for (a page on
  some other site cannot drive the device in a visitor's browser); a client without ``Origin`` is
  no browser and is let in: it gets what every watcher gets, and pairing guards the rest;
* messages over :data:`MAX_MESSAGE` bytes (the connection is closed); more than
  :data:`RATE_PER_S` messages a second, text or binary alike: the connection is not read until
  it may send again, so that TCP slows the sender (one ``error`` line says so), and one that
  keeps pushing for :data:`PUSH_WINDOW_S` is closed, after a last ``error`` line; a binary
  message gets an ``error`` line, and :data:`MAX_REFUSED` in a row close the connection;
* more than :data:`MAX_CONNECTIONS` connections at once, or :data:`MAX_PER_ADDRESS` from one
  peer address (an IPv6 /64: one host can take many addresses of its network).

Each connection's writes are bounded too: the transport buffers at most :data:`WRITE_BUFFER_BYTES`
before the writer waits for the page, and the queue in front of it :data:`SEND_QUEUE_BYTES`, in
which a frame replaces the frame still waiting (a watcher gets the latest frame, never a backlog).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import resource
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from hal.listening import listen_problem
from hal.ports import HttpAnswer, HttpRequest, PageLink
from hal.quietlog import QuietLog, where_it_failed

__all__ = [
    "MAX_CONNECTIONS",
    "MAX_MESSAGE",
    "MAX_PER_ADDRESS",
    "RATE_PER_S",
    "WebServer",
    "WebServerError",
    "WebSocketLink",
    "host_allowed",
    "start_server_thread",
    "stop_server_thread",
]

logger = logging.getLogger(__name__)
#: What clients' bad requests and frames trip, logged in one line a minute at most.
QUIET = QuietLog(logger)
#: aiohttp's loggers, whose tracebacks of a client's bad request become those lines.
AIOHTTP_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "aiohttp.internal")

#: The longest message a page may send, in bytes; longer ones close the connection (1009). The
#: protocol's own line limit (1024 bytes) is checked by the firmware, with an ``error`` line.
MAX_MESSAGE = 4096
#: Bytes a connection's transport buffers before its writer waits for the page to read.
WRITE_BUFFER_BYTES = 16 * 1024
#: What aiohttp parses of a connection ahead of its reader (:func:`short_read_queues`): it stops
#: once its queue holds twice this, counting each message's bytes and 128 more: about a hundred
#: short lines, or three of the longest. Its own default (256 KiB) let a flood queue 3,900
#: parsed ``ping`` lines a page: about 47 MB and 390,000 objects for the garbage collector to
#: walk, at 100 flooding pages.
READ_QUEUE_BYTES = 8 * 1024
#: Lines a connection may send per second, on average ...
RATE_PER_S = 20.0
#: ... and at once.
RATE_BURST = 40.0
#: Binary messages in a row (no text line between them) after which a connection is closed.
MAX_REFUSED = 20
#: Seconds a connection may keep sending over its rate (read only as its rate allows, so that
#: TCP slows it) before it is closed.
PUSH_WINDOW_S = 2.0
#: Connections served at once; more get HTTP 503.
MAX_CONNECTIONS = 200
#: Connections served at once from one peer address (an IPv6 /64); more get HTTP 503, so that
#: one address cannot lock the phones out.
MAX_PER_ADDRESS = 16
#: Bytes queued for one connection; past that frames go first, then lines (``overrun N``).
SEND_QUEUE_BYTES = 256 * 1024
#: Seconds between WebSocket pings; a page that does not answer is dropped.
HEARTBEAT_S = 20.0
#: Seconds a connection has for its request's headers (the WebSocket's handshake too), and an
#: idle keep-alive connection stays open: aiohttp's keep-alive deadline, set from the start of
#: a connection, is both (its default is an hour, and a byte every 10 s held a slot for ever).
REQUEST_DEADLINE_S = 5.0
#: TCP connections open at once, every kind (a page, a file, a half-sent request) ...
MAX_OPEN = 1024
#: ... and from one peer address; more are closed as they are accepted (no file descriptor
#: runs out: the process's own limit is kept below with :data:`FD_RESERVE` to spare).
MAX_OPEN_PER_ADDRESS = 64
#: File descriptors kept free of connections for everything else of the device.
FD_RESERVE = 128
#: Peer addresses whose :func:`address_key` is remembered (more than :data:`MAX_OPEN`).
ADDRESSES_KEPT = 4096
#: The path of the WebSocket.
SOCKET_PATH = "/ws"

#: Headers on every answer: nothing from elsewhere, no framing by another site.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebServerError(OSError):
    """The server cannot listen where it was asked to; the message says why, in one line."""


class _OneLine(logging.Filter):
    """aiohttp logs a client's bad request (a malformed request line, a header it cannot read)
    with a whole traceback, as fast as a script sends them: one line a minute instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            return True
        QUIET.note(
            f"{record.name} {type(error).__name__}",
            f"web: {record.getMessage()}: {where_it_failed(error)}",
            min(record.levelno, logging.WARNING),  # the client's fault, not the device's
        )
        return False


_ONE_LINE = _OneLine()


def quiet_aiohttp() -> None:
    """Put aiohttp's tracebacks of clients' bad requests on one line a minute. Idempotent."""
    for name in AIOHTTP_LOGGERS:
        logging.getLogger(name).addFilter(_ONE_LINE)


def short_read_queues() -> None:
    """Have aiohttp parse at most :data:`READ_QUEUE_BYTES` of each WebSocket ahead of its
    reader; the rest stays in the socket, where TCP slows the sender. aiohttp has no argument
    for it: its server side sizes the queue from a module constant, read as each WebSocket
    starts (only the page's server uses aiohttp in the device's process). Idempotent; a version
    of aiohttp without the constant keeps its own size."""
    from aiohttp import web_ws

    if isinstance(getattr(web_ws, "DEFAULT_CHUNK_SIZE", None), int):
        web_ws.DEFAULT_CHUNK_SIZE = READ_QUEUE_BYTES  # type: ignore[attr-defined]


class _Bucket:
    """A token bucket: :data:`RATE_PER_S` lines a second, :data:`RATE_BURST` at once."""

    def __init__(self) -> None:
        self.tokens = RATE_BURST
        self.stamp = time.monotonic()

    def wait(self) -> float:
        """Seconds until a line may be read (0: now)."""
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.stamp) * RATE_PER_S)
        self.stamp = now
        return max(0.0, (1.0 - self.tokens) / RATE_PER_S)

    def take(self) -> None:
        """A line was read: one token less (the bucket may go below zero by what came early)."""
        self.tokens -= 1.0

    def woke(self) -> None:
        """The reader woke for its next token: at most that one token, however late it woke (a
        collector's pause, a busy thread): lateness is no credit to the sender."""
        self.wait()
        self.tokens = min(self.tokens, 1.0)


class WebSocketLink:
    """One browser's WebSocket as a :class:`~hal.ports.Link`: one text message per line."""

    #: A page comes over the network: changing the game always needs pairing.
    network = True

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        peer: str,
        notify: Callable[[WebSocketLink], None] | None = None,
    ) -> None:
        #: The address the page connects from.
        self.peer = peer
        self._loop = loop
        #: Wakes this link's writer on the server's thread (the server wakes many at once).
        self._notify = notify if notify is not None else (lambda link: link._call(link._wake.set))
        self._lock = threading.Lock()
        self._queue: deque[tuple[str, bool]] = deque()
        self._queued_bytes = 0
        self._overrun = 0
        self._wake_pending = False
        self._closed = False
        self._wake = asyncio.Event()
        self._started = asyncio.Event()
        self._on_line: Callable[[bytes], None] | None = None
        #: Lines this connection lost because the page did not read fast enough.
        self.dropped = 0

    # -- the Link port (any thread) --------------------------------------------------------------

    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
        """Begin handing received lines to ``on_line``; the page is connected already."""
        self._on_line = on_line
        on_connect()
        self._call(self._started.set)

    def send_line(self, line: str, *, droppable: bool = False) -> None:
        """Queue one line (a WebSocket text message); never blocks."""
        size = len(line)
        with self._lock:
            if self._closed:
                return
            if droppable:
                self._discard_droppable()
            while self._queued_bytes + size > SEND_QUEUE_BYTES:
                if not self._discard_droppable():
                    if not droppable:
                        self._overrun += 1
                        self.dropped += 1
                    return
            if self._overrun and not droppable:
                self._queue.append((f"overrun {self._overrun}", False))
                self._overrun = 0
            self._queue.append((line, droppable))
            self._queued_bytes += size
            wake = not self._wake_pending
            self._wake_pending = True
        if wake:
            self._notify(self)

    def close(self) -> None:
        """Close the connection (a going-away close) once the lines queued so far are written
        (a refusal's last ``error`` line arrives). Idempotent; any thread."""
        with self._lock:
            self._closed = True
        self._call(self._wake.set)

    @property
    def queued_bytes(self) -> int:
        """Bytes queued and not yet handed to the socket (any thread)."""
        return self._queued_bytes

    @property
    def closed(self) -> bool:
        """True once the connection is closed, by either side."""
        return self._closed

    # -- the server's side (its own thread) ------------------------------------------------------

    def _call(self, function: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to wake any more
            self._loop.call_soon_threadsafe(function)

    def _discard_droppable(self) -> bool:
        for index, (line, droppable) in enumerate(self._queue):
            if droppable:
                del self._queue[index]
                self._queued_bytes -= len(line)
                return True
        return False

    async def _wait_started(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._started.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _received(self, raw: bytes) -> None:
        if self._on_line is not None and not self._closed:
            self._on_line(raw)

    async def _write(self, socket_: web.WebSocketResponse) -> None:
        """Send what the main loop queued, until the link is closed."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            with self._lock:
                lines = [line for line, _ in self._queue]
                self._queue.clear()
                self._queued_bytes = 0
                self._wake_pending = False
                closed = self._closed
            for line in lines:
                if socket_.closed:
                    return
                await socket_.send_str(line)
            if closed:
                await socket_.close(code=WSCloseCode.GOING_AWAY)
                return


class WebServer:
    """Serves ``files`` (path -> media type and bytes) and the WebSocket at ``/ws`` on
    ``host:port`` (port 0: any free port, see :attr:`address`), to requests whose ``Host`` is
    the device's address, localhost, or one of ``names``.

    The socket is bound here, so a bad address fails at once with :class:`WebServerError`;
    connections are accepted from :meth:`start` on.
    """

    def __init__(
        self,
        host: str,
        port: int,
        files: Mapping[str, tuple[str, bytes]],
        *,
        names: Iterable[str] = (),
    ) -> None:
        self._files = dict(files)
        #: Host names besides the device's addresses and localhost (``[web] hosts``).
        self._names = frozenset(name.lower().rstrip(".") for name in names)
        quiet_aiohttp()
        short_read_queues()
        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._socket = socket.create_server((host, port), family=family, backlog=128)
        except OSError as error:
            where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            raise WebServerError(f"web page on {where}: {listen_problem(error)}") from None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="web", daemon=True)
        self._links: set[WebSocketLink] = set()
        #: Connections now per peer address (:func:`address_key`).
        self._per_address: dict[str, int] = {}
        #: Links with lines to write, woken together by one call into the server's loop.
        self._dirty: list[WebSocketLink] = []
        self._dirty_lock = threading.Lock()
        #: Routes the firmware added (:meth:`route`), answered by :meth:`_routed`.
        self._routes: dict[str, Callable[[HttpRequest], HttpAnswer]] = {}
        self._on_link: Callable[[PageLink], None] | None = None
        self._on_gone: Callable[[PageLink], None] | None = None
        self._runner: web.AppRunner | None = None
        self._closed = False
        #: Requests refused: a foreign Host or Origin, too many connections at once.
        self.refused = 0
        start_server_thread(self._thread, self._loop, self._serve, self.close)

    @property
    def address(self) -> tuple[str, int]:
        """The host and port the server listens on (the real port when 0 was asked for)."""
        name = self._socket.getsockname()
        return str(name[0]), int(name[1])

    def start(
        self, on_link: Callable[[PageLink], None], on_gone: Callable[[PageLink], None]
    ) -> None:
        """Hand each new WebSocket's link to ``on_link`` and each closed one to ``on_gone``."""
        self._on_gone = on_gone
        self._on_link = on_link

    def route(self, path: str, handler: Callable[[HttpRequest], HttpAnswer]) -> None:
        """Answer GET ``path`` with ``handler`` (:class:`~hal.ports.Routed`), on a worker
        thread; the answer gets the page's security headers."""
        if path in self._files or path == SOCKET_PATH or not path.startswith("/"):
            raise ValueError(f"route {path!r}: taken, or not an absolute path")
        self._routes = {**self._routes, path: handler}

    def close(self) -> None:
        """Close every connection, stop serving, end the thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        stop_server_thread(self._loop, self._thread, self._socket, self._shutdown, "web")

    def _notify(self, link: WebSocketLink) -> None:
        """``link`` has lines queued (any thread): one wake-up of the server's loop serves every
        link that got lines meanwhile (the main loop sends a line to twenty pages at once)."""
        with self._dirty_lock:
            self._dirty.append(link)
            first = len(self._dirty) == 1
        if first:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to wake
                self._loop.call_soon_threadsafe(self._wake_dirty)

    # -- the server's thread ---------------------------------------------------------------------

    def _wake_dirty(self) -> None:
        with self._dirty_lock:
            dirty, self._dirty = self._dirty, []
        for link in dirty:
            link._wake.set()

    async def _serve(self) -> None:
        app = web.Application(client_max_size=MAX_MESSAGE, middlewares=[self._check_host])
        app.router.add_get(SOCKET_PATH, self._websocket)
        for path in self._files:
            app.router.add_get(path, self._file)
        app.router.add_get("/{tail:.*}", self._routed)  # the routes added later, else 404
        runner = web.AppRunner(
            app, access_log=None, handle_signals=False, keepalive_timeout=REQUEST_DEADLINE_S
        )
        await runner.setup()
        asyncio.get_running_loop().set_exception_handler(_quiet_accept_errors)
        await _GuardedSite(runner, self._socket).start()
        self._runner = runner

    async def _shutdown(self) -> None:
        for link in list(self._links):
            link.close()
        await asyncio.sleep(0)
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Answer only requests for the device itself (see :func:`host_allowed`)."""
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        local = str(sockname[0]) if sockname else ""
        if not host_allowed(request.headers.get("Host"), local, self._names):
            self.refused += 1
            return web.Response(
                status=421, text="this device answers to its own address and names only\n",
                headers=SECURITY_HEADERS,
            )
        return await handler(request)

    async def _file(self, request: web.Request) -> web.Response:
        content_type, body = self._files[request.path]
        return web.Response(body=body, content_type=content_type, headers=SECURITY_HEADERS)

    async def _routed(self, request: web.Request) -> web.Response:
        handler = self._routes.get(request.path)
        if handler is None:
            return web.Response(status=404, text="no such page here\n", headers=SECURITY_HEADERS)
        asked = HttpRequest(
            request.path, dict(request.query),
            {name.lower(): value for name, value in request.headers.items()},
        )
        try:
            answer = await asyncio.get_running_loop().run_in_executor(None, handler, asked)
        except Exception:
            logger.exception("web: the route %s failed", request.path)
            return web.Response(
                status=500, text="the device could not make this file\n", headers=SECURITY_HEADERS
            )
        headers = dict(SECURITY_HEADERS)
        if answer.filename:
            headers["Content-Disposition"] = content_disposition(answer.filename)
        media, _, charset = answer.content_type.partition("; charset=")
        return web.Response(
            status=answer.status, body=answer.body, content_type=media,
            charset=charset or None, headers=headers,
        )

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
            self.refused += 1
            return web.Response(status=403, text="this page's WebSocket is for its own page only\n")
        on_link, on_gone = self._on_link, self._on_gone
        if on_link is None or on_gone is None or self._closed:
            return web.Response(status=503, text="the device is starting; try again\n")
        if sum(self._per_address.values()) >= MAX_CONNECTIONS:
            self.refused += 1
            return web.Response(status=503, text="too many pages are connected\n")
        address = address_key(request.remote or "?")
        if self._per_address.get(address, 0) >= MAX_PER_ADDRESS:
            self.refused += 1
            return web.Response(status=503, text="too many pages from this address\n")
        self._per_address[address] = self._per_address.get(address, 0) + 1
        try:
            return await self._serve_socket(request, on_link, on_gone)
        finally:
            left = self._per_address.pop(address) - 1
            if left:
                self._per_address[address] = left

    async def _serve_socket(
        self,
        request: web.Request,
        on_link: Callable[[PageLink], None],
        on_gone: Callable[[PageLink], None],
    ) -> web.StreamResponse:
        socket_ = web.WebSocketResponse(
            # aiohttp closes at max_msg_size bytes already: MAX_MESSAGE itself is allowed
            max_msg_size=MAX_MESSAGE + 1, heartbeat=HEARTBEAT_S, compress=False,
            writer_limit=WRITE_BUFFER_BYTES,
        )
        await socket_.prepare(request)
        if request.transport is not None:
            request.transport.set_write_buffer_limits(high=WRITE_BUFFER_BYTES)
        link = WebSocketLink(asyncio.get_running_loop(), request.remote or "?", self._notify)
        self._links.add(link)
        writer = asyncio.create_task(link._write(socket_))
        try:
            on_link(link)
            if await link._wait_started(10.0):
                await self._read(link, socket_)
        finally:
            link.close()
            self._links.discard(link)
            on_gone(link)
            try:
                await asyncio.wait_for(writer, 1.0)
            except (TimeoutError, ConnectionError, RuntimeError):
                writer.cancel()
        return socket_

    async def _read(self, link: WebSocketLink, socket_: web.WebSocketResponse) -> None:
        """Hand each text message to the link, within the rate, text and binary alike: over it,
        the connection is not read until it may send again (aiohttp stops reading the socket
        once its queue of messages is full, and TCP slows the sender, at no cost here), and one
        that keeps pushing for :data:`PUSH_WINDOW_S` is closed, after a last line that says so.
        The push ends when a token waits for its line (the sender fell behind its rate); a token
        that came back late because the server woke late (a collector's pause) does not count,
        else such pauses would start the window again, and a flood would stay open for ever.
        A binary message gets an ``error`` line; :data:`MAX_REFUSED` in a row close it."""
        bucket = _Bucket()
        binary = 0
        pushing_since: float | None = None
        while True:
            wait = bucket.wait()
            if wait > 0.0:
                now = time.monotonic()
                if pushing_since is None:
                    pushing_since = now
                    link.send_line(
                        f"error too many lines: at most {RATE_PER_S:g} a second; slow down"
                    )
                elif now - pushing_since >= PUSH_WINDOW_S:
                    link.send_line(
                        f"error too many lines: over {RATE_PER_S:g} a second for "
                        f"{PUSH_WINDOW_S:g} s; closing"
                    )
                    return
                await asyncio.sleep(wait)
                bucket.woke()
            else:  # a token was there before its line: it sends within its rate again
                pushing_since = None
            message = await socket_.receive()
            if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                return  # an error or a close: the connection is over
            bucket.take()
            if message.type is WSMsgType.BINARY:
                binary += 1
                if binary >= MAX_REFUSED:
                    link.send_line(
                        f"error binary messages: {MAX_REFUSED} refused in a row; closing"
                    )
                    return
                link.send_line("error binary messages are not understood; send text lines")
                continue
            binary = 0
            raw = str(message.data).encode("utf-8", "surrogatepass")
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            link._received(raw)
            if link.closed:  # the firmware closed it (a page over its pairing tries)
                return


def open_limit() -> int:
    """TCP connections the server keeps open at once: :data:`MAX_OPEN`, or fewer where the
    process may open fewer files (with :data:`FD_RESERVE` to spare)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_OPEN
    return max(16, min(MAX_OPEN, soft - FD_RESERVE))


class _Doorman(asyncio.Protocol):
    """A connection as it is accepted: handed to aiohttp's handler, or closed at once (a reset)
    when too many are open, in all or from its address, before any file descriptor runs out."""

    def __init__(self, server: web.Server) -> None:
        self._server = server

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = address_key(str(peer[0])) if peer else "?"
        handlers = self._server.connections
        same = 0
        for handler in handlers:
            other = handler.transport.get_extra_info("peername") if handler.transport else None
            same += other is not None and address_key(str(other[0])) == address
        limit = open_limit()
        if len(handlers) >= limit or same >= MAX_OPEN_PER_ADDRESS:
            QUIET.note(
                "open connections",
                f"web: {len(handlers)} connections open, {same} from {address}: new ones are "
                f"closed as they come (at most {limit}, {MAX_OPEN_PER_ADDRESS} from one address)",
            )
            assert isinstance(transport, asyncio.Transport)
            transport.abort()
            return
        handler = self._server()
        transport.set_protocol(handler)
        handler.connection_made(transport)


class _GuardedSite(web.SockSite):
    """aiohttp's site on our socket, each accepted connection past a :class:`_Doorman`."""

    async def start(self) -> None:
        self._runner._reg_site(self)
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Doorman(server), sock=self._sock, backlog=self._backlog
        )


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The server loop's exception handler: asyncio's accept loop out of file descriptors (it
    logs a traceback per try, thousands a second) as one line a minute; the rest as asyncio
    says it."""
    error = context.get("exception")
    if isinstance(error, OSError) and "accept" in str(context.get("message", "")):
        QUIET.note("accept", f"web: cannot accept connections: {error.strerror or error}")
        return
    loop.default_exception_handler(context)


def content_disposition(filename: str) -> str:
    """A download's header: the name in ASCII for old clients, and in UTF-8 (RFC 6266)."""
    plain = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


def host_allowed(host: str | None, local: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` header names the device: an IP literal of ``local`` (the
    address the request arrived on) or of a loopback address, ``localhost``, or one of
    ``names``; a request without the header (no browser sends one) passes."""
    if host is None:
        return True
    name = host.strip().lower()
    if name.startswith("["):  # [v6] or [v6]:port
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")
    if name == "localhost" or name in names:
        return True
    literal = _ip(name)
    if literal is None:
        return False
    return literal.is_loopback or literal == _ip(local)


@functools.lru_cache(maxsize=ADDRESSES_KEPT)
def address_key(peer: str) -> str:
    """Whose connection ``peer`` counts as: an IPv4 address itself (an IPv4-mapped IPv6 one
    too), an IPv6 address its /64 (one host can take many addresses of its network), anything
    else as it is. (The pairing's tries count by the same rule, in firmware/link/pairing.py.)

    Remembered for :data:`ADDRESSES_KEPT` peers: each accepted connection compares its address
    with every open one's, and parsing them all again held the server's thread up to 3 ms an
    accept at 200 connections."""
    literal = _ip(peer)
    if isinstance(literal, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((literal, 64), strict=False))
    return str(literal) if literal is not None else peer


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (an IPv4-mapped IPv6 address as its IPv4 one), else None."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def start_server_thread(
    thread: threading.Thread,
    loop: asyncio.AbstractEventLoop,
    serve: Callable[[], Coroutine[Any, Any, None]],
    close: Callable[[], None],
) -> None:
    """Start ``thread`` (which runs ``loop``) and wait, at most 30 s, until ``serve`` has the
    server listening on it; if that fails, ``close`` the server half made and raise."""
    thread.start()
    try:
        asyncio.run_coroutine_threadsafe(serve(), loop).result(timeout=30)
    except BaseException:
        close()
        raise


def stop_server_thread(
    loop: asyncio.AbstractEventLoop,
    thread: threading.Thread,
    listening: socket.socket,
    shutdown: Callable[[], Coroutine[Any, Any, None]],
    name: str,
) -> None:
    """End a server that runs ``loop`` on ``thread``: its ``shutdown`` on the loop (at most
    5 s), then the loop, the thread and the listening socket. What fails on the way is logged
    under ``name``: shutting down, there is nothing more to save."""
    if loop.is_running():
        try:
            asyncio.run_coroutine_threadsafe(shutdown(), loop).result(timeout=5)
        except Exception:
            logger.exception("%s: shutdown failed", name)
        loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=5)
    if not thread.is_alive():
        loop.close()
    listening.close()
