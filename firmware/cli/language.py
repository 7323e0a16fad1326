"""The language a printing subcommand speaks: ``--lang``, else the environment's locale.

Apart from :mod:`firmware.cli.common`, which reads the rules files of the device's store, so
that the hub's command line (``firmware/cli/hub.py``) can take it without the device's insides.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from firmware.words import DEFAULT_LANGUAGE, LANGUAGES

__all__ = ["LOCALE_VARIABLES", "add_lang_argument", "output_language"]

#: The environment's locale variables, in the order POSIX consults them for messages.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def add_lang_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--lang de|en``: the language of ``what`` (default: see :func:`output_language`)."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help=f"language of {what} (default: the environment's LC_ALL, LC_MESSAGES or LANG, "
        "e.g. en_GB.UTF-8; German where it names neither language)",
    )


def output_language(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> str:
    """The language a printing subcommand speaks for the whole run: ``--lang``, else the first
    of LC_ALL, LC_MESSAGES and LANG that is set (as POSIX reads them) if it names German or
    English (``de_DE.UTF-8``, ``en``), else German (``C``, ``POSIX``, ``fr_FR``, nothing)."""
    if args.lang is not None:
        return str(args.lang)
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE
