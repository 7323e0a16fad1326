"""The protocol's grammar: host commands, device lines and the frame encoding."""

from __future__ import annotations

import base64
import zlib

import pytest
from PIL import Image, ImageDraw
from pytest_mock import MockerFixture

from engine import Game, GameSetup, Rules, from_json, load_preset, to_notation
from firmware.link.protocol import (
    COMMANDS,
    MAX_LINE,
    Command,
    Frames,
    Hello,
    Help,
    Hold,
    Log,
    Ping,
    Press,
    ProtocolError,
    RulesChange,
    Setup,
    Shake,
    State,
    decode_frame,
    encode_frame,
    help_text,
    parse_command,
    parse_device_line,
    to_json_text,
)
from firmware.link.tablefeed import table_log, table_log_lines, table_snapshot
from hal.ports import SCREEN_SIZE, Button


@pytest.mark.parametrize(
    ("line", "command"),
    [
        (b"press keep1", Press(Button.KEEP_1)),
        (b"PRESS  Stand\r", Press(Button.STAND)),
        (b"\thold flip ", Hold(Button.FLIP)),
        (b"shake", Shake()),
        (b"state", State()),
        (b"log", Log()),
        (b"hello", Hello()),
        (b"help", Help()),
        (b"ping", Ping()),
        (b"ping abc-1", Ping("abc-1")),
        (b"frames on", Frames(on=True)),
        (b"frames OFF", Frames(on=False)),
        (
            'setup {"players": ["Änne", "Bö"], "rules": "bvb"}'.encode(),
            Setup(players=("Änne", "Bö"), rules=load_preset("bvb")),
        ),
    ],
)
def test_commands(line: bytes, command: Command) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"   ",
        b'hello schockbesteck 1 {"device": "schockbesteck"}',
        b'state {"game": null}',
        b'event {"event": "stand", "player": "Anna"}',
        b"frame eJzt",
        b"ok press",
        b"error unknown command 'foo'",
        b"pong 7",
        b"overrun 3",
        b"end",
        b'log {"players": []}',
        b'{"event": "stand", "player": "Anna"}',
        b"help commands: press BUTTON",
        b'stats {"fields": [], "players": {}}',
    ],
)
def test_empty_lines_and_echoed_device_lines_are_ignored(line: bytes) -> None:
    assert parse_command(line) is None


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"jump", "unknown command 'jump'; commands: press, hold, shake, state, log, setup"),
        (b"press", "press: no button given; buttons: keep1, keep2, keep3, flip, stand"),
        (b"press keep4", "press: unknown button 'keep4'"),
        (b"shake hard", "shake takes no argument"),
        (b"unpair me", "unpair takes no argument"),
        (b"frames maybe", "use frames on or frames off"),
        (b"ping a b", "ping takes one token"),
        (b"ping " + b"x" * 65, "ping takes one token"),
        (b"setup", "setup needs a JSON object"),
        (b"setup {players}", "setup: not valid JSON at line 1, column 2"),
        (b"setup [1, 2]", "setup needs a JSON object, got an array"),
        (b"setup " + b"[" * 500 + b"]" * 500, "setup: JSON nested deeper than 32 levels"),
        (b"press \xff\xfe", "line is not UTF-8 (bad byte at 6)"),
        (b"press\x00keep1", "control character 0x00 at 5"),
        (b"press keep1\x08", "control character 0x08"),
        (b"x" * (MAX_LINE + 1), f"line too long: more than {MAX_LINE} bytes"),
    ],
)
def test_bad_lines_name_the_problem(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as error:
        parse_command(line)
    assert reason in str(error.value)
    assert "\n" not in str(error.value)


def test_a_setup_is_parsed_into_typed_values() -> None:
    change = parse_command(b'setup {"rules": {"jule": true}}')
    assert change == Setup(rules=RulesChange({"jule": True}))
    line = b'setup {"rules": {"preset": "dsm", "deckel": 15}, "bots": ["human", "odds", ""]}'
    command = parse_command(line)
    assert isinstance(command, Setup) and isinstance(command.rules, Rules)
    assert command.rules.name == "dsm+" and command.rules.deckel == 15
    # Described in the device's words, as a rules file that changes its preset is.
    assert command.rules.description == "wie dsm, aber 15 Deckel"
    assert command.players is None and command.bots == ("", "odds", "")
    # What the device adds: the players set up now; the people at the end are left out.
    current = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))
    setup, bots = command.on(current)
    assert setup == GameSetup(current.players, command.rules) and bots == ("", "odds")
    assert isinstance(change, Setup)
    rules = change.on(current)[0].rules
    assert rules.jule and rules.deckel == current.rules.deckel, "a change of the current rules"


def test_a_line_of_exactly_the_limit_is_fine() -> None:
    token_line = b"ping " + b"x" * 10 + b" " * (MAX_LINE - 15)
    assert len(token_line) == MAX_LINE
    assert parse_command(token_line) == Ping("x" * 10)


def test_help_lists_every_command() -> None:
    text = help_text()
    for command in COMMANDS:
        assert (command.usage or command.word) in text


# -- frames --------------------------------------------------------------------------------------


