"""Shared pieces for the firmware tests: scripted dice, input events, a device on mock pins."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hal.ports import Button, InputEvent, InputKind
from sim.fakes import FakeClock


class ScriptedDice:
    """Dice that come out as listed (then from a fallback sequence), to set up exact positions."""

    def __init__(self, throws: Iterable[Iterable[int]], fallback: Iterable[int] = (2, 3, 5, 4, 6)):
        self._throws = [tuple(t) for t in throws]
        self._fallback = _cycle(tuple(fallback))
        self.asked: list[int] = []

    def throw(self, count: int) -> tuple[int, ...]:
        self.asked.append(count)
        if self._throws:
            dice = self._throws.pop(0)
            assert len(dice) == count, f"the script has {dice} where {count} dice are thrown"
            return dice
        return tuple(next(self._fallback) for _ in range(count))


def _cycle(values: tuple[int, ...]) -> Iterator[int]:
    while True:
        yield from values


class Inputs:
    """Decoded inputs for DeviceApp.handle, stamped on a fake clock."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock

    def _at(self) -> float:
        return self.clock.advance(0.5)

    def press(self, button: Button) -> InputEvent:
        return InputEvent(InputKind.PRESS, self._at(), button)

    def hold(self, button: Button) -> InputEvent:
        return InputEvent(InputKind.LONG_PRESS, self._at(), button)

    def shake(self) -> InputEvent:
        return InputEvent(InputKind.SHAKE_START, self._at())

    def throw(self) -> InputEvent:
        return InputEvent(InputKind.THROW, self._at())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def inputs(clock: FakeClock) -> Inputs:
    return Inputs(clock)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous
