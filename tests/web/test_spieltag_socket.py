"""The page's Spieltag over a real WebSocket and real HTTP: standings for every page, beginning
and ending an evening only when paired (the command line's checks, one-line errors), and the
sheet's downloads, refused without a pairing token."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import GameSetup
from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.store.spieltagfile import SPIELTAG_FILE, SpieltagFiles
from hal.storage import StateDirectory
from tests.durable.evening import play_games

from .conftest import WebDevice, WsClient

PLAYERS = ("Anna", "Ben", "Carla", "Dora")


def spieltag_of(client: WsClient) -> dict[str, Any]:
    line = client.command("spieltag", "spieltag")
    assert line.startswith("spieltag "), line
    return dict(json.loads(line.split(" ", 1)[1]))


def paired(device: WebDevice, clients: list[WsClient]) -> tuple[WsClient, str]:
    client = WsClient(device.ws_url)
    clients.append(client)
    client.wait_for(lambda line: line.startswith("state "))
    answer = client.command(f"pair {device.show_pin()}", "ok pair")
    assert answer.startswith("ok pair "), answer
    return client, answer.split()[2]


def watcher(device: WebDevice, clients: list[WsClient]) -> WsClient:
    client = WsClient(device.ws_url)
    clients.append(client)
    client.wait_for(lambda line: line.startswith("state "))
    return client


def fetch(
    device: WebDevice, path: str, token: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(device.url.rstrip("/") + path)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def begin_line(**values: Any) -> str:
    message = {"name": "7. Spieltag", "venue": "Zum Anker", "scheme": "platzpunkte", **values}
    return "spieltag-begin " + json.dumps(message, ensure_ascii=False)


def test_a_watcher_sees_the_standings_but_changes_nothing_and_gets_no_file(
    web_device: WebDevice, clients: list[WsClient], tmp_path: Path
) -> None:
    eve = watcher(web_device, clients)
    assert spieltag_of(eve) == {"spieltag": None}
    line = eve.command(begin_line(), "ok")
    assert line.startswith("error spieltag-begin needs pairing"), line
    assert eve.command("spieltag-end", "ok").startswith("error spieltag-end needs pairing")
    # A payload the device cannot read: pairing is said first, as for a result.
    for bad in ('{"colour": "red"}', '{"name": 7}', "[1]"):
        line = eve.command(f"spieltag-begin {bad}", "error")
        assert line.startswith("error spieltag-begin needs pairing"), line
    assert not (tmp_path / "state" / SPIELTAG_FILE).exists()
    host, token = paired(web_device, clients)
    assert host.command(begin_line(time_box=70), "ok spieltag-begin") == "ok spieltag-begin"
    play_games(tmp_path / "state", PLAYERS, 2, deckel=3)
    seen = spieltag_of(eve)
    assert seen["spieltag"]["name"] == "7. Spieltag" and seen["spieltag"]["time_box"] == 70
    assert seen["games"] == 2 and {line["player"] for line in seen["standings"]} == set(PLAYERS)
    for path in ("/spieltag.csv", "/spieltag.pdf"):
        for wrong in (None, "0" * 32, token[:-1]):
            status, _, body = fetch(web_device, path, wrong)
            assert status == 403 and b"pair this phone first" in body and b"%PDF" not in body
            assert body.count(b"\n") == 1
    status, headers, body = fetch(web_device, "/spieltag.csv", token)
    assert status == 200 and body.startswith("\ufeff".encode()) and b";" in body
    assert "Spielberichtsbogen-7-Spieltag-" in headers["Content-Disposition"]
    assert all(name.encode() in body for name in PLAYERS)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"time_box": 0}, "time box 0: must be a whole number of minutes from 1 to 600"),
        ({"time_box": -5}, "time box -5: must be a whole number of minutes from 1 to 600"),
        ({"time_box": 601}, "time box 601: must be"),
        ({"time_box": "70"}, "time_box '70' must be whole minutes or null"),
        ({"scheme": "liga"}, "scheme 'liga': not a scheme; schemes: verlustpunkte"),
        ({"name": "  "}, "name: give the Spieltag a name or number"),
        ({"date": "1.12.2026"}, "must be YYYY-MM-DD"),
        ({"date": "2026-02-30"}, "date '2026-02-30': must be YYYY-MM-DD, a day of the calendar"),
        ({"venue": "x" * 81}, "venue 'xxxx"),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_bad_input_is_one_line_and_begins_nothing(
    web_device: WebDevice, clients: list[WsClient], tmp_path: Path,
    values: dict[str, Any], words: str,
) -> None:  # fmt: skip
    host, _ = paired(web_device, clients)
    line = host.command(begin_line(**values), "ok")
    assert line.startswith("error spieltag-begin: ") and words in line, line
    assert not (tmp_path / "state" / SPIELTAG_FILE).exists()


def test_a_second_spieltag_an_evening_without_games_and_none_at_all(
    web_device: WebDevice, clients: list[WsClient], tmp_path: Path
) -> None:
    host, token = paired(web_device, clients)
    status, _, body = fetch(web_device, "/spieltag.pdf", token)
    assert status == 404 and b"holds no Spieltag" in body and body.count(b"\n") == 1
    assert host.command(begin_line(), "ok spieltag-begin") == "ok spieltag-begin"
    kept = (tmp_path / "state" / SPIELTAG_FILE).read_bytes()
    line = host.command(begin_line(name="8"), "ok")
    assert line.startswith("error spieltag-begin: the Spieltag '7. Spieltag'"), line
    assert "still going on: end it first" in line
    assert (tmp_path / "state" / SPIELTAG_FILE).read_bytes() == kept
    status, _, body = fetch(web_device, "/spieltag.csv", token)
    assert status == 404 and b"has no finished games yet: play one first" in body
    assert host.command("spieltag-end", "ok spieltag-end") == "ok spieltag-end"
    assert spieltag_of(host) == {"spieltag": None}
    assert host.command("spieltag-end", "ok").startswith("error spieltag-end: no Spieltag")


def test_a_device_without_a_state_directory_keeps_no_spieltag(clients: list[WsClient]) -> None:
    device = WebDevice()
    try:
        host, token = paired(device, clients)
        line = host.command("spieltag", "spieltag")
        assert line == "error spieltag: this device keeps no games (no state directory)"
        status, _, _ = fetch(device, "/spieltag.csv", token)
        assert status == 404
    finally:
        device.close()


def test_a_time_box_that_ran_out_makes_the_game_scharf_for_every_page(
    tmp_path: Path, clients: list[WsClient]
) -> None:
    root = tmp_path / "state"
    root.mkdir()
    began = datetime.now().astimezone() - timedelta(minutes=5)
    SpieltagFiles(StateDirectory(root)).begin(
        Spieltag("t1", "8", load_scheme("verlustpunkte"), began.date().isoformat(),
                 time_box=1, began_at=began.isoformat(timespec="seconds"))
    )
    device = WebDevice(state_dir=root, setup=GameSetup(PLAYERS[:3]))
    try:
        eve = watcher(device, clients)
        deadline = time.monotonic() + 5
        while json.loads(eve.command("state", "state").split(" ", 1)[1])["game"]["scharf"] != "on":
            assert time.monotonic() < deadline, "the game never went scharf"
            time.sleep(0.05)
        assert spieltag_of(eve)["scharf"] is True
        start = len(eve.lines)
        eve.send("log")
        eve.wait_for(lambda line: line == "end", start=start)
        assert '{"event":"scharf","minutes":1}' in eve.lines[start:]
    finally:
        device.close()
