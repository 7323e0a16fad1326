"""One headless Chromium for a whole test session (per xdist worker; a start costs seconds).

:class:`SharedChromium` gives each test a window of the size it asks for, and afterwards
stops its page (no timer of it runs, nothing of it dials out: a navigation to a blank page cost
more than a tenth of a second of the browser's CPU a test) or, where the test opened more,
swaps them all for a new one, and clears what the pages it opened kept (their ``localStorage``,
the pairing token among it), so no test sees another's token or hears from another's page.
The ``chromium`` fixture of tests/conftest.py holds the session's one; the page's tests
(tests/web/) and the docs' pictures (tests/sim/) take their windows from it.

Where the page's tests are collected, :func:`start_early` starts that Chromium on a thread while
the rest is collected and the first tests run (tests/web/conftest.py asks for it): its start,
seconds of waiting for the browser and its driver, then overlaps the worker's other work.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from sim.pictures.browser import Browser

#: A wait inside the page: the expression is tried every 10 ms by the page's own timer, and the
#: script returns its first truthy value, or, after ``arguments[1]`` ms, the answer ``{timedOut:
#: true}`` (the page's own deadline: a driver's script timeout set for each wait would cost a
#: round trip through chromedriver more per wait).
_WAIT_IN_PAGE = """
const done = arguments[arguments.length - 1];
const test = new Function("return (" + arguments[0] + ");");
const deadline = Date.now() + arguments[1];
const tick = () => {
  let value = false;
  try { value = test(); } catch (error) { value = false; }
  if (value) { done(value); }
  else if (Date.now() > deadline) { done({timedOut: true}); }
  else { setTimeout(tick, 10); }
};
tick();
"""
#: The driver's script timeout, set once: past every wait's own deadline (a page that hangs).
_SCRIPT_TIMEOUT_S = 120


#: A test's page stopped where it is: its timers and intervals cleared (their ids count up from
#: one), and no socket, stream or request of its own to open, so that it cannot dial its device's
#: port again, which by then may be another test's server (of this worker or another). Gives the
#: page's origin. Leaving the page for about:blank instead costs Chromium a tenth of a second of
#: CPU a test; the next test's :meth:`~_PageBrowser.open` leaves it.
_STOP_THE_PAGE = """
for (let id = setTimeout(() => {}, 0); id > 0; id -= 1) { clearTimeout(id); clearInterval(id); }
const stopped = function () { throw new Error("this page's test is over"); };
window.WebSocket = stopped; window.EventSource = stopped; window.fetch = stopped;
window.XMLHttpRequest = stopped;
return location.protocol + "//" + location.host;
"""

#: What a page can keep that another test's page could read: the table's page keeps its pairing
#: token in localStorage. (Clearing "all", the caches and service workers among it, costs five
#: times as long, and a test's page is on a port, an origin, of its own.)
_KEPT_BY_PAGES = "cookies,local_storage,session_storage,indexeddb"


class _PageBrowser(Browser):
    """The shared Chromium, noting the origins its pages were opened on (to clear after), and
    waiting inside the page: a wait polled from here would cost a round trip through
    chromedriver every 20 ms, the most of the browser's CPU in a whole game entered on the page."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width=width, height=height)
        self.origins: set[str] = set()
        self.driver.set_script_timeout(_SCRIPT_TIMEOUT_S)

    def open(self, url: str) -> None:
        parts = urlsplit(url)
        self.origins.add(f"{parts.scheme}://{parts.netloc}")
        super().open(url)

    def wait(self, script: str, timeout: float = 10.0) -> Any:
        """Wait until the JavaScript expression ``script`` is truthy; its value."""
        from selenium.common.exceptions import TimeoutException

        value = self.driver.execute_async_script(_WAIT_IN_PAGE, script, round(timeout * 1000))
        if value == {"timedOut": True}:
            raise TimeoutException(f"not within {timeout} s: {script}")
        return value


