"""The Spielberichtsbogen's content, the same for the JSON, the CSV and the PDF.

Laid out like a league's paper sheet: the header (Spieltag, date, Spielort, home and guest
team, the scheme), the players with their seats (H1, H2, ..., G1, ...), league player numbers
(Spielernummer) and tables, one line per Partie with the losers of the first half, the second
half and the final or the Durchmarsch, each player's points and Schock aus per Partie as a
club card has them, the standings, and the signature lines of both sides.

What is printed is a :class:`Sheet`, a typed record: an evening's (:func:`evening_sheet`) or
any finished games' (:func:`make_sheet`, the hub's table of a round). :func:`sheet_rows` lays it
out for the CSV (for German spreadsheet programs: UTF-8 with a byte order mark, ``;`` between
the fields, :func:`firmware.report.document.csv_text`), :func:`sheet_document` for the PDF
(:func:`firmware.report.pdf.sheet_pdf`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.kasse import Kasse, KasseLine, kasse_lines
from engine.league import scharf_section
from engine.saison import evening_kasse
from engine.scoring import GameResult, Scheme, Standing, evening_points, standings
from engine.spieltag import (
    Evening,
    LeaguePlayer,
    Loss,
    LostGame,
    NotCounted,
    Uncounted,
    spieltag_to_mapping,
)
from firmware.report.document import Document, Table
from firmware.report.match_header import (
    MatchHeader,
    header_pairs,
    match_data,
    match_header,
    result_pairs,
    scharf_cell,
)
from firmware.report.money import kasse_data, kasse_rows, kasse_tables
from firmware.report.sheet_words import SheetWords, scheme_label, table_sizes_text
from firmware.words import Catalogue

__all__ = [
    "LOST_KEYS", "Partie", "Sheet", "SheetPlayer", "card_points", "evening_sheet", "kasse_note",
    "lost_data", "lost_line", "make_sheet", "points_cell", "sheet_data", "sheet_document",
    "sheet_rows", "standing_cells", "standings_heading", "uncounted_data", "uncounted_line",
]


@dataclass(frozen=True, slots=True)
class SheetPlayer:
    """A player's line in the sheet's list: seat and number only for a league match; a
    ``substitute`` (Auswechselspieler) on the seat of the player listed there, marked ``H3*``;
    ``unlisted``: played in a league match but on no seat of its list."""

    name: str
    seat: str
    number: str
    table: int
    substitute: bool = False
    unlisted: bool = False

    @property
    def column(self) -> str:
        """The player's column of the card of points: the seat (``H3*`` for a substitute),
        else the name."""
        return f"{self.seat}*" if self.substitute else self.seat or self.name

    @property
    def label(self) -> str:
        """How a Partie names the player: ``H1 Anna`` (``H3* Ida``) in a league match, else
        ``Anna``."""
        return f"{self.column} {self.name}" if self.seat else self.name

    def note(self, text: Catalogue) -> str:
        """The players list's note: substitute, not listed, or ""."""
        if self.substitute:
            return text.t("sheet_substitute")
        return text.t("sheet_unlisted") if self.unlisted else ""


