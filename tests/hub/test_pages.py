"""The hub's web server (hal/hub_server.py) with its real routes (firmware/hub/pages.py): the
TV and phone page in both languages, the live event stream, the CSV and PDF exports."""

from __future__ import annotations

import http.client
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes, refused_line
from firmware.wire.messages import result_topic
from hal.hub_server import HubServer
from tests.hub.helpers import EVENT, game_result, running_round, tournament


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Hub, HubServer]]:
    hub = tournament(tmp_path / "t.db", 8, teams=2)
    tables = running_round(hub, now=time.time())
    hub.receive(result_topic(EVENT, "table-1"), game_result(tables[0], 1).to_json(), 1.0)
    server = HubServer(
        "127.0.0.1", 0, hub_routes(hub, time.time),
        on_error=refused_line,
    )  # fmt: skip
    try:
        yield hub, server
    finally:
        server.close()


def get(server: HubServer, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(*server.address, timeout=5)
    headers = {"Host": host} if host else {}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), body


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/", ["Stand", "Tische", "Tisch {n}", '"Runde {n}"']),
        ("/?lang=en", ["Standings", "Tables", '"Round {n}"']),
        ("/phone", ["Stand", "const PHONE = true"]),
        ("/phone?lang=en", ["Standings", "const PHONE = true"]),
    ],
)
def test_the_page_in_each_language(
    served: tuple[Hub, HubServer], path: str, words: list[str]
) -> None:
    _hub, server = served
    status, headers, body = get(server, path)
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    for word in words:
        assert word in page
    first = json.loads(page.split("const FIRST = ", 1)[1].split(";\n", 1)[0])
    assert first["event"] == EVENT and len(first["tables"]) == 2


def test_a_foreign_host_name_gets_nothing(served: tuple[Hub, HubServer]) -> None:
    _hub, server = served
    status, _headers, _body = get(server, "/", host="evil.example")
    assert status == 421


def test_the_event_stream_sends_the_state_on_connect_and_each_new_one(
    served: tuple[Hub, HubServer],
) -> None:
    hub, server = served
    connection = http.client.HTTPConnection(*server.address, timeout=5)
    server.push(json.dumps(hub.view(time.time()).to_json()).encode())
    connection.request("GET", "/events")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"

    def event() -> dict[str, object]:
        line = response.readline()
        while not line.startswith(b"data: "):
            line = response.readline()
        response.readline()  # the blank line that ends the event
        data: dict[str, object] = json.loads(line[6:])
        return data

    assert event()["tables"][0]["games"] == 1  # type: ignore[index]
    tables = hub.store.seats(1)
    hub.receive(result_topic(EVENT, "table-1"), game_result(tables[0], 2).to_json(), 2.0)
    server.push(json.dumps(hub.view(time.time()).to_json()).encode())
    assert event()["tables"][0]["games"] == 2  # type: ignore[index]
    connection.close()


def test_the_csv_is_for_german_spreadsheets(served: tuple[Hub, HubServer]) -> None:
    _hub, server = served
    status, headers, body = get(server, "/export.csv")
    assert status == 200 and headers["Content-Disposition"] == 'attachment; filename="dm2026.csv"'
    text = body.decode("utf-8")
    assert text.startswith("\ufeffTurnier dm2026\r\n")
    assert "Platz;Spieler;Mannschaft;Punkte;Spiele;verloren" in text
    english = get(server, "/export.csv?lang=en")[2].decode()
    assert "Place;Player;Team;Points;Games;Lost" in english


