"""The state directory: atomic small files and fsync'd journals that survive a pulled plug.

``write_atomic`` writes a temporary file in the same directory, fsyncs it, renames it over the
old one and fsyncs the directory, so after a power cut the file is either the old or the new
version, never a mixture. ``append_durable`` returns only once the data is on the medium; if the
append fails half-way the file is cut back to its old length, so a journal never ends in a torn
record written by us. Every failure is a :class:`~hal.ports.StorageError` with a one-line message
naming the path and the cause ("no space left on device", "read-only file system", ...).

Damaged files are never deleted: :meth:`StateDirectory.set_aside` moves (or copies) one into the
``damaged/`` subdirectory under a new name, never replacing a file there.

One program writes a state directory at a time: :meth:`StateDirectory.lock` takes an exclusive
``fcntl.flock`` on its ``lock`` file for as long as the program runs (the kernel lets go when the
process ends, however it ends), and a second one gets :class:`StateDirectoryBusy`. Readers (the
statistics, a replay) do not lock. :func:`user_state_dir` is where a laptop keeps its games.

Writes go through ``os.write``/``os.fsync`` directly (no buffered file objects), so what reaches
the kernel is exactly what was asked for and each step's error is seen where it happens.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from hal.ports import StorageError

__all__ = ["DAMAGED_DIR", "LOCK_FILE", "StateDirectory", "StateDirectoryBusy", "user_state_dir"]

#: The subdirectory of the state directory that keeps damaged files (never emptied by us).
DAMAGED_DIR = "damaged"
#: The file :meth:`StateDirectory.lock` locks; it holds the process id of the holder.
LOCK_FILE = "lock"
#: The state directory's name under the user's state home.
_APP_DIR = "schockbesteck"


def user_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where a user's games are kept on a laptop: ``$XDG_STATE_HOME/schockbesteck``, or
    ``~/.local/state/schockbesteck`` when that variable is unset or not an absolute path (the
    XDG Base Directory rules)."""
    env = os.environ if environ is None else environ
    state_home = env.get("XDG_STATE_HOME", "")
    if state_home and os.path.isabs(state_home):
        return Path(state_home) / _APP_DIR
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "state" / _APP_DIR


class StateDirectoryBusy(StorageError):
    """Another program holds the state directory's lock; the message names it and what to do."""


def _durable_temporary(folder: Path, name: str, data: bytes, *, action: str, path: Path) -> str:
    """``data`` in a new file in ``folder`` under a temporary name, written and fsync'd: its path.

    On failure the file is gone and a :class:`StorageError` says it could not ``action``
    ``path``.
    """
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    except OSError as error:
        raise _storage_error(action, path, error) from error
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temporary, 0o644)
    except OSError as error:
        _remove_quietly(temporary)
        raise _storage_error(action, path, error) from error
    return temporary


def _storage_error(action: str, path: Path, cause: OSError) -> StorageError:
    """A one-line error: what failed, on which path, and why (with the errno's name)."""
    reason = cause.strerror or str(cause) or type(cause).__name__
    reason = reason[:1].lower() + reason[1:]
    code = errno.errorcode.get(cause.errno) if cause.errno is not None else None
    suffix = f" ({code})" if code else ""
    error = StorageError(f"cannot {action} {path}: {reason}{suffix}")
    error.errno = cause.errno
    return error