@dataclass(frozen=True, slots=True)
class Partie:
    """A finished game on the sheet: its number (the Partie), its table, its result."""

    number: int
    table: int
    result: GameResult
    #: Where the Partie went scharf (1, 2: the half; 3: the final), None if it did not.
    scharf: int | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """What a Spielberichtsbogen prints: the header, the players (league seats first), the
    Partien in the order played, and the standings under the scheme."""

    name: str
    date: str
    scheme: Scheme
    players: tuple[SheetPlayer, ...]
    partien: tuple[Partie, ...]
    standings: tuple[Standing, ...]
    venue: str = ""
    home: str = ""
    guest: str = ""
    #: The Partien played that cannot be counted (a journal deleted or damaged), named under
    #: the Partien.
    lost: tuple[LostGame, ...] = ()
    #: The evening's Kasse and what each player owes (:mod:`engine.kasse`); None: none kept.
    #: It charges the games the scheme cannot score too (they were played), not those taken
    #: out, so a player may owe who has no line in the standings.
    kasse: Kasse | None = None
    kasse_lines: tuple[KasseLine, ...] = ()
    #: A league match's header and foot: league, match number, times, time box, team result,
    #: captains, remarks.
    match: MatchHeader = field(default_factory=MatchHeader)

    @property
    def noted(self) -> bool:
        """Whether a player of the list has a note (a substitute, one not listed)."""
        return any(p.substitute or p.unlisted for p in self.players)

    @property
    def timed(self) -> bool:
        """Whether the evening had a time box (the Partien say where each went scharf)."""
        return bool(self.match.time_box) or any(p.scharf is not None for p in self.partien)
    #: The finished games not counted (taken out, or of a table size the scheme cannot
    #: score), named under the Partien.
    uncounted: tuple[Uncounted, ...] = ()

    def labels(self) -> dict[str, str]:
        """How a Partie names each player (:attr:`SheetPlayer.label`)."""
        return {player.name: player.label for player in self.players}


def make_sheet(
    name: str,
    date: str,
    scheme: Scheme,
    partien: Sequence[Partie],
    *,
    league: Sequence[LeaguePlayer] = (),
    venue: str = "",
    home: str = "",
    guest: str = "",
    lost: Sequence[LostGame] = (),
    kasse: Kasse | None = None,
    match: MatchHeader | None = None,
    uncounted: Sequence[Uncounted] = (),
    owed: Sequence[KasseLine] | None = None,
) -> Sheet:
    """The sheet of ``partien``: the ``league`` players in seat order (home first, a seat's
    substitute after its player), then anyone else who played, in the order they first
    played (in a league match, marked as not listed); ScoringError without a Partie. Its Kasse
    (``kasse``) charges ``owed``, else the ``partien``."""
    listed = sorted(league, key=lambda p: (p.side != "H", int(p.seat[1:]), p.substitute))
    players = [SheetPlayer(p.name, p.seat, p.number, p.table, p.substitute) for p in listed]
    known = {p.name for p in players}
    for partie in partien:
        for player in partie.result.players:
            if player not in known:
                players.append(SheetPlayer(player, "", "", partie.table, unlisted=bool(home)))
                known.add(player)
    lines = standings(scheme, [partie.result for partie in partien])
    if kasse is None:
        owed = ()
    elif owed is None:
        owed = kasse_lines(kasse, [partie.result for partie in partien])
    return Sheet(
        name, date, scheme, tuple(players), tuple(partien), lines, venue=venue, home=home,
        guest=guest, lost=tuple(lost), kasse=kasse, kasse_lines=tuple(owed),
        match=match or MatchHeader(), uncounted=tuple(uncounted),
    )  # fmt: skip


def evening_sheet(evening: Evening) -> Sheet:
    """An evening's sheet of the games that count, naming those that do not (SpieltagError for
    an evening without a game that counts). Its Kasse charges every finished game but those
    taken out (:func:`engine.saison.evening_kasse`)."""
    lines = evening.standings()  # its own one line for an evening without games that count
    spieltag = evening.spieltag
    timed = bool(spieltag.time_box)  # only a time box makes a game scharf
    partien = [
        Partie(game.partie, game.table, game.result,
               scharf_section(game.setup, game.actions) if timed else None)
        for game in evening.counted
    ]  # fmt: skip
    return make_sheet(
        spieltag.name, spieltag.date, spieltag.scheme, partien, league=spieltag.players,
        venue=spieltag.venue, home=spieltag.home, guest=spieltag.guest, lost=evening.lost,
        kasse=spieltag.kasse, match=match_header(evening, lines), uncounted=evening.uncounted,
        owed=evening_kasse(evening),
    )  # fmt: skip


