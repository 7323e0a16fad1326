"""The journal's record format and recovery, on a real state directory."""

from __future__ import annotations

import errno
import json
import zlib

import pytest
from pytest_mock import MockerFixture

from engine import Event, Game, GameSetup, Roll, load_preset, to_json
from firmware.store.journal import (
    FORMAT_VERSION,
    EntryNote,
    Journal,
    JournalError,
    JournalHeader,
    KeepMarks,
    TournamentGame,
    decode_records,
    encode_record,
    read_header,
    read_journal,
    recover,
)
from hal.ports import StorageError
from hal.storage import StateDirectory
from tests.durable.conftest import random_actions


def write_game(
    state: StateDirectory, seed: int, count: int | None = None
) -> tuple[GameSetup, list[Event]]:
    setup, actions = random_actions(seed, rules=load_preset("bvb"))
    actions = actions if count is None else actions[:count]
    journal = Journal.create(state, "g.journal", JournalHeader(setup, "de"))
    for action in actions:
        journal.append(action)
    return setup, actions


def test_record_is_length_crc_and_one_json_line() -> None:
    record = encode_record({"event": "stand", "player": "Jürgen"})
    length, crc, body = record.rstrip(b"\n").split(b" ", 2)
    assert record.endswith(b"\n") and record.count(b"\n") == 1
    assert int(length) == len(body)
    assert int(crc, 16) == zlib.crc32(body)
    assert json.loads(body) == {"event": "stand", "player": "Jürgen"}


def test_a_whole_game_round_trips_with_rules_meta_and_state(state: StateDirectory) -> None:
    setup, actions = write_game(state, seed=7)
    recovery = recover(state, "g.journal")
    assert recovery is not None
    assert recovery.problem is None and not recovery.damaged
    assert recovery.setup == setup and recovery.setup.rules == load_preset("bvb")
    assert recovery.header == JournalHeader(setup, "de")
    assert list(recovery.actions) == actions
    assert recovery.game.is_over
    assert recovery.game.state() == Game.replay(setup, actions).state()
    assert recovery.records == len(actions) + 1


def test_missing_file_is_none(state: StateDirectory) -> None:
    assert recover(state, "nothing.journal") is None


def test_each_append_is_one_small_record(state: StateDirectory) -> None:
    write_game(state, seed=3, count=40)
    data = (state.root / "g.journal").read_bytes()
    records, intact, problem = decode_records(data)
    assert problem is None and intact == len(data)
    assert len(records) == 41
    sizes = [len(line) + 1 for line in data.split(b"\n")[1:-1]]
    assert max(sizes) < 120, "an action record should stay far below one SD page"


def last_record_bounds(data: bytes) -> tuple[int, int]:
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    return start, len(data)


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_truncation_at_every_byte_of_the_last_record(state: StateDirectory, seed: int) -> None:
    setup, actions = write_game(state, seed=seed, count=25)
    data = (state.root / "g.journal").read_bytes()
    start, end = last_record_bounds(data)
    # The game replayed once for each of the two outcomes a cut may have: all, or all but one.
    replayed = {True: Game.replay(setup, actions).state(),
                False: Game.replay(setup, actions[:-1]).state()}  # fmt: skip
    for cut in range(start, end + 1):
        recovery = read_journal(data[:cut])
        complete = cut == end
        assert list(recovery.actions) == (actions if complete else actions[:-1]), cut
        assert recovery.intact_length == (end if complete else start)
        if cut in (start, end):
            assert recovery.problem is None
        else:
            assert recovery.problem is not None and f"at byte {start}" in recovery.problem
            assert f"{cut - start} bytes dropped" in recovery.problem
        assert recovery.game.state() == replayed[complete]


