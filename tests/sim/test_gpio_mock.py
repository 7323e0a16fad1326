"""--gpio-mock: keys drive gpiozero MockFactory pins, and the device's GPIO backend reads them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hal.gpio import GpioPins
from hal.ports import Button, Edge, EdgeSource, InputKind
from sim.controls import Shaker
from sim.fakes import FakeClock
from sim.gpio_mock import MockPinHands
from tests.sim.conftest import decode


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(50.0)


@pytest.fixture
def hands(clock: FakeClock) -> Iterator[MockPinHands]:
    pins = GpioPins(keep1=5, keep2=6, keep3=13, flip=19, stand=26, tilt=21)
    hands = MockPinHands(clock, pins, pin_factory=MockFactory())
    yield hands
    hands.close()


def test_a_key_pulls_the_configured_pin_low_and_the_gpio_backend_reports_it(
    hands: MockPinHands, clock: FakeClock
) -> None:
    edges: list[Edge] = []
    hands.start(edges.append)
    hands.press(Button.FLIP)
    assert hands.pin_factory.pin(19).state is False  # shorted to ground
    clock.advance(0.1)
    hands.release(Button.FLIP)
    assert hands.pin_factory.pin(19).state is True
    assert edges == [
        Edge(EdgeSource.BUTTON, True, 50.0, Button.FLIP),
        Edge(EdgeSource.BUTTON, False, 50.1, Button.FLIP),
    ]
    assert [(e.kind, e.button) for e in decode(edges, 51.0, FakeClock(50.0))] == [
        (InputKind.PRESS, Button.FLIP)
    ]


def test_shaking_rattles_the_tilt_pin_into_a_throw(hands: MockPinHands, clock: FakeClock) -> None:
    edges: list[Edge] = []
    hands.start(edges.append)
    shaker = Shaker(hands)
    shaker.start(clock.now())
    while clock.now() < 50.6:
        clock.advance(0.01)
        shaker.tick(clock.now())
    shaker.stop()
    assert len(edges) >= 10 and all(edge.source is EdgeSource.TILT for edge in edges)
    kinds = [e.kind for e in decode(edges, 52.0, FakeClock(50.0))]
    assert kinds == [InputKind.SHAKE_START, InputKind.THROW]


def test_close_releases_every_pin(clock: FakeClock) -> None:
    factory = MockFactory()
    MockPinHands(clock, pin_factory=factory).close()
    again = MockPinHands(clock, pin_factory=factory)  # no GPIOPinInUse: the pins were freed
    again.close()
