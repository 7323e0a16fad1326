"""Hostile host lines the link must refuse: forbidden characters, look-alikes, long names, and
answers that could outgrow the send queue.

The character rules are checked on the protocol's parser and on a real :class:`DeviceApp`
behind the remote; the paged ``log`` on the whole device (firmware.wiring, luma's dummy
display) over a real TCP link, with ten players of the longest names.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import Game, GameSetup, from_json, load_preset, rules_from_mapping, to_notation
from firmware.link.protocol import (
    _FORBIDDEN,
    LOG_PAGE_BYTES,
    Frames,
    Log,
    Ping,
    Press,
    ProtocolError,
    log_page,
    parse_command,
)
from firmware.names import MAX_NAME_LENGTH
from hal.ports import Button
from hal.serial_link import SerialLink
from tests.link.conftest import Device
from tests.link.test_device_link import (
    Host,
    device_link,
    pair,
    play_to_the_end,
    start_device,
)

# -- characters the docs forbid ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("press keep1\u0085", "control character 0x85 at 11"),
        ("press\u2028keep1", "line separator character U+2028 at 5"),
        ("press \u202ekeep1", "format character U+202E at 6"),
        ("ping a\u200bb", "format character U+200B at 6"),
        ("ping \u2029", "paragraph separator character U+2029 at 5"),
        ("ping \ue000", "private-use character U+E000 at 5"),
        ("ping \u0378", "unassigned character U+0378 at 5"),
        ('setup {"players": ["Anna", "B\\u202een"]}', "format character U+202E in a JSON string"),
        ('setup {"players": ["Anna", "B\\u0085"]}', "control character 0x85 in a JSON string"),
        ('setup {"rules": {"name": "x\\u2028y"}}', "line separator character U+2028 in a JSON"),
    ],
)
def test_forbidden_characters_are_refused(line: str, reason: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_command(line.encode("utf-8"))
    assert reason in str(refused.value) and "\n" not in str(refused.value)


def test_only_categories_that_python_calls_unprintable_are_forbidden() -> None:
    # parse_command looks at each character only when str.isprintable says no: Python's
    # definition of unprintable (its documentation) must cover every forbidden category.
    unprintable = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"}
    assert set(_FORBIDDEN) <= unprintable
    assert parse_command("ping a\u00a0b".encode()) == Ping("a\u00a0b"), "a no-break space is fine"


def test_a_forbidden_character_is_one_error_line_and_changes_nothing() -> None:
    device = Device()
    before = device.app.next
    (answer,) = device.host_sends('setup {"players": ["Anna", "B\\u202een"]}')
    assert answer.startswith("error line contains format character U+202E")
    (echo,) = device.host_sends("ping \u2028".encode())
    assert echo == "error line contains line separator character U+2028 at 5; send plain text lines"
    assert device.app.next == before


@pytest.mark.parametrize(
    "line",
    ["press \u212aeep1", "press keep\u0131", "pre\u017f\u017f keep1", "frames o\u0274"],
)
def test_look_alikes_are_not_folded(line: str) -> None:
    """A Kelvin sign is no K, a dotless i no i, a long s no s: only ASCII folds to lower case."""
    with pytest.raises(ProtocolError):
        parse_command(line.encode("utf-8"))


def test_ascii_words_still_fold() -> None:
    assert parse_command(b"PRESS KEEP1") == Press(Button.KEEP_1)
    assert parse_command(b"Frames ON") == Frames(on=True)


# -- names ---------------------------------------------------------------------------------------


def test_setup_refuses_a_name_longer_than_the_name_rule_allows() -> None:
    device = Device()
    before = device.app.next
    long_name = "x" * 900
    (answer,) = device.host_sends(json.dumps({"players": ["Anna", long_name]}).join(("setup ", "")))
    assert answer == (
        f"error setup: player name 'xxxxxxxxxxxx'… has 900 characters: at most {MAX_NAME_LENGTH}"
    )
    assert device.app.next == before
    longest = "W" * MAX_NAME_LENGTH
    lines = device.host_sends(json.dumps({"players": ["Anna", longest]}).join(("setup ", "")))
    assert lines[0] == "ok setup"


# -- the log comes in pages ----------------------------------------------------------------------


def test_log_lines_parse_with_a_start_and_echoes_stay_ignored() -> None:
    assert parse_command(b"log") == Log()
    assert parse_command(b"log 120") == Log(120)
    assert parse_command('log \uff11\uff12'.encode()) is None  # not digits 0-9: no command
    assert parse_command(b'log {"players": ["Anna"]}') is None  # the device's own header


def test_a_page_holds_whole_events_up_to_the_bound() -> None:
    entries = [json.dumps({"event": "stand", "player": f"P{i}"}) for i in range(10)]
    size = len(entries[0]) + 1
    lines, following = log_page(entries, 0, max_bytes=3 * size)
    assert len(lines) == 3 and following == 3
    lines, following = log_page(entries, 9, max_bytes=3 * size)
    assert len(lines) == 1 and following is None
    lines, following = log_page(entries, 0, max_bytes=1)
    assert len(lines) == 1 and following == 1, "at least one event, however long"
    assert log_page(entries, 10) == ([], None)
    assert log_page(entries, 7)[0] == entries[7:], "the lines as given"


def test_a_long_log_comes_in_pages_that_never_outgrow_the_queue(devices: list) -> None:
    names = tuple(f"{chr(ord('A') + i)}{'w' * (MAX_NAME_LENGTH - 1)}" for i in range(10))
    # Ten of the longest names, and a game of 5 Deckel: two pages still, in a third of the time.
    rules = replace(load_preset("standard"), deckel=5)
    device = start_device("tcp-listen://127.0.0.1:0", setup=GameSetup(names, rules))
    devices.append(device)
    address = device_link(device).address
    assert address is not None
    end = SerialLink(f"socket://{address[0]}:{address[1]}", max_line=1 << 20)
    try:
        host = Host(end).start()
        pair(host, device)
        play_to_the_end(host, limit=20_000)
        entries: list[str] = []
        pages = 0
        start: int | None = 0
        while start is not None:
            lines = host.command(f"log {start}")
            header = json.loads(lines[0].split(" ", 1)[1])
            assert lines[-1] == "end" and header["from"] == start
            body = lines[1:-1]
            assert header["events"] == len(body)
            answer = sum(len(line.encode()) + 1 for line in lines)
            assert sum(len(line.encode()) + 1 for line in body) <= LOG_PAGE_BYTES
            assert answer < 256 * 1024 // 4, "a page is far below the 256 KiB send queue"
            entries += body
            pages += 1
            start = header["next"]
        assert pages >= 2, f"{header['total']} events should need more than one page"
        assert len(entries) == header["total"]
        game_setup = GameSetup(tuple(header["players"]), rules_from_mapping(header["rules"]))
        replayed = Game.replay(game_setup, [from_json(json.loads(line)) for line in entries])
        game = device.app.game
        assert game is not None and to_notation(replayed) == to_notation(game)
        (refused,) = host.command(f"log {header['total'] + 1}")
        assert refused.startswith(f"error log {header['total'] + 1}: the game has")
        assert not [line for line in host.command("state") if line.startswith("overrun")]
    finally:
        end.close()
