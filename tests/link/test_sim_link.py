"""Two simulators on one machine: one offers the link (--link), the other is its panel (--attach).

Both are built as `schocken sim` builds them (the firmware's wiring on the simulator's
backends), with luma's dummy display standing in for the window, and run on the real
clock in their own threads. The panel's keys go through its own input decoder and over TCP.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

import schockbesteck.cli
from engine import GameSetup, Phase, load_preset
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from hal.clock import MonotonicClock
from hal.inputs import InputTiming
from hal.oled import open_dummy
from hal.ports import Button
from hal.serial_link import SerialLink
from schockbesteck.cli import main
from sim.attach import PanelDevice, attach_panel
from sim.controls import EdgeHands
from tests.harness import build_test_device

TIMEOUT = 5.0

#: Short timing so that a shake or a press takes milliseconds of real time, not a second.
FAST = InputTiming(debounce_ms=0, hold_ms=300, shake_edges=2, shake_window_ms=300, settle_ms=20)


@pytest.fixture(autouse=True)
def only_the_sim_subcommand(monkeypatch: pytest.MonkeyPatch) -> None:
    """`schocken` through its real main(), with just the sim registered (fewer imports)."""
    commands = schockbesteck.cli.SUBCOMMANDS
    monkeypatch.setattr(schockbesteck.cli, "SUBCOMMANDS", {"sim": commands["sim"]})


@dataclass
class Pair:
    device: Any
    panel: PanelDevice

    def shown(self, runner: Any) -> bytes | None:
        image = runner.display.device.image  # luma's dummy keeps the last frame shown
        return None if image is None else bytes(image.convert("1").tobytes())

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.005)

    def mirrored(self) -> bool:
        device = self.shown(self.device)
        return device is not None and self.shown(self.panel) == device


def _run(runner: Any) -> threading.Thread:
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def pair() -> Iterator[Pair]:
    config = replace(DeviceConfig(), input=FAST)
    clock = MonotonicClock()
    listening = SerialLink("tcp-listen://127.0.0.1:0", baudrate=config.link.baudrate)
    device = build_test_device(
        config,
        clock=clock,
        inputs=[EdgeHands(clock)],
        link=listening,
        dice=SeededDice(3),
        setup=GameSetup(("Anna", "Ben"), load_preset("standard")),
    )
    address = listening.address
    assert address is not None and device.pairing is not None
    url = f"socket://127.0.0.1:{address[1]}"
    pin = device.pairing.show_pin(clock.now())  # as the device's menu shows it (Koppeln)
    link = SerialLink(url, baudrate=config.link.baudrate)
    panel_clock = MonotonicClock()
    panel_display = open_dummy(panel_clock)
    panel = attach_panel(
        config,
        link,
        url=url,
        clock=panel_clock,
        inputs=EdgeHands(panel_clock),
        display=panel_display,
        timers=[panel_display],
        pin=pin,
    )
    threads = [_run(device), _run(panel)]
    yield Pair(device, panel)
    for runner, thread in zip((device, panel), threads, strict=True):
        runner.loop.stop()
        thread.join(TIMEOUT)
        runner.close()


def test_the_panel_mirrors_and_drives_the_other_simulator(pair: Pair) -> None:
    pair.wait_until(pair.mirrored, "the first frame on the panel")
    game = pair.device.app.game
    assert game is not None and game.phase is Phase.ROLL_OFF
    hands = pair.panel.inputs[0]

    hands.tilt(True)  # two edges start a shake, 20 ms of quiet throw the dice
    hands.tilt(False)
    pair.wait_until(lambda: game.phase is not Phase.ROLL_OFF or game.actions, "the roll-off")
    pair.wait_until(pair.mirrored, "the roll-off on the panel")

    before = len(game.actions)
    for _ in range(6):  # press on (roll-off result, hand-over), shake, stand, ...
        hands.press(Button.STAND)
        hands.release(Button.STAND)
        hands.tilt(True)
        hands.tilt(False)
        time.sleep(0.05)  # let the throw settle before the next press
    pair.wait_until(lambda: len(game.actions) > before, "a turn played from the panel")
    pair.wait_until(pair.mirrored, "the device's screen on the panel")
    assert pair.panel.panel.state is not None  # the panel follows the device's state too


def test_attach_refuses_options_that_belong_to_a_device(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--attach", "socket://127.0.0.1:9", "--seed", "3"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert "--attach drives a device elsewhere" in error


def test_attach_to_a_bad_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--attach", "carrier-pigeon://loft"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert "link url 'carrier-pigeon://loft'" in error and "tcp-listen://HOST:PORT" in error


def test_link_cannot_go_with_a_script(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    script = tmp_path / "game.txt"
    script.write_text("shake\n")
    assert main(["sim", "--script", str(script), "--link", "tcp-listen://127.0.0.1:0"]) == 2
    assert "--link needs the window or the terminal" in capsys.readouterr().err


def _device_on(link: SerialLink, config: DeviceConfig, clock: MonotonicClock) -> Any:
    return build_test_device(
        config, clock=clock, inputs=[EdgeHands(clock)], link=link, dice=SeededDice(3),
        setup=GameSetup(("Anna", "Ben"), load_preset("standard")),
    )


def test_the_panel_shows_a_lost_device_and_comes_back_by_itself() -> None:
    config = replace(DeviceConfig(), input=FAST)
    clock = MonotonicClock()
    listening = SerialLink("tcp-listen://127.0.0.1:0")
    assert listening.address is not None
    port = listening.address[1]
    device = _device_on(listening, config, clock)
    url = f"socket://127.0.0.1:{port}"
    panel_clock = MonotonicClock()
    panel_display = open_dummy(panel_clock)
    panel = attach_panel(
        config, SerialLink(url, retry_s=0.1), url=url, clock=panel_clock,
        inputs=EdgeHands(panel_clock), display=panel_display, timers=[panel_display],
        ping_s=0.1, silence_s=0.5,
    )
    pair = Pair(device, panel)
    threads = [_run(device), _run(panel)]
    try:
        pair.wait_until(pair.mirrored, "the first frame on the panel")
        live = pair.shown(panel)
        device.loop.stop()  # the device goes away: its program ends, its port closes
        threads[0].join(TIMEOUT)
        device.close()
        pair.wait_until(lambda: panel.panel.lost, "the panel to notice")
        pair.wait_until(lambda: pair.shown(panel) != live, "the greyed frame on the panel")

        device = _device_on(SerialLink(f"tcp-listen://127.0.0.1:{port}"), config, clock)
        pair.device = device
        threads[0] = _run(device)
        pair.wait_until(lambda: not panel.panel.lost, "the panel to find the device again")
        pair.wait_until(pair.mirrored, "the device's frame on the panel again")
    finally:
        for runner, thread in zip((device, panel), threads, strict=True):
            runner.loop.stop()
            thread.join(TIMEOUT)
            runner.close()
