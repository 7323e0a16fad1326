"""A round's seating list to pin up in the hall: an A4 PDF in large type, by table or by name.

By table, each table is its number (with its kind in a KO round or the Trostrunde) and its
players' full names, two to a row; by name, every player by family name (``Neumann, Vera``),
the name the table's screen shows them as (where it differs) and their table, sorted as a
German list is (Ä with A, case aside). Both are a :class:`~firmware.report.document.Document`
for the one drawer (:func:`firmware.report.pdf.pdf_bytes`), in rows of :data:`ROW_HEIGHT`
points: type about twice the standings', read from a step or two away.
"""

from __future__ import annotations

import unicodedata

from engine.tournament import PhaseKind
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords
from firmware.hub.registration import full_names
from firmware.hub.store import SeatRow
from firmware.report.document import Document, Table

__all__ = ["ROW_HEIGHT", "seating_document", "seating_pdf"]

#: A row's height in points: type of about 14 pt, some 33 rows an A4 page.
ROW_HEIGHT = 23.0
#: How many players a row of the list by table holds.
_PER_ROW = 2


def _seats(hub: Hub, round_: int | None) -> tuple[int, list[SeatRow]]:
    number = hub.current_round() if round_ is None else round_
    seats = hub.store.seats(number) if number else []
    if not seats:
        if number:
            raise HubError("hub_seating_not_drawn", n=number)
        raise HubError("hub_seating_none")
    return number, seats


def _sort_key(name: str) -> str:
    """How a German list sorts a name: Ä with A, ß as ss, case aside."""
    plain = unicodedata.normalize("NFKD", name.casefold().replace("ß", "ss"))
    return "".join(char for char in plain if not unicodedata.combining(char))


def _family_first(full_name: str) -> str:
    """``Vera Neumann`` as a list by name shows it: ``Neumann, Vera``."""
    given, _, family = full_name.rpartition(" ")
    return f"{family}, {given}" if given else full_name


def seating_document(hub: Hub, round_: int | None, lang: str, by: str = "table") -> Document:
    """Round ``round_``'s seating (the current round if None), ``by`` table or by name."""
    number, seats = _seats(hub, round_)
    text = HubWords(lang)
    full = full_names(hub.store)

    def named(name: str) -> str:
        return full.get(name, name)

    if by == "name":
        index = sorted(
            ((_family_first(named(p)), p, seat.table_no) for seat in seats for p in seat.players),
            key=lambda row: (_sort_key(row[0]), row[0], row[2]),
        )
        table = Table(
            (text.t("standings_player"), text.t("hub_seating_shown"), text.t("hub_seating_table")),
            tuple((f, "" if f == p else p, str(t)) for f, p, t in index),
            (3.2, 1.6, 0.8),
            title=text.t("hub_seating_by_name"),
        )
    else:
        rows: list[tuple[str, ...]] = []
        for seat in seats:
            names = [named(p) for p in seat.players]
            label = str(seat.table_no)
            if seat.kind is not PhaseKind.POINTS:
                kind = text.t("hub_kind_ko" if seat.kind is PhaseKind.KO else "hub_kind_trost")
                label += f" {kind}"
            for start in range(0, len(names), _PER_ROW):
                cells = names[start : start + _PER_ROW]
                rows.append((label if start == 0 else "", *cells, *[""] * (_PER_ROW - len(cells))))
        table = Table(
            (text.t("hub_seating_table"), text.t("hub_seating_players"), ""),
            tuple(rows),
            (1.0, 3.0, 3.0),
            continued=True,
        )
    return Document(
        text.t("hub_seating_title", event=hub.event, n=number),
        (table,),
        one_page=False,
        row_height=ROW_HEIGHT,
    )


def seating_pdf(hub: Hub, round_: int | None, lang: str, by: str = "table") -> bytes:
    """:func:`seating_document` as the bytes of an A4 PDF."""
    from firmware.report.pdf import pdf_bytes

    return pdf_bytes(seating_document(hub, round_, lang, by))
