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
thread; they only hand the work to the main loop (``call_soon``). Everything else runs there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Protocol

from PIL import Image

from engine import Game, preset_names
from engine.rules import load_preset
from engine.strategy_names import STRATEGY_NAMES
from firmware.link.feed import HostFeed
from firmware.link.pairing import Pairing
from firmware.link.protocol import encode_frame, format_line
from firmware.link.remote import DeviceHooks, Remote
from firmware.screen.i18n import LANGUAGES, MESSAGES
from firmware.sink import DeviceEvent
from hal.ports import Clock, Link, LinkServer

__all__ = ["PAGE_KEYS", "WebTable", "page_files"]

#: The catalogue's texts the page shows, besides every ``web_`` key.
PAGE_KEYS = (
    "pot", "throw_of", "round_n", "section_1", "section_2", "section_final", "status_covered",
    "rolloff_title", "outcome_pot", "outcome_winner", "outcome_all", "outcome_out",
    "game_over_title", "blattschuss", "penalty_title", "penalty_given", "menu_stats",
    "stats_none", "setup_players", "setup_rules", "setup_deckel", "setup_bots", "setup_human",
    "strategy_threshold", "strategy_odds", "menu_pair", "final_between", "loses_section",
    "menu_title", "dropped_row",
)  # fmt: skip


def page_texts() -> dict[str, dict[str, str]]:
    """The page's texts by language, from the device's catalogue (:mod:`firmware.screen.i18n`)."""
    keys = [key for key in MESSAGES if key.startswith("web_")] + list(PAGE_KEYS)
    return {
        language: {key: MESSAGES[key][index] for key in keys}
        for index, language in enumerate(LANGUAGES)
    }


def page_data() -> dict[str, Any]:
    """What the page needs to know besides the protocol: its texts, the rules presets (with
    their Deckel) and the computer players' strategies, for the setup form."""
    return {
        "texts": page_texts(),
        "presets": [{"name": name, "deckel": load_preset(name).deckel} for name in preset_names()],
        "strategies": list(STRATEGY_NAMES),
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
    """One connected page: its protocol end, and the last frame it was sent."""

    remote: Remote
    last_frame: str | None = None


class WebTable:
    """The device's side of the table's page: a :class:`Remote` per page, one feed for all.

    ``hooks``, ``clock``, ``call_soon`` and ``pairing`` are what the serial link's remote gets
    (see :func:`firmware.wiring.build_device`); ``info`` goes into each page's ``hello``.
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
        self._feed = HostFeed(app, hooks, call_soon=call_soon, batched=True)
        self._pages: dict[int, _Page] = {}
        self._closed = False

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

    def _accepted(self, link: Link) -> None:
        self._call_soon(lambda: self._open(link))

    def _gone(self, link: Link) -> None:
        self._call_soon(lambda: self._drop(link))

    def _drop(self, link: Link) -> None:
        self._pages.pop(id(link), None)
        self._feed.remove(link)

    # -- the main loop ---------------------------------------------------------------------------

    def _open(self, link: Link) -> None:
        if self._closed:
            link.close()
            return
        remote = Remote(
            link, self._app, self._hooks, clock=self._clock, call_soon=self._call_soon,
            pairing=self._pairing, info=self._info, feed=self._feed,
        )
        self._pages[id(link)] = _Page(remote)
        self._feed.add(link)
        remote.start()

    def publish_event(self, event: DeviceEvent) -> None:
        """A device event (a listener of the app's event sink): as the table sees it, to every
        page with its batch's ``state``, once the batch is out."""
        self._feed.publish(event)

    def flush(self) -> None:
        """Send the batch that published events made due, if any, to every page."""
        self._feed.flush()

    def show(self, image: Image.Image) -> None:
        """A new OLED frame (a frame listener): to every page that asked for frames, the
        table's screen, or the OLED's own once the page is paired."""
        lines: dict[bool, str] = {}
        for page in self._pages.values():
            remote = page.remote
            if not remote.frames_on:
                page.last_frame = None
                continue
            paired = remote.paired
            line = lines.get(paired)
            if line is None:
                shown = image if paired else self._app.table_screen()
                line = lines[paired] = format_line("frame", encode_frame(shown))
            if line != page.last_frame:
                page.last_frame = line
                remote.link.send_line(line, droppable=True)
