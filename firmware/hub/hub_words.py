"""The tournament hub's words, in German and English: its TV and phone page, its exports and
``schocken hub``.

The hub composes them with an evening's words from below it (:mod:`firmware.report.sheet_words`:
the standings' column titles), never with the device's. The TV page gets its words at once, in
the page (:class:`TvWords`), and fills their placeholders in the browser.
"""

from __future__ import annotations

from firmware.report.sheet_words import SHEET_WORDS
from firmware.words import Catalogue, borrowed

__all__ = ["FOR_THE_TV", "HUB_WORDS", "HubWords", "TvWords"]

#: key -> (German, English)
HUB_WORDS: dict[str, tuple[str, str]] = {
    # The tournament hub's TV and phone views, its exports and `schocken hub`
    # (shown in a browser or printed)
    "hub_title": ("Turnier {event}", "Tournament {event}"),
    "hub_round": ("Runde {n}", "Round {n}"),
    "hub_no_round": ("Noch keine Runde ausgelost", "No round drawn yet"),
    "hub_state_drawn": ("ausgelost", "drawn"),
    "hub_state_running": ("läuft", "running"),
    "hub_state_finished": ("beendet", "finished"),
    "hub_over": ("Turnier beendet", "Tournament over"),
    "hub_time_left": ("noch", "left"),
    "hub_time_up": ("Zeit um: scharf", "Time up: scharf"),
    "hub_standings": ("Stand", "Standings"),
    "hub_tables": ("Tische", "Tables"),
    "hub_table": ("Tisch {n}", "Table {n}"),
    "hub_teams": ("Mannschaften", "Teams"),
    "hub_team": ("Mannschaft", "Team"),
    "hub_score": ("Wertung", "Score"),
    "hub_king": ("Schock-aus-König", "Schock aus king"),
    "hub_out": ("Ausgeschieden", "Out"),
    "hub_kind_points": ("Punkte", "points"),
    "hub_kind_ko": ("KO", "KO"),
    "hub_kind_trost": ("Trost", "consolation"),
    "hub_last_loser": ("zuletzt verloren: {name}", "last lost: {name}"),
    "hub_online": ("verbunden", "online"),
    "hub_offline": ("nicht verbunden", "offline"),
    "hub_outbox": ("{n} noch nicht gemeldet", "{n} not yet reported"),
    "hub_refused": ("Abgewiesen: {n}", "Refused: {n}"),
    "hub_waiting": ("Zur Freigabe: {n}", "To approve: {n}"),
    "hub_reconnecting": ("Verbindung weg, verbinde neu …", "Connection lost, reconnecting …"),
    # The TV's turning pages, its status in words and the phone view's QR code
    "hub_page": ("Seite {n}/{of}", "page {n} of {of}"),
    "hub_link_up": ("Broker verbunden", "broker connected"),
    "hub_link_down": ("Hub ohne Verbindung zum Broker", "Hub has lost the broker"),
    "hub_unknown": ("Stand unbekannt", "status unknown"),
    "hub_games": ("{n} Spiele", "{n} games"),
    "hub_games_one": ("1 Spiel", "1 game"),
    "hub_lives_title": ("KO: Leben", "KO: lives"),
    "hub_still_in": ("{n} noch im Spiel", "{n} still in"),
    "hub_king_count": ("{n}× Schock aus", "{n}× Schock aus"),
    "hub_podium": ("Siegerehrung", "Podium"),
    "hub_winner": ("Sieg: {name}", "Winner: {name}"),
    "hub_phone_qr": ("Live aufs Handy", "Live on your phone"),
    "hub_scheme_verlustpunkte": (
        "Verlustpunkte: weniger ist besser", "penalty points: fewer is better"
    ),
    "hub_scheme_siegpunkte": ("Siegpunkte: mehr ist besser", "win points: more is better"),
    "hub_scheme_platzpunkte": ("Platzpunkte: mehr ist besser", "place points: more is better"),
    "hub_export_csv": ("Stand als CSV", "Standings as CSV"),
    "hub_export_pdf": ("Stand als PDF", "Standings as PDF"),
    "hub_pdf_title": (
        "Turnier {event}: Stand nach Runde {n}", "Tournament {event}: after round {n}"
    ),
    # The director's desk: the seating list of a round (`schocken hub seating`)
    "hub_seating_title": ("Sitzplan {event} · Runde {n}", "Seating list {event} · round {n}"),
    "hub_seating_by_name": ("Wer sitzt wo", "Who sits where"),
    "hub_seating_table": ("Tisch", "Table"),
    "hub_seating_players": ("Spieler", "Players"),
    "hub_seating_shown": ("am Tisch als", "at the table as"),
    # The director's desk: players leaving, a draw redone, a round reopened, its history
    "hub_desk_withdrawn": (
        "{name} zurückgezogen (ab Runde {n})", "{name} withdrawn (from round {n})"
    ),
    "hub_desk_disqualified": (
        "{name} disqualifiziert (ab Runde {n})", "{name} disqualified (from round {n})"
    ),
    "hub_desk_replaced": (
        "{name} ersetzt durch {substitute} (ab Runde {n})",
        "{name} replaced by {substitute} (from round {n})",
    ),
    "hub_desk_redrawn": (
        "Runde {n} neu ausgelost: {tables} Tische", "Round {n} drawn again: {tables} tables"
    ),
    "hub_desk_reopened": ("Runde {n} wieder geöffnet", "Round {n} reopened"),
    "hub_desk_no_history": (
        "Noch nichts am Turniertisch geändert", "Nothing changed at the desk yet"
    ),
    "hub_left_withdrawn": ("zurückgezogen", "withdrawn"),
    "hub_left_disqualified": ("disqualifiziert", "disqualified"),
    "hub_left_replaced": ("ersetzt", "replaced"),
    # `schocken hub`: a round drawn, started and finished, and where the hub serves
    "hub_drawn": ("Runde {n} ausgelost: {tables} Tische", "Round {n} drawn: {tables} tables"),
    "hub_started": ("Runde {n} läuft", "Round {n} is running"),
    "hub_finished": ("Runde {n} beendet", "Round {n} finished"),
    "hub_serving": (
        "Hub für {event} an {broker}; TV: {tv}  Handy: {phone}",
        "Hub for {event} on {broker}; TV: {tv}  phone: {phone}",
    ),
}

#: The evening's words the TV page shows besides the hub's own: its standings' columns.
FOR_THE_TV = (
    "standings_player", "standings_points", "standings_lives", "standings_lost",
    "standings_schock_aus",
)  # fmt: skip


class HubWords(Catalogue):
    """The hub's words in one language, with an evening's."""

    HOMES = (HUB_WORDS, SHEET_WORDS)


class TvWords(Catalogue):
    """The TV page's words in one language: the hub's and the standings' columns it shows."""

    HOMES = (HUB_WORDS, borrowed(SHEET_WORDS, FOR_THE_TV))
