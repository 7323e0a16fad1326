"""An evening's games with their results (:class:`engine.spieltag.Evening`), read from a state
directory or an exported file.

:func:`load_evening` finds the Spieltag and replays each of its games (its journal, through
:mod:`firmware.store.journal`'s reader) into a :class:`~engine.scoring.GameResult`. A game of
the evening that cannot be counted is never left out silently: it keeps its Partie (its number
on the sheet) as a :class:`~engine.spieltag.LostGame`, which every surface names in one line.
The evening's games are the archive's from the game the Spieltag began with (an evening of an
older version: its first game tagged with it, and the unreadable ones right before it) to the
last one (while the evening goes on, the newest game the statistics counted; once it ended,
the newest game when it ended, or its last tagged game): a number without its journal in that
range is a game deleted or moved away, a journal that cannot be read whole one damaged. Games
of another evening, or of none, in that range (one begun before the Spieltag) are not its.

:func:`evening_to_export` writes the evening with every game's actions, when each ended (its
journal's last write), its lost Partien and its count of Partien, so an exported evening is
recounted exactly like one read from the device; :func:`evening_from_export` refuses a game that
is in the file twice and names a Partie the file skips. The Partien taken out of the
evening (:attr:`~engine.spieltag.Spieltag.taken_out`) are marked on the games as they are read.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engine import from_json, to_json
from engine.errors import SchockenError
from engine.limits import InputLimitError, json_loads, json_problem
from engine.scoring import game_result, game_result_from_events
from engine.spieltag import (
    Evening,
    EveningGame,
    Loss,
    LostGame,
    Spieltag,
    SpieltagError,
    duplicate_partie,
    is_moment,
    spieltag_from_mapping,
    spieltag_to_mapping,
    table_of,
)
from firmware.store.gamestore import GameStore, KeptGame, archive_name
from firmware.store.journal import JournalError, JournalHeader, header_from_record, header_to_record
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import Storage, StorageError

__all__ = ["evening_from_export", "evening_of", "evening_to_export", "load_evening"]

_EXPORT = "schockbesteck-spieltag"
_FORMAT = 1
_MAX_EXPORT_BYTES = 32 * 1024 * 1024


def load_evening(storage: Storage, spieltag_id: str | None = None) -> Evening:
    """The evening ``spieltag_id`` (None: the one going on, else the last one ended) with its
    finished games and the Partien that cannot be counted. SpieltagError (one line) if there is
    none or its file is damaged."""
    spieltag = SpieltagFiles(storage).find(spieltag_id)
    return evening_of(spieltag, GameStore(storage))


def evening_of(spieltag: Spieltag, store: GameStore) -> Evening:
    """``spieltag``'s evening, read from the journals ``store`` keeps."""
    kept = store.kept()
    ours = [game.number for game in kept if _belongs(game, spieltag)]
    first = spieltag.first_game or (ours[0] if ours else 0)
    if not first:
        return Evening(spieltag, ())
    by_number = {game.number: game for game in kept}
    if not spieltag.first_game:
        # An evening of an older version does not say where it began: the games right before
        # its first one whose header cannot be read may be its, and are named rather than lost.
        while first - 1 in by_number and by_number[first - 1].header is None:
            first -= 1
    last = max(ours, default=first - 1)
    if not spieltag.ended:
        last = max(last, store.counted_through())
    elif spieltag.last_game:
        last = max(last, spieltag.last_game)
    games: list[EveningGame] = []
    lost: list[LostGame] = []
    for number in range(first, last + 1):
        game = by_number.get(number)
        partie = len(games) + len(lost) + 1
        if game is None:
            lost.append(LostGame(partie, archive_name(number), Loss.MISSING))
            continue
        if game.header is None:
            lost.append(LostGame(partie, game.name, Loss.DAMAGED, game.problem or ""))
            continue
        if not _belongs(game, spieltag):
            continue  # begun before the evening, or a game of another
        recovery = store.read(game)
        if isinstance(recovery, str):
            lost.append(LostGame(partie, game.name, Loss.DAMAGED, recovery))
        elif recovery.game.is_over:
            setup = recovery.setup
            result = game_result_from_events(setup, recovery.events)
            table = table_of(spieltag, setup.players)
            ended_at = _written_at(store.storage, game.name)
            games.append(EveningGame(partie, table, setup, recovery.actions, result, ended_at))
        elif not game.current:  # an archived game always ended: the end is cut off
            why = recovery.problem or "the journal ends before the game does"
            lost.append(LostGame(partie, game.name, Loss.DAMAGED, why))
    return Evening(spieltag, tuple(games), tuple(lost)).under(spieltag)


def _written_at(storage: Storage, name: str) -> str:
    """When the journal ``name`` was last written (a finished game's: when it ended), by the
    wall clock with its offset; "" if that cannot be read."""
    try:
        stamp = storage.modified(name)
    except StorageError:
        return ""
    if stamp is None:
        return ""
    return datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")


def _belongs(game: KeptGame, spieltag: Spieltag) -> bool:
    return game.header is not None and game.header.spieltag == spieltag.id


def evening_to_export(evening: Evening) -> dict[str, Any]:
    """The evening as an exported file's data: the Spieltag, each game's actions, and the
    Partien that could not be counted."""
    return {
        "export": _EXPORT,
        "format": _FORMAT,
        # The Partien taken out as the games say (a merged match's numbered through).
        "spieltag": {
            **spieltag_to_mapping(evening.spieltag),
            "taken_out": [game.partie for game in evening.games if game.taken_out],
        },
        "games": [
            {
                **header_to_record(JournalHeader(game.setup)),  # real dice too
                "partie": game.partie,
                "table": game.table,
                "ended_at": game.ended_at,
                "actions": [to_json(action) for action in game.actions],
            }
            for game in evening.games
        ],
        # How many Partien the evening had: a game taken out of the file is missed by that.
        "partien": evening.partien,
        "lost": [
            {"partie": game.partie, "journal": game.journal, "loss": game.loss.value,
             "detail": game.detail}
            for game in evening.lost
        ],
    }


