"""The hardware settings as plain values: pins, input timing's siblings, the display.

These are the values the firmware's config produces and the backends consume. They live apart
from the backends (:mod:`hal.gpio`, :mod:`hal.oled`) so that the firmware can build and check
them without importing a backend; nothing here touches hardware.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from hal.ports import SCREEN_SIZE, Button

__all__ = ["BUTTON_KEYS", "DRIVERS", "GpioPins", "OledSettings"]

#: BCM 2 and 3 carry I2C-1 (SDA, SCL), which the OLED needs.
_I2C_PINS = {2: "SDA", 3: "SCL"}

BUTTON_KEYS: dict[Button, str] = {
    Button.KEEP_1: "keep1",
    Button.KEEP_2: "keep2",
    Button.KEEP_3: "keep3",
    Button.FLIP: "flip",
    Button.STAND: "stand",
}


@dataclass(frozen=True, slots=True)
class GpioPins:
    """BCM pin numbers of the inputs (defaults as in deploy/config.toml, section [pins]).

    Raises ValueError naming the key if a pin is not a usable GPIO (0-27 except 2 and 3, which
    carry the OLED's I2C bus) or is used twice.
    """

    keep1: int = 17
    keep2: int = 27
    keep3: int = 22
    flip: int = 23
    stand: int = 24
    tilt: int = 25

    def __post_init__(self) -> None:
        used_by: dict[int, str] = {}
        for field in fields(self):
            key, pin = field.name, getattr(self, field.name)
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(
                    f"pins.{key} = {pin!r} is not a GPIO: use a BCM number from 0 to 27 "
                    "(not a header pin number), except 2 and 3"
                )
            if pin in _I2C_PINS:
                raise ValueError(
                    f"pins.{key} = {pin} is the OLED's I2C {_I2C_PINS[pin]} line: "
                    "use a BCM number from 0 to 27 except 2 and 3"
                )
            if pin in used_by:
                raise ValueError(
                    f"pins.{key} = {pin} is already used by pins.{used_by[pin]}: "
                    "every input needs its own pin"
                )
            used_by[pin] = key

    def of(self, button: Button) -> int:
        """The BCM pin of ``button``."""
        pin: int = getattr(self, BUTTON_KEYS[button])
        return pin


#: The supported controller chips (the luma.oled class of the same name drives each).
DRIVERS = ("ssd1306", "sh1106")

@dataclass(frozen=True, slots=True)
class OledSettings:
    """The display's configuration (defaults as in deploy/config.toml, section [display])."""

    driver: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    contrast: int = 255
    dim_after_s: float = 60
    dim_contrast: int = 8
    sleep_after_s: float = 600

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise ValueError(f"display.driver = {self.driver!r} is unknown: use one of {DRIVERS}")
        _check_int("i2c_port", self.i2c_port, 0, 31, "an I2C bus number from 0 to 31")
        _check_int(
            "i2c_address", self.i2c_address, 0x03, 0x77, "a 7-bit address from 0x03 to 0x77"
        )
        _check_int("rotate", self.rotate, 0, 3, "0, 1, 2 or 3 quarter turns")
        _check_int("contrast", self.contrast, 0, 255, "a level from 0 to 255")
        _check_int("dim_contrast", self.dim_contrast, 0, 255, "a level from 0 to 255")
        for key in ("dim_after_s", "sleep_after_s"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise ValueError(
                    f"display.{key} = {value!r} is not allowed: use seconds, 0 or more "
                    "(0: never)"
                )

    @property
    def size(self) -> tuple[int, int]:
        """The drawing size: 128x64, or 64x128 when turned a quarter."""
        width, height = SCREEN_SIZE
        return (width, height) if self.rotate % 2 == 0 else (height, width)


def _check_int(key: str, value: object, low: int, high: int, allowed: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = f"0x{value:02X}" if key == "i2c_address" and isinstance(value, int) else repr(value)
        raise ValueError(f"display.{key} = {shown} is not allowed: use {allowed}")
