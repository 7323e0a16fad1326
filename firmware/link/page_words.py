"""The table's web page's words, in German and English (``firmware/link/web/table.html``).

The page gets every word of :class:`PageWords` at once, in ``/page.json``
(:func:`firmware.link.webtable.page_data`), and fills their placeholders in the browser. Besides
its own, it shows a few of the device's screen's words, the same on both (the pot, the throw, the
round, the setup's labels: :data:`FROM_THE_SCREEN`), and an evening's for its Spieltag card
(:data:`FROM_THE_SHEET`); the rules' words of its setup are the rules screen's
(:func:`firmware.screen.rulestext.option_text`).
"""

from __future__ import annotations

from firmware.report.sheet_words import SHEET_WORDS
from firmware.screen.oled_words import OLED_WORDS
from firmware.words import Catalogue, borrowed

__all__ = ["FROM_THE_SCREEN", "FROM_THE_SHEET", "PAGE_WORDS", "PageWords"]

#: key -> (German, English)
PAGE_WORDS: dict[str, tuple[str, str]] = {
    # the table's web page (firmware/link/web/table.html): the connection, the board and the
    # rounds, the statistics
    "web_title": ("Schocken am Tisch", "Schocken at the table"),
    "web_connecting": ("Verbinde …", "Connecting …"),
    "web_reconnecting": (
        "Verbindung getrennt - verbinde neu …", "Connection lost - reconnecting …"
    ),
    "web_no_game": ("Noch kein Spiel", "No game yet"),
    "web_turn_of": ("{name} ist dran", "{name} to play"),
    "web_out": ("raus", "out"),
    "web_lost_half": ("Hälfte verloren", "lost a half"),
    "web_loser": ("verliert", "loses"),
    "web_device": ("Gerät", "Device"),
    "web_rounds": ("Runden dieses Spiels", "Rounds of this game"),
    "web_no_rounds": ("Noch keine Runde aufgedeckt", "No round revealed yet"),
    "web_last_reveal": ("Aufgedeckt", "Revealed"),
    "web_stats_not_kept": (
        "Dieses Gerät speichert keine Spiele, also gibt es keine Statistik",
        "This device keeps no games, so there are no statistics",
    ),
    "web_stat_games": ("Spiele", "Games"),
    "web_stat_lost": ("verloren", "lost"),
    "web_stat_halves_lost": ("Hälften", "Halves lost"),
    "web_stat_blattschuss": ("Blattschuss", "Blattschuss"),
    "web_stat_schocks": ("Schocks", "Schocks"),
    "web_stat_schock_aus": ("Schock aus", "Schock aus"),
    # pairing, the buttons and the next game's setup ({menu}: the menu entry as the device
    # shows it, in the device's language)
    "web_pin": ("PIN vom Gerät (Menü: {menu})", "PIN from the device (menu: {menu})"),
    "web_paired": ("Gekoppelt: Tasten und Einrichten frei", "Paired: buttons and setup enabled"),
    "web_forget": ("Entkoppeln", "Unpair"),
    "web_shake": ("Schütteln", "Shake"),
    "web_setup": ("Nächstes Spiel einrichten", "Set up the next game"),
    "web_setup_later": ("Erst nach diesem Spiel", "Only once this game is over"),
    "web_add": ("+ Spieler", "+ player"),
    "web_remove": ("entfernen", "remove"),
    "web_up": ("nach oben", "move up"),
    "web_apply": ("Übernehmen", "Apply"),
    "web_refused": ("Abgelehnt: {reason}", "Refused: {reason}"),
    "web_internal_error": (
        "Das Gerät konnte das nicht ausführen (ein Fehler des Geräts; sein Log nennt ihn)",
        "The device could not do that (a fault of its own; its log names it)",
    ),
    "web_pair_wrong": ("Falsche PIN, noch {n} Versuche", "Wrong PIN, {n} tries left"),
    "web_pair_wrong_one": ("Falsche PIN, noch 1 Versuch", "Wrong PIN, 1 try left"),
    "web_pair_no_pin": (
        "Keine PIN angezeigt: am Gerät Menü → {menu}",
        "No PIN shown: on the device, menu → {menu}",
    ),
    "web_pair_expired": (
        "PIN abgelaufen: am Gerät neu koppeln",
        "PIN expired: pair again on the device",
    ),
    "web_pair_used_up": (
        "Zu viele falsche PINs: am Gerät neu koppeln",
        "Too many wrong PINs: pair again on the device",
    ),
    "web_busy_pairing": (
        "Das Gerät ist gerade sehr gefragt: die PIN geht gleich noch einmal hin …",
        "The device is busy: the PIN goes again in a moment …",
    ),
    "web_needs_pairing": ("Erst koppeln (PIN vom Gerät)", "Pair first (PIN from the device)"),
    "web_setup_running": ("Einrichten erst nach dem Spiel", "Setup only after this game"),
    "web_done": ("Übernommen", "Done"),
    "web_language": ("English", "Deutsch"),
    # the table's page: the reveal card, the board's changes, the device card, the whole setup
    # and ending a game from the page; English fully English, the game's terms glossed
    "web_section_1": ("1. Hälfte", "First half"),
    "web_section_2": ("2. Hälfte", "Second half"),
    "web_section_final": ("Finale", "Final"),
    "web_rolloff": ("Auswürfeln", "Roll-off"),
    "web_loses_half_1": ("{loser} verliert die 1. Hälfte", "{loser} loses the first half"),
    "web_loses_half_2": ("{loser} verliert die 2. Hälfte", "{loser} loses the second half"),
    "web_loses_final": ("{loser} verliert das Finale", "{loser} loses the final"),
    "web_final_between": ("Finale: {a} gegen {b}", "Final: {a} against {b}"),
    "web_final_of": ("Finale: {names}", "Final: {names}"),
    "web_outcome_pot": (
        "{loser} bekommt {n} Deckel aus dem Topf", "{loser} takes {n} Deckel from the pot"
    ),
    "web_outcome_winner": ("{winner} gibt {loser} {n} Deckel", "{winner} gives {loser} {n} Deckel"),
    "web_outcome_all": ("{loser} bekommt alle Deckel", "{loser} takes every Deckel"),
    "web_outcome_out": ("Raus: {names}", "Out: {names}"),
    "web_game_over": ("Spielende: {loser} verliert", "Game over: {loser} loses"),
    "web_blattschuss": ("Blattschuss: beide Hälften verloren", "Blattschuss: lost both halves"),
    "web_penalty": ("Strafe: {player} bekommt {n} Deckel", "Penalty: {player} takes {n} Deckel"),
    "web_dropped": ("Becher gefallen", "dropped the cup"),
    "web_covered": ("im Becher", "under the cup"),
    "web_throws_one": ("1 Wurf", "1 throw"),
    "web_throws_many": ("{n} Würfe", "{n} throws"),
    "web_highest": ("höchster Wurf", "highest throw"),
    "web_lowest": ("niedrigster Wurf", "lowest throw"),
    "web_tie_fewer_throws": (
        "gleich mit {other}: weniger Würfe liegen vorn",
        "same as {other}: fewer throws are ahead",
    ),
    "web_tie_earlier": (
        "gleich mit {other}: wer zuerst warf, liegt vorn",
        "same as {other}: who threw first is ahead",
    ),
    "web_reveal_round": ("{section}, Runde {n}", "{section}, round {n}"),
    "web_reveal_new": ("gerade aufgedeckt", "just revealed"),
    "web_reveal_moved_on": ("nächste Runde läuft", "next round under way"),
    "web_mirror_language": (
        "Das Gerät zeigt sein Bild auf {language} (seine Einstellung im Menü)",
        "The device shows its screen in {language} (its own menu setting)",
    ),
    "web_language_de": ("Deutsch", "German"),
    "web_language_en": ("Englisch", "English"),
    "web_watching": ("Zum Mitspielen koppeln", "Pair to play along"),
    "web_house_rules": ("Hausregeln", "House rules"),
    "web_rules_changed": ("{n} anders als {preset}", "{n} unlike {preset}"),
    "web_rules_as_preset": ("alle wie {preset}", "all as {preset}"),
    "web_rule_penalty": (
        "Strafe für einen gefallenen Becher (Deckel)", "Penalty for a dropped cup (Deckel)"
    ),
    "web_abandon": ("Spiel abbrechen", "Abandon the game"),
    "web_abandon_confirm": (
        "Das Spiel wirklich abbrechen? Es zählt für niemanden.",
        "Really abandon the game? It counts for nobody.",
    ),
    "web_abandon_yes": ("Ja, abbrechen", "Yes, abandon"),
    "web_abandon_no": ("Nein, weiter", "No, play on"),
    "web_abandoned": ("Spiel abgebrochen", "Game abandoned"),
    "web_abandon_refused": ("Es läuft kein Spiel", "No game is running"),
    "web_live": ("verbunden", "live"),
    "web_offline": ("getrennt", "offline"),
    # real dice from a paired phone: the entry card, its refusals in the page's words, the
    # setup's dice choice
    "web_entry_turn": ("Ergebnis von {name}", "{name}'s result"),
    "web_entry_correct": ("Korrigieren: {name}", "Correct: {name}"),
    "web_entry_rolloff": ("Auswürfeln: {name} ({n}/{total})", "Roll-off: {name} ({n}/{total})"),
    "web_entry_limit": ("max. {throws}", "max. {throws}"),
    "web_entry_die": ("Würfel {n}", "Die {n}"),
    "web_entry_throws": ("Würfe", "Throws"),
    "web_entry_hand": ("aus der Hand", "from the hand"),
    "web_entry_built": ("gebaut", "built up"),
    "web_entry_ok": ("Eintragen", "Enter"),
    "web_entry_next": ("Weiter", "Next"),
    "web_entry_cancel": ("Abbrechen", "Cancel"),
    "web_entry_review": (
        "Letzter Eintrag der Runde: stimmt er?", "The round's last entry: is it right?"
    ),
    "web_entry_settle": ("Runde abrechnen", "Settle the round"),
    "web_entry_change": ("Ändern", "Change"),
    "web_entry_fix": ("Korrigieren", "Correct"),
    "web_entry_blind": ("Blind angesagt", "Blind announced"),
    "web_entry_covered": (
        "Die Becher bleiben zu bis zum Aufdecken: dann alle Ergebnisse in der Reihenfolge am Tisch",
        "The cups stay down until the reveal: then every result, in the table's order",
    ),
    "web_entry_over_limit": ("Zu viele Würfe: höchstens {n}", "Too many throws: at most {n}"),
    "web_entry_impossible": (
        "So nicht möglich: aus der Hand oder gebaut?", "Not possible so: from the hand or built?"
    ),
    "web_entry_moved_on": ("Schon weiter: {name} ist dran", "Moved on: {name} to play"),
    "web_entry_conflict": (
        "Passt nicht: ein späterer Eintrag läge über dem Limit",
        "Clashes: a later entry would be over the limit",
    ),
    "web_entry_settled": (
        "Nichts mehr zu korrigieren: die Runde ist abgerechnet",
        "Nothing left to correct: the round is settled",
    ),
    "web_entry_not_due": ("Gerade ist kein Ergebnis fällig", "No result is due now"),
    "web_entry_device_dice": (
        "Dieses Spiel läuft mit den Würfeln des Geräts",
        "This game is played with the device's dice",
    ),
    "web_entry_invalid": ("Ungültige Würfel", "Invalid dice"),
    "web_dice": ("Würfel", "Dice"),
    "web_dice_device": ("Elektronische Würfel", "Device dice"),
    "web_dice_real": ("Echte Würfel", "Real dice"),
    # the page's Spieltag card: beginning and ending it, its standings, the sheet's downloads
    "web_spieltag_title": ("Spieltag", "Spieltag"),
    "web_spieltag_none": ("Kein Spieltag läuft.", "No Spieltag is going on."),
    "web_spieltag_name": ("Name oder Nummer", "Name or number"),
    "web_spieltag_venue": ("Spielort", "Venue"),
    "web_spieltag_date": ("Datum", "Date"),
    "web_spieltag_scheme": ("Wertung", "Scoring"),
    "web_spieltag_time_box": ("Zeitlimit (Minuten, leer: ohne)", "Time box (minutes, empty: none)"),
    "web_spieltag_begin": ("Spieltag beginnen", "Begin a Spieltag"),
    "web_spieltag_end": ("Spieltag beenden", "End the Spieltag"),
    "web_spieltag_confirm_end": ("Spieltag wirklich beenden?", "Really end the Spieltag?"),
    "web_spieltag_end_yes": ("Ja, beenden", "Yes, end it"),
    "web_spieltag_end_no": ("Nein", "No"),
    "web_spieltag_standings": ("Stand nach {n} Spielen", "After {n} games"),
    "web_spieltag_standings_one": ("Stand nach 1 Spiel", "After 1 game"),
    "web_spieltag_no_games": ("Noch kein Spiel beendet.", "No game finished yet."),
    "web_spieltag_lost_missing": (
        "Partie {partie} nicht gewertet: ihr Spielprotokoll fehlt auf dem Gerät.",
        "Game {partie} not counted: its journal is missing on the device.",
    ),
    "web_spieltag_lost_damaged": (
        "Partie {partie} nicht gewertet: ihr Spielprotokoll ist beschädigt.",
        "Game {partie} not counted: its journal is damaged.",
    ),
    "web_spieltag_csv": ("Bogen als CSV", "Sheet as CSV"),
    "web_spieltag_pdf": ("Bogen als PDF", "Sheet as PDF"),
    "web_saison_csv": ("Saison als CSV", "Season as CSV"),
    "web_saison_pdf": ("Saison als PDF", "Season as PDF"),
    "web_spieltag_scharf": (
        "Scharf: Rundenverlierer verliert die Hälfte", "Scharf: a round's loser loses the half"
    ),
    "web_spieltag_time_box_is": ("Zeitlimit: {n} Min.", "Time box: {n} min"),
    # under Leben: a player without a life, and after which Partie
    "web_spieltag_out": (
        "{name} ist raus: keine Leben mehr (nach Partie {partie})",
        "{name} is out: no lives left (after game {partie})",
    ),
}

