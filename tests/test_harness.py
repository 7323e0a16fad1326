"""The shared harness (tests/harness.py) builds what its docstrings promise."""

from __future__ import annotations

import json
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from engine import GameSetup
from firmware.config import config_from_toml
from firmware.screen.views import RollOffView
from firmware.store.roster import ROSTER_FILE
from hal.gpio import GpioInput
from hal.oled import open_dummy
from hal.ports import Button
from hal.storage import StateDirectory
from sim.controls import EdgeHands
from sim.fakes import FakeClock
from tests.hal.test_oled import FakeI2CBus
from tests.harness import build_test_device, make_app, storage_of


def test_a_path_becomes_a_state_directory_and_storage_stays_itself(tmp_path: Path) -> None:
    opened = storage_of(tmp_path)
    assert isinstance(opened, StateDirectory) and opened.root == tmp_path
    assert storage_of(opened) is opened and storage_of(None) is None


def test_make_app_keeps_its_names_in_the_state_directory_it_is_given(tmp_path: Path) -> None:
    config = config_from_toml('[game]\nlanguage = "en"\n')
    app = make_app(config, storage=tmp_path / "state", setup=GameSetup(("Jo", "Lu")))
    assert app.language == "en" and isinstance(app.view, RollOffView)
    assert json.loads((tmp_path / "state" / ROSTER_FILE).read_text())["names"][:2] == ["Jo", "Lu"]


def test_the_device_reads_the_mock_pins_and_drives_the_display_it_built() -> None:
    mock_factory = MockFactory()
    clock = FakeClock(1000.0)
    hands = EdgeHands(clock)
    device = build_test_device(
        clock=clock, pins=mock_factory, inputs=[hands], setup=GameSetup(("Anna", "Ben"))
    )
    try:
        gpio, other = device.inputs
        assert isinstance(gpio, GpioInput) and other is hands
        assert device.display in device.loop.timers
        device.loop.start()
        shown = device.display.device.image  # type: ignore[attr-defined]
        assert shown.tobytes() == device.app.screen().tobytes()
        game = device.app.game
        assert game is not None and game.actions == []
        pin = mock_factory.pin(device.app.config.pins.of(Button.STAND))
        pin.drive_low()  # a press on the real GpioInput, through the decoder
        device.run(until=clock.now() + 0.12)
        pin.drive_high()
        device.run(until=clock.now() + 0.1)
        assert [type(action).__name__ for action in game.actions] == ["RollOff"]
    finally:
        device.close()
        mock_factory.reset()


def test_with_a_bus_the_real_driver_writes_to_it_and_a_given_display_is_no_timer() -> None:
    clock = FakeClock(1000.0)
    bus = FakeI2CBus()
    device = build_test_device(clock=clock, bus=bus, setup=GameSetup(("Anna", "Ben")))
    device.loop.start()
    assert bus.data_bytes >= 1024  # the first frame, whole
    device.close()
    display = open_dummy(clock)
    device = build_test_device(clock=clock, display=display, power=False)
    assert device.display is display and display not in device.loop.timers
    assert device.power is None and device.app.game is None  # no setup: the setup screen
    device.close()
