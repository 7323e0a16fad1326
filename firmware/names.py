"""Player names as the device accepts them: the same limit for the config, the link and the CLI.

The engine allows any name without spaces and ``, ; : = / |`` (its notation needs that,
:func:`engine.game.player_name_problem`). The device adds what its screen needs: a name is at
most :data:`MAX_NAME_LENGTH` characters, so that a computer player's name with its mark fits
whole into the title of the turn screen in both languages (``tests/firmware/test_names.py``
measures it in the bitmap font), and it holds no control, format or separator characters (no
line breaks, no bidi overrides such as U+202E) that would garble the screen or a log line, and
only characters the screen's fonts draw (the Latin letters of names at a German table, such as
é, ç, ñ, ø, ł, ş and ğ, but no emoji): a character the screen lacks would be drawn as "?", the
sign of a die under the cup.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from engine.game import player_name_problem
from firmware.screen.font import FONT, SMALL

__all__ = ["MAX_NAME_LENGTH", "PlayerNameError", "check_player_names", "name_problem"]

#: The longest player name, in characters.
MAX_NAME_LENGTH = 10

#: Unicode categories a name must not contain: controls, format characters (bidi overrides,
#: zero-width characters), line and paragraph separators, surrogates, private use, unassigned.
_FORBIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


class PlayerNameError(ValueError):
    """A player name the device does not accept; the message names it and what is allowed."""


def name_problem(name: object) -> str | None:
    """Why the device refuses ``name`` (one line), or None: the engine's rule, then the device's.

    The one check of a player's name for the configuration, the link, the CLI, the remembered
    names and the letter wheel.
    """
    problem = player_name_problem(name)
    if problem is not None or not isinstance(name, str):
        return problem
    # repr() escapes what cannot be printed (controls, bidi overrides, separators).
    shown = repr(name[: MAX_NAME_LENGTH + 2]) + ("…" if len(name) > MAX_NAME_LENGTH + 2 else "")
    for char in name:
        if unicodedata.category(char) in _FORBIDDEN:
            return (
                f"player name {shown}: holds the control or format character U+{ord(char):04X}; "
                "use letters, digits and punctuation"
            )
    missing = sorted(FONT.missing(name) | SMALL.missing(name), key=name.index)
    if missing:
        return (
            f"player name {shown}: the screen cannot draw {missing[0]!r} "
            f"(U+{ord(missing[0]):04X}); use letters (also é, ç, ñ, ø, ł, ş ...), digits and "
            "punctuation"
        )
    if len(name) > MAX_NAME_LENGTH:
        return (
            f"player name {shown} has {len(name)} characters: at most {MAX_NAME_LENGTH} "
            "(what the screen shows)"
        )
    return None


def check_player_names(names: Iterable[str]) -> None:
    """Raise :class:`PlayerNameError` for the first name the device refuses."""
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise PlayerNameError(problem)
