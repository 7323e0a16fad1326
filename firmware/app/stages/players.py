"""How the stages show the players at the table: a name as the screen shows it (shortened if it
is longer than fits, :mod:`firmware.screen.shortnames`) with the computer's mark, the Deckel bar."""

from __future__ import annotations

from collections.abc import Callable

from engine.game import Scharf
from firmware.app.session.table import Table
from firmware.screen.shortnames import short_names
from firmware.screen.views import Tally, marked

__all__ = ["pot_text", "scoreboard", "short_name", "shown_name"]


def pot_text(t: Callable[..., str], table: Table) -> str:
    """The turn screen's corner: the pot, or "scharf" in a round whose loser loses the half
    (the Spieltag's time box ran out; no Deckel move in it, so the pot does not matter)."""
    game = table.game
    return t("scharf_mark") if game.scharf is Scharf.ON else t("pot", n=game.pot)


def short_name(table: Table, name: str) -> str:
    """A player's name as every screen shows it: whole if it fits, else shortened, unique among
    the table's players."""
    return short_names(table.game.players).get(name, name)


def shown_name(table: Table, name: str) -> str:
    """A player's name as the screen shows it: shortened if it must be, with the computer mark
    if the device plays it."""
    return marked(short_name(table, name), table.is_bot(name))


def scoreboard(table: Table, current: str | None) -> tuple[Tally, ...]:
    """Every player's Deckel for the score bar, ``current`` highlighted, those out struck."""
    game = table.game
    return tuple(
        Tally(shown_name(table, name), game.holdings[name], name == current, name in game.out)
        for name in game.participants
    )
