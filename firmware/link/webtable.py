"""The table's web page: every connected browser is a host of the link protocol.

The server (a :class:`~hal.ports.LinkServer`, on the device :class:`hal.web_server.WebServer`) hands
over one :class:`~hal.ports.Link` per WebSocket. Each gets a :class:`~firmware.link.remote.Remote`
of its own, exactly as the serial link's host does: it is greeted, answers ``state``, ``log`` and
``stats``, and changes the game only once paired with the PIN from the menu (the one
:class:`~firmware.link.pairing.Pairing` of the device). A page is always a network host: pairing is
never waived, and referee mode never reaches it.

What every page is sent alike is made once, and the same line goes to every page: the table's
events and the ``state`` after each batch (one :class:`~firmware.link.feed.HostFeed` in batches,
shared by the pages' remotes, which also read the last game it saw), and, made here, the frames
(the table's screen for an unpaired page, the OLED's for a paired one). So twenty pages cost the
main loop little more than one, and an idle page nothing but a queued line.

Threads: the server calls :meth:`WebTable._accepted` and :meth:`WebTable._gone` on its own
thread; they only hand the work to the main loop (``call_soon``). A page's lines arrive at its
gate on the server's thread, which parses each once and answers or forwards it
(:mod:`firmware.link.crowd`); the gate and the page's remote read one
:class:`~firmware.link.connection.Connection`. Everything else runs on the main loop.
"""

from __future__ import annotations

import enum
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from importlib.resources import files
from typing import Any, Protocol

from PIL import Image

from engine import Game, preset_names
from engine.rules import HAND_ONLY_KINDS, Rules, load_preset
from engine.scoring import SCHEME_PRESETS
from engine.strategy_names import STRATEGY_NAMES
from firmware.link.connection import Connection
from firmware.link.crowd import STATS_REFRESH_S, CrowdBudget, PageGate, Snapshot, stats_text
from firmware.link.feed import HostFeed
from firmware.link.page_words import PageWords
from firmware.link.pairing import Door, Pairing, TryCounter
from firmware.link.protocol import Parsed, encode_frame, format_line
from firmware.link.remote import DeviceHooks, Remote, greeting
from firmware.screen.oled_words import OledWords
from firmware.screen.rulestext import hand_only_line, option_text
from firmware.screen.views import TableCup
from firmware.sink import DeviceEvent
from firmware.words import LANGUAGES
from hal.ports import Clock, Link, LinkServer, PageLink

__all__ = ["WebTable", "page_data", "page_files", "page_texts", "rule_choices"]


def page_texts() -> dict[str, dict[str, str]]:
    """The page's words by language (:mod:`firmware.link.page_words`), unfilled."""
    return {language: PageWords(language).table() for language in LANGUAGES}


#: Rules keys the page's setup does not offer: the rule set's own words, and the table's own
#: names for throws (``[names]``), which come with the preset they start from.
_NOT_EDITED = ("name", "description", "source", "names")
#: The numbers the setup takes as a field of its own, with their bounds and label.
_NUMBERS = {"deckel": (2, 99, "setup_deckel"), "penalty_deckel": (0, 99, "web_rule_penalty")}
#: ``max_throws`` is a choice of its few values, each in the rules screen's words.
_MAX_THROWS = range(1, 6)


def rule_choices() -> list[dict[str, Any]]:
    """Every house rule the page's setup can change, in the order of :class:`~engine.rules.Rules`:
    its ``key``, its ``type`` (``bool``, ``choice``, ``number`` or ``kinds``, the throws that
    count only from the hand), its ``values`` (a choice's, or the kinds), for a number ``min``,
    ``max`` and the key of its ``label`` (a word of the page's), and ``labels``: per language,
    each value's words as the device's rules screen says them (:mod:`firmware.screen.rulestext`)."""
    catalogues = {language: OledWords(language) for language in LANGUAGES}
    choices: list[dict[str, Any]] = []
    for field in fields(Rules):
        key = field.name
        if key in _NOT_EDITED:
            continue
        default = getattr(Rules(), key)
        choice: dict[str, Any] = {"key": key}
        if key in _NUMBERS:
            low, high, label = _NUMBERS[key]
            choice.update(type="number", min=low, max=high, label=label)
        elif key == "hand_only":
            choice.update(type="kinds", values=list(HAND_ONLY_KINDS), labels={
                language: {
                    kind: hand_only_line(kind, texts)
                    for kind in HAND_ONLY_KINDS
                }
                for language, texts in catalogues.items()
            })  # fmt: skip
        else:
            if isinstance(default, bool):
                values: list[Any] = [True, False]
                kind = "bool"
            elif isinstance(default, enum.Enum):
                values = list(type(default))
                kind = "choice"
            elif key == "max_throws":
                values = list(_MAX_THROWS)
                kind = "choice"
            else:  # an option added to the engine later: the page leaves it as its preset has it
                continue
            choice.update(
                type=kind,
                values=[value.value if isinstance(value, enum.Enum) else value for value in values],
                labels={
                    language: {
                        str(value.value if isinstance(value, enum.Enum) else value).lower():
                        option_text(key, value, texts)
                        for value in values
                    }
                    for language, texts in catalogues.items()
                },
            )
        choices.append(choice)
    return choices


