"""One mechanism for every surface's words: the two languages, the lookup, and its one rule.

Every text a user meets is German by default, English as the option, and each surface keeps its
own words in a home of its own, a dict ``key -> (German, English)`` beside the code that shows
them (docs/architecture.md lists the homes). A surface's catalogue is a :class:`Catalogue`
subclass that names the homes it composes in :attr:`Catalogue.HOMES`, its own first, then the
shared ones below it, or the few words of another surface it shows too (:func:`borrowed`). The
lookup :meth:`Catalogue.t` fills ``{placeholders}``; a key that no home of the surface holds is a
programming error (``KeyError``), never a text of its own. Keys are written literally where they
are looked up (``texts.t("pot", n=3)``, or a table from a value to its key), so that
``tests/architecture/test_words.py`` can read every lookup and check it against the homes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Catalogue", "Home", "borrowed", "language_or_default"]

#: The languages, in the order of each text's pair: German (the default) and English.
LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
_INDEX = {language: index for index, language in enumerate(LANGUAGES)}

#: A home of words: key -> (German, English).
Home = Mapping[str, tuple[str, str]]


def borrowed(home: Home, keys: Iterable[str]) -> dict[str, tuple[str, str]]:
    """The words ``keys`` of ``home``: what a surface shows of another's (``KeyError`` for a key
    that ``home`` does not hold)."""
    return {key: home[key] for key in keys}


def language_or_default(language: str) -> str:
    """``language`` if it is one of :data:`LANGUAGES`, else the default (German)."""
    return language if language in _INDEX else DEFAULT_LANGUAGE


class Catalogue:
    """One surface's words in one language. Unknown keys are a programming error (KeyError).

    A subclass names its homes in :attr:`HOMES`; a key held by two of them is refused when the
    class is made.
    """

    #: The homes this surface's words come from: its own first, then the shared ones.
    HOMES: ClassVar[tuple[Home, ...]] = ()
    #: Every word of :attr:`HOMES`, key -> (German, English) (made from them).
    WORDS: ClassVar[Mapping[str, tuple[str, str]]] = {}

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        words: dict[str, tuple[str, str]] = {}
        for home in cls.HOMES:
            twice = sorted(words.keys() & home.keys())
            if twice:
                raise TypeError(f"{cls.__name__}: {', '.join(twice)} in two of its homes")
            words.update(home)
        cls.WORDS = words

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        if language not in _INDEX:
            allowed = ", ".join(LANGUAGES)
            raise ValueError(f"language {language!r} is not available: use one of {allowed}")
        self.language = language
        self._index = _INDEX[language]

    def t(self, key: str, **values: object) -> str:
        """The text for ``key`` with ``{placeholders}`` filled from ``values``."""
        return self.WORDS[key][self._index].format(**values)

    def table(self) -> dict[str, str]:
        """Every word of the surface in this language, unfilled (for a page that fills them)."""
        return {key: pair[self._index] for key, pair in self.WORDS.items()}
