"""What a printout holds, as data: a title, a few lines under it, and ruled tables of cells.

The one shape both programs print in: the Spielberichtsbogen (:mod:`firmware.report.sheet`) and
the hub's standings (``firmware/hub/pages.py``) each build a :class:`Document`;
:func:`firmware.report.pdf.pdf_bytes` draws it on A4 pages, and :func:`csv_text` writes rows of
cells for German spreadsheet programs (the sheet's CSV keeps a layout of its own, the hub's is
the document's rows, :func:`document_rows`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Document", "Table", "csv_text", "document_rows"]


@dataclass(frozen=True, slots=True)
class Table:
    """A ruled table: its heading row (none if empty), its rows, each column's share of the
    page's width, and a title above it ("" for none).

    ``continued``: a row whose first cell is empty goes on with the row above (a table's
    players over two rows): no rule between them, and on a new page it shows that first cell.
    """

    heading: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]
    title: str = ""
    continued: bool = False


@dataclass(frozen=True, slots=True)
class Document:
    """A printout: its title, lines under the title, its tables and signature lines.

    ``one_page``: every row on one page, the rows as high as the page allows (the sheet); else
    rows of one height over as many pages as they need (a whole tournament's standings), each
    table's heading repeated on a new page.
    """

    title: str
    tables: tuple[Table, ...]
    #: Lines of text under the title (the round, say).
    lines: tuple[str, ...] = ()
    #: One signature line per side at the foot of the (last) page, each with its caption.
    signatures: tuple[str, ...] = ()
    #: A line under each caption (who signs: the captains), or none.
    signature_names: tuple[str, ...] = ()
    #: The file's title in its metadata ("" for the document's title).
    file_title: str = ""
    one_page: bool = True
    #: A row's height in points, its type in proportion (large type for a list pinned up in a
    #: hall); 0: the drawer's own (the sheet's rows, or the running standings').
    row_height: float = 0.0


def document_rows(document: Document) -> list[list[str]]:
    """The document as rows of cells: the title and its lines, then each table (its title, its
    heading, its rows), an empty row before each."""
    rows: list[list[str]] = [[document.title], *([line] for line in document.lines)]
    for table in document.tables:
        rows.append([])
        if table.title:
            rows.append([table.title])
        if table.heading:
            rows.append(list(table.heading))
        rows += [list(cells) for cells in table.rows]
    return rows


def csv_text(rows: Sequence[Sequence[str]]) -> str:
    """The rows as CSV for German spreadsheet programs: BOM, ``;``, CRLF line ends."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()
