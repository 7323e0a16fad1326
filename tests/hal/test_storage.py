"""The state directory on a real temporary filesystem, with injected disk errors."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from hal.ports import Storage, StorageError
from hal.storage import LOCK_FILE, StateDirectory, StateDirectoryBusy, user_state_dir


def failing(errno_code: int) -> Callable[..., object]:
    def fail(*args: object, **kwargs: object) -> object:
        raise OSError(errno_code, os.strerror(errno_code))

    return fail


@pytest.fixture
def state(tmp_path: Path) -> StateDirectory:
    return StateDirectory(tmp_path / "state")


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_write_then_read_round_trips_and_creates_the_directory(state: StateDirectory) -> None:
    storage: Storage = state
    assert storage.read_text("game.json") is None
    storage.write_atomic("game.json", '{"Deckel": 13, "Spieler": "Jürgen"}')
    assert storage.read_text("game.json") == '{"Deckel": 13, "Spieler": "Jürgen"}'
    storage.write_atomic("game.json", "{}")
    assert storage.read_text("game.json") == "{}"
    assert leftovers(state.root) == []
    assert stat.S_IMODE((state.root / "game.json").stat().st_mode) == 0o644


def test_append_durable_appends_exact_bytes(state: StateDirectory) -> None:
    state.append_durable("journal.log", b"throw 6 6 1\n")
    state.append_durable("journal.log", b"stand\n")
    assert (state.root / "journal.log").read_bytes() == b"throw 6 6 1\nstand\n"


def test_modified_is_the_files_last_write(state: StateDirectory) -> None:
    storage: Storage = state
    assert storage.modified("journal.log") is None
    storage.append_durable("journal.log", b"stand\n")
    os.utime(state.root / "journal.log", (1_700_000_000, 1_764_612_000))
    assert storage.modified("journal.log") == 1_764_612_000


def test_size_of_a_file_and_of_none(state: StateDirectory) -> None:
    storage: Storage = state
    assert storage.size("journal.log") is None  # not even the directory exists yet
    storage.append_durable("journal.log", "Hälfte\n".encode())
    assert storage.size("journal.log") == 8  # bytes, not characters
    assert storage.size("missing.log") is None


def test_writes_fsync_the_file_and_the_directory(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    state.write_atomic("game.json", "{}")
    assert synced == ["file", "dir"]
    synced.clear()
    state.append_durable("journal.log", b"a\n")  # a new file: its directory entry too
    assert synced == ["file", "dir"]
    synced.clear()
    state.append_durable("journal.log", b"b\n")
    assert synced == ["file"]


def test_short_writes_are_completed(state: StateDirectory, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write

    def dribble(fd: int, data: bytes) -> int:
        return real_write(fd, bytes(data[:3]))

    monkeypatch.setattr(os, "write", dribble)
    state.write_atomic("game.json", "0123456789" * 5)
    state.append_durable("journal.log", b"abcdefghij")
    monkeypatch.undo()
    assert state.read_text("game.json") == "0123456789" * 5
    assert (state.root / "journal.log").read_bytes() == b"abcdefghij"


def test_full_disk_keeps_the_old_file_and_says_so(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.write_atomic("game.json", "old")
    monkeypatch.setattr(os, "write", failing(errno.ENOSPC))
    with pytest.raises(StorageError) as caught:
        state.write_atomic("game.json", "new")
    monkeypatch.undo()
    path = state.root / "game.json"
    assert str(caught.value) == f"cannot write {path}: no space left on device (ENOSPC)"
    assert caught.value.errno == errno.ENOSPC
    assert isinstance(caught.value, OSError)
    assert state.read_text("game.json") == "old"
    assert leftovers(state.root) == []


def test_read_only_filesystem_on_fsync_cuts_a_torn_append_back(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.append_durable("journal.log", b"first\n")
    monkeypatch.setattr(os, "fsync", failing(errno.EROFS))
    with pytest.raises(StorageError) as caught:
        state.append_durable("journal.log", b"second\n")
    monkeypatch.undo()
    path = state.root / "journal.log"
    assert str(caught.value) == f"cannot append to {path}: read-only file system (EROFS)"
    assert path.read_bytes() == b"first\n"


def test_read_only_filesystem_on_atomic_write(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.write_atomic("game.json", "old")
    monkeypatch.setattr(os, "fsync", failing(errno.EROFS))
    with pytest.raises(StorageError, match=r"read-only file system \(EROFS\)$"):
        state.write_atomic("game.json", "new")
    monkeypatch.undo()
    assert state.read_text("game.json") == "old"
    assert leftovers(state.root) == []


def test_permission_denied_names_the_path(
    state: StateDirectory, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.root.mkdir()
    monkeypatch.setattr(os, "open", failing(errno.EACCES))
    with pytest.raises(StorageError) as append_error:
        state.append_durable("journal.log", b"x")
    with pytest.raises(StorageError) as write_error:
        state.write_atomic("game.json", "x")  # tempfile.mkstemp opens through os.open
    monkeypatch.undo()
    assert str(append_error.value) == (
        f"cannot append to {state.root / 'journal.log'}: permission denied (EACCES)"
    )
    assert str(write_error.value) == (
        f"cannot write {state.root / 'game.json'}: permission denied (EACCES)"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_really_read_only_directory(state: StateDirectory) -> None:
    state.root.mkdir()
    state.root.chmod(0o500)
    try:
        with pytest.raises(StorageError, match=r"permission denied \(EACCES\)$"):
            state.write_atomic("game.json", "x")
    finally:
        state.root.chmod(0o700)


def test_a_directory_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the directory should be")
    state = StateDirectory(blocker / "state")
    with pytest.raises(StorageError) as caught:
        state.write_atomic("game.json", "{}")
    message = str(caught.value)
    assert message.startswith(f"cannot create the state directory {blocker / 'state'}: ")
    assert message.endswith("(ENOTDIR)") and "\n" not in message
    with pytest.raises(StorageError, match=r"^cannot read .*: not a directory \(ENOTDIR\)$"):
        state.read_text("game.json")


def test_root_that_is_a_file_is_refused(tmp_path: Path) -> None:
    file_root = tmp_path / "state"
    file_root.write_text("")
    with pytest.raises(StorageError, match=r"^cannot (create the state directory|use) .*state"):
        StateDirectory(file_root).append_durable("journal.log", b"x")


def test_unreadable_file_is_a_storage_error(state: StateDirectory) -> None:
    state.root.mkdir()
    (state.root / "game.json").write_bytes(b"{\xff}")
    with pytest.raises(StorageError, match=r"game\.json: not UTF-8 text \(at byte 1\)$"):
        state.read_text("game.json")
    (state.root / "dir.json").mkdir()
    with pytest.raises(StorageError, match=r"^cannot read .*dir\.json: is a directory \(EISDIR\)$"):
        state.read_text("dir.json")


@pytest.mark.parametrize("name", ["", ".", "..", "../escape", "sub/file", "nul\0"])
def test_only_plain_file_names_are_allowed(state: StateDirectory, name: str) -> None:
    with pytest.raises(ValueError, match="is not allowed: use a plain file name"):
        state.write_atomic(name, "x")


def test_set_aside_moves_into_damaged_and_never_replaces(state: StateDirectory) -> None:
    state.append_durable("current.journal", b"first damage\n")
    first = state.set_aside("current.journal", "T1-current.journal")
    assert first == "damaged/T1-current.journal"
    assert "current.journal" not in state.names()
    state.append_durable("current.journal", b"second damage\n")
    second = state.set_aside("current.journal", "T1-current.journal")
    assert second == "damaged/T1-current-2.journal", "the first one is not replaced"
    assert (state.root / first).read_bytes() == b"first damage\n"
    assert (state.root / second).read_bytes() == b"second damage\n"
    assert "damaged" not in state.names(), "the folder is no state file"


def test_set_aside_copy_keeps_the_original_and_fsyncs_before_returning(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    state.append_durable("stats.json", b'{"format": 1, broken')
    fsync = mocker.spy(os, "fsync")
    kept = state.set_aside("stats.json", "T2-stats.json", copy=True)
    assert (state.root / "stats.json").read_bytes() == b'{"format": 1, broken'
    assert (state.root / kept).read_bytes() == b'{"format": 1, broken'
    assert fsync.call_count == 2, "the copy's data, then the damaged/ directory"
    assert leftovers(state.root / "damaged") == []


def test_set_aside_that_cannot_create_the_folder_leaves_the_file(state: StateDirectory) -> None:
    state.append_durable("current.journal", b"damaged\n")
    (state.root / "damaged").write_text("a file where the folder should be")
    with pytest.raises(StorageError, match=r"^cannot create .*damaged: file exists \(EEXIST\)$"):
        state.set_aside("current.journal", "T3-current.journal")
    assert (state.root / "current.journal").read_bytes() == b"damaged\n"


# -- one program at a time: the lock ---------------------------------------------------------


def test_a_second_holder_is_refused_with_the_first_ones_process(tmp_path: Path) -> None:
    first, second = StateDirectory(tmp_path / "state"), StateDirectory(tmp_path / "state")
    first.lock()  # creates the directory
    first.lock()  # twice is fine
    with pytest.raises(StateDirectoryBusy) as refused:
        second.lock()
    message = str(refused.value)
    assert message == (
        f"the state directory {tmp_path / 'state'} is in use by another Schockbesteck "
        f"(process {os.getpid()})"
    )
    assert "\n" not in message
    first.unlock()
    second.lock()
    assert (tmp_path / "state" / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    assert LOCK_FILE not in second.names()  # not one of the state's files
    second.unlock()
    second.unlock()


def test_a_killed_holder_lets_go(tmp_path: Path) -> None:
    root = tmp_path / "state"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from hal.storage import StateDirectory; "
         "StateDirectory(sys.argv[1]).lock(); print('locked', flush=True); time.sleep(60)",
         str(root)],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(StateDirectoryBusy, match=f"process {holder.pid}"):
            StateDirectory(root).lock()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    state = StateDirectory(root)
    state.lock()  # the kernel let go of the dead process's lock
    state.unlock()


def test_a_directory_that_cannot_be_made_is_a_storage_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StorageError) as failed:
        StateDirectory(tmp_path / "file" / "state").lock()
    assert not isinstance(failed.value, StateDirectoryBusy)
    assert str(tmp_path / "file" / "state") in str(failed.value)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"XDG_STATE_HOME": "/x/state", "HOME": "/home/anna"}, "/x/state/schockbesteck"),
        ({"HOME": "/home/anna"}, "/home/anna/.local/state/schockbesteck"),
        ({"XDG_STATE_HOME": "", "HOME": "/home/anna"}, "/home/anna/.local/state/schockbesteck"),
        # a relative XDG_STATE_HOME is invalid and ignored, as the XDG rules say
        ({"XDG_STATE_HOME": "rel", "HOME": "/home/anna"}, "/home/anna/.local/state/schockbesteck"),
    ],
)
def test_the_users_state_directory(environ: dict[str, str], expected: str) -> None:
    assert user_state_dir(environ) == Path(expected)
