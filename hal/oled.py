"""The OLED backend: luma.oled's SSD1306/SH1106 drivers on I2C, made resilient and frugal.

Three layers, each usable alone:

* :func:`open_oled` and :func:`oled_factory` build a luma.oled device from :class:`OledSettings`.
  luma is imported inside them only, so importing this module stays cheap and works without luma.
* :class:`ResilientDisplay` wraps any luma device (or a factory making one) as the
  :class:`~hal.ports.Display` port. It sends a frame only when it differs from the last one sent
  (a full SSD1306 frame costs about 93 ms at the Pi's default 100 kHz I2C), and it survives an
  unplugged display: one warning, then retries with a back-off measured on the clock, and when the
  display answers again it is re-initialised and given the current frame, contrast and power state.
  The game never sees a bus error.
* :class:`PowerManager` dims the panel after a while without input and puts it to sleep later;
  any input wakes it. Like the input decoder it is driven by ``next_deadline``/``advance``.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from hal.ports import SCREEN_SIZE, Clock, Display

__all__ = [
    "DRIVERS",
    "OledSettings",
    "PowerManager",
    "PowerState",
    "ResilientDisplay",
    "bus_errors",
    "oled_factory",
    "open_oled",
    "open_resilient_oled",
]

logger = logging.getLogger(__name__)

#: The supported controller chips (the luma.oled class of the same name drives each).
DRIVERS = ("ssd1306", "sh1106")

#: The SSD1306 and SH1106 "no operation" command: a harmless probe of whether the panel answers.
_NOP = 0xE3

#: Something that makes a ready luma device (init sequence sent), or raises if it cannot.
DeviceFactory = Callable[[], Any]


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


def bus_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean "the display does not answer" rather than a bug.

    luma's I2C interface turns EIO/EREMOTEIO (no acknowledge: display unplugged) into its own
    ``DeviceNotFoundError``, which is not an OSError; other bus errors stay OSErrors.
    """
    try:
        from luma.core.error import DeviceNotFoundError, DevicePermissionError
    except ImportError:
        return (OSError,)
    return (OSError, DeviceNotFoundError, DevicePermissionError)


def _make_serial(settings: OledSettings, bus: Any) -> Any:
    from luma.core.interface.serial import i2c

    if bus is not None:
        return i2c(bus=bus, address=settings.i2c_address)
    return i2c(port=settings.i2c_port, address=settings.i2c_address)


def _make_device(settings: OledSettings, serial: Any) -> Any:
    from luma.oled.device import sh1106, ssd1306

    driver = ssd1306 if settings.driver == "ssd1306" else sh1106
    device = driver(serial, width=SCREEN_SIZE[0], height=SCREEN_SIZE[1], rotate=settings.rotate)
    device.contrast(settings.contrast)
    return device


def open_oled(settings: OledSettings | None = None, *, bus: Any = None) -> Any:
    """One luma.oled device as configured, initialised and at the configured contrast.

    ``bus`` is an already open smbus-like object (``write_i2c_block_data``); None opens
    ``/dev/i2c-<i2c_port>`` through smbus2. Raises luma's errors if the display does not answer.
    """
    settings = settings if settings is not None else OledSettings()
    return _make_device(settings, _make_serial(settings, bus))


def oled_factory(settings: OledSettings | None = None, *, bus: Any = None) -> DeviceFactory:
    """A factory for :class:`ResilientDisplay` that re-initialises the display on each call.

    The I2C interface is opened once and shared by every device it makes, and each call first
    probes the panel with a NOP command, so retrying while the display is unplugged opens no
    file descriptors and builds no driver objects (luma registers an exit hook for every device).
    """
    settings = settings if settings is not None else OledSettings()
    serial: Any = None

    def make() -> Any:
        nonlocal serial
        if serial is None:
            serial = _make_serial(settings, bus)
        serial.command(_NOP)
        return _make_device(settings, serial)

    return make


def open_resilient_oled(
    settings: OledSettings | None = None, clock: Clock | None = None, *, bus: Any = None
) -> ResilientDisplay:
    """The device's display port: :func:`oled_factory` wrapped in a :class:`ResilientDisplay`."""
    settings = settings if settings is not None else OledSettings()
    if clock is None:
        from hal.clock import MonotonicClock

        clock = MonotonicClock()
    return ResilientDisplay(oled_factory(settings, bus=bus), clock, size=settings.size)


