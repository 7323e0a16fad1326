"""What the hub serves: the TV and phone page, the live state as JSON, the CSV and PDF exports.

The page (``web/tv.html``) is one file for both views; it gets its words inside it
(:class:`~firmware.hub.hub_words.TvWords`, German by default, ``?lang=en``) and the state from
the server-sent events at ``/events``, the whole view
(:meth:`~firmware.hub.view.HubView.to_json`) on connect and after every change. The TV's page
carries a QR code of the phone view's address on the name the TV asked for (:func:`phone_url`,
:func:`qr_svg`), drawn by segno.

The exports derive from the same view: the standings as a document of tables
(:func:`standings_document`), written as CSV for German spreadsheet programs (UTF-8 with a BOM,
``;``) or drawn as PDF by the one drawer (:mod:`firmware.report.pdf`). A table's sheet of a
round is the Spielberichtsbogen of the table's stored games (:func:`table_sheet`, a
:class:`~firmware.report.sheet.Sheet` made from the hub's own results).
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from importlib.resources import files
from urllib.parse import urlsplit

from engine.scoring import load_scheme
from engine.tournament import PhaseKind
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords, TvWords
from firmware.hub.view import HubView
from firmware.report.document import Document, Table, csv_text, document_rows
from firmware.report.sheet import Partie, Sheet, make_sheet
from firmware.wire.messages import Result
from firmware.words import LANGUAGES

__all__ = [
    "HOST_KEY", "Page", "RouteRefused", "hub_routes", "page_html", "phone_url", "qr_svg",
    "refused_line", "standings_csv", "standings_document", "standings_pdf", "table_sheet",
    "table_sheet_pdf",
]  # fmt: skip

#: What a route answers: media type, body, and a file name to download it as ("" to show).
Page = tuple[str, bytes, str]
#: Where a route finds the request's ``Host`` among the query's parameters, the one the server
#: checked (``hal.hub_server.HOST_KEY``; the hub's pages import no server).
HOST_KEY = "@host"


def _lang(query: Mapping[str, str]) -> str:
    lang = query.get("lang", "de")
    return lang if lang in LANGUAGES else "de"


def page_html(
    lang: str, phone: bool, state: Mapping[str, object] | None = None, phone_at: str = ""
) -> bytes:
    """The TV page (``phone``: the one-column phone view) in ``lang``, showing ``state`` (the
    view's JSON) until the event stream brings the next; the TV's with a QR code of
    ``phone_at``, the phone view's address (none where it is "")."""
    texts = TvWords(lang).table()
    template = files("firmware.hub").joinpath("web/tv.html").read_text(encoding="utf-8")
    data = _script_json(texts)
    page = (
        template.replace("/*TEXTS*/{}", data)
        .replace("/*PHONE*/false", "true" if phone else "false")
        .replace('/*LANG*/"de"', json.dumps(lang))
        .replace("/*STATE*/null", _script_json(state))
        .replace('/*PHONE_URL*/""', _script_json(phone_at))
        .replace("<!--QR-->", qr_svg(phone_at) if phone_at and not phone else "")
    )
    return page.encode("utf-8")


def phone_url(host: str, lang: str) -> str:
    """The phone view's address on ``host`` (the ``Host`` the TV asked with), or "" where that
    is this machine's own loopback name, which no phone can reach."""
    name = urlsplit(f"//{host}").hostname or ""
    try:
        loopback = name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        loopback = False
    if not name or loopback:
        return ""
    return f"http://{host}/phone" + ("" if lang == "de" else f"?lang={lang}")


def qr_svg(text: str) -> str:
    """``text`` as a QR code (error correction M, its quiet zone), an inline SVG that CSS sizes:
    dark modules on white, as every phone's camera reads them; nothing where segno (the ``hub``
    extra) is not installed: the TV then shows the phone view's address in words only."""
    try:
        import segno
    except ImportError:
        return ""
    code = segno.make(text, error="m", micro=False)
    svg: str = code.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True)
    return svg


def _script_json(value: object) -> str:
    """``value`` as JSON that is safe inside a <script>: no "</" that could end it."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def standings_document(view: HubView, lang: str) -> Document:
    """The standings, the teams and the side prize as tables (the CSV's and the PDF's)."""
    text = HubWords(lang)
    lives = view.lives
    heading = (
        text.t("standings_place"), text.t("standings_player"), text.t("hub_team"),
        text.t("standings_points"), *([text.t("standings_lives")] if lives else []),
        text.t("standings_games"), text.t("standings_lost"), text.t("standings_halves"),
        text.t("standings_schock_aus"), text.t("hub_out"),
    )  # fmt: skip
    rows = tuple(
        (
            f"{placed.place}.", line.name, line.team, str(line.points),
            *([("" if line.lives is None else str(line.lives))] if lives else []),
            str(line.games), str(line.games_lost), str(line.halves_lost), str(line.schock_aus),
            _out_word(text, line.left) if line.out else "",
        )
        for placed in view.standings
        for line in (placed.line,)
    )  # fmt: skip
    # Shares of the width: the place narrow, the names wide.
    tables = [Table(heading, rows, (0.6, 2.0, 2.2, *([1.0] * (len(heading) - 3))))]
    if view.teams:
        tables.append(
            Table(
                (text.t("hub_team"), text.t("hub_score"), text.t("standings_lost")),
                tuple((t.team, str(t.score), str(t.games_lost)) for t in view.teams),
                (3.0, 1.0, 1.0),
            )
        )
    tables.append(Table((), ((text.t("hub_king"), ", ".join(view.king)),), (3.0, 3.0)))
    return Document(
        text.t("hub_title", event=view.event),
        tuple(tables),
        lines=(text.t("hub_round", n=view.round.number),),
        file_title=text.t("hub_pdf_title", event=view.event, n=view.round.number),
        one_page=False,
    )


def _out_word(text: HubWords, left: str) -> str:
    """What the standings say of a player out: out, or how they left at the director's desk."""
    words = {
        "withdrawn": "hub_left_withdrawn",
        "disqualified": "hub_left_disqualified",
        "replaced": "hub_left_replaced",
    }
    return text.t(words[left]) if left in words else text.t("standings_out")


