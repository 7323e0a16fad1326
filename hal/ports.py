"""The ports: what the firmware needs from the hardware, and nothing more.

Every backend (gpiozero, luma.oled, pyserial on the device; pygame, the terminal and scripts in
the simulator) implements these protocols. The firmware depends on this module only, never on a
concrete backend: :func:`firmware.wiring.build_device` takes backends already built, and a name
becomes a backend only at the edge (the ``schocken run`` and ``schocken sim`` commands, tests).

Input is split in two layers, as gpiozero splits pins from devices:

* a backend reports *edges* (a button went down or up, the tilt switch changed) with the time
  they happened, from whatever thread its library calls back on;
* :class:`hal.inputs.InputDecoder`, running on the main loop, turns edges into :class:`InputEvent`
  values (press, long press, shake started, throw) with debounce, hold time and shake detection
  measured on the :class:`Clock`, so that all timing logic runs on a fake clock in tests.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from PIL import Image

#: The OLED's size in pixels; every screen is a 1-bit image of exactly this size.
SCREEN_SIZE = (128, 64)


class Button(enum.Enum):
    """The five buttons of the device, left to right."""

    KEEP_1 = "keep1"
    KEEP_2 = "keep2"
    KEEP_3 = "keep3"
    FLIP = "flip"
    STAND = "stand"


class EdgeSource(enum.Enum):
    """Where an edge came from: a button or the tilt switch."""

    BUTTON = "button"
    TILT = "tilt"


@dataclass(frozen=True, slots=True)
class Edge:
    """A raw level change reported by an input backend.

    ``active`` is True when a button went down (or the tilt switch closed) and False when it was
    released (or opened). ``at`` is the :class:`Clock` time of the change.
    """

    source: EdgeSource
    active: bool
    at: float
    button: Button | None = None


class InputKind(enum.Enum):
    """The decoded inputs the firmware acts on."""

    PRESS = "press"
    LONG_PRESS = "long_press"
    SHAKE_START = "shake_start"
    THROW = "throw"


@dataclass(frozen=True, slots=True)
class InputEvent:
    """A decoded input: a (long) press of a button, or the start and end of a shake."""

    kind: InputKind
    at: float
    button: Button | None = None


#: Where backends deliver edges. Thread-safe: gpiozero calls it from its callback threads.
EdgeSink = Callable[[Edge], None]


@runtime_checkable
class InputBackend(Protocol):
    """A source of edges: GPIO buttons and tilt switch, keyboard, mouse, a script or a link."""

    def start(self, sink: EdgeSink) -> None:
        """Begin reporting edges to ``sink`` (may be called from another thread)."""

    def close(self) -> None:
        """Release pins, windows or files. Idempotent."""


@runtime_checkable
class Display(Protocol):
    """A 128x64 1-bit display: the luma.core device contract, as far as the firmware uses it."""

    width: int
    height: int
    mode: str

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (mode "1", :data:`SCREEN_SIZE`)."""

    def contrast(self, level: int) -> None:
        """Set the brightness, 0-255."""

    def show(self) -> None:
        """Wake the display from sleep."""

    def hide(self) -> None:
        """Put the display to sleep (panel off, content kept)."""


class Clock(Protocol):
    """Monotonic time and the main loop's wait.

    The real clock blocks on the queue until an edge arrives or the deadline passes; the fake
    clock in :mod:`sim.fakes` jumps straight to the deadline, so tests and scripts run fast.
    """

    def now(self) -> float:
        """Seconds on a monotonic scale."""

    def wait(
        self, deadline: float | None, poll: Callable[[float | None], Edge | None]
    ) -> Edge | None:
        """Wait until an edge arrives (returned) or ``deadline`` passes (None).

        ``poll(timeout)`` takes the next edge from the main loop's queue, blocking at most
        ``timeout`` seconds (None: forever, 0: not at all). A deadline of None means no timer is
        pending: the real clock sleeps until the next edge; the fake clock returns None at once.
        """


class Timed(Protocol):
    """Something with timers of its own: the app's animations, dimming the panel, retrying an
    unplugged display.

    The main loop sleeps until the earliest :meth:`next_deadline` of the objects it drives, then
    calls :meth:`advance` on each. Having timers is declared by this protocol and the loop is
    handed an explicit list of such objects (:class:`firmware.loop.MainLoop`'s ``timers``); the
    loop never looks for these methods on an object by name.
    """

    def next_deadline(self) -> float | None:
        """The clock time of the next timer due, or None if none is pending."""

    def advance(self, now: float) -> None:
        """Run whatever is due at ``now``."""


