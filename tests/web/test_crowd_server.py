"""The page's server against scripts: pairing that cannot be spoiled, DNS rebinding, binary
floods, the size limit, and unpaired pages answered while the main loop is busy.

Every test runs the device as ``schocken run`` builds it (see conftest.py), with the server on a
free port of 127.0.0.1 and aiohttp's client; a second phone connects from 127.0.0.2 (Linux
routes all of 127.0.0.0/8 to the loopback), so that it has an address of its own.
"""

from __future__ import annotations

import contextlib
import gc
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import aiohttp
import pytest

from firmware.link.pairing import ADDRESS_ATTEMPTS, PIN_ATTEMPTS
from hal import web_server
from hal.quietlog import QuietLog
from hal.web_server import MAX_MESSAGE, MAX_REFUSED, RATE_BURST, WebServer, host_allowed

from .conftest import WebDevice, WsClient


def connect(device: WebDevice, clients: list[WsClient], **options: Any) -> WsClient:
    client = WsClient(device.ws_url, **options)
    clients.append(client)
    client.wait_for(lambda line: line.startswith("state "))
    return client


def wrong_pin(pin: str) -> str:
    return "000000" if pin != "000000" else "111111"


def test_a_wrong_pin_and_no_pin_shown_answer_alike(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    before = connect(web_device, clients).command("pair 000000", "ok")
    pin = web_device.show_pin()
    during = connect(web_device, clients).command(f"pair {wrong_pin(pin)}", "ok")
    assert before == during == "error pair: wrong PIN; 2 tries left on this connection"


def test_a_script_polling_pair_cannot_stop_a_person_from_pairing(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    pin = web_device.show_pin()
    script = connect(web_device, clients)
    answers = [script.command(f"pair {wrong_pin(pin)}", "ok") for _ in range(PIN_ATTEMPTS)]
    assert answers[-1] == (
        "error pair: wrong PIN; too many tries on this connection: it is closed"
    ), "the connection's last line arrives before it is closed"
    assert script.closed.wait(5), "a connection over its tries is closed"

    # The script comes back on new connections from the same address, until the address is
    # over its tries: then even the right PIN is refused there.
    tries = PIN_ATTEMPTS
    while tries < ADDRESS_ATTEMPTS:
        again = connect(web_device, clients)
        again.command(f"pair {wrong_pin(pin)}", "ok")
        tries += 1
        again.close()
        clients.remove(again)
    locked = connect(web_device, clients).command(f"pair {pin}", "ok")
    assert locked.startswith("error pair: wrong PIN; too many tries from this address")

    person = connect(web_device, clients, local_host="127.0.0.2")  # another phone
    assert person.command(f"pair {pin}", "ok pair").startswith("ok pair "), "the PIN is good"
    assert person.command("press keep3", "ok") == "ok press"


def test_unpair_revokes_the_pages_token_on_the_device(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    page = connect(web_device, clients)
    token = page.command(f"pair {web_device.show_pin()}", "ok pair").split()[2]
    other = connect(web_device, clients, local_host="127.0.0.2")
    other_token = other.command(f"pair {web_device.show_pin()}", "ok pair").split()[2]
    assert page.command("unpair", "ok") == "ok unpair"
    assert "needs pairing" in page.command("press keep3", "ok")
    reload = connect(web_device, clients)
    assert reload.command(f"auth {token}", "ok").startswith("error auth: unknown token")
    assert other.command(f"auth {other_token}", "ok") == "ok auth", "only its own token goes"
    assert "unpair needs pairing" in reload.command("unpair", "ok")


def test_a_foreign_host_name_is_refused_as_dns_rebinding(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    port = web_device.url.rstrip("/").rsplit(":", 1)[1]
    rebound = {"Host": f"evil.example:{port}"}
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        WsClient(web_device.ws_url, origin=f"http://evil.example:{port}", headers=rebound)
    assert refused.value.status == 421
    request = urllib.request.Request(web_device.url, headers=rebound)
    with pytest.raises(urllib.error.HTTPError) as page:
        urllib.request.urlopen(request, timeout=5)
    assert page.value.code == 421, "the page itself is not served under a foreign name"
    for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
        connect(web_device, clients, origin=f"http://{host}", headers={"Host": host})


def test_a_configured_name_is_served() -> None:
    server = WebServer("127.0.0.1", 0, {"/": ("text/plain", b"hi")}, names=("Schock.local",))
    try:
        server.start(lambda link: None, lambda link: None)
        port = server.address[1]
        for host, expected in ((f"schock.local:{port}", 200), (f"schock.lan:{port}", 421)):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": host})
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
            assert status == expected, host
    finally:
        server.close()


@pytest.mark.parametrize(
    ("host", "local", "allowed"),
    [
        ("192.168.1.5:8080", "192.168.1.5", True),
        ("192.168.1.6:8080", "192.168.1.5", False),
        ("[fe80::1]:8080", "fe80::1%wlan0", True),
        ("192.168.1.5", "::ffff:192.168.1.5", True),
        ("127.0.0.1:80", "192.168.1.5", True),
        ("LOCALHOST:80", "192.168.1.5", True),
        ("schock.local.:80", "192.168.1.5", True),
        ("evil.example:8080", "192.168.1.5", False),
        ("192.168.1.5.evil.example", "192.168.1.5", False),
        (None, "192.168.1.5", True),
    ],
)
def test_which_host_names_the_device(host: str | None, local: str, allowed: bool) -> None:
    assert host_allowed(host, local, frozenset({"schock.local"})) is allowed


def test_binary_messages_share_the_rate_limit_and_a_flood_is_closed_with_its_last_line(
    web_device: WebDevice, clients: list[WsClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = connect(web_device, clients)
    binary.send_all([b"\x00"] * (MAX_REFUSED + 50))
    assert binary.closed.wait(10), "a stream of binary messages is closed"
    assert binary.lines[-1].endswith("refused in a row; closing"), binary.lines[-3:]

    monkeypatch.setattr("hal.web_server.PUSH_WINDOW_S", 0.5)  # two seconds on the device
    flood = connect(web_device, clients)
    flood.send_all([f"ping {index}" for index in range(2000)])
    assert flood.closed.wait(10)
    assert flood.lines[-1] == "error too many lines: over 20 a second for 0.5 s; closing"
    pongs = [line for line in flood.lines if line.startswith("pong ")]
    assert pongs == [f"pong {index}" for index in range(len(pongs))], "read in order, none lost"
    assert RATE_BURST < len(pongs) < 200, "read only at its rate: the rest waited in TCP"
    slow_down = [line for line in flood.lines if line.endswith("slow down")]
    assert slow_down == ["error too many lines: at most 20 a second; slow down"], "told once"


def test_a_flood_is_closed_on_time_though_the_server_wakes_late(
    web_device: WebDevice, clients: list[WsClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hal.web_server.PUSH_WINDOW_S", 0.3)  # longer than a stall's round
    flood = connect(web_device, clients)
    loop = web_device.server._loop

    def stall() -> None:  # a collector's pause, a loaded Pi: the reader wakes a token late
        time.sleep(0.12)

    def stalls() -> None:
        while not flood.closed.wait(0.1):
            loop.call_soon_threadsafe(stall)

    stalling = threading.Thread(target=stalls, daemon=True)
    stalling.start()
    flood.send_all([f"ping {index}" for index in range(2000)])
    assert flood.closed.wait(10), "late wake-ups do not start the window again"
    stalling.join(5)
    assert flood.lines[-1] == "error too many lines: over 20 a second for 0.3 s; closing"
    slow_down = [line for line in flood.lines if line.endswith("slow down")]
    assert len(slow_down) == 1, "one push, told once"


def test_a_flood_is_parsed_only_a_little_ahead_of_its_reader(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    flood = connect(web_device, clients)
    flood.send_all([f"ping {index}" for index in range(8000)])  # 96 KB: all sent at once
    flood.wait_for(lambda line: line == f"pong {int(RATE_BURST) + 5}")  # its burst was read
    queued = sum(isinstance(found, aiohttp.WSMessage) for found in gc.get_objects())
    assert queued < 400, "parsed ahead: a page's few hundred, not thousands (aiohttp's own)"


def test_the_size_limit_is_over_4_kib(web_device: WebDevice, clients: list[WsClient]) -> None:
    exact = connect(web_device, clients)
    answer = exact.command("x" * MAX_MESSAGE, "ok")
    assert answer.startswith("error line too long"), "4096 bytes are a (too long) line"
    assert exact.command("ping still", "pong") == "pong still"
    over = connect(web_device, clients)
    over.send("x" * (MAX_MESSAGE + 1))
    assert over.closed.wait(5) and over.close_code == 1009


def test_unpaired_pages_are_answered_while_the_main_loop_is_busy(
    web_device: WebDevice, clients: list[WsClient]
) -> None:
    watcher = connect(web_device, clients)
    release = threading.Event()
    blocked = threading.Event()

    def hold_the_loop() -> None:
        blocked.set()
        release.wait(10)

    web_device.device.loop.call_soon(hold_the_loop)
    assert blocked.wait(5)
    try:
        # Nothing of this may wait for the main loop: it is answered from the snapshot.
        assert watcher.command("state", "state").startswith("state ")
        assert watcher.command("frames on", "ok frames") == "ok frames on"
        watcher.wait_for(lambda line: line.startswith("frame "), timeout=2)
        assert watcher.command("hello", "hello").startswith("hello schockbesteck 2 ")
        assert watcher.command("log", "log").startswith(("log ", "error log: no game"))
        assert watcher.command("ping busy", "pong") == "pong busy"
        assert "wrong PIN" in watcher.command("pair 123456", "ok")
        assert "needs pairing" in watcher.command("press stand", "ok")
    finally:
        release.set()


def test_pairing_has_its_own_way_in_when_the_crowd_has_used_its_budget(
    web_device: WebDevice, clients: list[WsClient], mocker: Any
) -> None:
    """The crowd's calls on the main loop used up for good: a right PIN still pairs on the
    first try, and the phone reloaded pairs with its token, its questions answered after it."""
    table = web_device.device.web
    assert table is not None
    refused = mocker.patch.object(table.budget, "loop_call", return_value=False)
    watcher = connect(web_device, clients)
    assert watcher.command("spieltag", "spieltag").startswith("error busy"), "the crowd's way"
    person = connect(web_device, clients)
    token = person.command(f"pair {web_device.show_pin()}", "ok pair").split()[2]
    reloaded = connect(web_device, clients)
    start = len(reloaded.lines)
    for line in (f"auth {token}", "frames on", "log", "spieltag"):  # as the page does
        reloaded.send(line)
    reloaded.wait_for(lambda line: line.startswith("spieltag "), start=start)
    answers = reloaded.lines[start:]
    assert answers[0] == "ok auth" and not [line for line in answers if "busy" in line]
    assert refused.call_count == 1, "only the watcher's question asked the crowd's budget"


#: A WebSocket handshake without a browser, for frames written by hand.
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def masked(opcode: int, payload: bytes, first: int = 0x80) -> bytes:
    """A client's WebSocket frame (``first``: FIN and the reserved bits), masked by zeros."""
    return bytes([first | opcode, 0x80 | len(payload), 0, 0, 0, 0]) + payload


#: What a script can send that no client should: bad HTTP, and bad frames after a handshake.
BAD_INPUT = [
    [b"GARBAGE\r\n\r\n"],
    [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n"],
    [b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"x" * 10_000 + b"\r\n\r\n"],
    [b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"a" * 50],  # TLS on plain HTTP
    [HANDSHAKE, masked(1, b"hi", first=0xC0)],  # a reserved bit
    [HANDSHAKE, masked(1, b"\xff\xfe")],  # text that is not UTF-8
    [HANDSHAKE, masked(3, b"x")],  # an opcode that does not exist
    [HANDSHAKE, masked(0, b"x")],  # a continuation of nothing
    [HANDSHAKE, masked(8, b"\x03")],  # a close with half a code
    [HANDSHAKE, masked(1, b'setup {"players": ['), masked(1, b"setup " + b"[" * 110)],  # bad JSON
]


def test_a_flood_is_held_back_by_tcp_not_read_and_dropped() -> None:
    """A script writing as fast as its socket takes: the server reads it at the rate only, its
    buffers fill, and the kernel stops the sender (its socket refuses more bytes)."""
    read: list[bytes] = []
    server = WebServer("127.0.0.1", 0, {"/": ("text/plain", b"hi")})
    try:
        server.start(lambda link: link.start(read.append, lambda: None), lambda link: None)
        with socket.create_connection(server.address, timeout=5) as client:
            client.sendall(HANDSHAKE)
            assert client.recv(4096).startswith(b"HTTP/1.1 101")
            client.setblocking(False)
            flood, pushed, stopped = masked(1, b"ping x") * 4096, 0, 0
            deadline = time.monotonic() + 20  # a bound on a broken server, not a time target
            while stopped < 20 and time.monotonic() < deadline:
                try:
                    pushed += client.send(flood)
                    stopped = 0
                except BlockingIOError:  # the kernel's buffers are full: TCP holds it back
                    stopped += 1
                    time.sleep(0.01)
            assert stopped == 20, "the sender was stopped"
    finally:
        server.close()
    frames = pushed // len(masked(1, b"ping x"))
    assert len(read) < frames / 100, (len(read), frames)
    assert set(read) == {b"ping x"}, "what was read was handed on whole"


def test_nothing_a_client_sends_is_a_traceback_and_the_log_says_it_once(
    caplog: pytest.LogCaptureFixture, mocker: Any
) -> None:
    """Each kind of bad input five times over: answered or closed, and logged once (one line,
    no traceback), however often it comes."""
    mocker.patch.object(web_server, "QUIET", QuietLog(web_server.logger))
    server = WebServer("127.0.0.1", 0, {"/": ("text/plain", b"hi")})
    try:
        server.start(lambda link: link.start(lambda raw: None, lambda: None), lambda link: None)
        with caplog.at_level("DEBUG"):
            for parts in BAD_INPUT * 5:
                with socket.create_connection(server.address, timeout=5) as client:
                    for part in parts:
                        client.sendall(part)
                    client.shutdown(socket.SHUT_WR)
                    while client.recv(4096):  # until the server closes
                        pass
    finally:
        server.close()
    assert [record for record in caplog.records if record.exc_info] == []
    messages = [record.getMessage() for record in caplog.records]
    assert all("\n" not in message for message in messages), messages
    assert 1 <= len(messages) <= 4, messages  # a kind of bad request once, however often


@pytest.mark.slow
def test_a_crowd_of_unpaired_pages_does_not_stall_a_paired_one() -> None:
    """199 unpaired pages at their limits (``frames on``, ``log``, ``hello``) beside a paired
    page that pings and plays, as ``schocken bench`` runs them (sim/bench/web.py): every pong
    and every frame of the paired page arrives, and the crowd is told ``busy`` instead of
    queueing work. The times are the bench's figures (docs/performance.md), not asserted."""
    from sim.bench.web import CROWD_PAGES, measure_crowd

    figures = measure_crowd(10.0, CROWD_PAGES)
    assert figures["pages"] == CROWD_PAGES, "every page was served at once"
    assert figures["pings"] >= 90 and figures["lost_pongs"] == 0, figures
    assert figures["oled_samples"] >= 15, "each shake and press showed on the paired page"
    assert figures["crowd_sent"] > 150 * 19 * 8, "the crowd sent at its limits"
    assert figures["crowd_busy"] > 0 and figures["budget_refused"] > 0, "and was refused"


@pytest.mark.slow
def test_a_person_pairs_on_the_first_tap_under_a_crowd() -> None:
    """100 unpaired pages asking ``spieltag`` (which only the main loop answers) at their
    limit, as ``schocken bench`` runs them: a person pairs on the first tap ten times of ten,
    and each reload pairs again with its token."""
    from sim.bench.web import measure_pairing

    figures = measure_pairing(10, 100)
    assert figures["first_tap"] == 10 and figures["reloads_paired"] == 10, figures
    assert figures["budget_refused"] > 0, "the crowd had used its budget"


def test_a_slow_request_is_timed_out_and_one_address_cannot_hold_every_socket(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, mocker: Any
) -> None:
    """Half-sent requests (a byte now and then) are closed at the headers' deadline, and one
    address holds a few sockets at most: beyond them a connection is reset as it comes, with
    one line in the log, while a phone elsewhere is served."""
    mocker.patch.object(web_server, "QUIET", QuietLog(web_server.logger))
    monkeypatch.setattr("hal.web_server.REQUEST_DEADLINE_S", 0.5)  # 5 s on the device
    monkeypatch.setattr("hal.web_server.MAX_OPEN_PER_ADDRESS", 3)
    server = WebServer("127.0.0.1", 0, {"/": ("text/plain", b"hi")})
    slow = []
    try:
        server.start(lambda link: None, lambda link: None)
        with caplog.at_level("INFO"):
            for _ in range(13):
                client = socket.create_connection(server.address, timeout=5,
                                                  source_address=("127.0.0.2", 0))
                client.sendall(b"GET / HTTP/1.1\r\nHo")
                slow.append(client)
            with urllib.request.urlopen(f"http://127.0.0.1:{server.address[1]}/",
                                        timeout=5) as answer:
                assert answer.read() == b"hi", "another address is served"
            closed = 0
            for client in slow:  # each is closed by the server: reset at once, or timed out
                with contextlib.suppress(ConnectionResetError):
                    while client.recv(4096):
                        pass
                closed += 1
        assert closed == 13
        assert [record.getMessage()[:40] for record in caplog.records] == [
            "web: 3 connections open, 3 from 127.0.0."
        ], "ten resets, one line"
    finally:
        for client in slow:
            client.close()
        server.close()
