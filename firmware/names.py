"""Player names: the one rule of what a name may be, for the device, the hub and the wire alike.

A name is what the engine's notation allows (no spaces, none of ``, ; : = / |``,
:func:`engine.game.player_name_problem`), at most :data:`MAX_NAME_LENGTH` characters, free of
control, format and separator characters (no line breaks, no bidi overrides such as U+202E that
would garble a screen or a log line), and made only of :data:`NAME_CHARACTERS`: the letters,
digits and punctuation the device's bitmap fonts draw, the Latin letters of names met at a
German table among them (é, ç, ñ, ø, ł, ş, ğ ...), but no emoji and none of the screen's own
marks (the computer player's ⚙, the shortened name's …, arrows). A character the screen lacked
would be drawn as "?", the sign of a die under the cup; ``tests/firmware/test_names.py`` checks
that both fonts draw every character of the repertoire.

The rule is the same wherever a name comes from: the device's configuration, the link and the
page, the remembered names, the hub's registration and the tournament's messages. A name longer
than the OLED shows whole (:data:`SHOWN_NAME_LENGTH`) is shown shortened there
(:mod:`firmware.screen.shortnames`); the letter wheel spells at most what fits.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable

from engine.game import player_name_problem

__all__ = [
    "MAX_NAME_LENGTH",
    "NAME_CHARACTERS",
    "SHOWN_NAME_LENGTH",
    "PlayerNameError",
    "check_player_names",
    "name_problem",
]

#: The longest player name, in characters (a tournament's roster, the wire, the device).
MAX_NAME_LENGTH = 40

#: The most characters of a name the device's screens show whole (longer ones are shortened
#: there, :mod:`firmware.screen.shortnames`; a tournament's roster gives every player a name of
#: at most this many, :mod:`firmware.hub.registration`).
SHOWN_NAME_LENGTH = 10

#: The Latin letters beyond ASCII that a name may hold: the German ones and those of names met
#: at a German table, each of them drawn by both of the device's fonts.
LATIN_LETTERS = (
    "ÀÁÂÄÅÆÇÈÉÊÍÎÑÓÔÖØÚÜÝßàáâãäåæçèéêëíîïðñòóôõöøùúûüýÿ"
    "ăąĆćČčęěĞğİıŁłńňőœŘřŚśŞşŠšůűŹźŻżŽž"
)
#: The punctuation a name may hold: ASCII's, less what the notation or the fonts refuse.
NAME_PUNCTUATION = "!\"%&'()*+-.<>?[]_"
#: Every character a player's name may hold: the repertoire below the device and the hub.
NAME_CHARACTERS: frozenset[str] = frozenset(
    string.ascii_letters + string.digits + NAME_PUNCTUATION + LATIN_LETTERS
)

#: Unicode categories a name must not contain: controls, format characters (bidi overrides,
#: zero-width characters), line and paragraph separators, surrogates, private use, unassigned.
_FORBIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


class PlayerNameError(ValueError):
    """A player name that breaks the rule; the message names it and what is allowed."""


def name_problem(name: object) -> str | None:
    """Why ``name`` is no player's name (one line), or None: the engine's rule, then ours.

    The one check of a player's name for the configuration, the link, the CLI, the remembered
    names, the letter wheel, the hub and the wire.
    """
    problem = player_name_problem(name)
    if problem is not None or not isinstance(name, str):
        return problem
    # repr() escapes what cannot be printed (controls, bidi overrides, separators).
    shown = repr(name[:12]) + ("…" if len(name) > 12 else "")
    for char in name:
        if unicodedata.category(char) in _FORBIDDEN:
            return (
                f"player name {shown}: holds the control or format character U+{ord(char):04X}; "
                "use letters, digits and punctuation"
            )
    missing = next((char for char in name if char not in NAME_CHARACTERS), None)
    if missing is not None:
        return (
            f"player name {shown}: the screen cannot draw {missing!r} "
            f"(U+{ord(missing):04X}); use letters (also é, ç, ñ, ø, ł, ş ...), digits and "
            "punctuation"
        )
    if len(name) > MAX_NAME_LENGTH:
        return f"player name {shown} has {len(name)} characters: at most {MAX_NAME_LENGTH}"
    return None


def check_player_names(names: Iterable[str]) -> None:
    """Raise :class:`PlayerNameError` for the first name that breaks the rule."""
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise PlayerNameError(problem)
