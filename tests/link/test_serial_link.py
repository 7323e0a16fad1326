"""The line transport on real pyserial URLs (loop://, socket://, a pty) and tcp-listen://."""

from __future__ import annotations

import os
import queue
import socket
import threading
from collections.abc import Iterator

import pytest

from hal.serial_link import LineFramer, LinkError, SerialLink, parse_listen_url

TIMEOUT = 5.0


class Received:
    """Collects what a link's callbacks report, for waiting on from the test thread."""

    def __init__(self) -> None:
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.connects: queue.Queue[None] = queue.Queue()

    def on_line(self, line: bytes) -> None:
        self.lines.put(line)

    def on_connect(self) -> None:
        self.connects.put(None)

    def line(self) -> bytes:
        return self.lines.get(timeout=TIMEOUT)

    def connected(self) -> None:
        self.connects.get(timeout=TIMEOUT)


@pytest.fixture
def received() -> Received:
    return Received()


def start(link: SerialLink, received: Received) -> SerialLink:
    link.start(received.on_line, received.on_connect)
    received.connected()
    return link


class SocketLines:
    """The host end of a TCP connection, read line by line."""

    def __init__(self, sock: socket.socket) -> None:
        sock.settimeout(TIMEOUT)
        self.sock = sock
        self._buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def line(self) -> bytes:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("connection closed")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def at_eof(self) -> bool:
        return self.sock.recv(4096) == b""

    def close(self) -> None:
        self.sock.close()


# -- framing -------------------------------------------------------------------------------------


def test_framer_joins_chunks_and_strips_crlf() -> None:
    framer = LineFramer(16)
    assert framer.feed(b"pre") == []
    assert framer.feed(b"ss keep1\r\nsha") == [b"press keep1"]
    assert framer.feed(b"ke\n\n") == [b"shake", b""]


def test_framer_limits_lines_to_max_plus_one_byte() -> None:
    framer = LineFramer(8)
    assert framer.feed(b"12345678\n") == [b"12345678"]
    assert framer.feed(b"12345678\r\n") == [b"12345678"]  # the CR does not count
    assert framer.feed(b"123456789\n") == [b"123456789"]  # 9 bytes: the receiver sees too long
    huge = b"x" * 100_000
    assert framer.feed(huge) == []
    assert len(framer._buffer) <= 10  # bounded while the long line goes on
    assert framer.feed(huge + b"\nok\n") == [b"x" * 9, b"ok"]


def test_framer_reset_forgets_a_partial_line() -> None:
    framer = LineFramer(8)
    framer.feed(b"half")
    framer.reset()
    assert framer.feed(b"line\n") == [b"line"]


# -- loop:// -------------------------------------------------------------------------------------


def test_loop_url_round_trip(received: Received) -> None:
    link = start(SerialLink("loop://"), received)
    try:
        link.send_line("hello schockbesteck 1 {}")
        link.send_line("Größe ü")
        assert received.line() == b"hello schockbesteck 1 {}"
        assert received.line().decode() == "Größe ü"
        assert link.connected
    finally:
        link.close()
    assert not link.connected
    link.close()  # idempotent
    link.send_line("after close")  # dropped, no error


def test_send_line_refuses_line_breaks() -> None:
    link = SerialLink("loop://")
    with pytest.raises(ValueError, match="line break"):
        link.send_line("two\nlines")


def test_a_failing_callback_does_not_stop_the_reader(received: Received) -> None:
    calls: list[bytes] = []

    def fragile(line: bytes) -> None:
        calls.append(line)
        if line == b"boom":
            raise RuntimeError("a bug in the receiver")
        received.on_line(line)

    link = SerialLink("loop://")
    link.start(fragile, received.on_connect)
    try:
        received.connected()
        link.send_line("boom")
        link.send_line("still here")
        assert received.line() == b"still here"
        assert calls == [b"boom", b"still here"]
    finally:
        link.close()


def test_bad_urls_are_refused_at_once() -> None:
    with pytest.raises(LinkError, match="empty"):
        SerialLink("")
    with pytest.raises(LinkError, match="not known"):
        SerialLink("carrier-pigeon://loft")
    with pytest.raises(LinkError, match="baudrate"):
        SerialLink("loop://", baudrate=0)
    for url in ("tcp-listen://", "tcp-listen://127.0.0.1", "tcp-listen://127.0.0.1:x"):
        with pytest.raises(LinkError, match="HOST:PORT"):
            parse_listen_url(url)


# -- tcp-listen:// and socket:// -----------------------------------------------------------------


@pytest.fixture
def listening(received: Received) -> Iterator[SerialLink]:
    link = SerialLink("tcp-listen://127.0.0.1:0")
    link.start(received.on_line, received.on_connect)
    yield link
    link.close()


