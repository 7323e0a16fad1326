"""The whole device on a fake clock: gpiozero's mock pins, the real GpioInput, the input decoder,
the main loop, and luma's real SSD1306 driver on a fake I2C bus (or luma's dummy device)."""

from __future__ import annotations

import errno
import logging
import random
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from engine import GameSetup
from firmware.config import DeviceConfig, config_from_toml
from firmware.dice import SeededDice
from firmware.screen.views import (
    BannerView,
    HandOverView,
    MenuView,
    RevealView,
    RollOffView,
    TurnView,
)
from firmware.wiring import Device
from hal.ports import Button, InputEvent, InputKind
from hal.power import PowerState
from hal.serial_link import SerialLink
from sim.fakes import FakeClock
from tests.hal.test_oled import FakeI2CBus
from tests.harness import as_json, build_test_device

from .conftest import ScriptedDice

ROLL_OFF = [(1, 1, 3), (6, 6, 5), (3, 2, 2)]  # Anna opens


class Table:
    """A device on mock pins and a fake clock, with the hands of the players."""

    def __init__(
        self,
        factory: MockFactory,
        *,
        dice: Any,
        config: DeviceConfig | None = None,
        bus: FakeI2CBus | None = None,
        players: tuple[str, ...] = ("Anna", "Ben", "Carla"),
        link: str = "",
    ) -> None:
        """On luma's dummy display, or with ``bus`` on the real SSD1306 driver on that bus."""
        self.config = config or DeviceConfig()
        self.clock = FakeClock(1000.0)
        self.events: list[dict[str, Any]] = []
        self.device: Device = build_test_device(
            self.config,
            clock=self.clock,
            pins=factory,
            bus=bus,
            dice=dice,
            setup=GameSetup(players),
            event_sink=as_json(self.events.append),
            link=SerialLink(link) if link else None,
        )
        self.pins = {button: factory.pin(self.config.pins.of(button)) for button in Button}
        self.tilt = factory.pin(self.config.pins.tilt)
        self.device.loop.start()

    @property
    def app(self) -> Any:
        return self.device.app

    @property
    def view(self) -> Any:
        return self.device.app.view

    def wait(self, seconds: float) -> None:
        self.device.run(until=self.clock.now() + seconds)

    def press(self, button: Button, hold: float = 0.12) -> None:
        self.pins[button].drive_low()
        self.wait(hold)
        self.pins[button].drive_high()
        self.wait(0.1)

    def long_press(self, button: Button) -> None:
        self.press(button, hold=1.0)

    def chattering_press(self, button: Button) -> None:
        """Contacts bounce for a few milliseconds on the way down and up."""
        pin = self.pins[button]
        for level in (0, 1, 0, 1, 0):
            pin.drive_low() if level == 0 else pin.drive_high()
            self.wait(0.004)
        self.wait(0.15)
        for level in (1, 0, 1, 0, 1):
            pin.drive_low() if level == 0 else pin.drive_high()
            self.wait(0.004)
        self.wait(0.1)

    def shake(self, edges: int = 10, gap: float = 0.05, settle: bool = True) -> None:
        for index in range(edges):
            self.tilt.drive_low() if index % 2 == 0 else self.tilt.drive_high()
            self.wait(gap)
        if settle:
            self.wait(0.6)  # the cup stands still: the decoder's settle time passes


@pytest.fixture
def factory(mock_factory: MockFactory) -> MockFactory:
    return mock_factory


