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

from engine import (
    Blind,
    Correct,
    Drop,
    Event,
    FinalStarts,
    Flip,
    Game,
    GameOver,
    GameSetup,
    GoScharf,
    HalfOver,
    PenaltyGiven,
    Report,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    TurnOver,
)
from engine.game import FINAL
from engine.limits import InputLimitError, ascii_whole_number
from firmware.cli import CliError
from firmware.cli.cli_words import CliWords
from firmware.cli.language import add_lang_argument, output_language
from firmware.cli.statedir import add_state_dir_argument, state_dir_from_args
from firmware.store.gamestore import CURRENT, GameStore, archive_name
from firmware.store.journal import JournalError, Recovery, read_journal
from firmware.userfile import path_problem, read_bytes_limited
from hal.storage import StateDirectory

#: The longest journal ``replay`` reads: a whole game is 10 to 30 kB.
MAX_JOURNAL_BYTES = 16 * 1024 * 1024

__all__ = ["add_arguments", "narrate", "run"]

#: The text of each section, as the story names it.
_SECTION_KEYS = {1: "replay_section_1", 2: "replay_section_2", FINAL: "replay_section_3"}
#: The line of a half's loser (the final's has its own).
_HALF_OVER_KEYS = {1: "replay_half_1_over", 2: "replay_half_2_over"}
#: Where a round's Deckel came from (``RoundOver.source``).
_SOURCE_KEYS = {
    "pot": "replay_source_pot", "winner": "replay_source_winner", "all": "replay_source_all",
}  # fmt: skip


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
    add_lang_argument(parser, "the story")


def _dice(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)


def narrate(setup: GameSetup, actions: Iterable[Event], lang: str = "de") -> Iterator[str]:
    """The game's story, one line at a time: roll-off, rounds with each turn, reveals, halves.

    A penalty's line comes between the turns it fell between; the turn in progress is told
    when it ends.
    """
    game = Game(setup)
    text = CliWords(lang)
    rules = game.rules
    yield text.t(
        "replay_header", players=", ".join(game.players), rules=rules.name, deckel=rules.deckel
    )
    steps: list[str] = []
    for action in actions:
        before = game.turn
        events = game.apply(action)
        match action:
            case RollOff(players=players, dice=dice):
                throws = ", ".join(f"{p} {_dice(d)}" for p, d in zip(players, dice, strict=True))
                yield text.t("replay_roll_off", throws=throws)
                if game.contenders:
                    yield text.t("replay_roll_off_tie", players=", ".join(game.contenders))
            case Roll(keep=keep, dice=dice) if keep and before is not None:
                kept = _dice(tuple(v for i, v in enumerate(before.values)
                                   if i in keep and v is not None))
                steps.append(text.t("replay_keeps", kept=kept, dice=_dice(dice)))
            case Roll(dice=dice):
                steps.append(text.t("replay_throws", dice=_dice(dice)))
            case Flip():
                steps.append(text.t("replay_flip"))
            case Blind():
                steps.append(text.t("replay_blind"))
            case Report(dice=dice, blind=blind):
                steps.append(text.t("replay_reported", dice=_dice(dice)))
                if blind:
                    steps.append(text.t("replay_blind"))
            case Correct(dice=dice):
                steps.append(text.t("replay_corrected", dice=_dice(dice)))
            case GoScharf(minutes=minutes):
                yield text.t("replay_scharf_one" if minutes == 1 else "replay_scharf",
                             minutes=minutes or "?")
            case Drop(player=player):
                own = before is not None and before.player == player
                told = "; ".join(steps) + " … " if own and steps else ""
                yield text.t("replay_drop", player=player, steps=told)
                if own:
                    steps = []
        for event in events[1:]:
            match event:
                case TurnOver():
                    word = text.t("replay_throw_one" if event.throws == 1 else "replay_throw_many")
                    yield text.t(
                        "replay_turn",
                        player=event.player, steps="; ".join(steps) or text.t("replay_stands"),
                        name=event.name, throws=event.throws, throw_word=word,
                    )
                    steps = []
                case _:
                    yield from _outcome(event, text)
    yield from _ending(game, steps, text)


