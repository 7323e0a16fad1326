"""A table's results, counted from its game journals: the same ids every time.

A tournament game at a table carries its place in the tournament in its journal's header
(:class:`~firmware.store.journal.TournamentGame`: event, table, round, game). Its results are a
pure function of that place and the game's actions: one ``half`` result per Hälfte (half) and
the Finale as each ends, one ``game`` result when the game is decided (:func:`results_of_game`;
:func:`results_of_events` takes the events the journal's one replay gave).
So the reporter finds every result again after a pulled plug, and :func:`recount` gives what
every table's own journals say, to check the hub against. A tournament game whose journal
cannot be read whole is named in :attr:`Recount.unreadable`, never left out silently.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.events import Event, GameOver, HalfOver, PenaltyGiven, RoundOver
from engine.game import Game, GameSetup
from engine.scoring import game_result_from_events
from firmware.store.gamestore import GameStore, KeptGame
from firmware.store.journal import TournamentGame
from firmware.wire.messages import Result
from hal.ports import Storage

__all__ = ["Recount", "recount", "recount_journals", "result_id", "results_of_events",
           "results_of_game", "tournament_games"]

log = logging.getLogger("schockbesteck.tournament")


def result_id(place: TournamentGame, kind: str, section: int | None = None) -> str:
    """The wire's deterministic id of a result of ``place``: ``dm2026/table-7/r2/g3/half1``."""
    return Result.id_for(place.event, place.table, place.round, place.game, kind, section)


def results_of_game(
    place: TournamentGame, setup: GameSetup, actions: Sequence[Event]
) -> list[Result]:
    """The results of a tournament game so far, in the order they happened: each half (and
    the Finale) that ended, then the game once it is decided (the actions replayed)."""
    return results_of_events(place, setup, Game.replay_events(setup, actions))


def results_of_events(
    place: TournamentGame, setup: GameSetup, events: Sequence[Event]
) -> list[Result]:
    """:func:`results_of_game` from the events of the game's replay (every event
    :meth:`Game.apply` returned, in order, as :attr:`~firmware.store.journal.Recovery.events`
    keeps them), without replaying it again."""
    results: list[Result] = []
    out: list[tuple[str, ...]] = []
    over = False
    for event in events:
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
            place.event, place.table, place.round, place.game,
            game_result_from_events(setup, events),
        ))
    return results


@dataclass(frozen=True, slots=True)
class Recount:
    """What a table's journals hold of a tournament: its results in the order played, and for
    each tournament game whose journal cannot be read whole (its results may be missing from
    ``results``) one line, by the journal's file name."""

    results: tuple[Result, ...]
    unreadable: Mapping[str, str] = field(default_factory=dict)


def tournament_games(store: GameStore, event: str | None = None) -> list[KeptGame]:
    """The journals ``store`` keeps that hold a tournament game (of ``event`` only, when given),
    oldest first, and those whose header cannot be read (they may hold one)."""
    return [
        game for game in store.kept()
        if game.header is None or (game.header.tournament is not None and (
            event is None or game.header.tournament.event == event
        ))
    ]


def recount(storage: Storage, event: str | None = None,
            games: Iterable[KeptGame] | None = None) -> Recount:
    """Every result the tournament games in ``storage``'s journals hold (of ``event`` only,
    when given; of ``games`` only, when given), in the order played."""
    store = GameStore(storage)
    results: list[Result] = []
    unreadable: dict[str, str] = {}
    for game in tournament_games(store, event) if games is None else games:
        place = game.header.tournament if game.header is not None else None
        recovery = store.read(game) if place is not None else game.problem or "unreadable"
        if isinstance(recovery, str) or place is None:
            line = f"{storage.root / game.name}: {recovery}; its results are not recounted"
            log.warning("%s", line)
            unreadable[game.name] = line
            continue
        results += results_of_events(place, recovery.setup, recovery.events)
        if not game.current and (recovery.problem or not recovery.game.is_over):
            why = recovery.problem or "the journal ends before the game does"
            line = f"{storage.root / game.name}: {why}; its end is not recounted"
            log.warning("%s", line)
            unreadable[game.name] = line
    return Recount(tuple(results), unreadable)


def recount_journals(storage: Storage, event: str | None = None) -> list[Result]:
    """Every result the tournament games in ``storage``'s journals hold (:func:`recount`'s
    results; what cannot be read is logged)."""
    return list(recount(storage, event).results)