#: The device's screen's words the page shows too.
FROM_THE_SCREEN = (
    "pot", "throw_of", "round_n", "menu_stats", "stats_none", "setup_players", "setup_rules",
    "setup_deckel", "setup_bots", "setup_human", "strategy_threshold", "strategy_odds",
    "menu_pair", "menu_title", "outcome_scharf", "scharf_mark",
)  # fmt: skip

#: An evening's words the page's Spieltag card shows.
FROM_THE_SHEET = (
    "scheme_verlustpunkte", "scheme_siegpunkte", "scheme_platzpunkte", "scheme_leben",
    "standings_place", "standings_player", "standings_points", "standings_lives",
    "standings_out", "kasse_title", "kasse_season", "kasse_amount", "kasse_thousands",
    "sheet_taken_out", "sheet_table_size", "scheme_counts_sizes", "game_does_not_count",
    "size_2", "size_3", "size_4", "size_5", "size_6", "size_7", "size_8", "size_9", "size_10",
    "sizes_or",
)  # fmt: skip


class PageWords(Catalogue):
    """The page's words in one language: its own, the screen's and an evening's it shows."""

    HOMES = (
        PAGE_WORDS, borrowed(OLED_WORDS, FROM_THE_SCREEN), borrowed(SHEET_WORDS, FROM_THE_SHEET)
    )
