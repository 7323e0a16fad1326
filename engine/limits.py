"""Bounded reading of TOML and JSON text: how deep a document may nest and how long it may be.

The standard parsers recurse once per level of nesting, so a hostile document such as
``deckel = [[[[...]]]]`` 5,000 levels deep ends in a RecursionError and a traceback thousands of
lines long. Every document this project reads (rules, configuration, a link command, a journal
record, a judge's game) is shallow, so these readers refuse anything nested deeper than
:data:`MAX_DEPTH` or longer than a caller's size bound, with one :class:`InputLimitError` line.
Syntax errors are left to the parser's own exception (``tomllib.TOMLDecodeError``,
``json.JSONDecodeError``), which callers turn into one line; :func:`json_problem` says what is
wrong with a JSON text in the project's words, never Python's ("Expecting value: line 1
column 1 (char 0)").
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from json import JSONDecodeError

__all__ = [
    "MAX_DEPTH", "InputLimitError", "ascii_whole_number", "json_loads", "json_problem",
    "nesting_depth", "toml_document", "toml_loads",
]

#: The deepest nesting of tables and arrays any of our documents needs (a config is 3 deep).
MAX_DEPTH = 32
_TOML_NESTS = "tables and arrays"
_JSON_NESTS = "objects and arrays"


class InputLimitError(ValueError):
    """A document nested too deeply or too long; the message names the limit."""


def ascii_whole_number(text: str) -> int | None:
    """``text`` as a whole number if it is one or more ASCII digits ``0``-``9``, else None.

    Python's ``int`` also takes other scripts' digits (``"１０"``), a sign, spaces and ``_``;
    a whole number in our input is digits 0-9 and nothing else.
    """
    if not text or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def nesting_depth(value: object) -> int:
    """How many levels of dicts and lists ``value`` nests (a scalar is 0), without recursion:
    level by level, each level the contents of the containers of the one above."""
    depth = 0
    level: list[Any] = [value]
    while True:
        below: list[Any] = []
        found = False
        for item in level:
            if isinstance(item, dict):
                below.extend(item.values())
                found = True
            elif isinstance(item, list | tuple):
                below.extend(item)
                found = True
        if not found:
            return depth
        depth += 1
        level = below


def _check_size(text: str | bytes, max_bytes: int | None) -> None:
    if max_bytes is None:
        return
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise InputLimitError(f"{size} bytes is too long: at most {max_bytes} bytes are allowed")


def _check_depth(value: object, max_depth: int, what: str) -> None:
    if nesting_depth(value) > max_depth:
        raise InputLimitError(f"nested deeper than {max_depth} levels of {what}")


def toml_loads(
    text: str, *, max_bytes: int | None = None, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """``tomllib.loads`` with a bound on size and nesting.

    Raises :class:`InputLimitError` for a document over the bounds and
    ``tomllib.TOMLDecodeError`` for bad syntax.
    """
    _check_size(text, max_bytes)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise InputLimitError(f"nested deeper than {max_depth} levels of {_TOML_NESTS}") from None
    _check_depth(data, max_depth, _TOML_NESTS)
    return data


def toml_document(
    text: str, *, origin: str, error: Callable[[str], Exception], max_bytes: int | None = None
) -> dict[str, Any]:
    """:func:`toml_loads`, its two failures raised as one ``error`` line that names ``origin``
    ("ORIGIN: not valid TOML: ..." or "ORIGIN: <the bound it is over>")."""
    try:
        return toml_loads(text, max_bytes=max_bytes)
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{origin}: not valid TOML: {problem}") from None
    except InputLimitError as problem:
        raise error(f"{origin}: {problem}") from None


def json_problem(error: JSONDecodeError) -> str:
    """What is wrong with the JSON text ``error`` stopped in, in our own words: empty, cut off,
    more text after the value, or not JSON at a line and column."""
    text = error.doc
    if not text.strip():
        return "empty: no JSON in it"
    if error.pos >= len(text.rstrip()):
        return f"cut off: the JSON ends too soon, after line {text.rstrip().count(chr(10)) + 1}"
    if error.msg.startswith("Extra data"):
        return f"more text after the JSON value, at line {error.lineno}, column {error.colno}"
    return f"not valid JSON at line {error.lineno}, column {error.colno}"


def json_loads(
    text: str | bytes, *, max_bytes: int | None = None, max_depth: int = MAX_DEPTH
) -> Any:
    """``json.loads`` with a bound on size and nesting.

    Raises :class:`InputLimitError` for a document over the bounds and ``json.JSONDecodeError``
    (a ValueError) for bad syntax.
    """
    import json  # only readers of JSON pay for it (a rules file is TOML)

    _check_size(text, max_bytes)
    try:
        value = json.loads(text)
    except RecursionError:
        raise InputLimitError(f"nested deeper than {max_depth} levels of {_JSON_NESTS}") from None
    _check_depth(value, max_depth, _JSON_NESTS)
    return value
