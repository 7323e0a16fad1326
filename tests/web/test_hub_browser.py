"""The hub's TV page (firmware/hub/web/tv.html) in headless Chromium, in both languages: a KO
table's line of players with their lives; the phone view following the stream's changes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.hub.view_changes import ViewFeed
from firmware.wire.messages import result_topic
from hal import hub_server
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


def test_the_phone_follows_the_changes_to_exactly_the_hubs_state(
    tmp_path: Path, browser: Browser, mocker: MockerFixture
) -> None:
    """As `hub serve` pushes them: the whole state once, then only the changes, gzipped."""
    hub = tournament(tmp_path / "t.db", 16, teams=4)
    tables = running_round(hub, now=time.time())
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time))
    feed = ViewFeed()
    packed = mocker.spy(hub_server, "deflated")
    try:
        server.push(*feed.next(hub.view(time.time()).to_json()))
        host, port = server.address
        browser.open(f"http://{host}:{port}/phone?lang=en")
        browser.wait("document.querySelectorAll('.row.player').length === 16")
        expected: dict[str, object] = {}
        for game, (index, loser) in enumerate([(0, 0), (1, 3), (2, 1), (3, 2), (0, 1)], 1):
            topic = result_topic(EVENT, f"table-{tables[index].table_no}")
            hub.receive(topic, game_result(tables[index], game, loser).to_json(), float(game))
            whole, changes = feed.next(hub.view(time.time()).to_json())
            assert changes is not None
            server.push(whole, changes)
            expected = json.loads(whole)
            # The page's state once it is this push's, read in the script that waits for it.
            shown = browser.wait(
                f"state && state.now === {expected['now']!r} && JSON.stringify(state)"
            )
            assert json.loads(shown) == expected
        assert packed.call_count >= 5  # Chromium asked for gzip and inflated the stream
        rows = browser.js("""return [...document.querySelectorAll('.row.player')].slice(0, 16)
          .map((row) => row.querySelector('.name b').textContent)""")
        standings = expected["standings"]
        assert isinstance(standings, list)
        assert rows == [row["name"] for row in standings]
    finally:
        server.close()
