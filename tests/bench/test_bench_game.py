"""The bench's game on the device's wiring: the counting bus, the patient clock, a whole game."""

from __future__ import annotations

import dataclasses
import queue
import threading

import pytest
from luma.core.interface.serial import i2c
from PIL import Image

from engine.rules import load_preset
from hal.oled import open_oled
from hal.ports import Button, Edge, EdgeSource
from hal.settings import OledSettings
from sim.bench.whole_game import (
    FULL_FRAME_WIRE_BYTES,
    CountingBus,
    HumanLike,
    PatientClock,
    RandomRobot,
    play_on_the_wiring,
)


def test_the_bus_counts_what_the_pi_sends_in_managed_mode() -> None:
    bus = CountingBus()
    serial = i2c(bus=bus, address=0x3C)
    serial.command(0x21, 0, 127, 0x22, 0, 7)
    serial.data(list(range(100)))  # luma sends a given bus 32 + 32 + 32 + 4 bytes
    assert (bus.blocks, bus.payload_bytes) == (5, 106)
    # On the Pi: one write for the command, one i2c_rdwr for the data, each with its address
    # and control byte.
    assert (bus.transactions, bus.wire_bytes) == (2, (2 + 6) + (2 + 100))
    serial.command(0x21, 0, 31, 0x22, 0, 1)
    serial.data([0xFF] * 64)  # two full blocks: still one data() call
    assert (bus.transactions, bus.wire_bytes) == (4, 110 + 8 + 66)


def test_a_whole_frame_of_the_oled_backend_costs_what_the_bench_says() -> None:
    bus = CountingBus()
    oled = open_oled(OledSettings(), bus=bus)  # luma's SSD1306 driver, set up on the bus
    before = bus.snapshot()
    oled.display(Image.new("1", (128, 64), 1))  # the first frame goes out whole
    wire, transactions, payload, _ = (a - b for a, b in zip(bus.snapshot(), before, strict=True))
    assert (wire, transactions, payload) == (FULL_FRAME_WIRE_BYTES, 2, 6 + 1024)


def _poll_of(items: queue.SimpleQueue[Edge]) -> object:
    def poll(timeout: float | None) -> Edge | None:
        try:
            return items.get(block=timeout != 0, timeout=timeout or None)
        except queue.Empty:
            return None

    return poll


def test_the_patient_clock_stands_still_while_the_app_waits() -> None:
    items: queue.SimpleQueue[Edge] = queue.SimpleQueue()
    waiting = [True]
    clock = PatientClock(lambda: waiting[0])
    answer = Edge(EdgeSource.BUTTON, True, 0.0, Button.KEEP_1)
    worker = threading.Thread(target=items.put, args=(answer,))
    worker.start()
    assert clock.wait(5.0, _poll_of(items)) is answer  # type: ignore[arg-type]
    worker.join()
    assert clock.now() == 0.0
    waiting[0] = False
    assert clock.wait(5.0, _poll_of(items)) is None  # type: ignore[arg-type]
    assert clock.now() == 5.0


#: The tables of the human-like player's whole games, both in the slow selection: a person and an
#: odds bot, and the bench's own (two people and two odds bots, whose tables at four seats take
#: seconds to build). `make test` plays the bench's game with the random robot.
TABLES = [
    pytest.param(("Anna", "Ben"), ("", "odds"), id="two", marks=pytest.mark.slow),
    pytest.param(
        ("Anna", "Ben", "Carla", "Dieter"), ("", "odds", "", "odds"), id="bench",
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize(("players", "bots"), TABLES)
def test_a_human_like_player_plays_a_whole_game_with_odds_bots_and_hints(
    players: tuple[str, ...], bots: tuple[str, ...]
) -> None:
    rules = dataclasses.replace(load_preset("standard"), deckel=3)
    record = play_on_the_wiring(HumanLike(7), rules=rules, players=players, bots=bots, seed=7)
    assert record.hints > 0 and record.inputs > record.hints
    assert len(record.step_wall) == len(record.step_cpu) > record.inputs
    assert record.latencies and all(latency > 0 for latency in record.latencies)
    assert record.changes[0][0] == FULL_FRAME_WIRE_BYTES  # the first frame is sent whole
    assert all(0 < change[0] <= FULL_FRAME_WIRE_BYTES for change in record.changes)
    assert record.game_s > 60 and record.views


@pytest.mark.parametrize(("players", "bots"), TABLES)
def test_the_random_robot_plays_a_whole_game_too(
    players: tuple[str, ...], bots: tuple[str, ...]
) -> None:
    rules = dataclasses.replace(load_preset("standard"), deckel=3)
    record = play_on_the_wiring(RandomRobot(5), rules=rules, players=players, bots=bots, seed=5)
    assert record.inputs > 0 and record.changes and record.views


def test_real_dice_entry_is_measured_on_the_pins_and_stays_under_its_goal() -> None:
    """Four players' typical results entered on the device's mock pins: every round counts its
    presses, and each entry of a round is at least its STAND (the figures are in the README)."""
    from sim.bench.dice_entry import play_rounds

    presses, seconds = play_rounds(5, seed=3)  # the bench's entry row measures its own
    assert len(presses) == len(seconds) == 5
    assert all(count >= 4 for count in presses)
    # Each press takes at least its time down and the gap after it.
    assert all(s >= count * 0.25 - 0.15 - 1e-6 for count, s in zip(presses, seconds, strict=True))
