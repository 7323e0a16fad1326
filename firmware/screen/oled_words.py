"""The device's screen's words (the OLED's), in German (the default) and English.

One language per screen: the English texts name the game's stages in English (a half is "Half
1", the Finale "Final", Auswürfeln the "Roll-off", as docs/rules.md glosses them), while the
names of throws and things stay the game's own in both languages: Schock, Schock aus, General,
Straße, Hausnummer, Deckel, Blattschuss are what the table says, whatever the menu language.
Throw names come from the engine (``Evaluation.name``, or a table's own ``[names]``) and are the
same on every screen and in every table of one rule set.

The screens look them up by key with :meth:`OledWords.t` (:mod:`firmware.words`), which fills
``{placeholders}``; they show an evening's words too (the schemes' names, the standings':
:mod:`firmware.report.sheet_words`). Keep them short: the display is 128 pixels wide, about 21
characters of the bitmap font; the status line of the turn screen has room for about 15 beside
the pot, and a notice (``notice_*``) takes the whole line. ``tests/firmware/test_fit.py`` renders
every text on its screens and fails on a cut. Words the device never draws live elsewhere: the
table's page's in :mod:`firmware.link.page_words`, the command line's in
:mod:`firmware.cli.cli_words`.
"""

from __future__ import annotations

from firmware.report.sheet_words import SHEET_WORDS
from firmware.words import Catalogue

__all__ = ["OLED_WORDS", "SECTION_KEYS", "OledWords", "section_name"]

