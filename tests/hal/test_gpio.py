"""The gpiozero backend on gpiozero's own MockFactory pins, through the real decoder."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from hal.gpio import (
    HEADER_PIN_OF_BCM,
    GpioError,
    GpioInput,
    GpioPins,
    describe_wiring,
    format_wiring,
)
from hal.inputs import InputDecoder
from hal.ports import Button, Edge, EdgeSource, InputBackend, InputEvent, InputKind
from sim.fakes import FakeClock

CONFIG = Path(__file__).parents[2] / "deploy" / "config.toml"


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory per test, reset afterwards so no pin stays reserved."""
    pin_factory = MockFactory()
    yield pin_factory
    pin_factory.reset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def gpio(factory: MockFactory, clock: FakeClock) -> Iterator[GpioInput]:
    backend = GpioInput(clock, pin_factory=factory)
    yield backend
    backend.close()


def started(gpio: GpioInput) -> list[Edge]:
    edges: list[Edge] = []
    gpio.start(edges.append)
    return edges


def test_gpio_input_is_an_input_backend(gpio: GpioInput) -> None:
    assert isinstance(gpio, InputBackend)


def test_buttons_use_pull_ups_and_no_bounce_time(gpio: GpioInput, factory: MockFactory) -> None:
    for bcm in (17, 27, 22, 23, 24, 25):
        pin = factory.pin(bcm)
        assert pin.pull == "up"
        assert pin.bounce is None
        assert pin.state  # idle high through the pull-up


def test_press_and_release_become_stamped_edges(
    gpio: GpioInput, factory: MockFactory, clock: FakeClock
) -> None:
    edges = started(gpio)
    factory.pin(17).drive_low()
    clock.advance(0.25)
    factory.pin(17).drive_high()
    assert edges == [
        Edge(EdgeSource.BUTTON, True, 100.0, Button.KEEP_1),
        Edge(EdgeSource.BUTTON, False, 100.25, Button.KEEP_1),
    ]


def test_every_button_reports_on_its_configured_pin(factory: MockFactory, clock: FakeClock) -> None:
    pins = GpioPins(keep1=5, keep2=6, keep3=13, flip=19, stand=26, tilt=16)
    backend = GpioInput(clock, pins, pin_factory=factory)
    try:
        edges = started(backend)
        for bcm in (5, 6, 13, 19, 26):
            factory.pin(bcm).drive_low()
            factory.pin(bcm).drive_high()
        reported = [edge.button for edge in edges if edge.active]
        assert reported == [Button.KEEP_1, Button.KEEP_2, Button.KEEP_3, Button.FLIP, Button.STAND]
        assert backend.pins.of(Button.FLIP) == 19
    finally:
        backend.close()


def test_tilt_edges_report_both_directions(gpio: GpioInput, factory: MockFactory) -> None:
    edges = started(gpio)
    tilt = factory.pin(25)
    for _ in range(3):
        tilt.drive_low()
        tilt.drive_high()
    assert [(edge.source, edge.active, edge.button) for edge in edges] == [
        (EdgeSource.TILT, True, None),
        (EdgeSource.TILT, False, None),
    ] * 3


def test_no_edges_before_start_or_after_close(factory: MockFactory, clock: FakeClock) -> None:
    backend = GpioInput(clock, pin_factory=factory)
    factory.pin(17).drive_low()  # nobody listening yet: dropped
    factory.pin(17).drive_high()
    edges = started(backend)
    factory.pin(24).drive_low()
    backend.close()
    backend.close()  # idempotent
    assert [edge.button for edge in edges] == [Button.STAND]
    with pytest.raises(GpioError, match="closed"):
        backend.start(edges.append)


def test_close_releases_the_pins(factory: MockFactory, clock: FakeClock) -> None:
    GpioInput(clock, pin_factory=factory).close()
    again = GpioInput(clock, pin_factory=factory)  # would raise GPIOPinInUse if still claimed
    again.close()


def test_a_busy_pin_names_the_key_and_releases_the_others(
    factory: MockFactory, clock: FakeClock
) -> None:
    squatter = DigitalInputDevice(25, pin_factory=factory)
    with pytest.raises(GpioError, match=r"^cannot use pins\.tilt \(BCM 25, header pin 22\): "):
        GpioInput(clock, pin_factory=factory)
    squatter.close()
    GpioInput(clock, pin_factory=factory).close()  # the five buttons were released


def test_edges_from_another_thread_reach_a_queue(gpio: GpioInput, factory: MockFactory) -> None:
    received: queue.Queue[Edge] = queue.Queue()
    gpio.start(received.put)
    presser = threading.Thread(target=factory.pin(23).drive_low)
    presser.start()
    presser.join()
    assert received.get(timeout=1).button is Button.FLIP


# --- through the real decoder -------------------------------------------------------------------


