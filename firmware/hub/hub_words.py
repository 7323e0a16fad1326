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
    "hub_denied": ("Vom Broker abgewiesen: {n}", "Denied by the broker: {n}"),
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
    "hub_drawn_one": ("Runde {n} ausgelost: 1 Tisch", "Round {n} drawn: 1 table"),
    "hub_started": ("Runde {n} läuft", "Round {n} is running"),
    "hub_finished": ("Runde {n} beendet", "Round {n} finished"),
    "hub_unreported": (
        "Runde {n}: an diesen Tischen ist noch nicht alles gemeldet:",
        "Round {n}: these tables have not reported everything yet:",
    ),
    "hub_finish_confirm": (
        "Runde {n} nicht beendet: mit --yes trotzdem beenden (diese Ergebnisse werden dann "
        "abgewiesen)",
        "round {n} not finished: finish it anyway with --yes (those results are then refused)",
    ),
    # The director's desk: the page /desk and what `schocken hub paper|correct|...` say
    "desk_title": ("Turnierleitung {event}", "Tournament desk {event}"),
    "desk_login_title": ("Anmelden", "Log in"),
    "desk_name": (
        "Ihr Name (wird bei jeder Änderung vermerkt)",
        "Your name (kept with every change)",
    ),
    "desk_password": ("Passwort der Turnierleitung", "The desk's password"),
    "desk_log_in": ("Anmelden", "Log in"),
    "desk_log_out": ("Abmelden", "Log out"),
    "desk_who": ("Angemeldet: {name}", "Logged in: {name}"),
    "desk_other_language": ("English", "Deutsch"),
    "desk_back": ("Zur Turnierleitung", "Back to the desk"),
    "desk_off": (
        "Die Turnierleitung ist aus: der Hub läuft ohne ihr Passwort (--desk-password-file).",
        "The desk is off: the hub runs without its password (--desk-password-file).",
    ),
    "desk_wrong_password": ("Falsches Passwort.", "Wrong password."),
    "desk_wait": (
        "Zu viele falsche Passwörter: in {s} s wieder versuchen.",
        "Too many wrong passwords: try again in {s} s.",
    ),
    "desk_bad_name": (
        "Bitte Ihren Namen angeben, höchstens {n} Zeichen.",
        "Give your name, at most {n} characters.",
    ),
    "desk_expired": (
        "Bitte anmelden: die Sitzung ist abgelaufen.", "Please log in: the session has ended."
    ),
    "desk_foreign": (
        "Abgelehnt: dieses Formular kam nicht von der Seite der Turnierleitung.",
        "Refused: this form did not come from the desk's own page.",
    ),
    "desk_bad_token": (
        "Abgelehnt: das Formular ist veraltet, bitte die Seite neu laden.",
        "Refused: the form is out of date; reload the page.",
    ),
    "desk_unknown_action": ("Diese Seite gibt es nicht.", "No such page."),
    "desk_refused": ("Nicht übernommen: {reason}", "Not done: {reason}"),
    "desk_missing": ("{field}: bitte ausfüllen.", "{field}: fill it in."),
    "desk_bad_number": ("{field}: eine Zahl von 1 bis 9999.", "{field}: a number from 1 to 9999."),
    "desk_too_long": (
        "{field}: höchstens {n} druckbare Zeichen.", "{field}: at most {n} printable characters."
    ),
    "desk_bad_halves": (
        "Hälften {given}: die Verlierer beider Hälften angeben, A,B",
        "halves {given}: give the two halves' losers, A,B",
    ),
    "desk_bad_schock_aus": (
        "Schock aus {given}: NAME:ANZAHL angeben", "Schock aus {given}: give NAME:N"
    ),
    "desk_no_table": (
        "Tisch {table} spielt in Runde {n} nicht",
        "table {table} plays no game in round {n}",
    ),
    "desk_no_result": (
        "Kein zählendes Ergebnis {id}: die Ergebnisse listen sie",
        "no result {id} counts: the results list them",
    ),
    "desk_no_round_running": ("Keine Runde läuft.", "no round is running"),
    "desk_stored_already": (
        "{id} ist schon gespeichert: bitte korrigieren",
        "{id} is stored already: correct it instead",
    ),
    "desk_accepted_already": ("{id} ist schon gespeichert", "{id} is stored already"),
    "desk_nothing_to_void": (
        "Kein zählendes Ergebnis {id}: nichts zu streichen",
        "no result {id} counts: nothing to void",
    ),
    "desk_half_result": (
        "{id} ist eine Hälfte: korrigiert wird nur ein ganzes Spiel",
        "{id} is a half's result: only a game's is corrected",
    ),
    "desk_no_refusal": ("Keine Abweisung Nr. {n}", "no refusal number {n}"),
    "desk_refusal_no_result": (
        "Abweisung {n} enthält kein Ergebnis eines Tisches",
        "refusal {n} holds no result of a table to accept",
    ),
    # The desk after the draw: what it refuses (the command line says the English)
    "desk_say_who_why": (
        "Bitte angeben, wer und warum (--who, --why): der Verlauf behält beides",
        "say who you are and why (--who, --why): the history keeps both",
    ),
    "desk_who_why_long": (
        "Wer und Grund: höchstens 40 und 300 druckbare Zeichen",
        "--who and --why: at most 40 and 300 printable characters",
    ),
    "desk_not_registered": (
        "»{name}« ist kein angemeldeter Spieler (der Name an den Tischen oder der volle Name)",
        "'{name}' is no registered player (the name on the tables, or in full)",
    ),
    "desk_many_players": (
        "»{name}« sind {n} Spieler: bitte den Namen an den Tischen angeben ({names})",
        "'{name}' is {n} players: give the name on the tables ({names})",
    ),
    "desk_left_already": (
        "{name} ist schon ausgeschieden (Runde {n})", "{name} left already (round {n})"
    ),
    "desk_not_self": (
        "{name} kann nicht für sich selbst einspringen", "{name} cannot stand in for themselves"
    ),
    "desk_name_substitute": (
        "Ersetzen: bitte den Springer nennen", "replace: name the substitute"
    ),
    "desk_registered_full": (
        "{name} ist angemeldet: bitte den Namen an den Tischen angeben",
        "{name} is registered: give the name on the tables",
    ),
    "desk_substitute_left": (
        "{name} ist ausgeschieden: kein Springer", "{name} left the tournament: no substitute"
    ),
    "desk_substitute_plays": (
        "{name} spielt in dieser Runde an Tisch {table}: kein Springer",
        "{name} plays at table {table} this round: no substitute",
    ),
    "desk_table_short": (
        "An Tisch {table} bliebe {n} Spieler: {name} durch einen Springer ersetzen oder die "
        "Runde neu auslosen",
        "table {table} would be left with {n} player: replace {name} by a substitute, or draw "
        "the round again",
    ),
    "desk_not_drawn": (
        "Nur eine ausgeloste Runde, die noch nicht läuft, kann neu ausgelost werden",
        "only a drawn round that has not started can be drawn again",
    ),
    "desk_not_reopenable": (
        "Nur die letzte Runde lässt sich wieder öffnen, wenn sie beendet und keine weitere "
        "ausgelost ist",
        "only the last round, finished and with no round drawn after it, reopens",
    ),
    "desk_bad_minutes": (
        "{field}: Minuten von 0 bis 1440.", "{field}: minutes from 0 to 1440."
    ),
    "desk_round": ("Runde", "Round"),
    "desk_table": ("Tisch", "Table"),
    "desk_game": ("Spiel Nr.", "Game no."),
    "desk_halves": ("Verlierer Hälfte 1 und 2 (A,B)", "Losers of half 1 and half 2 (A,B)"),
    "desk_final": (
        "Verlierer des Finales (leer: Durchmarsch)",
        "Loser of the final (empty: Durchmarsch)",
    ),
    "desk_out1": (
        "Hälfte 1: raus der Reihe nach (A+B,C,D; leer: alle anderen zugleich)",
        "Half 1: out in order (A+B,C,D; empty: all the others at once)",
    ),
    "desk_out2": (
        "Hälfte 2: raus der Reihe nach (A+B,C,D; leer: alle anderen zugleich)",
        "Half 2: out in order (A+B,C,D; empty: all the others at once)",
    ),
    "desk_schock_aus": (
        "Schock aus aus der Hand (Anna:1, Bernd:2)",
        "Schock aus from the hand (Anna:1, Bernd:2)",
    ),
    "desk_players": ("Spieler (leer: die des Tisches)", "Players (empty: the table's)"),
    "desk_why": ("Grund", "Reason"),
    "desk_id": ("Ergebnis", "Result"),
    "desk_number": ("Nr. der Abweisung", "Refusal no."),
    "desk_paper_why": ("Papier-Tischkarte", "paper table card"),
    "desk_player": (
        "Spieler (Name an den Tischen oder voller Name)",
        "Player (the name on the tables, or in full)",
    ),
    "desk_substitute": (
        "Springer (angemeldet, oder voller Name: wird angemeldet)",
        "Substitute (registered, or a full name: registered now)",
    ),
    "desk_seed": ("Startzahl der Auslosung (leer: zufällig)", "The draw's seed (empty: random)"),
    "desk_minutes": (
        "Neue Spielzeit in Minuten ab jetzt (0: keine; leer: die der Runde)",
        "A new time box in minutes from now (0: none; empty: the round's own)",
    ),
    "desk_withdraw": ("Spieler zurückziehen", "Withdraw a player"),
    "desk_do_withdraw": ("Zurückziehen", "Withdraw"),
    "desk_disqualify": ("Spieler disqualifizieren", "Disqualify a player"),
    "desk_do_disqualify": ("Disqualifizieren", "Disqualify"),
    "desk_replace": ("Spieler durch einen Springer ersetzen", "Replace a player by a Springer"),
    "desk_do_replace": ("Ersetzen", "Replace"),
    "desk_redraw": ("Runde neu auslosen", "Draw the round again"),
    "desk_do_redraw": ("Runde {n} neu auslosen", "Draw round {n} again"),
    "desk_reopen": ("Runde wieder öffnen", "Reopen the round"),
    "desk_do_reopen": ("Runde {n} wieder öffnen", "Reopen round {n}"),
    "desk_finish": ("Runde beenden", "Finish the round"),
    "desk_do_finish": ("Runde {n} beenden", "Finish round {n}"),
    "desk_confirm": (
        "Trotzdem beenden: diese Ergebnisse werden dann abgewiesen",
        "Finish anyway: those results are then refused",
    ),
    "desk_cancel": ("Abbrechen", "Cancel"),
    "desk_nothing_waits": (
        "Alle Tische haben alles gemeldet.",
        "Every table has reported everything.",
    ),
    "desk_paper": ("Papier-Tischkarte eingeben", "Enter a paper table card"),
    "desk_do_paper": ("Speichern", "Store"),
    "desk_correct": ("Ergebnis korrigieren", "Correct a result"),
    "desk_do_correct": ("Korrigieren", "Correct"),
    "desk_void": ("Ergebnis streichen", "Void a result"),
    "desk_do_void": ("Streichen", "Void"),
    "desk_accept": ("Abgewiesenes Ergebnis annehmen", "Accept a refused result"),
    "desk_do_accept": ("Annehmen", "Accept"),
    "desk_done_paper": ("{id}: von der Papierkarte gespeichert", "{id}: stored from paper"),
    "desk_done_correct": ("{id}: korrigiert", "{id}: corrected"),
    "desk_done_void": ("{id}: gestrichen", "{id}: void"),
    "desk_done_accept": ("{id}: angenommen", "{id}: accepted"),
    "desk_line": (
        "{name}: {points} Punkte, {lost} verloren",
        "{name}: {points} points, {lost} lost",
    ),
    "desk_line_lives": (
        "{name}: {points} Punkte, {lives} Leben, {lost} verloren",
        "{name}: {points} points, {lives} lives, {lost} lost",
    ),
    "desk_results": ("Ergebnisse", "Results"),
    "desk_show": ("Zeigen", "Show"),
    "desk_no_results": ("Keine Ergebnisse in dieser Auswahl.", "No results in this selection."),
    "desk_more": ("… und {n} ältere", "… and {n} older"),
    "desk_lost_by": ("verloren: {name}", "lost: {name}"),
    "desk_origin_table": ("vom Tisch", "from the table"),
    "desk_origin_paper": ("Papier", "paper"),
    "desk_origin_accepted": ("angenommen", "accepted"),
    "desk_to_correct": ("korrigieren", "correct"),
    "desk_to_void": ("streichen", "void"),
    "desk_to_accept": ("annehmen", "accept"),
    "desk_refusals": ("Abgewiesen", "Refused"),
    "desk_no_refusals": ("Nichts abgewiesen.", "Nothing refused."),
    "desk_history": ("Was die Turnierleitung getan hat", "What the desk did"),
    "desk_no_history": ("Noch nichts.", "Nothing yet."),
    "desk_action_paper": ("Papierkarte", "paper card"),
    "desk_action_correct": ("korrigiert", "corrected"),
    "desk_action_void": ("gestrichen", "voided"),
    "desk_action_accept": ("angenommen", "accepted"),
    "hub_serving": (
        "Hub für {event} an {broker}; TV: {tv}  Handy: {phone}  Turnierleitung: {desk}",
        "Hub for {event} on {broker}; TV: {tv}  phone: {phone}  desk: {desk}",
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