#: How a Partie that cannot be counted is named, per reason.
LOST_KEYS = {
    Loss.MISSING: "sheet_lost_missing", Loss.DAMAGED: "sheet_lost_damaged",
    Loss.ABSENT: "sheet_lost_absent",
}  # fmt: skip


def lost_line(game: LostGame, text: Catalogue) -> str:
    """One line naming a Partie that cannot be counted, and why (the reader's detail is for the
    log: it is English); ``text`` composes an evening's words."""
    return text.t(LOST_KEYS[game.loss], partie=game.partie, journal=game.journal)


def uncounted_line(game: Uncounted, scheme: Scheme, text: Catalogue) -> str:
    """One line naming a finished game the standings do not count, and why; ``text`` composes
    an evening's words."""
    if game.why is NotCounted.TAKEN_OUT:
        return text.t("sheet_taken_out", partie=game.partie)
    return text.t(
        "sheet_table_size", partie=game.partie, players=game.players,
        scheme=scheme_label(scheme.name, text), sizes=table_sizes_text(scheme.table_sizes, text),
    )


def uncounted_data(game: Uncounted) -> dict[str, Any]:
    """A finished game the standings do not count, as JSON-ready data."""
    return {"partie": game.partie, "players": game.players, "why": game.why.value}


def card_points(sheet: Sheet) -> list[dict[str, int]]:
    """Each Partie's points as the standings count them (under a lives scheme, no more lives
    than a player has left), so that a column adds up to the total."""
    return list(evening_points(sheet.scheme, [partie.result for partie in sheet.partien]))


def lost_data(game: LostGame) -> dict[str, Any]:
    """A Partie that cannot be counted, as JSON-ready data."""
    return {"partie": game.partie, "journal": game.journal, "loss": game.loss.value,
            "detail": game.detail}


def _standing_data(line: Standing) -> dict[str, Any]:
    return {
        "place": line.place, "player": line.player, "score": line.score, "games": line.games,
        "games_lost": line.games_lost, "halves_lost": line.halves_lost,
        "finals_lost": line.finals_lost, "durchmarsch": line.durchmarsch,
        "schock_aus": line.schock_aus, "out": line.out,
    }  # fmt: skip


def sheet_data(evening: Evening) -> dict[str, Any]:
    """The evening's sheet as JSON-ready data (``schocken sheet --json``)."""
    sheet = evening_sheet(evening)
    return {
        "spieltag": spieltag_to_mapping(evening.spieltag),
        "match": match_data(sheet.match),
        "players": [
            {"name": p.name, "seat": p.seat, "number": p.number, "table": p.table,
             "substitute": p.substitute, "unlisted": p.unlisted}
            for p in sheet.players
        ],
        "partien": [
            {
                "partie": partie.number,
                "table": partie.table,
                "players": list(result.players),
                "half_1": result.half_losers[0],
                "half_2": result.half_losers[1],
                "final": result.final_loser,
                "durchmarsch": result.loser if result.durchmarsch else None,
                "points": points,
                "schock_aus": {p: result.schock_aus(p) for p in result.players},
                "scharf": partie.scharf,
            }
            for partie, points in zip(sheet.partien, card_points(sheet), strict=True)
            for result in (partie.result,)
        ],
        "lost": [lost_data(game) for game in sheet.lost],
        "not_counted": [uncounted_data(game) for game in sheet.uncounted],
        "standings": [_standing_data(line) for line in sheet.standings],
        "kasse": kasse_data(sheet.kasse, sheet.kasse_lines),
    }


