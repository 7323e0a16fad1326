"""The main loop on the real clock: posting from other threads, blocking when idle, stopping."""

from __future__ import annotations

import threading
import time

from luma.core.device import dummy

from engine import GameSetup
from firmware.app.device import DeviceApp
from firmware.dice import SeededDice
from firmware.loop import MainLoop
from firmware.screen.views import RollOffView
from hal.clock import MonotonicClock
from hal.inputs import InputDecoder
from hal.oled import ResilientDisplay
from hal.ports import Button, Edge, EdgeSource, InputKind
from tests.harness import make_app


class CountingLoop(MainLoop):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.polls = 0

    def _poll(self, timeout: float | None) -> Edge | None:
        self.polls += 1
        return super()._poll(timeout)


def make_loop() -> tuple[CountingLoop, DeviceApp, dummy]:
    clock = MonotonicClock()
    app = make_app(clock=clock, dice=SeededDice(1), setup=GameSetup(("Anna", "Ben")))
    panel = dummy(width=128, height=64, mode="1")
    loop = CountingLoop(
        app, clock=clock, inputs=[], decoder=InputDecoder(), display=ResilientDisplay(panel, clock)
    )
    return loop, app, panel


def test_an_idle_loop_blocks_without_polling_and_stops_at_once() -> None:
    loop, app, panel = make_loop()
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    time.sleep(0.3)
    assert loop.polls == 1  # one blocking wait, no busy polling
    assert panel.image.tobytes() == app.screen().tobytes()
    started = time.monotonic()
    loop.stop()
    thread.join(2)
    assert not thread.is_alive() and time.monotonic() - started < 0.5


def test_edges_posted_from_another_thread_reach_the_app() -> None:
    loop, app, panel = make_loop()
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    now = loop.clock.now()
    loop.post(Edge(EdgeSource.BUTTON, True, now, Button.STAND))
    loop.post(Edge(EdgeSource.BUTTON, False, now + 0.1, Button.STAND))
    deadline = time.monotonic() + 2
    while app.view.rows == () and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.01)
    loop.stop()
    thread.join(2)
    view = app.view
    assert isinstance(view, RollOffView) and len(view.rows) == 2  # STAND rolled off
    assert panel.image.tobytes() == app.screen().tobytes()


def test_call_soon_runs_on_the_loop_thread() -> None:
    loop, _, _ = make_loop()
    seen: list[str] = []
    thread = threading.Thread(target=loop.run, daemon=True, name="main-loop")
    thread.start()
    loop.call_soon(lambda: seen.append(threading.current_thread().name))
    loop.stop()
    thread.join(2)
    assert seen == ["main-loop"]


def test_decoded_kinds_are_the_ports() -> None:
    assert {kind.value for kind in InputKind} == {"press", "long_press", "shake_start", "throw"}
