"""Reading a file the user names on the command line or in the configuration, with a size bound.

A rules file, a configuration, a sim script or a judge's game is a few kilobytes. Reading one
never takes more than ``max_bytes`` (plus one) from it, so a mistaken ``--rules /dev/zero`` or a
huge file gives one clear line instead of filling the memory.

:func:`path_problem` words what the operating system said about a path the user gave, for a
message that names the option and what to do: no errno numbers, no Python wording.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from engine.limits import InputLimitError

__all__ = [
    "MAX_TEXT_FILE_BYTES",
    "UserFileError",
    "missing_folder",
    "names_a_toml_file",
    "path_problem",
    "read_bytes_limited",
    "read_text_limited",
    "read_user_text",
]

#: The default bound: far above any rules, configuration or script file.
MAX_TEXT_FILE_BYTES = 1024 * 1024


def read_bytes_limited(path: str | Path, max_bytes: int = MAX_TEXT_FILE_BYTES) -> bytes:
    """The content of ``path``; at most ``max_bytes``, else :class:`InputLimitError`.

    Raises ``OSError`` (``FileNotFoundError``, ``IsADirectoryError``, ...) as ``open`` does.
    """
    with open(path, "rb") as stream:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputLimitError(f"{path} is longer than {max_bytes} bytes")
    return data


def read_text_limited(path: str | Path, max_bytes: int = MAX_TEXT_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes_limited`); ``UnicodeDecodeError`` if
    it is not UTF-8."""
    return read_bytes_limited(path, max_bytes).decode("utf-8")


class UserFileError(ValueError):
    """A user's file that cannot be read as text: one line naming it and what to give instead."""


def names_a_toml_file(value: str) -> bool:
    """Whether an option that takes a preset's name or a TOML file (``--rules``, ``--scoring``)
    was given a file: a ``.toml`` name, a path with a folder, or something that exists."""
    return value.endswith(".toml") or "/" in value or Path(value).exists()


def read_user_text(path: str | Path, what: str, advice: str, max_bytes: int) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_text_limited`), or :class:`UserFileError` in
    the words every such file gets: ``what`` names it ("config file x.toml"), ``advice`` says
    what to give instead."""
    try:
        return read_text_limited(path, max_bytes)
    except InputLimitError:
        raise UserFileError(f"{what} is too long: at most {max_bytes} bytes are allowed") from None
    except UnicodeDecodeError as error:
        raise UserFileError(f"{what} is not UTF-8 text (at byte {error.start}); {advice}") from None
    except OSError as error:
        raise UserFileError(f"{what}: {path_problem(path, error)}; {advice}") from None


def missing_folder(path: str | Path) -> Path | None:
    """The outermost folder on the way to ``path`` that does not exist, or None if its folder
    does (``/nonexistent`` for ``/nonexistent/a/b.gif``)."""
    missing = None
    folder = Path(path).parent
    while not folder.exists() and folder != folder.parent:
        missing, folder = folder, folder.parent
    return missing


def _file_on_the_way(path: Path) -> Path | None:
    """The first part of ``path`` that is a file where a folder should be."""
    for folder in reversed(path.parents):
        if folder.exists() and not folder.is_dir():
            return folder
    return None


def path_problem(path: str | Path, error: OSError, doing: str = "read") -> str:
    """What is wrong with ``path``, to follow "OPTION PATH: " in a message.

    ``doing`` is what was tried ("read", "write", "use"). For example ``is a folder, not a
    file``, ``its folder /nonexistent does not exist``, ``no permission to write it``.
    """
    path = Path(path)
    code = error.errno
    if code == errno.ENOENT:
        missing = missing_folder(path)
        return "does not exist" if missing is None else f"its folder {missing} does not exist"
    if code == errno.EISDIR:
        return "is a folder, not a file"
    if code == errno.ENOTDIR:
        blocking = _file_on_the_way(path)
        return f"{blocking or path} is a file, not a folder"
    if code in (errno.EACCES, errno.EPERM):
        return f"no permission to {doing} it"
    if code == errno.EROFS:
        return "is on a read-only file system"
    if code in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if code == errno.ENAMETOOLONG:
        return "the name is too long"
    if code == errno.ELOOP:
        return "is a loop of symbolic links"
    if code == errno.EEXIST:
        return "exists already"
    reason = os.strerror(code).lower() if code else type(error).__name__
    return f"cannot {doing} it ({reason})"
