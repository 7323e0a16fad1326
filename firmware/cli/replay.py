"""Print a finished or interrupted game from its journal, round by round.

Without GAME: the game in progress in the state directory, else the newest finished one. GAME
is the number of a finished game there (--list shows them), or a journal file: a state
directory's ``current.journal`` or an archived ``game-NNNNNN.journal``. The state directory is
the device's (/var/lib/schockbesteck) if this is one, else the one `schocken sim` keeps on this
computer (~/.local/state/schockbesteck), or --state-dir DIR. A damaged end is reported on
stderr and the intact part is printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from engine import (
    Blind,
    Drop,
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
from engine.limits import InputLimitError, ascii_whole_number
from firmware.cli import CliError
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.store.gamestore import CURRENT, GameStore, archive_name
from firmware.store.journal import JournalError, Recovery, read_journal
from firmware.store.userfile import path_problem, read_bytes_limited
from hal.storage import StateDirectory

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
        "drop": "  {player}: {steps}Becher gefallen – verliert die Runde",
        "half_over": "{player} verliert die {section}.",
        "final_over": "{player} verliert das Finale.",
        "final": "Finale: {players}",
        "game_over": "Verlierer des Spiels: {player}",
        "blattschuss": "Verlierer des Spiels: {player} (Blattschuss: beide Hälften verloren)",
        "turn_so_far": "  {player}: {steps} …",
        "interrupted": "(Spiel unterbrochen: {player} ist dran, {throws}. von {limit} Würfen)",
        "interrupted_roll_off": "(Spiel unterbrochen beim Auswürfeln: {players})",
        "listed": "{number:>5}  {players} – Verlierer: {loser}",
        "listed_current": "läuft  {players} – {actions} Aktionen",
        "listed_damaged": "{number:>5}  (beschädigt: {problem})",
        "none": "Noch keine Spiele in {root}.",
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
        "drop": "  {player}: {steps}dropped the cup – loses the round",
        "half_over": "{player} loses the {section_lower}.",
        "final_over": "{player} loses the final.",
        "final": "Final: {players}",
        "game_over": "Loser of the game: {player}",
        "blattschuss": "Loser of the game: {player} (Blattschuss: lost both halves)",
        "turn_so_far": "  {player}: {steps} …",
        "interrupted": "(game interrupted: {player} to throw, throw {throws} of {limit})",
        "interrupted_roll_off": "(game interrupted during the roll-off: {players})",
        "listed": "{number:>5}  {players} – loser: {loser}",
        "listed_current": "going  {players} – {actions} actions",
        "listed_damaged": "{number:>5}  (damaged: {problem})",
        "none": "No games in {root} yet.",
    },
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        metavar="GAME",
        help="a finished game's number, or a journal file (*.journal); default: the game in "
        "progress, else the newest finished one",
    )
    parser.add_argument(
        "--list", action="store_true", help="list the games in the state directory"
    )
    add_state_dir_argument(parser)
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
        elif isinstance(action, Drop):
            own = before is not None and before.player == action.player
            told = "; ".join(steps) + " … " if own and steps else ""
            yield text["drop"].format(player=action.player, steps=told)
            if own:
                steps = []
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
    number = None if args.game is None else ascii_whole_number(args.game)
    if args.list:
        if args.game is not None:
            raise CliError("--list lists every game: give no GAME with it")
        return _list(args)
    if args.game is not None and number is None:
        path = Path(args.game)
    else:
        path = _game_in_state_dir(args, number)
        print(f"schocken replay: {path}", file=sys.stderr)
    recovery = _read(path)
    if recovery.problem:
        print(f"schocken replay: note: {path}: damaged end ignored: {recovery.problem}",
              file=sys.stderr)
    for line in narrate(recovery.setup, recovery.actions, args.lang):
        print(line)
    return 0


def _read(path: Path) -> Recovery:
    """The journal at ``path``; CliError naming the file and what to give instead."""
    advice = "give a game journal (*.journal), or a game's number from --list"
    try:
        data = read_bytes_limited(path, MAX_JOURNAL_BYTES)
    except InputLimitError:
        raise CliError(
            f"{path} is too long for a game journal: at most {MAX_JOURNAL_BYTES} bytes"
        ) from None
    except OSError as error:
        raise CliError(f"{path}: {path_problem(path, error)}; {advice}") from None
    try:
        return read_journal(data, origin=str(path))
    except JournalError as error:
        raise CliError(f"{error}; {advice}") from None


def _store(args: argparse.Namespace) -> GameStore:
    root = state_dir_from_args(args)
    if root is None:
        raise CliError(
            "no games on this computer yet: play one with `schocken sim`, or give a journal "
            "file or --state-dir DIR"
        )
    return GameStore(StateDirectory(root))


def _game_in_state_dir(args: argparse.Namespace, number: int | None) -> Path:
    """The journal of game ``number`` in the state directory (None: the newest)."""
    store = _store(args)
    root = store.storage.root
    if number is not None:
        name = archive_name(number)
        if store.storage.size(name) is None:
            raise CliError(
                f"game {number} is not in {root}: `schocken replay --list` shows the games there"
            )
        return root / name
    if store.storage.size(CURRENT) is not None:
        return root / CURRENT
    archived = store.archived()
    if not archived:
        raise CliError(f"no games in {root} yet: play one, or give a journal file")
    return root / archived[-1][1]


def _list(args: argparse.Namespace) -> int:
    """One line per game in the state directory: its number, players and loser."""
    text = _TEXT[args.lang]
    store = _store(args)
    root = store.storage.root
    lines = []
    for number, name in store.archived():
        try:
            recovery = _read(root / name)
        except CliError as error:
            lines.append(text["listed_damaged"].format(number=number, problem=error))
            continue
        loser = recovery.game.loser or "?"
        players = ", ".join(recovery.setup.players)
        lines.append(text["listed"].format(number=number, players=players, loser=loser))
    if store.storage.size(CURRENT) is not None:
        try:
            current = _read(root / CURRENT)
            lines.append(text["listed_current"].format(
                players=", ".join(current.setup.players), actions=len(current.actions)
            ))
        except CliError as error:
            lines.append(text["listed_damaged"].format(number=CURRENT, problem=error))
    for line in lines or [text["none"].format(root=root)]:
        print(line)
    return 0
