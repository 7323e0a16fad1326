"""The composition root: what build_device is handed it closes, also when it cannot finish."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from firmware.cli.run import tournament_link
from firmware.config import DeviceConfig, config_from_toml
from firmware.link.remote import Remote
from firmware.tournament.reporter import BrokerLink, Reporter
from firmware.wiring import build_device
from hal.oled import open_dummy
from hal.serial_link import SerialLink
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from sim.script import ScriptInput
from tests.harness import build_test_device


def test_a_host_that_cannot_start_closes_everything_the_device_was_handed(
    mocker: MockerFixture,
) -> None:
    config = DeviceConfig()
    clock = FakeClock(0.0)
    hands = ScriptInput([], clock, config.input)
    link = SerialLink("loop://")
    closed_hands = mocker.spy(hands, "close")
    closed_link = mocker.spy(link, "close")
    mocker.patch.object(Remote, "start", side_effect=OSError("the port is busy"))
    with pytest.raises(OSError, match="the port is busy"):
        build_test_device(config, clock=clock, inputs=[hands], link=link)
    assert closed_hands.call_count >= 1 and closed_link.call_count >= 1


def test_a_built_device_closes_its_inputs_and_its_link_once_asked(mocker: MockerFixture) -> None:
    config = DeviceConfig()
    clock = FakeClock(0.0)
    hands = ScriptInput([], clock, config.input)
    link = SerialLink("loop://")
    closed_hands = mocker.spy(hands, "close")
    closed_link = mocker.spy(link, "close")
    device = build_test_device(config, clock=clock, inputs=[hands], link=link)
    assert device.remote is not None and device.remote.link is link
    assert closed_hands.call_count == 0 and closed_link.call_count == 0
    device.close()
    assert closed_hands.call_count >= 1 and closed_link.call_count >= 1


def test_the_reporter_is_made_with_the_running_loop_and_pumped_on_it(
    tmp_path: Path, mocker: MockerFixture
) -> None:
    """The loop exists before the reporter, which calls into it: what the MQTT link's thread
    hands the reporter is pumped on the loop, between the buttons."""
    config = config_from_toml(
        '[tournament]\nbroker = "mqtt://127.0.0.1:9"\nevent = "cup26"\ntable = 7\n'
        'password = "secret"\n'
    )
    clock = FakeClock(100.0)
    pumped_on: list[threading.Thread] = []
    pump = Reporter.pump

    def pumped(reporter: Reporter) -> int:
        pumped_on.append(threading.current_thread())
        return pump(reporter)

    mocker.patch.object(Reporter, "pump", autospec=True, side_effect=pumped)
    make_link = tournament_link(config)
    assert make_link is not None

    def quick_link(
        on_message: Callable[[str, bytes], None], on_change: Callable[[bool], None]
    ) -> BrokerLink:
        """The device's link; no broker listens, and paho's stop at the close waits out its
        reconnect delay (1 s) but for a short one, which the loop's wiring does not depend on."""
        from hal.mqtt import MqttLink

        link = make_link(on_message, on_change)
        assert isinstance(link, MqttLink)
        link._client.reconnect_delay_set(min_delay=0.05, max_delay=0.1)  # type: ignore[arg-type]
        return link

    device = build_device(config, clock=clock, inputs=[], display=open_dummy(clock),
                          storage=StateDirectory(tmp_path), tournament_link=quick_link)
    try:
        reporter = device.reporter
        assert reporter is not None and reporter in device.loop.timers
        thread = threading.Thread(target=reporter.on_connect_change, args=(False,))
        thread.start()
        thread.join()
        assert pumped_on == [], "the link's thread only queues it"
        device.run(until=clock.now() + 0.1)  # the queued call wakes the loop at once
        assert pumped_on and set(pumped_on) == {threading.current_thread()}, "on the loop's"
    finally:
        device.close()