def test_a_game_through_the_pins_with_chatter_and_two_buttons_at_once(factory: MockFactory) -> None:
    table = Table(factory, dice=ScriptedDice([*ROLL_OFF, (1, 5, 1), (4,), (6, 5, 4), (2, 3, 4)]))
    assert isinstance(table.view, RollOffView)
    table.shake()
    assert isinstance(table.view, RollOffView) and table.view.message == "Anna fängt an!"
    table.chattering_press(Button.STAND)  # one press, however the contacts bounce
    assert isinstance(table.view, HandOverView) and table.view.player == "Anna"
    table.chattering_press(Button.KEEP_3)
    view = table.view
    assert isinstance(view, TurnView) and view.throw_text == "Wurf 0/3"
    table.shake()
    assert isinstance(table.view, TurnView) and table.view.status == "Schock 5"
    # KEEP_1 and KEEP_3 together: both ones are marked.
    table.pins[Button.KEEP_1].drive_low()
    table.pins[Button.KEEP_3].drive_low()
    table.wait(0.1)
    table.pins[Button.KEEP_1].drive_high()
    table.pins[Button.KEEP_3].drive_high()
    table.wait(0.1)
    assert [d.out for d in table.view.dice] == [True, False, True]
    table.shake()
    assert [d.value for d in table.view.dice] == [1, 4, 1]
    table.press(Button.STAND)
    assert isinstance(table.view, HandOverView) and table.view.player == "Ben"
    table.shake()  # Ben shakes at the hand-over: straight into his throw
    assert isinstance(table.view, TurnView) and table.view.player == "Ben"
    assert [d.value for d in table.view.dice] == [6, 5, 4]
    table.press(Button.STAND)
    table.press(Button.STAND)  # Carla takes the cup
    table.shake()
    assert isinstance(table.view, TurnView) and table.view.status == "Straße 4-3-2"
    table.press(Button.STAND)
    assert isinstance(table.view, RevealView)
    assert table.view.outcome == "Carla +4 aus dem Topf"
    # The display shows what the app shows.
    assert table.device.display.device.image.tobytes() == table.app.screen().tobytes()
    assert [e["event"] for e in table.events][-3:] == ["turn_over", "round_over", "round_started"]


def test_a_shake_that_stops_and_restarts(factory: MockFactory) -> None:
    table = Table(factory, dice=ScriptedDice([*ROLL_OFF, (2, 3, 4), (5, 5, 5)]))
    table.shake()
    table.press(Button.STAND)
    table.press(Button.STAND)
    table.shake(edges=6, settle=False)
    table.wait(0.2)  # a pause shorter than the settle time: still the same shake
    table.shake(edges=6)
    assert table.view.throw_text == "Wurf 1/3"
    table.shake(edges=2)  # a bump on the table is no shake
    assert table.view.throw_text == "Wurf 1/3"
    table.shake(edges=6)  # a new shake after the cup stood still: the next throw
    assert table.view.throw_text == "Wurf 2/3" and table.view.status == "General 5"


def test_a_long_press_opens_the_menu_and_its_release_does_nothing(factory: MockFactory) -> None:
    table = Table(factory, dice=ScriptedDice(ROLL_OFF))
    table.long_press(Button.STAND)
    assert isinstance(table.view, MenuView) and table.view.selected == 0
    table.press(Button.FLIP)
    assert isinstance(table.view, RollOffView)


def test_a_whole_game_through_the_pins_on_the_ssd1306(factory: MockFactory) -> None:
    bus = FakeI2CBus()
    table = Table(factory, dice=SeededDice(7), bus=bus, players=("Anna", "Ben"))
    rng = random.Random(7)
    for _ in range(3000):
        view = table.view
        if isinstance(view, BannerView) and view.keys[2] == "Neu":
            break
        if isinstance(view, TurnView) and view.pot_text != "weiter ▶":  # a turn under way
            choice = rng.random()
            if choice < 0.5:
                table.shake()
            elif choice < 0.7:
                table.press(rng.choice([Button.KEEP_1, Button.KEEP_2, Button.KEEP_3]))
            else:
                table.press(Button.STAND)
        else:
            table.press(Button.KEEP_3)
    else:
        raise AssertionError("the game did not end")
    assert table.events[-1]["event"] == "game_over"
    assert table.view.headline == table.events[-1]["loser"]
    assert table.device.display.online
    assert table.device.display.frames_sent > 50
    # Only the changed area of each frame goes over the bus (hal.redraw.PartialRedraw).
    assert bus.data_bytes < 0.5 * 1024 * table.device.display.frames_sent


