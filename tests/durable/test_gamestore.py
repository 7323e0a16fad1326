"""The game store: resume, archive, statistics and storage failures on a real directory."""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from engine import Game, GameSetup
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import render
from firmware.screen.views import BannerView
from firmware.store.gamestore import (
    CURRENT,
    STATS,
    DamageReport,
    GameStore,
    StoreLimits,
    archive_name,
)
from firmware.store.journal import Journal, JournalHeader, encode_record
from firmware.store.stats import PlayerStats, count_game
from hal.storage import StateDirectory
from tests.durable.conftest import blattschuss_game, random_actions


def play_through(store: GameStore, setup: GameSetup, actions: list) -> Game:
    """Play ``actions`` as the device does: apply, then record before showing."""
    game = Game(setup)
    store.begin(JournalHeader(setup, "de"))
    for action in actions:
        store.record(game.apply(action))
    return game


def test_counting_a_known_game() -> None:
    setup, actions = blattschuss_game()
    assert count_game(setup, actions) == {
        "Anna": PlayerStats(games=1, lost=0, halves_lost=0, blattschuss=0, schocks=0, schock_aus=2),
        "Ben": PlayerStats(games=1, lost=1, halves_lost=2, blattschuss=1, schocks=1, schock_aus=0),
    }
    assert count_game(setup, actions[:-1]) == {}, "an unfinished game counts for nobody"


def test_a_finished_game_is_archived_and_counted(state: StateDirectory) -> None:
    store = GameStore(state)
    assert store.open() is None
    setup, actions = blattschuss_game()
    play_through(store, setup, actions)
    assert not store.recording and store.failure is None
    assert state.names() == [archive_name(1), STATS]
    assert store.stats()["Ben"].blattschuss == 1
    stored = json.loads(state.read_text(STATS) or "")
    assert stored["counted_through"] == 1
    assert stored["players"]["Anna"]["schock_aus"] == 2


def test_an_interrupted_game_is_offered_for_resume_and_continues(state: StateDirectory) -> None:
    setup, actions = random_actions(21)
    play_through(GameStore(state), setup, actions[:15])
    store = GameStore(state)
    recovery = store.open()
    assert recovery is not None and list(recovery.actions) == actions[:15]
    assert store.resume(recovery)
    game = recovery.game
    for action in actions[15:]:
        store.record(game.apply(action))
    assert game.is_over
    assert [name for _, name in store.archived()] == [archive_name(1)]
    assert sum(figures.lost for figures in store.stats().values()) == 1


