"""The device's GPIO input code on a laptop: gpiozero's MockFactory pins driven by the keyboard.

With ``schocken sim --gpio-mock`` keys and clicks do not report edges themselves: they pull
gpiozero mock pins low (pressed, the button shorts the pulled-up pin to ground) and let them go
high again, and :class:`hal.gpio.GpioInput`, the backend that runs on the Pi, turns the pin
changes into edges. So the whole input path of the device (pin numbers from the config,
gpiozero's devices and callbacks, the decoder) is exercised on the desk.

gpiozero is imported when a :class:`MockPinHands` is made, never at import time.
"""

from __future__ import annotations

from typing import Any

from hal.gpio import GpioInput, GpioPins
from hal.ports import Button, Clock, EdgeSink

__all__ = ["MockPinHands"]


class MockPinHands:
    """:class:`~sim.controls.Hands` on gpiozero mock pins, and the input backend reading them.

    ``pin_factory`` defaults to a new ``gpiozero.pins.mock.MockFactory``; it is reset on
    :meth:`close`, releasing every pin.
    """

    def __init__(self, clock: Clock, pins: GpioPins | None = None, pin_factory: Any = None) -> None:
        if pin_factory is None:
            from gpiozero.pins.mock import MockFactory

            pin_factory = MockFactory()
        self.pin_factory = pin_factory
        self.gpio = GpioInput(clock, pins, pin_factory=pin_factory)
        self.pins = self.gpio.pins

    def start(self, sink: EdgeSink) -> None:
        """Let the GPIO backend report edges to ``sink``."""
        self.gpio.start(sink)

    def close(self) -> None:
        """Release the pins and reset the mock factory. Idempotent."""
        self.gpio.close()
        self.pin_factory.reset()

    def press(self, button: Button) -> None:
        """Short the button's pin to ground."""
        self.pin_factory.pin(self.pins.of(button)).drive_low()

    def release(self, button: Button) -> None:
        """Let the pull-up lift the button's pin again."""
        self.pin_factory.pin(self.pins.of(button)).drive_high()

    def tilt(self, closed: bool) -> None:
        """Roll the tilt switch's ball onto its contacts (closed: pin low) or off them."""
        pin = self.pin_factory.pin(self.pins.tilt)
        if closed:
            pin.drive_low()
        else:
            pin.drive_high()
