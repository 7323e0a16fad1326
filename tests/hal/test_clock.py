"""The real monotonic clock's wait on a real queue, and the fake clock's jumps."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

import pytest

from hal.clock import MonotonicClock
from hal.ports import Edge, EdgeSource
from sim.fakes import FakeClock

Poll = Callable[[float | None], Edge | None]


def queue_poll(edges: queue.Queue[Edge]) -> tuple[list[float | None], Poll]:
    """A poll over ``edges`` that records the timeouts it was asked for."""
    timeouts: list[float | None] = []

    def poll(timeout: float | None) -> Edge | None:
        timeouts.append(timeout)
        try:
            return edges.get(timeout=timeout)
        except queue.Empty:
            return None

    return timeouts, poll


def test_monotonic_wait_returns_an_edge_put_by_another_thread() -> None:
    clock = MonotonicClock()
    edges: queue.Queue[Edge] = queue.Queue()
    edge = Edge(EdgeSource.TILT, True, clock.now())
    timer = threading.Timer(0.01, edges.put, args=(edge,))
    timer.start()
    _, poll = queue_poll(edges)
    assert clock.wait(None, poll) is edge
    timer.join()


def test_monotonic_wait_blocks_until_the_deadline_with_the_remaining_time() -> None:
    clock = MonotonicClock()
    timeouts, poll = queue_poll(queue.Queue())
    deadline = clock.now() + 0.02
    assert clock.wait(deadline, poll) is None
    assert time.monotonic() >= deadline
    assert timeouts[0] is not None and 0 < timeouts[0] <= 0.02


def test_monotonic_wait_retries_when_poll_returns_early() -> None:
    clock = MonotonicClock()
    calls: list[float | None] = []

    def impatient_poll(timeout: float | None) -> Edge | None:
        calls.append(timeout)
        return None  # gives up at once, as a spurious wake-up would

    deadline = clock.now() + 0.01
    assert clock.wait(deadline, impatient_poll) is None
    assert time.monotonic() >= deadline
    assert len(calls) > 1


def test_monotonic_wait_with_a_past_deadline_polls_without_blocking() -> None:
    clock = MonotonicClock()
    timeouts, poll = queue_poll(queue.Queue())
    assert clock.wait(clock.now() - 1.0, poll) is None
    assert timeouts == [0.0]


def test_fake_clock_jumps_to_the_deadline_when_nothing_is_queued() -> None:
    clock = FakeClock(10.0)
    assert clock.wait(12.5, lambda timeout: None) is None
    assert clock.now() == 12.5
    assert clock.wait(11.0, lambda timeout: None) is None  # never backwards
    assert clock.now() == 12.5
    assert clock.wait(None, lambda timeout: None) is None
    assert clock.now() == 12.5


def test_fake_clock_takes_a_queued_edge_without_moving_past_it() -> None:
    clock = FakeClock()
    edge = Edge(EdgeSource.TILT, True, 0.0)
    polled: list[float | None] = []

    def poll(timeout: float | None) -> Edge | None:
        polled.append(timeout)
        return edge

    assert clock.wait(5.0, poll) is edge
    assert polled == [0]
    assert clock.now() == 0.0


def test_fake_clock_holds_back_an_edge_from_after_the_deadline() -> None:
    clock = FakeClock()
    edges = [Edge(EdgeSource.TILT, True, 3.0)]

    def poll(timeout: float | None) -> Edge | None:
        return edges.pop(0) if edges else None

    assert clock.wait(1.0, poll) is None
    assert clock.now() == 1.0
    assert clock.wait(None, poll) is not None
    assert clock.now() == 3.0


def test_fake_clock_advance_and_set() -> None:
    clock = FakeClock()
    assert clock.advance(0.5) == 0.5
    clock.set(2.0)
    assert clock.now() == 2.0
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="backwards"):
        clock.set(1.0)
