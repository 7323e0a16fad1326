"""`schocken run` on a machine without GPIO and I2C, and the builders' self-test on mock pins."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from pytest_mock import MockerFixture

import schockbesteck.cli as cli
from firmware.check import CheckApp, TappedDecoder
from firmware.config import DeviceConfig
from firmware.loop import MainLoop
from hal.gpio import GpioInput
from hal.oled import ResilientDisplay
from hal.ports import Button
from sim.bench.whole_game import CountingBus
from sim.fakes import FakeClock


@pytest.fixture
def run_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with just `run`, so this branch's test does not depend on the others."""
    monkeypatch.setattr(cli, "SUBCOMMANDS", {"run": cli.SUBCOMMANDS["run"]})
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


@pytest.mark.skipif(Path("/dev/i2c-1").exists(), reason="this machine has an I2C bus")
@pytest.mark.parametrize("extra", [[], ["--check"]])
def test_run_without_the_hardware_says_so_in_one_line(
    run_only: None, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["run", *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("schocken run: error: ")
    assert "no I2C bus /dev/i2c-1" in err and "`schocken sim`" in err


def test_run_with_a_bad_config_names_the_key(
    run_only: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.toml").write_text("[display]\nrotate = 5\n")
    assert cli.main(["run", "--config", str(tmp_path / "config.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "display.rotate = 5 is not allowed" in err


def test_run_shows_its_first_frame_before_it_loads_the_gpio_and_stops_on_sigterm(
    run_only: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mocker: MockerFixture,
    mock_factory: MockFactory,
) -> None:
    """The device's own wiring on mock pins and a counting bus (the bench's first frame)."""
    import firmware.cli.run as run
    import hal.oled

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    claims = mocker.spy(GpioInput, "__init__")
    frame_after_claims: list[int] = []

    class Bus(CountingBus):
        def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
            super().write_i2c_block_data(address, control, data)
            # luma blanks the panel when it starts (1024 pixel bytes), then the first frame.
            if self.payload_bytes >= 2 * 1030 and not frame_after_claims:
                frame_after_claims.append(claims.call_count)
                os.kill(os.getpid(), signal.SIGTERM)  # as systemd stops the service

    oled = hal.oled.open_resilient_oled
    monkeypatch.setattr(
        hal.oled,
        "open_resilient_oled",
        lambda settings, clock, **options: oled(settings, clock, bus=Bus(), **options),
    )
    monkeypatch.setattr(run, "_missing_hardware", lambda config, gpio_error: gpio_error)
    (tmp_path / "config.toml").write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    usual = signal.getsignal(signal.SIGTERM)
    try:
        assert cli.main(["run", "--config", str(tmp_path / "config.toml")]) == 0
    finally:
        signal.signal(signal.SIGTERM, usual)
    assert frame_after_claims == [0]  # the first frame went out before any pin was claimed
    assert claims.call_count == 1  # then the buttons, once


def test_the_self_test_lists_presses_and_counts_tilt_edges(mock_factory: MockFactory) -> None:
    config = DeviceConfig()
    clock = FakeClock()
    app = CheckApp(config)
    gpio = GpioInput(clock, config.pins, pin_factory=mock_factory)
    panel = dummy(width=128, height=64, mode="1")
    loop = MainLoop(
        app,
        clock=clock,
        inputs=[gpio],
        decoder=TappedDecoder(config.input, app.note_edge),
        display=ResilientDisplay(panel, clock),
    )
    loop.run()
    blank = panel.image.tobytes()
    assert panel.image.getpixel((0, 0)) and panel.image.getpixel((127, 63))  # the edge frame
    flip = mock_factory.pin(config.pins.flip)
    flip.drive_low()
    loop.run(until=clock.now() + 0.1)
    assert app.down == {Button.FLIP} and panel.image.tobytes() != blank
    flip.drive_high()
    loop.run(until=clock.now() + 0.1)
    assert app.presses[Button.FLIP] == 1 and app.lines[-1] == "gedrückt: FLIP"
    tilt = mock_factory.pin(config.pins.tilt)
    for index in range(6):
        tilt.drive_low() if index % 2 == 0 else tilt.drive_high()
        loop.run(until=clock.now() + 0.05)
    loop.run(until=clock.now() + 1)
    assert app.tilt_edges == 6 and app.shakes == 1
    gpio.close()


def test_the_device_holds_its_state_directory_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import os
    from dataclasses import replace

    from firmware.cli import CliError
    from firmware.cli.run import locked_state_directory
    from firmware.config import StorageConfig
    from hal.storage import StateDirectory

    config = replace(DeviceConfig(), storage=StorageConfig(str(tmp_path / "state")))
    other = StateDirectory(tmp_path / "state")
    other.lock()  # a simulator, or a second `schocken run`
    with pytest.raises(CliError) as refused:
        locked_state_directory(config)
    assert str(refused.value) == (
        f"the state directory {tmp_path / 'state'} is in use by another Schockbesteck (process "
        f"{os.getpid()}): stop that one first (the service: sudo systemctl stop schockbesteck), "
        "or give this one another [storage] state_dir"
    )
    other.unlock()
    mine = locked_state_directory(config)
    with pytest.raises(CliError):
        locked_state_directory(config)
    mine.unlock()

    (tmp_path / "file").write_text("")  # a state directory that cannot be made: play on
    broken = replace(DeviceConfig(), storage=StorageConfig(str(tmp_path / "file" / "state")))
    with caplog.at_level("WARNING"):
        storage = locked_state_directory(broken)
    assert storage.root == tmp_path / "file" / "state"
    assert "playing on without the lock" in caplog.text
