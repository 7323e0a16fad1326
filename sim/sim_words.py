"""The simulator's words, in German and English: its key help and key bar, its notices, the
remote panel's messages and ``make tournament-demo``'s lines.

They follow the device's language (the simulator asks the device for it once it runs). Only the
remote panel's (``attach_``) are drawn on the panel's picture, with the device's bitmap font; the
others are printed or drawn by pygame.
"""

from __future__ import annotations

from firmware.words import Catalogue

__all__ = ["SIM_WORDS", "SimWords"]

#: key -> (German, English)
SIM_WORDS: dict[str, tuple[str, str]] = {
    # a remote panel: the simulator's window showing a device on a link (sim/attach.py); drawn
    # with the device's bitmap font on the panel's picture
    "attach_connecting": ("Verbinde mit", "Connecting to"),
    "attach_waiting": ("Warte auf Bild ...", "Waiting for a frame ..."),
    "attach_version": (
        "Protokoll {version} wird nicht unterstützt", "protocol {version} is not supported"
    ),
    "attach_other": ("Kein Schockbesteck", "Not a Schockbesteck"),
    "attach_lost": ("Verbindung getrennt", "Connection lost"),
    "attach_reconnecting": ("verbinde neu…", "reconnecting…"),
    # the simulator's own words around the OLED (sim/terminal.py, sim/window.py): printed by
    # the terminal or drawn by pygame, never on the panel
    "sim_keys_title": ("Tasten", "Keys"),
    "sim_help_keep": ("Würfel darüber rauslegen/zurück", "keep or release the die above"),
    "sim_help_flip": ("zwei Sechsen zu einer Eins drehen", "flip two sixes into a one"),
    "sim_help_stand": ("stehen: Zug beenden", "stand: end the turn"),
    "sim_help_shake_window": (
        "Becher schütteln; loslassen: Wurf", "shake the cup; let go to throw"
    ),
    "sim_help_shake_terminal": ("Becher schütteln, dann Wurf", "shake the cup, then throw"),
    "sim_key_hold": ("Taste halten", "hold a key"),
    "sim_help_hold": ("lang drücken (S: Menü, F: Tipp)", "long press (S: the menu, F: a hint)"),
    "sim_help_long_terminal": (
        "lang drücken (S: Menü, F: Tipp)", "long press (S: the menu, F: a hint)"
    ),
    "sim_key_prefix": ("l, Taste", "l, a key"),
    "sim_help_prefix": ("diese Taste lang (auch ! @ #)", "long press of that key (! @ # too)"),
    "sim_key_help_window": ("H oder ?", "H or ?"),
    "sim_key_help_terminal": ("h oder ?", "h or ?"),
    "sim_help_help_window": ("diese Hilfe", "this help"),
    "sim_help_help_terminal": ("diese Hilfe (h nochmal: zurück)", "this help (h again: back)"),
    "sim_key_quit_terminal": ("q oder Esc", "q or Esc"),
    "sim_help_quit": ("beenden", "quit"),
    "sim_key_space": ("Leertaste", "Space"),
    "sim_help_close": ("H: Hilfe schließen", "H: close the help"),
    "sim_help_open": ("H  Hilfe", "H  help"),
    "sim_cup_caption": ("Leertaste: schütteln", "Space: shake"),
    "sim_cup_caption_2": ("(oder Becher ziehen)", "(or drag the cup)"),
    "sim_terminal_note_compact": (
        "Ein Terminal meldet kein Loslassen: eine Taste ist ein ganzer Druck, die Leertaste "
        "ein ganzes Schütteln (der Becher klappert, dann fallen die Würfel).",
        "A terminal reports no key releases: a key is a whole press, Space a whole shake (the "
        "cup rattles, then the dice fall).",
    ),
    "sim_terminal_note": (
        "Das Terminal meldet kein Loslassen: eine Taste ist ein ganzer Druck, ein Großbuchstabe "
        "(oder l, dann eine Taste) ein langer, und die Leertaste ein ganzes Schütteln: der Becher "
        "klappert, wird abgestellt, und die Würfel fallen.",
        "The terminal reports no key releases, so a key is a whole press, a capital (or l, then "
        "a key) a long press, and Space a whole shake: the cup rattles, then it is put down and "
        "the dice fall.",
    ),
    "sim_footer_compact": (
        'Leertaste: schütteln  F S ! " § / l+Taste: lang  h: Hilfe  q: Ende',
        'Space: shake  F S ! " § / l+key: long press  h: help  q: quit',
    ),
    "sim_footer": (
        'Leertaste: schütteln   l+Taste oder F S ! " §: lang drücken   h: Hilfe   q: beenden',
        'Space: shake   l+key or F S ! " §: long press   h: help   q: quit',
    ),
    "sim_state_long": ("lang drücken: welche Taste?", "long press: press a button key"),
    "sim_state_shaking": ("schüttelt...", "shaking..."),
    "sim_too_small": (
        "Das Terminal hat {size}, das Gerät braucht {needed}: bitte größer machen (q beendet)",
        "the terminal is {size}; the device needs {needed}: make it larger (q quits)",
    ),
    # the simulator's notices: where the page and the link are, why there is no window
    # (printed on stderr and shown by the terminal, in the screens' language)
    "sim_page_where": ("die Seite des Tischs: {url}", "the table's page is on {url}"),
    "sim_link_where": ("die Verbindung (Link): {url}", "the link is on {url}"),
    "sim_no_display": (
        "kein Bildschirm gefunden (weder DISPLAY noch WAYLAND_DISPLAY ist gesetzt)",
        "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)",
    ),
    "sim_no_pygame": (
        "pygame ist nicht installiert ({error})", "pygame is not installed ({error})"
    ),
    "sim_no_sdl": ("SDL kann kein Fenster öffnen ({error})", "SDL cannot open a window ({error})"),
    "sim_in_terminal": (
        "{why}: gespielt wird im Terminal", "{why}: playing in the terminal instead"
    ),
    "sim_no_terminal": (
        "{why}, und kein Terminal zum Spielen: --script DATEI spielt ohne Bildschirm",
        "{why}, and no terminal to play in: use --script FILE to play headless",
    ),
    "sim_summary": (
        "{played} Skript-Aktionen gespielt{unplayed}, {game_s} s Spielzeit in {wall_s} s",
        "{played} script actions played{unplayed}, {game_s} s of game time in {wall_s} s",
    ),
    "sim_summary_one": (
        "1 Skript-Aktion gespielt{unplayed}, {game_s} s Spielzeit in {wall_s} s",
        "1 script action played{unplayed}, {game_s} s of game time in {wall_s} s",
    ),
    "sim_summary_unplayed": (
        " (das Spiel war vor den übrigen {rest} aus)",
        " (the game was over before the other {rest})",
    ),
    "sim_summary_unplayed_one": (
        " (das Spiel war vor der letzten aus)", " (the game was over before the last one)",
    ),
    "sim_summary_over": ("; Spiel aus, {loser} hat verloren", "; game over, {loser} lost"),
    "sim_summary_wrote": ("; geschrieben: {files}", "; wrote {files}"),
    "sim_summary_frames": ("{n} Bilder nach {folder}", "{n} frames to {folder}"),
    "sim_summary_frames_one": ("1 Bild nach {folder}", "1 frame to {folder}"),
    "sim_kept": (
        "das unfertige Spiel liegt in {folder}", "the unfinished game is kept in {folder}"
    ),
    "sim_kept_offer": (
        "{kept}; `schocken sim` bietet an, es weiterzuspielen",
        "{kept}; `schocken sim` offers to go on with it",
    ),
    "sim_page_stays": (
        "das Skript ist zu Ende; die Seite bleibt bis Strg+C",
        "the script is over; the page stays up until Ctrl+C",
    ),
    # `make tournament-demo` (sim/tournament/demo.py), a tournament on this machine:
    # its broker, what it starts, how it ends (printed)
    "sim_demo_no_mosquitto": (
        "mosquitto fehlt ({path}): sudo apt-get install mosquitto",
        "mosquitto is missing ({path}): sudo apt-get install mosquitto",
    ),
    "sim_demo_broker": (
        "Broker: {url} (nur dieser Rechner; Ordner {folder}); Tische: {tables}",
        "Broker: {url} (this machine only; folder {folder}); tables: {tables}",
    ),
    "sim_demo_hub": (
        "Hub: {event} auf {url} als Benutzer {user}", "Hub: {event} on {url} as user {user}"
    ),
    "sim_demo_tables": (
        "Tische: {count} simulierte Tische ({users}) mit Computerspielern",
        "Tables: {count} simulated tables ({users}) with computer players",
    ),
    "sim_demo_tables_one": (
        "Tische: 1 simulierter Tisch ({users}) mit Computerspielern",
        "Tables: 1 simulated table ({users}) with computer players",
    ),
    "sim_demo_faults": (
        "Störungen: Broker und Hub werden unterwegs mit SIGKILL beendet, Tische verlieren das Netz",
        "Faults: the broker and the hub are killed (SIGKILL) on the way, tables lose the network",
    ),
    "sim_demo_over": (
        "Turnier beendet: Runden {rounds}, Spiele {games}, Ergebnisse beim Hub {stored}, "
        "verloren {lost}, ohne Tagebuch {unexpected}; Stand wie nachgezählt: {equal}",
        "Tournament over: rounds {rounds}, games {games}, results at the hub {stored}, "
        "lost {lost}, in no journal {unexpected}; standings as recounted: {equal}",
    ),
    "sim_demo_winner": (
        "Sieger: {name} (die TV-Ansicht zeigt das Siegertreppchen bis Strg+C)",
        "Winner: {name} (the TV view shows the podium until Ctrl+C)",
    ),
    "sim_demo_yes": ("ja", "yes"),
    "sim_demo_no": ("NEIN", "NO"),
    "sim_run_round": (
        "Runde {round}: {tables} Tische ausgelost und gestartet",
        "Round {round}: {tables} tables drawn and started",
    ),
    "sim_run_round_one": (
        "Runde {round}: 1 Tisch ausgelost und gestartet",
        "Round {round}: 1 table drawn and started",
    ),
    "sim_run_round_done": (
        "Runde {round}: alle Ergebnisse bestätigt, Runde beendet",
        "Round {round}: every result acknowledged, round finished",
    ),
    "sim_run_offline": (
        "Runde {round}: {count} Tische ohne Netz", "Round {round}: {count} tables lose the network"
    ),
    "sim_run_offline_one": (
        "Runde {round}: 1 Tisch ohne Netz", "Round {round}: 1 table loses the network"
    ),
    "sim_run_online": (
        "Runde {round}: {count} Tische wieder im Netz",
        "Round {round}: {count} tables are back on the network",
    ),
    "sim_run_online_one": (
        "Runde {round}: 1 Tisch wieder im Netz", "Round {round}: 1 table is back on the network"
    ),
    "sim_run_cut": (
        "Runde {round}: {count} Tische still vom Netz getrennt (kein Abmelden, kein FIN)",
        "Round {round}: {count} tables cut off silently (no goodbye, no FIN)",
    ),
    "sim_run_cut_one": (
        "Runde {round}: 1 Tisch still vom Netz getrennt (kein Abmelden, kein FIN)",
        "Round {round}: 1 table cut off silently (no goodbye, no FIN)",
    ),
    "sim_run_cut_back": (
        "Runde {round}: der Hub hat den Letzten Willen der {count} Tische; sie sind wieder im Netz",
        "Round {round}: the hub has the {count} tables' Last Will; they are back on the network",
    ),
    "sim_run_cut_back_one": (
        "Runde {round}: der Hub hat den Letzten Willen des Tisches; er ist wieder im Netz",
        "Round {round}: the hub has the table's Last Will; it is back on the network",
    ),
    "sim_run_replaced": (
        "Runde {round}: Gerät von Tisch {table} mitten im Spiel ausgefallen, Ersatzgerät mit "
        "seiner SD-Karte spielt weiter",
        "Round {round}: table {table}'s device died mid-game; a spare with its SD card plays on",
    ),
    "sim_run_hub_lost": (
        "Runde {round}: Hub samt Datenbank verloren; neu angelegt und von den Tischen "
        "wieder aufgefüllt",
        "Round {round}: the hub lost with its database; made again and refilled from the tables",
    ),
    "sim_run_broker_killed": (
        "Runde {round}: Broker mit SIGKILL beendet", "Round {round}: broker killed (SIGKILL)"
    ),
    "sim_run_broker_back": (
        "Runde {round}: Broker wieder gestartet", "Round {round}: broker started again"
    ),
    "sim_run_hub_killed": (
        "Runde {round}: Hub mit SIGKILL beendet", "Round {round}: hub killed (SIGKILL)"
    ),
    "sim_run_hub_back": ("Runde {round}: Hub wieder gestartet", "Round {round}: hub started again"),
    "sim_demo_tv": ("TV-Ansicht: {url}", "TV view: {url}"),
    "sim_demo_running": ("Läuft; Strg+C beendet.", "Running; Ctrl+C stops."),
    "sim_demo_broker_died": (
        "der Broker ist unterwegs gestorben: {line}", "the broker died on the way: {line}"
    ),
    "sim_demo_stopped": (
        "Beendet: Broker gestoppt, sein Ordner gelöscht.",
        "Stopped: the broker is down and its folder removed.",
    ),
}


class SimWords(Catalogue):
    """The simulator's words in one language."""

    HOMES = (SIM_WORDS,)