def standings_csv(view: HubView, lang: str) -> bytes:
    """The standings, the teams and the side prize as CSV."""
    return csv_text(document_rows(standings_document(view, lang))).encode("utf-8")


def standings_pdf(view: HubView, lang: str) -> bytes:
    """The standings as an A4 PDF (as many pages as the field needs)."""
    from firmware.report.pdf import pdf_bytes

    return pdf_bytes(standings_document(view, lang))


def table_sheet(hub: Hub, round_: int, table: int, lang: str) -> Sheet:
    """The Spielberichtsbogen of one table in one round, from its stored games."""
    seat = next((s for s in hub.store.seats(round_) if s.table_no == table), None)
    if seat is None:
        raise HubError("hub_no_such_table", n=round_, table=table)
    partien = [
        Partie(number, table, Result.from_json(stored.payload).game_result())
        for number, stored in enumerate(
            (s for s in hub.store.results(round_) if s.table_no == table and s.kind == "game"),
            start=1,
        )
    ]
    if not partien:
        raise HubError("hub_no_game_yet", n=round_, table=table)
    scheme = load_scheme(
        hub.store.get("scheme", "verlustpunkte") if seat.kind is PhaseKind.POINTS else "leben"
    )
    row = hub.store.round(round_)
    day = datetime.fromtimestamp(row.starts_at or 0.0, UTC).strftime("%Y-%m-%d") if row else ""
    text = HubWords(lang)
    name = f"{hub.event} · {text.t('hub_round', n=round_)} · {text.t('hub_table', n=table)}"
    return make_sheet(name, day, scheme, partien)


def table_sheet_pdf(hub: Hub, round_: int, table: int, lang: str) -> bytes:
    """:func:`table_sheet` as a one-page A4 PDF."""
    from firmware.report.pdf import sheet_pdf

    return sheet_pdf(table_sheet(hub, round_, table, lang), lang)


def hub_routes(
    hub: Hub, clock: Callable[[], float]
) -> dict[str, Callable[[Mapping[str, str]], Page]]:
    """The server's GET routes: path -> what it answers for a query."""

    def tv(query: Mapping[str, str]) -> Page:
        state = hub.view(clock()).to_json()
        lang = _lang(query)
        page = page_html(lang, False, state, phone_url(query.get(HOST_KEY, ""), lang))
        return "text/html; charset=utf-8", page, ""

    def phone(query: Mapping[str, str]) -> Page:
        state = hub.view(clock()).to_json()
        return "text/html; charset=utf-8", page_html(_lang(query), True, state), ""

    def state(_query: Mapping[str, str]) -> Page:
        return "application/json", json.dumps(hub.view(clock()).to_json()).encode(), ""

    def csv(query: Mapping[str, str]) -> Page:
        body = standings_csv(hub.view(clock()), _lang(query))
        return "text/csv; charset=utf-8", body, f"{hub.event}.csv"

    def pdf(query: Mapping[str, str]) -> Page:
        body = standings_pdf(hub.view(clock()), _lang(query))
        return "application/pdf", body, f"{hub.event}.pdf"

    def sheet(query: Mapping[str, str]) -> Page:
        lang = _lang(query)
        try:
            round_ = _number(query.get("round", ""))
            table = _number(query.get("table", ""))
            body = table_sheet_pdf(hub, round_, table, lang)
        except HubError as error:
            raise RouteRefused(error.said(HubWords(lang))) from None
        return "application/pdf", body, f"{hub.event}-r{round_}-t{table}.pdf"

    return {
        "/": tv, "/phone": phone, "/api/state": state, "/export.csv": csv,
        "/export.pdf": pdf, "/sheet.pdf": sheet,
    }  # fmt: skip


class RouteRefused(Exception):
    """A query a route cannot answer: one line in the query's language (the server's 400)."""


def refused_line(error: Exception) -> str:
    """What the server answers (400) for an error of a route: a refusal's line, or "" for
    any other error (a 500: a bug)."""
    return str(error) if isinstance(error, RouteRefused) else ""


def _number(value: str) -> int:
    if not value.isascii() or not value.isdigit() or not 0 < int(value) < 10000:
        raise HubError("hub_bad_number", given=value)
    return int(value)