def test_frame_bit_order_is_documented_packing() -> None:
    image = Image.new("1", SCREEN_SIZE, 0)
    image.putpixel((0, 0), 1)  # leftmost pixel of the first byte: its top bit
    image.putpixel((9, 0), 1)  # second byte, second pixel
    image.putpixel((127, 63), 1)  # the very last bit of the frame
    packed = zlib.decompress(base64.b64decode(encode_frame(image)))
    assert len(packed) == 1024
    assert packed[0] == 0b1000_0000
    assert packed[1] == 0b0100_0000
    assert packed[1023] == 0b0000_0001
    assert sum(bin(byte).count("1") for byte in packed) == 3


def test_frames_round_trip() -> None:
    image = Image.new("1", SCREEN_SIZE, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((3, 5, 40, 30), outline=1)
    draw.text((50, 20), "Schock aus", fill=1)
    decoded = decode_frame(encode_frame(image))
    assert decoded.mode == "1" and decoded.size == SCREEN_SIZE
    assert decoded.tobytes() == image.tobytes()


def test_frame_encoding_is_compact() -> None:
    blank = encode_frame(Image.new("1", SCREEN_SIZE, 0))
    assert len(blank) < 40  # 1024 zero bytes compress to almost nothing


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("not base64!", "cannot be decoded"),
        (base64.b64encode(b"no zlib").decode(), "cannot be decoded"),
        (base64.b64encode(zlib.compress(b"\0" * 10)).decode(), "holds 10 bytes, expected 1024"),
    ],
)
def test_bad_frames_are_protocol_errors(payload: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        decode_frame(payload)


def test_encode_frame_refuses_other_sizes() -> None:
    with pytest.raises(ValueError, match="128x64"):
        encode_frame(Image.new("1", (64, 32)))


# -- device lines, state and log -----------------------------------------------------------------


def test_device_lines_parse_for_hosts() -> None:
    hello = parse_device_line(b'hello schockbesteck 1 {"version": "0.1.0"}\r')
    assert hello.word == "hello"
    assert hello.payload == {"name": "schockbesteck", "version": "1", "info": {"version": "0.1.0"}}
    assert parse_device_line(b'state {"game": null}').payload == {"game": None}
    assert parse_device_line(b'{"event": "stand"}').payload == {"event": "stand"}
    assert parse_device_line(b"ok press").text == "press"
    with pytest.raises(ProtocolError, match="broken JSON"):
        parse_device_line(b"state {")


def played_game() -> Game:
    game = Game(GameSetup(("Anna", "Ben", "Carla"), load_preset("standard")))
    game.roll_off([[2, 3, 5], [1, 1, 1], [4, 4, 5]])  # Ben throws highest and opens
    game.roll([6, 5, 2])
    game.roll([3], keep=(0, 1))
    return game


def test_snapshot_describes_the_position() -> None:
    game = played_game()
    snapshot = table_snapshot(game, referee=True)
    assert snapshot["phase"] == "turn"
    assert snapshot["players"] == ["Anna", "Ben", "Carla"]
    assert snapshot["turn"]["player"] == game.current_player
    assert snapshot["turn"]["throws"] == 2
    assert snapshot["notation"] == to_notation(game)
    assert snapshot["can"]["stand"] is True


def test_log_replays_to_the_same_game() -> None:
    game = played_game()
    log = table_log(game, referee=True)
    events = [from_json(entry) for entry in log]
    assert [e for e in events if e.is_action] == game.actions
    assert any(not e.is_action for e in events)  # outcomes are included
    replayed = Game.replay(game.setup, events)
    assert to_notation(replayed) == to_notation(game)


def test_the_log_replays_only_what_is_new_since_the_last_log(mocker: MockerFixture) -> None:
    # A page may ask for the log twenty times a second: that must not replay the whole game.
    game = played_game()
    first = table_log(game)
    apply = mocker.spy(Game, "apply")
    assert table_log(game) == first and apply.call_count == 0, "nothing new: nothing replayed"
    game.stand()
    apply.reset_mock()
    grown = table_log(game)
    assert apply.call_count == 1, "the one new action"
    assert grown == table_log(game.copy()), "the same as a whole replay (a copy starts afresh)"
    assert grown[: len(first)] == first and grown[len(first)]["event"] == "stand"
    assert table_log(game, referee=True) != grown, "the referee's log is kept apart"
    assert table_log_lines(game) == [to_json_text(entry) for entry in grown]
def test_a_rules_files_changes_are_named_against_its_preset() -> None:
    """`--rules FILE` with `deckel = 3` is "standard+": the state lists the one change, not every
    key of the rules; rules under a name of their own still list every key."""
    from engine import rules_from_toml
    from firmware.link.tablefeed import rules_changed

    assert rules_changed(rules_from_toml('preset = "standard"\ndeckel = 3\n')) == {"deckel": 3}
    assert rules_changed(rules_from_toml('preset = "bvb"\njule = true\n')) == {"jule": True}
    own = rules_changed(rules_from_toml('name = "Kneipe"\ndeckel = 3\n'))
    assert own["deckel"] == 3 and own["max_throws"] == 3 and "name" not in own
