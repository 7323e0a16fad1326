"""The director's desk (/desk) in headless Chromium: a director logs in with the desk's password
and corrects a stored result from its row in the results, as at the hall's desk; the file's
standings change as `schocken hub correct` would change them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.hub.desk_login import DeskLogin
from firmware.hub.desk_page import DeskPage
from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.hub.store import HubStore
from firmware.wire.messages import Result, result_topic
from hal.hub_server import HubServer
from sim.pictures.browser import Browser
from tests.hub.helpers import EVENT, game_result, running_round, tournament
from tests.web.conftest import fill, tap


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[tuple[Path, HubServer]]:
    db = tmp_path / "desk.db"
    hub = tournament(db)
    seats = running_round(hub, now=time.time())
    hub.receive(result_topic(EVENT, "table-1"), game_result(seats[0], 1).to_json(), 1.0)
    page = DeskPage(Hub(HubStore(db)), DeskLogin("turnier-2026", time.time), time.time)
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time), forms=page)
    try:
        yield db, server
    finally:
        server.close()


def loaded(browser: Browser, selector: str) -> Any:
    """Wait for the next page to have ``selector`` (a form's answer is a new page)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser.driver, 10, 0.05, ignored_exceptions=(WebDriverException,)).until(
        lambda driver: driver.execute_script(
            "return document.readyState === 'complete' && document.querySelector(arguments[0])",
            selector,
        )
    )


def test_a_director_logs_in_and_corrects_a_result(
    desk: tuple[Path, HubServer], browser: Browser
) -> None:
    db, server = desk
    host, port = server.address
    browser.open(f"http://{host}:{port}/desk")
    loaded(browser, "input[name=password]")
    fill(browser, {"[name=who]": "Vera", "[name=password]": "turnier-2026"})
    tap(browser, "form.login button")
    loaded(browser, "#results a.act")
    assert "Angemeldet: Vera" in browser.js("return document.querySelector('.top').textContent")
    stored = Result.from_json(HubStore(db).results()[0].payload)
    first, second = stored.players[0], stored.players[1]
    assert stored.loser == first
    tap(browser, "#results a.act")  # "korrigieren": the form filled from the stored result
    loaded(browser, "#correct input[name=id]")
    form = browser.js("""return Object.fromEntries([...document.querySelectorAll(
        '#correct input:not([type=hidden])')].map(i => [i.name, i.value]));""")
    assert form["id"] == stored.id and form["halves"] == f"{first},{second}"
    assert form["final"] == first
    fill(browser, {
        "#correct input[name=halves]": f"{second},{second}",  # a Durchmarsch: no final
        "#correct input[name=final]": "",
        "#correct input[name=why]": "Durchmarsch laut Karte",
    })  # fmt: skip
    tap(browser, "#correct button[type=submit]")
    loaded(browser, "#done")
    done = browser.js("return document.getElementById('done').innerText")
    assert f"{stored.id}: korrigiert" in done
    lost = {line.name: line.games_lost for line in Hub(HubStore(db)).progress().lines}
    assert lost[first] == 0 and lost[second] == 1
    (row,) = HubStore(db).desk()
    assert (row.who, row.action, row.why) == ("Vera", "correct", "Durchmarsch laut Karte")