def connect(link: SerialLink) -> SocketLines:
    assert link.address is not None
    return SocketLines(socket.create_connection(link.address, timeout=TIMEOUT))


def test_listen_serves_a_host_and_takes_a_reconnect(
    listening: SerialLink, received: Received
) -> None:
    host = connect(listening)
    received.connected()
    host.send(b"state\r\nping 7\n")
    assert received.line() == b"state"
    assert received.line() == b"ping 7"
    listening.send_line("pong 7")
    assert host.line() == b"pong 7"
    host.close()

    again = connect(listening)
    received.connected()  # a new connection is announced afresh
    listening.send_line("after reconnect")
    assert again.line() == b"after reconnect"
    again.close()


def test_listen_a_newer_host_replaces_the_old_one(
    listening: SerialLink, received: Received
) -> None:
    first = connect(listening)
    received.connected()
    second = connect(listening)
    received.connected()
    assert first.at_eof()
    listening.send_line("to the newest")
    assert second.line() == b"to the newest"
    second.send(b"from the newest\n")
    assert received.line() == b"from the newest"
    first.close()
    second.close()


def test_listen_port_in_use_is_a_link_error() -> None:
    link = SerialLink("tcp-listen://127.0.0.1:0")
    try:
        with pytest.raises(LinkError, match="cannot listen"):
            SerialLink(f"tcp-listen://127.0.0.1:{link.address[1]}")  # type: ignore[index]
    finally:
        link.close()


def test_socket_url_connects_out_and_reconnects(received: Received) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(TIMEOUT)
    port = server.getsockname()[1]
    link = SerialLink(f"socket://127.0.0.1:{port}", retry_s=0.05)
    link.start(received.on_line, received.on_connect)
    try:
        host = SocketLines(server.accept()[0])
        received.connected()
        host.send(b"press keep1\n")
        assert received.line() == b"press keep1"
        link.send_line("ok press")
        assert host.line() == b"ok press"
        host.close()  # the host goes away; the device dials again
        again = SocketLines(server.accept()[0])
        received.connected()
        link.send_line("back")
        assert again.line() == b"back"
        again.close()
    finally:
        link.close()
        server.close()


# -- a pty: a real tty ---------------------------------------------------------------------------


class PtyHost:
    """The master end of a pty pair; the device opens the slave's path through pyserial."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        self.path = os.ttyname(self._slave)
        self._buffer = b""

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def line(self) -> bytes:
        import select

        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self.master], [], [], TIMEOUT)
            if not ready:
                raise TimeoutError("no line from the device")
            self._buffer += os.read(self.master, 4096)
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def pty() -> Iterator[PtyHost]:
    host = PtyHost()
    yield host
    host.close()


def test_pty_round_trip(pty: PtyHost, received: Received) -> None:
    link = start(SerialLink(pty.path), received)
    try:
        pty.send(b"hold stand\r\n")
        assert received.line() == b"hold stand"
        link.send_line("ok hold")
        assert pty.line() == b"ok hold"
    finally:
        link.close()


def test_a_host_that_stops_reading_never_blocks_the_sender(pty: PtyHost) -> None:
    """The pty's buffer fills, the writer stalls, the queue overflows: frames go first, the
    sender never waits, and the host learns where lines were lost."""
    received = Received()
    link = start(SerialLink(pty.path, queue_bytes=8 * 1024), received)
    count = 120
    try:

        def flood() -> None:
            for number in range(count):
                link.send_line(f"line {number:03d} " + "x" * 500)
                link.send_line(f"frame {number}", droppable=True)

        sender = threading.Thread(target=flood)
        sender.start()
        sender.join(timeout=TIMEOUT)
        assert not sender.is_alive(), "send_line blocked"
        assert link.dropped > 0  # 60 KB cannot fit in the pty (about 14 KB) plus 8 KB of queue
        link.send_line("last")

        numbers: list[int] = []
        frames: list[str] = []
        overrun = 0
        while (line := pty.line().decode()) != "last":
            word, _, rest = line.partition(" ")
            if word == "line":
                number = int(rest.split()[0])
                assert not numbers or number == numbers[-1] + 1 + overrun, "a gap went unnamed"
                numbers.append(number)
                overrun = 0
            elif word == "overrun":
                overrun = int(rest)
            else:
                frames.append(line)
        assert numbers[0] == 0
        assert numbers[-1] + 1 + overrun == count  # every line arrived or was counted as lost
        # Queued frames are replaced by newer ones: far fewer arrive than were sent.
        assert len(frames) < count // 2
    finally:
        link.close()
