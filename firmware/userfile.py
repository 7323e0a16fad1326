"""Reading a file the user names on the command line or in the configuration, with a size bound.

A rules file, a configuration, a sim script or a judge's game is a few kilobytes. Reading one
never takes more than ``max_bytes`` (plus one) from it, so a mistaken ``--rules /dev/zero`` or a
huge file gives one clear line instead of filling the memory.
"""

from __future__ import annotations

from pathlib import Path

from engine.limits import InputLimitError

__all__ = ["MAX_TEXT_FILE_BYTES", "read_bytes_limited", "read_text_limited"]

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
