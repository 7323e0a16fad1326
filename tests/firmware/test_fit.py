"""The fit check: every screen and message of the device, in German and English, fits the OLED.

Each scene below builds views the way the device does (the real stages of ``firmware/app/`` on a
real game, the real menu and overlays, the catalogue's texts) with the worst values the device
allows: names of :data:`~firmware.screen.shortnames.SHOWN_NAME_LENGTH` wide letters and with
umlauts, the longest names the name rule allows (:data:`~firmware.names.MAX_NAME_LENGTH`, as a
tournament's hub may send them, shown shortened), two-digit Deckel, 2 and 10 players, computer
players' marks, every throw name of every preset, every notice.
Each view is rendered by the real renderer (:func:`firmware.screen.screens.render`) inside
:func:`firmware.screen.screens.trace_layout`, which records every text, die, bar and separator it
draws, measured with the bitmap font's real widths, and shown on luma's dummy device as the OLED
would show it. A scene fails on any text cut with "…" or left out, any element outside the 128x64
panel, and any two elements that overlap (dark text on its own bar excepted).

To check a new screen, register a scene: a function that takes the language's
:class:`~firmware.screen.oled_words.OledWords` and yields ``(label, view)`` pairs, decorated with
``@scene("name")``::

    @scene("name_entry")
    def _name_entry(texts: OledWords) -> Iterator[tuple[str, View]]:
        stage = NameEntryStage(session_in(texts), ...)
        yield "empty", stage.view()

Build the views through the stage that shows them, so that the check sees the texts the players
will see. ``test_fit_check_counts`` prints how many views and texts were checked.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from itertools import product
from typing import NamedTuple
from unittest import mock

import pytest
from luma.core.device import dummy
from PIL import ImageChops

from engine.bots import make_bot
from engine.events import HalfOver, PenaltyGiven, RoundOver, TurnOver
from engine.game import FINAL, GameSetup
from engine.notation import from_notation
from engine.odds import ActionKind, Choice
from engine.rules import Rules, load_preset, preset_names
from engine.scoring import SCHEME_PRESETS, load_scheme
from engine.settle import DeckelSource
from engine.spieltag import SpieltagError
from engine.throws import rank_table
from engine.tournament import PhaseKind
from firmware.advice import Hint
from firmware.app.session.moments import EveningStandings
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.app.stages.base import CLOSE
from firmware.app.stages.entry import EntryStage
from firmware.app.stages.hint import PendingHint, hint_view
from firmware.app.stages.menu import (
    MainMenu,
    PinOverlay,
    RulesInForce,
    language_picker,
    player_confirmation,
    player_picker,
)
from firmware.app.stages.naming import WHEEL, NameEntry, RosterPicker
from firmware.app.stages.overlays import Menu, Message, Picker
from firmware.app.stages.resume_question import ResumeQuestion
from firmware.app.stages.reveal import (
    GameOverBanner,
    GoodbyeBanner,
    HalfOverBanner,
    PenaltyBanner,
    RevealStage,
)
from firmware.app.stages.rolloff import RollOffStage
from firmware.app.stages.setup import SetupStage, SetupStep
from firmware.app.stages.standings import (
    TIME_BOXES,
    Notice,
    StandingsList,
    StandingsStage,
    evening_damage_lines,
    kasse_items,
    refusal_lines,
    scharf_banner,
    scheme_name,
    scheme_picker,
    time_box_picker,
    uncounted_message,
)
from firmware.app.stages.turn import HandOverStage, TurnDoneStage, TurnStage
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.link.pairing import Pairing
from firmware.names import MAX_NAME_LENGTH, name_problem
from firmware.screen.error_screen import error_lines
from firmware.screen.oled_words import OLED_WORDS, OledWords
from firmware.screen.screens import LayoutTrace, Placed, render, trace_layout
from firmware.screen.shortnames import SHOWN_NAME_LENGTH, short_names
from firmware.screen.views import BannerView, DieFace, PickerView, Tally, TurnView, View
from firmware.store.gamestore import DamageReport
from firmware.store.setupfile import DECKEL_RANGE
from firmware.store.stores import open_stores
from hal.ports import SCREEN_SIZE, StorageError
from sim.fakes import FakeClock

#: The scoring schemes the device's menu offers.
SCHEMES = tuple(SCHEME_PRESETS)

#: Ten names of the longest allowed length: the widest letters, umlauts, capitals with dots.
LONG_NAMES = (
    "WWWWWWWWWW", "Müller-Öhm", "MMMMMMMMMM", "Ännchen-Öz", "Wolfgang-W",
    "Çağla-Šoňa", "Ölmühle-Ük", "Waldemar-M", "ØysteinÉlí", "Großmaul99",
)  # fmt: skip
assert all(len(name) == SHOWN_NAME_LENGTH for name in LONG_NAMES)

#: Ten names as long as the name rule allows, as a tournament's hub may send them: the widest
#: letters and umlauts, alike at the start so that their shortened forms
#: (:mod:`firmware.screen.shortnames`) keep their ends, or are numbered where the ends are alike.
HUB_NAMES = (
    "W" * MAX_NAME_LENGTH, "W" * (MAX_NAME_LENGTH - 1) + "M", "W" * (MAX_NAME_LENGTH - 2) + "ÄÖ",
    "Müller-Öhm-" + "M" * (MAX_NAME_LENGTH - 12) + "Ü",
    "Müller-Öhm-" + "W" * (MAX_NAME_LENGTH - 12) + "Ü",
    "Ännchen-Özdemir-" + "M" * (MAX_NAME_LENGTH - 16),
    "Çağla-Šoňa-" + "W" * (MAX_NAME_LENGTH - 11),
    "Großmaul-" + "Ö" * (MAX_NAME_LENGTH - 10) + "9",
    "Großmaul-" + "Ö" * (MAX_NAME_LENGTH - 11) + "10",
    "ØysteinÉlí-" + "MW" * ((MAX_NAME_LENGTH - 11) // 2) + "M",
)  # fmt: skip
assert all(len(name) == MAX_NAME_LENGTH and name_problem(name) is None for name in HUB_NAMES)
assert all(len(form) == SHOWN_NAME_LENGTH for form in short_names(HUB_NAMES).values())

LANGUAGES = ("de", "en")
SceneMaker = Callable[[OledWords], Iterator[tuple[str, View]]]
#: Registered scenes: name -> maker (see the module's docstring).
SCENES: dict[str, SceneMaker] = {}
#: Scenes drawn with the link's referee mark in the title bar.
MARKED: set[str] = set()


def scene(name: str, *, referee: bool = False) -> Callable[[SceneMaker], SceneMaker]:
    """Register a scene maker for the fit check under ``name`` (``referee``: with the mark)."""

    def register(maker: SceneMaker) -> SceneMaker:
        SCENES[name] = maker
        if referee:
            MARKED.add(name)
        return maker

    return register


# --- building real stages ----------------------------------------------------------------------


def session_in(texts: OledWords, players: tuple[str, ...] = LONG_NAMES[:3]) -> Session:
    """A device session in the language of ``texts``, configured with ``players``."""
    base = DeviceConfig()
    config = replace(base, game=replace(base.game, players=players[:10]))
    session = Session(
        config, clock=FakeClock(100.0), dice=SeededDice(1), stores=open_stores(None),
        plan=None, event_sink=None, shutdown=None,
    )
    session.choose_language(texts.language)
    return session


def table(
    texts: OledWords,
    players: tuple[str, ...],
    position: str | None = None,
    *,
    rules: Rules | None = None,
    bots: tuple[str, ...] = (),
) -> Table:
    """A game of ``players`` in ``position`` (the engine's notation); ``bots`` are computer seats.

    The computer players play by the rule of thumb (their strategy is never asked here).
    """
    session = session_in(texts, players)
    setup = GameSetup(players, rules or load_preset("standard"))
    game_table = session.open_table(setup)
    if position is not None:
        game_table.game = from_notation(position, setup)
    game_table.bots = {name: make_bot("threshold") for name in bots}
    _SESSIONS[game_table] = session
    return game_table


#: The session of each table :func:`table` made (a stage is built on both).
_SESSIONS: weakref.WeakKeyDictionary[Table, Session] = weakref.WeakKeyDictionary()


def session_of(game_table: Table) -> Session:
    """The session :func:`table` made ``game_table`` in."""
    return _SESSIONS[game_table]


#: Deckel of the players in seat order: two digits for the first ones.
COUNTS = (12, 10, 0, 11, 0, 3, 0, 1, 0, 2)


def holdings(players: tuple[str, ...]) -> str:
    """Two-digit Deckel: the notation's player field."""
    return ",".join(f"{name}={COUNTS[i]}" for i, name in enumerate(players))


def deckel_for(players: tuple[str, ...], pot: int) -> Rules:
    """The standard rules with as many Deckel as ``pot`` and the players' hold together."""
    return replace(load_preset("standard"), deckel=pot + sum(COUNTS[: len(players)]))


def turn_position(players: tuple[str, ...], dice: str, pot: int = 13, limit: str = "3") -> str:
    """A position in the first half with ``players[0]`` throwing ``dice`` (notation)."""
    finished = f"{players[-1]}:521h3" if limit != "-" else "-"
    return f"1 {pot} {holdings(players)} {limit} {finished} {players[0]}:{dice}"


#: The setup's numbered names, as the device makes them for seats without a configured name.
DEFAULT_NAMES = tuple(f"Spieler{number}" for number in range(1, 11))

PLAYER_SETS = {
    "2 players": LONG_NAMES[:2],
    "3 players": LONG_NAMES[:3],
    "6 players": LONG_NAMES[:6],
    "10 players": LONG_NAMES,
    "10 numbered players": DEFAULT_NAMES,
    "4 players with a hub's longest names": HUB_NAMES[:4],
}


def every_throw_name() -> list[str]:
    """The names of every throw of every preset (the widest of each kind matter)."""
    names: set[str] = set()
    for preset in preset_names():
        names.update(evaluation.name for evaluation in rank_table(load_preset(preset)).ranking)
    return sorted(names)


# --- the scenes --------------------------------------------------------------------------------


@scene("setup")
def _setup(texts: OledWords) -> Iterator[tuple[str, View]]:
    for label, players in PLAYER_SETS.items():
        session = session_in(texts, players)
        stage = SetupStage.starting(session, session.new_setup())
        stage.players = len(players)
        stage.bots = ["odds", "threshold"] + [""] * 8
        stage.step = SetupStep.START
        start = stage.view()
        assert isinstance(start, PickerView)
        summary = texts.t("setup_summary", players=len(players), rules="westfalen", deckel=40)
        yield f"{label}: start without computer players", replace(start, detail=summary)
        stage.evening_scheme = load_scheme("platzpunkte")
        if len(players) not in (3, 4):
            warning = stage.view()
            assert isinstance(warning, PickerView) and warning.detail != start.detail
            yield f"{label}: start of a game Platzpunkte does not count", warning
        stage.evening_scheme = None
        for step in SetupStep:
            stage.step = step
            if step is SetupStep.RULES:
                for index, rules in enumerate(session.rule_options):
                    stage.choose_rules(index)
                    yield f"{label}: rules {rules.name}", stage.view()
                continue
            if step is SetupStep.DECKEL:
                for deckel in DECKEL_RANGE:
                    stage.deckel = deckel
                    yield f"{label}: {deckel} Deckel", stage.view()
                continue
            for seat in range(len(players)):
                stage.seat = seat
                yield f"{label}: step {step.name} seat {seat}", stage.view()
                if step is not SetupStep.COMPUTERS:
                    break


@scene("roll-off")
def _roll_off(texts: OledWords) -> Iterator[tuple[str, View]]:
    for label, players in PLAYER_SETS.items():
        for bots in ((), players[:1]):
            game_table = table(texts, players, bots=bots)
            stage = RollOffStage(session_of(game_table), game_table)
            yield f"{label}: waiting", stage.view()
            stage.shaking = True
            yield f"{label}: shaking", stage.view()
            stage.shaking = False
            tie = [(6, 6, 6)] * 2 + [(1, 2, 4)] * (len(players) - 2)
            stage.throw_with(tie)
            yield f"{label}: a tie", stage.view()
            stage.throw_with([(1, 1, 1), (2, 2, 1)])
            yield f"{label}: decided", stage.view()


@scene("hand-over")
def _hand_over(texts: OledWords) -> Iterator[tuple[str, View]]:
    shown = (DieFace(1, out=True), DieFace(6, out=True), DieFace(None))
    for (label, players), bots in product(PLAYER_SETS.items(), ((), LONG_NAMES[:2])):
        for limit in ("1", "2", "3"):
            position = f"1 13 {holdings(players)} {limit} {players[-1]}:521h3 {players[0]}:---/0"
            game_table = table(texts, players, position, rules=deckel_for(players, 13), bots=bots)
            session = session_of(game_table)
            stage = HandOverStage(session, game_table, players[0], players[-1], shown)
            yield f"{label}, bots {bots}: after a turn, limit {limit}", stage.view()
        for section in (1, 2, FINAL):
            section_players = players[:2] if section == FINAL else players
            field = "F" if section == FINAL else str(section)
            marker = "^" if section != 1 else ""
            counts = holdings(section_players).replace(",", f"{marker},", 1)
            position = f"{field} 13 {counts} - - {players[0]}:---/0"
            rules = deckel_for(section_players, 13)
            game_table = table(texts, players, position, rules=rules, bots=bots)
            game_table.section, game_table.round_number = section, 12
            stage = HandOverStage(session_of(game_table), game_table, players[0])
            yield f"{label}, bots {bots}: opens a round of section {section}", stage.view()


def _turn_tables(
    texts: OledWords, dice: str, tables: Iterable[str], limit: str = "3"
) -> Iterator[tuple[str, Table]]:
    for label, bots in product(tables, ((), LONG_NAMES[:1])):
        players = PLAYER_SETS[label]
        for pot in (13, 40):
            position = turn_position(players, dice, pot, limit)
            rules = deckel_for(players, pot)
            yield f"{label}, bots {bots}, pot {pot}", table(
                texts, players, position, rules=rules, bots=bots
            )


@scene("turn")
def _turn(texts: OledWords) -> Iterator[tuple[str, View]]:
    yield from turn_views(texts, PLAYER_SETS)


def turn_views(texts: OledWords, tables: Iterable[str]) -> Iterator[tuple[str, View]]:
    """The turn screens at each of ``tables`` (keys of :data:`PLAYER_SETS`)."""
    notices = sorted(key for key in OLED_WORDS if key.startswith("notice_"))
    for label, game_table in _turn_tables(texts, "---/0", tables):
        stage = TurnStage(session_of(game_table), game_table)
        yield f"{label}: before the throw", stage.view()
        stage.start_shaking(100.0)
        yield f"{label}: shaking", stage.view()
    for label, game_table in _turn_tables(texts, "663/1h", tables):
        stage = TurnStage(session_of(game_table), game_table)
        yield f"{label}: two sixes", stage.view()
        yield f"{label}: two sixes, as the table sees it", stage.table_view()
        if stage.driver is not None:
            for activity in ("bot_thinks", "bot_keeps", "bot_throws", "bot_flipped"):
                stage.driver.activity = activity
                yield f"{label}: {activity}", stage.view()
            continue
        for notice in notices:
            stage.notice = notice
            yield f"{label}: {notice}", stage.view()
    for label, game_table in _turn_tables(texts, "1*63/1f", tables):
        stage = TurnStage(session_of(game_table), game_table)
        yield f"{label}: right after a flip", stage.view()
    for label, game_table in _turn_tables(texts, "642/3h", tables, limit="3"):
        stage = TurnStage(session_of(game_table), game_table)
        yield f"{label}: no throws left", stage.view()
        faces = (DieFace(6), DieFace(4), DieFace(2))
        done = TurnDoneStage(session_of(game_table), game_table, game_table.game.players[0], 3,
                             3, faces, "Hausnummer", notice="notice_no_hint_turn_over")
        yield f"{label}: FLIP held after the last throw", done.view()


#: A table of each count of the board's lines (one to three), which sets where the dice and the
#: status line with a throw's name stand on the turn screen; the names do not change the board.
BOARD_SHAPES = ("2 players", "6 players", "10 players")


@scene("throw names")
def _throw_names(texts: OledWords) -> Iterator[tuple[str, View]]:
    yield from throw_name_views(texts, BOARD_SHAPES)


def throw_name_views(texts: OledWords, tables: Iterable[str]) -> Iterator[tuple[str, View]]:
    """Every throw name after the last throw and on the turn screen, at each of ``tables``
    (keys of :data:`PLAYER_SETS`)."""
    faces = (DieFace(6), DieFace(4), DieFace(2))
    for label in tables:
        # One game for every name: the names change the status line only.
        players = PLAYER_SETS[label]
        position = turn_position(players, "---/0", 40)
        game_table = table(texts, players, position, rules=deckel_for(players, 40))
        turn = TurnStage(session_of(game_table), game_table)
        turn.notice = ""
        turn_view = turn.view()
        for name in every_throw_name():
            stage = TurnDoneStage(session_of(game_table), game_table, players[0], 3, 3, faces,
                                  name)
            yield f"{label}: the last throw was {name}", stage.view()
            yield f"{label}: turn screen", _with_status(turn_view, name)


def _with_status(view: TurnView, status: str) -> TurnView:
    """The turn screen of a position with ``status`` as its throw name (every name, one game)."""
    return replace(view, status=status)


@scene("reveal")
def _reveal(texts: OledWords) -> Iterator[tuple[str, View]]:
    yield from reveal_views(texts, PLAYER_SETS)


def reveal_views(texts: OledWords, tables: Iterable[str]) -> Iterator[tuple[str, View]]:
    """The reveal's pages at each of ``tables`` (keys of :data:`PLAYER_SETS`)."""
    names = [*every_throw_name(), texts.t("dropped_row")]  # a dropped cup's row has no throw
    longest = max(names, key=len)
    for label in tables:
        players = PLAYER_SETS[label]
        turns = tuple(
            TurnOver(name, (6, 4, 2), False, 3, longest, 1) for name in players
        )
        winner, loser = players[1], players[0]
        outs: tuple[tuple[str, ...], ...] = ((), players[:1], players[:2], players[2:])
        for source, out in product(DeckelSource, outs):
            if len(out) >= len(players):
                continue
            result = RoundOver(
                winner, loser, longest, longest, 13, source, tuple(out), 0, (), turns
            )
            game_table = table(texts, players)
            stage = RevealStage(session_of(game_table), game_table, result, 12)
            for page in range(stage.pages):
                stage.page = page
                yield f"{label}: {source.name}, {len(out)} out, page {page + 1}", stage.view()


@scene("banners")
def _banners(texts: OledWords) -> Iterator[tuple[str, View]]:
    # Every seat the computer's: each name with its ⚙, the widest the banners show.
    for label, players in PLAYER_SETS.items():
        game_table = table(texts, players, bots=players)
        for loser in players[:2]:
            penalty = PenaltyGiven(loser, 13, 13, ())
            yield f"{label}: penalty for {loser}", PenaltyBanner(
                session_of(game_table), game_table, penalty
            ).view()
            for section in (1, 2, FINAL):
                half = HalfOver(section, loser)
                banner = HalfOverBanner(session_of(game_table), game_table, half)
                yield f"{label}: {loser} loses section {section}", banner.view()
                banner.final = (players[0], players[1])
                yield f"{label}: {loser} loses section {section}, final", banner.view()
        for position in (
            f"over {players[0]} {players[0]},{players[0]}",
            f"over {players[0]} {players[0]},{players[1]}",
        ):
            over = table(texts, players, position, bots=players)
            yield f"{label}: {position}", GameOverBanner(session_of(over), over).view()
    yield "goodbye", GoodbyeBanner(session_in(texts)).view()


def _stats_detail(texts: OledWords) -> str:
    return texts.t("stats_detail", games=999, lost=999, halves_lost=999, blattschuss=999,
                   schocks=999, schock_aus=999)


@scene("menu and overlays")
def _menu(texts: OledWords) -> Iterator[tuple[str, View]]:
    keys = [key for key in OLED_WORDS if key.startswith("menu_") and key != "menu_title"]
    menu = Menu("menu_title", [(key, lambda: None) for key in keys])
    for index in range(len(keys)):
        menu.selected = index
        yield f"menu at {keys[index]}", menu.view(texts)
    for title, yes in (("confirm_new_game", "yes_new_game"), ("confirm_shutdown", "yes_shutdown")):
        confirm = Menu(title, [("no", lambda: None), (yes, lambda: None)], selected=1)
        yield title, confirm.view(texts)
    game_table = table(texts, LONG_NAMES)
    stage = TurnStage(session_of(game_table), game_table)
    yield "the menu during a turn", MainMenu(session_of(game_table), stage).open().view(texts)
    messages = {
        "unpaired": ("menu_unpair", ("unpaired_lines", "unpaired_lines_2")),
        "no stats": ("menu_stats", ("stats_none",)),
        "storage": ("storage_failed_title", ("storage_failed_1", "storage_failed_2")),
        "no hints": ("hint_title", ("hint_refused_1", "hint_refused_2")),
    }
    for label, (title, lines) in messages.items():
        yield label, Message(title, tuple(texts.t(key) for key in lines)).view(texts)
    for kept, this_game in product((True, False), (True, False)):
        lines = evening_damage_lines(texts, kept, this_game=this_game)
        label = f"evening file damaged, {'kept' if kept else 'lost'}, {this_game=}"
        yield label, Message("evening_damaged_title", lines).view(texts)
    for report in (
        DamageReport("current.journal", "x", "damaged/20250101T201500Z-current.journal", 999),
        DamageReport("current.journal", "x", "damaged/x", 0),
        DamageReport("current.journal", "x", "damaged/x", 1),
        DamageReport("stats.json", "x", "damaged/x", None),
        DamageReport("game-000123.journal", "x", "damaged/x", None),
        DamageReport("setup.json", "x", "damaged/x", None),
        DamageReport("setup.json", "x", None, None),
        DamageReport("names.json", "x", "damaged/x", None),
    ):
        lines = report.screen_lines(texts.t)
        yield f"damaged {report.name}", Message("state_damaged_title", lines).view(texts)
    pairing = Pairing()
    overlay = PinOverlay(pairing, pairing.show_pin(0.0))
    yield "pairing PIN", overlay.view(texts)
    pairing.pair(overlay.pin, 1.0)
    yield "paired", overlay.view(texts)
    overlay.hosts_before = pairing.paired_hosts
    yield "PIN gone", overlay.view(texts)
    yield "hint pending", PendingHint().view(texts)


@scene("pickers")
def _pickers(texts: OledWords) -> Iterator[tuple[str, View]]:
    session = session_in(texts)
    options = session.rule_options
    for index, rules in enumerate(options):
        picker = Picker("menu_rules", len(options), index, lambda i: options[i].name,
                        lambda i: options[i].description, lambda i: None)
        yield f"rules {rules.name}", picker.view(texts)
    players = LONG_NAMES
    detail = texts.t("penalty_detail", n=40)
    penalty = player_picker("menu_penalty", players, detail, lambda name: None)
    dropped = player_picker("menu_dropped", players, texts.t("dropped_detail"), lambda n: None)
    yield "penalty for nobody yet", penalty.view(texts)
    yield "dropped cup of nobody yet", dropped.view(texts)
    for index, name in enumerate(players):
        penalty.index = dropped.index = index + 1
        yield f"penalty for {name}", penalty.view(texts)
        yield f"dropped cup of {name}", dropped.view(texts)
        for title in ("menu_penalty", "menu_dropped"):
            confirm = player_confirmation(title, name, 40, lambda name: CLOSE)
            yield f"{title} confirmed for {name}", confirm.view(texts)
        stats = Picker("menu_stats", len(players), index, lambda i: players[i],
                       lambda i: _stats_detail(texts), lambda i: None)
        yield f"statistics of {name}", stats.view(texts)
    for level in range(5):
        picker = Picker("menu_brightness", 5, level, lambda i: str(i + 1),
                        lambda i: texts.t("brightness_detail", n=i + 1, of=5), lambda i: None)
        yield f"brightness {level + 1}", picker.view(texts)
    for index, language in enumerate(LANGUAGES):
        picker = language_picker(index, lambda i: None)
        yield f"language {language}", picker.view(texts)


@scene("hint")
def _hint(texts: OledWords) -> Iterator[tuple[str, View]]:
    """Every action's words, alone and beside every other (the widest: two dice kept, a flip),
    at chances of every width ("100 %", "99,9 %", "0,5 %")."""
    actions = (
        Choice(ActionKind.STAND),
        Choice(ActionKind.FLIP),
        Choice(ActionKind.THROW, (6, 6)),
        Choice(ActionKind.THROW, (6, 1)),
        Choice(ActionKind.THROW, (1,)),
        Choice(ActionKind.THROW),
    )
    for action, not_last in product(actions, (0.0123, 0.5, 0.9993, 1.0)):
        yield f"{action.kind.name} {action.keep} at {not_last}", hint_view(
            Hint(action, not_last), texts
        )
    for action, other in product(actions, actions):
        for not_last, theirs in ((0.9993, 0.9876), (1.0, 0.0049)):
            if other != action:
                hint = Hint(action, not_last, other, theirs)
                label = f"{action.kind.name} {action.keep} at {not_last}, {other} at {theirs}"
                yield label, PendingHint(hint).view(texts)


@scene("error screen")
def _error_screen(texts: OledWords) -> Iterator[tuple[str, View]]:
    problems = {
        "config": ("game.players: player name 'WWWWWWWWWWWW'… has 41 characters: at most 40",
                   None),
        "result": (None, "exit-code, status 2"),
        "unknown": (None, None),
    }
    for label, (problem, reason) in problems.items():
        lines = tuple(error_lines(texts, problem, reason))
        yield label, BannerView(texts.t("fault_title"), "", lines)


@scene("referee mark", referee=True)
def _referee(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The widest titles, with the referee mark at their right end."""
    for label, view in turn_views(texts, ("10 players",)):
        if "pot 40" in label:
            yield label, view
    yield from reveal_views(texts, ("10 players",))
    yield from _pickers(texts)


@scene("resume")
def _resume(texts: OledWords) -> Iterator[tuple[str, View]]:
    for label, players in PLAYER_SETS.items():
        for position in (f"rolloff {','.join(players)}", turn_position(players, "---/0")):
            game_table = table(texts, players, position, rules=deckel_for(players, 13),
                               bots=players[1:])  # a person and computer players, each ⚙
            game_table.game.round_number = 0 if position.startswith("rolloff") else 12
            question = ResumeQuestion(session_of(game_table))
            yield f"{label}: {position.split()[0]}", question.view(texts)
            if not position.startswith("rolloff"):
                question.whose = players[1]
                yield f"{label}: {position.split()[0]}, whose turn", question.view(texts)


@scene("names")
def _names(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The remembered names of a seat and the letter wheel: long names, every alert, every
    letter under the cursor at both scales."""
    picker = RosterPicker(10, LONG_NAMES, frozenset(), lambda name: CLOSE)
    for selected in range(len(LONG_NAMES) + 1):
        picker.selected = selected
        yield f"roster at {selected}", picker.view(texts)
    for text in ("", "W", LONG_NAMES[0][:-1], LONG_NAMES[0], "Müller-Ö"):
        entry = NameEntry(10, frozenset(LONG_NAMES), lambda name: CLOSE, text=text)
        for position in range(len(WHEEL)):
            entry.position = position
            yield f"entry {text!r} at {WHEEL[position]}", entry.view(texts)
        for alert in ("entry_empty", "entry_taken", "entry_full"):
            entry.alert = alert
            yield f"entry {text!r} alert {alert}", entry.view(texts)


@scene("rules in force")
def _rules_in_force(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The menu's rules during a game, for every preset, at every scroll position."""
    for preset in preset_names():
        overlay = RulesInForce(load_preset(preset))
        entries = overlay.view(texts).entries
        for first in range(len(entries)):
            overlay.first = first
            yield f"{preset} from {first}", overlay.view(texts)


# --- 25-realdice: real dice at the table, each result entered on the buttons --------------------


def real_dice_table(texts: OledWords, players: tuple[str, ...], position: str | None,
                    rules: Rules) -> Table:
    """A real-dice game of ``players`` in ``position`` (notation), or at its roll-off."""
    session = session_in(texts, players)
    setup = GameSetup(players, rules, real_dice=True)
    game_table = session.open_table(setup)
    if position is not None:
        game_table.game = from_notation(position, setup)
    _SESSIONS[game_table] = session
    return game_table


@scene("real-dice entry")
def _real_dice_entry(texts: OledWords) -> Iterator[tuple[str, View]]:
    yield from real_dice_entry_views(texts, every_pot=False)


def real_dice_entry_views(texts: OledWords, *, every_pot: bool) -> Iterator[tuple[str, View]]:
    """The real-dice entry's screens; its special throw names beside each key's words at one
    pot and limit a table, or at ``every_pot`` and limit."""
    special = [name for name in every_throw_name()
               if not name.startswith(("Hausnummer", "Schock ", "Schock-"))]
    for (label, players), pot in product(PLAYER_SETS.items(), (13, 40)):
        rules = deckel_for(players, pot)
        for limit in ("-", "2"):
            position = turn_position(players, "---/0", pot, limit)
            stage = EntryStage(session_of(game_table := real_dice_table(
                texts, players, position, rules)), game_table)
            yield f"{label}, pot {pot}, limit {limit}: a fresh entry", stage.view()
            stage.dice = [6, 5, 4]
            yield f"{label}, pot {pot}, limit {limit}: 6-5-4", stage.view()
            for notice in (k for k in OLED_WORDS if k.startswith("notice_")):
                stage.notice = notice
                yield f"{label}, pot {pot}: {notice}", stage.view()
            stage.notice = ""
            # The names' line stands where the players' board puts it, beside the key's words
            # in place of the pot: one pot and limit show every name at each table size.
            named = every_pot or (pot, limit) == (13, "-")
            keys = ("entry_hand", "entry_built") if named else ()
            for name, key in product(special, keys):
                view = replace(stage.view(), status=name, pot_text=texts.t(key))
                yield f"{label}, pot {pot}: {name}, {key}", view
            stage.settling = True
            yield f"{label}, pot {pot}, limit {limit}: the last entry, to settle", stage.view()
            stage.settling = False
            stage.correcting = players[-1]
            yield f"{label}, pot {pot}, limit {limit}: a correction, how to cancel", stage.view()
            stage.untouched = False
            yield f"{label}, pot {pot}, limit {limit}: a correction", stage.view()
        roll_off = EntryStage(session_of(game_table := real_dice_table(
            texts, players, None, rules)), game_table)
        yield f"{label}: the roll-off's first entry", roll_off.view()
        roll_off.roll_off = [(1, 1, 1)] * (len(players) - 1)
        yield f"{label}: the roll-off's last entry", roll_off.view()
    three = LONG_NAMES[:3]
    menu_table = real_dice_table(texts, three, turn_position(three, "---/0"), deckel_for(three, 13))
    detail = texts.t("correct_detail")
    picker = player_picker("menu_correct", LONG_NAMES[:2], detail, lambda _: None)
    yield "the correction's picker", picker.view(texts)
    picker.index = 1
    yield "the correction's picker on a name", picker.view(texts)
    menu = MainMenu(session_of(menu_table), EntryStage(session_of(menu_table), menu_table)).open()
    yield "the menu with Korrigieren", menu.view(texts)
    correction = EntryStage(session_of(menu_table), menu_table, correcting=three[0])
    menu = MainMenu(session_of(menu_table), correction).open()
    menu.selected = 1
    yield "the menu on a correction", menu.view(texts)
    for key in ("menu_real_dice_off", "menu_real_dice_on"):
        between = Menu("menu_title", [("menu_continue", lambda: CLOSE), (key, lambda: CLOSE)])
        between.selected = 1
        yield f"the menu between games: {key}", between.view(texts)


# --- a tournament's table: its card --------------------------------------------------------------


@scene("tournament")
def _tournament(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The table's card: no assignment yet, then the widest label and round, three to five of
    the longest names a hub can send (shown shortened), the time left, up and with no time box,
    a KO table played out, names it cannot play, and every state of the reports (none waiting,
    one, 30, refused, journals it cannot read, the outbox failing)."""
    import tempfile

    from firmware.app.stages.table_card import TableCard
    from firmware.tournament.reporter import Reporter, TableIdentity
    from firmware.wire.messages import Assignment
    from hal.storage import StateDirectory

    start = 1_800_000_000.0
    with tempfile.TemporaryDirectory() as folder:
        reporter = Reporter(TableIdentity("cup26", 999), StateDirectory(folder),
                            clock=FakeClock(0.0), wall=lambda: start)
        card = TableCard(session_in(texts), reporter)
        yield "offline, nothing drawn", card.view(texts)
        reporter.online = True
        yield "not drawn yet", card.view(texts)
        for seats in (3, 4, 5):
            for ends_at in (start + 70 * 60, start - 1, None):
                reporter.assignment = Assignment(
                    "cup26", 99, "table-999", 999, HUB_NAMES[:seats], start - 60, ends_at, {},
                )
                yield f"{seats} players, ends {ends_at}", card.view(texts)
        reporter.assignment = Assignment(
            "cup26", 99, "table-999", 999, HUB_NAMES[:4], start - 60, start + 70 * 60,
            {}, PhaseKind.KO,
            tuple((name, int(index == 0)) for index, name in enumerate(HUB_NAMES[:4])),
        )
        yield "a KO table with one player left", card.view(texts)
        reporter.assignment = Assignment(
            "cup26", 99, "table-999", 999, (HUB_NAMES[0], "B🎲b"), start - 60, None, {},
        )
        yield "names the device cannot play", card.view(texts)
        for number in range(30):
            reporter.outbox.put(f"cup26/table-999/r99/g{number + 1}/game", "{}")
            if number in (0, 29):
                yield f"{number + 1} not yet reported", card.view(texts)
        for number in range(30):
            reporter.outbox.acknowledge(f"cup26/table-999/r99/g{number + 1}/game",
                                        "refused" if number < 12 else "stored", "round over")
        yield "12 refused", card.view(texts)
        reporter.unreadable = {f"game-{n:06d}.journal": "damaged" for n in range(12)}
        yield "12 journals damaged", card.view(texts)
        reporter.failure = "cannot append to tournament.outbox: no space left on device"
        yield "the outbox fails", card.view(texts)


# --- the check ---------------------------------------------------------------------------------


@scene("spieltag")
def _spieltag(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The standings after a game (the worst names, places 1-10, scores of three digits and
    negative ones, lives with players out), the menu's standings and the dialogs."""
    session = session_in(texts)
    scores = (-12, 104, 99, -1, 0, 7, 23, 3, 0, 11)
    points = EveningStandings(
        "Spieltag 12", "platzpunkte", 100, False,
        tuple((index + 1, name, score) for index, (name, score) in
              enumerate(zip(LONG_NAMES, scores, strict=True))),
    )  # fmt: skip
    lives = replace(points, scheme="leben", lives=True, lines=tuple(
        (place, name, score % 4) for place, name, score in points.lines
    ))
    # Up to 99 Partien shown whole ("Partie 100 zählt nicht" would be cut by a letter)
    uncounted = replace(points, games=98, uncounted=((99, "table_size"), (98, "taken_out")))
    nothing_counted = replace(points, games=0, lines=(), uncounted=((1, "table_size"),))
    first = replace(points, games=1)
    longest = replace(points, lines=tuple(
        (place, name, score)
        for (place, _, score), name in zip(points.lines, HUB_NAMES, strict=True)
    ))  # fmt: skip
    lost = replace(points, lost=(1, 99, 100))
    # The Kasse's longest amounts: 999,99 € an evening, 9.999,99 € a season.
    kasse = replace(points, kasse=tuple((name, 99_999 - 11_111 * index)
                                        for index, name in enumerate(LONG_NAMES)),
                    season_kasse=tuple((name, 999_999 - index) for index, name in
                                       enumerate(LONG_NAMES)))  # fmt: skip
    kasse_uncounted = replace(kasse, games=98, uncounted=uncounted.uncounted)
    for label, standings in (
        ("points", points), ("lives", lives), ("games not counted", uncounted),
        ("no game counted", nothing_counted), ("after the first game", first),
        ("the longest names", longest), ("with Partien lost", lost), ("with the Kasse", kasse),
        ("with the Kasse and games not counted", kasse_uncounted),
    ):
        stage = StandingsStage(session, standings)
        rows = len(standings.lines) + len(standings.lost) + len(standings.uncounted)
        for selected in range((rows + len(kasse_items(texts, standings))) or 1):
            stage.selected = selected
            yield f"standings after a game, {label}, at {selected}", stage.view()
        yield f"standings from the menu, {label}", StandingsList(standings, 9).view(texts)
    for out in (HUB_NAMES[:1], LONG_NAMES[:1], HUB_NAMES[:2], LONG_NAMES[:2]):
        stage = StandingsStage(session, replace(lives, just_out=out))
        yield f"under Leben, {len(out)} just out", stage.view()
    for scheme in (load_scheme("platzpunkte"), replace(  # and docs/sheet.md's [scoring]
        load_scheme("platzpunkte"), places=((3, (3, 1, 0)), (4, (3, 2, 1, 0)), (5, (4, 3, 2, 1, 0)))
    )):
        yield f"{scheme.table_sizes} do not count", uncounted_message(texts, scheme).view(texts)
    for title, yes in (("confirm_take_out", "yes_take_out"), ("confirm_put_back", "yes_put_back")):
        ask = Menu(title, [("no", lambda: None), (yes, lambda: None)], 1, {"n": 100})
        yield f"{title} of game 100", ask.view(texts)
    for done in ("standings_partie_taken_out", "amended_put_back"):
        lines = (texts.t(done, n=100), texts.t("amended_counted", counted=99, games=100))
        yield f"{done}: game 100", Notice("spieltag_word", lines).view(texts)
    picker = scheme_picker(texts, lambda i: None)
    for index in range(len(SCHEMES)):
        picker.index = index
        yield f"scheme {SCHEMES[index]}", picker.view(texts)
    entries: list[tuple[str, Callable[[], None]]] = [
        ("no", lambda: None), ("yes_spieltag_end", lambda: None),
    ]
    confirm = Menu("confirm_spieltag_end", entries, selected=1)
    yield "end the Spieltag?", confirm.view(texts)
    for title, lines in (
        ("spieltag_begun_title", ("Spieltag 12", scheme_name(texts, "verlustpunkte"))),
        ("spieltag_ended_title", ("Spieltag 12",)),
        ("menu_spieltag_standings", (texts.t("spieltag_none"),)),
    ):
        yield title, Message(title, lines).view(texts)
    errors: tuple[SpieltagError | StorageError, ...] = (SpieltagError("x"), StorageError("x"))
    for error, ending, damaged, going_on in product(errors, *[(True, False)] * 3):
        title = "menu_spieltag_end" if ending else "menu_spieltag_begin"
        lines = refusal_lines(texts, error, ending=ending, damaged=damaged, going_on=going_on)
        label = f"{title} refused: {type(error).__name__}, {damaged=}, {going_on=}"
        yield label, Message(title, lines).view(texts)


@scene("spieltag time box")
def _time_box(texts: OledWords) -> Iterator[tuple[str, View]]:
    """The time box when a Spieltag begins, the banner when it runs out (this round or the
    next), a scharf turn's corner and a scharf reveal, with the longest names."""
    picker = time_box_picker(texts, lambda minutes: None, first=1)  # the config may say 1
    for index, minutes in enumerate((0, 1, *TIME_BOXES[1:])):
        picker.index = index
        yield f"time box {minutes}", picker.view(texts)
    lines = ("Spieltag 12", scheme_name(texts, "verlustpunkte"), texts.t("time_box_minutes", n=120))
    yield "begun with a time box", Notice("spieltag_begun_title", lines).view(texts)
    for label, players in PLAYER_SETS.items():
        for mark, state in (("S", "this round"), ("s", "the next round")):
            position = turn_position(players, "---/0") + " " + mark
            game_table = table(texts, players, position, rules=deckel_for(players, 13))
            session = session_of(game_table)
            yield f"{label}: scharf from {state}", scharf_banner(session).view(texts)
            yield f"{label}: a turn, scharf from {state}", TurnStage(session, game_table).view()
        turns = tuple(TurnOver(name, (6, 4, 2), False, 3, "Hausnummer", 1) for name in players)
        result = RoundOver(
            players[1], players[0], "Hausnummer", "Hausnummer", 0, DeckelSource.POT, (), 13,
            (), turns, scharf=True,
        )
        game_table = table(texts, players)
        yield f"{label}: a scharf reveal", RevealStage(
            session_of(game_table), game_table, result, 12
        ).view()


#: luma's dummy device that shows every traced view, one frame after another, as the OLED does.
DEVICE = dummy(width=SCREEN_SIZE[0], height=SCREEN_SIZE[1], mode="1")


def traced(view: View, mark: str = "") -> tuple[LayoutTrace, list[str]]:
    """Render ``view`` as the device does, on luma's dummy device; the trace and its problems."""
    with trace_layout() as trace:
        image = render(view, mark=mark)
    DEVICE.display(image)
    assert ImageChops.logical_xor(DEVICE.image, image).getbbox() is None  # every pixel shown
    return trace, trace.problems()


class SceneView(NamedTuple):
    """One view of a scene as the fit check saw it."""

    label: str
    drawn: tuple[str, ...]
    problems: list[str]


class TracedScene(NamedTuple):
    """A scene's views as the fit check saw them, and the keys of the screen's words looked up
    to make them."""

    views: tuple[SceneView, ...]
    keys: frozenset[str]


@functools.cache
def scene_traced(name: str, language: str) -> TracedScene:
    """Every view of the scene ``name`` in ``language``, rendered and traced once per process
    (the fit check and its counts read the same)."""
    found = []
    # A view the scene shows twice (a real-dice entry's screens repeat) is traced once.
    seen: dict[View, tuple[tuple[str, ...], list[str]]] = {}
    keys: set[str] = set()
    look_up = OledWords.t

    def recording(self: OledWords, key: str, **values: object) -> str:
        keys.add(key)
        return look_up(self, key, **values)

    with mock.patch.object(OledWords, "t", recording):
        texts = OledWords(language)
        mark = texts.t("referee_mark") if name in MARKED else ""
        for label, view in SCENES[name](texts):
            if view not in seen:
                trace, problems = traced(view, mark)
                drawn = tuple(item.text for item in trace.placed if item.kind == "text")
                seen[view] = drawn, problems
            found.append(SceneView(label, *seen[view]))
    return TracedScene(tuple(found), frozenset(keys))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SCENES))
def test_every_text_fits(name: str, language: str) -> None:
    failures: list[str] = []
    views = 0
    for scene in scene_traced(name, language).views:
        views += 1
        failures += [f"{name} [{language}] {scene.label}: {problem}" for problem in scene.problems]
    assert views, f"the scene {name} showed nothing"
    assert not failures, "\n".join(dict.fromkeys(failures))


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_throw_name_fits_at_every_table_pot_and_limit(language: str) -> None:
    """The long form of the scenes "throw names" (at every table of :data:`PLAYER_SETS`, not one
    of each board shape) and "real-dice entry" (the names at every pot and limit)."""
    views = [*throw_name_views(OledWords(language), PLAYER_SETS),
                 *real_dice_entry_views(OledWords(language), every_pot=True)]
    failures = [f"[{language}] {label}: {problem}"
                for label, view in views for problem in traced(view)[1]]
    assert len(views) > 2000 and not failures, "\n".join(dict.fromkeys(failures))


#: The screen's words the scenes need not show, by the start of their keys: each is measured
#: by a check of its own, or is no fixed text of a screen.
MEASURED_ELSEWHERE = {
    "rule_": "the rules screen's words of every option: tests/firmware/test_rules_view.py",
    "desc_": "a rules file's description, shown as freely as a file's own description",
    "check_": "the self-test's screen: test_the_self_test_screen_fits",
}


def test_fit_check_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """Counts what the fit check covers (printed with ``pytest -s``), and that its scenes show
    every word of the screen (:data:`~firmware.screen.oled_words.OLED_WORDS`) but those
    :data:`MEASURED_ELSEWHERE`; the scenes are traced once for both (tests/conftest.py keeps
    this module on one xdist worker)."""
    views = drawn = 0
    shown: set[str] = set()
    looked_up: set[str] = set()
    for language, name in product(LANGUAGES, SCENES):
        traced_scene = scene_traced(name, language)
        looked_up |= traced_scene.keys
        for scene in traced_scene.views:
            views += 1
            drawn += len(scene.drawn)
            shown.update(scene.drawn)
    with capsys.disabled():
        print(f"\nfit check: {views} views, {drawn} texts ({len(shown)} different)")
    assert views > 1000 and len(shown) > 300
    unseen = [key for key in OLED_WORDS if key not in looked_up]
    assert [key for key in unseen if not key.startswith(tuple(MEASURED_ELSEWHERE))] == []


def test_the_check_finds_a_cut_and_a_text_left_out() -> None:
    cut = TurnView("Anna", "Wurf 1/3", (DieFace(None),) * 3, "W" * 40, "Topf 13", ())
    assert traced(cut)[1] == [f"cut [status]: {'W' * 40!r} shown as {'W' * 12 + '…'!r}"]
    lines = tuple(f"line {n}" for n in range(9))
    assert "cut: 'line 8' left out" in traced(BannerView("T", "", lines))[1]


@pytest.mark.parametrize(
    ("view", "cut"),
    [
        (TurnView("Anna", "Wurf 1/3", (DieFace(6),) * 3, "Drehen: 2 Sechsen", "Topf 13", ()),
         "shown as 'Drehen: 2 Sech…'"),
        (TurnView("Anna", "Wurf 1/3", (DieFace(6),) * 3, "Gedreht: nun werfen", "Topf 13", ()),
         "shown as 'Gedreht: nun w…'"),
        (TurnView("Anna", "Wurf 1/3", (DieFace(6),) * 3, "Alle raus? STAND", "Topf 13", ()),
         "shown as 'Alle raus? STA…'"),
    ],
)
def test_the_check_finds_the_cuts_of_the_old_turn_screen(view: TurnView, cut: str) -> None:
    """The notices beside the pot, as the turn screen showed them before a notice took the line."""
    assert any(problem.endswith(cut) for problem in traced(view)[1])


def test_the_check_finds_an_overlap_and_a_text_off_the_panel() -> None:
    trace = LayoutTrace([
        Placed("text", (1, 40, 60, 48), "Anna"), Placed("die", (50, 30, 74, 54)),
        Placed("text", (120, 1, 130, 7), "Topf", dark=True), Placed("bar", (0, 0, 127, 9)),
    ])
    assert trace.problems() == [
        "text 'Topf' at (120, 1, 130, 7) leaves the 128x64 panel",
        "overlap: text 'Anna' at (1, 40, 60, 48) and die at (50, 30, 74, 54)",
        "overlap: text 'Topf' at (120, 1, 130, 7) and bar at (0, 0, 127, 9)",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_computer_players_gear_is_on_the_banners_and_the_resume_question(
    language: str,
) -> None:
    """docs/odds.md: a computer player's name carries its ⚙ on every screen."""
    texts = OledWords(language)
    players = ("Anna", "Ben", "Carla")
    game_table = table(texts, players, turn_position(players, "---/0"),
                       rules=deckel_for(players, 13), bots=("Ben", "Carla"))
    session = session_of(game_table)
    penalty = PenaltyBanner(session, game_table, PenaltyGiven("Ben", 3, 3, ())).view()
    half = HalfOverBanner(session, game_table, HalfOver(1, "Ben"), ("Carla", "Anna")).view()
    assert (penalty.headline, half.headline) == ("⚙Ben", "⚙Ben")
    assert "⚙Carla" in " ".join(half.lines)
    over = table(texts, players, "over Ben Ben,Carla", bots=("Ben",))
    assert GameOverBanner(session_of(over), over).view().headline == "⚙Ben"
    question = ResumeQuestion(session)
    question.whose = "Carla"
    lines = question.view(texts).lines
    assert lines[0] == "Anna, ⚙Ben, ⚙Carla" and "⚙Carla" in lines[-1]


def test_numbered_names_on_the_board_keep_their_numbers() -> None:
    board = tuple(Tally(name, 10 + index % 3) for index, name in enumerate(DEFAULT_NAMES))
    view = TurnView("Spieler10", "Wurf 1/3", (DieFace(None),) * 3, "Schütteln!", "Topf 9", board)
    trace, problems = traced(view)
    assert problems == []
    shown = [item.text for item in trace.placed if item.kind == "text" and item.text in _tagged()]
    assert shown == list(_tagged()), shown


def _tagged() -> tuple[str, ...]:
    """The board's names of :data:`DEFAULT_NAMES` in 32-pixel slots: a start and the number."""
    return ("Spie1", "Spie2", "Spie3", "Spie4", "Spie5", "Spie6", "Spie7", "Spie8", "Spie9",
            "Spi10")  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_self_test_screen_fits(language: str) -> None:
    """``schocken run --check`` draws its own screen (firmware/check.py) with the big font: its
    title beside the tilt count in the bar, and every line it lists, at their widest."""
    from firmware.check import CheckApp
    from firmware.screen.font import FONT
    from hal.ports import Button

    texts = OledWords(language)
    check = CheckApp(DeviceConfig())
    assert 4 + FONT.width(texts.t("check_title")) + 6 + FONT.width("~9999") + 4 <= SCREEN_SIZE[0]
    widest = max((button.name for button in Button), key=FONT.width)
    lines = [
        texts.t("check_hint"), texts.t("check_pressed", name=widest),
        texts.t("check_held", name=widest), texts.t("check_shake", n=9999),
    ]
    assert all(FONT.width(line) <= SCREEN_SIZE[0] - 8 for line in lines), lines
    assert FONT.width("9999") <= 24  # a press count under its button's box
    assert check.screen().size == SCREEN_SIZE
