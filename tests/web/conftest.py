"""The table's page under test: a real device and a real server on 127.0.0.1, real WebSockets.

:class:`WebDevice` builds the device as ``schocken run`` does (``build_device`` with a
:class:`~hal.web_server.WebServer` on a free port), with gpiozero's MockFactory pins for the
buttons, luma's dummy display and, on request, a real state directory. The main loop runs on a
thread of its own on the real clock, as on the Pi. :class:`WsClient` is a page without a
browser: aiohttp's WebSocket client on a thread of its own, keeping every line it receives.

The browser tests share one headless Chromium per test session (the ``chromium`` fixture of
tests/conftest.py, :class:`tests.chromium.SharedChromium`); :func:`browser` is a window of it.
Where a collected test needs that browser, it starts while the rest is collected
(:func:`pytest_collection_modifyitems`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from engine import GameSetup
from firmware.config import DeviceConfig, GameConfig
from firmware.dice import SeededDice
from firmware.link.webtable import page_files
from firmware.sink import DeviceEvent
from firmware.wiring import Device
from hal.clock import MonotonicClock
from hal.inputs import InputTiming
from hal.ports import Button
from hal.web_server import WebServer
from sim.gpio_mock import MockPinHands
from sim.pictures.browser import Browser
from tests.chromium import SharedChromium, start_early
from tests.harness import build_test_device

#: Button timing for tests on the real clock: short holds, quick debounce.
TIMING = InputTiming(debounce_ms=10, hold_ms=300)


class WebDevice:
    """A device with its page on a free port of 127.0.0.1, its main loop on a thread."""

    def __init__(
        self,
        *,
        setup: GameSetup | None = None,
        config: DeviceConfig | None = None,
        state_dir: Path | None = None,
        seed: int = 7,
    ) -> None:
        base = config or DeviceConfig(game=GameConfig(players=("Anna", "Ben", "Carla")))
        self.config = replace(base, input=TIMING)
        self.clock = MonotonicClock()
        self.hands = MockPinHands(self.clock, self.config.pins)
        self.server = WebServer("127.0.0.1", 0, page_files())
        self.events: list[DeviceEvent] = []
        self.device: Device = build_test_device(
            self.config,
            clock=self.clock,
            inputs=[self.hands],
            web=self.server,
            dice=SeededDice(seed),
            storage=state_dir,
            setup=setup,
            event_sink=self.events.append,
            power=False,
        )
        host, port = self.server.address
        self.url = f"http://{host}:{port}/"
        self.ws_url = f"ws://{host}:{port}/ws"
        self._thread = threading.Thread(target=self.device.run, name="firmware", daemon=True)
        self._thread.start()

    def on_loop(self, function: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``function`` on the main loop and return its result."""
        done: queue.Queue[tuple[bool, Any]] = queue.Queue()

        def call() -> None:
            try:
                done.put((True, function()))
            except BaseException as error:  # handed back to the test
                done.put((False, error))

        self.device.loop.call_soon(call)
        ok, value = done.get(timeout=timeout)
        if not ok:
            raise value
        return value

    def press(self, button: Button, hold_s: float = 0.03) -> None:
        """Press and release ``button`` on its mock pin, as a finger would."""
        self.hands.press(button)
        time.sleep(hold_s)
        self.hands.release(button)

    def show_pin(self) -> str:
        """The PIN the menu's Koppeln shows (the pairing it opens, as the menu does)."""
        pairing = self.device.pairing
        assert pairing is not None
        return str(self.on_loop(lambda: pairing.show_pin(self.clock.now())))

    def close(self) -> None:
        self.device.loop.stop()
        self._thread.join(timeout=5)
        self.device.close()