@pytest.mark.parametrize(
    "replacement",
    [0x00, 0x0A, 0x20, "xor1", *(pytest.param(value, marks=pytest.mark.slow)
                                 for value in (0x30, 0x7B, 0xFF))],  # a digit, "{", all ones
)
def test_corruption_at_every_byte_of_the_last_record(
    state: StateDirectory, replacement: int | str
) -> None:
    _, actions = write_game(state, seed=11, count=30)
    data = (state.root / "g.journal").read_bytes()
    start, end = last_record_bounds(data)
    for offset in range(start, end):
        value = data[offset] ^ 1 if replacement == "xor1" else replacement
        assert isinstance(value, int)
        if value == data[offset]:
            continue
        damaged = data[:offset] + bytes([value]) + data[offset + 1:]
        recovery = read_journal(damaged)
        assert list(recovery.actions) == actions[:-1], (offset, value)
        assert recovery.intact_length == start
        assert recovery.problem is not None and f"at byte {start}" in recovery.problem


def test_corruption_in_the_middle_keeps_the_prefix(state: StateDirectory) -> None:
    _, actions = write_game(state, seed=5, count=30)
    data = bytearray((state.root / "g.journal").read_bytes())
    lines = bytes(data).split(b"\n")
    offset = sum(len(line) + 1 for line in lines[:11]) + 20  # inside the record of action 10
    data[offset] ^= 0x40
    recovery = read_journal(bytes(data))
    assert list(recovery.actions) == actions[:10]
    assert recovery.problem is not None and "checksum mismatch" in recovery.problem


def test_a_checksummed_but_illegal_action_ends_the_intact_part(state: StateDirectory) -> None:
    setup, actions = write_game(state, seed=9, count=12)
    game = Game.replay(setup, actions)
    player = game.current_player
    assert player is not None
    wrong = {"n": 12, **to_json(Roll(player, (), (7, 7, 7)))}
    state.append_durable("g.journal", encode_record(wrong))
    recovery = recover(state, "g.journal")
    assert recovery is not None
    assert list(recovery.actions) == actions
    assert recovery.problem is not None and "not a legal next action" in recovery.problem


def test_a_skipped_action_number_is_detected(state: StateDirectory) -> None:
    setup, actions = random_actions(4)
    journal = Journal.create(state, "g.journal", JournalHeader(setup))
    journal.append(actions[0])
    journal.next_index += 1  # as if a record had vanished
    journal.append(actions[1])
    recovery = recover(state, "g.journal")
    assert recovery is not None and list(recovery.actions) == actions[:1]
    assert recovery.problem is not None and "expected action number 1, found 2" in recovery.problem


def test_notes_hold_until_the_next_action(state: StateDirectory) -> None:
    setup, actions = random_actions(6)
    first_roll = next(i for i, action in enumerate(actions) if isinstance(action, Roll))
    journal = Journal.create(state, "g.journal", JournalHeader(setup))
    game = Game(setup)
    for action in actions[: first_roll + 1]:
        journal.append(action)
        game.apply(action)
    keeps = [keep for keep in game.legal_keeps() if keep]
    marks = [tuple(i in keep for i in range(3)) for keep in keeps[:2]]
    journal.note(KeepMarks(marks[0]))
    journal.note(KeepMarks(marks[-1]))
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.note == KeepMarks(marks[-1])
    journal.append(actions[first_roll + 1])
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.note is None
    assert list(recovery.actions) == actions[: first_roll + 2]


def test_a_note_that_does_not_fit_the_game_is_left_out(state: StateDirectory) -> None:
    """Marks before the first throw, an entry in a game of the device's dice: no screen to go
    back to, and not damage either (the journal reads on)."""
    setup, actions = random_actions(6)
    journal = Journal.create(state, "g.journal", JournalHeader(setup))
    journal.append(actions[0])
    journal.note(KeepMarks((True, True, True, True)))
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.note is None and not recovery.damaged
    journal.note(EntryNote((1, 2, 3), 1, True))
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.note is None and not recovery.damaged


def test_the_header_keeps_where_the_game_belongs(state: StateDirectory) -> None:
    setup = GameSetup(("Anna", "Ben", "Carla"), load_preset("dsm"), real_dice=True)
    header = JournalHeader(setup, "en", ("", "", ""), "20261201-193000",
                           TournamentGame("cup26", "table-7", 2, 3))
    Journal.create(state, "g.journal", header)
    assert read_header(state.read_bytes("g.journal") or b"") == header
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.header == header and recovery.actions == ()


