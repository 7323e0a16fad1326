"""No die under the cup crosses the page's WebSocket, whatever the page sends, and an unpaired
page changes nothing.

A whole game is played on the device as ``schocken run`` builds it (``build_device`` with a
real :class:`~hal.web_server.WebServer` on 127.0.0.1), by a person and two computer players,
under rules that keep the last throw hidden. The test's thread is the main loop (on a fake
clock, so the game goes the same way every time); a hostile page on a real socket keeps sending
every command there is, well-formed or not, and keeps every line it gets. The app's own event
stream (the journal's) has every die: it is the reference for what must stay covered, and a
second run of the same game without the page shows that the page changed nothing.
"""

from __future__ import annotations

import base64
import json
import threading
import zlib
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.events import TurnOver, to_json
from firmware.config import DeviceConfig, GameConfig
from firmware.dice import SeededDice
from firmware.link.webtable import page_files
from firmware.sink import DeviceEvent
from hal.ports import Button, InputEvent, InputKind
from hal.web_server import WebServer
from sim.fakes import FakeClock
from tests.harness import build_test_device

from .conftest import WsClient

#: What a hostile page sends, over and over: every command, with and without sense.
HOSTILE = (
    "press stand", "shake", "hold flip", "press keep1", "frames on", "state", "log", "log 3",
    'setup {"players": ["Mallory", "Eve"]}', "pair 000000", "auth " + "f" * 32, "stats",
    "frames off", "frames on", "hello", "frames on", "help", "press", "{\"event\": \"roll\"}",
    "state {}", "ok press", "\x00\x01", "log 99999",
)  # fmt: skip


def play(*, hostile: bool) -> tuple[list[DeviceEvent], list[str], set[bytes]]:
    """One whole game; the app's events in full, the page's lines, and every OLED image that
    showed more than the table's screen."""
    setup = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))
    assert setup.rules.hidden_last_throw
    config = DeviceConfig(game=GameConfig(bots=("", "odds", "threshold")))
    clock = FakeClock(100.0)
    server = WebServer("127.0.0.1", 0, page_files())
    events: list[DeviceEvent] = []
    device = build_test_device(
        config, clock=clock, web=server, dice=SeededDice(11), setup=setup,
        event_sink=events.append, power=False,
    )
    host, port = server.address
    private: set[bytes] = set()
    client: WsClient | None = None
    stop = threading.Event()
    done = threading.Event()
    sender: threading.Thread | None = None

    def serve() -> None:  # the main loop's turn: the page's commands, timers, the frame
        device.run(until=clock.now() + 0.001)

    try:
        device.loop.start()
        if hostile:
            client = WsClient(f"ws://{host}:{port}/ws")

            def harass() -> None:
                index = 0
                while not stop.is_set():
                    assert client is not None
                    client.send(HOSTILE[index % len(HOSTILE)])
                    index += 1
                    done.wait(0.002)

            while not client.lines:
                serve()
            sender = threading.Thread(target=harass, daemon=True)
            sender.start()
        app = device.app
        for step in range(4000):
            game = app.game
            if game is None or game.is_over:
                break
            if app.next_deadline() is not None:  # a computer player, or a screen going on
                clock.advance(2.0)
            elif step % 3 == 0:
                app.handle(InputEvent(InputKind.SHAKE_START, clock.advance(0.5)))
                app.handle(InputEvent(InputKind.THROW, clock.advance(0.5)))
            else:
                app.handle(InputEvent(InputKind.PRESS, clock.advance(0.5), Button.STAND))
            serve()
            if hostile:
                done.wait(0.003)  # the page gets its say between any two steps
            oled, table = app.screen().tobytes(), app.table_screen().tobytes()
            if oled != table:
                private.add(oled)
        game = app.game
        assert game is not None and game.is_over, "the game ran to its end"
        lines: list[str] = []
        if client is not None:
            stop.set()
            assert sender is not None
            sender.join(timeout=5)
            client.send("ping end")
            while not any(line == "pong end" for line in client.lines[-50:]):
                serve()
                done.wait(0.001)
            lines = list(client.lines)
        return events, lines, private
    finally:
        stop.set()
        if client is not None:
            client.close()
        device.close()


def payload(line: str) -> Any:
    return json.loads(line.split(" ", 1)[1])


def test_no_covered_die_crosses_the_socket_and_the_page_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The page may send as fast as it can: the rate limit has tests of its own.
    monkeypatch.setattr("hal.web_server.RATE_PER_S", 100_000.0)
    monkeypatch.setattr("hal.web_server.RATE_BURST", 100_000.0)
    # ... and try PINs and tokens without end: the lock-out has tests of its own too.
    monkeypatch.setattr("firmware.link.pairing.PIN_ATTEMPTS", 10**9)
    monkeypatch.setattr("firmware.link.pairing.ADDRESS_ATTEMPTS", 10**9)
    events, lines, private = play(hostile=True)
    reference, _, _ = play(hostile=False)
    assert events == reference, "the unpaired page changed nothing in the game"
    assert sum(1 for e in events if isinstance(e, TurnOver)) > 20

    refused = [line for line in lines if line.startswith("error ") and "needs pairing" in line]
    assert len(refused) > 30, "the page kept trying to press and set up"
    assert not any(line.startswith(("ok press", "ok shake", "ok hold", "ok setup", "ok pair"))
                   for line in lines)

    sent_events = [payload(line) for line in lines if line.startswith("event ")]
    logged = [json.loads(line) for line in lines if line.startswith("{")]
    states = [payload(line)["game"] for line in lines if line.startswith("state ")]
    assert len(sent_events) > 100 and logged and len(states) > 30
    for event in [*sent_events, *logged]:
        if event["event"] == "roll":
            assert event["dice"] is None, event
        elif event["event"] == "turn_over":
            shown = (event["dice"], event["name"], event["kind"], event["hand"])
            assert shown == (None, None, None, None), event  # the kind tells the throw too
    full_turns = [json.loads(json.dumps(to_json(e))) for e in events if isinstance(e, TurnOver)]
    revealed = [turn for e in sent_events if e["event"] == "round_over" for turn in e["turns"]]
    assert revealed and all(turn.pop("kind") for turn in revealed), "each names its kind"
    assert all(turn in full_turns for turn in revealed), "the reveal shows all"
    in_turn = [s for s in states if s and s["turn"] and s["turn"]["throws"]]
    assert in_turn
    for state in in_turn:
        turn = state["turn"]
        hidden = [v for v, out in zip(turn["dice"], turn["laid_out"], strict=True) if not out]
        assert all(value is None for value in hidden), state
        assert state["notation"] is None and state["can"] is None and turn["hand"] is None

    frames = [line.split(" ", 1)[1] for line in lines if line.startswith("frame ")]
    assert len(frames) > 20 and private, "the holder's screen showed what the table may not see"
    for frame in frames:
        assert zlib.decompress(base64.b64decode(frame)) not in private