def sheet_rows(sheet: Sheet, lang: str = "de") -> list[list[str]]:
    """The sheet as rows of cells, in blocks separated by an empty row (the CSV's layout)."""
    text = SheetWords(lang)
    lines = sheet.standings
    players = sheet.players
    label = sheet.labels()
    scheme = sheet.scheme
    match = sheet.match
    league, number, start, end, time_box = ([label, value] for label, value in
                                            header_pairs(match, text))  # fmt: skip
    rows: list[list[str]] = [[text.t("sheet_title")]]
    rows += [
        [text.t("sheet_spieltag"), sheet.name], league, number,
        [text.t("sheet_date"), sheet.date], start, end,
        [text.t("sheet_venue"), sheet.venue],
        [text.t("sheet_home"), sheet.home],
        [text.t("sheet_guest"), sheet.guest],
        [text.t("sheet_scheme"), scheme_label(scheme.name, text)], time_box,
    ]  # fmt: skip
    if match.team is not None:
        rows += [list(cells) for cells in result_pairs(match.team, text)]
    note = [text.t("sheet_note")] if sheet.noted else []
    rows += [[], [text.t("sheet_seat"), text.t("sheet_name"), text.t("sheet_number"),
                  text.t("sheet_table"), *note]]  # fmt: skip
    rows += [
        [p.seat, p.name, p.number, str(p.table), *([p.note(text)] if note else [])]
        for p in players
    ]
    scharf = [text.t("sheet_scharf")] if sheet.timed else []
    rows += [[], [
        text.t("sheet_partie"), text.t("sheet_table"), text.t("sheet_half1"),
        text.t("sheet_half2"), text.t("sheet_final"), text.t("sheet_durchmarsch"), *scharf,
    ]]  # fmt: skip
    for partie in sheet.partien:
        result = partie.result
        rows.append([
            str(partie.number), str(partie.table), label[result.half_losers[0]],
            label[result.half_losers[1]],
            label[result.final_loser] if result.final_loser else "",
            label[result.loser] if result.durchmarsch else "",
            *([scharf_cell(partie.scharf, text)] if scharf else []),
        ])  # fmt: skip
    if sheet.lost:  # named under the Partien: their numbers stay theirs
        rows += [[lost_line(game, text)] for game in sheet.lost]
    rows += [[uncounted_line(game, scheme, text)] for game in sheet.uncounted]
    score_key = "standings_lives" if scheme.counts_lives else "standings_points"
    by_name = {line.player: line for line in lines}
    rows += [[], [text.t("sheet_points_per_partie"), *(p.label for p in players)]]
    if scheme.counts_lives:  # the column then adds up to the lives left
        rows.append([text.t("sheet_lives_start"),
                     *(str(scheme.lives) if p.name in by_name else "" for p in players)])
    for partie, points in zip(sheet.partien, card_points(sheet), strict=True):
        rows.append([
            str(partie.number),
            *(points_cell(points.get(p.name), partie.result.schock_aus(p.name)) for p in players),
        ])
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
    rows += kasse_rows(
        sheet.kasse, sheet.kasse_lines, text, _kasse_label(label), kasse_note(sheet, text)
    )
    if sheet.home or match.remarks:
        rows += [[], [text.t("sheet_remarks"), match.remarks]]
    rows += [[], [text.t("sheet_signature_home"), "", text.t("sheet_signature_guest")]]
    if match.home_captain or match.guest_captain:
        rows.append(list(captain_lines(match, text)))
    return rows


def captain_lines(match: MatchHeader, text: Catalogue) -> tuple[str, str, str]:
    """The captains under the signatures: home's, a gap, guest's ("" for one not given)."""
    home = text.t("sheet_captain_home", name=match.home_captain) if match.home_captain else ""
    guest = (
        text.t("sheet_captain_guest", name=match.guest_captain) if match.guest_captain else ""
    )
    return home, "", guest


def points_cell(points: int | None, schock_aus: int) -> str:
    """A card's cell: the points, with the Schock aus as ``+2 (1 SA)``; empty if not played."""
    if points is None:
        return ""
    return f"{points} ({schock_aus} SA)" if schock_aus else str(points)


