"""Pieces the subcommands share: the ``--rules`` and ``--state-dir`` options, dice parsing and
a throw as JSON."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.limits import ascii_whole_number
from engine.rules import Rules, preset_names
from engine.throws import Evaluation
from firmware.cli import CliError
from firmware.rulesfile import load_rules
from hal.storage import user_state_dir

#: The device's state directory (deploy/config.toml, [storage] state_dir).
DEVICE_STATE_DIR = "/var/lib/schockbesteck"


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules NAME|FILE`` (default ``standard``)."""
    parser.add_argument(
        "--rules",
        metavar="NAME|FILE",
        default="standard",
        help=f"a preset ({', '.join(preset_names())}) or a rules TOML file; default: standard",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules ``--rules`` names; a bad name or file raises RulesError (one line, exit 2)."""
    return load_rules(str(args.rules))


def add_state_dir_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--state-dir DIR``: where the games are (default: see :func:`state_dir_from_args`)."""
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help=f"the folder with the games (default: the device's {DEVICE_STATE_DIR} if it "
        "exists, else ~/.local/state/schockbesteck, where `schocken sim` keeps them)",
    )


def state_dir_from_args(args: argparse.Namespace) -> Path | None:
    """The folder with the games: ``--state-dir``, else the device's, else the user's (the
    simulator's); None when no games were ever kept here. CliError for a folder that cannot be
    read."""
    given = args.state_dir
    if given is not None:
        path = Path(given).expanduser()
        if not path.is_dir():
            what = "is a file, not a folder" if path.exists() else "does not exist"
            raise CliError(
                f"--state-dir {given}: {what}; give the folder the games are kept in (the "
                f"device's {DEVICE_STATE_DIR}, or {user_state_dir()} for `schocken sim`)"
            )
        candidates = [path]
    else:
        candidates = [p for p in (Path(DEVICE_STATE_DIR), user_state_dir()) if p.is_dir()]
    if not candidates:
        return None
    root = candidates[0]
    if not os.access(root, os.R_OK | os.X_OK):
        raise CliError(
            f"the state directory {root} cannot be read by you: run the command with sudo, "
            "or give another folder with --state-dir DIR"
        )
    return root


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
