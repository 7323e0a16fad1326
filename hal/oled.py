"""The OLED backend: luma.oled's SSD1306/SH1106 drivers on I2C, made resilient and frugal.

Three layers, each usable alone:

* :func:`open_oled` and :func:`oled_factory` build a luma.oled device from :class:`OledSettings`.
  luma is imported inside them only, so importing this module stays cheap and works without luma.
  By default the device is wrapped in :class:`hal.redraw.PartialRedraw`, which sends only the
  changed area of each frame (luma's SSD1306 and SH1106 drivers always send the whole frame).
* :class:`ResilientDisplay` wraps any luma device (or a factory making one) as the
  :class:`~hal.ports.Display` port. It sends a frame only when it differs from the last one sent
  (a full SSD1306 frame costs about 93 ms at the Pi's default 100 kHz I2C), and it survives an
  unplugged display: one warning, then retries with a back-off measured on the clock, and when the
  display answers again it is re-initialised and given the current frame, contrast and power state.
  The game never sees a bus error.

The settings (:class:`~hal.settings.OledSettings`) and the power manager (:mod:`hal.power`) live
in their own modules, which the firmware may import without this backend.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PIL import Image

from hal.ports import SCREEN_SIZE, Clock
from hal.settings import DRIVERS, OledSettings

__all__ = [
    "DRIVERS",
    "FRAMEBUFFERS",
    "DeviceFactory",
    "OledSettings",
    "ResilientDisplay",
    "bus_errors",
    "oled_factory",
    "open_dummy",
    "open_oled",
    "open_resilient_oled",
    "probe_display",
    "show_and_keep",
]

logger = logging.getLogger(__name__)

#: How frames are sent (named after luma.core.framebuffer's strategies): only the changed area
#: (:class:`hal.redraw.PartialRedraw`), or every frame whole, as luma's drivers do by themselves.
FRAMEBUFFERS = ("diff_to_previous", "full_frame")

#: The SSD1306 and SH1106 "no operation" command: a harmless probe of whether the panel answers.
_NOP = 0xE3


class DeviceFactory:
    """Makes a ready luma device (init sequence sent) on each call, or raises if it cannot.

    Given one instead of a device, :class:`ResilientDisplay` can re-initialise a display that was
    unplugged. A class of its own, so that the two are told apart by type, not by their methods.
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make

    def __call__(self) -> Any:
        return self._make()


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


def _make_device(settings: OledSettings, serial: Any, framebuffer: str) -> Any:
    from luma.oled.device import sh1106, ssd1306

    driver = ssd1306 if settings.driver == "ssd1306" else sh1106
    device = driver(serial, width=SCREEN_SIZE[0], height=SCREEN_SIZE[1], rotate=settings.rotate)
    device.contrast(settings.contrast)
    if framebuffer == "full_frame":
        return device
    from hal.redraw import ADDRESSING, PartialRedraw

    return PartialRedraw(device, ADDRESSING[settings.driver])


def _check_framebuffer(framebuffer: str) -> None:
    if framebuffer not in FRAMEBUFFERS:
        raise ValueError(f"framebuffer {framebuffer!r} is unknown: use one of {FRAMEBUFFERS}")


def open_oled(
    settings: OledSettings | None = None,
    *,
    bus: Any = None,
    framebuffer: str = "diff_to_previous",
) -> Any:
    """One luma.oled device as configured, initialised and at the configured contrast.

    ``bus`` is an already open smbus-like object (``write_i2c_block_data``); None opens
    ``/dev/i2c-<i2c_port>`` through smbus2. Raises luma's errors if the display does not answer.
    ``framebuffer`` is one of :data:`FRAMEBUFFERS`: by default only the changed area of a frame
    is sent (:class:`hal.redraw.PartialRedraw`, the first frame whole).
    """
    settings = settings if settings is not None else OledSettings()
    _check_framebuffer(framebuffer)
    return _make_device(settings, _make_serial(settings, bus), framebuffer)


def oled_factory(
    settings: OledSettings | None = None,
    *,
    bus: Any = None,
    framebuffer: str = "diff_to_previous",
) -> DeviceFactory:
    """A factory for :class:`ResilientDisplay` that re-initialises the display on each call.

    The I2C interface is opened once and shared by every device it makes, and each call first
    probes the panel with a NOP command, so retrying while the display is unplugged opens no
    file descriptors and builds no driver objects (luma registers an exit hook for every device).
    """
    settings = settings if settings is not None else OledSettings()
    _check_framebuffer(framebuffer)
    serial: Any = None

    def make() -> Any:
        nonlocal serial
        if serial is None:
            serial = _make_serial(settings, bus)
        serial.command(_NOP)
        return _make_device(settings, serial, framebuffer)

    return DeviceFactory(make)


def open_resilient_oled(
    settings: OledSettings | None = None,
    clock: Clock | None = None,
    *,
    bus: Any = None,
    framebuffer: str = "diff_to_previous",
) -> ResilientDisplay:
    """The device's display port: :func:`oled_factory` wrapped in a :class:`ResilientDisplay`."""
    settings = settings if settings is not None else OledSettings()
    if clock is None:
        from hal.clock import MonotonicClock

        clock = MonotonicClock()
    factory = oled_factory(settings, bus=bus, framebuffer=framebuffer)
    return ResilientDisplay(factory, clock, size=settings.size)


def show_and_keep(settings: OledSettings, image: Image.Image, *, bus: Any = None) -> Any:
    """Show ``image`` whole and leave it on the panel after this process exits; the luma device.

    luma switches a display off when the program ends; a device marked ``persist`` keeps its
    last picture (used for the error screen that a crash loop ends on). Raises luma's errors
    (:func:`bus_errors`) if no display answers.
    """
    device = open_oled(settings, bus=bus, framebuffer="full_frame")
    device.persist = True
    device.display(image.convert(device.mode))
    return device


def probe_display(port: int, address: int) -> str | None:
    """Why no display answers at ``address`` on I2C bus ``port``, or None if one does.

    Sends the controller's NOP command, harmless to a running panel.
    """
    try:
        from luma.core.interface.serial import i2c

        serial = i2c(port=port, address=address)
    except ImportError:
        return "luma.oled is not installed (pip install '.[pi]')"
    except Exception as error:  # luma's permission and not-found errors, OSError
        return f"cannot open /dev/i2c-{port}: {error}"
    try:
        serial.command(_NOP)
    except bus_errors() as error:
        return f"no display answers at 0x{address:02X} on /dev/i2c-{port} ({error})"
    finally:
        serial.cleanup()
    return None


def open_dummy(clock: Clock) -> ResilientDisplay:
    """luma's in-memory ``dummy`` device behind the same wrapper: keeps the last frame, no bus."""
    from luma.core.device import dummy

    width, height = SCREEN_SIZE
    return ResilientDisplay(dummy(width=width, height=height, mode="1"), clock)


class ResilientDisplay:
    """The :class:`~hal.ports.Display` port over a luma device that may come and go.

    ``device`` is a luma device or a :class:`DeviceFactory`; only with a factory can the display be
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
        self._factory = device if isinstance(device, DeviceFactory) else None
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


def _power_command(hidden: bool) -> Callable[[Any], object]:
    return (lambda device: device.hide()) if hidden else (lambda device: device.show())


def _frame_key(image: Image.Image) -> bytes:
    return f"{image.mode}{image.size}".encode() + image.tobytes()