def test_a_roll_offs_entries_are_kept_before_any_action(state: StateDirectory) -> None:
    setup = GameSetup(("Anna", "Ben", "Carla"), real_dice=True)
    journal = Journal.create(state, "g.journal", JournalHeader(setup))
    journal.note(EntryNote((2, 1, 1), 1, True, roll_off=((6, 5, 1),)))
    recovery = recover(state, "g.journal")
    assert recovery is not None and not recovery.unplayed
    assert recovery.note == EntryNote((2, 1, 1), 1, True, roll_off=((6, 5, 1),))


def nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"hello world\n", "torn or corrupt length field"),
        (encode_record({"event": "stand", "player": "A"}), "no header record"),
        (encode_record({"journal": "schockbesteck", "format": FORMAT_VERSION + 1}), "format 2"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A"], "rules": {}}),
         "1 players"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {"deckel": "many"}}), "deckel"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": "standard"}), "header field 'rules' is 'standard'"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": "AB",
                        "rules": {}}), "header field 'players' is 'AB'"),
        (encode_record({"journal": "schockbesteck", "format": True}), "format True"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {}, "bots": ["", "cheat"]}), "header field 'bots'"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {}, "language": ["de"]}), "header field 'language'"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {"deckel": nested(40)}}),
         "nested deeper than 32 levels"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {}, "spieltag": "../x"}), "header field 'spieltag'"),
        (encode_record({"journal": "schockbesteck", "format": 1, "players": ["A", "B"],
                        "rules": {}, "tournament": {"event": "cup", "table": "table-1",
                                                    "round": 0, "game": 1}}),
         "header field 'tournament'"),
    ],
)
def test_files_without_a_usable_header(content: bytes, message: str) -> None:
    with pytest.raises(JournalError, match=message):
        read_journal(content, origin="x.journal")


def test_resume_cuts_the_torn_tail_then_appends(state: StateDirectory) -> None:
    setup, actions = random_actions(8)
    journal = Journal.create(state, "g.journal", JournalHeader(setup))
    for action in actions[:10]:
        journal.append(action)
    path = state.root / "g.journal"
    path.write_bytes(path.read_bytes() + encode_record({"n": 10, "event": "x"})[:9])
    recovery = recover(state, "g.journal")
    assert recovery is not None and recovery.damaged
    resumed = Journal.resume(state, "g.journal", recovery)
    resumed.append(actions[10])
    again = recover(state, "g.journal")
    assert again is not None and again.problem is None and list(again.actions) == actions[:11]


@pytest.mark.parametrize("failing", ["hal.storage._write_all", "hal.storage.os.fsync"])
def test_a_header_that_cannot_be_written_leaves_the_old_journal_or_none(
    state: StateDirectory, mocker: MockerFixture, failing: str
) -> None:
    setup, _ = write_game(state, seed=3, count=4)
    before = state.read_bytes("g.journal")
    mocker.patch(failing, side_effect=OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(StorageError, match="no space left"):
        Journal.create(state, "g.journal", JournalHeader(setup))
    with pytest.raises(StorageError, match="no space left"):
        Journal.create(state, "new.journal", JournalHeader(setup))
    assert state.read_bytes("g.journal") == before  # not emptied: the old game is still there
    assert state.read_bytes("new.journal") is None  # not an empty file the next start sets aside
    mocker.stopall()
    assert sorted(path.name for path in state.root.iterdir()) == ["g.journal"]


def test_a_torn_header_is_named_alike_by_both_readers(state: StateDirectory) -> None:
    """A header torn before its newline: the header's reader says so as the whole reader does,
    not that the file is empty."""
    setup, _ = random_actions(3)
    Journal.create(state, "g.journal", JournalHeader(setup))
    path = state.root / "g.journal"
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(JournalError) as whole:
        read_journal(path.read_bytes(), origin="g.journal")
    with pytest.raises(JournalError) as header:
        read_header(path.read_bytes(), origin="g.journal")
    assert "torn" in str(header.value) and str(header.value) == str(whole.value)
