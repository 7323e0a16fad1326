"""Sample values of every rules option, for tests that word each of them."""

from __future__ import annotations

from dataclasses import fields

from engine.rules import Rules

#: Every option of :class:`Rules`, without the fields that only name and describe rules.
OPTIONS = [f.name for f in fields(Rules) if f.name not in ("name", "description", "source")]


def sample_values(key: str) -> list[object]:
    """Distinct values of the option ``key``: every value of a yes/no option or a choice, a few
    numbers, and empty and filled lists."""
    default = getattr(Rules(), key)
    if key == "hand_only":
        return [(), ("general",), ("strasse", "jule")]
    if key == "names":
        return [(), (("general", "Jenie"),), (("schock_2", "Honecker"),)]
    if isinstance(default, bool):
        return [True, False]
    if isinstance(default, int):
        return [0, 1, 15]
    return list(type(default))