def evening_from_export(text: str, origin: str) -> Evening:
    """An exported evening (:func:`evening_to_export`'s JSON); every game is replayed, so a
    changed result cannot pass. A game that is in the file twice is refused; a Partie taken out
    of it (its number skipped) is kept as a :class:`~engine.spieltag.LostGame` absent from
    ``origin``, named wherever the evening is shown. SpieltagError naming ``origin`` and the
    problem."""
    try:
        data = json_loads(text, max_bytes=_MAX_EXPORT_BYTES)
        if not isinstance(data, dict) or data.get("export") != _EXPORT:
            raise SpieltagError("not an exported Spieltag (schocken sheet --export)")
        if data.get("format") != _FORMAT:
            raise SpieltagError(f"format {data.get('format')!r} is not {_FORMAT}")
        spieltag = spieltag_from_mapping(data.get("spieltag"))
        entries, lost_entries = data.get("games"), data.get("lost", [])
        if not isinstance(entries, list):
            raise SpieltagError("games: must be a list")
        if not isinstance(lost_entries, list):
            raise SpieltagError("lost: must be a list")
        games = tuple(_game(spieltag, index, entry) for index, entry in enumerate(entries, 1))
        lost = tuple(_lost(index, entry) for index, entry in enumerate(lost_entries, 1))
        parties = sorted([game.partie for game in games] + [game.partie for game in lost])
        if len(set(parties)) != len(parties):
            raise SpieltagError("games: two games have the same partie")
        twice = duplicate_partie(games)
        if twice is not None:
            raise SpieltagError(
                f"Partie {twice[1]} is Partie {twice[0]} again (the same players and every "
                "throw): a game is in the file twice; export the evening again from its device"
            )
        lost += _gaps(data, parties, origin)
    except json.JSONDecodeError as error:
        raise SpieltagError(f"{origin}: {json_problem(error)}") from None
    except (InputLimitError, SpieltagError, SchockenError) as error:
        raise SpieltagError(f"{origin}: {' '.join(str(error).split())}") from None
    return Evening(spieltag, games, tuple(sorted(lost, key=lambda game: game.partie))).under(
        spieltag
    )


def _gaps(data: dict[str, Any], parties: list[int], origin: str) -> tuple[LostGame, ...]:
    """The Partien an export skips (of 1 to its count of Partien; an export of an older
    version: to its highest), as games absent from the file ``origin``."""
    count = data.get("partien", max(parties, default=0))
    if isinstance(count, bool) or not isinstance(count, int) or count < max(parties, default=0):
        raise SpieltagError(
            f"partien = {count!r}: must be the number of Partien, at least the highest partie"
        )
    if count > 10_000:
        raise SpieltagError(f"partien = {count!r}: must be at most 10000")
    name = origin.replace("\\", "/").rsplit("/", 1)[-1][:80]
    given = set(parties)
    return tuple(
        LostGame(number, name, Loss.ABSENT) for number in range(1, count + 1)
        if number not in given
    )


def _partie(entry: dict[str, Any], index: int, what: str) -> int:
    """The Partie an exported game names (an export of an older version: its place)."""
    partie = entry.get("partie", index)
    if isinstance(partie, bool) or not isinstance(partie, int) or not 1 <= partie <= 10_000:
        raise SpieltagError(f"{what} {index}: partie = {partie!r} must be a number 1-10000")
    return partie


def _game(spieltag: Spieltag, index: int, entry: object) -> EveningGame:
    """An exported game, its header read by the journal's one codec (players, rules, real
    dice) and its actions replayed."""
    if not isinstance(entry, dict):
        raise SpieltagError(f"game {index}: must be an object")
    actions = entry.get("actions")
    if not isinstance(actions, list):
        raise SpieltagError(f"game {index}: needs players, rules and actions")
    try:
        setup = header_from_record(entry, f"game {index}").setup
        events = tuple(from_json(action) for action in actions)
        result = game_result(setup, events)
    except JournalError as error:
        raise SpieltagError(str(error)) from None
    except (SchockenError, TypeError) as error:
        raise SpieltagError(f"game {index}: {error}") from None
    table = entry.get("table", table_of(spieltag, setup.players))
    if table not in (1, 2) or isinstance(table, bool):
        raise SpieltagError(f"game {index}: table = {table!r} must be 1 or 2")
    ended_at = entry.get("ended_at", "")
    if not isinstance(ended_at, str) or (ended_at and not is_moment(ended_at)):
        raise SpieltagError(
            f"game {index}: ended_at = {str(ended_at)[:40]!r} must be a date and time with its "
            "offset, e.g. 2026-12-01T21:30:00+01:00"
        )
    return EveningGame(_partie(entry, index, "game"), table, setup, events, result, ended_at)


def _lost(index: int, entry: object) -> LostGame:
    if not isinstance(entry, dict):
        raise SpieltagError(f"lost {index}: must be an object")
    journal, loss, detail = entry.get("journal"), entry.get("loss"), entry.get("detail", "")
    known = [kind.value for kind in Loss]
    if not isinstance(journal, str) or not isinstance(detail, str) or loss not in known:
        raise SpieltagError(
            f"lost {index}: needs journal, loss ({' or '.join(known)}) and detail texts"
        )
    return LostGame(_partie(entry, index, "lost"), journal[:80], Loss(loss), detail[:200])
