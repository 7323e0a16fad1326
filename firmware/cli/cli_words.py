"""The command line's words, in German and English: what ``schocken replay``, ``stats``, ``rules``
and ``spieltag`` print.

Printed in one language, never drawn on the panel (so they may use "–", which the bitmap font
lacks): ``--lang``, else the environment's (:func:`firmware.cli.common.output_language`). The
command line composes them with an evening's words (:mod:`firmware.report.sheet_words`); where
it prints what a screen says (a rule's words), it asks that screen's catalogue.
"""

from __future__ import annotations

from firmware.report.sheet_words import SHEET_WORDS
from firmware.words import Catalogue

__all__ = ["CLI_WORDS", "CliWords"]

#: key -> (German, English)
CLI_WORDS: dict[str, tuple[str, str]] = {
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
    "replay_listed_current_one": (
        "läuft  {players} – 1 Aktion", "going  {players} – 1 action"
    ),
    "replay_listed_damaged": (
        "{number:>5}  (beschädigt: {problem})", "{number:>5}  (damaged: {problem})"
    ),
    "replay_none": ("Noch keine Spiele in {root}.", "No games in {root} yet."),
    "replay_from": ("Journal: {path}", "Journal: {path}"),
    # `schocken stats`: the statistics' columns, and an evening's standings under their title
    "cli_stats_player": ("Spieler", "Player"),
    "cli_stats_games": ("Spiele", "Games"),
    "cli_stats_lost": ("verloren", "Lost"),
    "cli_stats_halves_lost": ("Hälften verloren", "Halves lost"),
    "cli_stats_blattschuss": ("Blattschüsse", "Blattschüsse"),
    "cli_stats_schocks": ("Schocks", "Schocks"),
    "cli_stats_schock_aus": ("Schock aus", "Schock aus"),
    "cli_stats_none": ("Noch keine beendeten Spiele.", "No finished games yet."),
    "standings_title": (
        "{name} ({date}), {scheme}, nach {games} Spielen",
        "{name} ({date}), {scheme}, after {games} games",
    ),
    "standings_title_one": (
        "{name} ({date}), {scheme}, nach 1 Spiel", "{name} ({date}), {scheme}, after 1 game"
    ),
    # `schocken rules show`: the labels of the head
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
    # `schocken replay` of a real-dice game (printed, never drawn on the panel)
    "replay_reported": ("meldet {dice}", "reports {dice}"),
    "replay_corrected": ("korrigiert auf {dice}", "corrected to {dice}"),
    # `schocken spieltag begin`, `end` and `substitute`
    "spieltag_begun": (
        "Spieltag {name} ({id}) begonnen: jedes Spiel gehört dazu, bis er beendet wird.",
        "Spieltag {name} ({id}) begun: every game belongs to it until it is ended.",
    ),
    "spieltag_ended": (
        "Spieltag {name} ({id}) beendet, {games} Spiele.",
        "Spieltag {name} ({id}) ended, {games} games.",
    ),
    "spieltag_substitute": (
        "{name} ist Auswechselspieler auf {seat} ({spieltag}).",
        "{name} is a substitute on {seat} ({spieltag}).",
    ),
    "spieltag_ended_one": (
        "Spieltag {name} ({id}) beendet, 1 Spiel.", "Spieltag {name} ({id}) ended, 1 game."
    ),
    # `schocken spieltag take-out`, `put-back`, `scoring` (each recounted at once) and
    # `history` (when, and what)
    "spieltag_taken_out": (
        "Partie {partie} gestrichen: der Stand zählt {counted} von {games} Spielen.",
        "Game {partie} taken out: the standings count {counted} of {games} games.",
    ),
    "spieltag_put_back": (
        "Partie {partie} zählt wieder: der Stand zählt {counted} von {games} Spielen.",
        "Game {partie} counts again: the standings count {counted} of {games} games.",
    ),
    "spieltag_scheme_changed": (
        "Wertung von {before} auf {after} geändert: der Stand zählt {counted} von {games} "
        "Spielen.",
        "Scoring changed from {before} to {after}: the standings count {counted} of {games} "
        "games.",
    ),
    "spieltag_history_taken_out": (
        "{at}  Partie {partie} gestrichen", "{at}  game {partie} taken out"
    ),
    "spieltag_history_put_back": (
        "{at}  Partie {partie} zählt wieder", "{at}  game {partie} counts again"
    ),
    "spieltag_history_scheme": (
        "{at}  Wertung {before} → {after}", "{at}  scoring {before} → {after}"
    ),
    "spieltag_history_none": (
        "{name}: nichts geändert, seit er begonnen wurde.",
        "{name}: nothing changed since it began.",
    ),
    # `schocken replay` of a Spieltag's game once its time box ran out ("scharf": a round's
    # loser loses the Hälfte)
    "replay_scharf": (
        "Zeit um nach {minutes} Minuten: ab jetzt scharf (Rundenverlierer verliert die Hälfte)",
        "time up after {minutes} minutes: scharf from now on (a round's loser loses the half)",
    ),
    "replay_scharf_one": (
        "Zeit um nach 1 Minute: ab jetzt scharf (Rundenverlierer verliert die Hälfte)",
        "time up after 1 minute: scharf from now on (a round's loser loses the half)",
    ),
    "replay_scharf_round": (
        "scharf: {loser} verliert die Hälfte", "scharf: {loser} loses the half"
    ),
}


class CliWords(Catalogue):
    """The command line's words in one language, with an evening's."""

    HOMES = (CLI_WORDS, SHEET_WORDS)