class WsClient:
    """A WebSocket client on its own thread: every line it gets lands in :attr:`lines`."""

    def __init__(
        self,
        url: str,
        *,
        origin: str | None = None,
        headers: dict[str, str] | None = None,
        local_host: str | None = None,
    ) -> None:
        self.lines: list[str] = []
        self._new = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.closed = threading.Event()
        self.close_code: int | None = None
        sent = dict(headers or {})
        if origin is not None:
            sent["Origin"] = origin
        #: ``local_host``: the address the client connects from (127.0.0.2: another phone).
        self._local = (local_host, 0) if local_host is not None else None
        self._socket: aiohttp.ClientWebSocketResponse = self._run(self._open(url, sent))

    def _run(self, coroutine: Any, timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    async def _open(self, url: str, headers: dict[str, str]) -> aiohttp.ClientWebSocketResponse:
        connector = aiohttp.TCPConnector(local_addr=self._local) if self._local else None
        self._session = aiohttp.ClientSession(connector=connector)
        try:
            socket = await self._session.ws_connect(url, headers=headers, autoping=True)
        except BaseException:
            await self._session.close()
            raise
        asyncio.get_running_loop().create_task(self._read(socket))
        return socket

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for message in socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                with self._new:
                    self.lines.append(str(message.data))
                    self._new.notify_all()
        self.close_code = socket.close_code
        self.closed.set()
        with self._new:
            self._new.notify_all()

    def send(self, text: str) -> None:
        self._run(self._socket.send_str(text))

    def send_bytes(self, data: bytes) -> None:
        self._run(self._socket.send_bytes(data))

    def send_all(self, messages: Sequence[str | bytes]) -> None:
        """Send ``messages`` back to back from the client's own loop, as a flooding script
        does: one hop between threads per message would let a loaded machine space them out
        below the server's rate, and a flood would no longer be one. Stops quietly where the
        server has closed the connection."""

        async def flood() -> None:
            for message in messages:
                try:
                    if isinstance(message, bytes):
                        await self._socket.send_bytes(message)
                    else:
                        await self._socket.send_str(message)
                except ConnectionError:  # closed by the server: the flood is over
                    return

        self._run(flood())

    def wait_for(self, test: Callable[[str], bool], timeout: float = 5.0, start: int = 0) -> str:
        """The first line from index ``start`` on that passes ``test``; AssertionError if none
        comes within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                for line in self.lines[start:]:
                    if test(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    raise AssertionError(f"no such line within {timeout} s; got {self.lines[-5:]}")
                self._new.wait(left)

    def command(self, text: str, answer: str, timeout: float = 5.0) -> str:
        """Send ``text``; the first line that starts with ``answer`` or ``error`` after it."""
        start = len(self.lines)
        self.send(text)
        return self.wait_for(
            lambda line: line.startswith(answer) or line.startswith("error"), timeout, start
        )

    def close(self) -> None:
        async def shut() -> None:
            await self._socket.close()
            await self._session.close()

        try:
            self._run(shut(), timeout=5)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            self._loop.close()


@pytest.hookimpl(trylast=True)  # after the deselection by -m and -k
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the session's Chromium on a thread now where a collected test will want a window
    of it: a start costs seconds of waiting. Under xdist, where every worker collects every
    test, only on the worker the "chromium" group goes to (tests/conftest.py)."""
    from sim.pictures.browser import browser_missing
    from tests.conftest import CHROMIUM_WORKER

    if config.option.collectonly:
        return
    worker = getattr(config, "workerinput", {}).get("workerid", CHROMIUM_WORKER)
    if worker != CHROMIUM_WORKER:
        return
    wanted = any("chromium" in getattr(item, "fixturenames", ()) for item in items)
    if wanted and browser_missing() is None:
        start_early()


@pytest.fixture
def web_device(tmp_path: Path) -> Iterator[WebDevice]:
    """A device in its setup menu (no game yet), with a state directory, and its page."""
    device = WebDevice(state_dir=tmp_path / "state")
    try:
        yield device
    finally:
        device.close()


@pytest.fixture
def clients() -> Iterator[list[WsClient]]:
    """Clients a test opened; closed after it."""
    opened: list[WsClient] = []
    yield opened
    for client in opened:
        with contextlib.suppress(Exception):  # a client the server closed already
            client.close()


@pytest.fixture
def browser(chromium: SharedChromium) -> Iterator[Browser]:
    """A fresh headless Chromium window of 1000 x 900 (a module that wants another size has its
    own fixture, from :meth:`SharedChromium.window` too)."""
    with chromium.window(1000, 900) as opened:
        yield opened


#: A tap inside the page, as Selenium's click checks it first: the element is shown, enabled and
#: on top at its centre (scrolled there); then its click. Selenium's own click costs a round trip
#: through chromedriver and a frame's wait (a tenth of a second), the most of a card's test.
_TAP_ONE = """
const tapOne = (selector) => {
  const node = document.querySelector(selector);
  if (!node) return 'no such element';
  if (node.offsetParent === null) return 'not shown';
  if (node.disabled) return 'disabled';
  node.scrollIntoView({block: 'center', inline: 'center'});
  const box = node.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!top || !(node === top || node.contains(top))) return 'covered by ' + (top && top.outerHTML);
  node.click();
  return '';
};
"""
_TAP = _TAP_ONE + "return tapOne(arguments[0]);"
#: Taps one after another in one script (each checked as :data:`_TAP` checks it), the first
#: refusal with its selector; a tap given as [selector, gate] only where the element ``gate``
#: is shown.
_TAP_ALL = _TAP_ONE + """
for (const item of arguments[0]) {
  const [selector, gate] = Array.isArray(item) ? item : [item, null];
  if (gate !== null && document.querySelector(gate).offsetParent === null) continue;
  const refused = tapOne(selector);
  if (refused) return selector + ': ' + refused;
}
return '';
"""


def tap(browser: Browser, selector: str) -> None:
    """Click the element at ``selector`` in the page's own script, after the checks Selenium's
    click makes (shown, enabled, not covered); AssertionError where one fails."""
    refused = browser.js(_TAP, selector)
    assert refused == "", f"{selector}: {refused}"


def tap_all(browser: Browser, taps: Sequence[str | tuple[str, str]]) -> None:
    """:func:`tap` each of ``taps`` in turn, in one script (a round trip through chromedriver
    per tap was most of a card's entry); a tap ``(selector, gate)`` is made only where the
    element at ``gate`` is shown. AssertionError at the first that fails."""
    refused = browser.js(_TAP_ALL, [list(item) if isinstance(item, tuple) else item
                                    for item in taps])
    assert refused == "", refused


#: Fields filled as a person types into them, each checked as Selenium's typing checks it first
#: (shown, enabled, writable), then its value set whole and its input and change events fired:
#: one script for a form, where Selenium's typing cost round trips and a key event a letter.
_FILL = """
for (const [selector, value] of Object.entries(arguments[0])) {
  const field = document.querySelector(selector);
  if (!field) return selector + ': no such field';
  if (field.offsetParent === null || field.disabled || field.readOnly)
    return selector + ': not a field to type into';
  field.value = value;
  field.dispatchEvent(new Event('input', {bubbles: true}));
  field.dispatchEvent(new Event('change', {bubbles: true}));
}
return '';
"""


def fill(browser: Browser, fields: dict[str, str]) -> None:
    """Type ``fields`` (selector: the field's whole new value) into the page, in one script
    (Selenium's own typing is tests/web/test_browser.py's pairing's); AssertionError where a
    field is missing, hidden, disabled or read-only."""
    refused = browser.js(_FILL, fields)
    assert refused == "", refused


#: The text of elements as a reader sees it, as Selenium's ``.text`` gives it (nothing for an
#: element not shown, its rendered text trimmed otherwise), by id, for the ids of the array
#: ``ids``: ``.text`` costs two round trips through chromedriver per element, and a large script
#: of Selenium's each.
SHOWN_TEXTS = """((ids) => Object.fromEntries(ids.map((id) => {
  const node = document.getElementById(id);
  if (node === null) return [id, null];
  return [id, node.getClientRects().length > 0 ? node.innerText.trim() : ''];
})))"""


def texts(browser: Browser, *ids: str) -> dict[str, str]:
    """The shown text of the elements with ``ids``, by id, in one script (as Selenium's
    ``.text`` reads each); None for an id that is on no element."""
    return dict(browser.js(f"return {SHOWN_TEXTS}(arguments[0]);", list(ids)))


def text(browser: Browser, element_id: str) -> str:
    """The shown text of the element ``element_id`` (:func:`texts`)."""
    shown = texts(browser, element_id)[element_id]
    assert shown is not None, f"no element #{element_id}"
    return str(shown)


def wait_texts(
    browser: Browser, condition: str, *ids: str, timeout: float = 10.0
) -> dict[str, str]:
    """Wait until the JavaScript expression ``condition`` is truthy, then :func:`texts` of
    ``ids`` at that moment, in the same script."""
    import json

    shown = browser.wait(f"({condition}) && {SHOWN_TEXTS}({json.dumps(list(ids))})", timeout)
    return dict(shown)