class ResilientDisplay:
    """The :class:`~hal.ports.Display` port over a luma device that may come and go.

    ``device`` is a luma device or a :data:`DeviceFactory`; only with a factory can the display be
    re-initialised after it was unplugged (a plain device is retried as it is). Bus errors
    (:func:`bus_errors`) are logged once per outage and never raised; while offline the wanted
    frame, contrast and sleep state are kept and replayed when the display answers again. Retries
    happen on later calls and in :meth:`advance`, no sooner than ``retry_after_s`` after the last
    failure, doubling up to ``max_retry_after_s``.
    """

    def __init__(
        self,
        device: Any,
        clock: Clock,
        *,
        size: tuple[int, int] = SCREEN_SIZE,
        mode: str = "1",
        retry_after_s: float = 1.0,
        max_retry_after_s: float = 30.0,
        name: str = "OLED",
    ) -> None:
        self.width, self.height = size
        self.mode = mode
        self.name = name
        self._clock = clock
        self._errors = bus_errors()
        self._factory: DeviceFactory | None = device if _is_factory(device) else None
        self._device: Any = None if self._factory is not None else device
        self._first_retry_s = retry_after_s
        self._max_retry_s = max_retry_after_s
        self._retry_s = retry_after_s
        self._retry_at: float | None = None
        self._online = False
        self._wanted: Image.Image | None = None
        self._wanted_key: bytes | None = None
        self._sent: bytes | None = None
        self._contrast: int | None = None
        self._hidden = False
        self.frames_sent = 0
        self._connect(clock.now(), first=True)

    @property
    def online(self) -> bool:
        """Whether the display answered the last time it was talked to."""
        return self._online

    @property
    def device(self) -> Any:
        """The current luma device (None while a factory-made display is offline)."""
        return self._device

    def display(self, image: Image.Image) -> None:
        """Show ``image``; nothing goes over the bus if it equals the frame last sent."""
        if image.mode != self.mode or image.size != (self.width, self.height):
            raise ValueError(
                f"a frame must be mode {self.mode!r} and {self.width}x{self.height}, "
                f"not mode {image.mode!r} and {image.size[0]}x{image.size[1]}"
            )
        key = _frame_key(image)
        if key != self._wanted_key:
            self._wanted, self._wanted_key = image.copy(), key
        if self._reachable():
            self._send_frame()

    def contrast(self, level: int) -> None:
        """Set the brightness, 0-255 (kept and re-applied if the display is offline)."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"contrast must be a level from 0 to 255, not {level!r}")
        if level == self._contrast and self._online:
            return
        self._contrast = level
        if self._reachable():
            self._command("contrast", lambda device: device.contrast(level))

    def show(self) -> None:
        """Wake the panel from sleep."""
        self._set_hidden(False)

    def hide(self) -> None:
        """Put the panel to sleep; the picture is kept."""
        self._set_hidden(True)

    def next_deadline(self) -> float | None:
        """When the next reconnection attempt is due, or None while online."""
        return None if self._online else self._retry_at

    def advance(self, now: float) -> None:
        """Try to reconnect if offline and the back-off has passed."""
        if not self._online and self._retry_at is not None and now >= self._retry_at:
            self._connect(now, first=False)

    # --- internals -----------------------------------------------------------------------------

    def _set_hidden(self, hidden: bool) -> None:
        if hidden == self._hidden and self._online:
            return
        self._hidden = hidden
        if self._reachable():
            self._command("hide" if hidden else "show", _power_command(hidden))

    def _reachable(self) -> bool:
        if not self._online:
            self.advance(self._clock.now())
            # A successful reconnection has replayed everything already.
            return False
        return True

    def _send_frame(self) -> None:
        wanted, key = self._wanted, self._wanted_key
        if wanted is None or key == self._sent:
            return
        if self._command("frame", lambda device: device.display(wanted)):
            self._sent = key
            self.frames_sent += 1

    def _command(self, what: str, action: Callable[[Any], object]) -> bool:
        try:
            action(self._device)
        except self._errors as error:
            self._go_offline(what, error)
            return False
        return True

    def _go_offline(self, what: str, error: BaseException) -> None:
        logger.warning(
            "%s offline (%s failed: %s: %s); the game goes on, retrying in the background",
            self.name,
            what,
            type(error).__name__,
            error,
        )
        self._online = False
        self._sent = None
        if self._factory is not None:
            self._device = None
        self._retry_s = self._first_retry_s
        self._retry_at = self._clock.now() + self._retry_s

    def _connect(self, now: float, *, first: bool) -> None:
        """Make (or re-use) the device and replay contrast, sleep state and frame."""
        try:
            device = self._factory() if self._factory is not None else self._device
            if self._contrast is not None:
                device.contrast(self._contrast)
            if self._hidden:
                device.hide()
            elif not first and self._factory is None:
                device.show()
            if self._wanted is not None:
                device.display(self._wanted)
        except self._errors as error:
            if first:
                logger.warning(
                    "%s not found (%s: %s); the game goes on, retrying in the background",
                    self.name,
                    type(error).__name__,
                    error,
                )
                self._retry_at = now + self._retry_s
            else:
                logger.debug("%s still offline: %s", self.name, error)
                self._retry_s = min(self._retry_s * 2, self._max_retry_s)
                self._retry_at = now + self._retry_s
            return
        self._device = device
        self._online = True
        self._retry_at = None
        self._retry_s = self._first_retry_s
        if self._wanted is not None:
            self._sent = self._wanted_key
            self.frames_sent += 1
        if not first:
            logger.info("%s back online", self.name)


def _is_factory(device: Any) -> bool:
    """A luma device has ``display``; anything else callable is a factory."""
    return callable(device) and not hasattr(device, "display")


def _power_command(hidden: bool) -> Callable[[Any], object]:
    return (lambda device: device.hide()) if hidden else (lambda device: device.show())


def _frame_key(image: Image.Image) -> bytes:
    return f"{image.mode}{image.size}".encode() + image.tobytes()


class PowerState(enum.Enum):
    """The panel's power state under :class:`PowerManager`."""

    AWAKE = "awake"
    DIMMED = "dimmed"
    ASLEEP = "asleep"


