"""Print a finished or interrupted game from its journal, round by round.

FILE is a game journal from the state directory: ``current.journal`` (the game in progress) or
an archived ``game-NNNNNN.journal``. A damaged end is reported on stderr and the intact part is
printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from engine import (
    Blind,
    Event,
    FinalStarts,
    Flip,
    Game,
    GameOver,
    GameSetup,
    HalfOver,
    PenaltyGiven,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    TurnOver,
)
from engine.limits import InputLimitError
from firmware.cli import CliError
from firmware.journal import JournalError, read_journal
from firmware.userfile import read_bytes_limited

#: The longest journal ``replay`` reads: a whole game is 10 to 30 kB.
MAX_JOURNAL_BYTES = 16 * 1024 * 1024

__all__ = ["add_arguments", "narrate", "run"]

_TEXT: dict[str, dict[str, Any]] = {
    "de": {
        "header": "Spiel: {players} – Regeln: {rules} ({deckel} Deckel)",
        "roll_off": "Auswürfeln: {throws}",
        "roll_off_tie": "  Gleichstand: {players} würfeln noch einmal",
        "section": {1: "1. Hälfte", 2: "2. Hälfte", 3: "Finale"},
        "round": "{section}, Runde {number}: {players}",
        "throws": "wirft {dice}",
        "keeps": "legt {kept} raus, wirft {dice}",
        "flip": "dreht zwei Sechsen zu einer Eins",
        "blind": "blind!",
        "stands": "steht",
        "turn": "  {player}: {steps} → {name} ({throws} {throw_word})",
        "throw_word": ("Wurf", "Würfe"),
        "round_over": "  {loser} ({losing}) bekommt {deckel} Deckel {source} – höchster Wurf: "
        "{winner} ({winning})",
        "source": {"pot": "aus dem Topf", "winner": "von {winner}", "all": "(alle)"},
        "holdings": "  Topf {pot} | {holdings}",
        "out": "  raus: {players}",
        "penalty": "  Strafe: {player} bekommt {deckel} Deckel ({from_pot} aus dem Topf{taken})",
        "taken": ", {deckel} von {player}",
        "half_over": "{player} verliert die {section}.",
        "final_over": "{player} verliert das Finale.",
        "final": "Finale: {players}",
        "game_over": "Verlierer des Spiels: {player}",
        "blattschuss": "Verlierer des Spiels: {player} (Blattschuss: beide Hälften verloren)",
        "turn_so_far": "  {player}: {steps} …",
        "interrupted": "(Spiel unterbrochen: {player} ist dran, {throws}. von {limit} Würfen)",
        "interrupted_roll_off": "(Spiel unterbrochen beim Auswürfeln: {players})",
    },
    "en": {
        "header": "Game: {players} – rules: {rules} ({deckel} Deckel)",
        "roll_off": "Roll-off (Auswürfeln): {throws}",
        "roll_off_tie": "  Tie: {players} roll again",
        "section": {1: "First half", 2: "Second half", 3: "Final"},
        "round": "{section}, round {number}: {players}",
        "throws": "throws {dice}",
        "keeps": "lays out {kept}, throws {dice}",
        "flip": "flips two sixes into a one",
        "blind": "blind!",
        "stands": "stands",
        "turn": "  {player}: {steps} → {name} ({throws} {throw_word})",
        "throw_word": ("throw", "throws"),
        "round_over": "  {loser} ({losing}) takes {deckel} Deckel {source} – highest: "
        "{winner} ({winning})",
        "source": {"pot": "from the pot", "winner": "from {winner}", "all": "(all of them)"},
        "holdings": "  pot {pot} | {holdings}",
        "out": "  out: {players}",
        "penalty": "  Penalty: {player} takes {deckel} Deckel ({from_pot} from the pot{taken})",
        "taken": ", {deckel} from {player}",
        "half_over": "{player} loses the {section_lower}.",
        "final_over": "{player} loses the final.",
        "final": "Final: {players}",
        "game_over": "Loser of the game: {player}",
        "blattschuss": "Loser of the game: {player} (Blattschuss: lost both halves)",
        "turn_so_far": "  {player}: {steps} …",
        "interrupted": "(game interrupted: {player} to throw, throw {throws} of {limit})",
        "interrupted_roll_off": "(game interrupted during the roll-off: {players})",
    },
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game journal (*.journal)")
    parser.add_argument(
        "--lang", choices=("de", "en"), default="de", help="language of the game terms (de)"
    )


def _dice(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)


def narrate(setup: GameSetup, actions: Iterable[Event], lang: str = "de") -> Iterator[str]:
    """The game's story, one line at a time: roll-off, rounds with each turn, reveals, halves.

    A penalty's line comes between the turns it fell between; the turn in progress is told
    when it ends.
    """
    game = Game(setup)
    text = _TEXT[lang]
    rules = game.rules
    yield text["header"].format(
        players=", ".join(game.players), rules=rules.name, deckel=rules.deckel
    )
    steps: list[str] = []
    for action in actions:
        before = game.turn
        events = game.apply(action)
        if isinstance(action, RollOff):
            throws = ", ".join(
                f"{p} {_dice(d)}" for p, d in zip(action.players, action.dice, strict=True)
            )
            yield text["roll_off"].format(throws=throws)
            if game.contenders:
                yield text["roll_off_tie"].format(players=", ".join(game.contenders))
        elif isinstance(action, Roll):
            if action.keep and before is not None:
                kept = _dice(tuple(v for i, v in enumerate(before.values)
                                   if i in action.keep and v is not None))
                steps.append(text["keeps"].format(kept=kept, dice=_dice(action.dice)))
            else:
                steps.append(text["throws"].format(dice=_dice(action.dice)))
        elif isinstance(action, Flip):
            steps.append(text["flip"])
        elif isinstance(action, Blind):
            steps.append(text["blind"])
        for event in events[1:]:
            if isinstance(event, TurnOver):
                word = text["throw_word"][0 if event.throws == 1 else 1]
                yield text["turn"].format(
                    player=event.player, steps="; ".join(steps) or text["stands"],
                    name=event.name, throws=event.throws, throw_word=word,
                )
                steps = []
            else:
                yield from _outcome(event, text)
    yield from _ending(game, steps, text)


def _outcome(event: Event, text: dict[str, Any]) -> Iterator[str]:
    if isinstance(event, RoundStarted):
        section = text["section"][event.section]
        yield text["round"].format(
            section=section, number=event.number, players=", ".join(event.players)
        )
    elif isinstance(event, RoundOver):
        source = text["source"][event.source].format(winner=event.winner)
        yield text["round_over"].format(
            loser=event.loser, losing=event.losing, deckel=event.deckel, source=source,
            winner=event.winner, winning=event.winning,
        )
        holdings = ", ".join(f"{p} {n}" for p, n in event.holdings)
        yield text["holdings"].format(pot=event.pot, holdings=holdings)
        if event.out:
            yield text["out"].format(players=", ".join(event.out))
    elif isinstance(event, PenaltyGiven):
        taken = "".join(text["taken"].format(player=p, deckel=n) for p, n in event.taken_from)
        yield text["penalty"].format(
            player=event.player, deckel=event.deckel, from_pot=event.from_pot, taken=taken
        )
    elif isinstance(event, HalfOver):
        if event.section == 3:
            yield text["final_over"].format(player=event.loser)
        else:
            section = text["section"][event.section]
            yield text["half_over"].format(
                player=event.loser, section=section, section_lower=section.lower()
            )
    elif isinstance(event, FinalStarts):
        yield text["final"].format(players=", ".join(event.players))
    elif isinstance(event, GameOver):
        key = "blattschuss" if event.blattschuss else "game_over"
        yield text[key].format(player=event.loser)


def _ending(game: Game, steps: list[str], text: dict[str, Any]) -> Iterator[str]:
    if game.is_over:
        return
    if game.contenders and game.turn is None:
        yield text["interrupted_roll_off"].format(players=", ".join(game.contenders))
        return
    turn = game.turn
    if turn is not None:
        if steps:
            yield text["turn_so_far"].format(player=turn.player, steps="; ".join(steps))
        yield text["interrupted"].format(
            player=turn.player, throws=turn.throws + 1, limit=turn.limit
        )


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        data = read_bytes_limited(path, MAX_JOURNAL_BYTES)
    except FileNotFoundError:
        raise CliError(f"{path} does not exist; give a game journal (*.journal)") from None
    except IsADirectoryError:
        raise CliError(f"{path} is a directory; give a game journal (*.journal)") from None
    except InputLimitError:
        raise CliError(
            f"{path} is too long for a game journal: at most {MAX_JOURNAL_BYTES} bytes"
        ) from None
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        recovery = read_journal(data, origin=str(path))
    except JournalError as error:
        raise CliError(str(error)) from None
    if recovery.problem:
        print(f"schocken replay: note: {path}: damaged end ignored: {recovery.problem}",
              file=sys.stderr)
    for line in narrate(recovery.setup, recovery.actions, args.lang):
        print(line)
    return 0
