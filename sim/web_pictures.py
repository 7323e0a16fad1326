"""Pictures of the table's page (docs/img/web-*.png), taken in headless Chromium.

    .venv/bin/python -m sim.web_pictures

The browser is Debian's chromium and chromium-driver through Selenium, with nothing downloaded
(the driver's path is given, so Selenium Manager is never asked) and a fresh profile each time;
the browser tests (tests/web/test_browser.py) use the same :class:`Browser`.
"""

from __future__ import annotations

import shutil
import tempfile
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
        options.binary_location = str(CHROMIUM)
        for flag in (
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={self._profile}",
            f"--window-size={width},{height}", f"--force-device-scale-factor={scale}",
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
