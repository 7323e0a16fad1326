"""A table's results, counted from its game journals: the same ids every time.

A tournament game at a table carries its place in the tournament in its journal's header
(``"tournament": {"event", "table", "round", "game"}``, :class:`TableGame`). Its results are a
pure function of that header and the game's actions: one ``half`` result per Hälfte (half)
and the Finale as each ends, one ``game`` result when the game is decided
(:func:`results_of_game`). So the reporter finds every result again after a pulled plug, and
:func:`recount_journals` gives what every table's own journals say, to check the hub against.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import Event, GameOver, HalfOver, PenaltyGiven, RoundOver
from engine.game import Game, GameSetup
from engine.scoring import game_result
from firmware.store.gamestore import CURRENT, GameStore
from firmware.store.journal import JournalError, decode_records, read_journal
from firmware.wire.messages import Result
from hal.ports import Storage, StorageError

__all__ = ["META_TOURNAMENT", "TableGame", "recount_journals", "results_of_game"]

#: The journal header's field naming a game's place in a tournament.
META_TOURNAMENT = "tournament"

log = logging.getLogger("schockbesteck.tournament")


@dataclass(frozen=True, slots=True)
class TableGame:
    """One game of a tournament at one table: ``table`` is its broker user ("table-7"),
    ``game`` the game's number at that table in ``round`` (from 1)."""

    event: str
    table: str
    round: int
    game: int

    def result_id(self, kind: str, section: int | None = None) -> str:
        """The wire's deterministic id: ``dm2026/table-7/r2/g3/half1``."""
        return Result.id_for(self.event, self.table, self.round, self.game, kind, section)

    def to_meta(self) -> dict[str, Any]:
        """The journal header's ``tournament`` field."""
        return {"event": self.event, "table": self.table, "round": self.round,
                "game": self.game}

    @classmethod
    def from_meta(cls, value: object) -> TableGame | None:
        """The field read back; None if it is missing or not of this form."""
        if not isinstance(value, Mapping):
            return None
        event, table = value.get("event"), value.get("table")
        number, game = value.get("round"), value.get("game")
        if not (isinstance(event, str) and isinstance(table, str)):
            return None
        for count in (number, game):
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                return None
        assert isinstance(number, int) and isinstance(game, int)
        return cls(event, table, number, game)


def results_of_game(
    place: TableGame, setup: GameSetup, actions: Sequence[Event]
) -> list[Result]:
    """The results of a tournament game so far, in the order they happened: each half (and
    the Finale) that ended, then the game once it is decided."""
    game = Game(setup)
    results: list[Result] = []
    out: list[tuple[str, ...]] = []
    over = False
    for action in actions:
        for event in game.apply(action):
            match event:
                case RoundOver(out=gone) | PenaltyGiven(out=gone) if gone:
                    out.append(tuple(gone))
                case HalfOver(section=section, loser=loser):
                    results.append(Result(
                        place.event, place.table, place.round, place.game, "half",
                        setup.players, loser, section, tuple(out),
                    ))
                    out = []
                case GameOver():
                    over = True
    if over:
        results.append(Result.from_game(
            place.event, place.table, place.round, place.game, game_result(setup, actions),
        ))
    return results


def journal_names(storage: Storage) -> list[str]:
    """The game journals of a state directory, oldest first: the archive, then the current."""
    names = [name for _, name in GameStore(storage).archived()]
    return [*names, CURRENT] if CURRENT in storage.names() else names


def header_place(storage: Storage, name: str) -> TableGame | None:
    """The tournament game the journal ``name`` holds, read from its header alone."""
    try:
        data = storage.read_bytes(name)
    except StorageError:
        return None
    if not data:
        return None
    records, _, _ = decode_records(data[: data.find(b"\n") + 1])
    return TableGame.from_meta(records[0].get(META_TOURNAMENT)) if records else None


def recount_journals(storage: Storage, event: str | None = None,
                     names: Iterable[str] | None = None) -> list[Result]:
    """Every result the tournament games in ``storage``'s journals hold (of ``event`` only,
    when given), in the order played. Unreadable journals are logged and left out."""
    results: list[Result] = []
    for name in journal_names(storage) if names is None else names:
        place = header_place(storage, name)
        if place is None or (event is not None and place.event != event):
            continue
        try:
            data = storage.read_bytes(name)
            recovery = read_journal(data or b"", origin=str(storage.root / name))
        except (JournalError, StorageError) as error:
            log.warning("%s; its results are not recounted", error)
            continue
        results += results_of_game(place, recovery.setup, recovery.actions)
    return results