def decode_live(
    decoder: InputDecoder, clock: FakeClock, edges: list[Edge], seconds: float
) -> list[InputEvent]:
    """Feed what the pins reported, then let the decoder's timers run for ``seconds``."""
    for edge in edges:
        decoder.feed(edge)
    edges.clear()
    events = decoder.advance(clock.now())
    end = clock.now() + seconds
    while (deadline := decoder.next_deadline()) is not None and deadline <= end:
        clock.set(max(deadline, clock.now()))
        events += decoder.advance(clock.now())
    clock.set(end)
    return events + decoder.advance(end)


def test_a_chattering_button_on_mock_pins_gives_one_press(
    gpio: GpioInput, factory: MockFactory, clock: FakeClock
) -> None:
    decoder, edges, pin = InputDecoder(), started(gpio), factory.pin(22)
    for _ in range(4):  # 2 ms bounces on the way down
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    assert decode_live(decoder, clock, edges, 0.2) == []  # still held
    pin.drive_high()
    events = decode_live(decoder, clock, edges, 0.1)
    assert [(e.kind, e.button) for e in events] == [(InputKind.PRESS, Button.KEEP_3)]


def test_holding_a_mock_button_gives_a_long_press_while_held(
    gpio: GpioInput, factory: MockFactory, clock: FakeClock
) -> None:
    decoder, edges = InputDecoder(), started(gpio)
    factory.pin(24).drive_low()
    events = decode_live(decoder, clock, edges, 1.0)
    assert [(e.kind, e.button) for e in events] == [(InputKind.LONG_PRESS, Button.STAND)]
    assert events[0].at == pytest.approx(100.8)
    factory.pin(24).drive_high()
    assert decode_live(decoder, clock, edges, 1.0) == []


def test_a_shake_on_the_mock_tilt_pin_throws(
    gpio: GpioInput, factory: MockFactory, clock: FakeClock
) -> None:
    decoder, edges, tilt = InputDecoder(), started(gpio), factory.pin(25)
    for _ in range(6):
        tilt.drive_low()
        clock.advance(0.05)
        tilt.drive_high()
        clock.advance(0.05)
    events = decode_live(decoder, clock, edges, 1.0)
    assert [e.kind for e in events] == [InputKind.SHAKE_START, InputKind.THROW]
    assert events[1].at == pytest.approx(100.55 + 0.4)


def test_a_bump_on_the_mock_tilt_pin_is_nothing(
    gpio: GpioInput, factory: MockFactory, clock: FakeClock
) -> None:
    decoder, edges, tilt = InputDecoder(), started(gpio), factory.pin(25)
    tilt.drive_low()
    clock.advance(0.01)
    tilt.drive_high()
    assert decode_live(decoder, clock, edges, 2.0) == []


# --- pins and wiring ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"keep1": 28}, r"pins\.keep1 = 28 is not a GPIO: use a BCM number from 0 to 27"),
        ({"flip": -1}, r"pins\.flip = -1 is not a GPIO"),
        ({"tilt": "25"}, r"pins\.tilt = '25' is not a GPIO"),
        ({"stand": True}, r"pins\.stand = True is not a GPIO"),
        ({"keep2": 2}, r"pins\.keep2 = 2 is the OLED's I2C SDA line: .* except 2 and 3"),
        ({"keep3": 3}, r"pins\.keep3 = 3 is the OLED's I2C SCL line"),
        ({"tilt": 17}, r"pins\.tilt = 17 is already used by pins\.keep1"),
    ],
)
def test_bad_pins_are_rejected_naming_the_key(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        GpioPins(**changes)  # type: ignore[arg-type]


def test_default_pins_match_the_config_contract() -> None:
    config = tomllib.loads(CONFIG.read_text())
    assert GpioPins(**config["pins"]) == GpioPins()


def test_wiring_table_matches_the_header_pins_in_the_config_comments() -> None:
    documented = {
        key: int(header)
        for key, header in re.findall(r"^(\w+) = \d+ +# header pin (\d+)", CONFIG.read_text(), re.M)
    }
    described = {row.name: row.header_pin for row in describe_wiring() if row.bcm is not None}
    assert documented and all(described[key] == pin for key, pin in documented.items())


def test_wiring_gives_each_switch_a_ground_next_to_it() -> None:
    for row in describe_wiring(GpioPins(keep1=4, keep2=21, keep3=0, flip=14, stand=12, tilt=26)):
        if row.ground_pin is not None:
            assert row.ground_pin in (6, 9, 14, 20, 25, 30, 34, 39)
            assert abs((row.ground_pin - 1) // 2 - (row.header_pin - 1) // 2) <= 1


def test_header_map_is_a_bijection_onto_gpio_header_pins() -> None:
    assert sorted(HEADER_PIN_OF_BCM) == list(range(28))
    assert len(set(HEADER_PIN_OF_BCM.values())) == 28


def test_format_wiring_lists_every_connection() -> None:
    table = format_wiring()
    assert "keep1        17   11    9  button to ground" in table
    assert "oled SDA      2    3" in table
    assert len(table.splitlines()) == 1 + 6 + 4


def test_importing_the_module_does_not_import_gpiozero() -> None:
    code = "import sys, hal.gpio; sys.exit('gpiozero' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
