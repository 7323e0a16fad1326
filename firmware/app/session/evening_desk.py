"""The Spieltag on the device: begun and ended from the menu, its standings after each game.

The evening lives in the state directory (:mod:`firmware.store.spieltagfile`): while one is going
on, every game the device begins is its (the game's journal says so), and the standings are
recounted from the journals after each game. Here the session reads and writes it; the stages
only show what it says. No state directory, no evening: the menu does not offer one.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from engine.saison import evening_kasse, season_kasse
from engine.scoring import ScoringError
from engine.spieltag import Evening, Spieltag, SpieltagError
from firmware.app.session.moments import EveningStandings
from firmware.store.evening import load_evening
from firmware.store.gamestore import GameStore
from firmware.store.kept_evenings import kept_evenings
from firmware.store.spieltagbegin import SpieltagRequest, begin_spieltag
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import StorageError

__all__ = ["begin_evening", "end_evening", "evening_going_on", "evening_standings"]

logger = logging.getLogger("schockbesteck.spieltag")


def evening_going_on(store: GameStore) -> Spieltag | None:
    """The Spieltag going on; None if there is none or its file cannot be read (logged)."""
    try:
        return SpieltagFiles(store.storage).current()
    except (SpieltagError, StorageError) as error:
        logger.warning("%s", error)
        return None


def begin_evening(store: GameStore, scheme: str, now: datetime, time_box: int = 0) -> Spieltag:
    """Begin a Spieltag under the preset ``scheme``, named by its number and dated by the
    device's clock (:func:`~firmware.store.spieltagbegin.begin_spieltag`, as every door);
    every game begun from now on belongs to it. ``time_box``: minutes after which the game in
    play goes on scharf (0: none). SpieltagError or StorageError if it cannot be written."""
    request = SpieltagRequest(scheme=scheme, time_box=time_box or None)
    return begin_spieltag(store.storage, request, now)


def end_evening(store: GameStore) -> Spieltag:
    """End the Spieltag going on. SpieltagError or StorageError if it cannot be."""
    return SpieltagFiles(store.storage).end()


def evening_standings(store: GameStore) -> EveningStandings | None:
    """The standings of the Spieltag going on, recounted from its games; None outside one or
    before its first game."""
    spieltag = evening_going_on(store)
    if spieltag is None:
        return None
    try:
        evening = load_evening(store.storage, spieltag.id)
    except (SpieltagError, StorageError) as error:
        logger.warning("%s", error)
        return None
    if not evening.games and not evening.lost:
        return None
    for game in evening.lost:
        logger.warning("Partie %d of %s (%s) is not counted: %s %s%s", game.partie,
                       spieltag.id, spieltag.name, game.journal, game.loss.value,
                       f" ({game.detail})" if game.detail else "")
    scheme = spieltag.scheme
    lost = tuple(game.partie for game in evening.lost)
    standing = EveningStandings(
        spieltag.name, scheme.name, len(evening.games), scheme.counts_lives, (), lost=lost
    )
    standing = _with_kasse(standing, evening, store)
    if not evening.games:
        return standing
    try:
        lines = evening.standings()
    except ScoringError as error:
        sizes = sorted({len(game.setup.players) for game in evening.games})
        logger.warning("%s", error)
        return replace(standing, problem=str(max(sizes)))
    return replace(standing, lines=tuple((line.place, line.player, line.score) for line in lines))


def _with_kasse(standing: EveningStandings, evening: Evening, store: GameStore) -> EveningStandings:
    """``standing`` with the evening's Kasse and the season's, if the evening keeps one (most
    owed first)."""
    owed = sorted(evening_kasse(evening), key=lambda line: (-line.cents, line.player))
    if not owed:
        return standing
    try:
        kept = kept_evenings(store.storage, with_kasse=True, known=evening)
    except (SpieltagError, StorageError) as error:
        logger.warning("%s", error)
        kept = (evening,)
    season = {line.player: line.cents for line in season_kasse(kept)}
    return replace(
        standing, kasse=tuple((line.player, line.cents) for line in owed),
        season_kasse=tuple((line.player, season.get(line.player, line.cents)) for line in owed),
    )
