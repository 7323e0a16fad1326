"""``abandon`` through the link: a paired host ends the game under way, as the menu's confirmed
"Neues Spiel" does; an unpaired one changes nothing. The whole device on a real TCP link."""

from __future__ import annotations

import json

import pytest

from firmware.link.protocol import Abandon, ProtocolError, help_text, parse_command
from firmware.wiring import Device
from hal.serial_link import SerialLink
from tests.link.test_device_link import Host, LinkEnd, device_link, pair, start_device


def test_abandon_takes_no_argument_and_help_lists_it() -> None:
    assert parse_command(b"abandon") == Abandon()
    assert Abandon.changing
    with pytest.raises(ProtocolError, match="abandon takes no argument"):
        parse_command(b"abandon 3")
    assert "; abandon;" in help_text()


def watching_host(device: Device, ends: list[LinkEnd]) -> Host:
    address = device_link(device).address
    assert address is not None
    end = SerialLink(f"socket://{address[0]}:{address[1]}")
    ends.append(end)
    return Host(end).start()


def test_a_paired_host_ends_the_game_and_the_setup_comes_next(
    devices: list[Device], ends: list[LinkEnd]
) -> None:
    device = start_device("tcp-listen://127.0.0.1:0", referee=False)
    devices.append(device)
    host = watching_host(device, ends)
    assert host.game["phase"] == "roll_off"

    refused = host.command("abandon")  # unpaired: one error, the game goes on
    assert refused == [
        "error abandon needs pairing: open Koppeln (pair) in the device's menu, then send "
        "pair PIN (or auth TOKEN from an earlier pairing)"
    ]
    assert device.app.game is not None and not device.app.game.is_over

    pair(host, device)
    lines = host.command("abandon")
    words = [line.split(" ", 1)[0] for line in lines]
    assert words == ["event", "state", "ok"], lines
    assert json.loads(lines[0].split(" ", 1)[1]) == {"event": "game_abandoned", "game": 1}
    assert lines[-1] == "ok abandon"
    assert device.app.game is None, "the setup is on the screen, no game"
    assert host.command("state")[0].startswith('state {"game":null')

    again = host.command("abandon")
    assert again == ["error abandon refused: no game is running"]

    # From the setup a `setup` starts the next game at once, as the device's own setup does.
    started = host.command('setup {"players": ["Zoe", "Ben"]}')
    assert "ok setup" in started
    game = device.app.game
    assert game is not None and game.players == ("Zoe", "Ben")