class _EarlyStart:
    """A :class:`_PageBrowser` started on a thread of its own (:func:`start_early`), for the
    session's :class:`SharedChromium` to take; quit at exit where no test took it."""

    def __init__(self) -> None:
        self._started: list[_PageBrowser] = []
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._start, name="chromium-start", daemon=True)
        self._thread.start()
        atexit.register(self._quit_untaken)

    def _start(self) -> None:
        try:
            self._started.append(_PageBrowser(1000, 900))
        except BaseException as error:  # handed to the test that takes it
            self._failed.append(error)

    def take(self) -> _PageBrowser:
        """The browser once started; the error of its start where it failed."""
        self._thread.join()
        if self._failed:
            raise self._failed[0]
        return self._started.pop()

    def _quit_untaken(self) -> None:
        self._thread.join(timeout=30)
        for browser in self._started:
            with contextlib.suppress(Exception):
                browser.close()
        self._started.clear()


_early: _EarlyStart | None = None


def start_early() -> None:
    """Start the session's Chromium now, on a thread (once per process): the first window taken
    from a :class:`SharedChromium` then waits only for what is left of its start."""
    global _early
    if _early is None:
        _early = _EarlyStart()


class SharedChromium:
    """One headless Chromium for a whole test session, started when a test first needs it (or
    earlier, by :func:`start_early`); each test gets a window of its own (:meth:`window`)."""

    def __init__(self) -> None:
        self._browser: _PageBrowser | None = None

    @staticmethod
    def _start(width: int, height: int) -> _PageBrowser:
        """The browser :func:`start_early` started, taken once; else a new one."""
        global _early
        early, _early = _early, None
        if early is not None:
            return early.take()
        return _PageBrowser(width, height)

    @contextlib.contextmanager
    def window(self, width: int, height: int) -> Iterator[Browser]:
        """A window of ``width`` x ``height``, blank or showing the page of the test before,
        stopped; afterwards the page is stopped and what its pages stored is cleared
        (:meth:`_fresh_window`). A browser that cannot do that (it crashed, say) is replaced."""
        browser = self._browser
        if browser is None:
            browser = self._browser = self._start(width, height)
        # Set on every window alike: headless Chromium's --window-size keeps a viewport at least
        # 500 wide, where this gives a phone's 390 what it asks for.
        browser.driver.set_window_size(width, height)
        try:
            yield browser
        finally:
            try:
                self._fresh_window(browser)
            except Exception:  # a broken browser: the next test starts a new one
                self._browser = None
                with contextlib.suppress(Exception):
                    browser.close()

    @staticmethod
    def _fresh_window(browser: _PageBrowser) -> None:
        """Stop the page (:data:`_STOP_THE_PAGE`), clear what the pages stored and any emulated
        screen. A test that opened more windows gets a new one instead, the others closed: a new
        window costs Chromium a renderer's start, a third of a second, so the usual test's
        window is kept, its page stopped (or, where it cannot be, left for a blank one)."""
        from selenium.common.exceptions import WebDriverException

        driver = browser.driver
        used = driver.window_handles
        if len(used) == 1:
            try:
                origin = str(driver.execute_script(_STOP_THE_PAGE))
            except WebDriverException:  # no script runs there (a crashed page): leave it
                current = urlsplit(driver.current_url)
                origin = f"{current.scheme}://{current.netloc}"
                driver.get("about:blank")
            if origin.startswith(("http://", "https://")):
                browser.origins.add(origin)
        else:
            current = urlsplit(driver.current_url)
            if current.scheme in ("http", "https"):
                browser.origins.add(f"{current.scheme}://{current.netloc}")
        for origin in sorted(browser.origins):
            driver.execute_cdp_cmd(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": _KEPT_BY_PAGES}
            )
        browser.origins.clear()
        if len(used) == 1:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            return
        driver.switch_to.new_window("window")
        fresh = driver.current_window_handle
        for handle in used:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(fresh)

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
