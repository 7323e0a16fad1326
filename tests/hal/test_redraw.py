"""Partial redraws through luma's real SSD1306 and SH1106 drivers, checked against a model of the
panel's memory fed by the bytes on a fake I2C bus."""

from __future__ import annotations

import errno
import random

import pytest
from PIL import Image, ImageDraw

from hal.oled import (
    FRAMEBUFFERS,
    ResilientDisplay,
    bus_errors,
    oled_factory,
    open_oled,
)
from hal.ports import SCREEN_SIZE
from hal.redraw import PartialRedraw, pack_pages
from hal.settings import OledSettings
from sim.fakes import FakeClock
from tests.hal.test_oled import COMMAND, DATA, FakeI2CBus

WIDTH, HEIGHT = SCREEN_SIZE
PAGES = HEIGHT // 8


class PanelBus(FakeI2CBus):
    """A fake bus that also keeps the panel's memory as the controller would fill it.

    SSD1306 (horizontal addressing): ``COLUMNADDR a b PAGEADDR c d`` opens a window, data fills
    it column by column, page by page. SH1106 (page addressing): ``0xB0|page, low, high`` sets
    the page and column; data fills that page to the right. Other commands are ignored.
    """

    def __init__(self, driver: str) -> None:
        super().__init__()
        self.driver = driver
        self.columns = 132 if driver == "sh1106" else WIDTH
        self.ram = [bytearray(self.columns) for _ in range(PAGES)]
        self.window = (0, self.columns - 1, 0, PAGES - 1)
        self.page = self.column = 0

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        super().write_i2c_block_data(address, control, data)
        if control == COMMAND:
            self._command(data)
        elif control == DATA:
            for value in data:
                self._write(value)

    def _command(self, data: list[int]) -> None:
        if self.driver == "ssd1306" and data[:1] == [0x21] and len(data) == 6:
            assert data[3] == 0x22
            self.window = (data[1], data[2], data[4], data[5])
            self.column, self.page = data[1], data[4]
        elif self.driver == "sh1106" and len(data) == 3 and data[0] & 0xF0 == 0xB0:
            self.page = data[0] & 0x0F
            self.column = (data[1] & 0x0F) | (data[2] & 0x0F) << 4

    def _write(self, value: int) -> None:
        self.ram[self.page][self.column] = value
        if self.driver == "sh1106":
            self.column += 1
            return
        first_column, last_column, first_page, last_page = self.window
        self.column += 1
        if self.column > last_column:
            self.column = first_column
            self.page = first_page if self.page == last_page else self.page + 1

    def shown(self) -> Image.Image:
        """The picture the panel's memory holds, pixel by pixel."""
        offset = 2 if self.driver == "sh1106" else 0
        image = Image.new("1", SCREEN_SIZE)
        pixels = image.load()
        assert pixels is not None
        for y in range(HEIGHT):
            for x in range(WIDTH):
                pixels[x, y] = 1 if self.ram[y // 8][x + offset] >> (y % 8) & 1 else 0
        return image


def scene(rng: random.Random) -> Image.Image:
    image = Image.new("1", SCREEN_SIZE)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(0, 4)):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        draw.rectangle((x, y, x + rng.randrange(30), y + rng.randrange(20)), fill=1)
    draw.text((rng.randrange(90), rng.randrange(50)), f"Wurf {rng.randint(1, 3)}/3", fill=1)
    return image


def edit(image: Image.Image, rng: random.Random) -> Image.Image:
    changed = image.copy()
    x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
    ImageDraw.Draw(changed).rectangle((x, y, x + rng.randrange(12), y + rng.randrange(9)), fill=0)
    ImageDraw.Draw(changed).point((rng.randrange(WIDTH), rng.randrange(HEIGHT)), fill=1)
    return changed


def test_pack_pages_puts_the_top_pixel_of_each_page_in_bit_zero() -> None:
    image = Image.new("1", SCREEN_SIZE)
    image.putpixel((0, 0), 1)
    image.putpixel((5, 9), 1)
    image.putpixel((127, 63), 1)
    pages = pack_pages(image)
    assert [len(page) for page in pages] == [WIDTH] * PAGES
    assert pages[0][0] == 0x01 and pages[1][5] == 0x02 and pages[7][127] == 0x80
    assert sum(map(sum, pages)) == 0x01 + 0x02 + 0x80


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_panel_always_holds_the_last_frame(driver: str, rotate: int) -> None:
    bus = PanelBus(driver)
    device = open_oled(OledSettings(driver=driver, rotate=rotate), bus=bus)
    assert isinstance(device, PartialRedraw)
    rng = random.Random(f"{driver}{rotate}")
    image = scene(rng)
    for step in range(30):
        image = scene(rng) if step % 10 == 0 else edit(image, rng)
        device.display(image)
        expected = image.rotate(180) if rotate == 2 else image
        assert bus.shown().tobytes() == expected.tobytes(), f"step {step}"
    assert device.full_frames == 1 and device.frames == 30


def test_the_first_frame_is_whole_and_a_small_change_is_small() -> None:
    bus = FakeI2CBus()
    device = open_oled(bus=bus)
    image = scene(random.Random(1))
    before = bus.total_bytes
    device.display(image)
    assert bus.total_bytes - before == 1030 == device.bytes_sent
    changed = image.copy()
    changed.putpixel((40, 20), 1 - changed.getpixel((40, 20)))
    before = bus.total_bytes
    device.display(changed)
    assert bus.total_bytes - before == 6 + 1  # one window, one byte
    before = bus.total_bytes
    device.display(changed)
    assert bus.total_bytes == before  # nothing changed, nothing sent


def test_two_distant_changes_take_two_windows_not_one_big_one() -> None:
    bus = FakeI2CBus()
    device = open_oled(bus=bus)
    blank = Image.new("1", SCREEN_SIZE)
    device.display(blank)
    corners = blank.copy()
    corners.putpixel((0, 0), 1)
    corners.putpixel((127, 63), 1)
    commands = len(bus.commands)
    device.display(corners)
    assert bus.commands[commands:] == [[0x21, 0, 0, 0x22, 0, 0], [0x21, 127, 127, 0x22, 7, 7]]


def test_a_failed_write_makes_the_next_frame_whole() -> None:
    bus = FakeI2CBus()
    device = open_oled(bus=bus)
    device.display(Image.new("1", SCREEN_SIZE))
    bus.unplugged_errno = errno.EIO
    with pytest.raises(bus_errors()):
        device.display(scene(random.Random(2)))
    bus.unplugged_errno = None
    before = bus.data_bytes
    device.display(scene(random.Random(3)))
    assert bus.data_bytes - before == 1024
    assert device.full_frames == 2


def test_full_frame_keeps_luma_sending_every_frame_whole(clock: FakeClock) -> None:
    assert FRAMEBUFFERS == ("diff_to_previous", "full_frame")
    bus = FakeI2CBus()
    display = ResilientDisplay(oled_factory(bus=bus, framebuffer="full_frame"), clock)
    assert not isinstance(display.device, PartialRedraw)
    rng = random.Random(4)
    image = scene(rng)
    display.display(image)
    before = bus.data_bytes
    display.display(edit(image, rng))
    assert bus.data_bytes - before == 1024
    with pytest.raises(ValueError, match=r"framebuffer 'diff' is unknown: use one of"):
        open_oled(bus=bus, framebuffer="diff")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
