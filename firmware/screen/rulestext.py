"""The rules in words of the catalogue: the menu's "Regeln" in a game, and what a rules file says.

:func:`rules_summary` is the rules in force, in a few lines of the device's language: the first
line names the rules and their Deckel, then one line for every option that differs from the
``standard`` preset (in the order of :class:`engine.rules.Rules`), then that everything else is
as in ``standard``. A yes/no option has a text for each value (``rule_jule_on``,
``rule_jule_off``), a choice one per value (``rule_ties_nachgelegt``), each found in
:data:`RULE_VALUE_KEYS`. The lists ``hand_only`` and ``names`` take a line for each throw
("General nur aus der Hand", "General heißt Jenie"), so that every line fits.

:func:`describe_changes` words what rules change of their preset ("wie standard, aber 15
Deckel"), the description a rules file gets unless it writes its own (see
:func:`engine.rules.rules_from_mapping`).

An option without texts of its own (one added to the engine later) reads in the engine's plain
words, ``key = value`` (:func:`engine.rules.describe_option`), so that it is never left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import (
    NAME_KEY_LABELS,
    USUAL_NAMES,
    DroppedCup,
    Rules,
    StrasseOrder,
    TieRule,
    TwoTwoOne,
    describe_option,
    differences,
    load_preset,
)
from firmware.screen.oled_words import OledWords

__all__ = [
    "RULE_VALUE_KEYS", "changes_text", "describe_changes", "hand_only_line", "option_lines",
    "option_text", "option_words", "rules_summary",
]  # fmt: skip


def _switch(on: str, off: str) -> dict[object, str]:
    return {True: on, False: off}


#: The rules screen's text for each value an option may take: both values of a yes/no option,
#: every member of a choice, and the values with words of their own (no penalty, empty lists).
RULE_VALUE_KEYS: dict[str, dict[object, str]] = {
    "general_above_schock2": _switch(
        "rule_general_above_schock2_on", "rule_general_above_schock2_off"
    ),
    "strasse_order": {
        StrasseOrder.ASCENDING: "rule_strasse_order_ascending",
        StrasseOrder.EQUAL: "rule_strasse_order_equal",
        StrasseOrder.FIRST_THROWN: "rule_strasse_order_first_thrown",
        StrasseOrder.FEWER_THROWS: "rule_strasse_order_fewer_throws",
    },
    "hand_only": {(): "rule_hand_only_none"},
    "naturschock_above_built": _switch(
        "rule_naturschock_above_built_on", "rule_naturschock_above_built_off"
    ),
    "ties": {
        TieRule.FEWER_THROWS: "rule_ties_fewer_throws",
        TieRule.NACHGELEGT: "rule_ties_nachgelegt",
    },
    "jule": _switch("rule_jule_on", "rule_jule_off"),
    "two_two_one": {
        TwoTwoOne.LOWEST: "rule_two_two_one_lowest",
        TwoTwoOne.NEUNER: "rule_two_two_one_neuner",
        TwoTwoOne.SIEBENER: "rule_two_two_one_siebener",
    },
    "achter": _switch("rule_achter_on", "rule_achter_off"),
    "flip_sixes": _switch("rule_flip_sixes_on", "rule_flip_sixes_off"),
    "blind": _switch("rule_blind_on", "rule_blind_off"),
    "boerdeschock": _switch("rule_boerdeschock_on", "rule_boerdeschock_off"),
    "two_dice": _switch("rule_two_dice_on", "rule_two_dice_off"),
    "keep_only_ones": _switch("rule_keep_only_ones_on", "rule_keep_only_ones_off"),
    "take_back": _switch("rule_take_back_on", "rule_take_back_off"),
    "dropped_cup": {
        DroppedCup.ROUND: "rule_dropped_cup_round",
        DroppedCup.DECKEL: "rule_dropped_cup_deckel",
    },
    "penalty_deckel": {0: "rule_penalty_none"},
    "hidden_last_throw": _switch("rule_hidden_last_throw_on", "rule_hidden_last_throw_off"),
    "hints": _switch("rule_hints_on", "rule_hints_off"),
    "names": {(): "rule_names_none"},
}

#: The rules screen's text for an option's number, ``{n}``.
RULE_NUMBER_KEYS = {"max_throws": "rule_max_throws", "penalty_deckel": "rule_penalty_deckel"}

#: Where a description words an option's value otherwise than the rules screen.
DESCRIPTION_VALUE_KEYS: dict[str, dict[object, str]] = {
    "general_above_schock2": {False: "desc_general_above_schock2_off"},
    "blind": {True: "desc_blind_on"},
    "ties": {TieRule.NACHGELEGT: "desc_ties_nachgelegt"},
    "dropped_cup": {
        DroppedCup.ROUND: "desc_dropped_cup_round",
        DroppedCup.DECKEL: "desc_dropped_cup_deckel",
    },
    "hand_only": {(): "desc_hand_only_none"},
}

#: A description's text for an option's number, ``{n}``.
DESCRIPTION_NUMBER_KEYS = {
    "deckel": "desc_deckel",
    "max_throws": "desc_max_throws",
    "penalty_deckel": "desc_penalty_deckel",
}

#: The language of the descriptions rules files get: German on every device, as the presets' own.
DESCRIPTION_LANGUAGE = "de"


def rules_summary(rules: Rules, texts: OledWords) -> tuple[str, ...]:
    """The name and Deckel, every option that differs from ``standard``, and "all else as
    standard" (or, if nothing differs, that this is all as in ``standard``)."""
    changed = [key for key in differences(load_preset("standard"), rules) if key != "deckel"]
    lines = [texts.t("rules_in_force", name=rules.name, deckel=rules.deckel)]
    for key in changed:
        lines += option_lines(key, getattr(rules, key), texts)
    lines.append(texts.t("rules_otherwise" if changed else "rules_as_standard"))
    return tuple(lines)