class PowerManager:
    """Dims the display after ``dim_after_s`` without input and sleeps it after ``sleep_after_s``.

    Call :meth:`activity` on every input; it wakes the panel (full contrast, shown) and restarts
    the idle time. Drive it like the input decoder: sleep until :meth:`next_deadline`, then call
    :meth:`advance`. A threshold of 0 switches that step off.
    """

    def __init__(
        self, display: Display, clock: Clock, settings: OledSettings | None = None
    ) -> None:
        self._display = display
        self._settings = settings if settings is not None else OledSettings()
        self._last_activity = clock.now()
        self._state = PowerState.AWAKE
        display.contrast(self._settings.contrast)
        display.show()

    @property
    def state(self) -> PowerState:
        """Awake, dimmed or asleep."""
        return self._state

    def activity(self, now: float) -> bool:
        """Note an input at ``now`` and wake the panel; True if it was dimmed or asleep.

        The firmware may use the result to swallow the press that only woke the display.
        """
        self._last_activity = max(self._last_activity, now)
        if self._state is PowerState.AWAKE:
            return False
        self._display.contrast(self._settings.contrast)
        if self._state is PowerState.ASLEEP:
            self._display.show()
        self._state = PowerState.AWAKE
        return True

    def set_contrast(self, level: int) -> None:
        """Change the awake brightness (the menu's setting); applied now unless dimmed or asleep."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"contrast must be a level from 0 to 255, not {level!r}")
        self._settings = replace(self._settings, contrast=level)
        if self._state is PowerState.AWAKE:
            self._display.contrast(level)

    def next_deadline(self) -> float | None:
        """When the panel next dims or sleeps, or None if nothing more will happen."""
        target = self._next_step()
        return None if target is None else target[0]

    def advance(self, now: float) -> None:
        """Dim or sleep the panel if the idle time has come."""
        while (target := self._next_step()) is not None and target[0] <= now:
            state = target[1]
            if state is PowerState.DIMMED:
                self._display.contrast(self._settings.dim_contrast)
            else:
                self._display.hide()
            self._state = state

    def _next_step(self) -> tuple[float, PowerState] | None:
        settings = self._settings
        sleep_at = self._last_activity + settings.sleep_after_s if settings.sleep_after_s else None
        dim_at = self._last_activity + settings.dim_after_s if settings.dim_after_s else None
        if self._state is PowerState.ASLEEP:
            return None
        if (
            self._state is PowerState.AWAKE
            and dim_at is not None
            and (sleep_at is None or dim_at < sleep_at)
        ):
            return dim_at, PowerState.DIMMED
        return None if sleep_at is None else (sleep_at, PowerState.ASLEEP)
