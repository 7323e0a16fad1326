"""The phones' and the TV's event stream (hal/hub_server.py with firmware/hub/view_changes.py's
feed, as `schocken hub serve` pushes): the whole state on connect, then only the changes,
gzipped once for all; a phone rebuilds exactly the TV's state; a reconnect gets what it
missed; a watcher too far behind gets the whole state; 201 watchers at once (600 in the slow
selection)."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import http.client
import itertools
import json
import logging
import resource
import selectors
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.hub.store import SeatRow
from firmware.hub.view_changes import ViewFeed
from firmware.wire.messages import result_topic
from hal import hub_server
from hal.hub_server import HISTORY, HubServer
from sim.bench.phones import EventStream, ServerEvent, WatchedState
from tests.hub.helpers import EVENT, game_result, running_round, tournament


class Watcher:
    """A page on ``/events``: its socket, what it got, the state it keeps."""

    def __init__(
        self, address: tuple[str, int], gzip: bool, last_id: str = "", receive_buffer: int = 0
    ) -> None:
        self.socket = socket.socket()
        if receive_buffer:  # a phone on a poor link
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.socket.settimeout(5)
        self.socket.connect(address)
        headers = "Accept-Encoding: gzip, deflate, br\r\n" if gzip else ""
        headers += f"Last-Event-ID: {last_id}\r\n" if last_id else ""
        self.socket.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        self.head = b""
        self.stream: EventStream | None = None
        self.events: list[ServerEvent] = []
        self.watched = WatchedState()
        self.bytes = 0

    def read(self, until: int = 1, timeout: float = 5.0) -> list[ServerEvent]:
        """Read until ``until`` events in all came (or the stream ended); every event so far."""
        deadline = time.monotonic() + timeout
        while len(self.events) < until and time.monotonic() < deadline:
            data = self.socket.recv(1 << 16)
            if not data:
                break
            self.take(data)
        return self.events

    def take(self, data: bytes) -> None:
        if self.stream is None:
            self.head += data
            head, found, rest = self.head.partition(b"\r\n\r\n")
            if not found:
                return
            lower = head.lower()
            self.head = head
            self.stream = EventStream(b"chunked" in lower, b"content-encoding: gzip" in lower)
            data = rest
        self.bytes += len(data)
        for event in self.stream.feed(data):
            self.events.append(event)
            self.watched.take(event)

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[Hub, list[SeatRow], HubServer, ViewFeed]]:
    hub = tournament(tmp_path / "t.db", 16, teams=4)
    tables = running_round(hub, now=time.time())
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time))
    feed = ViewFeed()
    server.push(*feed.next(hub.view(time.time()).to_json()))
    try:
        yield hub, tables, server, feed
    finally:
        server.close()


def report(hub: Hub, table: SeatRow, game: int, loser: int, feed: ViewFeed,
           server: HubServer) -> dict[str, object]:  # fmt: skip
    """A table's game result into the hub, pushed as `hub serve` pushes; the state it made."""
    topic = result_topic(EVENT, f"table-{table.table_no}")
    hub.receive(topic, game_result(table, game, loser).to_json(), float(game))
    whole, changes = feed.next(hub.view(time.time()).to_json())
    server.push(whole, changes)
    state: dict[str, object] = json.loads(whole)
    return state


