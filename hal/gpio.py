"""The GPIO input backend: five buttons and the tilt switch through gpiozero.

Every input connects its pin to ground and uses the internal pull-up. The devices report raw,
undebounced edges: gpiozero's callbacks only stamp an :class:`~hal.ports.Edge` with the clock and
hand it to the sink, which puts it on the main loop's queue. Debounce, long press and shake
detection happen in :class:`hal.inputs.InputDecoder` on the main loop (see there for why).

The buttons are gpiozero ``DigitalInputDevice`` objects rather than ``Button`` objects: ``Button``
is the same device plus ``HoldMixin``, whose hold thread wakes every 100 ms per button to serve
``when_held``, which we do not use (long press is decoded on the main loop). Five idle threads
polling ten times a second are wasted wake-ups on a Pi Zero, and each takes up to 100 ms to stop.

gpiozero is imported inside :class:`GpioInput` only, so this module (its pin table and wiring
description) also loads on a laptop without gpiozero.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from hal.ports import Button, Clock, Edge, EdgeSink, EdgeSource
from hal.settings import BUTTON_KEYS, GpioPins

__all__ = [
    "GROUND_HEADER_PINS",
    "HEADER_PIN_OF_BCM",
    "GpioError",
    "GpioInput",
    "GpioPins",
    "WiringRow",
    "describe_wiring",
    "format_wiring",
]

#: Header pin (physical, 1-40) of each BCM GPIO number on the 40-pin header.
HEADER_PIN_OF_BCM: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip

#: The header's ground pins.
GROUND_HEADER_PINS: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)

class GpioError(RuntimeError):
    """A pin cannot be claimed (no GPIO on this machine, pin busy, no permission)."""


class GpioInput:
    """The :class:`~hal.ports.InputBackend` of the device: five buttons and a tilt switch.

    ``pin_factory`` is passed to every device, as in gpiozero (None: gpiozero's default, which
    honours ``GPIOZERO_PIN_FACTORY``). Pins are claimed on construction; edges flow from
    :meth:`start` on, from whatever thread gpiozero calls back on.
    """

    def __init__(self, clock: Clock, pins: GpioPins | None = None, pin_factory: Any = None) -> None:
        from gpiozero import DigitalInputDevice, GPIOZeroError

        self.pins = pins if pins is not None else GpioPins()
        self._clock = clock
        self._sink: EdgeSink | None = None
        self._buttons: dict[Button, Any] = {}
        self._tilt: Any = None
        self._closed = False
        claiming = ""
        try:
            for button, key in BUTTON_KEYS.items():
                claiming = key
                # bounce_time stays None: the decoder debounces on the main loop's clock.
                self._buttons[button] = DigitalInputDevice(
                    self.pins.of(button), pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
            claiming = "tilt"
            # No bounce_time: the tilt switch's rattle is the signal the shake detector counts.
            self._tilt = DigitalInputDevice(
                self.pins.tilt, pull_up=True, bounce_time=None, pin_factory=pin_factory
            )
        except (GPIOZeroError, OSError) as error:
            self.close()
            pin = getattr(self.pins, claiming)
            raise GpioError(
                f"cannot use pins.{claiming} (BCM {pin}, header pin {HEADER_PIN_OF_BCM[pin]}): "
                f"{type(error).__name__}: {error}"
            ) from error

    def start(self, sink: EdgeSink) -> None:
        """Report every button and tilt edge to ``sink`` from now on."""
        if self._closed:
            raise GpioError("the GPIO input is closed")
        self._sink = sink
        for button, device in self._buttons.items():
            device.when_activated = self._reporter(EdgeSource.BUTTON, True, button)
            device.when_deactivated = self._reporter(EdgeSource.BUTTON, False, button)
        self._tilt.when_activated = self._reporter(EdgeSource.TILT, True, None)
        self._tilt.when_deactivated = self._reporter(EdgeSource.TILT, False, None)

    def _reporter(
        self, source: EdgeSource, active: bool, button: Button | None
    ) -> Callable[[], None]:
        def report() -> None:
            sink = self._sink
            if sink is not None:
                sink(Edge(source, active, self._clock.now(), button))

        return report

    def close(self) -> None:
        """Stop reporting and release every pin. Idempotent."""
        self._closed = True
        self._sink = None
        devices = [*self._buttons.values(), self._tilt]
        self._buttons = {}
        self._tilt = None
        for device in devices:
            if device is not None:
                device.close()


@dataclass(frozen=True, slots=True)
class WiringRow:
    """One connection: what it is, its BCM number (None for power), header pin, ground pin."""

    name: str
    bcm: int | None
    header_pin: int
    ground_pin: int | None
    note: str = ""


def _nearest_ground(header_pin: int) -> int:
    row, column = divmod(header_pin - 1, 2)

    def distance(ground: int) -> tuple[int, int]:
        ground_row, ground_column = divmod(ground - 1, 2)
        return abs(ground_row - row), abs(ground_column - column)

    return min(GROUND_HEADER_PINS, key=distance)


def describe_wiring(pins: GpioPins | None = None) -> list[WiringRow]:
    """The wiring of the inputs and the OLED, with the nearest ground pin for each switch."""
    pins = pins if pins is not None else GpioPins()
    rows: list[WiringRow] = []
    for field in fields(pins):
        bcm = getattr(pins, field.name)
        header = HEADER_PIN_OF_BCM[bcm]
        note = "SW-520D tilt switch to ground" if field.name == "tilt" else "button to ground"
        rows.append(WiringRow(field.name, bcm, header, _nearest_ground(header), note))
    rows += [
        WiringRow("oled VCC", None, 1, None, "3.3 V"),
        WiringRow("oled GND", None, 9, None, "ground"),
        WiringRow("oled SDA", 2, HEADER_PIN_OF_BCM[2], None, "I2C-1 data"),
        WiringRow("oled SCL", 3, HEADER_PIN_OF_BCM[3], None, "I2C-1 clock"),
    ]
    return rows


def format_wiring(pins: GpioPins | None = None) -> str:
    """:func:`describe_wiring` as a plain-text table for docs and ``--check``."""
    lines = [f"{'input':<10} {'BCM':>4} {'pin':>4} {'GND':>4}  note"]
    for row in describe_wiring(pins):
        bcm = "-" if row.bcm is None else str(row.bcm)
        ground = "-" if row.ground_pin is None else str(row.ground_pin)
        lines.append(f"{row.name:<10} {bcm:>4} {row.header_pin:>4} {ground:>4}  {row.note}")
    return "\n".join(lines)