def test_the_pdfs_hold_the_standings_and_a_tables_sheet(
    served: tuple[Hub, HubServer], tmp_path: Path
) -> None:
    hub, server = served
    status, _headers, body = get(server, "/export.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    (tmp_path / "s.pdf").write_bytes(body)
    text = subprocess.run(["pdftotext", tmp_path / "s.pdf", "-"], capture_output=True, text=True)
    loser = hub.store.seats(1)[0].players[0]
    assert "Turnier dm2026" in text.stdout and loser in text.stdout
    status, _headers, sheet = get(server, "/sheet.pdf?round=1&table=1")
    assert status == 200 and sheet.startswith(b"%PDF")
    (tmp_path / "t.pdf").write_bytes(sheet)
    text = subprocess.run(["pdftotext", tmp_path / "t.pdf", "-"], capture_output=True, text=True)
    assert "Spielberichtsbogen" in text.stdout and "Tisch 1" in text.stdout


def test_a_sheet_of_no_table_is_one_line(served: tuple[Hub, HubServer]) -> None:
    _hub, server = served
    status, _headers, body = get(server, "/sheet.pdf?round=1&table=9")
    assert (status, body.decode()) == (400, "Runde 1 hat keinen Tisch 9\n")
    status, _headers, body = get(server, "/sheet.pdf?round=1&table=9&lang=en")
    assert (status, body) == (400, b"round 1 has no table 9\n")
    status, _headers, body = get(server, "/sheet.pdf?round=x&table=1&lang=en")
    assert (status, body) == (400, b"'x' is not a round's or table's number\n")
    status, _headers, body = get(server, "/sheet.pdf?round=x&table=1")
    assert (status, body.decode()) == (400, "»x« ist keine Nummer einer Runde oder eines Tisches\n")


def test_a_big_fields_standings_run_over_pages_each_with_its_heading(tmp_path: Path) -> None:
    """The one drawer (firmware/report/pdf.py) pages the hub's standings: 150 players on A4,
    every one of them in the text layer, the column heading on every page."""
    from firmware.hub.pages import standings_pdf

    hub = tournament(tmp_path / "t.db", 150, teams=30)
    running_round(hub, now=time.time())
    (tmp_path / "s.pdf").write_bytes(standings_pdf(hub.view(time.time()), "de"))
    text = subprocess.run(["pdftotext", tmp_path / "s.pdf", "-"], capture_output=True, text=True)
    pages = text.stdout.split("\f")[:-1]
    assert len(pages) >= 3
    assert all("Platz" in page and "Spieler" in page for page in pages[:-1])
    for entrant in hub.store.players():
        assert entrant.name in text.stdout


def test_the_tv_carries_a_qr_code_of_the_phone_view_on_the_name_it_was_asked_by(
    served: tuple[Hub, HubServer],
) -> None:
    hub, _server = served
    named = HubServer("127.0.0.1", 0, hub_routes(hub, time.time), names=("schocken-hub.local",))
    try:
        port = named.address[1]
        page = get(named, "/?lang=en", host=f"schocken-hub.local:{port}")[2].decode()
        url = f"http://schocken-hub.local:{port}/phone?lang=en"
        assert f"const PHONE_URL = {json.dumps(url)};" in page
        svg = page.split('<figure id="qr">', 1)[1].split("</svg>", 1)[0]
        assert svg.startswith('<svg viewBox="0 0 ') and 'stroke="#000"' in svg
        # a loopback name reaches no phone: no code; the phone view itself carries none
        assert "<svg" not in get(named, "/", host=f"localhost:{port}")[2].decode()
        assert "<svg" not in get(named, "/", host=f"127.0.0.1:{port}")[2].decode()
        phone = get(named, "/phone", host=f"schocken-hub.local:{port}")[2].decode()
        assert "<svg" not in phone
    finally:
        named.close()


def test_the_phone_views_address_and_the_servers_host_key() -> None:
    from firmware.hub.pages import HOST_KEY, phone_url
    from hal.hub_server import HOST_KEY as SERVERS_KEY

    assert HOST_KEY == SERVERS_KEY
    assert phone_url("192.168.1.20:8080", "de") == "http://192.168.1.20:8080/phone"
    assert phone_url("[fd00::2]:8080", "en") == "http://[fd00::2]:8080/phone?lang=en"
    assert phone_url("[::1]:8080", "de") == phone_url("localhost", "de") == ""


def test_the_view_says_the_scheme_and_the_hubs_link_and_every_scheme_has_its_meaning(
    tmp_path: Path,
) -> None:
    from engine.scoring import SCHEME_PRESETS
    from firmware.hub.hub_words import TvWords

    hub = tournament(tmp_path / "t.db", 8)
    state = hub.view(1.0).to_json()
    assert (state["scheme"], state["broker"]) == ("verlustpunkte", None)
    # as HubService records the hub's link on every connect and disconnect (tests/hub/test_links.py)
    hub.store.set_broker_link(False, 2.0)
    assert hub.view(2.0).to_json()["broker"] == {"connected": False, "since": 2.0}
    hub.store.set_broker_link(True, 3.0)
    assert hub.view(3.0).broker == (True, 3.0)
    for lang, word in (("de", "weniger ist besser"), ("en", "fewer is better")):
        assert word in TvWords(lang).t("hub_scheme_verlustpunkte")
    points = [name for name, scheme in SCHEME_PRESETS.items() if not scheme.lives]
    page = (Path(__file__).parents[2] / "firmware/hub/web/tv.html").read_text(encoding="utf-8")
    for name in points:
        assert f'{name}: "hub_scheme_{name}"' in page
