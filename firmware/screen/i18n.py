"""Every text the device shows, in German (the default) and English, and the device's words its
command line prints (``schocken replay``, the ``replay_`` texts) and a remote panel shows.

One language per screen: the English texts name the game's stages in English (a half is "Half
1", the Finale "Final", Auswürfeln the "Roll-off", as docs/rules.md glosses them), while the
names of throws and things stay the game's own in both languages: Schock, Schock aus, General,
Straße, Hausnummer, Deckel, Blattschuss are what the table says, whatever the menu language.
Throw names come from the engine (``Evaluation.name``, or a table's own ``[names]``) and are the
same on every screen and in every table of one rule set.

Texts are looked up by key with :meth:`Catalogue.t`, which fills ``{placeholders}``. Keep them
short: the display is 128 pixels wide, about 21 characters of the bitmap font; the status line of
the turn screen has room for about 15 beside the pot, and a notice (``notice_*``) takes the whole
line. ``tests/firmware/test_fit.py`` renders every text on its screens and fails on a cut.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_LANGUAGE", "LANGUAGES", "MESSAGES", "PRINTED_PREFIX", "SECTION_KEYS", "Catalogue",
    "section_name",
]

DEFAULT_LANGUAGE = "de"

#: The prefixes of the keys of texts printed on a terminal or drawn around the simulated panel,
#: never drawn on it: the bitmap font need not have their characters ("–", "§").
PRINTED_PREFIX = ("replay_", "sim_")

#: key -> (German, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # setup
    "default_player": ("Spieler{number}", "Player{number}"),
    "setup_players": ("Spieler", "Players"),
    "setup_rules": ("Regeln", "Rules"),
    "setup_deckel": ("Deckel", "Deckel"),
    "setup_deckel_detail": (
        "Deckel im Topf (Regel: {preset})",
        "Deckel in the pot (rules: {preset})",
    ),
    "setup_bots": ("Computer", "Computer"),
    "setup_human": ("Mensch", "person"),
    "key_seat": ("Platz ▼", "seat ▼"),
    "key_change": ("ändern", "change"),
    "strategy_threshold": ("Faustregel", "thumb rule"),
    "strategy_odds": ("Quoten", "odds"),
    "setup_start": ("Start", "Start"),
    "setup_go": ("Los!", "Go!"),
    "setup_summary": (
        "{players} Spieler, {rules}, {deckel} Deckel",
        "{players} players, {rules}, {deckel} Deckel",
    ),
    "setup_summary_bots": (
        "{players} Spieler ({bots} ⚙), {rules}, {deckel} Deckel",
        "{players} players ({bots} ⚙), {rules}, {deckel} Deckel",
    ),
    "key_next": ("Weiter", "Next"),
    "key_continue": ("weiter ▶", "next ▶"),
    "key_new_game": ("Neu", "New"),
    # roll-off
    "rolloff_title": ("Auswürfeln", "Roll-off"),
    "rolloff_shake": ("Becher schütteln", "Shake the cup"),
    "rolloff_tie": ("Stechen: {names}", "Tie: {names}"),
    "rolloff_tie_again": ("Stechen: nochmal!", "Tie: throw again!"),
    "rolloff_opens": ("{name} fängt an!", "{name} opens!"),
    # hand-over
    "pass_cup": ("Becher an", "Cup to"),
    "hint_hand_over": ("Drücken oder schütteln", "Press or shake"),
    "limit_one": ("max. 1 Wurf", "max. 1 throw"),
    "limit": ("max. {n} Würfe", "max. {n} throws"),
    "opens_round": ("beginnt Runde {n}", "opens round {n}"),
    # turn
    "throw_of": ("Wurf {n}/{limit}", "Throw {n}/{limit}"),
    "pot": ("Topf {n}", "Pot {n}"),
    "status_shake": ("Schütteln!", "Shake!"),
    "status_shaking": ("…und abstellen", "…and put down"),
    "status_flip": ("FLIP: 6+6 → 1", "FLIP: 6+6 → 1"),
    "status_stand": ("Fertig: STAND", "Done: STAND"),
    # right after a flip: the other six is back in the cup
    "status_flipped": ("Jetzt werfen!", "Throw now!"),
    # what the table sees of someone else's turn while the dice are under the cup
    "status_covered": ("Im Becher", "In the cup"),
    "notice_shake_first": ("Erst schütteln", "Shake first"),
    "notice_stand": ("Kein Wurf mehr", "No throws left"),
    "notice_throw_after_flip": ("Gedreht: nun werfen", "Flipped: throw now"),
    "notice_no_flip": ("FLIP: nur mit 6+6", "FLIP: only with 6+6"),
    "notice_stays_out": ("Liegt fest", "Stays out"),
    "notice_all_out": ("Alle raus? STAND", "All out? STAND"),
    "notice_only_ones": ("Nur Einsen raus", "Only ones out"),
    "notice_not_allowed": ("Nicht erlaubt", "Not allowed"),
    # a computer player's turn
    "bot_hand_over": ("spielt gleich…", "plays in a moment…"),
    "bot_thinks": ("überlegt…", "thinking…"),
    "bot_keeps": ("legt raus", "lays out"),
    "bot_throws": ("würfelt…", "throwing…"),
    "bot_flipped": ("dreht 6+6 → 1", "flips 6+6 → 1"),
    # the hint (long press on FLIP)
    "hint_title": ("Tipp", "Hint"),
    "hint_refused_1": ("Keine Tipps", "No hints"),
    "hint_refused_2": ("im Turnier", "in tournaments"),
    "hint_wait": ("Einen Moment …", "One moment …"),
    "hint_stand": ("Stehen lassen", "Stand"),
    "hint_throw_all": ("Alle werfen", "Throw all dice"),
    "hint_keep": ("{dice} liegen lassen", "Keep {dice}"),
    "hint_flip": ("6+6 zur 1 drehen", "Flip 6+6 to a 1"),
    "hint_and": ("und", "and"),
    # the hint's goal: the chance shown is that of not being the round's loser
    "hint_not_last": ("nicht Letzter", "to avoid the loss"),
    # reveal and sections
    "reveal_title": ("Aufdecken", "Reveal"),
    "round_n": ("Runde {n}", "Round {n}"),
    "outcome_pot": ("{loser} +{n} aus dem Topf", "{loser} +{n} from the pot"),
    "outcome_winner": ("{winner} → {loser}: {n}", "{winner} → {loser}: {n}"),
    "outcome_all": ("{loser} kriegt alle!", "{loser} gets them all!"),
    "outcome_out": ("raus: {names}", "out: {names}"),
    "outcome_out_many": ("{n} raus (durchgestrichen)", "{n} out (struck through)"),
    "section_1": ("1. Hälfte", "Half 1"),
    "section_2": ("2. Hälfte", "Half 2"),
    "section_final": ("Finale", "Final"),
    "loses_section": ("verliert die {section}", "loses {section}"),
    "next_section": ("Weiter: {section}", "Next: {section}"),
    "final_between": ("Finale: {a} gegen {b}", "Final: {a} vs {b}"),
    "final_first": ("Finale: {a}", "Final: {a}"),
    "final_second": ("gegen {b}", "vs {b}"),
    "loses_final": ("verliert das Finale", "loses the final"),
    "game_over_title": ("Spielende", "Game over"),
    "loses_game": ("hat verloren", "has lost"),
    "blattschuss": ("Blattschuss!", "Blattschuss: both lost!"),
    "buys_round": ("gibt eine Runde aus", "buys a round"),
    "penalty_title": ("Strafe", "Penalty"),
    "penalty_given": ("+{n} Deckel", "+{n} Deckel"),
    "penalty_detail": ("bekommt {n} Deckel", "gets {n} Deckel"),
    "dropped_detail": ("verliert die Runde", "loses the round"),
    "dropped_row": ("gefallen", "dropped"),  # the reveal row of a dropped cup, beside a name
    # menu
    "menu_title": ("Menü", "Menu"),
    "menu_continue": ("Weiter", "Continue"),
    "menu_new_game": ("Neues Spiel", "New game"),
    "menu_rules": ("Regeln", "Rules"),
    "menu_penalty": ("Strafe", "Penalty"),
    "menu_dropped": ("Becher gefallen", "Cup dropped"),
    "menu_blind": ("Blind ansagen", "Announce blind"),
    "menu_brightness": ("Helligkeit", "Brightness"),
    "menu_language": ("Sprache", "Language"),
    "menu_shutdown": ("Ausschalten", "Shut down"),
    "menu_discard": ("Spiel verwerfen", "Discard the game"),
    "menu_stats": ("Statistik", "Statistics"),
    # pairing a host (firmware.link.pairing): its PIN, and forgetting every pairing
    "menu_pair": ("Koppeln", "Pair"),
    "menu_unpair": ("Kopplungen löschen", "Forget pairings"),
    "pair_title": ("Koppeln", "Pairing"),
    "pair_send": ("PIN für Seite/Rechner", "PIN for page or host"),
    "pair_valid": ("gilt 2 Minuten", "valid for 2 minutes"),
    "pair_done": ("Gekoppelt", "Paired"),
    "pair_gone": ("PIN verfallen", "PIN expired"),
    "unpaired_lines": ("Alle Kopplungen", "Every pairing"),
    "unpaired_lines_2": ("sind gelöscht", "is forgotten"),
    "referee_mark": ("SR", "REF"),
    "stats_none": ("Noch keine Spiele", "No games yet"),
    "stats_detail": (
        "{games} Sp., {lost} verl., {halves_lost} Hälften, {blattschuss} Blatt, "
        "{schocks} Schock, {schock_aus} Schock aus",
        "{games} games, {lost} lost, {halves_lost} halves, {blattschuss} Blatt, "
        "{schocks} Schock, {schock_aus} Schock aus",
    ),
    "storage_failed_title": ("Speicher!", "Storage!"),
    "storage_failed_1": ("Speichern geht nicht", "Cannot save"),
    "storage_failed_2": ("Spiel läuft weiter", "Game goes on"),
    # damaged state found at start-up (firmware.store.gamestore.DamageReport.screen_lines)
    "state_damaged_title": ("Daten beschädigt", "Damaged data"),
    "state_damaged_resumed": ("{n} Aktionen gerettet", "{n} actions kept"),
    "state_damaged_fresh": ("Neues Spiel", "New game"),
    "state_damaged_recounted": ("Statistik neu gezählt", "Statistics recounted"),
    "state_damaged_not_counted": ("nicht mitgezählt", "not counted"),
    "state_damaged_reset": ("Setup zurückgesetzt", "Setup reset"),
    "state_damaged_names": ("Namen zurückgesetzt", "Names reset"),
    "state_damaged_kept": ("Kopie in damaged/", "Copy in damaged/"),
    "state_damaged_stuck": ("bleibt unverändert", "left untouched"),
    # the simulator's question when it finds an unfinished game (firmware.app.session.resume)
    "resume_title": ("Weiterspielen?", "Continue the game?"),
    "resume_turn": ("{name} ist dran", "{name} to throw"),
    "resume_players": ("{n} Spieler", "{n} players"),
    "key_resume": ("Weiter", "Resume"),
    "confirm_new_game": ("Spiel abbrechen?", "Abandon the game?"),
    "yes_new_game": ("Ja, neues Spiel", "Yes, new game"),
    "confirm_shutdown": ("Ausschalten?", "Shut down?"),
    "yes_shutdown": ("Ja, ausschalten", "Yes, shut down"),
    "no": ("Nein", "No"),
    # the rules in force (the menu's "Regeln" during a game, firmware.screen.rulestext)
    "rules_in_force": ("{name}: {deckel} Deckel", "{name}: {deckel} Deckel"),
    "rules_as_standard": ("keine Hausregeln", "no house rules"),
    "rules_otherwise": ("sonst wie standard", "else as standard"),
    "rules_wait": ("Ändern: erst nach dem Spiel", "Change: after this game"),
    "rule_max_throws": ("Würfe pro Zug: {n}", "Throws per turn: {n}"),
    "rule_penalty_deckel": ("Strafe: {n} Deckel", "Penalty: {n} Deckel"),
    "rule_penalty_none": ("keine Strafen", "no penalties"),
    "rule_general_above_schock2_on": ("General über Schock 2", "General above Schock 2"),
    "rule_general_above_schock2_off": ("Schock 2 über General", "Schock 2 above General"),
    "rule_naturschock_above_built_on": (
        "Naturschock über gebautem Schock aus", "Naturschock above a built Schock aus"
    ),
    "rule_naturschock_above_built_off": ("jeder Schock aus gleich", "every Schock aus alike"),
    "rule_jule_on": ("Jule 4-2-1 (7 Deckel)", "Jule 4-2-1 (7 Deckel)"),
    "rule_jule_off": ("keine Jule", "no Jule"),
    "rule_achter_on": ("3-3-1 als Achter (8 Deckel)", "3-3-1 as Achter (8 Deckel)"),
    "rule_achter_off": ("kein Achter", "no Achter"),
    "rule_flip_sixes_on": ("Sechsen drehen", "sixes may be flipped"),
    "rule_flip_sixes_off": ("kein Sechsen-Drehen", "no flipping sixes"),
    "rule_blind_on": ("Blind ansagen erlaubt", "Blind may be announced"),
    "rule_blind_off": ("kein Blind", "no Blind"),
    "rule_boerdeschock_on": ("Bördeschock: Sechsen sammeln", "Bördeschock: collect sixes"),
    "rule_boerdeschock_off": ("kein Bördeschock", "no Bördeschock"),
    "rule_two_dice_on": ("zwei Würfel", "two dice"),
    "rule_two_dice_off": ("drei Würfel", "three dice"),
    "rule_keep_only_ones_on": ("nur Einsen rauslegen", "only ones may be laid out"),
    "rule_keep_only_ones_off": ("jeder Würfel darf raus", "any die may be laid out"),
    "rule_take_back_on": ("Zurücknehmen erlaubt", "laid-out dice may go back"),
    "rule_take_back_off": ("was liegt, liegt", "laid out stays out"),
    "rule_hidden_last_throw_on": ("letzter Wurf verdeckt", "last throw under the cup"),
    "rule_hidden_last_throw_off": ("letzter Wurf offen", "last throw shown"),
    "rule_hand_only_kind": ("{kind} nur aus der Hand", "{kind} only in one throw"),
    "rule_hand_only_none": ("alles auch gebaut", "everything may be built up"),
    "rule_names_none": ("die üblichen Namen", "the usual names"),
    "rule_name": ("{kind} heißt {name}", "{kind} is called {name}"),
    "rule_dropped_cup_round": ("Becher fällt: Runde verloren", "dropped cup: round lost"),
    "rule_dropped_cup_deckel": ("Becher fällt: Strafe", "dropped cup: penalty"),
    "rule_hints_on": ("Tipps an", "hints on"),
    "rule_hints_off": ("keine Tipps", "no hints"),
    "rule_strasse_order_ascending": ("höhere Straße gewinnt", "higher Straße wins"),
    "rule_strasse_order_equal": ("alle Straßen gleich", "every Straße alike"),
    "rule_strasse_order_first_thrown": (
        "zuerst gewürfelte Straße gewinnt", "Straße thrown first wins"
    ),
    "rule_strasse_order_fewer_throws": (
        "Straße aus weniger Würfen gewinnt", "Straße in fewer throws wins"
    ),
    "rule_ties_fewer_throws": ("Gleichstand: weniger Würfe gewinnt", "Tie: fewer throws win"),
    "rule_ties_nachgelegt": ("Gleichstand: wer zuerst warf", "Tie: who threw first wins"),
    "rule_two_two_one_lowest": ("2-2-1 niedrigster Wurf", "2-2-1 the lowest throw"),
    "rule_two_two_one_neuner": ("2-2-1 als Neuner (9 Deckel)", "2-2-1 as Neuner (9 Deckel)"),
    "rule_two_two_one_siebener": (
        "2-2-1 als Siebener (7 Deckel)", "2-2-1 as Siebener (7 Deckel)"
    ),
    # how rules that differ from their preset describe themselves ("wie standard, aber 15
    # Deckel"; firmware.screen.rulestext.describe_changes): the rules screen's words for an
    # option's value, except where these say it otherwise
    "desc_changes": ("wie {preset}, aber {changes}", "like {preset}, but {changes}"),
    "desc_list_last": ("{items} und {last}", "{items} and {last}"),
    "desc_deckel": ("{n} Deckel", "{n} Deckel"),
    "desc_max_throws": ("höchstens {n} Würfe", "at most {n} throws"),
    "desc_max_throws_one": ("höchstens {n} Wurf", "at most {n} throw"),
    "desc_penalty_deckel": ("Strafe {n} Deckel", "penalty {n} Deckel"),
    "desc_general_above_schock2_off": (
        "Schock 2 über dem General", "Schock 2 above the General"
    ),
    "desc_blind_on": ("Blind ansagen", "announcing Blind"),
    "desc_ties_nachgelegt": (
        "Gleichstand: wer zuerst warf, gewinnt", "Tie: whoever threw first wins"
    ),
    "desc_dropped_cup_round": (
        "gefallener Becher verliert die Runde", "a dropped cup loses the round"
    ),
    "desc_dropped_cup_deckel": (
        "gefallener Becher kostet die Strafe", "a dropped cup costs the penalty"
    ),
    "desc_hand_only": ("nur aus der Hand: {kinds}", "only from the hand: {kinds}"),
    "desc_hand_only_none": ("alles auch zusammengewürfelt", "built throws count too"),
    "desc_names": ("eigene Namen: {names}", "own names: {names}"),
    "desc_name": ("{kind} = {name}", "{kind} = {name}"),
    # names on the device: the setup's names step, the list of names, the letter entry
    "setup_names": ("Namen", "Names"),
    "key_name": ("Name", "name"),
    "roster_title": ("Platz {seat}: Name", "Seat {seat}: name"),
    "roster_new": ("Neuer Name…", "New name…"),
    "entry_title": ("Neu: Platz {seat}", "New: seat {seat}"),
    "entry_take": ("nimm", "take"),
    "entry_legend": ("FLIP löscht · STAND ok", "FLIP deletes · STAND ok"),
    "entry_cancel": ("Halten: Abbruch", "Hold: cancel"),
    "entry_empty": ("Name fehlt", "Name is empty"),
    "entry_taken": ("Name gibt es schon", "Name already taken"),
    "entry_full": ("Höchstens {n} Zeichen", "At most {n} letters"),
    "brightness_detail": ("Stufe {n} von {of}", "level {n} of {of}"),
    "goodbye_title": ("Schockbesteck", "Schockbesteck"),
    "goodbye": ("Tschüss!", "Bye!"),
    "goodbye_hint": ("wird ausgeschaltet", "shutting down"),
    # the builders' self-test (schocken run --check)
    "check_title": ("Selbsttest", "Self-test"),
    "check_hint": ("Drücken, schütteln", "Press buttons, shake"),
    "check_pressed": ("gedrückt: {name}", "pressed: {name}"),
    "check_held": ("gehalten: {name}", "held: {name}"),
    "check_shake": ("Neigung: {n} Flanken", "tilt: {n} edges"),
    # the error screen after the service gave up (schocken run --error-screen)
    "fault_title": ("Schockbesteck: Störung", "Schockbesteck: fault"),
    "fault_config": ("Konfiguration: {problem}", "Configuration: {problem}"),
    "fault_result": ("Dienst gestoppt: {result}", "Service stopped: {result}"),
    "fault_unknown": ("Dienst gestoppt", "Service stopped"),
    "fault_log": ("Log: journalctl -u schockbesteck", "Log: journalctl -u schockbesteck"),
    # the table's web page (firmware/link/web/table.html; firmware.link.webtable.PAGE_KEYS
    # serves them)
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
    "web_stat_games": ("Spiele", "Games"),
    "web_stat_lost": ("verloren", "lost"),
    "web_stat_halves_lost": ("Hälften", "Halves lost"),
    "web_stat_blattschuss": ("Blattschuss", "Blattschuss"),
    "web_stat_schocks": ("Schocks", "Schocks"),
    "web_stat_schock_aus": ("Schock aus", "Schock aus"),
    # {menu}: the menu entry as the device shows it, in the device's language
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
    "web_pair_wrong": ("Falsche PIN, noch {n} Versuche", "Wrong PIN, {n} tries left"),
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
    # `schocken replay`: a game's story on a terminal (firmware/cli/replay.py); printed, never
    # drawn on the panel (so they may use "–", which the bitmap font lacks)
    "replay_header": (
        "Spiel: {players} – Regeln: {rules} ({deckel} Deckel)",
        "Game: {players} – rules: {rules} ({deckel} Deckel)",
    ),
    "replay_roll_off": ("Auswürfeln: {throws}", "Roll-off (Auswürfeln): {throws}"),
    "replay_roll_off_tie": (
        "  Gleichstand: {players} würfeln noch einmal", "  Tie: {players} roll again"
    ),
    "replay_section_1": ("1. Hälfte", "First half"),
    "replay_section_2": ("2. Hälfte", "Second half"),
    "replay_section_3": ("Finale", "Final"),
    "replay_round": (
        "{section}, Runde {number}: {players}", "{section}, round {number}: {players}"
    ),
    "replay_throws": ("wirft {dice}", "throws {dice}"),
    "replay_keeps": ("legt {kept} raus, wirft {dice}", "lays out {kept}, throws {dice}"),
    "replay_flip": ("dreht zwei Sechsen zu einer Eins", "flips two sixes into a one"),
    "replay_blind": ("blind!", "blind!"),
    "replay_stands": ("steht", "stands"),
    "replay_turn": (
        "  {player}: {steps} → {name} ({throws} {throw_word})",
        "  {player}: {steps} → {name} ({throws} {throw_word})",
    ),
    "replay_throw_one": ("Wurf", "throw"),
    "replay_throw_many": ("Würfe", "throws"),
    "replay_round_over": (
        "  {loser} ({losing}) bekommt {deckel} Deckel {source} – höchster Wurf: "
        "{winner} ({winning})",
        "  {loser} ({losing}) takes {deckel} Deckel {source} – highest: {winner} ({winning})",
    ),
    "replay_source_pot": ("aus dem Topf", "from the pot"),
    "replay_source_winner": ("von {winner}", "from {winner}"),
    "replay_source_all": ("(alle)", "(all of them)"),
    "replay_holdings": ("  Topf {pot} | {holdings}", "  pot {pot} | {holdings}"),
    "replay_out": ("  raus: {players}", "  out: {players}"),
    "replay_penalty": (
        "  Strafe: {player} bekommt {deckel} Deckel ({from_pot} aus dem Topf{taken})",
        "  Penalty: {player} takes {deckel} Deckel ({from_pot} from the pot{taken})",
    ),
    "replay_taken": (", {deckel} von {player}", ", {deckel} from {player}"),
    "replay_drop": (
        "  {player}: {steps}Becher gefallen – verliert die Runde",
        "  {player}: {steps}dropped the cup – loses the round",
    ),
    "replay_half_1_over": ("{player} verliert die 1. Hälfte.", "{player} loses the first half."),
    "replay_half_2_over": (
        "{player} verliert die 2. Hälfte.", "{player} loses the second half."
    ),
    "replay_final_over": ("{player} verliert das Finale.", "{player} loses the final."),
    "replay_final": ("Finale: {players}", "Final: {players}"),
    "replay_game_over": ("Verlierer des Spiels: {player}", "Loser of the game: {player}"),
    "replay_blattschuss": (
        "Verlierer des Spiels: {player} (Blattschuss: beide Hälften verloren)",
        "Loser of the game: {player} (Blattschuss: lost both halves)",
    ),
    "replay_turn_so_far": ("  {player}: {steps} …", "  {player}: {steps} …"),
    "replay_interrupted": (
        "(Spiel unterbrochen: {player} ist dran, {throws}. von {limit} Würfen)",
        "(game interrupted: {player} to throw, throw {throws} of {limit})",
    ),
    "replay_interrupted_roll_off": (
        "(Spiel unterbrochen beim Auswürfeln: {players})",
        "(game interrupted during the roll-off: {players})",
    ),
    "replay_listed": (
        "{number:>5}  {players} – Verlierer: {loser}", "{number:>5}  {players} – loser: {loser}"
    ),
    "replay_listed_current": (
        "läuft  {players} – {actions} Aktionen", "going  {players} – {actions} actions"
    ),
    "replay_listed_damaged": (
        "{number:>5}  (beschädigt: {problem})", "{number:>5}  (damaged: {problem})"
    ),
    "replay_none": ("Noch keine Spiele in {root}.", "No games in {root} yet."),
    # the command line's printed output in one language (schocken stats, replay, rules;
    # firmware/cli/): --lang, else the environment's LANG (firmware.cli.common.output_language)
    "replay_from": ("Journal: {path}", "Journal: {path}"),
    "cli_stats_player": ("Spieler", "Player"),
    "cli_stats_games": ("Spiele", "Games"),
    "cli_stats_lost": ("verloren", "Lost"),
    "cli_stats_halves_lost": ("Hälften verloren", "Halves lost"),
    "cli_stats_blattschuss": ("Blattschüsse", "Blattschüsse"),
    "cli_stats_schocks": ("Schocks", "Schocks"),
    "cli_stats_schock_aus": ("Schock aus", "Schock aus"),
    "cli_stats_none": ("Noch keine beendeten Spiele.", "No finished games yet."),
    "cli_rules_name": ("Regeln:", "rules:"),
    "cli_rules_file": ("Datei:", "file:"),
    "cli_rules_based_on": ("Grundlage:", "based on:"),
    "cli_rules_changed": ("{base}, geändert: {changed}", "{base}, changed: {changed}"),
    "cli_rules_description": ("Beschreibung:", "description:"),
    "cli_rules_source": ("Quelle:", "source:"),
    # the presets' descriptions: the German is the preset file's own (tests/cli checks it)
    "cli_preset_boerde": (
        "Bördeschock (Soest): Sechsen sammeln und später drehen, jedes Drehen bringt einen Wurf "
        "mehr, bis zu fünf Würfe",
        "Bördeschock (Soest): collect sixes and flip them later, each flip gives one more throw, "
        "up to five throws",
    ),
    "cli_preset_bvb": (
        "Borussia Dortmund: General (Jenie) über Schock 2, 4-5-6 schlägt 1-2-3, bei Gleichstand "
        "gewinnt, wer zuerst warf",
        "Borussia Dortmund: General (Jenie) above Schock 2, 4-5-6 beats 1-2-3, on a tie the "
        "earlier thrower wins",
    ),
    "cli_preset_dsm": (
        "Deutsche Schockmeisterschaft: General über Schock 2, Straße nur in einem Wurf, "
        "Gleichstand: weniger Würfe gewinnt, keine Tipps",
        "Deutsche Schockmeisterschaft: General above Schock 2, Straße only in one throw, "
        "tie: fewer throws win, no hints",
    ),
    "cli_preset_standard": (
        "Die verbreiteten Regeln: 13 Deckel, Schock 2 über dem General, Gleichstand: weniger "
        "Würfe gewinnt",
        "The common rules: 13 Deckel, Schock 2 above the General, tie: fewer throws win",
    ),
    "cli_preset_westfalen": (
        "Westfälische Zusatzwürfe: Jule 4-2-1 und 2-2-1 als Siebener (7 Deckel), 3-3-1 als "
        "Achter (8 Deckel), Naturschock über gebautem Schock aus",
        "Westphalian extra throws: Jule 4-2-1 and 2-2-1 as Siebener (7 Deckel), 3-3-1 as "
        "Achter (8 Deckel), Naturschock above a built Schock aus",
    ),
    # a remote panel: the simulator's window showing a device on a link (sim/attach.py)
    "attach_connecting": ("Verbinde mit", "Connecting to"),
    "attach_waiting": ("Warte auf Bild ...", "Waiting for a frame ..."),
    "attach_version": (
        "Protokoll {version} wird nicht unterstützt", "protocol {version} is not supported"
    ),
    "attach_other": ("Kein Schockbesteck", "Not a Schockbesteck"),
    "attach_lost": ("Verbindung getrennt", "Connection lost"),
    "attach_reconnecting": ("verbinde neu…", "reconnecting…"),
    # the device's and the simulator's own words around a game (penalty, resume, key help)
    # -- a penalty or a dropped cup: nobody is chosen first, and a question confirms it
    "pick_nobody": ("Wer?", "Who?"),
    "pick_nobody_detail": ("◀ ▶ wählen", "◀ ▶ to choose"),
    "confirm_penalty": ("Strafe geben?", "Give the penalty?"),
    "yes_penalty": ("Ja: {name} +{n}", "Yes: {name} +{n}"),
    "confirm_dropped": ("Becher gefallen?", "Cup dropped?"),
    "yes_dropped": ("Ja: {name}", "Yes: {name}"),
    # -- the simulator's own words around the OLED (sim/terminal.py, sim/window.py): printed by
    # the terminal or drawn by pygame, never on the panel ("sim_" is a printed prefix)
    "sim_keys_title": ("Tasten", "Keys"),
    "sim_help_keep": ("Würfel darüber rauslegen/zurück", "keep or release the die above"),
    "sim_help_flip": ("zwei Sechsen zu einer Eins drehen", "flip two sixes into a one"),
    "sim_help_stand": ("stehen: Zug beenden", "stand: end the turn"),
    "sim_help_shake_window": (
        "Becher schütteln; loslassen: Wurf", "shake the cup; let go to throw"
    ),
    "sim_help_shake_terminal": ("Becher schütteln, dann Wurf", "shake the cup, then throw"),
    "sim_key_hold": ("Taste halten", "hold a key"),
    "sim_help_hold": ("lang drücken (S: Menü)", "long press (S: the menu)"),
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
    # -- the simulator's notices: where the page and the link are, why there is no window
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
    "sim_summary_unplayed": (
        " (das Spiel war vor den übrigen {rest} aus)",
        " (the game was over before the other {rest})",
    ),
    "sim_summary_over": ("; Spiel aus, {loser} hat verloren", "; game over, {loser} lost"),
    "sim_summary_wrote": ("; geschrieben: {files}", "; wrote {files}"),
    "sim_summary_frames": ("{n} Bilder nach {folder}", "{n} frames to {folder}"),
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
    # -- each language in its own name (the menu's language chooser)
    "language_name": ("Deutsch", "English"),
    # real dice at the table: each result entered on the five buttons, corrected from the menu
    "entry_throws": ("{n} W. (max. {limit})", "{n} of max. {limit}"),
    "entry_correct": ("Korr. {n} W.", "Fix {n} thr."),
    "entry_rolloff": ("{n}/{total}", "{n}/{total}"),
    "entry_hand": ("Hand", "hand"),
    "entry_built": ("gebaut", "built"),
    "notice_over_limit": ("Mehr als das Limit", "More than the limit"),
    "notice_impossible": ("So nicht möglich", "Not possible so"),
    "notice_one_throw_hand": ("1 Wurf: aus der Hand", "1 throw: from hand"),
    "notice_correction_conflict": ("Passt nicht: Limit", "Clashes: limit"),
    "notice_blind_one_throw": ("Blind: nur 1 Wurf", "Blind: 1 throw only"),
    "menu_correct": ("Korrigieren", "Correct"),
    "correct_detail": ("Ergebnis neu eingeben", "enter the result again"),
    "menu_real_dice_off": ("Echte Würfel: aus", "Real dice: off"),
    "menu_real_dice_on": ("Echte Würfel: an", "Real dice: on"),
    # `schocken replay` of a real-dice game (printed, never drawn on the panel)
    "replay_reported": ("meldet {dice}", "reports {dice}"),
    "replay_corrected": ("korrigiert auf {dice}", "corrected to {dice}"),
    # Real dice from a paired phone: the page's entry card, its refusals in the page's
    # words, the setup's dice choice; and the device's last entry before the round is settled
    "entry_settle": ("STAND: abrechnen", "STAND: settle"),
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
    # An evening of games, its standings and the league's sheet
    # (the schemes' names are the clubs' own German terms; the details explain them in English)
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
    "standings_title": (
        "{name} ({date}), {scheme}, nach {games} Spielen",
        "{name} ({date}), {scheme}, after {games} games",
    ),
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
    "spieltag_begun": (
        "Spieltag {name} ({id}) begonnen: jedes Spiel gehört dazu, bis er beendet wird.",
        "Spieltag {name} ({id}) begun: every game belongs to it until it is ended.",
    ),
    "spieltag_ended": (
        "Spieltag {name} ({id}) beendet, {games} Spiele.",
        "Spieltag {name} ({id}) ended, {games} games.",
    ),
    # -- on the device: the menu's Spieltag and the standings after each game
    "menu_spieltag_begin": ("Spieltag beginnen", "Begin a Spieltag"),
    "menu_spieltag_standings": ("Spieltag: Stand", "Spieltag: standings"),
    "menu_spieltag_end": ("Spieltag beenden", "End the Spieltag"),
    "confirm_spieltag_end": ("Spieltag beenden?", "End the Spieltag?"),
    "yes_spieltag_end": ("Ja, beenden", "Yes, end it"),
    "spieltag_begun_title": ("Spieltag läuft", "Spieltag begun"),
    "spieltag_ended_title": ("Spieltag beendet", "Spieltag ended"),
    "spieltag_failed": ("Nicht gespeichert", "Not saved"),
    "standings_screen_title": ("Stand nach {n} Spielen", "After {n} games"),
    "standings_screen_title_one": ("Stand nach 1 Spiel", "After 1 game"),
    "standings_no_fit_1": ("Wertung passt", "The scoring does"),
    "standings_no_fit_2": ("nicht zu {n} Spielern", "not fit {n} players"),
    "scheme_verlustpunkte_detail": (
        "1 je verlorene Hälfte, 1 mehr je verlorenes Spiel; weniger ist besser",
        "1 per half lost, 1 more per game lost; fewer is better",
    ),
    "scheme_siegpunkte_detail": (
        "Je Hälfte 1 für alle außer dem Verlierer; Finale verloren: 1 zurück",
        "Each half 1 for all but its loser; final lost: 1 back",
    ),
    "scheme_platzpunkte_detail": (
        "Je Hälfte 3/2/1/0 nach dem Ausscheiden; Finale, Durchmarsch: -1",
        "Each half 3/2/1/0 by going out; final, Durchmarsch: -1",
    ),
    "scheme_leben_detail": (
        "3 Leben; ein verlorenes Spiel kostet eins; ohne Leben raus",
        "3 lives; a lost game costs one; out at none",
    ),
    "spieltag_none": (
        "Noch kein beendetes Spiel an diesem Spieltag.", "No finished game on this Spieltag yet."
    ),
    # The Spieltag's time box ("scharf": once it runs out, a round's loser loses the
    # Hälfte) on the device and in `schocken replay`, and the page's Spieltag card
    "scharf_mark": ("scharf", "scharf"),
    "scharf_title": ("Zeit ist um", "Time is up"),
    "scharf_headline": ("Scharf!", "Scharf!"),
    "scharf_now": ("Ab dieser Runde:", "From this round on:"),
    "scharf_next": ("Nach dieser Runde:", "After this round:"),
    "scharf_line_1": ("Rundenverlierer", "each round's loser"),
    "scharf_line_2": ("verliert die Hälfte", "loses the half"),
    "outcome_scharf": ("{loser} verliert scharf", "{loser} loses, scharf"),
    "time_box_title": ("Zeitlimit", "Time box"),
    "time_box_none": ("ohne", "none"),
    "time_box_minutes": ("{n} Minuten", "{n} minutes"),
    "time_box_detail": (
        "danach scharf: Rundenverlierer verliert die Hälfte",
        "then scharf: a round's loser loses the half",
    ),
    "replay_scharf": (
        "Zeit um nach {minutes} Minuten: ab jetzt scharf (Rundenverlierer verliert die Hälfte)",
        "time up after {minutes} minutes: scharf from now on (a round's loser loses the half)",
    ),
    "replay_scharf_round": (
        "scharf: {loser} verliert die Hälfte", "scharf: {loser} loses the half"
    ),
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
    "web_spieltag_csv": ("Bogen als CSV", "Sheet as CSV"),
    "web_spieltag_pdf": ("Bogen als PDF", "Sheet as PDF"),
    "web_spieltag_scharf": (
        "Scharf: Rundenverlierer verliert die Hälfte", "Scharf: a round's loser loses the half"
    ),
    "web_spieltag_time_box_is": ("Zeitlimit: {n} Min.", "Time box: {n} min"),
    # `make tournament-demo` (sim/tournament_demo.py), a tournament on this machine:
    # its broker, what it starts, how it ends (printed, never drawn: "sim_" is a printed prefix)
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
    "sim_demo_faults": (
        "Störungen: Broker und Hub werden unterwegs mit SIGKILL beendet, Tische verlieren das Netz",
        "Faults: the broker and the hub are killed (SIGKILL) on the way, tables lose the network",
    ),
    "sim_demo_over": (
        "Turnier beendet: {rounds} Runden, {games} Spiele, {stored} Ergebnisse beim Hub, "
        "{lost} verloren, {unexpected} ohne Tagebuch; Stand wie nachgezählt: {equal}",
        "Tournament over: {rounds} rounds, {games} games, {stored} results at the hub, "
        "{lost} lost, {unexpected} in no journal; standings as recounted: {equal}",
    ),
    "sim_demo_yes": ("ja", "yes"),
    "sim_demo_no": ("NEIN", "NO"),
    "sim_run_round": (
        "Runde {round}: {tables} Tische ausgelost und gestartet",
        "Round {round}: {tables} tables drawn and started",
    ),
    "sim_run_round_done": (
        "Runde {round}: alle Ergebnisse bestätigt, Runde beendet",
        "Round {round}: every result acknowledged, round finished",
    ),
    "sim_run_offline": (
        "Runde {round}: {count} Tische ohne Netz", "Round {round}: {count} tables lose the network"
    ),
    "sim_run_online": (
        "Runde {round}: {count} Tische wieder im Netz",
        "Round {round}: {count} tables are back on the network",
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
    # The tournament hub's TV and phone views, its exports and `schocken hub`
    # (shown in a browser or printed, never drawn on the panel)
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
    "hub_reported": ("{games} Spiele gemeldet", "{games} games reported"),
    "hub_reported_one": ("1 Spiel gemeldet", "1 game reported"),
    "hub_last_loser": ("zuletzt verloren: {name}", "last lost: {name}"),
    "hub_online": ("verbunden", "online"),
    "hub_offline": ("nicht verbunden", "offline"),
    "hub_outbox": ("{n} noch nicht gemeldet", "{n} not yet reported"),
    "hub_refused": ("Abgewiesen: {n}", "Refused: {n}"),
    "hub_waiting": ("Zur Freigabe: {n}", "To approve: {n}"),
    "hub_reconnecting": ("Verbindung weg, verbinde neu …", "Connection lost, reconnecting …"),
    "hub_export_csv": ("Stand als CSV", "Standings as CSV"),
    "hub_export_pdf": ("Stand als PDF", "Standings as PDF"),
    "hub_pdf_title": (
        "Turnier {event}: Stand nach Runde {n}", "Tournament {event}: after round {n}"
    ),
    "hub_drawn": ("Runde {n} ausgelost: {tables} Tische", "Round {n} drawn: {tables} tables"),
    "hub_started": ("Runde {n} läuft", "Round {n} is running"),
    "hub_finished": ("Runde {n} beendet", "Round {n} finished"),
    "hub_serving": (
        "Hub für {event} an {broker}; TV: {tv}  Handy: {phone}",
        "Hub for {event} on {broker}; TV: {tv}  phone: {phone}",
    ),
    # A tournament's table on the device: its card (table, round, players, time left) and
    # whether its results have reached the hub
    "menu_tournament": ("Turnier", "Tournament"),
    "tournament_title": ("{label} · Runde {round}", "{label} · Round {round}"),
    "tournament_label": ("Tisch {number}", "Table {number}"),
    "tournament_waiting": ("Noch keine Auslosung", "Not drawn yet"),
    "tournament_time_left": ("noch {minutes} min", "{minutes} min left"),
    "tournament_time_up": ("Zeit um", "Time is up"),
    "tournament_no_time": ("ohne Zeitlimit", "no time limit"),
    "tournament_reported": ("gemeldet ✓", "reported ✓"),
    "tournament_pending": ("noch nicht gemeldet ({n})", "not yet reported ({n})"),
    "tournament_refused": ("{n} abgelehnt", "{n} refused"),
    "tournament_offline": ("offline", "offline"),
    "tournament_not_saved": ("Meldung nicht gespeichert", "Report not saved"),
    "tournament_table_done": ("Tisch ausgespielt", "Table finished"),
    "tournament_bad_names": ("Namen nicht spielbar", "Names not playable"),
    "key_play": ("Spielen", "Play"),
}

#: The text key of each section: the two Hälften (halves) and the Finale (section 3,
#: ``engine.game.FINAL``; named by number so that the catalogue loads no game).
SECTION_KEYS = {1: "section_1", 2: "section_2", 3: "section_final"}

#: The UI languages, in the order of each text's pair: German (the default) and English.
LANGUAGES = ("de", "en")
LANGUAGE_INDEX = {language: index for index, language in enumerate(LANGUAGES)}


class Catalogue:
    """The texts of one language. Unknown keys are a programming error (KeyError)."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        if language not in LANGUAGE_INDEX:
            allowed = ", ".join(LANGUAGE_INDEX)
            raise ValueError(f"language {language!r} is not available: use one of {allowed}")
        self.language = language
        self._index = LANGUAGE_INDEX[language]

    def has(self, key: str) -> bool:
        """Whether there is a text for ``key``."""
        return key in MESSAGES

    def t(self, key: str, **values: object) -> str:
        """The text for ``key`` with ``{placeholders}`` filled from ``values``."""
        return MESSAGES[key][self._index].format(**values)


def section_name(texts: Catalogue, section: int) -> str:
    """The first or second Hälfte (half) or the Finale, in words."""
    return texts.t(SECTION_KEYS[section])