def _outcome(event: Event, text: CliWords) -> Iterator[str]:
    match event:
        case RoundStarted():
            section = text.t(_SECTION_KEYS[event.section])
            players = ", ".join(event.players)
            yield text.t("replay_round", section=section, number=event.number, players=players)
        case RoundOver(scharf=True):
            yield text.t("replay_scharf_round", loser=event.loser)
        case RoundOver():
            source = text.t(_SOURCE_KEYS[event.source], winner=event.winner)
            yield text.t(
                "replay_round_over",
                loser=event.loser, losing=event.losing, deckel=event.deckel, source=source,
                winner=event.winner, winning=event.winning,
            )
            holdings = ", ".join(f"{p} {n}" for p, n in event.holdings)
            yield text.t("replay_holdings", pot=event.pot, holdings=holdings)
            if event.out:
                yield text.t("replay_out", players=", ".join(event.out))
        case PenaltyGiven():
            taken = "".join(
                text.t("replay_taken", player=p, deckel=n) for p, n in event.taken_from
            )
            yield text.t(
                "replay_penalty",
                player=event.player, deckel=event.deckel, from_pot=event.from_pot, taken=taken
            )
        case HalfOver():
            key = _HALF_OVER_KEYS.get(event.section, "replay_final_over")
            yield text.t(key, player=event.loser)
        case FinalStarts():
            yield text.t("replay_final", players=", ".join(event.players))
        case GameOver():
            key = "replay_blattschuss" if event.blattschuss else "replay_game_over"
            yield text.t(key, player=event.loser)


def _ending(game: Game, steps: list[str], text: CliWords) -> Iterator[str]:
    if game.is_over:
        return
    if game.contenders and game.turn is None:
        yield text.t("replay_interrupted_roll_off", players=", ".join(game.contenders))
        return
    turn = game.turn
    if turn is not None:
        if steps:
            yield text.t("replay_turn_so_far", player=turn.player, steps="; ".join(steps))
        yield text.t(
            "replay_interrupted",
            player=turn.player, throws=turn.throws + 1, limit=turn.limit
        )


def run(args: argparse.Namespace) -> int:
    number = None if args.game is None else ascii_whole_number(args.game)
    lang = output_language(args)
    if args.list:
        if args.game is not None:
            raise CliError("--list lists every game: give no GAME with it")
        return _list(args, lang)
    found = args.game is None or number is not None
    path = _game_in_state_dir(args, number) if found else Path(args.game)
    recovery = _read(path)
    if recovery.problem:
        print(f"schocken replay: note: {path}: damaged end ignored: {recovery.problem}",
              file=sys.stderr)
    if found:  # which game it found is part of the story, not a note beside it
        print(CliWords(lang).t("replay_from", path=path))
    for line in narrate(recovery.setup, recovery.actions, lang):
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


def _list(args: argparse.Namespace, lang: str) -> int:
    """One line per game in the state directory: its number, players and loser."""
    text = CliWords(lang)
    store = _store(args)
    lines = []
    for game in store.kept():
        recovery = store.read(game)
        name = CURRENT if game.current else game.number
        if isinstance(recovery, str):
            lines.append(text.t("replay_listed_damaged", number=name, problem=recovery))
        elif game.current:
            actions = len(recovery.actions)
            lines.append(text.t(
                "replay_listed_current_one" if actions == 1 else "replay_listed_current",
                players=", ".join(recovery.setup.players), actions=actions,
            ))
        else:
            loser = recovery.game.loser or "?"
            players = ", ".join(recovery.setup.players)
            lines.append(text.t("replay_listed", number=game.number, players=players,
                                loser=loser))
    for line in lines or [text.t("replay_none", root=store.storage.root)]:
        print(line)
    return 0
