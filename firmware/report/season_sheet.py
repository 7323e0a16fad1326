"""The season's printout (:class:`engine.saison.Season`): the same CSV, PDF and JSON as the sheet.

One :class:`~firmware.report.document.Document` (:func:`season_document`) holds the title, the
scheme and the span of dates, the players' table (with attendance), the teams' table of the
league matches, the Kasse where a Spieltag keeps one, and the Spieltage it adds; the CSV is its
rows (:func:`~firmware.report.document.document_rows`, written by the one CSV writer), the PDF
is drawn by the one drawer over as many A4 pages as it needs, and :func:`season_data` is the
JSON.
"""

from __future__ import annotations

from typing import Any

from engine.saison import Season, SeasonPlayer
from engine.scoring import scheme_to_mapping
from firmware.report.document import Document, Table, csv_text, document_rows
from firmware.report.money import kasse_table, line_data
from firmware.report.sheet_words import SheetWords, scheme_label

__all__ = ["season_csv", "season_data", "season_document", "season_pdf"]


def _player_cells(line: SeasonPlayer) -> tuple[str, ...]:
    return (
        f"{line.place}.", line.player, str(line.score), str(line.spieltage), str(line.games),
        str(line.games_lost), str(line.halves_lost), str(line.finals_lost),
        str(line.durchmarsch), str(line.schock_aus),
    )  # fmt: skip


def season_document(season: Season, lang: str = "de") -> Document:
    """The season as a printout, in ``lang``."""
    text = SheetWords(lang)
    scheme = season.scheme
    count = len(season.evenings)
    span = (
        text.t("saison_span_one", first=season.first_date) if count == 1
        else text.t("saison_span", n=count, first=season.first_date, last=season.last_date)
    )  # fmt: skip
    score_key = "saison_lives_left" if scheme.counts_lives else "standings_points"
    players = Table(
        tuple(text.t(key) for key in (
            "standings_place", "standings_player", score_key, "saison_attended",
            "standings_games", "standings_lost", "standings_halves", "standings_finals",
            "standings_durchmarsch", "standings_schock_aus",
        )),
        tuple(_player_cells(line) for line in season.players),
        (0.7, 3, 1.1, 1.1, 0.9, 1, 1, 0.9, 1.5, 1.3),
        text.t("sheet_players"),
    )  # fmt: skip
    teams = Table(
        tuple(text.t(key) for key in (
            "standings_place", "saison_team", "saison_matches", "saison_won", "saison_drawn",
            "standings_lost", score_key, "saison_against",
        )),
        tuple(
            (f"{team.place}.", team.team, str(team.matches), str(team.won), str(team.drawn),
             str(team.lost), str(team.score), str(team.against))
            for team in season.teams
        ),
        (0.8, 3.2, 1.6, 1.3, 1.8, 1.1, 1.1, 1.6),
        text.t("saison_teams"),
    )  # fmt: skip
    spieltage = Table(
        (text.t("sheet_date"), text.t("sheet_spieltag"), text.t("sheet_venue"),
         text.t("saison_match"), text.t("sheet_partien")),
        tuple(
            (spieltag.date, spieltag.name, spieltag.venue,
             f"{spieltag.home} – {spieltag.guest}" if spieltag.home else "",
             str(evening.partien))
            for evening in season.evenings for spieltag in (evening.spieltag,)
        ),
        (1.1, 2.4, 2, 4.5, 0.8),
        text.t("saison_spieltage"),
    )  # fmt: skip
    tables = (
        players, *((teams,) if season.teams else ()),
        *((kasse_table(season.kasse, text),) if season.kasse else ()), spieltage,
    )  # fmt: skip
    return Document(
        text.t("saison_title"), tables,
        lines=(f"{text.t('sheet_scheme')}: {scheme_label(scheme.name, text)}", span),
        file_title=f"{text.t('saison_title')} {season.first_date} {season.last_date}",
        one_page=False,
    )  # fmt: skip


def season_csv(season: Season, lang: str = "de") -> bytes:
    """The season as CSV for German spreadsheet programs (UTF-8 with BOM, ``;``)."""
    return csv_text(document_rows(season_document(season, lang))).encode("utf-8")


def season_pdf(season: Season, lang: str = "de") -> bytes:
    """The season as a PDF on A4 pages (needs reportlab, the ``pi`` extra)."""
    from firmware.report.pdf import pdf_bytes

    return pdf_bytes(season_document(season, lang))


def season_data(season: Season) -> dict[str, Any]:
    """The season as JSON-ready data (``schocken saison --json``)."""
    return {
        "scoring": scheme_to_mapping(season.scheme),
        "spieltage": [
            {"id": e.spieltag.id, "name": e.spieltag.name, "date": e.spieltag.date,
             "venue": e.spieltag.venue, "home": e.spieltag.home, "guest": e.spieltag.guest,
             "partien": e.partien, "games": len(e.games)}
            for e in season.evenings
        ],
        "players": [
            {"place": p.place, "player": p.player, "score": p.score, "spieltage": p.spieltage,
             "games": p.games, "games_lost": p.games_lost, "halves_lost": p.halves_lost,
             "finals_lost": p.finals_lost, "durchmarsch": p.durchmarsch,
             "schock_aus": p.schock_aus}
            for p in season.players
        ],
        "teams": [
            {"place": t.place, "team": t.team, "matches": t.matches, "won": t.won,
             "drawn": t.drawn, "lost": t.lost, "score": t.score, "against": t.against}
            for t in season.teams
        ],
        "kasse": [line_data(line) for line in season.kasse] if season.kasse else None,
    }  # fmt: skip
