"""Shared helpers for the simulator tests: the decoder's main-loop shape on a fake clock."""

from __future__ import annotations

import os
from collections.abc import Iterable

from hal.inputs import InputDecoder, InputTiming
from hal.ports import Edge, InputEvent
from sim.fakes import FakeClock

# Every window test runs on SDL's dummy video driver: no display, no window on screen.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def decode(
    edges: Iterable[Edge],
    until: float,
    clock: FakeClock | None = None,
    timing: InputTiming | None = None,
) -> list[InputEvent]:
    """Feed ``edges`` through a real decoder as the firmware's loop does; the decoded events."""
    clock = clock if clock is not None else FakeClock()
    decoder = InputDecoder(timing)
    queue = sorted(edges, key=lambda edge: edge.at)

    def poll(timeout: float | None) -> Edge | None:
        return queue.pop(0) if queue else None

    events: list[InputEvent] = []
    while True:
        deadline = decoder.next_deadline()
        edge = clock.wait(until if deadline is None else min(deadline, until), poll)
        if edge is not None:
            decoder.feed(edge)
        events.extend(decoder.advance(clock.now()))
        if edge is None and clock.now() >= until:
            return events
