"""The link backend: text lines to and from a host over pyserial, or over a listening TCP port.

Which URL does what (the ``[link] url`` of the config):

``/dev/ttyGS0``, ``/dev/serial0``, ``/dev/ttyUSB0``, ...
    A serial device through pyserial (the Pi Zero's USB gadget serial, the UART, a USB adapter).
    The link opens it and keeps retrying while it is missing (a gadget port appears only once a
    USB host enumerates it; an adapter may be unplugged and plugged back).
``socket://HOST:PORT``
    pyserial's TCP *client*: the device connects out to a host that listens, and reconnects when
    the connection drops.
``loop://``
    pyserial's loopback: everything sent comes back as received. For tests.
``tcp-listen://HOST:PORT``
    A TCP *server* (this module, on the socket module): the device offers the link and a host
    connects, for instance ``schocken sim --attach socket://127.0.0.1:7777`` to a simulator
    started with ``--link tcp-listen://127.0.0.1:7777``. One host at a time; a new connection
    replaces the old one (a laptop that vanished without closing its socket cannot lock others
    out). Port 0 picks a free port (see :attr:`SerialLink.address`).

Threads: a reader thread opens the port, splits what arrives into lines and hands each to
``on_line``; ``on_connect`` runs whenever a new connection (or port) is ready. Both callbacks run
on the reader thread and must only hand work over to the main loop. A writer thread drains a
bounded queue, so :meth:`SerialLink.send_line` never blocks the game loop, whatever the host does.
When the queue is full, droppable lines (frames) go first; if that is not enough the new line is
dropped and the host is told with an ``overrun N`` line once writing works again.

pyserial is imported inside this module only.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import select
import socket
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlsplit

from hal.listening import listen_problem

__all__ = ["LISTEN_SCHEME", "LineFramer", "LinkError", "SerialLink", "parse_listen_url"]

logger = logging.getLogger(__name__)

#: The URL scheme of the listening TCP transport.
LISTEN_SCHEME = "tcp-listen"

#: How long a blocking read waits before looking at the stop flag again, in seconds.
_POLL_S = 0.1


class LinkError(OSError):
    """The link cannot be set up as configured (a malformed URL, a port that cannot be bound)."""


class LineFramer:
    """Splits a byte stream into lines ending in LF (a CR before the LF is removed).

    A line longer than ``max_line`` bytes is not buffered whole: its first ``max_line + 1`` bytes
    are delivered once it ends (so the receiver sees it is too long) and the rest is discarded.
    Memory stays bounded whatever arrives.
    """

    def __init__(self, max_line: int) -> None:
        if max_line < 1:
            raise ValueError(f"max_line must be 1 or more, not {max_line}")
        self.max_line = max_line
        self._buffer = bytearray()
        self._overlong = False

    def reset(self) -> None:
        """Forget a partial line (a new connection starts clean)."""
        self._buffer.clear()
        self._overlong = False

    def feed(self, data: bytes) -> list[bytes]:
        """The lines that ``data`` completes."""
        lines: list[bytes] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._overlong:
                # Room for max_line bytes plus a CR, and one byte more to show it is too long.
                room = self.max_line + 2 - len(self._buffer)
                self._buffer += chunk[:room]
                if len(chunk) > room:
                    self._overlong = True
            if end < 0:
                break
            line = bytes(self._buffer)
            if line.endswith(b"\r") and not self._overlong:
                line = line[:-1]
            lines.append(line[: self.max_line + 1])
            self.reset()
            start = end + 1
        return lines


# -- transports ----------------------------------------------------------------------------------


class _Channel(Protocol):
    """One open connection: read with a short timeout, write, close."""

    description: str

    def read(self) -> bytes:
        """What has arrived (b"" after a short wait without data); raises OSError when lost."""

    def write(self, data: bytes) -> None:
        """Write everything; raises OSError when the connection is lost or stuck."""

    def close(self) -> None:
        """Close; idempotent and safe from another thread."""


class _Superseded(Exception):
    """A listening channel accepted a new host, which replaces the current one."""

    def __init__(self, channel: _Channel) -> None:
        super().__init__("a new host connected")
        self.channel = channel


class _PyserialChannel:
    """A pyserial port. Where the port has a file descriptor (ttys, socket://) the channel waits
    for data with ``select`` and then reads everything available at once; pyserial's own
    timeout-bound reads would take socket:// data one byte per call."""

    def __init__(self, port: Any, description: str) -> None:
        self._port = port
        self.description = description
        try:
            self._fd: int | None = port.fileno()
        except (AttributeError, OSError, ValueError):
            self._fd = None  # loop:// and other URL handlers without a descriptor
        if self._fd is not None:
            port.timeout = 0  # reads return what is there; select does the waiting
        if description.lower().startswith("socket://") and self._fd is not None:
            _no_delay(self._fd)

    def read(self) -> bytes:
        port = self._port
        if self._fd is not None:
            readable, _, _ = select.select([self._fd], [], [], _POLL_S)
            # A readable port with nothing to read is a lost one: pyserial raises for it.
            return bytes(port.read(65536)) if readable else b""
        data = bytes(port.read(1))  # waits up to the port's timeout
        while data and (waiting := port.in_waiting):
            data += port.read(waiting)
        return data

    def write(self, data: bytes) -> None:
        self._port.write(data)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._port.close()


class _SocketChannel:
    """A connection accepted by the listening transport; watches the listener for a newer host."""

    def __init__(self, conn: socket.socket, listener: socket.socket, peer: str) -> None:
        self._conn = conn
        self._listener = listener
        self.description = f"host {peer}"
        conn.settimeout(2.0)  # for writes: a host that stops reading must not hang the writer

    def read(self) -> bytes:
        readable, _, _ = select.select([self._conn, self._listener], [], [], _POLL_S)
        if self._listener in readable:
            newer = _accept(self._listener)
            if newer is not None:
                raise _Superseded(newer)
        if self._conn not in readable:
            return b""
        data = self._conn.recv(4096)
        if not data:
            raise ConnectionResetError("the host closed the connection")
        return data

    def write(self, data: bytes) -> None:
        self._conn.sendall(data)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._conn.close()


def _no_delay(fd: int) -> None:
    """Send small writes at once (TCP_NODELAY) on the TCP socket behind ``fd``.

    pyserial's socket:// leaves Nagle's algorithm on, which holds each short line back until the
    previous one is acknowledged: with delayed ACKs, 40 ms per command and answer.
    """
    try:
        duplicate = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    with duplicate, contextlib.suppress(OSError):
        duplicate.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _accept(listener: socket.socket) -> _SocketChannel | None:
    try:
        conn, peer = listener.accept()
    except (BlockingIOError, InterruptedError):
        return None
    conn.setblocking(True)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return _SocketChannel(conn, listener, f"{peer[0]}:{peer[1]}")


def parse_listen_url(url: str) -> tuple[str, int]:
    """``tcp-listen://HOST:PORT`` as (host, port); raises LinkError naming what is wrong."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != LISTEN_SCHEME or not parts.hostname or port is None or parts.path:
        raise LinkError(
            f"link url {url!r}: expected {LISTEN_SCHEME}://HOST:PORT, "
            f"for example {LISTEN_SCHEME}://127.0.0.1:7777"
        )
    return parts.hostname, port


def _open_problem(error: Exception) -> str:
    """Why a serial port or URL does not open (yet), in words."""
    code = getattr(error, "errno", None)
    if code == errno.ENOENT:
        return "it does not exist (yet)"
    if code in (errno.EACCES, errno.EPERM):
        return "no permission to open it; is the user in the dialout group?"
    if code == errno.EBUSY:
        return "another program has it open"
    if code == errno.ECONNREFUSED or "refused" in str(error).lower():
        return "nobody listens there (yet)"
    return re.sub(r"\[Errno -?\d+\] ", "", str(error))


class _Endpoint(Protocol):
    def connect(self, stop: threading.Event) -> _Channel | None:
        """Block until a channel is open, or return None once ``stop`` is set."""

    def close(self) -> None:
        """Release what the endpoint holds (a listening socket)."""


class _ListenEndpoint:
    def __init__(self, url: str) -> None:
        host, port = parse_listen_url(url)
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            family, _, _, _, address = infos[0]
            listener = socket.socket(family, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(address)
            listener.listen(2)
        except OSError as error:
            raise LinkError(f"link url {url!r}: cannot listen: {listen_problem(error)}") from None
        listener.setblocking(False)
        self._listener = listener
        bound = listener.getsockname()
        self.address: tuple[str, int] = (str(bound[0]), int(bound[1]))

    def connect(self, stop: threading.Event) -> _Channel | None:
        while not stop.is_set():
            readable, _, _ = select.select([self._listener], [], [], _POLL_S)
            if readable and (channel := _accept(self._listener)) is not None:
                return channel
        return None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.close()


class _PyserialEndpoint:
    def __init__(self, url: str, baudrate: int, retry_s: float) -> None:
        import serial  # pyserial, imported here only

        self._serial = serial
        self._url = url
        self._baudrate = baudrate
        self._retry_s = retry_s
        try:
            # Checks the URL's scheme without opening anything.
            serial.serial_for_url(url, do_not_open=True)
        except ValueError as error:
            raise LinkError(
                f"link url {url!r}: {error}; use a device path, socket://HOST:PORT, loop:// "
                f"or {LISTEN_SCHEME}://HOST:PORT"
            ) from None
        self.address: tuple[str, int] | None = None

    def connect(self, stop: threading.Event) -> _Channel | None:
        warned = False
        while not stop.is_set():
            try:
                port = self._serial.serial_for_url(
                    self._url, baudrate=self._baudrate, timeout=_POLL_S, write_timeout=2.0
                )
            except (OSError, ValueError) as error:  # SerialException is an OSError
                if not warned:
                    logger.warning(
                        "link %s not available: %s; retrying", self._url, _open_problem(error)
                    )
                    warned = True
                stop.wait(self._retry_s)
                continue
            logger.info("link %s open", self._url)
            return _PyserialChannel(port, self._url)
        return None

    def close(self) -> None:
        pass


# -- the link ------------------------------------------------------------------------------------


#: URL schemes whose hosts come over a network rather than a cable.
NETWORK_SCHEMES = frozenset({LISTEN_SCHEME, "socket", "rfc2217"})


class SerialLink:
    """The :class:`~hal.ports.Link` port on pyserial URLs and ``tcp-listen://``.

    ``max_line`` bounds received lines (see :class:`LineFramer`); ``queue_bytes`` bounds what
    waits to be written; ``retry_s`` is the pause between attempts to open a missing port.
    Raises :class:`LinkError` at once for a URL that can never work.
    """

    def __init__(
        self,
        url: str,
        *,
        baudrate: int = 115200,
        max_line: int = 1024,
        queue_bytes: int = 256 * 1024,
        retry_s: float = 1.0,
    ) -> None:
        if not url:
            raise LinkError("link url is empty: give a device path or a URL")
        if isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0:
            raise LinkError(f"link baudrate must be a positive whole number, not {baudrate!r}")
        self.url = url
        self.network = url.lower().split("://", 1)[0] in NETWORK_SCHEMES
        self._endpoint: _Endpoint
        if url.lower().startswith(LISTEN_SCHEME + "://"):
            self._endpoint = _ListenEndpoint(url)
        else:
            self._endpoint = _PyserialEndpoint(url, baudrate, retry_s)
        self._framer = LineFramer(max_line)
        self._queue_limit = queue_bytes
        self._queue: deque[tuple[bytes, bool]] = deque()
        self._queued_bytes = 0
        self._overrun = 0
        self._channel: _Channel | None = None
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._on_line: Callable[[bytes], None] = lambda line: None
        self._on_connect: Callable[[], None] = lambda: None
        #: Lines dropped because the queue was full (frames not counted).
        self.dropped = 0

    @property
    def address(self) -> tuple[str, int] | None:
        """The bound (host, port) of a ``tcp-listen://`` link, else None."""
        return self._endpoint.address if isinstance(self._endpoint, _ListenEndpoint) else None

    @property
    def connected(self) -> bool:
        """True while a port is open or a host is connected."""
        with self._lock:
            return self._channel is not None

    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
        """Start the reader and writer threads (once)."""
        if self._threads:
            raise RuntimeError("the link is already started")
        self._on_line = on_line
        self._on_connect = on_connect
        for name, target in (("link-reader", self._read_loop), ("link-writer", self._write_loop)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(thread)
            thread.start()

    def send_line(self, line: str, *, droppable: bool = False) -> None:
        """Queue ``line`` (no line break inside) for the host; never blocks.

        Without a connection the line is dropped: a host that connects gets a fresh ``hello``
        anyway. A droppable line (a frame) replaces droppable lines still waiting, and is the first
        to go when the queue is full.
        """
        if "\n" in line or "\r" in line:
            raise ValueError(f"a link line cannot contain a line break: {line[:40]!r}")
        data = line.encode("utf-8") + b"\n"
        with self._lock:
            if self._channel is None or self._stop.is_set():
                return
            if droppable:
                self._discard_droppable()
            while self._queued_bytes + len(data) > self._queue_limit:
                if not self._discard_droppable(oldest_only=True):
                    if not droppable:
                        self._overrun += 1
                        self.dropped += 1
                    return
            if self._overrun and not droppable:
                # Tell the host where the gap is: right here, before the first line kept again.
                data = self._overrun_notice() + data
            self._queue.append((data, droppable))
            self._queued_bytes += len(data)
            self._lock.notify_all()

    def close(self) -> None:
        """Stop both threads and close the port or the listening socket. Idempotent."""
        self._stop.set()
        with self._lock:
            channel, self._channel = self._channel, None
            self._queue.clear()
            self._queued_bytes = 0
            self._lock.notify_all()
        if channel is not None:
            channel.close()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self._endpoint.close()

    # -- internals -------------------------------------------------------------------------------

    def _discard_droppable(self, *, oldest_only: bool = False) -> bool:
        """Remove queued droppable lines (only the oldest one if asked); True if any went."""
        kept: deque[tuple[bytes, bool]] = deque()
        removed = False
        for item in self._queue:
            if item[1] and not (oldest_only and removed):
                self._queued_bytes -= len(item[0])
                removed = True
            else:
                kept.append(item)
        self._queue = kept
        return removed

    def _attach(self, channel: _Channel) -> None:
        with self._lock:
            self._channel = channel
            self._queue.clear()
            self._queued_bytes = 0
            self._overrun = 0
        self._framer.reset()
        logger.info("link: %s connected", channel.description)
        self._call(self._on_connect)

    def _detach(self, channel: _Channel, reason: object) -> None:
        with self._lock:
            if self._channel is channel:
                self._channel = None
                self._queue.clear()
                self._queued_bytes = 0
        channel.close()
        if not self._stop.is_set():
            logger.info("link: %s lost (%s)", channel.description, reason)

    def _call(self, callback: Callable[..., None], *args: Any) -> None:
        """Run a callback; whatever it raises is logged, the reader thread carries on."""
        try:
            callback(*args)
        except Exception:
            logger.exception("link: a receive callback failed")

    def _read_loop(self) -> None:
        channel: _Channel | None = None
        while not self._stop.is_set():
            if channel is None:
                channel = self._endpoint.connect(self._stop)
                if channel is None:
                    break
                self._attach(channel)
            try:
                data = channel.read()
            except _Superseded as newer:
                self._detach(channel, "replaced by a newer connection")
                channel = newer.channel
                self._attach(channel)
                continue
            except Exception as error:  # OSError, SerialException, or a port closed under us
                self._detach(channel, error)
                channel = None
                if not self._stop.is_set():
                    self._stop.wait(_POLL_S)
                continue
            for line in self._framer.feed(data):
                self._call(self._on_line, line)
        if channel is not None:
            self._detach(channel, "closed")

    def _overrun_notice(self) -> bytes:
        """The ``overrun N`` line for the lines dropped so far (and reset the count)."""
        notice = f"overrun {self._overrun}\n".encode()
        self._overrun = 0
        return notice

    def _write_loop(self) -> None:
        # The channel a failed write left with half a line; a new connection starts clean.
        torn: object | None = None
        while True:
            with self._lock:
                while not self._stop.is_set() and (
                    self._channel is None or not (self._queue or self._overrun)
                ):
                    self._lock.wait()
                if self._stop.is_set():
                    return
                channel = self._channel
                # Everything waiting goes out in one write: fewer system calls and TCP segments.
                lines = len(self._queue)
                # Only a notice to send: if it fails, its lines are still unreported.
                lost_if_failed = lines or self._overrun
                chunks = [item[0] for item in self._queue] or [self._overrun_notice()]
                self._queue.clear()
                self._queued_bytes = 0
                data = b"".join(chunks)
            assert channel is not None
            if torn is channel:
                data = b"\n" + data  # end the line a failed write left half-sent
            try:
                channel.write(data)
                torn = None
            except Exception as error:
                # A stuck host (write timeout) or a lost one (the reader will notice and
                # reconnect). The lines are lost; say so when writing works again.
                logger.info("link: write to %s failed (%s)", channel.description, error)
                torn = channel
                with self._lock:
                    if self._channel is channel:
                        self._overrun += lost_if_failed
                        self.dropped += lines
                self._stop.wait(_POLL_S)  # no busy loop on a connection that is going away
