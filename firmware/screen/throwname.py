"""Whether a table's own names for throws (``[names]`` in the rules) fit the device's screen.

The turn screen shows the name of the throw in its status line, beside the pot ("Topf 13") or,
once the turn is over, "weiter ▶"; :func:`throw_name_room` is the narrowest of these in every
language, measured in the bitmap font (:func:`firmware.screen.screens.status_room`), so a change of
font or layout changes the limit with it. The usual names may be shortened to fit ("Hausnr."),
but a table's own name is shown as given, so it must fit whole, with the widest number after it
("Jenie 6", "Straße 6-5-4"), and use only letters the font has.
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import RulesError
from engine.rules import Rules
from engine.throws import Evaluation, Kind, rank_table
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import status_room
from firmware.words import LANGUAGES

__all__ = ["check_throw_names", "throw_name_room", "throw_names_problem"]


def throw_name_room(deckel: int = 99) -> int:
    """Pixels a throw's name may take on the turn screen in its tightest case, in any language."""
    texts = []
    for language in LANGUAGES:
        catalogue = OledWords(language)
        texts += [catalogue.t("pot", n=deckel), catalogue.t("key_continue")]
    return min(status_room(text) for text in texts)


def throw_names_problem(rules: Rules) -> str | None:
    """Why the device cannot show one of ``rules``' own names for throws (one line), or None."""
    if not rules.names:
        return None
    room = throw_name_room(rules.deckel)
    # By the dice as the ranking shows them: under two_dice these are three (the imagined third
    # die included), which no throw of two dice evaluates to.
    usual = {
        (evaluation.dice, evaluation.hand): evaluation.name
        for evaluation in rank_table(replace(rules, names=())).ranking
    }
    for evaluation in rank_table(rules).ranking:
        name = evaluation.name
        if name == usual.get((evaluation.dice, evaluation.hand)):
            continue
        key = _name_key(evaluation, rules)
        missing = FONT.missing(name)
        if missing:
            return (
                f"names.{key} = {rules.name_of(key)!r}: the device's font has no "
                f"{sorted(missing)[0]!r}; use letters (also é, ç, ñ, ø, ł, ş ...), digits and "
                "punctuation"
            )
        if FONT.width(name) > room:
            return (
                f"names.{key} = {rules.name_of(key)!r}: {name!r} is {FONT.width(name)} pixels "
                f"wide, the device's throw line holds {room}; choose a shorter name"
            )
    return None


def _name_key(evaluation: Evaluation, rules: Rules) -> str:
    """The ``[names]`` key that names ``evaluation``."""
    if evaluation.kind is Kind.SCHOCK_AUS and evaluation.hand and rules.name_of("naturschock"):
        return "naturschock"
    if evaluation.kind is Kind.SCHOCK and evaluation.deckel == 2 and rules.name_of("schock_2"):
        return "schock_2"
    return evaluation.kind.value


def check_throw_names(rules: Rules) -> Rules:
    """``rules`` if the device can show their names for throws, else :class:`RulesError`."""
    problem = throw_names_problem(rules)
    if problem is not None:
        raise RulesError(problem)
    return rules