def standings_heading(text: Catalogue, lives: bool) -> list[str]:
    """The standings' column headings."""
    keys = (
        "standings_place", "standings_player", "standings_lives" if lives else "standings_points",
        "standings_games", "standings_lost", "standings_halves", "standings_finals",
        "standings_durchmarsch", "standings_schock_aus",
    )  # fmt: skip
    return [text.t(key) for key in keys]


def kasse_note(sheet: Sheet, text: Catalogue) -> str:
    """Under the Kasse's prices: the games the standings do not count but the Kasse charges (a
    table the scheme cannot score; one taken out charges nothing); "" for none."""
    charged = [game.partie for game in sheet.uncounted if game.why is NotCounted.TABLE_SIZE]
    if sheet.kasse is None or not charged:
        return ""
    key = "kasse_charges_uncounted_many" if len(charged) > 1 else "kasse_charges_uncounted_one"
    return text.t(key, numbers=", ".join(str(partie) for partie in charged))


def _kasse_label(label: dict[str, str]) -> Callable[[str], str]:
    """How the Kasse names a player: as the Partien do, or by name, one who played only games
    the standings do not count."""
    return lambda player: label.get(player, player)


def standing_cells(line: Standing, label: str, text: Catalogue) -> list[str]:
    """One standings line as cells; a player without lives is marked out."""
    score = f"{line.score} ({text.t('standings_out')})" if line.out else str(line.score)
    return [
        f"{line.place}.", label, score, str(line.games), str(line.games_lost),
        str(line.halves_lost), str(line.finals_lost), str(line.durchmarsch), str(line.schock_aus),
    ]  # fmt: skip


def sheet_document(sheet: Sheet, lang: str = "de") -> Document:
    """The sheet as one A4 page is laid out: the header, the players, the Partien, the points
    per Partie as a club card has them, the standings, and both sides' signature lines."""
    text = SheetWords(lang)
    players = sheet.players
    label = sheet.labels()
    lines = sheet.standings
    scheme = sheet.scheme
    by_name = {line.player: line for line in lines}
    header = Table((), _header_rows(sheet, text), (1.3, 4.2, 1.5, 4.0))
    note = (text.t("sheet_note"),) if sheet.noted else ()
    listed = Table(
        (text.t("sheet_seat"), text.t("sheet_name"), text.t("sheet_number"),
         text.t("sheet_table"), text.t("standings_schock_aus"), *note),
        tuple((p.seat, p.name, p.number, str(p.table),
               str(by_name[p.name].schock_aus) if p.name in by_name else "",
               *((p.note(text),) if note else ()))
              for p in players),
        (1, 4, 2, 1, 1.5, *((2.5,) if note else ())),
        text.t("sheet_players"),
    )  # fmt: skip
    scharf = (text.t("sheet_scharf"),) if sheet.timed else ()
    partien = Table(
        (text.t("sheet_partie"), text.t("sheet_table"), text.t("sheet_half1"),
         text.t("sheet_half2"), text.t("sheet_final"), text.t("sheet_durchmarsch"), *scharf),
        tuple((str(partie.number), str(partie.table), label[result.half_losers[0]],
               label[result.half_losers[1]],
               label[result.final_loser] if result.final_loser else "",
               label[result.loser] if result.durchmarsch else "",
               *((scharf_cell(partie.scharf, text),) if scharf else ()))
              for partie in sheet.partien for result in (partie.result,)),
        (1, 0.8, 3, 3, 3, 3, *((1.6,) if scharf else ())),
        text.t("sheet_partien"),
    )  # fmt: skip
    # The Partien that cannot be counted or are not, named under the Partien (their numbers
    # stay theirs).
    lost = Table((), (*((lost_line(game, text),) for game in sheet.lost),
                      *((uncounted_line(game, scheme, text),) for game in sheet.uncounted)), (1,))
    score_key = "standings_lives" if scheme.counts_lives else "standings_points"
    # Under a lives scheme the card starts with the lives, so that each column adds up.
    start = ((text.t("sheet_lives_start"),
              *(str(scheme.lives) if p.name in by_name else "" for p in players)),)
    card = Table(
        (text.t("sheet_partie"), *(p.column for p in players)),
        (
            *(start if scheme.counts_lives else ()),
            *(
                (str(partie.number), *(
                    points_cell(points.get(p.name), partie.result.schock_aus(p.name))
                    for p in players
                ))
                for partie, points in zip(sheet.partien, card_points(sheet), strict=True)
            ),
            (f"{text.t('sheet_totals')} ({text.t(score_key)})",
             *(str(by_name[p.name].score) if p.name in by_name else "" for p in players)),
        ),
        (1.6, *([1.0] * len(players))),
        text.t("sheet_points_per_partie"),
    )  # fmt: skip
    standing = Table(
        tuple(standings_heading(text, scheme.counts_lives)),
        tuple(tuple(standing_cells(line, label[line.player], text)) for line in lines),
        (0.7, 3, 1.1, 0.9, 1, 1, 0.9, 1.5, 1.3),
        text.t("sheet_standings"),
    )
    kasse = () if sheet.kasse is None else kasse_tables(
        sheet.kasse, sheet.kasse_lines, text, _kasse_label(label), kasse_note(sheet, text)
    )
    match = sheet.match
    # A league's sheet has room for remarks and a protest: what was given, and lines to write.
    remarks = Table(
        (), ((match.remarks,), ("",), ("",)), (1,), text.t("sheet_remarks")
    )  # fmt: skip
    home_captain, _, guest_captain = captain_lines(match, text)
    return Document(
        text.t("sheet_title"),
        (header, listed, partien, *((lost,) if sheet.lost or sheet.uncounted else ()), card,
         standing, *kasse, *((remarks,) if sheet.home or match.remarks else ())),
        signatures=(text.t("sheet_signature_home"), text.t("sheet_signature_guest")),
        signature_names=(home_captain, guest_captain) if any(
            (home_captain, guest_captain)) else (),
        file_title=f"{text.t('sheet_title')} {sheet.name} {sheet.date}",
    )  # fmt: skip


