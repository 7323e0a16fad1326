"""The tournament hub's words, in German and English: its TV and phone page, its exports and
``schocken hub``.

The hub composes them with an evening's words from below it (:mod:`firmware.report.sheet_words`:
the standings' column titles), never with the device's. The TV page gets its words at once, in
the page (:class:`TvWords`), and fills their placeholders in the browser.
"""

from __future__ import annotations

from firmware.report.sheet_words import SHEET_WORDS
from firmware.words import Catalogue, borrowed

__all__ = ["FOR_THE_TV", "HUB_WORDS", "HubWords", "SaidError", "TvWords"]

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
    "hub_desk_no_changes": (
        "Noch kein Ergebnis am Turniertisch geändert", "No result changed at the desk yet"
    ),
    "hub_cli_no_players": (
        "Noch keine Spieler angemeldet: mit `schocken hub players add` anmelden",
        "No players registered yet: add them with `schocken hub players add`",
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
    # What the hub refuses (a HubError's words: the desk's page and `schocken hub` say them in
    # their user's language, the log in English)
    "hub_unreported_many": (
        "Runde {n}: an {tables} Tischen ist noch nicht alles gemeldet; trotzdem beenden weist es "
        "ab",
        "round {n}: {tables} tables hold unreported results; finish anyway to refuse them",
    ),
    "hub_bad_event": (
        "Turnier »{event}«: 1 bis 32 Kleinbuchstaben, Ziffern oder Bindestriche",
        "event '{event}' must be 1-32 lower-case letters, digits or dashes",
    ),
    "hub_file_taken": (
        "{path} enthält schon das Turnier »{event}«",
        "{path} holds the tournament '{event}' already",
    ),
    "hub_no_event": (
        "{path}: kein Turnier darin; zuerst `schocken hub init`",
        "{path}: no event set; run `schocken hub init` first",
    ),
    "hub_bad_format": (
        "Format »{name}« gibt es nicht: eines von {names}", "format '{name}' is not one of {names}"
    ),
    "hub_not_counted": (
        "Die gespeicherten Ergebnisse passen nicht zum Format: {reason}",
        "the stored results do not fit the format: {reason}",
    ),
    "hub_draw_running": (
        "Runde {n} läuft: erst beenden, dann die nächste auslosen",
        "round {n} is running: finish it before the next draw",
    ),
    "hub_draw_drawn": (
        "Runde {n} ist ausgelost: erst starten und beenden, dann die nächste auslosen",
        "round {n} is drawn: start and finish it before the next draw",
    ),
    "hub_no_players": (
        "Keine Spieler angemeldet: mit `schocken hub players add` anmelden",
        "no players registered: add them with `schocken hub players add`",
    ),
    "hub_over_already": (
        "Das Turnier ist beendet: jede Phase seines Formats ist gespielt",
        "the tournament is over: every phase of its format is played",
    ),
    "hub_draw_failed": (
        "Runde {n} lässt sich nicht auslosen: {reason}", "round {n}: {reason}"
    ),
    "hub_not_drawn": (
        "Keine Runde ist ausgelost und wartet: zuerst `schocken hub draw`",
        "no round is drawn and waiting: `schocken hub draw` first",
    ),
    "hub_other_event": (
        "Ergebnis für das Turnier »{event}«; dieser Hub leitet »{ours}«",
        "result for event '{event}'; this hub runs '{ours}'",
    ),
    "hub_round_not_started": ("Runde {n} hat noch nicht begonnen", "round {n} has not started"),
    "hub_round_finished": ("Runde {n} ist beendet", "round {n} is finished"),
    "hub_not_the_players": (
        "Spieler {names} sind nicht die von Tisch {table} in dieser Runde",
        "players {names} are not table {table}'s of the round",
    ),
    "hub_no_life": (
        "{names}: kein Leben mehr, aus Runde {n} ausgeschieden",
        "{names}: no life left, out of round {n}",
    ),
    "hub_not_a_table": ("»{user}« ist kein Tisch", "'{user}' is not a table's name"),
    "hub_other_topic": (
        "Ergebnis von {table}, gesendet unter {topic}", "result for {table} sent on {topic}'s topic"
    ),
    "hub_stored_other": (
        "{id} ist schon mit einem anderen Ergebnis gespeichert",
        "{id} is stored already with another result",
    ),
    "hub_no_such_table": ("Runde {n} hat keinen Tisch {table}", "round {n} has no table {table}"),
    "hub_no_game_yet": (
        "Tisch {table} hat in Runde {n} noch kein Spiel gemeldet",
        "table {table} has no game stored in round {n} yet",
    ),
    "hub_bad_number": (
        "»{given}« ist keine Nummer einer Runde oder eines Tisches",
        "'{given}' is not a round's or table's number",
    ),
    "hub_seating_not_drawn": ("Runde {n} ist nicht ausgelost", "round {n} is not drawn"),
    "hub_seating_none": (
        "Noch keine Runde ausgelost: zuerst `schocken hub draw`",
        "no round is drawn yet: `schocken hub draw` first",
    ),
    "desk_refusal_unreadable": (
        "Abweisung {n} lässt sich nicht annehmen: {reason}",
        "refusal {n} cannot be accepted: {reason}",
    ),
    "desk_refusal_other_table": (
        "Abweisung {n}: ein Ergebnis von {table}, gesendet unter {topic}",
        "refusal {n}: a result for {table} sent on {topic}'s topic",
    ),
    "desk_not_a_result": (
        "Kein Ergebnis, wie es ein Tisch senden kann: {reason}",
        "not a result a table could send: {reason}",
    ),
    "desk_not_at_table": (
        "»{name}« spielt nicht an diesem Tisch ({names})",
        "'{name}' does not play at this table ({names})",
    ),
    "desk_bad_substitute": ("Springer »{name}«: {reason}", "substitute '{name}': {reason}"),
    # The tournament's file (firmware/hub/store.py)
    "hub_no_file": (
        "{path}: diese Turnierdatei gibt es nicht; anlegen mit `schocken hub init --db {path}`",
        "{path}: no such tournament file; make one with `schocken hub init --db {path}`",
    ),
    "hub_not_a_file": (
        "{path}: keine Turnierdatei (keine SQLite-Datei eines Turniers, oder beschädigt)",
        "{path}: not a tournament file (not a tournament's SQLite file, or damaged)",
    ),
    "hub_registered_already": (
        "Spieler »{name}« ist schon angemeldet", "player '{name}' is registered already"
    ),
    "hub_not_stored": ("Kein Ergebnis {id} gespeichert", "no result '{id}' is stored"),
    "hub_bad_round_state": (
        "Zustand einer Runde »{state}« ist weder ausgelost noch laufend noch beendet",
        "a round's state '{state}' is not drawn, running or finished",
    ),
    "hub_bad_table_kind": (
        "Art eines Tisches »{kind}« ist weder Punkte noch KO noch Trost",
        "a table's kind '{kind}' is not points, ko or trost",
    ),
    "hub_bad_leaving": (
        "{path}: ein Ausscheiden lässt sich nicht lesen: {reason}",
        "{path}: a player's leaving does not read: {reason}",
    ),
    # `schocken hub init|approve|players|format|status|refusals|results|export|serve|refill`
    "hub_cli_made": ("{path}: Turnier {event}", "{path}: tournament {event}"),
    "hub_cli_approved": ("{n} freigegeben", "{n} approved"),
    "hub_cli_players_added": (
        "{n} Spieler hinzugefügt, {of} angemeldet", "{n} players added, {of} registered"
    ),
    "hub_cli_roster_long": (
        "Spielerliste {path} ist zu lang: höchstens {n} Bytes",
        "roster {path} is too long: at most {n} bytes are allowed",
    ),
    "hub_cli_roster_unread": ("Spielerliste {path}: {problem}", "roster {path}: {problem}"),
    "hub_cli_format": (
        "Format {name} ({source}); Wertung {scheme}; Spielzeit {minutes} min; Freigabe "
        "{approval}; Mannschaftswertung: {team}",
        "format {name} ({source}); scheme {scheme}; time box {minutes} min; approval "
        "{approval}; team score: {team}",
    ),
    "hub_cli_format_fixed": (
        "Das Format steht fest, sobald eine Runde ausgelost ist; nur --minutes und --approval",
        "the format is fixed once a round is drawn; only --minutes and --approval",
    ),
    "hub_cli_on": ("an", "on"),
    "hub_cli_off": ("aus", "off"),
    "hub_team_points": ("Punkte", "points"),
    "hub_team_lives_lost": ("verlorene Leben", "lives lost"),
    "hub_format_dm": (
        "Deutsche Meisterschaft im Schocken: vier Punkterunden, Mannschaften als Summe",
        "Deutsche Meisterschaft im Schocken: four points rounds, team standings summed",
    ),
    "hub_format_velen": (
        "Velen Masters Cup: 3 Leben, dann 2", "Velen Masters Cup: 3 lives, then 2"
    ),
    "hub_format_kamen": (
        "Regeln der Deutschen Schockmeisterschaft wie in Kamen: 3 Chips, dann 2, und eine "
        "Trostrunde",
        "Deutsche Schockmeisterschaft's rules as used in Kamen: 3 chips, then 2, and a "
        "Trostrunde",
    ),
    "hub_format_dm_ko": (
        "die vier Punkterunden der Deutschen Meisterschaft im Schocken, dann die besten 32 im KO "
        "mit 3 Leben, das Finale der letzten vier mit 2 und eine Trostrunde mit 2 für alle "
        "Ausgeschiedenen",
        "the Deutsche Meisterschaft im Schocken's four points rounds, then the best 32 in KO "
        "rounds with 3 lives, the last four's final with 2 and a Trostrunde with 2 for all out",
    ),
    "hub_format_points_then_ko": (
        "Punkterunden, dann die besten 16 im KO mit 3 Leben, dann 2",
        "points rounds, then the best 16 in KO rounds with 3 lives, then 2",
    ),
    "hub_cli_status": ("Turnier {event}; Runde {n} {state}", "Event {event}; round {n} {state}"),
    "hub_cli_status_none": (
        "Turnier {event}; noch keine Runde ausgelost", "Event {event}; no round drawn yet"
    ),
    "hub_cli_link_never": (
        "Verbindung des Hubs zum Broker: noch kein `schocken hub serve` gelaufen",
        "The hub's broker link: no `schocken hub serve` has run",
    ),
    "hub_cli_link_up": (
        "Verbindung des Hubs zum Broker: steht seit {at}", "The hub's broker link: up since {at}"
    ),
    "hub_cli_link_down": (
        "Verbindung des Hubs zum Broker: WEG seit {at}", "The hub's broker link: DOWN since {at}"
    ),
    "hub_cli_online": ("Tische: {n} von {of} verbunden", "Tables: {n} of {of} online"),
    "hub_cli_online_then": (
        "Tische: {n} von {of} verbunden, als der Hub zuletzt von seinem Broker hörte",
        "Tables: {n} of {of} online when the hub last heard from its broker",
    ),
    "hub_cli_refused": (
        "Abgewiesen: {n} (`schocken hub refusals`)", "Refused: {n} (`schocken hub refusals`)"
    ),
    "hub_cli_denied": ("Vom Broker abgewiesen: {n}", "Denied by the broker: {n}"),
    "hub_cli_denied_publish": (
        "  {user}: {n} Veröffentlichungen, die letzte um {at} auf {topic}",
        "  {user}: {n} publishes, the last at {at} on {topic}",
    ),
    "hub_cli_denied_subscribe": (
        "  {user}: {n} Abonnements, das letzte um {at} auf {topic}",
        "  {user}: {n} subscriptions, the last at {at} on {topic}",
    ),
    "hub_cli_refusals_counted": (
        "{source}: {n} abgewiesen, die ersten {kept} aufbewahrt",
        "{source}: {n} refused, the first {kept} kept",
    ),
    "hub_cli_game": ("Spiel", "game"),
    "hub_cli_half": ("Hälfte", "half"),
    "hub_cli_sheet_which": (
        "export sheet: bitte --round N und --table N angeben",
        "export sheet: give --round N and --table N",
    ),
    "hub_cli_output": ("--output {path}: {problem}", "--output {path}: {problem}"),
    "hub_cli_no_password": (
        "serve: der Broker braucht das Passwort des Hubs: --password-file DATEI oder "
        "$SCHOCKEN_HUB_PASSWORD",
        "serve: the broker needs the hub's password: --password-file FILE or "
        "$SCHOCKEN_HUB_PASSWORD",
    ),
    "hub_cli_secret_unread": ("{option} {path}: {problem}", "{option} {path}: {problem}"),
    "hub_cli_secret_empty": ("{option} {path}: die Datei ist leer", "{option} {path}: it is empty"),
    "hub_cli_not_text": ("keine Textdatei", "not a text file"),
    "hub_cli_listen": (
        "--listen {given}: bitte HOST:PORT angeben, z. B. 0.0.0.0:8080",
        "--listen {given}: give HOST:PORT, e.g. 0.0.0.0:8080",
    ),
    # `schocken hub refill`: a lost file made again from the tables' own results
    "hub_refill_no_players": (
        "refill: zuerst die Spieler anmelden (dieselbe Liste wie zuvor)",
        "refill: register the players first (the same roster as before)",
    ),
    "hub_refill_asked": (
        "Neuaufbau von {event} angefragt: jeder Tisch sendet seine Ergebnisse noch einmal "
        "(fertig, wenn {s} s lang keins mehr kam)",
        "refill of {event} asked: every table sends its results again (done once none came "
        "for {s} s)",
    ),
    "hub_refill_answers": (
        "  {n} Antworten von {tables} Tischen", "  {n} answers from {tables} tables"
    ),
    "hub_refill_silent": (
        "refill: kein Tisch hat in {s} s geantwortet; läuft `schocken hub serve` mit "
        "Verbindung zum Broker?",
        "refill: no table answered within {s} s; is `schocken hub serve` running and linked "
        "to the broker?",
    ),
    "hub_refill_no_rounds": ("keine", "none"),
    "hub_refilled": (
        "Neu aufgebaut aus {tables} Tischen: {stored} Ergebnisse gespeichert, {known} schon "
        "gespeichert, {unfit} passen an keinen Tisch; Runden angelegt: {rounds}",
        "refilled from {tables} tables: {stored} results stored, {known} stored already, "
        "{unfit} fit no table; rounds made: {rounds}",
    ),
    "hub_refill_running": (
        "Runde {n} läuft: `schocken hub finish`, wenn ihre Zeit um ist",
        "round {n} runs: `schocken hub finish` when its time is up",
    ),
    "hub_refill_unfit": (
        "  passt an keinen Tisch seiner Runde: {id}", "  fits no table of its round: {id}"
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
        "Kein zählendes Ergebnis {id}: die Liste der Ergebnisse zeigt die zählenden",
        "no result {id} counts: the list of results shows those that do",
    ),
    "desk_durchmarsch_final": (
        "{name} hat beide Hälften verloren (Durchmarsch): kein Finale, "
        "»{final}« beim Finale weglassen",
        "{name} lost both halves (Durchmarsch): there is no final, leave out '{final}'",
    ),
    "desk_no_final": (
        "Die Hälften verloren {first} und {second}: wer hat das Finale verloren?",
        "{first} and {second} lost the halves: who lost the final?",
    ),
    "desk_final_not_half": (
        "Das Finale spielen die Verlierer der Hälften ({first}, {second}), nicht »{name}«",
        "the final is played by the halves' losers ({first}, {second}), not '{name}'",
    ),
    "desk_out_twice": (
        "Hälfte {half}: »{name}« ist zweimal als raus genannt",
        "half {half}: '{name}' is named twice as out",
    ),
    "desk_players_twice": (
        "Spieler: »{name}« ist zweimal genannt", "players: '{name}' is named twice"
    ),
    "desk_players_few": (
        "Spieler {given}: mindestens zwei nennen, A,B,C", "players {given}: name two or more, A,B,C"
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
    # The desk after the draw: what it refuses (each door in its language)
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


class SaidError(Exception):
    """A refusal as one of the hub's words (``key``) and its ``values``, which each door says in
    its user's language (:meth:`said`); its text is the English (for the log)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(HubWords("en").t(key, **values))
        self.key = key
        self.values = values

    def said(self, text: HubWords) -> str:
        """The line in ``text``'s language."""
        return text.t(self.key, **self.values)