def test_stats_are_counted_again_only_when_the_files_change(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    # A page may ask for the statistics twenty times a second; a count replays the journal.
    store = GameStore(state)
    assert store.open() is None
    setup, actions = blattschuss_game()
    game = Game(setup)
    store.begin(JournalHeader(setup, "de"))
    for action in actions[:-1]:
        store.record(game.apply(action))
    read = mocker.spy(store, "_read_quietly")
    assert store.stats() == {} and read.call_count == 1
    assert store.stats() == {} and read.call_count == 1, "nothing changed: nothing read"
    store.record(game.apply(actions[-1]))  # the last action: the game is archived and counted
    before = read.call_count
    assert store.stats()["Ben"].blattschuss == 1 and read.call_count > before, "counted anew"
    counted = read.call_count
    assert store.stats() == GameStore(state).stats(), "the same as a fresh count"
    assert read.call_count == counted


def test_discard_drops_the_interrupted_game(state: StateDirectory) -> None:
    setup, actions = random_actions(22)
    play_through(GameStore(state), setup, actions[:5])
    store = GameStore(state)
    assert store.open() is not None
    store.discard()
    assert GameStore(state).open() is None
    assert store.stats() == {}


def test_a_torn_tail_is_cut_reported_and_never_blocks_start(
    state: StateDirectory, caplog: pytest.LogCaptureFixture
) -> None:
    setup, actions = random_actions(23)
    play_through(GameStore(state), setup, actions[:8])
    state.append_durable(CURRENT, encode_record({"n": 8, "event": "stand"})[:-7])
    with caplog.at_level(logging.WARNING, logger="schockbesteck.storage"):
        store = GameStore(state)
        recovery = store.open()
    assert recovery is not None and list(recovery.actions) == actions[:8]
    assert len(store.notices) == 1
    assert "damaged end cut off, the game resumes with 8 actions" in store.notices[0]
    assert "damaged end cut off" in caplog.text
    # The file itself is repaired: a second start finds nothing to report.
    again = GameStore(state)
    assert again.open() is not None and again.notices == []


def test_garbage_instead_of_a_journal_is_moved_aside(state: StateDirectory) -> None:
    garbage = b"\x00\x00\x00\x00 power cut during the header"
    state.append_durable(CURRENT, garbage)
    store = GameStore(state)
    assert store.open() is None
    assert "not a Schockbesteck journal" in store.notices[0]
    assert CURRENT not in state.names()
    [report] = store.damage
    assert report.kept_in is not None and report.resumed_actions is None
    assert (state.root / report.kept_in).read_bytes() == garbage


def test_power_cut_between_last_action_and_archive(state: StateDirectory) -> None:
    setup, actions = blattschuss_game()
    journal = Journal.create(state, CURRENT, JournalHeader(setup))
    for action in actions:
        journal.append(action)  # the final action reached the disk, the rename did not
    store = GameStore(state)
    assert store.open() is None, "a finished game is not offered for resume"
    assert [name for _, name in store.archived()] == [archive_name(1)]
    assert store.stats()["Ben"].lost == 1
    GameStore(state).open()
    assert GameStore(state).stats()["Ben"].lost == 1, "counted exactly once"


def test_power_cut_between_archive_and_statistics(state: StateDirectory) -> None:
    store = GameStore(state)
    setup, actions = blattschuss_game()
    play_through(store, setup, actions)
    before = state.read_text(STATS)
    play_through(store, setup, actions)
    assert before is not None
    state.write_atomic(STATS, before)  # as if the plug was pulled before stats.json was replaced
    assert GameStore(state).stats()["Ben"].games == 2, "read-only view counts the archive"
    GameStore(state).open()
    stored = json.loads(state.read_text(STATS) or "")
    assert stored["counted_through"] == 2 and stored["players"]["Ben"]["games"] == 2
    GameStore(state).open()
    assert GameStore(state).stats()["Ben"].games == 2


def test_archive_is_bounded_but_statistics_keep_every_game(state: StateDirectory) -> None:
    store = GameStore(state, limits=StoreLimits(max_games=3))
    setup, actions = blattschuss_game()
    for _ in range(5):
        play_through(store, setup, actions)
    assert [number for number, _ in store.archived()] == [3, 4, 5]
    assert store.stats()["Ben"] == PlayerStats(5, 5, 10, 5, 5, 0)


def test_archive_is_bounded_in_bytes_and_keeps_the_newest(state: StateDirectory) -> None:
    setup, actions = random_actions(30)
    size = len(b"".join(encode_record({"n": i}) for i in range(len(actions))))
    store = GameStore(state, limits=StoreLimits(max_bytes=size // 2))
    play_through(store, setup, actions)
    play_through(store, setup, actions)
    assert [number for number, _ in store.archived()] == [2]


def test_numbers_continue_after_rotation_removed_everything(state: StateDirectory) -> None:
    setup, actions = blattschuss_game()
    play_through(GameStore(state), setup, actions)
    state.remove(archive_name(1))
    play_through(GameStore(state), setup, actions)
    assert [number for number, _ in GameStore(state).archived()] == [2]
    assert GameStore(state).stats()["Ben"].games == 2


def test_the_latest_games_are_the_end_of_the_kept_ones_and_read_alone(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    """latest() is the newest archived game and the current one as kept() gives them (the
    current numbered past a gap the statistics count), reading only those two, once each."""
    store = GameStore(state, limits=StoreLimits(max_games=3))
    setup, actions = blattschuss_game()
    for _ in range(4):
        play_through(store, setup, actions)
    state.remove(archive_name(4))  # the statistics count through game 4: a gap
    assert GameStore(state).latest() == GameStore(state).kept()[-1:]
    store.begin(JournalHeader(setup, "de"))
    store.record(Game(setup).apply(actions[0]))
    kept = GameStore(state).kept()
    assert [(game.number, game.name) for game in kept] == [
        (2, archive_name(2)), (3, archive_name(3)), (5, CURRENT),
    ]
    read = mocker.spy(state, "read_bytes")
    reader = GameStore(state)
    latest = reader.latest()
    assert latest == kept[-2:]
    read.reset_mock()
    recoveries = [reader.read(game) for game in latest]
    assert read.call_count == 0, "the latest games keep the bytes their header came from"
    again = [reader.read(game) for game in kept[-2:]]  # kept() keeps no bytes: read again
    assert read.call_count == 2
    assert [(r.actions, r.events, r.file_length) for r in recoveries if not isinstance(r, str)] \
        == [(r.actions, r.events, r.file_length) for r in again if not isinstance(r, str)]
    assert [len(r.actions) for r in recoveries if not isinstance(r, str)] == [len(actions), 1]
    read.reset_mock()
    assert reader.latest(current=False) == kept[1:2]
    assert reader.latest(archived=False) == kept[2:]
    assert reader.latest(archived=False, current=False) == []
    assert [call.args[0] for call in read.call_args_list] == [archive_name(3), CURRENT]


def test_unreadable_statistics_start_again_from_the_archive(state: StateDirectory) -> None:
    setup, actions = blattschuss_game()
    play_through(GameStore(state), setup, actions)
    state.write_atomic(STATS, "{ not json")
    store = GameStore(state)
    store.open()
    assert "statistics start again" in store.notices[0]
    assert store.stats()["Ben"].games == 1
    [report] = store.damage
    assert report.name == STATS and report.kept_in is not None
    assert (state.root / report.kept_in).read_text() == "{ not json", "kept, not overwritten"


def test_disk_full_keeps_the_game_in_memory_with_one_message(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    setup, actions = random_actions(31)
    store = GameStore(state)
    game = Game(setup)
    store.begin(JournalHeader(setup))
    for action in actions[:5]:
        store.record(game.apply(action))

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with caplog.at_level(logging.ERROR, logger="schockbesteck.storage"):
        for action in actions[5:]:
            store.record(game.apply(action))
    assert game.is_over, "the game went on"
    assert store.failure is not None and "no space left on device (ENOSPC)" in store.failure
    assert caplog.text.count("state not saved") == 1
    monkeypatch.undo()
    recovery = GameStore(state).open()
    assert recovery is not None and list(recovery.actions) == actions[:5], "no torn record was left"
    assert store.begin(JournalHeader(setup)) and store.failure is None, (
        "a new game tries the disk again"
    )


def test_read_only_state_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = StateDirectory(tmp_path / "state")

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "open", read_only)
    store = GameStore(state)
    assert store.open() is None
    setup, _ = blattschuss_game()
    assert not store.begin(JournalHeader(setup))
    assert store.failure is not None and "read-only file system (EROFS)" in store.failure


def damaged_files(state: StateDirectory) -> dict[str, bytes]:
    folder = state.root / "damaged"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def test_damage_in_the_middle_keeps_a_whole_copy_and_resumes_before_it(
    state: StateDirectory,
) -> None:
    setup, actions = random_actions(24)
    play_through(GameStore(state), setup, actions[:40])
    path = state.root / CURRENT
    original = path.read_bytes()
    lines = original.split(b"\n")
    offset = sum(len(line) + 1 for line in lines[:3]) + 12  # inside the record of action 2
    damaged = bytearray(original)
    damaged[offset] ^= 0x01
    path.write_bytes(bytes(damaged))
    store = GameStore(state)
    recovery = store.open()
    assert recovery is not None and list(recovery.actions) == actions[:2]
    [report] = store.damage
    assert report.resumed_actions == 2 and "checksum mismatch" in report.reason
    assert report.intact_after == 37, "actions 3 to 39: every record after the damaged one"
    assert "37 intact records after the damage" in str(report)
    assert report.kept_in is not None
    assert damaged_files(state) == {report.kept_in.split("/")[1]: bytes(damaged)}
    assert path.read_bytes() == bytes(damaged[: sum(len(line) + 1 for line in lines[:3])])


@pytest.mark.parametrize(
    ("header_change", "named"),
    [
        ({"rules": "standard"}, "header field 'rules' is 'standard'"),
        ({"players": "AnnaBen"}, "header field 'players'"),
        ({"format": 2}, "journal format 2"),
        ({"bots": ["nobody"]}, "header field 'bots'"),
        ({"language": 7}, "header field 'language'"),
    ],
)
def test_a_checksummed_header_that_is_no_game_is_moved_aside(
    state: StateDirectory, header_change: dict[str, object], named: str
) -> None:
    setup, actions = random_actions(25)
    play_through(GameStore(state), setup, actions[:6])
    path = state.root / CURRENT
    first, rest = path.read_bytes().split(b"\n", 1)
    header = json.loads(first.split(b" ", 2)[2])
    original = encode_record({**header, **header_change}) + rest
    path.write_bytes(original)
    store = GameStore(state)
    assert store.open() is None
    [report] = store.damage
    assert named in report.reason and report.resumed_actions is None
    assert "the device starts afresh" in str(report)
    assert list(damaged_files(state).values()) == [original]
    assert CURRENT not in state.names()


def test_damage_that_cannot_be_set_aside_is_left_alone(state: StateDirectory) -> None:
    setup, actions = random_actions(26)
    play_through(GameStore(state), setup, actions[:6])
    path = state.root / CURRENT
    damaged = path.read_bytes().replace(b'"format":1', b'"format":9')
    path.write_bytes(damaged)
    (state.root / "damaged").write_text("a file where the folder should be")
    store = GameStore(state)
    assert store.open() is None
    [report] = store.damage
    assert report.kept_in is None and "cannot be set aside" in str(report)
    assert store.failure is not None and "damaged" in store.failure
    store.discard()
    assert not store.begin(JournalHeader(setup)), "a new game must not replace the damaged journal"
    assert path.read_bytes() == damaged
    (state.root / "damaged").unlink()
    assert store.begin(JournalHeader(setup)), "once it can be set aside, the new game goes to disk"
    assert list(damaged_files(state).values()) == [damaged]


def test_a_damaged_archive_is_set_aside_at_start_not_by_the_statistics(
    state: StateDirectory,
) -> None:
    setup, actions = blattschuss_game()
    play_through(GameStore(state), setup, actions)
    play_through(GameStore(state), setup, actions)
    (state.root / STATS).unlink()  # both archived games must be counted again
    archive = state.root / archive_name(2)
    damaged = archive.read_bytes()[:-5]
    archive.write_bytes(damaged)
    assert GameStore(state).stats()["Ben"].games == 1, "the CLI's read-only statistics"
    assert archive.exists()
    store = GameStore(state)
    store.open()
    [report] = store.damage
    assert report.name == archive_name(2) and "the game does not finish" in report.reason
    assert list(damaged_files(state).values()) == [damaged]
    assert store.stats()["Ben"].games == 1


def test_statistics_that_are_not_utf8_do_not_stop_saving(state: StateDirectory) -> None:
    setup, actions = blattschuss_game()
    play_through(GameStore(state), setup, actions)
    (state.root / STATS).write_bytes(b'{"format": 1, "\xff"}')
    store = GameStore(state)
    store.open()
    assert store.failure is None
    assert [r.name for r in store.damage] == [STATS]
    play_through(store, setup, actions)
    assert store.failure is None and store.stats()["Ben"].games == 2


def test_a_damage_report_fits_the_device_message_in_both_languages(
    state: StateDirectory,
) -> None:
    setup, actions = random_actions(27)
    play_through(GameStore(state), setup, actions[:9])
    path = state.root / CURRENT
    path.write_bytes(path.read_bytes()[:-3])
    store = GameStore(state)
    store.open()
    [report] = store.damage
    german, english = OledWords("de"), OledWords("en")
    assert report.screen_lines(german.t) == (
        "current.journal", "8 Aktionen gerettet", "Kopie in damaged/"
    )
    assert report.screen_lines(english.t)[1:] == ("8 actions kept", "Copy in damaged/")
    stuck = DamageReport(archive_name(3), "checksum mismatch", None)
    assert stuck.screen_lines(german.t) == (archive_name(3), "bleibt unverändert", "")
    archived = DamageReport(archive_name(3), "the game does not finish", "damaged/x")
    assert archived.screen_lines(english.t)[1] == "not counted"
    setup_file = DamageReport("setup.json", "unreadable", "damaged/y")
    assert setup_file.screen_lines(german.t)[1] == "Setup zurückgesetzt"
    image = render(BannerView(german.t("state_damaged_title"), "",
                              report.screen_lines(german.t), ("", "", "OK")))
    assert image.size == (128, 64)
    for line in (*report.screen_lines(german.t), *report.screen_lines(english.t),
                 german.t("state_damaged_recounted"), german.t("state_damaged_reset")):
        assert FONT.width(line) <= 126, f"{line!r} fits a line of the screen"


def test_the_device_sets_its_own_damaged_file_aside_the_same_way(state: StateDirectory) -> None:
    state.write_atomic("setup.json", "[[[")
    store = GameStore(state)
    assert store.set_aside("setup.json", "unreadable (not JSON)")
    [report] = store.damage
    assert report.name == "setup.json" and "unreadable (not JSON)" in str(report)
    assert report.kept_in is not None
    assert damaged_files(state) == {report.kept_in.split("/")[1]: b"[[["}
    assert "setup.json" not in state.names()
