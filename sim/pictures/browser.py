"""Pictures of the table's page (docs/img/web-*.png), taken in headless Chromium.

    .venv/bin/python -m sim.pictures.browser

The browser is Debian's chromium and chromium-driver through Selenium, with nothing downloaded
(the driver's path is given, so Selenium Manager is never asked) and a fresh profile each time;
the browser tests (tests/web/test_browser.py) use the same :class:`Browser`. Each maker takes a
``browser`` already started (the tests lend theirs, so that one Chromium makes every picture),
else it starts its own and quits it when done.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Debian's browser and its driver (`apt-get install chromium chromium-driver`).
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def browser_missing() -> str | None:
    """Why no browser test can run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            return f"{path} is missing: apt-get install chromium chromium-driver (.ci/run does)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: pip install -e '.[browser-test]' (make does)"
    return None


class Browser:
    """One headless Chromium window of ``width`` x ``height`` CSS pixels."""

    def __init__(self, width: int = 1280, height: int = 900, scale: float = 1.0) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self._profile = tempfile.mkdtemp(prefix="schock-chromium-")
        options = webdriver.ChromeOptions()
        # No scroll bars: they fade in and out, so a screenshot would depend on its moment. No
        # address bar's popup made ahead (a page of the browser's own, which no headless window
        # shows): it cost a start a renderer and a third of its CPU.
        options.binary_location = str(CHROMIUM)
        for flag in (
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={self._profile}",
            f"--window-size={width},{height}", f"--force-device-scale-factor={scale}",
            "--disable-features=WebUIOmniboxPopup",
        ):  # fmt: skip
            options.add_argument(flag)
        self.driver: Any = webdriver.Chrome(
            service=Service(executable_path=str(CHROMEDRIVER)), options=options
        )
        self.driver.set_page_load_timeout(20)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def wait(self, script: str, timeout: float = 10.0) -> Any:
        """Wait until the JavaScript expression ``script`` is truthy; its value."""
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(
            lambda driver: driver.execute_script(f"return ({script});")
        )

    def by_id(self, element_id: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.ID, element_id)

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self._profile, ignore_errors=True)


def _window(browser: Browser | None, width: int, height: int) -> Any:
    """A context giving ``browser`` with its window set to ``width`` x ``height``, or a new
    :class:`Browser` of that size that is quit afterwards."""
    if browser is None:
        return closing(Browser(width, height))
    browser.driver.set_window_size(width, height)
    return nullcontext(browser)


# --- the pictures --------------------------------------------------------------------------------

ROOT = Path(__file__).parents[2]
IMAGES = ROOT / "docs" / "img"
#: Who plays in the pictures: two people and two computer players (seat order).
PLAYERS = ("Anna", "Ben-Luca", "Carla", "Dieter")
BOTS = ("", "odds", "", "threshold")
SEED = 1


@dataclass(frozen=True, slots=True)
class Shot:
    """One picture of the page: its file, language, screen (CSS pixels), device pixels per CSS
    pixel, whether the page is paired, and what it shows: the whole page (``full``), the top of
    it, or the viewport scrolled to the element ``scroll_to``."""

    name: str
    language: str
    size: tuple[int, int]
    scale: float = 1.0
    paired: bool = False
    full: bool = False
    scroll_to: str | None = None


#: The pictures of docs/web.md, in the order they are taken (the watchers' first).
SHOTS = (
    Shot("web-board-de.png", "de", (1366, 768), full=True),
    Shot("web-landscape-de.png", "de", (844, 390), 2.0),
    Shot("web-narrow-en.png", "en", (360, 740), 2.0),
    Shot("web-phone-en.png", "en", (390, 844), 2.0, paired=True),
    Shot("web-paired-en.png", "en", (390, 844), 2.0, paired=True, scroll_to="device"),
)


