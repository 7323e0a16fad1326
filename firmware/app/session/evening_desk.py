"""The Spieltag on the device: begun and ended from the menu, its standings after each game.

The evening lives in the state directory (:mod:`firmware.store.spieltagfile`): while one is going
on, every game the device begins is its (the game's journal says so), and the standings are
recounted from the journals after each game, counting those the scheme can score and not taken
out; the menu takes the last game out or puts it back. Here the session reads and writes it;
the stages only show what it says. No state directory, no evening: the menu does not offer one.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from engine.saison import evening_kasse, season_kasse
from engine.spieltag import Change, Evening, Spieltag, SpieltagError
from firmware.app.session.moments import EveningStandings
from firmware.store.evening import load_evening
from firmware.store.gamestore import GameStore
from firmware.store.kept_evenings import kept_evenings
from firmware.store.spieltagamend import Amended, amend_evening
from firmware.store.spieltagbegin import SpieltagRequest, begin_spieltag
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import StorageError

__all__ = [
    "amend_last_game", "begin_evening", "end_evening", "evening_going_on", "evening_standings",
    "last_game",
]

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
    counted = evening.counted
    uncounted = tuple((game.partie, game.why.value) for game in evening.uncounted)
    standing = EveningStandings(
        spieltag.name, scheme.name, len(counted), scheme.counts_lives, (), lost=lost,
        uncounted=uncounted,
    )
    standing = _with_kasse(standing, evening, store)
    if not counted:
        return standing
    lines = evening.standings()
    # Under Leben: who the last game (if it counts) left without a life.
    last = evening.games[-1] is counted[-1] if evening.games else False
    just_out = tuple(
        line.player for line in lines if line.out and last and line.out_after == len(counted)
    )
    return replace(
        standing, lines=tuple((line.place, line.player, line.score) for line in lines),
        just_out=just_out,
    )


def last_game(store: GameStore) -> tuple[int, bool] | None:
    """The Partie of the last finished game of the Spieltag going on, and whether it is taken
    out; None outside one or before its first game."""
    spieltag = evening_going_on(store)
    if spieltag is None:
        return None
    try:
        evening = load_evening(store.storage, spieltag.id)
    except (SpieltagError, StorageError) as error:
        logger.warning("%s", error)
        return None
    return (evening.games[-1].partie, evening.games[-1].taken_out) if evening.games else None


def amend_last_game(store: GameStore, partie: int, take_out: bool) -> Amended:
    """Take the Partie ``partie`` (the last game) out of the Spieltag going on, or put it back,
    dated by the device's clock and kept in the evening's history. SpieltagError or
    StorageError if it cannot be."""
    change = Change.TAKE_OUT if take_out else Change.PUT_BACK
    return amend_evening(store.storage, None, change, store.wall_time(), partie=partie)


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