def test_a_phone_rebuilds_from_the_changes_exactly_the_state_the_tv_shows(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    hub, tables, server, feed = hall
    phone, tv = Watcher(server.address, gzip=True), Watcher(server.address, gzip=False)
    try:
        first = phone.read()[0]
        assert first.kind == "message" and tv.read()[0].kind == "message"
        assert phone.head.lower().count(b"content-encoding: gzip") == 1
        assert b"content-encoding" not in tv.head.lower()
        expected: dict[str, object] = {}
        # Losers from the field's top and bottom: players climb and fall past each other.
        for game, (index, loser) in enumerate([(0, 0), (1, 3), (2, 1), (0, 2), (3, 0), (1, 0),
                                               (2, 3), (3, 2)], start=1):  # fmt: skip
            expected = report(hub, tables[index], game, loser, feed, server)
            phone.read(until=game + 1)
            tv.read(until=game + 1)
            assert phone.watched.state == expected == tv.watched.state
        assert [event.kind for event in phone.events[1:]] == ["changes"] * 8
        whole = len(json.dumps(expected, separators=(",", ":")))
        assert max(len(event.data) for event in phone.events[1:]) < whole / 2
        assert [event.ident for event in phone.events] == [event.ident for event in tv.events]
    finally:
        phone.close()
        tv.close()


def test_a_browser_that_reconnects_gets_only_the_changes_it_missed(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    hub, tables, server, feed = hall
    before = Watcher(server.address, gzip=True)
    event = before.read()[0]
    before.close()
    state = json.loads(event.data)
    expected = {}
    for game in range(1, 3):
        expected = report(hub, tables[game % 4], game, game % 3, feed, server)
    again = Watcher(server.address, gzip=True, last_id=event.ident)
    again.watched.state = state
    try:
        events = again.read(until=2)
        assert [e.kind for e in events] == ["changes"] * 2
        assert again.watched.state == expected
    finally:
        again.close()


def test_a_watcher_further_behind_than_the_history_or_of_another_run_gets_the_whole_state(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    hub, tables, server, feed = hall
    old = Watcher(server.address, gzip=False)
    ident = old.read()[0].ident
    old.close()
    expected = {}
    for game in range(1, HISTORY + 3):
        expected = report(hub, tables[game % 4], game, game % 4, feed, server)
    epoch = ident.split("-")[0]
    for last_id in (ident, f"{epoch}-999999", "0000-1", "nonsense", f"{epoch}-{'9' * 5000}",
                    f"{epoch}-١٢", f"{epoch}--1"):  # fmt: skip
        late = Watcher(server.address, gzip=False, last_id=last_id)
        try:
            events = late.read()
            assert [e.kind for e in events] == ["message"] and late.watched.state == expected
        finally:
            late.close()


def test_watchers_past_the_cap_are_told_so_and_a_closed_one_frees_its_place(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed], mocker: MockerFixture
) -> None:
    _hub, _tables, server, _feed = hall
    mocker.patch.object(hub_server, "MAX_WATCHERS", 2)
    first, second = Watcher(server.address, True), Watcher(server.address, True)
    first.read(), second.read()
    third = Watcher(server.address, True)
    assert third.socket.recv(200).startswith(b"HTTP/1.1 503")
    third.close()
    first.close()
    deadline = time.monotonic() + 5
    while server.watchers > 1 and time.monotonic() < deadline:
        time.sleep(0.01)  # the server notices the closed socket on its own thread
    fourth = Watcher(server.address, True)
    try:
        assert fourth.read()[0].kind == "message"
    finally:
        second.close()
        fourth.close()


def watch_many(server: HubServer, count: int, push: dict[str, object], feed: ViewFeed) -> None:
    """``count`` phones at once on the stream: each gets the state, then one change."""
    watchers = [Watcher(server.address, gzip=True) for _ in range(count)]
    selector = selectors.DefaultSelector()
    try:
        for watcher in watchers:
            watcher.socket.setblocking(False)
            selector.register(watcher.socket, selectors.EVENT_READ, watcher)

        def pump(events: int) -> None:
            deadline = time.monotonic() + 60
            while any(len(w.events) < events for w in watchers) and time.monotonic() < deadline:
                for key, _mask in selector.select(timeout=1):
                    watcher = key.data
                    data = watcher.socket.recv(1 << 16)
                    if data:
                        watcher.take(data)

        pump(1)
        assert server.watchers == count
        server.push(*feed.next(push))
        pump(2)
        assert all(w.watched.state == push for w in watchers)
        assert {w.events[1].kind for w in watchers} == {"changes"}
    finally:
        selector.close()
        for watcher in watchers:
            watcher.close()


def test_a_two_hundred_and_first_phone_is_served(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    """The short form of the 600 below (the stream used to stop at 200)."""
    hub, tables, server, feed = hall
    topic = result_topic(EVENT, f"table-{tables[0].table_no}")
    hub.receive(topic, game_result(tables[0], 1).to_json(), 1.0)
    watch_many(server, 201, hub.view(time.time()).to_json(), feed)


@pytest.mark.slow
def test_six_hundred_phones_are_served(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    hub, tables, server, feed = hall
    topic = result_topic(EVENT, f"table-{tables[0].table_no}")
    hub.receive(topic, game_result(tables[0], 1).to_json(), 1.0)
    watch_many(server, 600, hub.view(time.time()).to_json(), feed)


def test_a_watcher_that_reads_nothing_for_a_while_gets_the_newest_state_not_a_backlog(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    _hub, _tables, server, _feed = hall
    slow = Watcher(server.address, gzip=False, receive_buffer=4096)
    states = 60
    filler = "x" * 60_000  # each state whole (no changes): 60 of them are 3.6 MB
    try:
        deadline = time.monotonic() + 5
        while server.watchers < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        first = server.version
        for n in range(states):
            server.push(json.dumps({"n": n, "filler": filler}).encode())
        while server.version < first + states and time.monotonic() < deadline:
            time.sleep(0.01)
        while not slow.watched.state or slow.watched.state.get("n") != states - 1:
            data = slow.socket.recv(1 << 16)
            assert data, "the stream ended"
            slow.take(data)
        assert len(slow.events) < states / 4  # what it missed was skipped, not queued
        assert slow.bytes < states * len(filler) / 4
    finally:
        slow.close()


def test_a_watcher_that_reads_nothing_for_the_write_timeout_loses_its_stream_and_place(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
    mocker: MockerFixture,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _hub, _tables, server, _feed = hall
    mocker.patch.object(hub_server, "WRITE_TIMEOUT_S", 0.3)
    gone = Watcher(server.address, gzip=False, receive_buffer=4096)  # a phone left the hall
    try:
        deadline = time.monotonic() + 10
        while server.watchers < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        # States of 100 kB until its buffers (the socket's and the transport's) are full and a
        # write waits: a busy server sends only the newest of those pushed meanwhile, so a fixed
        # number of pushes may all fit.
        n = 0
        while server.watchers and time.monotonic() < deadline:
            server.push(json.dumps({"n": n, "filler": "x" * 100_000}).encode())
            n += 1
            time.sleep(0.05)
        assert server.watchers == 0
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        gone.close()


def test_the_pages_come_gzipped_and_the_process_may_open_a_socket_per_watcher(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed],
) -> None:
    _hub, _tables, server, _feed = hall
    connection = http.client.HTTPConnection(*server.address, timeout=5)
    connection.request("GET", "/phone", headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    body = response.read()
    assert response.getheader("Content-Encoding") == "gzip"
    page = gzip.decompress(body).decode()
    assert "const FIRST = " in page and len(body) < len(page) / 3
    connection.close()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hub_server.MAX_WATCHERS + hub_server.SPARE_DESCRIPTORS
    assert soft == resource.RLIM_INFINITY or soft >= min(wanted, hard)


def _raw(watcher: Watcher, seconds: float, push: Callable[[], None] | None = None) -> bytes:
    """What ``watcher``'s socket gets in ``seconds`` (calling ``push`` every 50 ms meanwhile)."""
    got = b""
    watcher.socket.settimeout(0.05)
    deadline = time.monotonic() + seconds
    pushed_at = 0.0
    while time.monotonic() < deadline:
        if push is not None and time.monotonic() >= pushed_at + 0.05:
            pushed_at = time.monotonic()
            push()
        with contextlib.suppress(TimeoutError):
            got += watcher.socket.recv(1 << 16)
    return got


def test_a_quiet_stream_gets_a_keepalive_every_keepalive_s_and_a_busy_one_none(
    mocker: MockerFixture,
) -> None:
    mocker.patch.object(hub_server, "KEEPALIVE_S", 0.2)
    server = HubServer("127.0.0.1", 0, {})
    server.push(b'{"n": 0}')
    quiet = Watcher(server.address, gzip=False)
    busy: Watcher | None = None
    try:
        assert _raw(quiet, 1.1).count(b": keepalive\n\n") in range(4, 7)  # 5 ticks in 1.1 s
        pushed = itertools.count(1)
        server.push(json.dumps({"n": next(pushed)}).encode())
        busy = Watcher(server.address, gzip=False)
        got = _raw(busy, 1.1, lambda: server.push(json.dumps({"n": next(pushed)}).encode()))
        assert got.count(b"data: ") > 10 and b"keepalive" not in got
    finally:
        quiet.close()
        if busy is not None:
            busy.close()
        server.close()


def test_writes_to_watchers_that_keep_up_set_no_timer_each(
    hall: tuple[Hub, list[SeatRow], HubServer, ViewFeed], mocker: MockerFixture
) -> None:
    """A timer per write and per wait was a third of the server's time with 600 phones: only a
    write that could wait for its watcher (its transport near full) sets one."""
    _hub, _tables, server, _feed = hall
    watchers = [Watcher(server.address, gzip=index % 2 == 0) for index in range(10)]
    try:
        for watcher in watchers:
            watcher.read()
        timers = mocker.spy(asyncio, "timeout")
        for n in range(30):
            server.push(json.dumps({"n": n}).encode(), json.dumps({"n": n}).encode())
            for watcher in watchers:
                watcher.read(until=n + 2)
        assert all(w.watched.state == {"n": 29} for w in watchers)
        assert timers.call_count < 10  # 600 before: a write and a wait of 10 watchers, 30 times
    finally:
        for watcher in watchers:
            watcher.close()
