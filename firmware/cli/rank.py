"""Name, kind, Deckel and strength of a throw, or the whole ranking table, under any rules.

Examples:

  schocken rank 1 1 4
  schocken rank 555 --built --rules dsm
  schocken rank --all --rules westfalen

Strength orders the throws: higher beats lower, equal strength leaves the decision to the tie
rule.
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass

from engine.rules import Rules
from engine.throws import Evaluation, rank_table
from firmware.cli import CliError
from firmware.cli.common import (
    add_rules_argument,
    dashed,
    evaluation_json,
    parse_dice,
    print_json,
    rules_from_args,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "dice",
        nargs="*",
        metavar="D",
        help="the dice, 1 to 6 each: three, or two in the two-dice variant (114 works too)",
    )
    parser.add_argument("--all", action="store_true", help="the whole ranking table, best first")
    parser.add_argument(
        "--built",
        action="store_true",
        help="the throw was built up (zusammengewürfelt); default: all dice from the hand",
    )
    add_rules_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the ranking: the dice thrown and what they are worth."""

    thrown: tuple[int, ...]
    evaluation: Evaluation


def ranking(rules: Rules, hand: bool) -> list[Row]:
    """Every distinct throw under ``rules``, strongest first (equal strength: higher dice first).

    From the hand (``hand``), the built-up throws that the rules value differently follow as rows
    of their own (a built Jule under ``hand_only = ["jule"]`` is the Hausnummer 421).
    """
    table = rank_table(rules)
    combos = list(itertools.combinations_with_replacement(range(6, 0, -1), rules.dice_count))
    rows = [Row(combo, table.evaluate(combo, hand)) for combo in combos]
    if hand:
        for combo in combos:
            built = table.evaluate(combo, False)
            if built.strength != table.evaluate(combo, True).strength:
                rows.append(Row(combo, built))
    return sorted(
        rows,
        key=lambda row: (-row.evaluation.strength, [-d for d in row.thrown], row.evaluation.hand),
    )


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    hand = not args.built
    if args.all:
        if args.dice:
            raise CliError("give either dice or --all, not both")
        rows = ranking(rules, hand)
        if args.json:
            objects = [evaluation_json(row.evaluation, row.thrown) for row in rows]
            print_json(objects, ensure_ascii=False)
        else:
            print(format_table(rows, rules, hand))
        return 0
    if not args.dice:
        raise CliError("give the dice, for example 'schocken rank 1 1 4', or --all for the table")
    dice = parse_dice(args.dice, rules)
    evaluation = rank_table(rules).evaluate(dice, hand)
    if args.json:
        print_json(evaluation_json(evaluation, dice), ensure_ascii=False)
    else:
        print(format_throw(evaluation, dice, rules))
    return 0


def _how(hand: bool) -> str:
    return "from the hand" if hand else "built up"


def format_throw(evaluation: Evaluation, thrown: tuple[int, ...], rules: Rules) -> str:
    """A throw as a few aligned lines."""
    shown = dashed(sorted(thrown, reverse=True))
    if len(thrown) != len(evaluation.dice):
        shown += f", read as {dashed(evaluation.dice)}"
    best = rank_table(rules).strongest().strength
    deckel = "all" if evaluation.deckel is None else str(evaluation.deckel)
    lines = [
        f"{evaluation.name}  ({shown}, {_how(evaluation.hand)}, rules {rules.name})",
        f"  kind      {evaluation.kind.value}",
        f"  Deckel    {deckel}",
        f"  strength  {evaluation.strength} (weakest 1, best {best})",
    ]
    return "\n".join(lines)


def format_table(rows: list[Row], rules: Rules, hand: bool) -> str:
    """The ranking as a table, best first; equally strong throws share a place."""
    two_dice = rules.dice_count == 2
    header = ["#", "dice", *(["read as"] if two_dice else []), "name", "kind", "Deckel", "strength"]
    body: list[list[str]] = []
    place = 0
    previous: int | None = None
    for index, row in enumerate(rows, start=1):
        if row.evaluation.strength != previous:
            place, previous = index, row.evaluation.strength
        e = row.evaluation
        body.append([
            str(place),
            dashed(row.thrown) + ("" if e.hand == hand else " built"),
            *([dashed(e.dice)] if two_dice else []),
            e.name,
            e.kind.value,
            "all" if e.deckel is None else str(e.deckel),
            str(e.strength),
        ])
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    right = {0, len(header) - 1}  # place and strength are numbers: right-aligned

    def render(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        parts = [cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in pairs]
        return "  ".join(parts).rstrip()

    how = _how(hand)
    if any(row.evaluation.hand != hand for row in rows):
        how += " (and built up, marked 'built', where the rules value that differently)"
    title = f"Ranking under rules {rules.name!r}, throws {how}, best first"
    return "\n".join([title, render(header), *map(render, body)])
