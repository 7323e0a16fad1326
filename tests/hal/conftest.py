"""Shared helpers for the hal tests: a main loop on a fake clock and edge builders."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from hal.inputs import InputDecoder
from hal.ports import Button, Edge, EdgeSource, InputEvent
from sim.fakes import FakeClock


def down(button: Button, at: float) -> Edge:
    """A button going down at ``at``."""
    return Edge(EdgeSource.BUTTON, True, at, button)


def up(button: Button, at: float) -> Edge:
    """A button coming up at ``at``."""
    return Edge(EdgeSource.BUTTON, False, at, button)


def tilt(*times: float) -> list[Edge]:
    """Tilt-switch edges at ``times``, alternating closed and open."""
    return [Edge(EdgeSource.TILT, index % 2 == 0, at) for index, at in enumerate(times)]


def run_main_loop(
    decoder: InputDecoder, clock: FakeClock, edges: Iterable[Edge], until: float
) -> list[tuple[float, InputEvent]]:
    """Run the firmware's loop shape until ``until``: wait, feed, advance.

    Returns (clock time when the event came out, event) pairs, so tests can check both when an
    event happened (``event.at``) and that the loop was woken for it in time (``next_deadline``).
    """
    queue = deque(sorted(edges, key=lambda edge: edge.at))

    def poll(timeout: float | None) -> Edge | None:
        return queue.popleft() if queue else None

    decoded: list[tuple[float, InputEvent]] = []
    while True:
        deadline = decoder.next_deadline()
        target = until if deadline is None else min(deadline, until)
        edge = clock.wait(target, poll)
        if edge is not None:
            decoder.feed(edge)
        decoded.extend((clock.now(), event) for event in decoder.advance(clock.now()))
        if edge is None and clock.now() >= until:
            return decoded
