"""The one PDF drawer: a :class:`~firmware.report.document.Document` on A4 pages.

It draws the Spielberichtsbogen (one page, laid out like the paper sheet, :func:`sheet_pdf`) and
the hub's standings (as many pages as the field needs) alike: a title, ruled tables with a grey
heading row, and signature lines at the foot.

reportlab draws it (see docs/sheet.md for why reportlab rather than fpdf2 on a Pi Zero 2 W):
it imports in a third of fpdf2's time, its canvas with the 14 standard PDF fonts needs no font
files, and it writes a real text layer (every name and number can be searched and copied).
Those fonts draw Windows-1252's letters; a name's letter beyond them (ł, ş, ğ, č: the name
rule allows them) is drawn as its base letter (:func:`drawable`) rather than as a black box.
"""

from __future__ import annotations

import io
import unicodedata

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from firmware.report.document import Document, Table
from firmware.report.sheet import Sheet, sheet_document

__all__ = ["drawable", "pdf_bytes", "sheet_pdf"]

_MARGIN = 36.0
_FONT = "Helvetica"
_BOLD = "Helvetica-Bold"
_TITLE_SIZE = 18.0
_TABLE_TITLE_SIZE = 11.0
_LINE_SIZE = 11.0
#: A row's height at most, and on pages that run on.
_ROW = 14.0
_RUNNING_ROW = 13.0
#: What a one-page document keeps free of table rows: the room to sign in above the signature
#: lines and their captions, in points.
_SIGNING_POINTS = 70.0


#: Letters without a decomposition to a base letter, and the letter drawn for each.
_BASE_LETTERS = {"ı": "i", "Ł": "L", "ł": "l", "đ": "d", "Đ": "D", "ħ": "h"}


def drawable(text: str) -> str:
    """``text`` in what the standard fonts draw (Windows-1252): any other letter as its base
    letter (``Małgorzata`` as ``Malgorzata``, ``Çağla`` as ``Çagla``), anything else as "?"."""
    if _encodes(text):
        return text
    out = []
    for char in text:
        if not _encodes(char):
            base = unicodedata.normalize("NFKD", char)[0]
            char = _BASE_LETTERS.get(char, base if _encodes(base) else "?")
        out.append(char)
    return "".join(out)


