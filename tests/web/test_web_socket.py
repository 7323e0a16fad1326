"""The page's WebSocket on a real socket: the protocol's lines, pairing, and the server's limits.

Every test runs the device as ``schocken run`` builds it (see conftest.py) with the server on
a free port of 127.0.0.1, and talks to it with aiohttp's WebSocket client.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from engine import GameSetup, load_preset
from firmware.config import ConfigError, config_from_toml
from firmware.link.protocol import MAX_LINE
from firmware.sink import GameStarted
from hal.ports import Button
from hal.web_server import (
    MAX_CONNECTIONS,
    MAX_MESSAGE,
    MAX_PER_ADDRESS,
    RATE_BURST,
    WebServer,
    WebServerError,
    address_key,
)

from .conftest import WebDevice, WsClient


def payload(line: str) -> Any:
    return json.loads(line.split(" ", 1)[1])


def connect(device: WebDevice, clients: list[WsClient], **options: Any) -> WsClient:
    client = WsClient(device.ws_url, **options)
    clients.append(client)
    client.wait_for(lambda line: line.startswith("state "))
    return client


def test_a_page_is_greeted_and_gets_the_page_and_its_texts(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    client = connect(web_device, clients)
    hello = client.lines[0].split(" ", 3)
    assert hello[:3] == ["hello", "schockbesteck", "2"]
    assert json.loads(hello[3])["pairing"] == "required", "a page never skips pairing"
    state = payload(client.lines[1])
    assert state["game"] is None and state["next"]["players"] == ["Anna", "Ben", "Carla"]
    assert state["next"]["bots"] == ["", "", ""]
    with urllib.request.urlopen(web_device.url, timeout=5) as answer:
        page = answer.read().decode()
        policy = answer.headers["Content-Security-Policy"]
    assert "<script>" in page and "src=" not in page.replace('src="data:', ""), "self-contained"
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    with urllib.request.urlopen(web_device.url + "page.json", timeout=5) as answer:
        data = json.loads(answer.read())
    assert data["texts"]["de"]["web_title"] == "Schocken am Tisch"
    assert data["texts"]["en"]["pot"] == "Pot {n}"
    assert ("standard", 13) in [(preset["name"], preset["deckel"]) for preset in data["presets"]]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(web_device.url + "etc/passwd", timeout=5)
    assert missing.value.code == 404


def test_nothing_changes_without_pairing_then_pairing_and_revoking(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    client = connect(web_device, clients)
    for command in ("press stand", "hold stand", "shake", 'setup {"players": ["Xaver", "Yvonne"]}'):
        answer = client.command(command, "ok")
        assert answer.startswith("error") and "needs pairing" in answer, answer
    assert payload(client.command("state", "state"))["next"]["players"] == ["Anna", "Ben", "Carla"]
    assert web_device.events == [], "no game started"
    assert client.command("pair 123456", "ok").startswith("error pair: wrong PIN; 2 tries left")

    pin = web_device.show_pin()
    wrong = "000000" if pin != "000000" else "111111"
    assert "wrong PIN; 1 try left" in client.command(f"pair {wrong}", "ok")
    token = client.command(f"pair {pin}", "ok pair").split()[2]
    assert client.command(
        'setup {"players": ["Xaver", "Yvonne"], "bots": ["", "odds"]}', "ok setup"
    ) == "ok setup"
    started = [event for event in web_device.events if isinstance(event, GameStarted)]
    assert started and started[0].players == ("Xaver", "Yvonne")
    assert started[0].bots == (("Yvonne", "odds"),)

    second = connect(web_device, clients)  # a reload of the page: its token pairs it again
    assert "needs pairing" in second.command("press stand", "ok")
    assert second.command(f"auth {token}", "ok") == "ok auth"
    assert second.command("press keep1", "ok") == "ok press"

    pairing = web_device.device.pairing
    assert pairing is not None
    web_device.on_loop(pairing.revoke_all)  # the menu's Kopplungen löschen
    assert "needs pairing" in second.command("press keep1", "ok")
    assert "unknown token" in second.command(f"auth {token}", "ok")


def test_stats_come_from_the_game_store(web_device: WebDevice, clients: list[WsClient]) -> None:
    client = connect(web_device, clients)
    stats = payload(client.command("stats", "stats"))
    assert stats == {"fields": stats["fields"], "players": {}}
    assert stats["fields"][:2] == ["games", "lost"]


def test_a_button_on_the_device_reaches_every_page(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    pages = [connect(web_device, clients) for _ in range(3)]
    for page in pages:
        page.command("frames on", "ok frames")
    marks = [len(page.lines) for page in pages]
    web_device.press(Button.KEEP_3)  # the setup menu's "next"
    for page, mark in zip(pages, marks, strict=True):
        page.wait_for(lambda line: line.startswith("frame "), start=mark)


def test_an_other_sites_page_is_refused_by_its_origin(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        WsClient(web_device.ws_url, origin="http://evil.example")
    assert refused.value.status == 403
    host = web_device.url.removeprefix("http://").rstrip("/")
    connect(web_device, clients, origin=f"http://{host}")  # the page's own origin


def test_malformed_oversized_binary_and_flooding_messages(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    client = connect(web_device, clients)
    for bad in ("jmup", "press keep9", "setup {", "\u202epress stand", "x" * (MAX_LINE + 1),
                "press stand\npress stand", "", "{\"echo\": 1}"):
        client.send(bad)
    client.send_bytes(b"\xff\xfe binary")
    client.send("ping after-garbage")
    client.wait_for(lambda line: line == "pong after-garbage")
    errors = [line for line in client.lines if line.startswith("error")]
    assert len(errors) == 7, errors  # one per bad line; the empty line and the echo are ignored
    assert any("binary" in line for line in errors)
    assert any("line too long" in line for line in errors)

    flood = connect(web_device, clients)
    for index in range(int(RATE_BURST) + 30):
        flood.send(f"ping {index}")
    flood.wait_for(lambda line: line.startswith("error too many lines"))
    assert len([line for line in flood.lines if line.startswith("pong")]) < RATE_BURST + 30

    big = connect(web_device, clients)
    big.send("x" * (MAX_MESSAGE + 1))
    assert big.closed.wait(5), "an oversized message closes the connection"
    assert big.close_code == 1009
    client.send("ping still-here")
    client.wait_for(lambda line: line == "pong still-here")


@pytest.mark.parametrize(
    "pages",
    # Each page here is a client with a thread and a loop of its own: `make test` opens twenty,
    # the slow selection the hundred the device serves (MAX_CONNECTIONS).
    [20, pytest.param(100, marks=pytest.mark.slow)],
)
def test_idle_pages_and_the_buttons_still_answer(
    web_device: WebDevice, clients: list[WsClient], pages: int
) -> None:
    # Phones of their own, each from an address of its own (127.0.1.N: Linux routes all of
    # 127.0.0.0/8 to the loopback), as at a table: one address has MAX_PER_ADDRESS at most.
    idle = [connect(web_device, clients, local_host=f"127.0.1.{1 + index}")
            for index in range(pages)]
    assert web_device.device.web is not None
    assert web_device.on_loop(lambda: web_device.device.web.pages) == pages  # type: ignore[union-attr]
    watcher = idle[-1]
    watcher.command("frames on", "ok frames")
    mark = len(watcher.lines)
    web_device.press(Button.KEEP_3)  # the setup menu's next step
    watcher.wait_for(lambda line: line.startswith("frame "), start=mark)
    for page in idle[:10]:
        page.close()
    clients[:10] = []
    web = web_device.device.web
    deadline = time.monotonic() + 5.0  # a wait for the closes to arrive, not a time target
    while web_device.on_loop(lambda: web.pages) > pages - 10 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert web_device.on_loop(lambda: web.pages) == pages - 10, "a closed page is forgotten"


def test_the_server_refuses_more_pages_than_it_serves(
    web_device: WebDevice, clients: list[WsClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert MAX_CONNECTIONS >= 100  # the hundred idle pages above fit
    monkeypatch.setattr("hal.web_server.MAX_CONNECTIONS", 2)
    connect(web_device, clients)
    connect(web_device, clients)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        WsClient(web_device.ws_url)
    assert refused.value.status == 503


def test_one_address_cannot_take_every_connection(
    web_device: WebDevice, clients: list[WsClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert MAX_PER_ADDRESS * 4 <= MAX_CONNECTIONS, "well below the total"
    monkeypatch.setattr("hal.web_server.MAX_PER_ADDRESS", 2)
    held = [connect(web_device, clients, local_host="127.0.0.2") for _ in range(2)]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        WsClient(web_device.ws_url, local_host="127.0.0.2")
    assert refused.value.status == 503
    connect(web_device, clients)  # a person on another address still gets in
    held[0].close()
    clients.remove(held[0])
    deadline = time.monotonic() + 5.0  # a wait for the close to arrive, not a time target
    while time.monotonic() < deadline:
        try:
            clients.append(WsClient(web_device.ws_url, local_host="127.0.0.2"))
            break
        except aiohttp.WSServerHandshakeError:
            time.sleep(0.02)
    assert len(clients) == 3, "a slot freed is the address's again"


def test_the_cap_counts_an_ipv6_host_by_its_64() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:192.0.2.7") == address_key("192.0.2.7") == "192.0.2.7"


def test_a_bad_address_is_one_clear_line() -> None:
    with pytest.raises(WebServerError, match="no such address"):
        WebServer("192.0.2.1", 8080, {})
    server = WebServer("127.0.0.1", 0, {})
    try:
        with pytest.raises(WebServerError, match="in use by another program"):
            WebServer("127.0.0.1", server.address[1], {})
    finally:
        server.close()


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("", (False, "0.0.0.0:8080")),
        ("[web]\nlisten = \"127.0.0.1:9000\"", (True, "127.0.0.1:9000")),
        ("[web]\nenabled = true", (True, "0.0.0.0:8080")),
        ("[web]\nenabled = false\nlisten = \"0.0.0.0:80\"", (False, "0.0.0.0:80")),
    ],
)
def test_the_web_section(toml: str, expected: tuple[bool, str]) -> None:
    web = config_from_toml(toml).web
    assert (web.enabled, web.listen) == expected


@pytest.mark.parametrize(
    ("listen", "message"),
    [
        ("8080", "give HOST:PORT"),
        ("0.0.0.0:http", "port must be a number from 0 to 65535"),
        ("0.0.0.0:70000", "port must be a number from 0 to 65535"),
        ("a b:80", "host must be an address or a name"),
    ],
)
def test_a_bad_listen_address_is_refused_in_one_line(listen: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as refused:
        config_from_toml(f'[web]\nlisten = "{listen}"')
    assert "\n" not in str(refused.value) and "web.listen" in str(refused.value)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ('{"bots": ["odds", "chess"]}', '"bots" must be a list of at most 3 entries'),
        ('{"bots": ["", "", "", "odds"]}', '"bots" must be a list of at most 3 entries'),
        ('{"bots": "odds"}', '"bots" must be a list'),
    ],
)
def test_bad_bots_in_a_setup_are_refused_and_change_nothing(
    web_device: WebDevice, clients: list[WsClient], setup: str, message: str
) -> None:
    client = connect(web_device, clients)
    client.command(f"pair {web_device.show_pin()}", "ok pair")
    answer = client.command(f"setup {setup}", "ok setup")
    assert answer.startswith("error setup") and message in answer, answer
    assert payload(client.command("state", "state"))["next"]["bots"] == ["", "", ""]
    assert web_device.events == []


@pytest.mark.slow  # a second `schocken sim --web --script`: make test starts one in test_browser
def test_after_a_scripted_game_the_page_is_still_answered(tmp_path: Path) -> None:
    """`schocken sim --web --script`: once the script is over, "the page stays up" and a page
    opened then is greeted and gets the board."""
    import re
    import signal
    import subprocess
    import sys

    script = tmp_path / "short.txt"
    script.write_text("stand\n", encoding="utf-8")  # one press: over in under a second
    command = [sys.executable, "-m", "schockbesteck", "sim", "--players", "2", "--seed", "7",
               "--no-save", "--script", str(script), "--web", "127.0.0.1:0"]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    client: WsClient | None = None
    try:
        assert process.stderr is not None
        # The notice is in the screens' language (German here): the address is the same in both.
        found = re.search(r"http://(127\.0\.0\.1:\d+)/", process.stderr.readline())
        assert found
        assert "das Skript ist zu Ende" in process.stderr.readline()
        client = WsClient(f"ws://{found.group(1)}/ws")
        client.wait_for(lambda line: line.startswith("hello "))
        assert payload(client.command("state", "state"))["game"]["players"] == ["Anna", "Ben"]
    finally:
        if client is not None:
            client.close()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
    assert process.returncode == 0


def test_the_pages_follow_the_cup_between_the_rules_events(clients: list[WsClient]) -> None:
    """A die marked and the cup shaken change no rule's state, yet the table sees them on the
    mirror: a state says so in the same step (the page's bar draws the cup from it)."""
    device = WebDevice(setup=GameSetup(("Anna", "Ben"), load_preset("standard")))
    try:
        host = connect(device, clients)
        assert host.command(f"pair {device.show_pin()}", "ok pair").startswith("ok pair")
        for attempt in range(12):  # the roll-off, the hand-over and the first throw
            turn = payload(host.command("state", "state"))["game"]["turn"]
            if turn is not None and turn["throws"] == 1:
                break
            host.command("shake" if attempt % 2 == 0 else "press stand", "ok")
        else:
            raise AssertionError(f"no first throw: {turn}")
        page = connect(device, clients)  # a watcher
        mark = len(page.lines)
        device.press(Button.KEEP_1)
        app = device.device.app
        deadline = time.monotonic() + 5
        while not device.on_loop(lambda: app.view.dice[0].out):  # the press, on the device's screen
            assert time.monotonic() < deadline, "the mark never came"
            time.sleep(0.01)
        shaking = threading.Event()

        def shake() -> None:  # the tilt switch's ball rolls until the page heard of the shake
            closed = False
            while not shaking.is_set():
                closed = not closed
                device.hands.tilt(closed)
                time.sleep(0.05)

        shaker = threading.Thread(target=shake)
        shaker.start()
        try:
            line = page.wait_for(lambda line: line.startswith("state ") and bool(
                (json.loads(line[6:])["game"]["turn"].get("cup") or {}).get("shaking")
            ), start=mark)  # fmt: skip
        finally:
            shaking.set()
            shaker.join()
        cup = payload(line)["game"]["turn"]["cup"]
        assert cup["marked"] == [True, False, False], "the marked die stays out"
        assert cup["dice"][1:] == [None, None], "the others are in the shaking cup"
        assert not any(text.startswith('event {"event":"roll"') for text in page.lines[mark:])
        thrown = page.wait_for(lambda line: line.startswith('event {"event":"roll"'), start=mark)
        index = page.lines.index(thrown)
        after = payload(page.wait_for(lambda line: line.startswith("state "), start=index))
        assert after["game"]["turn"]["throws"] == 2
        assert after["game"]["turn"]["cup"]["shaking"] is False
    finally:
        device.close()
