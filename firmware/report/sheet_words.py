"""The words of the Spielberichtsbogen and of an evening's standings, in German and English.

They live below the device and the hub: the league's sheet (:mod:`firmware.report.sheet`,
:mod:`firmware.report.pdf`) says them, and every surface that shows an evening composes them with
its own words (:mod:`firmware.words`): the device's screens, the table's page (a few, by name),
the hub and the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.words import Catalogue

if TYPE_CHECKING:
    from engine.scoring import Scheme

__all__ = [
    "SCHEME_KEYS", "SHEET_WORDS", "SIZE_KEYS", "SheetWords", "scheme_label", "table_sizes_text",
    "table_warning",
]

#: key -> (German, English)
SHEET_WORDS: dict[str, tuple[str, str]] = {
    # An evening's words wherever it is shown (the device, the table's page, the hub, the
    # command line): the scoring schemes' names, the clubs' own German terms in both languages,
    # and the standings' column titles
    "scheme_verlustpunkte": ("Verlustpunkte", "Verlustpunkte"),
    "scheme_siegpunkte": ("Siegpunkte", "Siegpunkte"),
    "scheme_platzpunkte": ("Platzpunkte", "Platzpunkte"),
    "scheme_leben": ("Leben", "Leben"),
    "standings_place": ("Platz", "Place"),
    "standings_player": ("Spieler", "Player"),
    "standings_points": ("Punkte", "Points"),
    "standings_lives": ("Leben", "Lives"),
    "standings_games": ("Spiele", "Games"),
    "standings_lost": ("verloren", "Lost"),
    "standings_halves": ("Hälften", "Halves"),
    "standings_finals": ("Finale", "Finals"),
    "standings_durchmarsch": ("Durchmarsch", "Durchmarsch"),
    "standings_schock_aus": ("Schock aus", "Schock aus"),
    "standings_out": ("raus", "out"),
    # the Kasse, a Stammtisch's money book, wherever an evening or a season shows it
    # (firmware.report.money): an amount in euros, its columns and its price list
    "kasse_amount": ("{euros},{cents} €", "€{euros}.{cents}"),
    "kasse_thousands": (".", ","),
    "kasse_title": ("Kasse", "Kasse"),
    "kasse_season": ("Kasse Saison", "Kasse season"),
    "kasse_schock_aus_against": ("Schock aus gegen", "Schock aus against"),
    "kasse_evenings": ("Abende", "Evenings"),
    "kasse_prices": (
        "Hälfte {half_lost}, Finale {final_lost}, Durchmarsch {durchmarsch}, Schock aus gegen "
        "{schock_aus_against}, Einsatz {stake} je Abend",
        "Half {half_lost}, final {final_lost}, Durchmarsch {durchmarsch}, Schock aus against "
        "{schock_aus_against}, stake {stake} an evening",
    ),
    # under an evening's price list: the games its standings do not count (a table the scheme
    # cannot score) that the Kasse charges all the same ({numbers}: "4" or "4, 7")
    "kasse_charges_uncounted_one": (
        "Die Kasse zählt auch Partie {numbers}: gespielt, aber nicht gewertet.",
        "The Kasse charges game {numbers} too: played, but not counted.",
    ),
    "kasse_charges_uncounted_many": (
        "Die Kasse zählt auch die Partien {numbers}: gespielt, aber nicht gewertet.",
        "The Kasse charges games {numbers} too: played, but not counted.",
    ),
    # the season over many Spieltage (firmware.report.season_sheet): its head, the players' and
    # the teams' tables, the Spieltage it adds
    "saison_title": ("Saison", "Season (Saison)"),
    "saison_span": ("{n} Spieltage vom {first} bis {last}", "{n} Spieltage, {first} to {last}"),
    "saison_span_one": ("1 Spieltag am {first}", "1 Spieltag on {first}"),
    "saison_lives_left": ("Restleben", "Lives left"),
    "saison_attended": ("Spieltage", "Spieltage"),
    "saison_teams": ("Mannschaften", "Teams"),
    "saison_team": ("Mannschaft", "Team"),
    "saison_matches": ("Begegnungen", "Matches"),
    "saison_won": ("gewonnen", "Won"),
    "saison_drawn": ("unentschieden", "Drawn"),
    "saison_against": ("Gegenpunkte", "Against"),
    "saison_spieltage": ("Spieltage", "Spieltage"),
    "saison_match": ("Begegnung", "Match"),
    # the Spielberichtsbogen (firmware.report.sheet, firmware.report.pdf): its head, the
    # players, the Partien, the card of points, the standings and the signatures
    "sheet_title": ("Spielberichtsbogen", "Match report (Spielberichtsbogen)"),
    "sheet_spieltag": ("Spieltag", "Spieltag"),
    "sheet_date": ("Datum", "Date"),
    "sheet_venue": ("Spielort", "Venue"),
    "sheet_home": ("Heim", "Home"),
    "sheet_guest": ("Gast", "Guest"),
    "sheet_scheme": ("Wertung", "Scoring"),
    "sheet_players": ("Spieler", "Players"),
    "sheet_seat": ("Sitz", "Seat"),
    "sheet_name": ("Name", "Name"),
    "sheet_number": ("Spielernummer", "Player number"),
    "sheet_table": ("Tisch", "Table"),
    "sheet_partien": ("Partien", "Games"),
    "sheet_partie": ("Partie", "Game"),
    "sheet_half1": ("Verlierer 1. Hälfte", "Lost half 1"),
    "sheet_half2": ("Verlierer 2. Hälfte", "Lost half 2"),
    "sheet_final": ("Verlierer Finale", "Lost the final"),
    "sheet_durchmarsch": ("Durchmarsch", "Durchmarsch"),
    "sheet_points_per_partie": ("Punkte je Partie", "Points per game"),
    "sheet_standings": ("Stand", "Standings"),
    "sheet_totals": ("Summe", "Total"),
    "sheet_signature_home": ("Unterschrift Heim", "Signature home"),
    "sheet_signature_guest": ("Unterschrift Gast", "Signature guest"),
    # a league match's header and foot (firmware.report.match_header): the league, the match's
    # number, when it began and ended, the time box, the team's result, the captains under the
    # signatures, the remarks; the players' notes and where a Partie went scharf
    "sheet_league": ("Liga/Staffel", "League/Staffel"),
    "sheet_match_number": ("Spielnummer", "Match number"),
    "sheet_start": ("Beginn", "Start"),
    "sheet_end": ("Ende", "End"),
    "sheet_time_box": ("Zeitlimit", "Time box"),
    "sheet_time_box_minutes": ("{minutes} Minuten", "{minutes} minutes"),
    "sheet_time_box_none": ("ohne", "none"),
    "sheet_result": ("Ergebnis (H : G)", "Result (H : G)"),
    "sheet_team_points": ("Mannschaftspunkte", "Team points"),
    "sheet_captain_home": ("Kapitän Heim: {name}", "Captain home: {name}"),
    "sheet_captain_guest": ("Kapitän Gast: {name}", "Captain guest: {name}"),
    "sheet_remarks": ("Bemerkungen / Protest", "Remarks / protest"),
    "sheet_note": ("Hinweis", "Note"),
    "sheet_substitute": ("Auswechselspieler", "Substitute (Auswechselspieler)"),
    "sheet_unlisted": ("nicht gemeldet", "not listed"),
    "sheet_scharf": ("scharf ab", "scharf from"),
    "sheet_scharf_half_1": ("1. Hälfte", "half 1"),
    "sheet_scharf_half_2": ("2. Hälfte", "half 2"),
    "sheet_scharf_final": ("Finale", "the final"),
    # a player of a league match on no seat (`schocken sheet`'s note on stderr)
    "sheet_unlisted_line": (
        "{name} spielte Partie {partie}, steht aber auf keinem Sitz der Liste: als "
        "Auswechselspieler melden (schocken spieltag substitute SITZ={name})",
        "{name} played game {partie} but is on no seat of the list: register them as a "
        "substitute (schocken spieltag substitute SEAT={name})",
    ),
    # a Partie that cannot be counted: its journal is gone, or damaged (the sheet, `schocken
    # stats --spieltag`, the notes on stderr)
    "sheet_lost_missing": (
        "Partie {partie} nicht gewertet: {journal} fehlt",
        "Game {partie} not counted: {journal} is missing",
    ),
    "sheet_lost_damaged": (
        "Partie {partie} nicht gewertet: {journal} ist beschädigt",
        "Game {partie} not counted: {journal} is damaged",
    ),
    "sheet_lost_absent": (
        "Partie {partie} nicht gewertet: fehlt in {journal}",
        "Game {partie} not counted: missing from {journal}",
    ),
    # a finished game the standings do not count: taken out, or of a table size the scheme
    # cannot score ({sizes}: the sizes it scores, as table_sizes_text words them); the same
    # words warn before such a game begins (the device, the page)
    "sheet_taken_out": (
        "Partie {partie} gestrichen: zählt nicht", "Game {partie} taken out: not counted"
    ),
    "sheet_table_size": (
        "Partie {partie} zählt nicht: {players} Spieler, {scheme} zählt {sizes}",
        "Game {partie} not counted: {players} players, {scheme} counts at tables of {sizes}",
    ),
    "scheme_counts_sizes": ("{scheme} zählt {sizes}", "{scheme} counts at tables of {sizes}"),
    "game_does_not_count": ("dieses Spiel zählt nicht", "this game does not count"),
    "size_2": ("zu zweit", "2"),
    "size_3": ("zu dritt", "3"),
    "size_4": ("zu viert", "4"),
    "size_5": ("zu fünft", "5"),
    "size_6": ("zu sechst", "6"),
    "size_7": ("zu siebt", "7"),
    "size_8": ("zu acht", "8"),
    "size_9": ("zu neunt", "9"),
    "size_10": ("zu zehnt", "10"),
    "sizes_or": ("oder", "or"),
    # a lives scheme on the sheet: the lives each player starts with (the card's first row)
    "sheet_lives_start": ("Leben zu Beginn", "Lives at the start"),
    # an evening without a finished game yet (the device's standings, `schocken stats`)
    "spieltag_none": (
        "Noch kein beendetes Spiel an diesem Spieltag.", "No finished game on this Spieltag yet."
    ),
}


class SheetWords(Catalogue):
    """The sheet's words in one language."""

    HOMES = (SHEET_WORDS,)


