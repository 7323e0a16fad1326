"""luma.oled's real SSD1306/SH1106 drivers on a fake I2C bus, the resilient wrapper and power."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from hal.oled import (
    ResilientDisplay,
    oled_factory,
    open_oled,
    open_resilient_oled,
)
from hal.ports import SCREEN_SIZE, Display
from hal.power import PowerManager, PowerState
from hal.settings import OledSettings
from sim.fakes import FakeClock

COMMAND, DATA = 0x00, 0x40  # the I2C control bytes luma sends before commands and data
SETCONTRAST, DISPLAYOFF, DISPLAYON, NOP = 0x81, 0xAE, 0xAF, 0xE3


class FakeI2CBus:
    """An smbus-like bus that records what luma's i2c interface writes, and can be unplugged.

    luma's ``i2c(bus=...)`` treats a supplied bus as unmanaged and only ever calls
    ``write_i2c_block_data(address, control, data)`` with at most 32 bytes.
    """

    def __init__(self) -> None:
        self.commands: list[list[int]] = []
        self.data_bytes = 0
        self.command_bytes = 0
        self.writes = 0
        self.unplugged_errno: int | None = None
        self.addresses: set[int] = set()

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        self.writes += 1
        if self.unplugged_errno is not None:
            raise OSError(self.unplugged_errno, os.strerror(self.unplugged_errno))
        assert len(data) <= 32
        self.addresses.add(address)
        if control == COMMAND:
            self.commands.append(list(data))
            self.command_bytes += len(data)
        else:
            assert control == DATA
            self.data_bytes += len(data)

    def i2c_rdwr(self, *messages: object) -> None:
        raise AssertionError("luma used i2c_rdwr on an unmanaged bus")

    @property
    def total_bytes(self) -> int:
        return self.command_bytes + self.data_bytes


def frame(text: str = "", box: tuple[int, int, int, int] | None = None) -> Image.Image:
    image = Image.new("1", SCREEN_SIZE)
    draw = ImageDraw.Draw(image)
    if text:
        draw.text((2, 2), text, fill=1)
    if box:
        draw.rectangle(box, fill=1)
    return image


@pytest.fixture
def bus() -> FakeI2CBus:
    return FakeI2CBus()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(50.0)


# --- the real drivers --------------------------------------------------------------------------


def test_ssd1306_full_frame_is_six_command_and_1024_data_bytes(bus: FakeI2CBus) -> None:
    device = open_oled(OledSettings(driver="ssd1306", i2c_address=0x3D), bus=bus)
    assert bus.addresses == {0x3D}
    assert bus.commands[-1] == [SETCONTRAST, 255]  # the configured contrast after luma's init
    before_commands, before_data = bus.command_bytes, bus.data_bytes
    device.display(frame("Anna"))
    assert bus.command_bytes - before_commands == 6
    assert bus.data_bytes - before_data == 1024


def test_sh1106_full_frame_is_eight_pages(bus: FakeI2CBus) -> None:
    device = open_oled(OledSettings(driver="sh1106", contrast=100), bus=bus)
    assert [SETCONTRAST, 100] in bus.commands
    before_commands, before_data = bus.command_bytes, bus.data_bytes
    device.display(frame("Ben"))
    assert bus.command_bytes - before_commands == 8 * 3
    assert bus.data_bytes - before_data == 1024


def test_rotation_is_passed_to_the_driver(bus: FakeI2CBus) -> None:
    device = open_oled(OledSettings(rotate=2), bus=bus)
    assert device.rotate == 2
    assert (device.width, device.height) == SCREEN_SIZE
    assert OledSettings(rotate=1).size == (64, 128)


# --- redraw only on change ---------------------------------------------------------------------


def test_identical_frames_cost_no_bus_bytes(bus: FakeI2CBus, clock: FakeClock) -> None:
    # Whole frames, so that every frame sent costs 1030 bytes (the default sends the changes only).
    display = ResilientDisplay(oled_factory(bus=bus, framebuffer="full_frame"), clock)
    assert isinstance(display, Display)
    display.display(frame("Wurf 1/3"))
    after_first = bus.total_bytes
    display.display(frame("Wurf 1/3"))  # a new image object with the same pixels
    assert bus.total_bytes == after_first
    display.display(frame("Wurf 2/3"))
    assert bus.total_bytes == after_first + 1030
    display.display(frame("Wurf 1/3"))  # differs from the last one *sent*: sent again
    assert bus.total_bytes == after_first + 2060
    assert display.frames_sent == 3


def test_dummy_device_receives_only_changed_frames(clock: FakeClock) -> None:
    device = dummy(mode="1")
    display = ResilientDisplay(device, clock)
    display.display(frame(box=(0, 0, 10, 10)))
    first = device.image
    display.display(frame(box=(0, 0, 10, 10)))
    assert device.image is first
    display.display(frame(box=(5, 5, 20, 20)))
    assert device.image is not first
    assert device.image.tobytes() == frame(box=(5, 5, 20, 20)).tobytes()


def test_a_frame_of_the_wrong_shape_is_refused_clearly(clock: FakeClock) -> None:
    display = ResilientDisplay(dummy(mode="1"), clock)
    with pytest.raises(ValueError, match=r"mode '1' and 128x64, not mode 'RGB' and 100x50"):
        display.display(Image.new("RGB", (100, 50)))


def test_repeated_contrast_and_power_commands_are_not_resent(
    bus: FakeI2CBus, clock: FakeClock
) -> None:
    display = ResilientDisplay(oled_factory(bus=bus), clock)
    display.contrast(40)
    display.contrast(40)
    display.show()  # already on
    display.hide()
    display.hide()
    assert bus.commands[-2:] == [[SETCONTRAST, 40], [DISPLAYOFF]]
    with pytest.raises(ValueError, match="contrast must be a level from 0 to 255, not 300"):
        display.contrast(300)


# --- unplugged display -------------------------------------------------------------------------


@pytest.mark.parametrize("unplugged", [errno.EREMOTEIO, errno.EIO, errno.ETIMEDOUT])
def test_unplugged_display_logs_once_retries_and_comes_back(
    bus: FakeI2CBus, clock: FakeClock, caplog: pytest.LogCaptureFixture, unplugged: int
) -> None:
    caplog.set_level(logging.INFO, logger="hal.oled")
    display = ResilientDisplay(oled_factory(bus=bus), clock, retry_after_s=1.0)
    display.display(frame("1"))
    bus.unplugged_errno = unplugged
    display.display(frame("2"))  # fails on the bus: offline, no exception
    assert not display.online
    writes = bus.writes
    for step in range(5):  # frames during the back-off do not touch the bus
        clock.advance(0.1)
        display.display(frame(f"3{step}"))
    assert bus.writes == writes
    clock.advance(1.0)
    display.display(frame("4"))  # retry due: still unplugged, probe fails
    assert bus.writes == writes + 1
    assert display.next_deadline() == pytest.approx(clock.now() + 2.0)  # backing off
    bus.unplugged_errno = None
    clock.set(display.next_deadline() or 0)
    display.advance(clock.now())  # the main loop's timer brings it back
    assert display.online
    init_sequences = [cmd for cmd in bus.commands if cmd[0] == DISPLAYOFF and len(cmd) > 1]
    assert bus.commands.count([NOP]) == 2 and len(init_sequences) == 2  # probed, re-initialised
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "OLED offline" in warnings[0].getMessage()
    assert any("back online" in r.getMessage() for r in caplog.records)
    data_before = bus.data_bytes
    display.display(frame("4"))  # the frame wanted during the outage was replayed already
    assert bus.data_bytes == data_before


def test_reconnect_replays_contrast_sleep_and_the_latest_frame(
    bus: FakeI2CBus, clock: FakeClock
) -> None:
    display = ResilientDisplay(oled_factory(bus=bus), clock)
    bus.unplugged_errno = errno.EREMOTEIO
    display.display(frame("lost"))
    display.contrast(8)
    display.hide()
    display.display(frame("latest"))
    bus.unplugged_errno = None
    bus.commands.clear()
    bus.data_bytes = 0
    clock.advance(1.0)
    display.advance(clock.now())
    assert display.online
    assert bus.commands[-3:-1] == [[SETCONTRAST, 8], [DISPLAYOFF]]
    assert bus.data_bytes == 2 * 1024  # luma's clear() on init, then the latest frame
    assert display.device is not None


def test_display_missing_at_start_is_not_an_error(
    bus: FakeI2CBus, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    bus.unplugged_errno = errno.EREMOTEIO
    display = open_resilient_oled(OledSettings(), clock, bus=bus)
    assert not display.online and display.device is None
    assert bus.writes == 1  # only the probe: no driver was built
    assert "OLED not found" in caplog.text
    display.display(frame("x"))
    bus.unplugged_errno = None
    clock.advance(1.0)
    display.display(frame("x"))
    assert display.online and display.frames_sent == 1


def test_back_off_doubles_up_to_the_limit(bus: FakeI2CBus, clock: FakeClock) -> None:
    bus.unplugged_errno = errno.EIO
    display = ResilientDisplay(
        oled_factory(bus=bus), clock, retry_after_s=1.0, max_retry_after_s=4.0
    )
    gaps = []
    for _ in range(5):
        deadline = display.next_deadline()
        assert deadline is not None
        gaps.append(round(deadline - clock.now(), 6))
        clock.set(deadline)
        display.advance(clock.now())
    assert gaps == [1.0, 2.0, 4.0, 4.0, 4.0]


def test_other_errors_are_not_swallowed(clock: FakeClock) -> None:
    class Broken:
        def display(self, image: Image.Image) -> None:
            raise RuntimeError("a bug, not an unplugged display")

    display = ResilientDisplay(Broken(), clock)
    with pytest.raises(RuntimeError, match="a bug"):
        display.display(frame("x"))


# --- power management --------------------------------------------------------------------------


def run_power(power: PowerManager, clock: FakeClock, until: float) -> None:
    """The main loop's shape: sleep until the manager's deadline, then advance it."""
    while clock.now() < until:
        deadline = power.next_deadline()
        clock.wait(until if deadline is None else min(deadline, until), lambda timeout: None)
        power.advance(clock.now())


def test_dims_then_sleeps_then_wakes_on_activity(bus: FakeI2CBus, clock: FakeClock) -> None:
    settings = OledSettings(dim_after_s=60, dim_contrast=8, sleep_after_s=600, contrast=200)
    display = ResilientDisplay(oled_factory(settings, bus=bus), clock)
    power = PowerManager(display, clock, settings)
    assert power.next_deadline() == pytest.approx(110.0)
    run_power(power, clock, 109.0)
    assert (power.state, bus.commands[-1]) == (PowerState.AWAKE, [SETCONTRAST, 200])
    run_power(power, clock, 110.0)
    assert (power.state, bus.commands[-1]) == (PowerState.DIMMED, [SETCONTRAST, 8])
    assert power.next_deadline() == pytest.approx(650.0)
    run_power(power, clock, 700.0)
    assert (power.state, bus.commands[-1]) == (PowerState.ASLEEP, [DISPLAYOFF])
    assert power.next_deadline() is None
    assert power.activity(clock.now()) is True
    assert power.state is PowerState.AWAKE
    assert bus.commands[-2:] == [[SETCONTRAST, 200], [DISPLAYON]]
    assert power.next_deadline() == pytest.approx(clock.now() + 60)


def test_activity_while_awake_postpones_dimming_without_bus_traffic(
    bus: FakeI2CBus, clock: FakeClock
) -> None:
    display = ResilientDisplay(oled_factory(bus=bus), clock)
    power = PowerManager(display, clock)
    writes = bus.writes
    clock.advance(59)
    assert power.activity(clock.now()) is False
    run_power(power, clock, clock.now() + 59.9)
    assert (power.state, bus.writes) == (PowerState.AWAKE, writes)
    run_power(power, clock, clock.now() + 0.1)
    assert (power.state, bus.writes) == (PowerState.DIMMED, writes + 1)


def test_waking_from_dim_restores_contrast_only(bus: FakeI2CBus, clock: FakeClock) -> None:
    display = ResilientDisplay(oled_factory(bus=bus), clock)
    power = PowerManager(display, clock)
    run_power(power, clock, 200.0)
    bus.commands.clear()
    assert power.activity(clock.now()) is True
    assert bus.commands == [[SETCONTRAST, 255]]


@pytest.mark.parametrize(
    ("dim_after_s", "sleep_after_s", "states"),
    [
        (0, 600, [PowerState.AWAKE, PowerState.ASLEEP]),  # never dims
        (60, 0, [PowerState.DIMMED, PowerState.DIMMED]),  # never sleeps
        (0, 0, [PowerState.AWAKE, PowerState.AWAKE]),
        (600, 60, [PowerState.ASLEEP, PowerState.ASLEEP]),  # sleep comes first: no dimming
    ],
)
def test_zero_switches_a_step_off(
    bus: FakeI2CBus,
    clock: FakeClock,
    dim_after_s: int,
    sleep_after_s: int,
    states: list[PowerState],
) -> None:
    settings = OledSettings(dim_after_s=dim_after_s, sleep_after_s=sleep_after_s)
    power = PowerManager(open_oled(settings, bus=bus), clock, settings)
    seen = []
    for until in (clock.now() + 100, clock.now() + 1000):
        run_power(power, clock, until)
        seen.append(power.state)
    assert seen == states
    assert ([SETCONTRAST, settings.dim_contrast] in bus.commands) == (PowerState.DIMMED in states)
    assert ([DISPLAYOFF] in bus.commands) == (PowerState.ASLEEP in states)


def test_the_display_can_sleep_while_offline_and_wakes_when_back(
    bus: FakeI2CBus, clock: FakeClock
) -> None:
    display = ResilientDisplay(oled_factory(bus=bus), clock)
    power = PowerManager(display, clock, OledSettings(dim_after_s=0, sleep_after_s=10))
    bus.unplugged_errno = errno.EREMOTEIO
    run_power(power, clock, 100.0)
    assert power.state is PowerState.ASLEEP
    bus.unplugged_errno = None
    clock.advance(60)
    display.advance(clock.now())
    assert display.online and bus.commands[-1] == [DISPLAYOFF]  # came back asleep
    power.activity(clock.now())
    assert bus.commands[-1] == [DISPLAYON]


# --- settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"driver": "ssd1309"}, r"display\.driver = 'ssd1309' is unknown: use one of"),
        ({"i2c_address": 0x80}, r"display\.i2c_address = 0x80 is not allowed: use a 7-bit"),
        ({"rotate": 4}, r"display\.rotate = 4 is not allowed: use 0, 1, 2 or 3"),
        ({"contrast": 256}, r"display\.contrast = 256 is not allowed: use a level from 0 to 255"),
        ({"dim_contrast": -1}, r"display\.dim_contrast = -1 is not allowed"),
        ({"i2c_port": "1"}, r"display\.i2c_port = '1' is not allowed"),
        ({"sleep_after_s": -5}, r"display\.sleep_after_s = -5 is not allowed: use seconds"),
    ],
)
def test_bad_display_settings_name_the_key(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        OledSettings(**changes)  # type: ignore[arg-type]


def test_default_settings_match_the_config_contract() -> None:
    config = tomllib.loads((Path(__file__).parents[2] / "deploy" / "config.toml").read_text())
    assert OledSettings(**config["display"]) == OledSettings()


def test_importing_the_module_does_not_import_luma() -> None:
    code = "import sys, hal.oled; sys.exit(any(m.startswith('luma') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