def option_lines(key: str, value: object, texts: OledWords) -> list[str]:
    """One option's value as the rules screen lists it: a line for each throw of the lists
    ``hand_only`` and ``names``, else the one line of :func:`option_text`."""
    if key == "hand_only" and isinstance(value, tuple) and value:
        return [hand_only_line(kind, texts) for kind in value]
    if key == "names" and isinstance(value, tuple) and value:
        return [texts.t("rule_name", kind=NAME_KEY_LABELS[kind], name=name) for kind, name in value]
    return [option_text(key, value, texts)]


def hand_only_line(kind: str, texts: OledWords) -> str:
    """The rules screen's line for a throw that counts only from the hand ("General nur aus der
    Hand"); ``kind`` is one of :data:`engine.rules.HAND_ONLY_KINDS`."""
    return texts.t("rule_hand_only_kind", kind=USUAL_NAMES[kind])


def option_text(key: str, value: object, texts: OledWords) -> str:
    """One option's value in the device's language, as the rules screen says it."""
    text_key = RULE_VALUE_KEYS.get(key, {}).get(value) or RULE_NUMBER_KEYS.get(key)
    if text_key is None:
        return describe_option(key, value)
    return texts.t(text_key, n=value)


def option_words(key: str, value: object, texts: OledWords) -> str:
    """One option's value as a description says it: in the words of the rules screen, except
    where :data:`DESCRIPTION_VALUE_KEYS` and :data:`DESCRIPTION_NUMBER_KEYS` say it otherwise,
    and the lists ``hand_only`` and ``names`` in one go ("nur aus der Hand: General und Jule")."""
    if key == "hand_only" and isinstance(value, tuple) and value:
        kinds = [USUAL_NAMES[kind] for kind in value]
        return texts.t("desc_hand_only", kinds=_listing(kinds, texts))
    if key == "names" and isinstance(value, tuple) and value:
        named = [
            texts.t("desc_name", kind=NAME_KEY_LABELS[kind], name=name) for kind, name in value
        ]
        return texts.t("desc_names", names=_listing(named, texts))
    if key == "max_throws" and value == 1:
        return texts.t("desc_max_throws_one", n=value)
    text_key = (
        DESCRIPTION_VALUE_KEYS.get(key, {}).get(value)
        or RULE_VALUE_KEYS.get(key, {}).get(value)
        or DESCRIPTION_NUMBER_KEYS.get(key)
    )
    if text_key is None:
        return describe_option(key, value)
    return texts.t(text_key, n=value)


def describe_changes(base: Rules, rules: Rules, changed: Sequence[str]) -> str:
    """What ``rules`` change of their preset ``base``, in the words of a preset's description
    ("wie standard, aber 15 Deckel"): an :data:`engine.rules.Describe` for rules files."""
    return changes_text(base, rules, changed, OledWords(DESCRIPTION_LANGUAGE))


def changes_text(base: Rules, rules: Rules, changed: Sequence[str], texts: OledWords) -> str:
    """What ``rules`` change of their preset ``base`` (the options ``changed``), in ``texts``'
    language: "wie standard, aber 15 Deckel", "like standard, but 15 Deckel"."""
    wording = ", ".join(option_words(key, getattr(rules, key), texts) for key in changed)
    return texts.t("desc_changes", preset=base.name, changes=wording)


def _listing(items: list[str], texts: OledWords) -> str:
    """``a, b und c``: the last item joined by "und", so that a list inside a description's
    comma-separated options shows where it ends."""
    if len(items) < 2:
        return "".join(items)
    return texts.t("desc_list_last", items=", ".join(items[:-1]), last=items[-1])
