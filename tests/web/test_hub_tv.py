"""The hub's TV (firmware/hub/web/tv.html) in headless Chromium at 1920x1080, as a hall reads it:
at 150 tables one turn of its pages shows every player and every table, the rows at 32 px or
more; the pages turn on their own; offline and the hub's broker link in words; the winner and
the podium at the end."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.wire.messages import TableStatus, result_topic, status_topic
from hal.hub_server import HubServer
from sim.pictures.browser import Browser
from tests.chromium import SharedChromium
from tests.hub.helpers import EVENT, game_result, running_round, tournament

#: One turn of the pages, read page by page: the arrow key turns them (the page is opened with
#: ?turn=0, held), and each page's rows and cards are measured where they are on the screen.
_ONE_TURN = """
const inView = (box) => box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5
  && box.right <= innerWidth + 0.5 && box.height > 0;
const px = (node) => parseFloat(getComputedStyle(node).fontSize);
const pages = [];
const first = document.body.dataset.page;
for (let turned = 0; turned < 500; turned++) {
  const page = document.getElementById("page");
  const rows = [...page.querySelectorAll(".row.player")].map((row) => {
    const name = row.querySelector(".name b");
    const numbers = [...row.querySelectorAll(".num:not(.small)")];
    return {name: name.textContent, shown: inView(row.getBoundingClientRect()),
            whole: name.scrollWidth <= name.clientWidth, height: row.getBoundingClientRect().height,
            font: px(name), numbers: Math.min(...numbers.map(px))};
  });
  const cards = [...page.querySelectorAll(".tisch")].map((card) => ({
    table: Number(card.dataset.table), shown: inView(card.getBoundingClientRect()),
    who: card.querySelector(".who").textContent, font: px(card.querySelector(".who")),
    state: card.querySelector(".state").innerText}));
  const round = document.getElementById("round"), clock = document.getElementById("clock");
  pages.push({page: document.body.dataset.page, rows, cards,
              overflow: page.scrollHeight > page.clientHeight + 1,
              round: inView(round.getBoundingClientRect()) ? round.textContent : "",
              clock: inView(clock.getBoundingClientRect()) ? clock.textContent : ""});
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
  if (document.body.dataset.page === first) return pages;
}
return pages;
"""


@pytest.fixture
def tv(chromium: SharedChromium) -> Iterator[Browser]:
    """A window with a 1080p screen's viewport exactly (a window's own size is its outside)."""
    with chromium.window(1920, 1080) as browser:
        browser.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False},
        )
        yield browser


def _served(hub: Hub) -> HubServer:
    return HubServer("127.0.0.1", 0, hub_routes(hub, time.time))


def _url(server: HubServer, query: str) -> str:
    host, port = server.address
    return f"http://{host}:{port}/?{query}"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, HubServer]]:
    """A DM-sized round: 600 players in 120 teams at 150 tables, a game reported at every
    fifth table, every tenth table offline with 3 results waiting."""
    hub = tournament(tmp_path_factory.mktemp("hall") / "t.db", 600, teams=120)
    tables = running_round(hub, now=time.time())
    for table in tables[::5]:
        topic = result_topic(EVENT, f"table-{table.table_no}")
        hub.receive(topic, game_result(table, 1).to_json(), 1.0, standings=False)
    for table in tables[3::10]:
        name = f"table-{table.table_no}"
        status = TableStatus(name, False, 3, 1, 2.0)
        hub.receive(status_topic(EVENT, name), status.to_json(), 2.0, standings=False)
    hub.store.set_broker_link(True, 1.0)
    server = _served(hub)
    try:
        yield hub, server
    finally:
        server.close()


@pytest.mark.parametrize(
    ("lang", "offline"),
    [("de", "nicht verbunden"), pytest.param("en", "offline", marks=pytest.mark.slow)],
)
def test_one_turn_at_150_tables_shows_every_player_and_table_in_large_rows(
    hall: tuple[Hub, HubServer], tv: Browser, lang: str, offline: str
) -> None:
    hub, server = hall
    tv.open(_url(server, f"lang={lang}&turn=0"))
    tv.wait("document.body.dataset.page")
    pages: list[dict[str, Any]] = tv.js(_ONE_TURN)
    assert pages[0]["page"] == "standings-0" and len(pages) < 500  # the turn comes round
    assert not [page["page"] for page in pages if page["overflow"]]
    rows = [row for page in pages if page["page"].startswith("standings") for row in page["rows"]]
    # every player once, on the screen, uncut, 32 px or more, the numbers larger
    assert sorted(row["name"] for row in rows) == sorted(p.name for p in hub.store.players())
    assert all(row["shown"] and row["whole"] for row in rows)
    assert min(row["height"] for row in rows) >= 32 and min(row["font"] for row in rows) >= 32
    assert all(row["numbers"] > row["font"] for row in rows)
    cards = [card for page in pages for card in page["cards"]]
    seats = {seat.table_no: seat for seat in hub.store.seats(1)}
    assert sorted(card["table"] for card in cards) == sorted(seats) and len(seats) == 150
    for card in cards:
        assert card["shown"] and card["font"] >= 32
        assert all(player in card["who"] for player in seats[card["table"]].players)
    # offline in words on the card itself, with what waits
    off = [card for card in cards if card["table"] % 10 == 4]
    assert off and all(card["state"].startswith(offline) and "3" in card["state"] for card in off)
    # the round and its clock on every page
    round_words = {"de": "Runde 1 · läuft", "en": "Round 1 · running"}[lang]
    assert {page["round"] for page in pages} == {round_words}
    assert all(page["clock"].startswith(("noch ", "left ")) for page in pages)
    # standings, tables and teams each over pages of their own
    kinds = {page["page"].rsplit("-", 1)[0] for page in pages}
    assert {"standings", "tables", "teams"} <= kinds


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[tuple[Hub, HubServer]]:
    """Eight players in two teams at two tables; table 2 offline with 3 results waiting."""
    hub = tournament(tmp_path / "t.db", 8, teams=2)
    tables = running_round(hub, now=time.time())
    hub.receive(result_topic(EVENT, "table-1"), game_result(tables[0], 1).to_json(), 1.0)
    hub.receive(status_topic(EVENT, "table-1"), TableStatus("table-1", True).to_json(), 1.0)
    hub.receive(status_topic(EVENT, "table-2"), TableStatus("table-2", False, 3).to_json(), 1.0)
    hub.store.set_broker_link(True, 1.0)
    server = _served(hub)
    try:
        yield hub, server
    finally:
        server.close()


def test_the_pages_turn_on_their_own(evening: tuple[Hub, HubServer], tv: Browser) -> None:
    _hub, server = evening
    tv.open(_url(server, "turn=0.2"))
    tv.wait("document.body.dataset.page")  # it opens on the standings (the test above)
    # Every page shown, noted as it turns (a poll could miss a page shown for 0.2 s): it goes
    # on to the tables and round again to the standings.
    tv.js(
        "window.seen = []; new MutationObserver(() => seen.push(document.body.dataset.page))"
        ".observe(document.body, {attributes: true, attributeFilter: ['data-page']})"
    )
    tv.wait(
        "seen.includes('tables-0') && seen.lastIndexOf('standings-0') > seen.indexOf('tables-0')"
    )


@pytest.mark.parametrize("lang", ["de", pytest.param("en", marks=pytest.mark.slow)])
def test_offline_and_the_hubs_own_link_are_said_in_words(
    evening: tuple[Hub, HubServer], tv: Browser, lang: str
) -> None:
    hub, server = evening
    words = {
        "de": ("Broker verbunden", "nicht verbunden · 3 noch nicht gemeldet",
               "Hub ohne Verbindung zum Broker", "Stand unbekannt"),
        "en": ("broker connected", "offline · 3 not yet reported", "Hub has lost the broker",
               "status unknown"),
    }[lang]  # fmt: skip
    tv.open(_url(server, f"lang={lang}&turn=0"))
    tv.wait("document.body.dataset.page")
    tv.js("turn(1)")  # the tables
    assert tv.js("return document.getElementById('link').innerText") == words[0]
    states = tv.js("return [...document.querySelectorAll('.tisch .state')].map(s => s.innerText)")
    assert states[1] == words[1] and states[0] != words[1]
    hub.store.set_broker_link(False, 3.0)  # as HubService.connection_changed(False) records it
    server.push(json.dumps(hub.view(time.time()).to_json()).encode())
    tv.wait(f"document.getElementById('link').innerText === {words[2]!r}")
    states = tv.js("return [...document.querySelectorAll('.tisch .state')].map(s => s.innerText)")
    assert states[0] == words[3] and states[1].startswith(words[3])


def test_the_end_shows_the_winner_on_a_podium(tmp_path: Path, tv: Browser) -> None:
    hub = tournament(tmp_path / "t.db", 8, teams=2)
    for round_ in range(1, 5):  # the DM's four points rounds
        tables = running_round(hub, now=time.time())
        for table in tables:
            loser = 1 if table.table_no == 1 else 2
            hub.receive(result_topic(EVENT, f"table-{table.table_no}"),
                        game_result(table, 1, loser).to_json(), float(round_))  # fmt: skip
        hub.finish_round()
    view = hub.view(time.time())
    assert view.over
    winners = [placed.line.name for placed in view.standings if placed.place == 1]
    server = _served(hub)
    try:
        tv.open(_url(server, "lang=en&turn=0"))
        assert tv.wait("document.body.dataset.page") == "podium-0"
        assert tv.js("return document.getElementById('round').innerText") == "Tournament over"
        first = tv.js("return document.querySelector('.step.p1 .who').innerText")
        assert first.split(", ") == winners
        assert tv.js("return document.getElementById('page-note').innerText") == (
            "Winner: " + ", ".join(winners)
        )
    finally:
        server.close()
