"""What the hub serves: the TV and phone page, the live state as JSON, the CSV and PDF exports.

The page (``web/tv.html``) is one file for both views; it gets its words inside it
(:class:`~firmware.hub.hub_words.TvWords`, German by default, ``?lang=en``) and the state from
the server-sent events at ``/events``, a whole snapshot (:meth:`Hub.snapshot`) on connect and
after every change.

The CSV is for German spreadsheet programs (UTF-8 with a BOM, ``;``), as the Spieltag's sheet
(:mod:`firmware.report.sheet`); a table's sheet of a round is that Spielberichtsbogen, made by
:mod:`firmware.report.pdf` from the table's stored games.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from importlib.resources import files

from engine.game import GameSetup
from engine.scoring import load_scheme
from engine.spieltag import Evening, EveningGame, Spieltag
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords, TvWords
from firmware.report.sheet import csv_text
from firmware.tournament.wire import Result
from firmware.words import LANGUAGES

__all__ = ["Page", "hub_routes", "page_html", "standings_csv", "standings_pdf", "table_sheet_pdf"]

#: What a route answers: media type, body, and a file name to download it as ("" to show).
Page = tuple[str, bytes, str]


def _lang(query: Mapping[str, str]) -> str:
    lang = query.get("lang", "de")
    return lang if lang in LANGUAGES else "de"


def page_html(lang: str, phone: bool, state: Mapping[str, object] | None = None) -> bytes:
    """The TV page (``phone``: the one-column phone view) in ``lang``, showing ``state`` (a
    snapshot) until the event stream brings the next."""
    texts = TvWords(lang).table()
    template = files("firmware.hub").joinpath("web/tv.html").read_text(encoding="utf-8")
    data = _script_json(texts)
    page = (
        template.replace("/*TEXTS*/{}", data)
        .replace("/*PHONE*/false", "true" if phone else "false")
        .replace('/*LANG*/"de"', json.dumps(lang))
        .replace("/*STATE*/null", _script_json(state))
    )
    return page.encode("utf-8")


def _script_json(value: object) -> str:
    """``value`` as JSON that is safe inside a <script>: no "</" that could end it."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def standings_rows(hub: Hub, lang: str) -> list[list[str]]:
    """The standings as rows of cells (the CSV's and the PDF's)."""
    text = HubWords(lang)
    snapshot = hub.snapshot(0.0)
    lives = any(row["lives"] is not None for row in snapshot["standings"])
    rows: list[list[str]] = [
        [text.t("hub_title", event=hub.event)],
        [text.t("hub_round", n=snapshot["round"]["number"])],
        [],
        [
            text.t("standings_place"), text.t("standings_player"), text.t("hub_team"),
            text.t("standings_points"), *([text.t("standings_lives")] if lives else []),
            text.t("standings_games"), text.t("standings_lost"), text.t("standings_halves"),
            text.t("standings_schock_aus"), text.t("hub_out"),
        ],
    ]  # fmt: skip
    for row in snapshot["standings"]:
        rows.append([
            f"{row['place']}.", row["name"], row["team"], str(row["points"]),
            *([("" if row["lives"] is None else str(row["lives"]))] if lives else []),
            str(row["games"]), str(row["games_lost"]), str(row["halves_lost"]),
            str(row["schock_aus"]), text.t("standings_out") if row["out"] else "",
        ])  # fmt: skip
    if snapshot["teams"]:
        rows += [[], [text.t("hub_team"), text.t("hub_score"), text.t("standings_lost")]]
        rows += [[t["team"], str(t["score"]), str(t["games_lost"])] for t in snapshot["teams"]]
    rows += [[], [text.t("hub_king"), ", ".join(snapshot["king"])]]
    return rows


def standings_csv(hub: Hub, lang: str) -> bytes:
    """The standings, the teams and the side prize as CSV."""
    return csv_text(standings_rows(hub, lang)).encode("utf-8")


