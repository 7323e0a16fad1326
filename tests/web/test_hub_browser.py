"""The hub's TV page (firmware/hub/web/tv.html) in headless Chromium, in both languages: a KO
table's line of players with their lives."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.wire.messages import result_topic
from hal.hub_server import HubServer
from sim.pictures.browser import Browser
from tests.hub.helpers import EVENT, game_result, running_round, tournament


@pytest.fixture
def ko_hub(tmp_path: Path) -> Iterator[tuple[Hub, HubServer]]:
    """Velen's KO with 3 lives: table 1's first player lost three games and is out."""
    hub = tournament(tmp_path / "t.db", 8, fmt="velen")
    table = running_round(hub, now=time.time())[0]
    for game in range(1, 4):
        hub.receive(result_topic(EVENT, "table-1"), game_result(table, game).to_json(), 1.0)
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time))
    try:
        yield hub, server
    finally:
        server.close()


@pytest.mark.parametrize("lang", ["de", pytest.param("en", marks=pytest.mark.slow)])
def test_a_player_out_at_a_ko_table_shows_no_life_left(
    ko_hub: tuple[Hub, HubServer], browser: Browser, lang: str
) -> None:
    hub, server = ko_hub
    host, port = server.address
    browser.open(f"http://{host}:{port}/?lang={lang}&turn=0")
    browser.wait("document.body.dataset.page")
    # turned on to the tables' page with the arrow key, as a director would
    browser.js("""for (let i = 0; i < 20 && !document.body.dataset.page.startsWith('tables'); i++)
      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));""")
    who = browser.wait("document.querySelector('.tisch .who')?.textContent")
    table = hub.store.seats(1)[0]
    out, *others = table.players
    # the player out: 0, as the standings say it, never a bare name before a comma
    assert who.startswith(f"{out} 0, ")
    assert all(f"{name} ♥♥♥" in who for name in others)
