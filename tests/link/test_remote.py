"""The device side of the protocol, line by line, on a recording link and a small stand-in app.

The stand-in app plays a real engine game with fixed dice so that commands have real effects;
the whole device (DeviceApp and MainLoop) on real transports is in test_device_link.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image
from pytest_mock import MockerFixture

from engine import to_notation
from firmware.link import remote
from firmware.link.protocol import INTERNAL_ERROR, PROTOCOL_VERSION, Command, decode_frame
from firmware.link.remote import DeviceHooks
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind
from tests.link.conftest import AppDevice, Device


@pytest.fixture
def device() -> Device:
    return Device()


def payload(line: str) -> Any:
    return json.loads(line.split(" ", 1)[1])


def test_a_connection_is_greeted_with_hello_and_state(device: Device) -> None:
    hello, state = device.connect()
    word, name, version, info = hello.split(" ", 3)
    assert (word, name, version) == ("hello", "schockbesteck", str(PROTOCOL_VERSION))
    assert json.loads(info)["version"] == "test"
    assert json.loads(info)["screen"] == [128, 64]
    assert payload(state) == {
        "game": None,
        "next": {"players": ["Anna", "Ben", "Carla"], "rules": "standard", "rules_changed": {},
                 "real_dice": False},
    }


def test_nothing_runs_on_the_link_thread(device: Device) -> None:
    assert device.link.on_line is not None
    device.link.on_line(b"press stand")
    assert device.app.inputs == [] and device.link.sent == []  # only queued for the loop
    device.run_pending()
    assert [e.kind for e in device.app.inputs] == [InputKind.PRESS]


def test_inputs_become_the_buttons_events(device: Device) -> None:
    assert device.host_sends("press keep2") == ["ok press"]
    assert device.host_sends("hold stand")[-1] == "ok hold"
    assert device.host_sends("shake")[-1] == "ok shake"
    kinds = [(e.kind, e.button, e.at) for e in device.app.inputs]
    assert kinds == [
        (InputKind.PRESS, Button.KEEP_2, 100.0),
        (InputKind.LONG_PRESS, Button.STAND, 100.0),
        (InputKind.SHAKE_START, None, 100.0),
        (InputKind.THROW, None, 100.0),
    ]


def test_effects_come_before_the_ok(device: Device) -> None:
    lines = device.host_sends("hold stand")  # starts a game: roll-off and the first round
    words = [line.split(" ", 1)[0] for line in lines]
    assert words == ["event", "event", "state", "ok"]
    assert payload(lines[0])["event"] == "roll_off"
    assert payload(lines[1])["event"] == "round_started"
    game = device.app.game
    assert game is not None
    assert payload(lines[2])["game"]["notation"] == to_notation(game)


def test_events_from_the_buttons_are_published_with_one_state(device: Device) -> None:
    device.host_sends("hold stand")
    device.app.handle(InputEvent(InputKind.THROW, 1.0))  # the device's own tilt switch
    device.run_pending()  # the main loop comes round
    lines = device.link.take()
    assert [line.split(" ", 1)[0] for line in lines] == ["event", "state"]
    assert payload(lines[1])["game"]["turn"]["dice"] == [6, 5, 2]


def test_state_log_ping_help(device: Device) -> None:
    assert device.host_sends("ping") == ["pong"]
    assert device.host_sends("ping x7") == ["pong x7"]
    assert device.host_sends("help")[0].startswith("help commands: press BUTTON")
    assert device.host_sends("log") == [
        "error log: no game has been played since the device started"
    ]
    device.host_sends("hold stand")
    device.host_sends("shake")
    device.host_sends("shake")
    (state,) = device.host_sends("state")
    game = device.app.game
    assert game is not None
    assert payload(state)["game"]["notation"] == to_notation(game)
    log = device.host_sends("log")
    header = payload(log[0])
    assert log[0].startswith("log ") and log[-1] == "end"
    assert header["events"] == len(log) - 2
    assert header["rules"]["name"] == "standard"
    events = [json.loads(line) for line in log[1:-1]]
    assert [e["event"] for e in events] == ["roll_off", "round_started", "roll", "roll"]


def test_setup_between_games_and_refused_during_one(device: Device) -> None:
    lines = device.host_sends('setup {"players": ["Änne", "Bö"], "rules": "bvb"}')
    assert lines[0] == "ok setup"
    assert payload(lines[1])["next"] == {
        "players": ["Änne", "Bö"], "rules": "bvb", "rules_changed": {}, "real_dice": False
    }
    lines = device.host_sends('setup {"rules": {"deckel": 15, "jule": true}}')
    assert device.app.next.rules.deckel == 15 and device.app.next.rules.jule
    assert device.app.next.rules.general_above_schock2  # still bvb underneath
    # The newer rules are offered on the link as every other: a dropped cup, hand-only throws
    # (the older key still read), the table's own names.
    lines = device.host_sends(
        'setup {"rules": {"dropped_cup": "round", "strasse_hand_only": true,'
        ' "names": {"schock_2": "Honecker"}}}'
    )
    assert lines[0] == "ok setup"
    rules = device.app.next.rules
    assert rules.dropped_cup.value == "round" and rules.hand_only == ("strasse",)
    assert rules.names == (("schock_2", "Honecker"), ("general", "Jenie"))
    assert payload(lines[1])["next"]["rules_changed"]["dropped_cup"] == "round"
    device.host_sends("hold stand")  # a game starts
    before = device.app.next
    (refusal,) = device.host_sends('setup {"players": ["X", "Y"]}')
    assert refusal.startswith("error setup refused: a game is running")
    assert device.app.next == before


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('setup {"players": ["Solo"]}', "error setup: 1 players: allowed are 2 to 10"),
        ('setup {"players": "Anna"}', 'error setup: "players" must be a list of names'),
        ('setup {"rules": "/etc/passwd"}', "error setup: unknown rules '/etc/passwd'; presets:"),
        ('setup {"rules": {"deckel": 1}}', "error setup: deckel = 1: allowed are 2 to 99"),
        ('setup {"rules": {"jule": "yes"}}', "error setup: jule = 'yes': must be true or false"),
        ('setup {"rules": 3}', 'error setup: "rules" must be a preset name or an object'),
        ('setup {"rules": {"dropped_cup": "floor"}}',
         "error setup: dropped_cup = 'floor': allowed are 'round', 'deckel'"),
        ('setup {"rules": {"names": {"general": "Superbombe12"}}}',
         "error setup: names.general = 'Superbombe12': 'Superbombe12 6' is 81 pixels wide"),
        ('setup {"rules": {"hand_only": ["schock"]}}',
         "error setup: hand_only = ['schock']: unknown throw 'schock'"),
        ('setup {"colour": "red"}', "error setup: unknown key 'colour'"),
        ("setup {}", "error setup: nothing to set"),
    ],
)
def test_bad_setups_are_refused_with_a_reason(device: Device, line: str, reason: str) -> None:
    before = device.app.next
    (answer,) = device.host_sends(line)
    assert answer.startswith(reason)
    assert device.app.next == before


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        # A rules object without a preset changes the current rules: checked on them, it comes
        # before the players, as in the payload.
        ('setup {"rules": {"penalty_deckel": 20}, "players": ["Solo"]}',
         "error setup: penalty_deckel = 20: allowed are 0 to deckel (13)"),
        ('setup {"rules": {"deckel": 20}, "players": ["Solo"]}',
         "error setup: 1 players: allowed are 2 to 10"),
        # Without players a bots list is as long as the players set up now.
        ('setup {"bots": ["", "odds", "", "odds"]}',
         'error setup: "bots" must be a list of at most 3 entries'),
        ('setup {"bots": "odds"}', 'error setup: "bots" must be a list of at most 3 entries'),
        ('setup {"players": ["Anna", "Ben"], "bots": "odds"}',
         'error setup: "bots" must be a list of at most 2 entries'),
    ],
)  # fmt: skip
def test_a_setup_with_two_problems_names_the_first(
    device: Device, line: str, reason: str
) -> None:
    (answer,) = device.host_sends(line)
    assert answer.startswith(reason), answer


def test_pairing_and_a_running_game_come_before_what_a_setup_says() -> None:
    unpaired = AppDevice(trust_serial=False, referee=False)
    unpaired.connect()
    for line in ('setup {"colour": "red"}', 'setup {"bots": 3}', 'setup {"players": ["A"]}'):
        (answer,) = unpaired.host_sends(line)
        assert answer.startswith("error setup needs pairing"), answer
        (answer,) = AppDevice().host_sends(line)  # paired, but its game runs
        assert answer.startswith("error setup refused: a game is running"), answer
    (answer,) = unpaired.host_sends("setup {colour}")  # a line that is no JSON is just that
    assert answer.startswith("error setup: not valid JSON")


def test_frames_on_request_only_when_changed(device: Device) -> None:
    show = device.remote.show  # the main loop's frame listener: every frame the OLED is given
    first = device.app.screen()
    show(first)
    assert device.link.take() == []  # frames are off
    lines = device.host_sends("frames on")
    assert lines[0] == "ok frames on"
    assert device.link.sent == [] and len(lines) == 2
    assert decode_frame(lines[1].split(" ", 1)[1]).tobytes() == first.tobytes()
    show(first)  # unchanged: nothing sent
    assert device.link.take() == []
    device.app.inputs.append(InputEvent(InputKind.PRESS, 0.0, Button.FLIP))
    second = device.app.screen()
    show(second)
    ((line, droppable),) = device.link.sent
    assert droppable and decode_frame(line.split(" ", 1)[1]).tobytes() == second.tobytes()
    device.link.take()
    assert device.host_sends("frames off") == ["ok frames off"]
    show(first)
    assert device.link.take() == []


def test_a_new_connection_switches_frames_off(device: Device) -> None:
    device.host_sends("frames on")
    device.connect()
    device.remote.show(Image.new("1", SCREEN_SIZE, 1))
    assert device.link.take() == []


def test_a_crash_in_the_app_is_one_error_line(
    device: Device, caplog: Any, mocker: MockerFixture
) -> None:
    mocker.patch.object(remote, "QUIET", remote.QuietLog(remote.logger))  # none logged yet

    def broken(event: InputEvent) -> None:
        raise RuntimeError("bug")

    device.remote._hooks = DeviceHooks(broken, lambda: None, lambda setup: None)
    with caplog.at_level("ERROR"):
        assert device.host_sends("press keep1") == [f"error {INTERNAL_ERROR}"], "no details"
    (logged,) = caplog.records
    assert logged.exc_info is None, "one line, no traceback"
    assert logged.getMessage().startswith("link: a command failed: bug at "), "where it failed"


def test_a_command_parsed_but_not_carried_out_still_gets_exactly_one_answer(
    device: Device, mocker: MockerFixture
) -> None:
    @dataclass(frozen=True, slots=True)
    class Shout(Command):
        """A command the protocol might learn before the remote does."""

        word = "shout"

    device.connect()
    mocker.patch("firmware.link.remote.read_line", return_value=Shout())
    answer = device.host_sends("shout")
    assert answer == [f"error {INTERNAL_ERROR}"]
