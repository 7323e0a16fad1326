"""The Kasse as every surface shows it: amounts in euros, its table, its JSON.

An amount is cents (:mod:`engine.kasse`) shown in the surface's language: German ``12,50 €``
and ``1.234,50 €``, English ``€12.50`` and ``€1,234.50`` (:func:`euro`). The sheet, the season
and ``schocken stats`` lay the Kasse out as one table (:func:`kasse_table`): per player the
halves, finals, Durchmarsch and Schock aus against them that cost money, the stakes, and the
total; its price list is one line (:func:`price_line`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.kasse import KASSE_KEYS, Kasse, KasseLine, kasse_to_mapping
from firmware.report.document import Table
from firmware.words import Catalogue

__all__ = [
    "euro", "kasse_data", "kasse_heading", "kasse_rows", "kasse_table", "kasse_tables",
    "line_data", "price_line",
]


def euro(cents: int, text: Catalogue) -> str:
    """``cents`` in euros, in ``text``'s language (a surface composing an evening's words)."""
    whole, part = divmod(abs(cents), 100)
    euros = f"{whole:,}".replace(",", text.t("kasse_thousands"))
    shown = text.t("kasse_amount", euros=euros, cents=f"{part:02d}")
    return f"-{shown}" if cents < 0 else shown


def price_line(kasse: Kasse, text: Catalogue) -> str:
    """What the Kasse charges, in one line."""
    return text.t("kasse_prices", **{key: euro(getattr(kasse, key), text) for key in KASSE_KEYS})


def kasse_heading(text: Catalogue) -> tuple[str, ...]:
    """The Kasse table's column headings."""
    keys = (
        "standings_player", "standings_halves", "standings_finals", "standings_durchmarsch",
        "kasse_schock_aus_against", "kasse_evenings", "kasse_title",
    )  # fmt: skip
    return tuple(text.t(key) for key in keys)


def kasse_table(
    lines: Sequence[KasseLine], text: Catalogue, title: str | None = None,
    label: Callable[[str], str] = str,
) -> Table:
    """The Kasse as a ruled table, most owed first (then by name); ``label`` names a player
    (``H1 Anna`` on a league sheet)."""
    order = sorted(lines, key=lambda line: (-line.cents, line.player))
    return Table(
        kasse_heading(text),
        tuple(
            (label(line.player), str(line.halves_lost), str(line.finals_lost),
             str(line.durchmarsch), str(line.schock_aus_against), str(line.evenings),
             euro(line.cents, text))
            for line in order
        ),
        (3, 1, 1, 1.3, 2, 1.1, 1.4),
        text.t("kasse_title") if title is None else title,
    )  # fmt: skip


def kasse_tables(
    kasse: Kasse, lines: Sequence[KasseLine], text: Catalogue,
    label: Callable[[str], str] = str, note: str = "",
) -> tuple[Table, Table]:
    """An evening's Kasse on a printout: its price list in a line under its title (and
    ``note`` in a line under it, if any), then its table."""
    said = ((price_line(kasse, text),), *(((note,),) if note else ()))
    prices = Table((), said, (1,), text.t("kasse_title"))
    return prices, kasse_table(lines, text, "", label)


def line_data(line: KasseLine) -> dict[str, Any]:
    """One player's Kasse as JSON-ready data."""
    return {
        "player": line.player, "halves_lost": line.halves_lost, "finals_lost": line.finals_lost,
        "durchmarsch": line.durchmarsch, "schock_aus_against": line.schock_aus_against,
        "evenings": line.evenings, "cents": line.cents,
    }  # fmt: skip


def kasse_data(kasse: Kasse | None, lines: Sequence[KasseLine]) -> dict[str, Any] | None:
    """An evening's Kasse as JSON-ready data: its prices and each player's line (None without
    a Kasse)."""
    if kasse is None:
        return None
    return {"prices": kasse_to_mapping(kasse), "players": [line_data(line) for line in lines]}


def kasse_rows(
    kasse: Kasse | None, lines: Sequence[KasseLine], text: Catalogue,
    label: Callable[[str], str] = str, note: str = "",
) -> list[list[str]]:
    """The Kasse's block of a CSV: an empty row, its title, its price list (an evening's) and
    ``note`` if any, its heading and its rows; none without a Kasse."""
    if kasse is None and not lines:
        return []
    table = kasse_table(lines, text, label=label)
    prices = [[price_line(kasse, text)]] if kasse is not None else []
    noted = [[note]] if note else []
    return [[], [table.title], *prices, *noted, list(table.heading),
            *(list(row) for row in table.rows)]