def make_web_pictures(images: Path = IMAGES, browser: Browser | None = None) -> list[Path]:
    """Every picture of :data:`SHOTS` (docs/img/web-*.png): the page just after a round's reveal,
    after one finished game for the statistics, in one headless Chromium (``browser``, or one
    of its own).

    The device is the firmware's own (``build_device`` with the web server on a free port of
    127.0.0.1, seeded dice, a temporary state directory) on a fake clock; a person's turns are
    played by :func:`_play_until` the way the covered-dice test plays them.
    """
    problem = browser_missing()
    if problem is not None:
        raise RuntimeError(f"no pictures of the page: {problem}")
    import dataclasses

    from engine import GameSetup, load_preset
    from engine.events import RoundOver
    from firmware.config import DeviceConfig, GameConfig
    from firmware.dice import SeededDice
    from firmware.link.webtable import page_files
    from firmware.wiring import build_device
    from hal.oled import open_dummy
    from hal.storage import StateDirectory
    from hal.web_server import WebServer
    from sim.fakes import FakeClock

    images.mkdir(parents=True, exist_ok=True)
    rules = dataclasses.replace(load_preset("standard"), hidden_last_throw=False, deckel=9)
    setup = GameSetup(PLAYERS, rules)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="schock-web-pictures-") as state:
        clock = FakeClock(1000.0)
        display = open_dummy(clock)
        server = WebServer("127.0.0.1", 0, page_files())
        reveals: list[RoundOver] = []

        def heard(event: object) -> None:
            if isinstance(event, RoundOver):
                reveals.append(event)

        device = build_device(
            DeviceConfig(game=GameConfig(players=PLAYERS, bots=BOTS)),
            clock=clock, inputs=[], display=display, timers=[display], web=server,
            dice=SeededDice(SEED), storage=StateDirectory(state), setup=setup, power=False,
            event_sink=heard,
        )
        try:
            device.loop.start()
            _play_until(device, clock, lambda game: game.is_over)  # a game for the statistics
            device.app.plan_next_game(setup)
            _play_until(device, clock, lambda game: _a_good_moment(game, reveals))
            pairing = device.pairing
            assert pairing is not None
            pins: list[str] = []
            with _served(device, clock, server) as url, _window(browser, *SHOTS[0].size) as shown:
                for shot in SHOTS:
                    if shot.paired and not pins:
                        device.loop.call_soon(lambda: pins.append(pairing.show_pin(clock.now())))
                    written.append(_shoot(shown, url, images / shot.name, shot, pins))
        finally:
            device.close()
    return written


def _a_good_moment(game: Any, reveals: list[Any]) -> bool:
    """Just after a reveal in the first Hälfte, a few rounds in (nobody has thrown since), that
    a tie decided and that moved Deckel from one player to another: the reveal is fresh, and
    the board shows what it changed."""
    from firmware.link.tablefeed import reveal_ties

    turn, last = game.turn, reveals[-1] if reveals else None
    return bool(
        game.section == 1
        and game.round_number >= 5
        and turn is not None
        and turn.throws == 0
        and not game.results
        and last is not None
        and last.source == "winner"
        and reveal_ties(game.rules, last)
    )


def _play_until(device: Any, clock: Any, done: Callable[[Any], bool], steps: int = 6000) -> None:
    """Play on the test's thread, as the main loop, until ``done(game)``: a computer player's or
    a screen's timer, else a person's turn as shake, lay out die 1, shake, stand."""
    from hal.ports import Button, InputEvent, InputKind

    app = device.app
    cycle = 0
    for _ in range(steps):
        game = app.game
        if game is not None and done(game):
            return
        if app.next_deadline() is not None:
            clock.advance(2.0)
        else:
            button = (None, Button.KEEP_1, None, Button.STAND)[cycle % 4]  # None: a shake
            cycle += 1
            if button is None:
                app.handle(InputEvent(InputKind.SHAKE_START, clock.advance(0.5)))
                app.handle(InputEvent(InputKind.THROW, clock.advance(0.5)))
            else:
                app.handle(InputEvent(InputKind.PRESS, clock.advance(0.5), button))
        device.run(until=clock.now() + 0.001)
    raise RuntimeError("the game never came to the moment for the pictures")


@contextmanager
def _served(device: Any, clock: Any, server: Any) -> Iterator[str]:
    """The device's page served while its fake clock stands (nobody acts): the main loop
    answers the pages' commands on a thread of its own until the block ends. Gives the page's
    URL."""
    import threading

    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            device.run(until=clock.now() + 0.0001)
            stop.wait(0.005)

    serving = threading.Thread(target=serve, daemon=True)
    serving.start()
    try:
        host, port = server.address
        yield f"http://{host}:{port}/"
    finally:
        stop.set()
        serving.join(timeout=5)