def test_the_game_goes_on_while_the_i2c_bus_fails_and_the_display_comes_back(
    factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    bus = FakeI2CBus()
    table = Table(factory, dice=ScriptedDice([*ROLL_OFF, (2, 3, 4)]), bus=bus)
    display = table.device.display
    table.shake()
    bus.unplugged_errno = errno.EREMOTEIO
    with caplog.at_level(logging.WARNING):
        table.press(Button.STAND)
        table.press(Button.STAND)
        table.shake()
    assert not display.online
    assert any("offline" in record.getMessage() for record in caplog.records)
    assert isinstance(table.view, TurnView) and table.view.status == "Straße 4-3-2"
    sent = bus.data_bytes
    bus.unplugged_errno = None
    table.wait(5.0)  # the retry back-off passes
    assert display.online
    # Re-initialised (luma's init blanks the panel: one frame) and the current frame sent once.
    assert bus.data_bytes - sent == 2 * 1024
    table.press(Button.KEEP_1)
    assert 0 < bus.data_bytes - sent - 2 * 1024 < 1024  # then only what the mark changed


@pytest.mark.parametrize("link", ["", "loop://"], ids=["link off", "link on"])
def test_the_panel_comes_back_on_a_static_screen(factory: MockFactory, link: str) -> None:
    """The retries run in the background whatever else sees the frames (the serial link): the
    panel is back within the back-off although nothing on the screen changes."""
    bus = FakeI2CBus()
    table = Table(factory, dice=ScriptedDice(ROLL_OFF), bus=bus, link=link)
    try:
        assert (table.device.remote is not None) == bool(link)
        display = table.device.display
        table.shake()  # the roll-off: "Anna fängt an!"
        bus.unplugged_errno = errno.EREMOTEIO
        table.press(Button.STAND)  # the hand-over cannot be sent: the panel is offline
        assert not display.online and isinstance(table.view, HandOverView)
        bus.unplugged_errno = None
        screen, sent = table.app.screen(), bus.data_bytes
        table.wait(5.0)
        assert table.app.screen() is screen  # nothing on the screen changed meanwhile
        assert display.online
        # Re-initialised (luma's init blanks the panel: one frame) and the hand-over sent once.
        assert bus.data_bytes - sent == 2 * 1024
    finally:
        table.device.close()


def test_dim_sleep_and_a_press_that_only_wakes(factory: MockFactory) -> None:
    config = config_from_toml("[display]\ndim_after_s = 5\nsleep_after_s = 10\n")
    bus = FakeI2CBus()
    table = Table(factory, dice=ScriptedDice(ROLL_OFF), config=config, bus=bus)
    power = table.device.power
    assert power is not None
    table.shake()
    table.wait(6)
    assert power.state is PowerState.DIMMED
    assert [0x81, 8] in bus.commands  # dim contrast
    table.press(Button.STAND)  # dimmed but readable: the press acts
    assert power.state is PowerState.AWAKE and isinstance(table.view, HandOverView)
    table.wait(11)
    assert power.state is PowerState.ASLEEP
    assert bus.commands[-1] == [0xAE]  # display off
    before = table.view
    table.press(Button.STAND)  # wakes the panel, and nothing else
    assert power.state is PowerState.AWAKE
    assert table.view == before and table.device.loop.swallowed == 1
    assert [0xAF] in bus.commands
    table.press(Button.STAND)
    assert isinstance(table.view, TurnView)


def test_menu_brightness_reaches_the_panel(factory: MockFactory) -> None:
    bus = FakeI2CBus()
    table = Table(factory, dice=ScriptedDice(ROLL_OFF), bus=bus)
    table.long_press(Button.STAND)
    for _ in range(table.view.items.index("Helligkeit")):
        table.press(Button.KEEP_2)
    table.press(Button.STAND)
    table.press(Button.KEEP_1)
    assert [0x81, 170] in bus.commands  # previewed on the panel while choosing
    table.press(Button.STAND)
    assert table.app.contrast == 170


def test_a_hosts_press_wakes_a_sleeping_panel_and_acts(factory: MockFactory) -> None:
    """A host's input (the link's, a page's) goes through the loop as the buttons' do: it wakes
    the panel, but it is never swallowed, since the host acted on the frame it saw."""
    config = config_from_toml("[display]\ndim_after_s = 5\nsleep_after_s = 10\n")
    bus = FakeI2CBus()
    table = Table(factory, dice=ScriptedDice(ROLL_OFF), config=config, bus=bus)
    power = table.device.power
    assert power is not None
    table.shake()
    table.press(Button.STAND)
    assert isinstance(table.view, HandOverView)
    table.wait(11)
    assert power.state is PowerState.ASLEEP
    table.device.loop.deliver(InputEvent(InputKind.PRESS, table.clock.now(), Button.STAND))
    table.wait(0.1)
    assert power.state is PowerState.AWAKE and [0xAF] in bus.commands
    assert isinstance(table.view, TurnView) and table.device.loop.swallowed == 0