def _header_rows(sheet: Sheet, text: Catalogue) -> tuple[tuple[str, ...], ...]:
    """The PDF's header: two fields a row, label and value; the sides' names, which may be
    long, a row each (none for an evening that is no league match). A row with nothing to say
    is left out, but a league match keeps its fields to be filled in by hand; the team's result
    comes last."""
    match = sheet.match
    league, number, start, end, time_box = header_pairs(match, text)
    pairs = [
        ((text.t("sheet_spieltag"), sheet.name), (text.t("sheet_date"), sheet.date), True),
        (league, number, bool(sheet.home)),
        ((text.t("sheet_venue"), sheet.venue),
         (text.t("sheet_scheme"), scheme_label(sheet.scheme.name, text)), True),
        (start, end, bool(sheet.home)),
        (time_box if match.time_box else ("", ""), ("", ""), False),
    ]  # fmt: skip
    if match.team is not None:
        result = [(label, f"{home} : {guest}") for label, home, guest in
                  result_pairs(match.team, text)]  # fmt: skip
        pairs.append((result[0], result[1] if len(result) > 1 else ("", ""), True))
    rows: list[tuple[str, ...]] = [
        (f"{one[0]}:" if one[0] else "", one[1], f"{two[0]}:" if two[0] else "", two[1])
        for one, two, kept in pairs
        if kept or one[1] or two[1]
    ]
    if sheet.home or sheet.guest:
        sides = [(f"{text.t('sheet_home')}:", sheet.home),
                 (f"{text.t('sheet_guest')}:", sheet.guest)]  # fmt: skip
        at = len(rows) - (match.team is not None)
        rows[at:at] = sides
    return tuple(rows)