def _encodes(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


class _Page:
    """A cursor down A4 pages: titles and tables of cells with ruled rows."""

    def __init__(self, canvas: Canvas, row: float, *, running: bool) -> None:
        self.canvas = canvas
        self.width, self.height = A4
        self.y = self.height - _MARGIN
        self.row = row
        # Rows higher than the drawer's own (large type) get type in proportion.
        self.size = row * 0.6 if row > _ROW else min(9.0, row * 0.68)
        self.running = running

    def _room_for(self, height: float) -> None:
        """A new page if the rest of this one is lower than ``height`` (pages that run on)."""
        if self.running and self.y - height < _MARGIN:
            self.canvas.showPage()
            self.y = self.height - _MARGIN

    def title(self, text: str, size: float) -> None:
        self._room_for(size * 1.6 + 2 * self.row)
        self.canvas.setFont(_BOLD, size)
        self.y -= size
        self.canvas.drawString(_MARGIN, self.y, drawable(text))
        self.y -= size * 0.6

    def table(self, table: Table) -> None:
        """A ruled table; its widths are shares of the page's width."""
        usable = self.width - 2 * _MARGIN
        total = sum(table.widths)
        xs = [_MARGIN]
        for share in table.widths:
            xs.append(xs[-1] + usable * share / total)
        if table.heading:
            self._row(table.heading, xs, heading=True)
        label = ""
        for index, cells in enumerate(table.rows):
            if self.running and self.y - self.row < _MARGIN:
                self._room_for(self.row)
                if table.heading:
                    self._row(table.heading, xs, heading=True)
                if table.continued and cells and not cells[0]:
                    cells = (label, *cells[1:])  # a new page names what the row continues
            label = cells[0] if cells and cells[0] else label
            following = table.rows[index + 1] if index + 1 < len(table.rows) else ("x",)
            rule = not (table.continued and following and not following[0])
            self._row(cells, xs, heading=False, rule=rule)
        self.y -= self.row * 0.7

    def _row(
        self, cells: tuple[str, ...], xs: list[float], *, heading: bool, rule: bool = True
    ) -> None:
        usable = self.width - 2 * _MARGIN
        top = self.y
        self.y -= self.row
        if heading:
            self.canvas.setFillGray(0.88)
            self.canvas.rect(_MARGIN, self.y, usable, self.row, stroke=0, fill=1)
            self.canvas.setFillGray(0)
        self.canvas.setFont(_BOLD if heading else _FONT, self.size)
        # A row of fewer cells than columns: its last cell takes the rest of the row.
        rights = [*xs[1:len(cells)], xs[-1]]
        baseline = self.y + (self.row - self.size) / 2 + 1
        for x, right, cell in zip(xs, rights, cells, strict=False):
            shown = _fit(self.canvas, drawable(cell), right - x - 4, self.size)
            self.canvas.drawString(x + 2, baseline, shown)
        self.canvas.setLineWidth(0.4)
        if rule:
            self.canvas.line(_MARGIN, self.y, _MARGIN + usable, self.y)
        if heading:
            self.canvas.line(_MARGIN, top, _MARGIN + usable, top)


def _fit(canvas: Canvas, text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to ``width`` points."""
    if canvas.stringWidth(text, _FONT, size) <= width:
        return text
    while text and canvas.stringWidth(text + "…", _FONT, size) > width:
        text = text[:-1]
    return text + "…"


def _row_height(document: Document) -> float:
    """A row's height: the document's own, or on one page as high as the page allows, else
    the running height. The titles take their own height, each table's gap after it 0.7 of a
    row."""
    if document.row_height:
        return document.row_height
    if not document.one_page:
        return _RUNNING_ROW
    rows = sum(len(table.rows) + bool(table.heading) + 0.7 for table in document.tables)
    titles = _TITLE_SIZE * 1.6 + _LINE_SIZE * 1.6 * len(document.lines)
    titles += _TABLE_TITLE_SIZE * 1.6 * sum(bool(table.title) for table in document.tables)
    signing = _SIGNING_POINTS if document.signatures else 0.0
    height: float = A4[1]
    return min(_ROW, (height - 2 * _MARGIN - titles - signing) / rows)


def pdf_bytes(document: Document) -> bytes:
    """The document as the bytes of an A4 PDF."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(document.file_title or document.title)  # metadata: Unicode as it is
    canvas.setAuthor("Schockbesteck")
    page = _Page(canvas, _row_height(document), running=not document.one_page)
    page.title(document.title, _TITLE_SIZE)
    for line in document.lines:
        page.title(line, _LINE_SIZE)
    for table in document.tables:
        if table.title:
            page.title(table.title, _TABLE_TITLE_SIZE)
        page.table(table)
    if document.signatures:
        _signatures(canvas, document.signatures, document.signature_names)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _signatures(canvas: Canvas, captions: tuple[str, ...], names: tuple[str, ...]) -> None:
    """A signature line per caption side by side at the foot of the page, with who signs (a
    name per caption, where given) under the caption."""
    width = A4[0]
    y = _MARGIN + 22
    gap = 40
    each = (width - 2 * _MARGIN - gap * (len(captions) - 1)) / len(captions)
    canvas.setLineWidth(0.8)
    canvas.setFont(_FONT, 9)
    for index, caption in enumerate(captions):
        x = _MARGIN + index * (each + gap)
        canvas.line(x, y, x + each, y)
        canvas.drawString(x, y - 11, drawable(caption))
        name = names[index] if index < len(names) else ""
        if name:
            canvas.drawString(x, y - 22, _fit(canvas, drawable(name), each, 9))


def sheet_pdf(sheet: Sheet, lang: str = "de") -> bytes:
    """The Spielberichtsbogen as the bytes of a one-page A4 PDF."""
    return pdf_bytes(sheet_document(sheet, lang))