#: key -> (German, English)
OLED_WORDS: dict[str, tuple[str, str]] = {
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
    # FLIP held after the last throw: the hint is for a turn under way
    "notice_no_hint_turn_over": ("Zug vorbei: kein Tipp", "Turn over: no hint"),
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
    # the strongest other choice and its chance, under the advised one
    "hint_other": ("{action}: {chance}", "{action}: {chance}"),
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
    # each count after its label, so that 1 reads as well as 2 ("Hälften 1", not "1 Hälften")
    "stats_detail": (
        "Sp. {games}, verl. {lost}, Hälften {halves_lost}, Blatt {blattschuss}, "
        "Schock {schocks}, Schock aus {schock_aus}",
        "games {games}, lost {lost}, halves {halves_lost}, Blatt {blattschuss}, "
        "Schock {schocks}, Schock aus {schock_aus}",
    ),
    "storage_failed_title": ("Speicher!", "Storage!"),
    "storage_failed_1": ("Speichern geht nicht", "Cannot save"),
    "storage_failed_2": ("Spiel läuft weiter", "Game goes on"),
    # spieltag.json cannot be read: the game still belongs to the evening it names, if any
    "evening_damaged_title": ("Spieltag-Datei", "Spieltag file"),
    "evening_damaged_1": ("ist beschädigt!", "is damaged!"),
    "evening_damaged_kept": ("Spiele zählen mit", "Games still count"),
    "evening_damaged_kept_2": ("nach der Reparatur", "once it is repaired"),
    "evening_damaged_lost": ("Spiel zählt nicht", "Game does not count"),
    "evening_damaged_lost_2": ("für den Spieltag", "for the Spieltag"),
    # ... and in the menu, while it is damaged: the games begun meanwhile count, or none does
    "evening_damaged_none": ("Spiele zählen nicht", "Games do not count"),
    # damaged state found at start-up (firmware.store.gamestore.DamageReport.screen_lines)
    "state_damaged_title": ("Daten beschädigt", "Damaged data"),
    "state_damaged_resumed": ("{n} Aktionen gerettet", "{n} actions kept"),
    "state_damaged_resumed_one": ("1 Aktion gerettet", "1 action kept"),
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
    # a penalty or a dropped cup: nobody is chosen first, and a question confirms it
    "pick_nobody": ("Wer?", "Who?"),
    "pick_nobody_detail": ("◀ ▶ wählen", "◀ ▶ to choose"),
    "confirm_penalty": ("Strafe geben?", "Give the penalty?"),
    "yes_penalty": ("Ja: {name} +{n}", "Yes: {name} +{n}"),
    "confirm_dropped": ("Becher gefallen?", "Cup dropped?"),
    "yes_dropped": ("Ja: {name}", "Yes: {name}"),
    # each language in its own name (the menu's language chooser)
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
    # a correction begun: how to leave it unmade (until its first button), and the menu's way
    "entry_correct_cancel": ("Abbruch: STAND halten", "Cancel: hold STAND"),
    "menu_cancel_correction": ("Korrektur abbrechen", "Cancel correction"),
    "menu_real_dice_off": ("Echte Würfel: aus", "Real dice: off"),
    "menu_real_dice_on": ("Echte Würfel: an", "Real dice: on"),
    # the last entry of a round entered with real dice, before the round is settled
    "entry_settle": ("STAND: abrechnen", "STAND: settle"),
    # An evening of games (a Spieltag): the menu's Spieltag, the standings after each game and
    # the schemes to begin one with, each with a line of what it counts (the schemes' names are
    # an evening's words: firmware.report.sheet_words)
    "menu_spieltag_begin": ("Spieltag beginnen", "Begin a Spieltag"),
    "menu_spieltag_standings": ("Spieltag: Stand", "Spieltag: standings"),
    "menu_spieltag_end": ("Spieltag beenden", "End the Spieltag"),
    "confirm_spieltag_end": ("Spieltag beenden?", "End the Spieltag?"),
    "yes_spieltag_end": ("Ja, beenden", "Yes, end it"),
    "spieltag_begun_title": ("Spieltag läuft", "Spieltag begun"),
    "spieltag_ended_title": ("Spieltag beendet", "Spieltag ended"),
    "spieltag_failed": ("Nicht gespeichert", "Not saved"),
    # why, under "Nicht gespeichert" (a storage failure says no more; a damaged file says so)
    "spieltag_going_on": ("Spieltag läuft schon", "One is going on"),
    "spieltag_not_going_on": ("Kein Spieltag läuft", "None is going on"),
    "spieltag_try_again": ("Bitte noch einmal", "Please try again"),
    # the menu's one Spieltag entry while spieltag.json is damaged (beginning and ending fail)
    "menu_spieltag_damaged": ("Spieltag: beschädigt", "Spieltag: damaged"),
    "standings_screen_title": ("Stand nach {n} Spielen", "After {n} games"),
    "standings_screen_title_one": ("Stand nach 1 Spiel", "After 1 game"),
    "standings_partie_lost": ("Partie {n} fehlt!", "Game {n} missing!"),
    # a finished game the standings do not count: taken out from the menu, or of a table size
    # the scheme cannot score (said before its first throw too: "Platzpunkte zählt zu dritt
    # oder zu viert: dieses Spiel zählt nicht", the evening's words)
    "standings_partie_uncounted": ("Partie {n} zählt nicht", "Game {n} not counted"),
    "standings_partie_taken_out": ("Partie {n} gestrichen", "Game {n} taken out"),
    "spieltag_word": ("Spieltag", "Spieltag"),
    "uncounted_title": ("Spiel zählt nicht", "Game not counted"),
    # under Leben, after the game that left players without a life ({names}: theirs)
    "out_headline": ("Raus!", "Out!"),
    "out_sits_out_one": ("keine Leben: setzt aus", "no lives left: sits out"),
    "out_sits_out_many": ("keine Leben: setzen aus", "no lives left: sit out"),
    # the menu's last game of the Spieltag: taken out (played, not counted) or put back
    "menu_spieltag_last": ("Letzte Partie …", "Last game …"),
    "confirm_take_out": ("Partie {n} streichen?", "Take game {n} out?"),
    "confirm_put_back": ("Partie {n} zählen?", "Count game {n} again?"),
    "yes_take_out": ("Ja, streichen", "Yes, take it out"),
    "yes_put_back": ("Ja, wieder zählen", "Yes, count it"),
    "amended_put_back": ("Partie {n} zählt wieder", "Game {n} counts again"),
    "amended_counted": ("Stand: {counted} von {games}", "Counted: {counted} of {games}"),
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
    # the Spieltag's time box ("scharf": once it runs out, a round's loser loses the Hälfte)
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
    "time_box_minutes_one": ("1 Minute", "1 minute"),
    "time_box_detail": (
        "danach scharf: Rundenverlierer verliert die Hälfte",
        "then scharf: a round's loser loses the half",
    ),
    # a tournament's table on the device: its card (table, round, players, time left) and
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
    "tournament_unreadable": ("Protokoll beschädigt ({n})", "Journal damaged ({n})"),
    "tournament_table_done": ("Tisch ausgespielt", "Table finished"),
    "tournament_bad_names": ("Namen nicht spielbar", "Names not playable"),
    "key_play": ("Spielen", "Play"),
}

#: The text key of each section: the two Hälften (halves) and the Finale (section 3,
#: ``engine.game.FINAL``; named by number so that the words load no game).
SECTION_KEYS = {1: "section_1", 2: "section_2", 3: "section_final"}


class OledWords(Catalogue):
    """The device's screen's words in one language, with an evening's."""

    HOMES = (OLED_WORDS, SHEET_WORDS)


def section_name(texts: OledWords, section: int) -> str:
    """The first or second Hälfte (half) or the Finale, in words."""
    return texts.t(SECTION_KEYS[section])