def _write_all(fd: int, data: bytes) -> None:
    """``os.write`` until everything is written (it may write less than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "write made no progress")
        view = view[written:]


class StateDirectory:
    """The :class:`~hal.ports.Storage` port on a directory of the local filesystem.

    The directory (and its parents) is created on the first write. File names are plain names
    inside it: no separators, no ``..``.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self._lock_fd: int | None = None

    def lock(self) -> None:
        """Hold the directory for this process alone (created if missing) until :meth:`unlock`.

        Raises :class:`StateDirectoryBusy` when another process holds it, and a
        :class:`~hal.ports.StorageError` when the directory cannot be created or locked.
        Locking twice is fine.
        """
        if self._lock_fd is not None:
            return
        self._ensure_root()
        path = self.root / LOCK_FILE
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise _storage_error("lock", self.root, error) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _lock_holder(fd)
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f" (process {holder})" if holder else ""
                raise StateDirectoryBusy(
                    f"the state directory {self.root} is in use by another Schockbesteck{who}"
                ) from None
            raise _storage_error("lock", self.root, error) from error
        try:
            os.ftruncate(fd, 0)
            _write_all(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass  # the process id is only for the message of a second program
        self._lock_fd = fd

    def unlock(self) -> None:
        """Let go of the lock taken by :meth:`lock` (the lock file stays). Idempotent."""
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # closing the descriptor releases the flock

    def path(self, name: str) -> Path:
        """The full path of ``name``; ValueError if it is not a plain file name."""
        if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise ValueError(
                f"state file name {name!r} is not allowed: use a plain file name without '/'"
            )
        return self.root / name

    def read_text(self, name: str) -> str | None:
        """The file's UTF-8 content, or None if it does not exist."""
        path = self.path(name)
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError as error:
            message = f"cannot read {path}: not UTF-8 text (at byte {error.start})"
            raise StorageError(message) from error
        except OSError as error:
            raise _storage_error("read", path, error) from error

    def write_atomic(self, name: str, text: str) -> None:
        """Replace the file with ``text`` (UTF-8) in one step; a power cut leaves old or new."""
        path = self.path(name)
        data = text.encode("utf-8")
        self._ensure_root()
        temporary = _durable_temporary(self.root, name, data, action="write", path=path)
        try:
            os.replace(temporary, path)
        except OSError as error:
            _remove_quietly(temporary)
            raise _storage_error("write", path, error) from error
        self._sync_root(path)

    def append_durable(self, name: str, data: bytes) -> None:
        """Append ``data`` and fsync before returning; on failure the file keeps its old length."""
        path = self.path(name)
        self._ensure_root()
        created = not path.exists()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as error:
            raise _storage_error("append to", path, error) from error
        try:
            length = os.fstat(fd).st_size
            try:
                _write_all(fd, data)
                os.fsync(fd)
            except OSError:
                _truncate_quietly(fd, length)
                raise
        except OSError as error:
            raise _storage_error("append to", path, error) from error
        finally:
            os.close(fd)
        if created:
            self._sync_root(path)

    def read_bytes(self, name: str) -> bytes | None:
        """The file's raw content, or None if it does not exist (journals may end torn)."""
        path = self.path(name)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _storage_error("read", path, error) from error

    def size(self, name: str) -> int | None:
        """The file's length in bytes, or None if it does not exist."""
        path = self.path(name)
        try:
            return path.stat().st_size
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _storage_error("read", path, error) from error

    def modified(self, name: str) -> float | None:
        """When the file was last written (POSIX seconds), or None if it does not exist."""
        path = self.path(name)
        try:
            return path.stat().st_mtime
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _storage_error("read", path, error) from error

    def names(self) -> list[str]:
        """The plain files in the directory, sorted; none if it does not exist yet."""
        try:
            entries = list(os.scandir(self.root))
        except FileNotFoundError:
            return []
        except OSError as error:
            raise _storage_error("list", self.root, error) from error
        return sorted(
            entry.name for entry in entries
            if entry.is_file(follow_symlinks=False)
            and not entry.name.endswith(".tmp")
            and entry.name != LOCK_FILE
        )

    def rename(self, old: str, new: str) -> None:
        """Rename ``old`` to ``new`` (replacing it) in one step that survives a power cut."""
        source, target = self.path(old), self.path(new)
        try:
            os.replace(source, target)
        except OSError as error:
            raise _storage_error("rename", source, error) from error
        self._sync_root(target)

    def remove(self, name: str) -> None:
        """Delete the file if it exists; the deletion survives a power cut."""
        path = self.path(name)
        try:
            os.unlink(path)
        except FileNotFoundError:
            return
        except OSError as error:
            raise _storage_error("remove", path, error) from error
        self._sync_root(path)

    def truncate(self, name: str, length: int) -> None:
        """Cut the file back to ``length`` bytes and fsync it (drops a journal's torn tail)."""
        path = self.path(name)
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError as error:
            raise _storage_error("truncate", path, error) from error
        try:
            os.ftruncate(fd, length)
            os.fsync(fd)
        except OSError as error:
            raise _storage_error("truncate", path, error) from error
        finally:
            os.close(fd)

    def set_aside(self, name: str, new_name: str, *, copy: bool = False) -> str:
        """Move ``name`` into ``damaged/`` as ``new_name``; with ``copy`` keep the original too.

        An existing file in ``damaged/`` is never replaced: ``-2``, ``-3``, ... go before the
        new name's suffix until it is free. Returns the path relative to the state directory
        (``damaged/NAME``). The move or copy is durable (data and directories fsync'd) before
        this returns, so a caller may then change or remove the original.
        """
        source = self.path(name)
        self.path(new_name)  # the same rule for the new plain name
        folder = self.root / DAMAGED_DIR
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise _storage_error("create", folder, error) from error
        temporary: str | None = None
        if copy:
            temporary = self._copy_into(source, folder)
        try:
            target = _free_name(folder, new_name)
            os.rename(temporary if temporary is not None else source, target)
        except OSError as error:
            if temporary is not None:
                _remove_quietly(temporary)
            raise _storage_error("set aside", source, error) from error
        self._sync_dir(folder, target)
        if not copy:
            self._sync_root(source)
        return f"{DAMAGED_DIR}/{target.name}"

    def _copy_into(self, source: Path, folder: Path) -> str:
        """A durable copy of ``source`` in ``folder`` under a temporary name."""
        try:
            data = source.read_bytes()
        except OSError as error:
            raise _storage_error("copy", source, error) from error
        return _durable_temporary(folder, source.name, data, action="copy", path=source)

    def _ensure_root(self) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise _storage_error("create the state directory", self.root, error) from error
        if not self.root.is_dir():
            raise StorageError(f"cannot use {self.root} as the state directory: not a directory")

    def _sync_root(self, path: Path) -> None:
        """fsync the directory so that a rename or a new file survives a power cut."""
        self._sync_dir(self.root, path)

    def _sync_dir(self, folder: Path, path: Path) -> None:
        """fsync ``folder`` after a change of its entry ``path`` (named in an error)."""
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise _storage_error("write", path, error) from error


def _lock_holder(fd: int) -> str:
    """The process id written in a lock file, or "" if it holds none."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def _free_name(folder: Path, name: str) -> Path:
    """``folder / name``, or with ``-2``, ``-3``, ... before its suffix if that is taken."""
    stem, dot, suffix = name.partition(".")
    candidate, number = folder / name, 1
    while os.path.lexists(candidate):
        number += 1
        candidate = folder / f"{stem}-{number}{dot}{suffix}"
    return candidate


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _truncate_quietly(fd: int, length: int) -> None:
    with contextlib.suppress(OSError):
        os.ftruncate(fd, length)
        os.fsync(fd)
