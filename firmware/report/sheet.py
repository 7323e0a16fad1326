"""The Spielberichtsbogen's content, the same for the JSON, the CSV and the PDF.

Laid out like a league's paper sheet: the header (Spieltag, date, Spielort, home and guest
team, the scheme), the players with their seats (H1, H2, ..., G1, ...), league player numbers
(Spielernummer) and tables, one line per Partie with the losers of the first half, the second
half and the final or the Durchmarsch, each player's points and Schock aus per Partie as a
club card has them, the standings, and the signature lines of both sides.

CSV for German spreadsheet programs: UTF-8 with a byte order mark, ``;`` between the fields.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from engine.scoring import SCHEME_PRESETS, Standing, game_points
from engine.spieltag import Evening, LeaguePlayer, Loss, LostGame, spieltag_to_mapping
from firmware.report.sheet_words import SheetWords
from firmware.words import Catalogue

__all__ = [
    "LOST_KEYS", "SCHEME_KEYS", "SheetPlayer", "csv_text", "lost_data", "lost_line",
    "points_cell", "scheme_label", "sheet_data",
    "sheet_players", "sheet_rows", "standing_cells", "standings_heading",
]


@dataclass(frozen=True, slots=True)
class SheetPlayer:
    """A player's line in the sheet's list: seat and number only for a league match."""

    name: str
    seat: str
    number: str
    table: int

    @property
    def label(self) -> str:
        """How a Partie names the player: ``H1 Anna`` in a league match, else ``Anna``."""
        return f"{self.seat} {self.name}" if self.seat else self.name


#: Each preset scheme's name, as the key of an evening's words (firmware.report.sheet_words).
SCHEME_KEYS = {
    "verlustpunkte": "scheme_verlustpunkte", "siegpunkte": "scheme_siegpunkte",
    "platzpunkte": "scheme_platzpunkte", "leben": "scheme_leben",
}  # fmt: skip
assert set(SCHEME_KEYS) == set(SCHEME_PRESETS)


def scheme_label(name: str, text: Catalogue) -> str:
    """The scheme's name in ``text``'s language (a preset's German name); ``text`` is the words
    of any surface that shows an evening (they compose
    :data:`~firmware.report.sheet_words.SHEET_WORDS`)."""
    return text.t(SCHEME_KEYS[name]) if name in SCHEME_KEYS else name


def sheet_players(evening: Evening) -> tuple[SheetPlayer, ...]:
    """The sheet's players: the league's in seat order (home first), then anyone else who
    played, in the order they first played."""
    listed: list[LeaguePlayer] = sorted(
        evening.spieltag.players, key=lambda p: (p.side != "H", int(p.seat[1:]))
    )
    players = [SheetPlayer(p.name, p.seat, p.number, p.table) for p in listed]
    known = {p.name for p in players}
    for game in evening.games:
        for name in game.setup.players:
            if name not in known:
                players.append(SheetPlayer(name, "", "", game.table))
                known.add(name)
    return tuple(players)


def _standing_data(line: Standing) -> dict[str, Any]:
    return {
        "place": line.place, "player": line.player, "score": line.score, "games": line.games,
        "games_lost": line.games_lost, "halves_lost": line.halves_lost,
        "finals_lost": line.finals_lost, "durchmarsch": line.durchmarsch,
        "schock_aus": line.schock_aus, "out": line.out,
    }  # fmt: skip


#: How a Partie that cannot be counted is named, per reason.
LOST_KEYS = {Loss.MISSING: "sheet_lost_missing", Loss.DAMAGED: "sheet_lost_damaged"}


def lost_line(game: LostGame, text: Catalogue) -> str:
    """One line naming a Partie that cannot be counted, and why (the reader's detail is for the
    log: it is English)."""
    return text.t(LOST_KEYS[game.loss], partie=game.partie, journal=game.journal)


def lost_data(game: LostGame) -> dict[str, Any]:
    """A Partie that cannot be counted, as JSON-ready data."""
    return {"partie": game.partie, "journal": game.journal, "loss": game.loss.value,
            "detail": game.detail}


def sheet_data(evening: Evening) -> dict[str, Any]:
    """The sheet as JSON-ready data (``schocken sheet --json``)."""
    scheme = evening.spieltag.scheme
    return {
        "spieltag": spieltag_to_mapping(evening.spieltag),
        "players": [
            {"name": p.name, "seat": p.seat, "number": p.number, "table": p.table}
            for p in sheet_players(evening)
        ],
        "partien": [
            {
                "partie": game.partie,
                "table": game.table,
                "players": list(game.setup.players),
                "half_1": game.result.half_losers[0],
                "half_2": game.result.half_losers[1],
                "final": game.result.final_loser,
                "durchmarsch": game.result.loser if game.result.durchmarsch else None,
                "points": game_points(scheme, game.result),
                "schock_aus": {p: game.result.schock_aus(p) for p in game.setup.players},
            }
            for game in evening.games
        ],
        "lost": [lost_data(game) for game in evening.lost],
        "standings": [_standing_data(line) for line in evening.standings()],
    }


def sheet_rows(evening: Evening, lang: str = "de") -> list[list[str]]:
    """The sheet as rows of cells, in blocks separated by an empty row (the CSV's layout)."""
    text = SheetWords(lang)
    spieltag = evening.spieltag
    lines = evening.standings()
    players = sheet_players(evening)
    label = {p.name: p.label for p in players}
    scheme = spieltag.scheme
    rows: list[list[str]] = [[text.t("sheet_title")]]
    rows += [
        [text.t("sheet_spieltag"), spieltag.name],
        [text.t("sheet_date"), spieltag.date],
        [text.t("sheet_venue"), spieltag.venue],
        [text.t("sheet_home"), spieltag.home],
        [text.t("sheet_guest"), spieltag.guest],
        [text.t("sheet_scheme"), scheme_label(scheme.name, text)],
        [],
        [text.t("sheet_seat"), text.t("sheet_name"), text.t("sheet_number"), text.t("sheet_table")],
    ]
    rows += [[p.seat, p.name, p.number, str(p.table)] for p in players]
    rows += [[], [
        text.t("sheet_partie"), text.t("sheet_table"), text.t("sheet_half1"),
        text.t("sheet_half2"), text.t("sheet_final"), text.t("sheet_durchmarsch"),
    ]]  # fmt: skip
    for game in evening.games:
        result = game.result
        rows.append([
            str(game.partie), str(game.table), label[result.half_losers[0]],
            label[result.half_losers[1]],
            label[result.final_loser] if result.final_loser else "",
            label[result.loser] if result.durchmarsch else "",
        ])  # fmt: skip
    if evening.lost:  # named under the Partien: their numbers stay theirs
        rows += [[lost_line(game, text)] for game in evening.lost]
    score_key = "standings_lives" if scheme.counts_lives else "standings_points"
    rows += [[], [text.t("sheet_points_per_partie"), *(p.label for p in players)]]
    for game in evening.games:
        points = game_points(scheme, game.result)
        rows.append([
            str(game.partie),
            *(points_cell(points.get(p.name), game.result.schock_aus(p.name)) for p in players),
        ])
    by_name = {line.player: line for line in lines}
    rows.append([
        f"{text.t('sheet_totals')} ({text.t(score_key)})",
        *(str(by_name[p.name].score) if p.name in by_name else "" for p in players),
    ])
    rows.append([
        text.t("standings_schock_aus"),
        *(str(by_name[p.name].schock_aus) if p.name in by_name else "" for p in players),
    ])
    rows += [[], standings_heading(text, scheme.counts_lives)]
    rows += [standing_cells(line, label[line.player], text) for line in lines]
    rows += [[], [text.t("sheet_signature_home"), "", text.t("sheet_signature_guest")]]
    return rows


def points_cell(points: int | None, schock_aus: int) -> str:
    """A card's cell: the points, with the Schock aus as ``+2 (1 SA)``; empty if not played."""
    if points is None:
        return ""
    return f"{points} ({schock_aus} SA)" if schock_aus else str(points)


def standings_heading(text: Catalogue, lives: bool) -> list[str]:
    """The standings' column headings in ``text``'s language."""
    keys = (
        "standings_place", "standings_player", "standings_lives" if lives else "standings_points",
        "standings_games", "standings_lost", "standings_halves", "standings_finals",
        "standings_durchmarsch", "standings_schock_aus",
    )  # fmt: skip
    return [text.t(key) for key in keys]


def standing_cells(line: Standing, label: str, text: Catalogue) -> list[str]:
    """One standings line as cells; a player without lives is marked out."""
    score = f"{line.score} ({text.t('standings_out')})" if line.out else str(line.score)
    return [
        f"{line.place}.", label, score, str(line.games), str(line.games_lost),
        str(line.halves_lost), str(line.finals_lost), str(line.durchmarsch), str(line.schock_aus),
    ]  # fmt: skip


def csv_text(rows: list[list[str]]) -> str:
    """The rows as CSV for German spreadsheet programs: BOM, ``;``, CRLF line ends."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()
