"""Rules by name or by file: the one place that reads a user's rules TOML from disk."""

from __future__ import annotations

from pathlib import Path

from engine.errors import RulesError
from engine.rules import Rules, load_preset, preset_names, rules_from_toml


def load_rules(name_or_path: str) -> Rules:
    """A preset name (``standard``, ``bvb``, ...) or the path of a TOML file.

    A file holds ``preset = NAME`` plus overrides of any rules key. Raises :class:`RulesError`
    with a one-line message for an unknown preset, a missing file or a bad key.
    """
    if name_or_path in preset_names():
        return load_preset(name_or_path)
    path = Path(name_or_path)
    looks_like_file = path.suffix == ".toml" or "/" in name_or_path or path.exists()
    if not looks_like_file:
        raise RulesError(
            f"unknown rules {name_or_path!r}: give a preset ({', '.join(preset_names())}) "
            "or the path of a .toml file"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError(f"rules file {name_or_path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(f"rules file {name_or_path} cannot be read: {error}") from None
    return rules_from_toml(text, origin=str(path))