def standings_pdf(hub: Hub, lang: str) -> bytes:
    """The standings as an A4 PDF (as many pages as the field needs)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    text = HubWords(lang)
    rows = standings_rows(hub, lang)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(text.t("hub_pdf_title", event=hub.event, n=hub.current_round()))
    width, height = A4
    margin, row = 36.0, 13.0
    y = height - margin
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(
        margin, y - 14, text.t("hub_pdf_title", event=hub.event, n=hub.current_round())
    )
    y -= 34
    blocks: list[list[list[str]]] = [[]]
    for cells in rows[3:]:
        if cells:
            blocks[-1].append(cells)
        else:
            blocks.append([])
    for number, block in enumerate(b for b in blocks if b):
        columns = max(len(cells) for cells in block)
        # Shares of the width: the standings' place narrow, the names wide; below them the
        # teams' and the side prize's first column wide.
        if number == 0:
            shares = [0.6, 2.0, 2.2, *([1.0] * max(0, columns - 3))][:columns]
        else:
            shares = [3.0, *([1.0] * (columns - 1))]
        xs = [margin]
        for share in shares:
            xs.append(xs[-1] + (width - 2 * margin) * share / sum(shares))
        for index_row, cells in enumerate(block):
            if y < margin + row:
                canvas.showPage()
                y = height - margin
            canvas.setFont("Helvetica-Bold" if index_row == 0 else "Helvetica", 8.5)
            for index, value in enumerate(cells):
                room = int((xs[index + 1] - xs[index]) / 4.4)
                canvas.drawString(xs[index], y, value[: max(room, 4)])
            y -= row
        y -= row
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def table_sheet_pdf(hub: Hub, round_: int, table: int, lang: str) -> bytes:
    """The Spielberichtsbogen of one table in one round, from its stored games."""
    from firmware.report.pdf import sheet_pdf

    seat = next((s for s in hub.store.seats(round_) if s.table_no == table), None)
    if seat is None:
        raise HubError(f"round {round_} has no table {table}")
    row = hub.store.round(round_)
    games: list[EveningGame] = []
    for stored in hub.store.results(round_):
        if stored.table_no != table or stored.kind != "game":
            continue
        result = Result.from_json(stored.payload).game_result()
        games.append(EveningGame(len(games) + 1, table, GameSetup(result.players), (), result))
    if not games:
        raise HubError(f"table {table} has no game stored in round {round_} yet")
    scheme = load_scheme(
        "leben" if seat.kind != "points" else hub.store.get("scheme", "verlustpunkte")
    )
    day = datetime.fromtimestamp(row.starts_at or 0.0, UTC).strftime("%Y-%m-%d") if row else ""
    text = HubWords(lang)
    spieltag = Spieltag(
        f"{hub.event}-r{round_}-t{table}",
        f"{hub.event} · {text.t('hub_round', n=round_)} · {text.t('hub_table', n=table)}",
        scheme, day, table=table,
    )  # fmt: skip
    return sheet_pdf(Evening(spieltag, tuple(games)), lang)


def hub_routes(
    hub: Hub, clock: Callable[[], float]
) -> dict[str, Callable[[Mapping[str, str]], Page]]:
    """The server's GET routes: path -> what it answers for a query."""

    def tv(query: Mapping[str, str]) -> Page:
        return "text/html; charset=utf-8", page_html(_lang(query), False, hub.snapshot(clock())), ""

    def phone(query: Mapping[str, str]) -> Page:
        return "text/html; charset=utf-8", page_html(_lang(query), True, hub.snapshot(clock())), ""

    def state(_query: Mapping[str, str]) -> Page:
        return "application/json", json.dumps(hub.snapshot(clock())).encode(), ""

    def csv(query: Mapping[str, str]) -> Page:
        return "text/csv; charset=utf-8", standings_csv(hub, _lang(query)), f"{hub.event}.csv"

    def pdf(query: Mapping[str, str]) -> Page:
        return "application/pdf", standings_pdf(hub, _lang(query)), f"{hub.event}.pdf"

    def sheet(query: Mapping[str, str]) -> Page:
        round_ = _number(query.get("round", ""))
        table = _number(query.get("table", ""))
        body = table_sheet_pdf(hub, round_, table, _lang(query))
        return "application/pdf", body, f"{hub.event}-r{round_}-t{table}.pdf"

    return {
        "/": tv, "/phone": phone, "/api/state": state, "/export.csv": csv,
        "/export.pdf": pdf, "/sheet.pdf": sheet,
    }  # fmt: skip


def _number(value: str) -> int:
    if not value.isascii() or not value.isdigit() or not 0 < int(value) < 10000:
        raise HubError(f"{value!r} is not a round's or table's number")
    return int(value)
