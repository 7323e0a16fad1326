"""How the OLED shows a player's name: whole if it fits, else shortened with "…", unique at the
table.

A name may be up to :data:`firmware.names.MAX_NAME_LENGTH` characters (a hub may send what its
registration took), but the screens show at most :data:`firmware.names.SHOWN_NAME_LENGTH`
(the shared name rule's; a hub's roster import gives every player a name that fits): that many
of the widest letter, with a computer player's mark, fit the turn screen's title in both languages
(``tests/firmware/test_names.py`` measures it), and every screen's fit check is made with names
of that length (``tests/firmware/test_fit.py``). A longer name is shown as its beginning, "…"
and as much of its end as tells it apart from the other players' (``Maximilian-Schmidt`` and
``Maximilian-Schulz`` are ``Maximili…t`` and ``Maximili…z``), or a number where nothing else
does (``Alexande…1``, ``Alexande…2``). "…" is no character of a name
(:data:`firmware.names.NAME_CHARACTERS`), so a shortened name never looks like another player's
whole one. The letter wheel spells at most what fits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType

from firmware.names import SHOWN_NAME_LENGTH

__all__ = ["SHORT_MARK", "SHOWN_NAME_LENGTH", "fits_whole", "short_names"]

#: Where a shortened name leaves characters out.
SHORT_MARK = "…"


def fits_whole(name: str) -> bool:
    """Whether the screens show ``name`` as it is."""
    return len(name) <= SHOWN_NAME_LENGTH


def short_names(names: Iterable[str]) -> Mapping[str, str]:
    """Each of ``names`` (the players at one table) as the screens show it: itself if it fits,
    else shortened, every shown form different from the others."""
    return _short_names(tuple(dict.fromkeys(names)))


@lru_cache(maxsize=64)
def _short_names(names: tuple[str, ...]) -> Mapping[str, str]:
    length = SHOWN_NAME_LENGTH
    long = [name for name in names if not fits_whole(name)]
    shown = {name: name for name in names if fits_whole(name)}
    # The end grows (and the beginning shrinks) until no two shortened names are alike.
    for tail in range(0, length - 1):
        head = length - 1 - tail
        tried = {name: name[:head] + SHORT_MARK + (name[-tail:] if tail else "") for name in long}
        if len(set(tried.values())) == len(tried):
            return MappingProxyType({**shown, **tried})
    # Names that differ only in their middle: numbered in the order given.
    for number, name in enumerate(long, start=1):
        mark = f"{SHORT_MARK}{number}"
        shown[name] = name[: length - len(mark)] + mark
    return MappingProxyType(shown)
