"""The composition root: what build_device is handed it closes, also when it cannot finish."""

from __future__ import annotations

import pytest
from pytest_mock import MockerFixture

from firmware.config import DeviceConfig
from firmware.link.remote import Remote
from hal.serial_link import SerialLink
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
