"""Pieces the subcommands share: the ``--rules`` option, dice parsing and a throw as JSON (the
language of a printing subcommand is :mod:`firmware.cli.language`'s)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.limits import ascii_whole_number
from engine.rules import Rules, preset_names
from engine.throws import Evaluation
from firmware.cli import CliError
from firmware.store.rulesfile import load_rules

if TYPE_CHECKING:
    from pathlib import Path

    from engine.spieltag import Evening


def note_lost(command: str, evening: Evening, lang: str) -> None:
    """On stderr, one line for each Partie of ``evening`` that cannot be counted (a journal
    deleted or damaged), with the reader's detail, and for each finished game not counted
    (taken out, or of a table size the scheme cannot score): whatever is printed, nobody
    misses it."""
    import sys

    from firmware.cli.cli_words import CliWords
    from firmware.report.sheet import lost_line, uncounted_line

    text = CliWords(lang)
    for game in evening.lost:
        detail = f" ({game.detail})" if game.detail else ""
        print(f"schocken {command}: {lost_line(game, text)}{detail}", file=sys.stderr)
    for uncounted in evening.uncounted:
        line = uncounted_line(uncounted, evening.spieltag.scheme, text)
        print(f"schocken {command}: {line}", file=sys.stderr)


def note_unlisted(command: str, evening: Evening, lang: str) -> None:
    """On stderr, one line for each player of a league match who is on none of its seats (the
    sheet marks them too): register them as a substitute."""
    import sys

    from engine.league import unlisted_players
    from firmware.cli.cli_words import CliWords

    text = CliWords(lang)
    for name in unlisted_players(evening):
        partie = next(g.partie for g in evening.games if name in g.setup.players)
        line = text.t("sheet_unlisted_line", name=name, partie=partie)
        print(f"schocken {command}: {line}", file=sys.stderr)


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules NAME|FILE`` (default ``standard``)."""
    parser.add_argument(
        "--rules",
        metavar="NAME|FILE",
        default="standard",
        help=f"a preset ({', '.join(preset_names())}) or a rules TOML file; default: standard",
    )


#: The largest exported evening `sheet` and `saison` read.
MAX_EXPORT_BYTES = 32 * 1024 * 1024


def exported_evening(path: Path, source: str) -> Evening:
    """The evening of the export at ``path`` (typed as ``source``); CliError in one line."""
    from firmware.store.evening import evening_from_export
    from firmware.userfile import UserFileError, read_user_text

    advice = "give a state directory or a file written by `schocken sheet --export`"
    try:
        text = read_user_text(path, f"SOURCE {source}", advice, MAX_EXPORT_BYTES)
    except UserFileError as error:
        raise CliError(str(error)) from None
    return evening_from_export(text, source)


def print_json(value: Any, *, ensure_ascii: bool = True) -> None:
    """Print ``value`` as JSON on one line (:mod:`json` loads only for a command that prints it,
    which keeps the start of the others a millisecond shorter)."""
    import json

    print(json.dumps(value, ensure_ascii=ensure_ascii))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules ``--rules`` names; a bad name or file raises RulesError (one line, exit 2)."""
    return load_rules(str(args.rules))


def whole_number(text: str, option: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``, or a CliError naming ``option``."""
    value = ascii_whole_number(text)
    if value is None:
        raise CliError(
            f"{option} {text!r}: must be a whole number {low} to {high} (digits 0-9)"
        )
    if not low <= value <= high:
        raise CliError(f"{option} {value}: allowed are {low} to {high}")
    return value


#: The largest seed ``--seed`` takes (``simulate`` and ``sim`` alike).
MAX_SEED = 2**63


def seed_from_text(text: str) -> int:
    """``--seed S`` as a whole number 0 to :data:`MAX_SEED` in ASCII digits, or a CliError: the
    one parser of ``simulate --seed`` and ``sim --seed``."""
    return whole_number(text, "--seed", 0, MAX_SEED)


def parse_dice(words: Sequence[str], rules: Rules) -> tuple[int, ...]:
    """Dice from the command line: ``1 1 4`` or, as a shorthand, ``114`` or ``1-1-4``.

    Raises :class:`CliError` naming the bad value and what is allowed.
    """
    count = rules.dice_count
    items = list(words)
    if len(items) == 1 and len(items[0].replace("-", "")) > 1:
        items = list(items[0].replace("-", ""))
    dice = []
    for item in items:
        if not (item.isascii() and item.isdigit() and 1 <= int(item) <= 6):
            raise CliError(f"die {item!r}: allowed are the numbers 1 to 6")
        dice.append(int(item))
    if len(dice) != count:
        variant = " (two-dice variant)" if rules.two_dice else ""
        raise CliError(
            f"need {count} dice under rules {rules.name!r}{variant}, got {len(dice)}: "
            + (" ".join(items) or "none")
        )
    return tuple(dice)


def deckel_json(deckel: int | None) -> int | str:
    """Deckel as JSON: a whole number, or ``"all"`` for Schock aus."""
    return "all" if deckel is None else deckel


def evaluation_json(evaluation: Evaluation, thrown: Sequence[int] | None = None) -> dict[str, Any]:
    """A throw as one JSON object.

    ``dice`` are the dice thrown, highest first; ``read_as`` the three dice the throw counts as
    (they differ only in the two-dice variant, where the third die is imagined).
    """
    dice = sorted(evaluation.dice if thrown is None else thrown, reverse=True)
    return {
        "dice": dice,
        "read_as": list(evaluation.dice),
        "hand": evaluation.hand,
        "kind": evaluation.kind.value,
        "name": evaluation.name,
        "deckel": deckel_json(evaluation.deckel),
        "strength": evaluation.strength,
    }


def dashed(dice: Sequence[int]) -> str:
    """Dice as people write them: ``6-5-4``."""
    return "-".join(map(str, dice))