def _shoot(browser: Browser, url: str, path: Path, shot: Shot, pins: list[str],
           before: str = "") -> Path:
    """``shot`` of the page at ``url`` in ``browser``, written to ``path``; a paired shot pairs
    with the PIN in ``pins`` (the first time; the token is kept in the browser). ``before`` is
    a script run on the page just before the picture."""
    import base64
    import time

    width, height = shot.size
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": shot.scale,
         "mobile": shot.scale > 1},
    )  # fmt: skip
    browser.open(url)
    browser.js("localStorage.setItem('schockbesteck.lang', arguments[0])", shot.language)
    if not shot.paired:
        browser.js("localStorage.removeItem('schockbesteck.token')")
    browser.open(url)
    browser.wait("window.schock.states >= 1 && window.schock.page.logWaiting === false")
    if shot.paired:
        if not browser.js("return localStorage.getItem('schockbesteck.token')"):
            deadline = time.monotonic() + 5
            while not pins and time.monotonic() < deadline:
                time.sleep(0.02)
            browser.js("document.getElementById('pin').value = arguments[0]", pins[0])
            browser.by_id("pair").click()
        browser.wait("window.schock.page.paired === true")
        browser.js("document.getElementById('note').textContent = ''")
    browser.wait("window.schock.page.stats !== null")
    if before:
        browser.js(before)
    if shot.scroll_to:
        browser.js(f"document.getElementById({shot.scroll_to!r}).scrollIntoView()")
    else:
        browser.js("window.scrollTo(0, 0)")
    time.sleep(0.3)  # the OLED mirror's frame is drawn asynchronously
    options: dict[str, Any] = {"format": "png"}
    if shot.full:  # the whole page, as a TV shows it
        content = browser.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": width, "height": content["height"], "scale": 1}
        options.update(captureBeyondViewport=True, clip=clip)
    picture = browser.driver.execute_cdp_cmd("Page.captureScreenshot", options)
    path.write_bytes(base64.b64decode(picture["data"]))
    return path


def main() -> None:
    for path in make_web_pictures():
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")



# --- real dice: the scorekeeper's entry card -------------------------------------------

#: The entry card's picture: a paired phone, in German, during the first round of a DSM game.
ENTRY_SHOT = Shot("web-entry-de.png", "de", (390, 844), 2.0, paired=True)


def make_entry_picture(path: Path, browser: Browser | None = None) -> Path:
    """The page's entry card (docs/img/web-entry-de.png): a real-dice game under the DSM's rules
    on the firmware's own device (fake clock, temporary state directory), the roll-off and the
    opener's result entered, the next player's dice tapped in (a Straße after two throws, so
    that the card asks: from the hand or built up); in ``browser``, or a Chromium of its own."""
    problem = browser_missing()
    if problem is not None:
        raise RuntimeError(f"no picture of the entry card: {problem}")

    from engine import GameSetup, load_preset
    from engine.events import Report, RollOff
    from firmware.config import DeviceConfig, GameConfig
    from firmware.link.webtable import page_files
    from firmware.wiring import build_device
    from hal.oled import open_dummy
    from hal.storage import StateDirectory
    from hal.web_server import WebServer
    from sim.fakes import FakeClock

    players = ("Anna", "Ben-Luca", "Carla", "Dieter")
    setup = GameSetup(players, load_preset("dsm"), real_dice=True)
    with tempfile.TemporaryDirectory(prefix="schock-entry-picture-") as state:
        clock = FakeClock(1000.0)
        display = open_dummy(clock)
        server = WebServer("127.0.0.1", 0, page_files())
        device = build_device(
            DeviceConfig(game=GameConfig(players=players, real_dice=True)), clock=clock,
            inputs=[], display=display, timers=[display], web=server,
            storage=StateDirectory(state), setup=setup, power=False,
        )  # fmt: skip
        try:
            device.loop.start()
            app = device.app
            app.enter_result(RollOff(players, ((6, 4, 2), (1, 1, 1), (5, 3, 2), (6, 5, 3))))
            app.enter_result(Report("Ben-Luca", (4, 4, 1), 2, False))
            device.run(until=clock.now() + 0.001)
            pairing = device.pairing
            assert pairing is not None
            pins: list[str] = []
            tap = (
                "const tap = (s) => document.querySelector(s).click();"
                "[5, 4, 3].forEach((v, i) => "
                "tap(`#entry-dice [data-die=\"${i + 1}\"] [data-face=\"${v}\"]`));"
            )
            with _served(device, clock, server) as url, _window(
                browser, *ENTRY_SHOT.size
            ) as shown:
                device.loop.call_soon(lambda: pins.append(pairing.show_pin(clock.now())))
                _shoot(shown, url, path, ENTRY_SHOT, pins, before=tap)
        finally:
            device.close()
    return path


def write_spieltag_card(path: Path, browser: Browser | None = None) -> None:
    """The page's Spieltag card on a paired phone (390 px), German and English side by side:
    a Spieltag of five games at a table of four under Platzpunkte with a time box, its
    standings, the downloads and ending it (asked); in ``browser``, or a Chromium of its own."""
    problem = browser_missing()
    if problem is not None:
        raise RuntimeError(f"no pictures of the page: {problem}")
    import io

    from PIL import Image

    from engine import Game
    from engine.spieltag import Spieltag
    from firmware.config import DeviceConfig
    from firmware.dice import SeededDice
    from firmware.link.webtable import page_files
    from firmware.store.gamestore import GameStore
    from firmware.store.journal import JournalHeader
    from firmware.store.spieltagfile import SpieltagFiles, open_spieltag_id
    from firmware.wiring import build_device
    from hal.oled import open_dummy
    from hal.storage import StateDirectory
    from hal.web_server import WebServer
    from sim.fakes import FakeClock
    from sim.pictures.league_match import match_evening

    evening = match_evening()
    with tempfile.TemporaryDirectory(prefix="schock-spieltag-card-") as state:
        storage = StateDirectory(Path(state))
        spieltag = Spieltag(
            "20261201-190000", "7. Spieltag", evening.spieltag.scheme, "2026-12-01",
            "Gasthaus Zum Anker", time_box=70, began_at="2026-12-01T19:00:00+01:00",
        )
        SpieltagFiles(storage).begin(spieltag)
        store = GameStore(storage)
        store.open()
        for played in evening.games[:5]:  # table 1's five games, journalled as the device does
            game = Game(played.setup)
            store.begin(JournalHeader(played.setup, spieltag=open_spieltag_id(storage)))
            for action in played.actions:
                store.record(game.apply(action))
        clock = FakeClock(1000.0)
        display = open_dummy(clock)
        server = WebServer("127.0.0.1", 0, page_files())
        device = build_device(
            DeviceConfig(), clock=clock, inputs=[], display=display, timers=[display],
            web=server, dice=SeededDice(SEED), storage=storage, power=False,
        )
        shots: list[Image.Image] = []
        try:
            device.loop.start()
            pairing = device.pairing
            assert pairing is not None
            pins: list[str] = []
            with _served(device, clock, server) as url, _window(browser, 390, 844) as shown:
                device.loop.call_soon(lambda: pins.append(pairing.show_pin(clock.now())))
                for language in ("de", "en"):
                    shot = Shot(f"web-spieltag-{language}.png", language, (390, 844),
                                paired=True, scroll_to="spieltag")
                    target = Path(state) / shot.name
                    _shoot_card(shown, url, target, shot, pins)
                    shots.append(Image.open(io.BytesIO(target.read_bytes())).convert("RGB"))
        finally:
            device.close()
    gap = 12
    width = sum(shot.width for shot in shots) + gap
    height = max(shot.height for shot in shots)
    sheet = Image.new("RGB", (width, height), (15, 20, 25))
    sheet.paste(shots[0], (0, 0))
    sheet.paste(shots[1], (shots[0].width + gap, 0))
    sheet.save(path, optimize=True)


def _shoot_card(browser: Browser, url: str, path: Path, shot: Shot, pins: list[str]) -> None:
    """``shot`` of the Spieltag card (paired, as :func:`_shoot` takes it) once the page has the
    standings, with "Spieltag beenden" asked."""
    import base64

    _shoot(browser, url, path, shot, pins)
    browser.wait("window.schock.page.spieltag && window.schock.page.spieltag.games === 5")
    browser.js("document.getElementById('sp-end').click();"
               "document.getElementById('spieltag').scrollIntoView()")
    picture = browser.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    path.write_bytes(base64.b64decode(picture["data"]))


if __name__ == "__main__":
    main()
