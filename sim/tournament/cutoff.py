"""A table's network that can vanish silently: a TCP proxy between a table and the broker.

A table whose Wi-Fi drops or whose cable is pulled says no goodbye: no MQTT DISCONNECT, no
TCP FIN or RST. Its bytes just stop arriving, both ways. Only keepalives notice: the broker
closes the connection once 1.5 times the client's keepalive passed without a packet and
publishes the table's Last Will; the table's MQTT client closes its end once a PINGREQ went
unanswered for a keepalive, and tries again. :class:`CutOffProxy` makes that happen on
loopback: the table connects to the proxy's port, the proxy to the broker, and
:meth:`CutOffProxy.cut` drops every byte from then on, in both directions, without closing
anything; a connection made during the cut is taken and its bytes dropped the same way (a
network that lets a handshake through and then nothing, as a hung access point does). When a
side closes during the cut, its partner is not told. :meth:`CutOffProxy.restore` lets bytes
through again for new connections; the connections of the cut are dead by then, as they would
be on a real network when it comes back, and are closed.

    proxy = CutOffProxy(broker_port)
    proxy.start()
    table settings: broker = proxy.url
    proxy.cut()        # the table's network is gone, silently
    proxy.restore()    # and back
    proxy.close()
"""

from __future__ import annotations

import selectors
import socket
import threading
from dataclasses import dataclass, field

__all__ = ["CutOffProxy"]

#: The most bytes moved in one read.
_CHUNK = 65536


@dataclass(eq=False)
class _Pair:
    """One table connection and its connection to the broker."""

    table: socket.socket
    broker: socket.socket
    #: True once the pair lived through a cut: its bytes are dropped until it is closed.
    frozen: bool = False
    #: Sockets whose peer closed during the cut (not passed on).
    ended: set[socket.socket] = field(default_factory=set)

    def other(self, sock: socket.socket) -> socket.socket:
        return self.broker if sock is self.table else self.table


class CutOffProxy:
    """Forwards loopback connections to ``127.0.0.1:target_port`` until :meth:`cut`; see the
    module's docstring. Runs on a thread of its own."""

    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self._listener = socket.create_server((host, 0))
        self._listener.setblocking(False)
        self.port: int = self._listener.getsockname()[1]
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ)
        self._pairs: dict[socket.socket, _Pair] = {}
        self._lock = threading.Lock()
        self._cut = False
        self._closing = False
        self._thread = threading.Thread(target=self._run, name=f"cutoff-{self.port}", daemon=True)
        #: Bytes dropped during cuts, both ways (the table's publishes, the broker's acks).
        self.dropped = 0
        #: Connections taken, in all.
        self.connections = 0

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def is_cut(self) -> bool:
        return self._cut

    def start(self) -> None:
        self._thread.start()

    def cut(self) -> None:
        """Drop every byte from now on, both ways, closing nothing."""
        with self._lock:
            self._cut = True
            for pair in self._pairs.values():
                pair.frozen = True

    def restore(self) -> None:
        """Let new connections through again; close those that lived through the cut."""
        with self._lock:
            self._cut = False
            dead = {pair for pair in self._pairs.values() if pair.frozen}
            for pair in dead:
                self._drop(pair)

    def close(self) -> None:
        """Stop the proxy and close every connection."""
        self._closing = True
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self._lock:
            for pair in set(self._pairs.values()):
                self._drop(pair)
        self._selector.close()
        self._listener.close()

    # -- the proxy's thread ------------------------------------------------------------------

    def _run(self) -> None:
        while not self._closing:
            for key, _events in self._selector.select(timeout=0.1):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                with self._lock:
                    if sock is self._listener:
                        self._accept()
                    elif sock in self._pairs:
                        self._move(sock, self._pairs[sock])

    def _accept(self) -> None:
        try:
            table, _address = self._listener.accept()
        except BlockingIOError:
            return
        try:
            broker = socket.create_connection(self.target, timeout=5)
        except OSError:
            table.close()  # the broker is down: the table sees it as a refused connection
            return
        self.connections += 1
        pair = _Pair(table, broker, frozen=self._cut)
        for sock in (table, broker):
            sock.settimeout(5)  # read only when ready; a send blocks at most this long
            self._pairs[sock] = pair
            self._selector.register(sock, selectors.EVENT_READ)

    def _move(self, sock: socket.socket, pair: _Pair) -> None:
        try:
            data = sock.recv(_CHUNK)
        except OSError:
            data = b""
        if pair.frozen:
            self.dropped += len(data)
            if not data:  # this side closed: its partner hears nothing of it
                self._selector.unregister(sock)
                pair.ended.add(sock)
                if len(pair.ended) == 2:
                    self._drop(pair)
            return
        if not data:
            self._drop(pair)
            return
        try:
            pair.other(sock).sendall(data)
        except OSError:
            self._drop(pair)

    def _drop(self, pair: _Pair) -> None:
        for sock in (pair.table, pair.broker):
            if self._pairs.pop(sock, None) is not None and sock not in pair.ended:
                self._selector.unregister(sock)
            sock.close()
