"""A state directory's season: every Spieltag it keeps, with its games.

The device's season is what its state directory keeps: the evenings ended (in the order they
were begun) and the one going on. Each is read as :func:`firmware.store.evening.load_evening`
reads one, its games through the journal's reader, so a season is recounted from its games as
an evening is. Both `schocken saison` (a state directory as SOURCE) and the device's standings
(the season's Kasse, :func:`engine.saison.season_kasse`) read it here.
"""

from __future__ import annotations

from engine.spieltag import Evening
from firmware.store.evening import evening_of
from firmware.store.gamestore import GameStore
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import Storage

__all__ = ["kept_evenings"]


def kept_evenings(
    storage: Storage, *, with_kasse: bool = False, known: Evening | None = None
) -> tuple[Evening, ...]:
    """Every Spieltag ``storage`` keeps, ended ones first (by ID: when each began), then the
    one going on; ``with_kasse``: only those that keep a Kasse (the others' games are not
    read); ``known``: one of them read already, taken as it is. SpieltagError (one line) for
    a damaged Spieltag file."""
    files = SpieltagFiles(storage)
    store = GameStore(storage)
    spieltage = [files.find(spieltag_id) for spieltag_id in files.ids()]
    current = files.current()
    if current is not None:
        spieltage.append(current)
    return tuple(
        known if known is not None and known.spieltag.id == spieltag.id
        else evening_of(spieltag, store)
        for spieltag in spieltage if spieltag.kasse is not None or not with_kasse
    )  # fmt: skip

