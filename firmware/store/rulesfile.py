"""Rules by name or by file: the one place that reads a user's rules TOML from disk."""

from __future__ import annotations

from pathlib import Path

from engine.errors import RulesError
from engine.rules import MAX_RULES_BYTES, Rules, load_preset, preset_names, rules_from_toml
from firmware.screen.rulestext import describe_changes
from firmware.userfile import UserFileError, names_a_toml_file, read_user_text


def load_rules(name_or_path: str) -> Rules:
    """A preset name (``standard``, ``bvb``, ...) or the path of a TOML file.

    A file holds ``preset = NAME`` plus overrides of any rules key; unless it describes itself,
    its description says what it changes, as a preset's would ("wie standard, aber 15 Deckel").
    Raises :class:`RulesError`
    with a one-line message for an unknown preset, a missing file, a bad key, or a name for a
    throw (``[names]``) that the device's screen cannot show (:mod:`firmware.screen.throwname`).
    """
    if name_or_path in preset_names():
        return load_preset(name_or_path)
    path = Path(name_or_path)
    if not names_a_toml_file(name_or_path):
        raise RulesError(
            f"unknown rules {name_or_path!r}: give a preset ({', '.join(preset_names())}) "
            "or the path of a .toml file"
        )
    advice = f"give a preset ({', '.join(preset_names())}) or a rules .toml file (docs/rules.md)"
    try:
        text = read_user_text(path, f"rules file {name_or_path}", advice, MAX_RULES_BYTES)
    except UserFileError as error:
        raise RulesError(str(error)) from None
    rules = rules_from_toml(text, origin=str(path), describe=describe_changes)
    if rules.names:
        # Only a file with its own names for throws needs the font (and Pillow) to measure them.
        from firmware.screen.throwname import throw_names_problem

        names_problem = throw_names_problem(rules)
        if names_problem is not None:
            raise RulesError(f"{path}: {names_problem}")
    return rules
