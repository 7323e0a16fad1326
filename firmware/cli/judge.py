"""Settle a round given as JSON: winner, loser, Deckel moved and from where, who is out.

Reads one JSON object from FILE or stdin, for example:

    {"pot": 13, "deckel": {"Anna": 0, "Ben": 0, "Carla": 0},
     "players": [{"name": "Carla", "dice": [5, 3, 2], "throws": 3},
                 {"name": "Anna", "dice": [1, 1, 4], "throws": 3},
                 {"name": "Ben", "dice": [4, 3, 1], "throws": 3}]}

"players" are in throw order (the round's first player first); "deckel" holds every player
of the half, out players included; "hand" defaults to true for a single throw, else false.
docs/cli.md has the full schema.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.limits import InputLimitError, json_loads, json_problem
from engine.rules import Rules
from engine.settle import DeckelSource, Settlement, TurnResult, settle
from engine.throws import rank_table
from firmware.cli import CliError
from firmware.cli.common import (
    add_rules_argument,
    dashed,
    deckel_json,
    evaluation_json,
    rules_from_args,
)
from firmware.userfile import MAX_TEXT_FILE_BYTES, UserFileError, path_problem, read_user_text

ROUND_KEYS = ("pot", "deckel", "players")
PLAYER_KEYS = ("name", "dice", "throws", "hand", "blind")
#: Bördeschock: each flip earns a throw; at most two flips fit in a turn (Wikipedia: "bis zu
#: fünfmal").
BOERDE_EXTRA_THROWS = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="the round as JSON; default: stdin"
    )
    add_rules_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


@dataclass(frozen=True, slots=True)
class RoundInput:
    """A round to settle, checked against the rules."""

    pot: int
    holdings: dict[str, int]
    results: tuple[TurnResult, ...]


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    data = _read_json(args.file)
    round_input = parse_round(data, rules)
    result = settle(rules, round_input.pot, round_input.holdings, round_input.results)
    if args.json:
        print(json.dumps(settlement_json(result, round_input), ensure_ascii=False))
    else:
        print(format_settlement(result, round_input, rules))
    return 0


_GIVE_A_ROUND = "give the round as one JSON object, in a file or on stdin (docs/cli.md)"


def _read_stdin() -> str:
    """The round on standard input, bounded as a file is (:func:`read_user_text`)."""
    try:
        text = sys.stdin.read(MAX_TEXT_FILE_BYTES + 1)
    except UnicodeDecodeError as error:
        raise CliError(
            f"stdin is not UTF-8 text (at byte {error.start}); {_GIVE_A_ROUND}"
        ) from None
    except OSError as error:
        raise CliError(f"stdin: {path_problem('-', error)}; {_GIVE_A_ROUND}") from None
    if len(text.encode("utf-8", "surrogateescape")) > MAX_TEXT_FILE_BYTES:
        raise CliError(f"stdin is too long: at most {MAX_TEXT_FILE_BYTES} bytes are allowed")
    return text


def _read_json(file: str) -> object:
    source = "stdin" if file == "-" else file
    if file == "-":
        text = _read_stdin()
    else:
        try:
            text = read_user_text(file, file, _GIVE_A_ROUND, MAX_TEXT_FILE_BYTES)
        except UserFileError as error:
            raise CliError(str(error)) from None
    if not text.strip():
        raise CliError(f"{source} is empty: expected the round as a JSON object")
    try:
        return json_loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"{source}: {json_problem(error)}; {_GIVE_A_ROUND}") from None
    except InputLimitError as error:
        raise CliError(f"{source}: {error}") from None


def _whole(value: object, where: str, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CliError(f"{where} = {json.dumps(value)}: must be a whole number")
    if value < low or (high is not None and value > high):
        allowed = f"{low} or more" if high is None else f"{low} to {high}"
        raise CliError(f"{where} = {value}: allowed are {allowed}")
    return value


def _keys(
    mapping: Mapping[str, object], where: str, allowed: tuple[str, ...], required: tuple[str, ...]
) -> None:
    unknown = [key for key in mapping if key not in allowed]
    if unknown:
        raise CliError(f"{where}unknown key {unknown[0]!r}; allowed: {', '.join(allowed)}")
    missing = [key for key in required if key not in mapping]
    if missing:
        raise CliError(f"{where}missing key {missing[0]!r}; required: {', '.join(required)}")


def parse_round(data: object, rules: Rules) -> RoundInput:
    """Check the JSON round against the schema and the rules; raise CliError naming the problem."""
    if not isinstance(data, dict):
        raise CliError(f"the round must be a JSON object with keys {', '.join(ROUND_KEYS)}")
    _keys(data, "", ROUND_KEYS, ROUND_KEYS)
    pot = _whole(data["pot"], "pot", low=0, high=rules.deckel)
    holdings = _parse_deckel(data["deckel"], rules)
    total = pot + sum(holdings.values())
    if total != rules.deckel:
        raise CliError(
            f"pot {pot} plus the players' {sum(holdings.values())} Deckel make {total}; "
            f"rules {rules.name!r} play with {rules.deckel}"
        )
    full = [name for name, count in holdings.items() if count == rules.deckel]
    if full:
        raise CliError(f"{full[0]} holds all {rules.deckel} Deckel: the half is already over")
    players = data["players"]
    if not isinstance(players, list) or len(players) < 2:
        raise CliError("players must be a list of at least two players in throw order")
    results = tuple(_parse_player(item, i, rules) for i, item in enumerate(players))
    names = [r.player for r in results]
    for index, result in enumerate(results):
        where = f"players[{index}]"
        if result.player in names[:index]:
            raise CliError(f"{where}: {result.player!r} appears twice")
        if result.player not in holdings:
            raise CliError(f"{where}: {result.player!r} has no entry in deckel")
        if pot == 0 and holdings[result.player] == 0:
            raise CliError(
                f"{where}: {result.player} has no Deckel and the pot is empty: "
                "out for the rest of the half"
            )
    _check_throw_limit(results, rules)
    return RoundInput(pot, holdings, results)


def _parse_deckel(value: object, rules: Rules) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        raise CliError(
            'deckel must be an object of player names and their Deckel, e.g. {"Anna": 0}'
        )
    return {
        name: _whole(count, f"deckel[{json.dumps(name)}]", low=0, high=rules.deckel)
        for name, count in value.items()
    }


def _parse_player(item: object, index: int, rules: Rules) -> TurnResult:
    where = f"players[{index}]"
    if not isinstance(item, dict):
        raise CliError(f"{where} must be an object with keys {', '.join(PLAYER_KEYS)}")
    _keys(item, f"{where}: ", PLAYER_KEYS, ("name", "dice", "throws"))
    name = item["name"]
    if not isinstance(name, str) or not name:
        raise CliError(f"{where}.name = {json.dumps(name)}: must be a non-empty string")
    dice = item["dice"]
    count = rules.dice_count
    if not isinstance(dice, list) or len(dice) != count:
        variant = " (two-dice variant)" if rules.two_dice else ""
        raise CliError(f"{where}.dice = {json.dumps(dice)}: need a list of {count} dice{variant}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise CliError(f"{where}.dice: {json.dumps(die)} is not a die; allowed are 1 to 6")
    extra = BOERDE_EXTRA_THROWS if rules.boerdeschock else 0
    throws = _whole(item["throws"], f"{where}.throws", low=1, high=rules.max_throws + extra)
    hand = item.get("hand", throws == 1)
    blind = item.get("blind", False)
    for key, value in (("hand", hand), ("blind", blind)):
        if not isinstance(value, bool):
            raise CliError(f"{where}.{key} = {json.dumps(value)}: must be true or false")
    if blind and not rules.blind:
        raise CliError(f"{where}.blind: rules {rules.name!r} have no Blind (option blind = false)")
    if blind and throws != 1:
        raise CliError(f"{where}.blind: Blind is announced after the first throw, so throws = 1")
    return TurnResult(name, tuple(dice), hand, throws, blind)


def _check_throw_limit(results: tuple[TurnResult, ...], rules: Rules) -> None:
    """The first player's throws are the limit for everyone ("Obergrenze": Wikipedia, BVB;
    Regeln und Varianten)."""
    first = results[0]
    limit = min(first.throws, rules.max_throws)
    extra = BOERDE_EXTRA_THROWS if rules.boerdeschock else 0
    for index, result in enumerate(results[1:], start=1):
        if result.throws > limit + extra:
            raise CliError(
                f"players[{index}].throws = {result.throws}: {first.player} went first with "
                f"{first.throws}, the limit for everyone"
            )


def settlement_json(result: Settlement, round_input: RoundInput) -> dict[str, Any]:
    """The settlement as one JSON object (see docs/cli.md)."""
    by_name = {r.player: r for r in round_input.results}
    return {
        "winner": result.winner,
        "loser": result.loser,
        "winning": evaluation_json(result.winning, by_name[result.winner].dice),
        "losing": evaluation_json(result.losing, by_name[result.loser].dice),
        "due": deckel_json(result.due),
        "moved": result.moved,
        "from": result.source,
        "out": list(result.out),
        "pot": result.pot_after,
        "deckel": dict(result.holdings_after),
        "half_over": result.half_over,
        "order": list(result.order),
        "blind": any(r.blind for r in round_input.results),
    }


def format_settlement(result: Settlement, round_input: RoundInput, rules: Rules) -> str:
    """The reveal in a few lines of text."""
    by_name = {r.player: r for r in round_input.results}
    table = rank_table(rules)

    def throw(name: str, label: str) -> str:
        r = by_name[name]
        how = "from the hand" if r.hand else f"built, {r.throws} throws"
        return f"{label} ({dashed(sorted(r.dice, reverse=True))}, {how})"

    reveal = ", ".join(
        f"{name} ({table.evaluate(by_name[name].dice, by_name[name].hand).name})"
        for name in result.order
    )
    lines = [
        f"Reveal, best first: {reveal}",
        f"Winner: {result.winner} with {throw(result.winner, result.winning.name)}",
        f"Loser:  {result.loser} with {throw(result.loser, result.losing.name)}",
    ]
    if result.due is None:
        lines.append(f"Deckel: Schock aus, all {rules.deckel} go to {result.loser}")
    else:
        worth = f"{result.winning.name} is worth {result.winning.deckel}"
        if result.due != result.winning.deckel:
            worth += f", doubled by Blind to {result.due}"
        origin = "the pot" if result.source is DeckelSource.POT else result.winner
        short = ""
        if result.moved < result.due:
            holder = "the pot held" if result.source is DeckelSource.POT else f"{result.winner} had"
            short = f"; {holder} only {result.moved}"
        lines.append(f"Deckel: {result.moved} from {origin} to {result.loser} ({worth}{short})")
    holdings = ", ".join(f"{name} {count}" for name, count in result.holdings_after)
    lines.append(f"Now:    pot {result.pot_after}; {holdings}")
    lines.append(f"Out:    {', '.join(result.out) if result.out else 'nobody new'}")
    if result.half_over:
        lines.append(f"Half over: yes, {result.loser} holds all the Deckel and loses it")
    else:
        lines.append(f"Half over: no; {result.loser} opens the next round")
    return "\n".join(lines)