#: Each preset scheme's name, as the key of its word above (one for every preset of
#: :data:`engine.scoring.SCHEME_PRESETS`: tests/engine/test_scoring.py holds them equal).
SCHEME_KEYS = {
    "verlustpunkte": "scheme_verlustpunkte", "siegpunkte": "scheme_siegpunkte",
    "platzpunkte": "scheme_platzpunkte", "leben": "scheme_leben",
}  # fmt: skip


def scheme_label(name: str, text: Catalogue) -> str:
    """The scheme's name in ``text``'s language (a preset's German name); ``text`` is the words
    of any surface that shows an evening (they compose
    :data:`SHEET_WORDS`)."""
    return text.t(SCHEME_KEYS[name]) if name in SCHEME_KEYS else name


#: Each table size a place scheme may score (:data:`engine.scoring` allows 2 to 10), as the
#: key of its word above.
SIZE_KEYS = {
    2: "size_2", 3: "size_3", 4: "size_4", 5: "size_5", 6: "size_6", 7: "size_7",
    8: "size_8", 9: "size_9", 10: "size_10",
}  # fmt: skip


def table_sizes_text(sizes: tuple[int, ...], text: Catalogue) -> str:
    """The table sizes a scheme scores in words: ``zu dritt oder zu viert``, ``three or
    four``."""
    words = [text.t(SIZE_KEYS[size]) for size in sizes]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {text.t('sizes_or')} {words[-1]}"


def table_warning(scheme: Scheme, text: Catalogue) -> str:
    """What the device and the page say before a game the scheme cannot score begins:
    ``Platzpunkte zählt zu dritt oder zu viert: dieses Spiel zählt nicht``."""
    counts = text.t(
        "scheme_counts_sizes", scheme=scheme_label(scheme.name, text),
        sizes=table_sizes_text(scheme.table_sizes, text),
    )
    return f"{counts}: {text.t('game_does_not_count')}"
