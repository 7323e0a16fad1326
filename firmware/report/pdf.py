"""The Spielberichtsbogen as a one-page A4 PDF, laid out like the paper sheet.

reportlab draws it (see docs/sheet.md for why reportlab rather than fpdf2 on a Pi Zero 2 W):
it imports in a third of fpdf2's time, its canvas with the 14 standard PDF fonts needs no font
files, and it writes a real text layer (every name and number can be searched and copied).
The players, standings and points cells come from :mod:`firmware.report.sheet`, as the CSV's.
"""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from engine.scoring import game_points
from engine.spieltag import Evening
from firmware.report.sheet import (
    lost_line,
    points_cell,
    scheme_label,
    sheet_players,
    standing_cells,
    standings_heading,
)
from firmware.report.sheet_words import SheetWords

__all__ = ["sheet_pdf"]

_MARGIN = 36.0
_FONT = "Helvetica"
_BOLD = "Helvetica-Bold"


class _Page:
    """A cursor down an A4 page: tables of cells with ruled rows."""

    def __init__(self, canvas: Canvas, row: float) -> None:
        self.canvas = canvas
        self.width, self.height = A4
        self.y = self.height - _MARGIN
        self.row = row
        self.size = min(9.0, row * 0.68)

    def title(self, text: str, size: float) -> None:
        self.canvas.setFont(_BOLD, size)
        self.y -= size
        self.canvas.drawString(_MARGIN, self.y, text)
        self.y -= size * 0.6

    def note(self, text: str) -> None:
        """A line of plain text (under a table: what it does not count)."""
        self.canvas.setFont(_FONT, self.size)
        self.y -= self.row
        self.canvas.drawString(_MARGIN + 2, self.y + (self.row - self.size) / 2 + 1,
                               _fit(self.canvas, text, self.width - 2 * _MARGIN - 4, self.size))

    def table(self, heading: list[str], rows: list[list[str]], widths: list[float]) -> None:
        """A ruled table; ``widths`` are shares of the page's width."""
        usable = self.width - 2 * _MARGIN
        total = sum(widths)
        xs = [_MARGIN]
        for share in widths:
            xs.append(xs[-1] + usable * share / total)
        for index, cells in enumerate([heading, *rows]):
            top = self.y
            self.y -= self.row
            if index == 0:
                self.canvas.setFillGray(0.88)
                self.canvas.rect(_MARGIN, self.y, usable, self.row, stroke=0, fill=1)
                self.canvas.setFillGray(0)
            self.canvas.setFont(_BOLD if index == 0 else _FONT, self.size)
            for x, right, cell in zip(xs, xs[1:], cells, strict=False):
                self.canvas.drawString(x + 2, self.y + (self.row - self.size) / 2 + 1,
                                       _fit(self.canvas, cell, right - x - 4, self.size))
            self.canvas.setLineWidth(0.4)
            self.canvas.line(_MARGIN, self.y, _MARGIN + usable, self.y)
            if index == 0:
                self.canvas.line(_MARGIN, top, _MARGIN + usable, top)
        self.y -= self.row * 0.7


def _fit(canvas: Canvas, text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to ``width`` points."""
    if canvas.stringWidth(text, _FONT, size) <= width:
        return text
    while text and canvas.stringWidth(text + "…", _FONT, size) > width:
        text = text[:-1]
    return text + "…"


def sheet_pdf(evening: Evening, lang: str = "de") -> bytes:
    """The evening's Spielberichtsbogen as the bytes of a one-page A4 PDF."""
    text = SheetWords(lang)
    spieltag = evening.spieltag
    players = sheet_players(evening)
    label = {p.name: p.label for p in players}
    lines = evening.standings()
    scheme = spieltag.scheme
    # Rows on the page: header 4, players, Partien, the card, the standings, headings and gaps.
    rows = 4 + len(players) + 2 * len(evening.games) + len(evening.lost) + 3 + len(lines) + 14
    row = min(14.0, (A4[1] - 2 * _MARGIN - 120) / rows)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{text.t('sheet_title')} {spieltag.name} {spieltag.date}")
    canvas.setAuthor("Schockbesteck")
    page = _Page(canvas, row)
    page.title(text.t("sheet_title"), 18)
    page.table(
        [text.t("sheet_spieltag"), text.t("sheet_date"), text.t("sheet_venue"),
         text.t("sheet_scheme")],
        [[spieltag.name, spieltag.date, spieltag.venue, scheme_label(scheme.name, text)],
         [f"{text.t('sheet_home')}: {spieltag.home}", "", f"{text.t('sheet_guest')}: "
          f"{spieltag.guest}", ""]],
        [3, 2, 3, 3],
    )  # fmt: skip
    page.title(text.t("sheet_players"), 11)
    page.table(
        [text.t("sheet_seat"), text.t("sheet_name"), text.t("sheet_number"),
         text.t("sheet_table"), text.t("standings_schock_aus")],
        [[p.seat, p.name, p.number, str(p.table),
          str(next((s.schock_aus for s in lines if s.player == p.name), ""))]
         for p in players],
        [1, 4, 2, 1, 1.5],
    )  # fmt: skip
    page.title(text.t("sheet_partien"), 11)
    page.table(
        [text.t("sheet_partie"), text.t("sheet_table"), text.t("sheet_half1"),
         text.t("sheet_half2"), text.t("sheet_final"), text.t("sheet_durchmarsch")],
        [[str(game.partie), str(game.table), label[game.result.half_losers[0]],
          label[game.result.half_losers[1]],
          label[game.result.final_loser] if game.result.final_loser else "",
          label[game.result.loser] if game.result.durchmarsch else ""]
         for game in evening.games],
        [1, 0.8, 3, 3, 3, 3],
    )  # fmt: skip
    for game in evening.lost:  # their numbers stay theirs
        page.note(lost_line(game, text))
    if evening.lost:
        page.y -= page.row * 0.7
    by_name = {line.player: line for line in lines}
    card = [
        [str(game.partie), *(
            points_cell(points.get(p.name), game.result.schock_aus(p.name))
            for points in [game_points(scheme, game.result)] for p in players
        )]
        for game in evening.games
    ]
    score_key = "standings_lives" if scheme.counts_lives else "standings_points"
    card.append([
        f"{text.t('sheet_totals')} ({text.t(score_key)})",
        *(str(by_name[p.name].score) for p in players),
    ])
    page.title(text.t("sheet_points_per_partie"), 11)
    page.table(
        [text.t("sheet_partie"), *(p.seat or p.name for p in players)], card,
        [1.6, *([1.0] * len(players))],
    )
    page.title(text.t("sheet_standings"), 11)
    page.table(
        standings_heading(text, scheme.counts_lives),
        [standing_cells(line, label[line.player], text) for line in lines],
        [0.7, 3, 1.1, 0.9, 1, 1, 0.9, 1.5, 1.3],
    )
    _signatures(canvas, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _signatures(canvas: Canvas, text: SheetWords) -> None:
    """The signature lines of both sides at the foot of the page."""
    width = A4[0]
    y = _MARGIN + 18
    half = (width - 2 * _MARGIN - 40) / 2
    canvas.setLineWidth(0.8)
    canvas.setFont(_FONT, 9)
    for index, key in enumerate(("sheet_signature_home", "sheet_signature_guest")):
        x = _MARGIN + index * (half + 40)
        canvas.line(x, y, x + half, y)
        canvas.drawString(x, y - 11, text.t(key))