class Storage(Protocol):
    """The state directory: small atomic files and append-only journals, by plain file name.

    Everything the device keeps goes through these methods (the game journals and the archive of
    :mod:`firmware.store.gamestore`, the remembered setup). Every change survives a pulled plug once
    the method has returned; every failure is a :class:`StorageError` naming the file and the cause.
    """

    #: Where the files are, for messages that name a file.
    root: Path

    def read_text(self, name: str) -> str | None:
        """The file's content, or None if it does not exist."""

    def read_bytes(self, name: str) -> bytes | None:
        """The file's raw content, or None if it does not exist (a journal may end torn)."""

    def size(self, name: str) -> int | None:
        """The file's length in bytes, or None if it does not exist."""

    def names(self) -> list[str]:
        """The files in the directory, sorted; none if it does not exist yet."""

    def modified(self, name: str) -> float | None:
        """When the file was last written (POSIX seconds), or None if it does not exist."""

    def write_atomic(self, name: str, text: str) -> None:
        """Replace the file as one step (write, fsync, rename); a pulled plug leaves old or new."""

    def append_durable(self, name: str, data: bytes) -> None:
        """Append ``data`` and fsync before returning; on failure the file keeps its length."""

    def rename(self, old: str, new: str) -> None:
        """Rename ``old`` to ``new`` (replacing it) in one durable step."""

    def remove(self, name: str) -> None:
        """Delete the file durably; a missing file is fine."""

    def truncate(self, name: str, length: int) -> None:
        """Cut the file back to ``length`` bytes, durably (drops a journal's torn tail)."""

    def set_aside(self, name: str, new_name: str, *, copy: bool = False) -> str:
        """Move (or, with ``copy``, copy) a damaged ``name`` into ``damaged/`` as ``new_name``.

        Never replaces a file there, never deletes anything; returns the path it went to,
        relative to the state directory.
        """


class StorageError(OSError):
    """The state directory cannot be written (full, read-only, missing)."""


class Link(Protocol):
    """A line-oriented serial link to a host (see docs/protocol.md).

    Both callbacks run on the link's reader thread: they must only hand work to the main loop.
    """

    #: True when hosts reach the link over a network (``tcp-listen://``, ``socket://``): anyone
    #: on that network could connect, so changing the game always needs pairing there.
    network: bool

    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
        """Begin reading; ``on_line`` gets each received line (without its LF or CRLF).

        A line longer than the link's limit arrives cut to the limit plus one byte, so the
        receiver can tell it was too long. ``on_connect`` runs whenever a host (re)connects.
        """

    def send_line(self, line: str, *, droppable: bool = False) -> None:
        """Queue one line for the host. Never blocks the caller.

        A ``droppable`` line (a frame) replaces droppable lines still queued and is the first to
        be dropped when the queue is full.
        """

    def close(self) -> None:
        """Stop reading and writing. Idempotent."""


class PageLink(Link, Protocol):
    """One host's :class:`Link` of a :class:`LinkServer` (a page's WebSocket): its lines arrive
    on the server's thread, which may answer some itself (docs/web.md, "Under a crowd")."""

    #: The address the host connects from (an IP address as text, or "?").
    peer: str

    @property
    def queued_bytes(self) -> int:
        """Bytes queued for the host and not yet written (any thread)."""


class LinkServer(Protocol):
    """A server that many hosts reach at once, each on a :class:`PageLink` of its own: the
    table's web page, where every browser's WebSocket is one link (docs/web.md).

    Both callbacks run on the server's own thread: they must only hand work to the main loop.
    """

    def start(
        self, on_link: Callable[[PageLink], None], on_gone: Callable[[PageLink], None]
    ) -> None:
        """Begin accepting: ``on_link`` gets each new connection's link (not started yet; its
        :meth:`Link.start` says where its lines go), ``on_gone`` the link of a closed one."""

    def close(self) -> None:
        """Close every connection and stop serving. Idempotent."""


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """A request for one of a server's routes: its path, its query, and its headers (names in
    lower case); a form's (the hub's desk) also its method, its fields (a POST's
    ``application/x-www-form-urlencoded`` body), its cookies and the client's address."""

    path: str
    query: dict[str, str]
    headers: dict[str, str]
    method: str = "GET"
    form: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    peer: str = ""


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """The answer to an :class:`HttpRequest`: a status, a body of ``content_type``, and with
    ``filename`` a download of that name (``Content-Disposition: attachment``); ``headers``
    are added to (or replace) the server's own (a ``Set-Cookie``, a ``Location``, a page's
    ``Content-Security-Policy``)."""

    status: int
    content_type: str
    body: bytes
    filename: str = ""
    headers: tuple[tuple[str, str], ...] = ()


@runtime_checkable
class Routed(Protocol):
    """A :class:`LinkServer` that also answers plain GET requests on routes the firmware adds
    (the Spieltag's sheet for a paired phone). A handler runs on a worker thread of the
    server's (it may read files and build a PDF), never on the main loop."""

    def route(self, path: str, handler: Callable[[HttpRequest], HttpAnswer]) -> None:
        """Answer GET ``path`` with ``handler`` from now on."""