def page_data() -> dict[str, Any]:
    """What the page needs to know besides the protocol: its texts, the rules presets (with
    their Deckel and every rule, to start the setup from), every house rule the setup can change
    (:func:`rule_choices`) and the computer players' strategies, for the setup form."""
    presets = []
    for name in preset_names():
        rules = load_preset(name).to_mapping()
        shown = {key: value for key, value in rules.items() if key not in _NOT_EDITED}
        presets.append({"name": name, "deckel": rules["deckel"], "rules": shown})
    return {
        "texts": page_texts(),
        "presets": presets,
        "rules": rule_choices(),
        "strategies": list(STRATEGY_NAMES),
        "schemes": list(SCHEME_PRESETS),
    }


def page_files() -> dict[str, tuple[str, bytes]]:
    """What the server hands out besides the WebSocket: the page and ``/page.json``."""
    page = files("firmware.link").joinpath("web", "table.html").read_bytes()
    data = json.dumps(page_data(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return {
        "/": ("text/html", page),
        "/page.json": ("application/json", data),
    }


class _App(Protocol):
    """What the page reads of the device app."""

    @property
    def game(self) -> Game | None: ...

    def screen(self) -> Image.Image: ...

    def table_screen(self) -> Image.Image: ...


@dataclass
class _Page:
    """One connected page: its protocol end, and its gate (what the server's thread answers);
    both read the page's one :class:`~firmware.link.connection.Connection`."""

    remote: Remote
    gate: PageGate


class WebTable:
    """The device's side of the table's page: a :class:`Remote` per page, one feed for all.

    ``hooks``, ``clock``, ``call_soon`` and ``pairing`` are what the serial link's remote gets
    (see :func:`firmware.wiring.build_device`); ``info`` goes into each page's ``hello``.
    What unpaired pages ask is answered on the server's thread from the :attr:`snapshot` the
    main loop publishes here (:mod:`firmware.link.crowd`). ``cup`` is the cup as the table sees
    it on the screen (:meth:`firmware.app.device.DeviceApp.table_cup`), for the pages' bar.
    """

    def __init__(
        self,
        server: LinkServer,
        app: _App,
        hooks: DeviceHooks,
        *,
        clock: Clock,
        call_soon: Callable[[Callable[[], None]], None],
        pairing: Pairing,
        info: Mapping[str, Any] | None = None,
        budget: CrowdBudget | None = None,
        cup: Callable[[], TableCup | None] | None = None,
    ) -> None:
        self._server = server
        self._app = app
        self._hooks = hooks
        self._clock = clock
        self._call_soon = call_soon
        self._pairing = pairing
        self._info = dict(info or {})
        #: Event lines wait for their batch's ``state``, which goes out once the main loop has
        #: shown the frame (the server's thread then competes with nothing urgent).
        self._feed = HostFeed(
            app, hooks, call_soon=call_soon, batched=True, after_flush=self._publish, cup=cup
        )
        self._pages: dict[int, _Page] = {}
        self._closed = False
        #: Wrong pairing tries per peer address, over all pages.
        self._tries = TryCounter()
        #: What all unpaired pages share (answers, calls on the main loop).
        self.budget = budget if budget is not None else CrowdBudget()
        self._hello = greeting(self._info, trusted=False, referee=False)
        self._table_frame: str | None = None
        self.snapshot: Snapshot = self._build()
        self._stats_lock = threading.Lock()
        self._stats: tuple[float, str] | None = None
        self._stats_waiting: list[PageGate] | None = None

    @property
    def pages(self) -> int:
        """Pages connected now."""
        return len(self._pages)

    def start(self) -> None:
        """Accept pages from now on."""
        self._server.start(self._accepted, self._gone)

    def close(self) -> None:
        """Close every page and the server. Idempotent."""
        self._closed = True
        self._server.close()
        for page in self._pages.values():
            self._feed.remove(page.remote.link)
        self._pages.clear()

    # -- the server's thread ---------------------------------------------------------------------

    def _accepted(self, link: PageLink) -> None:
        self._call_soon(lambda: self._open(link))

    def _gone(self, link: PageLink) -> None:
        self._call_soon(lambda: self._drop(link))

    def now(self) -> float:
        """The device's clock (any thread)."""
        return self._clock.now()

    def forward(self, gate: PageGate, parsed: Parsed) -> None:
        """A line of ``gate``'s page, parsed, for the main loop (its remote answers it there)."""
        page = self._pages.get(id(gate.link))
        if page is not None:
            self._call_soon(lambda: self._handle(page, parsed))

    def stats_line(self, gate: PageGate) -> str | None:
        """The ``stats`` answer for ``gate`` (server's thread): the one counted last if it is at
        most :data:`~firmware.link.crowd.STATS_REFRESH_S` old; else None, and the main loop
        counts once for every page that asks meanwhile (within the crowd's budget)."""
        with self._stats_lock:
            kept = self._stats
            if kept is not None and self.now() - kept[0] <= STATS_REFRESH_S:
                return kept[1]
            if self._stats_waiting is not None:
                self._stats_waiting.append(gate)
                return None
            if not self.budget.loop_call():
                return kept[1] if kept is not None else _BUSY_STATS
            self._stats_waiting = [gate]
        self._call_soon(self._count_stats)
        return None

    # -- the main loop ---------------------------------------------------------------------------

    def _drop(self, link: Link) -> None:
        self._pages.pop(id(link), None)
        self._feed.remove(link)

    def _open(self, link: PageLink) -> None:
        if self._closed:
            link.close()
            return
        connection = Connection(self._pairing, Door(self._pairing, self._tries, link.peer))
        remote = Remote(
            link, self._app, self._hooks, clock=self._clock, call_soon=self._call_soon,
            pairing=self._pairing, info=self._info, feed=self._feed, connection=connection,
        )
        page = _Page(remote, PageGate(self, link, connection))
        if not self._pages:  # frames were not followed while no page was there
            self._table_frame = format_line("frame", encode_frame(self._app.table_screen()))
        self._pages[id(link)] = page
        self._feed.add(link)
        self._publish()
        remote.start(page.gate.received)

    def _handle(self, page: _Page, parsed: Parsed) -> None:
        page.remote.handle(parsed)
        page.gate.handled += 1
        self._publish()

    def _count_stats(self) -> None:
        line = stats_text(self._hooks.stats)
        with self._stats_lock:
            self._stats = (self.now(), line)
            waiting, self._stats_waiting = self._stats_waiting or [], None
        for gate in waiting:
            gate.send_stats(line)

    def _build(self, previous: Snapshot | None = None) -> Snapshot:
        # The state's game is the one under way (a game given up leaves the log's behind).
        upcoming = id(self._app.game), self._hooks.next_setup(), (
            self._hooks.seat_bots() if self._hooks.seat_bots is not None else None
        )
        return Snapshot.build(self._feed, previous, self._hello, self._table_frame, upcoming)

    def _publish(self) -> None:
        """Publish what unpaired pages are answered, if anything changed."""
        if self._pages:
            self.snapshot = self._build(self.snapshot)

    def publish_event(self, event: DeviceEvent) -> None:
        """A device event (a listener of the app's event sink): as the table sees it, to every
        page with its batch's ``state``, once the batch is out."""
        self._feed.publish(event)

    def flush(self) -> None:
        """Send the batch that published events made due, if any, to every page."""
        self._feed.flush()

    def show(self, image: Image.Image) -> None:
        """A new OLED frame (a frame listener): to every page that asked for frames, the
        table's screen, or the OLED's own once the page is paired; and a new snapshot."""
        if not self._pages:
            return
        table = format_line("frame", encode_frame(self._app.table_screen()))
        if table == self._table_frame:
            table = self._table_frame  # the very same string: the queues share it
        self._table_frame = table
        oled: str | None = None
        for page in self._pages.values():
            gate = page.gate
            if not gate.connection.frames:
                gate.last_frame = None
                continue
            if gate.connection.paired:
                if oled is None:
                    oled = format_line("frame", encode_frame(image))
                line = oled
            else:
                line = table
            if line != gate.last_frame:
                gate.last_frame = line
                gate.link.send_line(line, droppable=True)
        self._feed.follow_cup()  # the bar in the same step as the mirror
        self._publish()


_BUSY_STATS = "error busy: many pages are asking; ask again in a moment"
