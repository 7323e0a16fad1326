"""A league match's header and foot on the Spielberichtsbogen, the same for the JSON, the CSV
and the PDF: the league or Staffel, the match's number, when it began and ended, the time box,
the team's result (Heim's total against Gast's, and the Mannschaftspunkte where the scheme's
``team_points`` give them), the captains under the signatures and the remarks (a protest).

When the match began is when its Spieltag was begun (the earlier table's ``spieltag begin``);
when it ended, when its last Partie ended (that game's journal's last write).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.league import TeamResult, team_result
from engine.scoring import Standing
from engine.spieltag import Evening
from firmware.words import Catalogue

__all__ = [
    "SCHARF_KEYS", "MatchHeader", "header_pairs", "match_data", "match_header",
    "result_pairs", "scharf_cell", "time_box_cell",
]


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """What a league's sheet prints beyond an evening's: all "" (and no ``team``) for an
    evening that is no league match and was begun without them."""

    league: str = ""
    match_number: str = ""
    #: When the match began and ended, ``HH:MM`` by the wall clock; "" where not known.
    start: str = ""
    end: str = ""
    #: The time box in minutes, 0 for none.
    time_box: int = 0
    home_captain: str = ""
    guest_captain: str = ""
    remarks: str = ""
    team: TeamResult | None = None


def _clock(moment: str) -> str:
    """``2026-12-01T19:02:11+01:00`` as ``19:02``; "" for ""."""
    return moment[11:16] if len(moment) >= 16 else ""


def match_header(evening: Evening, lines: Sequence[Standing]) -> MatchHeader:
    """The league's header of ``evening``, its team result from the standings ``lines``."""
    spieltag = evening.spieltag
    ends = [game.ended_at for game in evening.games if game.ended_at]
    return MatchHeader(
        spieltag.league, spieltag.match_number, _clock(spieltag.began_at),
        _clock(max(ends)) if ends else "", spieltag.time_box, spieltag.home_captain,
        spieltag.guest_captain, spieltag.remarks,
        team_result(spieltag.scheme, spieltag.players, lines) if spieltag.home else None,
    )  # fmt: skip


def time_box_cell(minutes: int, text: Catalogue) -> str:
    """The time box as the sheet prints it: ``70 Minuten``, or ``ohne``."""
    if not minutes:
        return text.t("sheet_time_box_none")
    return text.t("sheet_time_box_minutes", minutes=minutes)


def header_pairs(header: MatchHeader, text: Catalogue) -> list[tuple[str, str]]:
    """The header's fields as (label, value): the league, the match number, start, end and the
    time box."""
    return [
        (text.t("sheet_league"), header.league),
        (text.t("sheet_match_number"), header.match_number),
        (text.t("sheet_start"), header.start),
        (text.t("sheet_end"), header.end),
        (text.t("sheet_time_box"), time_box_cell(header.time_box, text)),
    ]


def result_pairs(team: TeamResult, text: Catalogue) -> list[tuple[str, str, str]]:
    """The team's result as (label, Heim's, Gast's): the totals, the Mannschaftspunkte."""
    rows = [(text.t("sheet_result"), str(team.home_total), str(team.guest_total))]
    if team.home_points is not None and team.guest_points is not None:
        rows.append((text.t("sheet_team_points"), str(team.home_points), str(team.guest_points)))
    return rows


#: Where a Partie went scharf (:func:`engine.league.scharf_section`), as the key of its word.
SCHARF_KEYS = {1: "sheet_scharf_half_1", 2: "sheet_scharf_half_2", 3: "sheet_scharf_final"}


def scharf_cell(section: int | None, text: Catalogue) -> str:
    """The Partien's ``scharf ab`` cell: the half or the final it went scharf in, or ""."""
    return text.t(SCHARF_KEYS[section]) if section is not None else ""


def match_data(header: MatchHeader) -> dict[str, Any]:
    """The header as JSON-ready data (the sheet's ``match``)."""
    team = header.team
    return {
        "league": header.league, "match_number": header.match_number,
        "start": header.start or None, "end": header.end or None,
        "time_box": header.time_box or None,
        "home_captain": header.home_captain, "guest_captain": header.guest_captain,
        "remarks": header.remarks,
        "team": None if team is None else {
            "home_total": team.home_total, "guest_total": team.guest_total,
            "winner": {"H": "home", "G": "guest"}.get(team.winner or ""),
            "home_points": team.home_points, "guest_points": team.guest_points,
        },
    }  # fmt: skip
