"""Views as lines of text: the text golden of the headless game (``golden/whole-game.views``).

:func:`view_line` writes one view (:mod:`firmware.screen.views`) as one line, made to be read in a
diff: the view's class name, then its fields in the order the dataclass declares them, as
``name=value``. A field at its default value is left out, so that a new field with a default
does not rewrite every line. Values are written as follows:

* text: as it is when it is one plain word (``player=Anna``), otherwise in double quotes with
  JSON's escapes (``status="Schock aus!"``, ``headline=""``);
* a number as a number; a true flag as its bare name (``shaking``), a false one not at all;
* a tuple in brackets: ``waiting=[Ben, Carla]``;
* a die (:class:`~firmware.screen.views.DieFace`) as its pips, ``-`` while it is in the cup, then
  ``*`` when it is laid out (drawn inverted) and ``_`` when it stays out from an earlier throw
  (drawn underlined): ``dice=[1*_, 1*, 5]``;
* any other row (a Deckel tally, a reveal row, ...) in braces, by the same rules:
  ``{name=Anna deckel=2 current}``;
* an enum member by its name.

Anything else raises TypeError, so that a new kind of field is written on purpose, not by luck.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re

from firmware.screen.views import DieFace, View

__all__ = ["view_line"]

#: Text written without quotes: no space, quote, bracket, brace, comma or equals sign in it, and
#: not starting like a number or a die in the cup.
_PLAIN_WORD = re.compile(r"[^\s\"\[\]{},=\d-][^\s\"\[\]{},=]*")


def view_line(view: View) -> str:
    """``view`` as one line: ``TurnView player=Anna throw_text="Wurf 1/3" dice=[6, 6*, 1] ...``."""
    return " ".join([type(view).__name__, *_fields(view)])


def _fields(row: object) -> list[str]:
    """The ``name=value`` parts of a view or row, leaving out fields at their default."""
    parts = []
    for field in dataclasses.fields(row):  # type: ignore[arg-type]
        value = getattr(row, field.name)
        if field.default is not dataclasses.MISSING and value == field.default:
            continue
        if value is True:
            parts.append(field.name)
        else:
            parts.append(f"{field.name}={_value(value)}")
    return parts


def _value(value: object) -> str:
    if isinstance(value, DieFace):
        pips = "-" if value.value is None else str(value.value)
        return pips + ("*" if value.out else "") + ("_" if value.fixed else "")
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, str):
        return value if _PLAIN_WORD.fullmatch(value) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return "{" + " ".join(_fields(value)) + "}"
    raise TypeError(f"a view field holds {type(value).__name__} {value!r}: teach view_line it")
