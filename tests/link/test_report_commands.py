"""Real dice through the link: ``report``, ``correct`` and ``rolloff`` enter a result thrown at
the table, as the device's own entry screen does. The engine checks each (its reason comes back
in the ``error`` line, for a page to word); only a paired host may send them; the device's own
screen follows. The parser's part without a device, the rest on a real TCP link."""

from __future__ import annotations

import json

import pytest

from engine import Game, GameSetup, Rules, load_preset
from firmware.link.protocol import (
    CorrectTurn,
    ProtocolError,
    ReportRollOff,
    ReportTurn,
    Setup,
    help_text,
    parse_command,
)
from firmware.link.tablefeed import TableFeed
from firmware.screen.views import RollOffView, TurnView
from firmware.wiring import Device
from tests.link.test_abandon import watching_host
from tests.link.test_device_link import LinkEnd, pair, start_device

ROLL_OFF = 'rolloff {"dice": [[1, 1, 1], [6, 4, 2], [5, 3, 2]]}'


def test_the_commands_parse_into_their_values() -> None:
    assert parse_command(b'report {"player": "Anna", "dice": [6, 5, 4], "throws": 2}') == (
        ReportTurn("Anna", (6, 5, 4), 2)
    )
    fixed = parse_command(b'correct {"player": "Ben", "dice": [1, 1], "throws": 3, "hand": true}')
    assert fixed == CorrectTurn("Ben", (1, 1), 3, True)
    assert isinstance(fixed, CorrectTurn) and fixed.from_hand
    assert not ReportTurn("Anna", (6, 5, 4), 2).from_hand
    assert ReportTurn("Anna", (1, 1, 1), 1).from_hand
    assert parse_command(ROLL_OFF.encode()) == ReportRollOff(((1, 1, 1), (6, 4, 2), (5, 3, 2)))
    assert ReportTurn.changing and CorrectTurn.changing and ReportRollOff.changing
    assert "report {...}; correct {...}; rolloff" in help_text()
    setup = parse_command(b'setup {"players": ["Anna", "Ben"], "real_dice": true}')
    assert isinstance(setup, Setup) and setup.real_dice is True
    game, _ = setup.on(None)
    assert game.real_dice


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("report", "report needs a JSON object"),
        ("report [6, 5, 4]", "report needs a JSON object, got an array"),
        ('report {"player": "Anna", "dice": [6, 5, 4], "throws": 2, "x": 1}', "unknown key 'x'"),
        ('report {"dice": [6, 5, 4], "throws": 2}', '"player" must be the name'),
        ('report {"player": "Anna", "dice": "654", "throws": 2}', "dice must be a list of whole"),
        ('report {"player": "Anna", "dice": [6, true, 4], "throws": 2}', "dice must be a list"),
        ('report {"player": "Anna", "dice": [6, 5, 4], "throws": 2.5}', '"throws" must be'),
        ('correct {"player": "Anna", "dice": [6, 5, 4], "throws": 2, "hand": 1}', '"hand" must'),
        ('correct {"player": "Anna", "dice": [6, 5, 4], "throws": 1, "blind": "y"}', '"blind"'),
        ('rolloff {"dice": [[1, 1, 1]], "who": []}', 'give only "dice"'),
        ("rolloff {\"dice\": [[1, 1, 1], 6]}", "dice must be a list of whole numbers"),
        ('setup {"real_dice": "yes"}', '"real_dice" must be true'),
    ],
)
def test_a_malformed_entry_gets_one_line_naming_the_problem(line: str, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_command(line.encode())
    message = str(refused.value)
    assert words in message and "\n" not in message


def test_a_paired_host_enters_a_whole_round_and_the_device_follows(
    devices: list[Device], ends: list[LinkEnd]
) -> None:
    setup = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"), real_dice=True)
    device = start_device("tcp-listen://127.0.0.1:0", setup=setup, referee=False)
    devices.append(device)
    host = watching_host(device, ends)
    assert host.game["real_dice"] is True
    assert host.game["entry"]["due"] == "roll_off"

    refused = host.command(ROLL_OFF)  # unpaired: refused, nothing changes
    assert refused == [
        "error rolloff needs pairing: open Koppeln (pair) in the device's menu, then send "
        "pair PIN (or auth TOKEN from an earlier pairing)"
    ]
    assert host.command('report {"player": "Anna"')[0].startswith("error report needs pairing")
    app = device.app
    assert app.game is not None and app.game.phase.value == "roll_off"

    pair(host, device)
    lines = host.command(ROLL_OFF)
    assert lines[-1] == "ok rolloff"
    assert isinstance(app.view, RollOffView) and app.view.message == "Anna fängt an!"
    state = json.loads(lines[-2].split(" ", 1)[1])["game"]
    assert state["entry"] == {
        "due": "turn", "player": "Anna", "most": 3, "limit": 3, "opener": "Anna",
        "opener_most": 3, "reported": [], "last": False, "dice": 3, "blind": False,
        "covered": True, "hand_matters": [],
    }  # fmt: skip

    # The opener takes two throws: the limit for everyone, and the device shows Ben's entry.
    lines = host.command('report {"player": "Anna", "dice": [6, 5, 4], "throws": 2}')
    assert lines[-1] == "ok report"
    view = app.view
    assert isinstance(view, TurnView) and (view.player, view.throw_text) == ("Ben", "2 W. (max. 2)")
    events = [json.loads(line.split(" ", 1)[1]) for line in lines if line.startswith("event ")]
    assert events[0]["event"] == "report" and events[0]["dice"] is None, "under the cup"

    # The engine's words, with its reason for a page to word: over the limit, not Ben's turn.
    over = host.command('report {"player": "Ben", "dice": [2, 2, 1], "throws": 3}')
    assert over == [
        "error report refused: over_limit: 3 throws: Anna opened with 2, the limit for everyone"
    ]
    wrong = host.command('report {"player": "Carla", "dice": [2, 2, 1], "throws": 1}')
    assert wrong == ["error report refused: not_your_turn: it is Ben's turn, not 'Carla''s"]
    seven = host.command('report {"player": "Ben", "dice": [7, 2, 1], "throws": 1}')
    assert seven[0].startswith("error report refused: invalid: ") and "7" in seven[0]

    assert host.command('report {"player": "Ben", "dice": [2, 2, 1], "throws": 1}')[-1] == (
        "ok report"
    )
    # Anna's entry put right: one throw now, which lowers the limit Ben's one throw still meets.
    fixed = host.command('correct {"player": "Anna", "dice": [6, 5, 4], "throws": 1}')
    assert fixed[-1] == "ok correct"
    game = app.game
    assert game is not None and game.limit == 1
    assert [(r.player, r.throws) for r in game.results] == [("Anna", 1), ("Ben", 1)]
    assert host.command('correct {"player": "Carla", "dice": [1, 1, 1], "throws": 1}') == [
        "error correct refused: nothing_to_correct: 'Carla' has no result in this round to "
        "correct (a settled round stays as it is); results so far: Anna, Ben"
    ]
    last = host.command('report {"player": "Carla", "dice": [1, 1, 1], "throws": 1}')
    assert last[-1] == "ok report"
    reveal = next(json.loads(line.split(" ", 1)[1]) for line in last if '"round_over"' in line)
    assert [t["dice"] for t in reveal["turns"]] == [[6, 5, 4], [2, 2, 1], [1, 1, 1]]
    assert app.view.__class__.__name__ == "RevealView", "the device shows the reveal"


def test_a_game_with_the_devices_dice_refuses_a_report(
    devices: list[Device], ends: list[LinkEnd]
) -> None:
    device = start_device("tcp-listen://127.0.0.1:0", referee=False)
    devices.append(device)
    host = watching_host(device, ends)
    assert host.game["real_dice"] is False and host.game["entry"] is None
    pair(host, device)
    answer = host.command('rolloff {"dice": [[1, 1, 1], [6, 4, 2]]}')
    assert answer[0].startswith("error rolloff refused: device_dice: this game is played with")


def test_a_correction_leaves_the_device_as_covered_as_the_report() -> None:
    """Under hidden_last_throw a correction replays the corrected turn: its turn_over is under
    the cup as the report's was, though another turn ended since."""
    game = Game(GameSetup(("Anna", "Ben", "Carla"), Rules(), real_dice=True))
    game.roll_off([(1, 1, 1), (2, 2, 3), (2, 2, 4)])
    feed = TableFeed()
    lines = [feed.event(game, e) for e in game.report((6, 5, 4), 2)]
    lines += [feed.event(game, e) for e in game.report((2, 2, 1), 2)]
    lines += [feed.event(game, e) for e in game.correct("Anna", (6, 5, 3), 2)]
    assert [line["event"] for line in lines][-2:] == ["correct", "turn_over"]
    assert all(line["dice"] is None for line in lines), lines
    assert all(line.get("name") is None for line in lines if line["event"] == "turn_over")
