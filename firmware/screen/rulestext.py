"""The rules in force, in a few lines of the device's language: the menu's "Regeln" in a game.

The first line names the rules and their Deckel, then one line for every option that differs from
the ``standard`` preset (in the order of :class:`engine.rules.Rules`), then that everything else is
as in ``standard``. The words come from the catalogue (:mod:`firmware.screen.i18n`): a yes/no option
has a text for each value (``rule_jule_on``, ``rule_jule_off``), a choice one per value
(``rule_ties_nachgelegt``). The lists ``hand_only`` and ``names`` take a line for each throw
("General nur aus der Hand", "General heißt Jenie"), so that every line fits. An option without
texts of its own (one added to the engine later) reads in the engine's words
(:func:`engine.rules.describe_option`), else as ``key = value``, so that it is never left out.
"""

from __future__ import annotations

import enum

from engine.rules import (
    NAME_KEY_LABELS,
    USUAL_NAMES,
    Rules,
    describe_option,
    differences,
    load_preset,
)
from firmware.screen.i18n import Catalogue

__all__ = ["option_lines", "option_text", "rules_summary"]


def rules_summary(rules: Rules, texts: Catalogue) -> tuple[str, ...]:
    """The name and Deckel, every option that differs from ``standard``, and "all else as
    standard" (or, if nothing differs, that this is all as in ``standard``)."""
    changed = [key for key in differences(load_preset("standard"), rules) if key != "deckel"]
    lines = [texts.t("rules_in_force", name=rules.name, deckel=rules.deckel)]
    for key in changed:
        lines += option_lines(key, getattr(rules, key), texts)
    lines.append(texts.t("rules_otherwise" if changed else "rules_as_standard"))
    return tuple(lines)


def option_lines(key: str, value: object, texts: Catalogue) -> list[str]:
    """One option's value as the rules screen lists it: a line for each throw of the lists
    ``hand_only`` and ``names``, else the one line of :func:`option_text`."""
    if key == "hand_only" and isinstance(value, tuple) and value:
        return [texts.t("rule_hand_only_kind", kind=USUAL_NAMES[kind]) for kind in value]
    if key == "names" and isinstance(value, tuple) and value:
        return [texts.t("rule_name", kind=NAME_KEY_LABELS[kind], name=name) for kind, name in value]
    return [option_text(key, value, texts)]


def option_text(key: str, value: object, texts: Catalogue) -> str:
    """One option's value in the device's language."""
    if isinstance(value, bool):
        text_key = f"rule_{key}_{'on' if value else 'off'}"
    elif isinstance(value, enum.Enum):
        text_key = f"rule_{key}_{value.value}"
    elif key == "penalty_deckel" and value == 0:
        text_key = "rule_penalty_none"
    elif key in ("hand_only", "names") and not value:
        text_key = f"rule_{key}_none"
    else:
        text_key = f"rule_{key}"
    if texts.has(text_key):
        return texts.t(text_key, n=value)
    try:
        return describe_option(key, value, texts.language)
    except KeyError:
        shown = value.value if isinstance(value, enum.Enum) else value
        return f"{key} = {shown}"
