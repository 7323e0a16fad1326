"""The Spieltag's screens on the device: its standings after each game (under Leben, first who
went out), the menu's dialogs to begin and end one (its scheme chosen from the four presets) and
to take its last game out or put it back, what a damaged file means, and that a game the
scheme cannot score does not count."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game import Scharf
from engine.scoring import SCHEME_PRESETS, Scheme
from engine.spieltag import SpieltagError
from firmware.app.session.moments import EveningStandings
from firmware.app.stages.base import (
    CLOSE,
    CLOSE_ALL,
    OK_BUTTONS,
    Goto,
    Overlay,
    Push,
    Stage,
    Step,
    Transition,
)
from firmware.app.stages.overlays import Menu, Message, Picker
from firmware.report.money import euro
from firmware.report.sheet_words import scheme_label, table_sizes_text
from firmware.screen.oled_words import OledWords
from firmware.screen.shortnames import short_names
from firmware.screen.views import BannerView, MenuView
from hal.ports import Button, InputEvent, InputKind, StorageError

if TYPE_CHECKING:
    from firmware.app.session.session import Session

logger = logging.getLogger(__name__)

__all__ = [
    "SCHEMES",
    "TIME_BOXES",
    "Notice",
    "StandingsList",
    "StandingsStage",
    "evening_damage_lines",
    "kasse_items",
    "refusal_lines",
    "scharf_banner",
    "scheme_name",
    "scheme_picker",
    "spieltag_entries",
    "standings_items",
    "standings_title",
    "time_box_picker",
    "uncounted_message",
]

#: The schemes the menu offers, in its order.
SCHEMES = tuple(SCHEME_PRESETS)
#: Each scheme's line in the menu, saying what it counts.
SCHEME_DETAIL_KEYS = {
    "verlustpunkte": "scheme_verlustpunkte_detail", "siegpunkte": "scheme_siegpunkte_detail",
    "platzpunkte": "scheme_platzpunkte_detail", "leben": "scheme_leben_detail",
}  # fmt: skip
assert set(SCHEME_DETAIL_KEYS) == set(SCHEMES)
#: The time boxes the menu offers after the scheme, in minutes (0: none); a points round of
#: the tournaments is 60 to 75 minutes.
TIME_BOXES = (0, 45, 60, 70, 75, 90, 120)


def time_box_picker(
    texts: OledWords, on_ok: Callable[[int], Transition | None], first: int = 0
) -> Picker:
    """The time boxes to begin a Spieltag with (after its scheme), on ``first`` minutes (the
    configuration's ``[spieltag] time_box_minutes``, offered too if it is none of
    :data:`TIME_BOXES`); ``on_ok`` gets the minutes."""
    boxes = sorted({*TIME_BOXES, first})

    def label(index: int) -> str:
        minutes = boxes[index]
        if minutes == 1:
            return texts.t("time_box_minutes_one")
        return texts.t("time_box_minutes", n=minutes) if minutes else texts.t("time_box_none")

    return Picker(
        "time_box_title", len(boxes), boxes.index(first), label,
        lambda i: texts.t("time_box_detail"), lambda i: on_ok(boxes[i]),
    )


def scharf_banner(session: Session) -> Message:
    """Time is up: from this round (nobody has thrown in it yet) or the next one, a round's
    loser loses the half."""
    table = session.require_table()
    now = table.game.scharf is Scharf.ON
    lines = (session.t("scharf_now" if now else "scharf_next"), session.t("scharf_line_1"),
             session.t("scharf_line_2"))
    return Message("scharf_title", lines, session.t("scharf_headline"))


def scheme_name(texts: OledWords, name: str) -> str:
    """A scheme's name in the device's language."""
    return scheme_label(name, texts)


def scheme_picker(texts: OledWords, on_ok: Callable[[int], Transition | None]) -> Picker:
    """The four schemes to begin a Spieltag with, each with a line saying what it counts;
    ``on_ok`` gets the index into :data:`SCHEMES`."""
    return Picker(
        "menu_spieltag_begin", len(SCHEMES), 0, lambda i: scheme_name(texts, SCHEMES[i]),
        lambda i: texts.t(SCHEME_DETAIL_KEYS[SCHEMES[i]]), on_ok,
    )


def standings_title(texts: OledWords, standings: EveningStandings) -> str:
    """``Stand nach 3 Spielen``; after the first game ``Stand nach 1 Spiel``."""
    if standings.games == 1:
        return texts.t("standings_screen_title_one")
    return texts.t("standings_screen_title", n=standings.games)


def uncounted_message(texts: OledWords, scheme: Scheme) -> Message:
    """Before the first throw of a game the Spieltag's scheme cannot score: "Platzpunkte zählt
    zu dritt oder zu viert: dieses Spiel zählt nicht"."""
    counts = texts.t(
        "scheme_counts_sizes", scheme=scheme_name(texts, scheme.name),
        sizes=table_sizes_text(scheme.table_sizes, texts),
    )
    return Message("uncounted_title", (counts,))


#: How a finished game that does not count is named in the standings, by why.
_UNCOUNTED_KEYS = {
    "taken_out": "standings_partie_taken_out", "table_size": "standings_partie_uncounted",
}  # fmt: skip


def standings_items(texts: OledWords, standings: EveningStandings) -> tuple[str, ...]:
    """One line per player: ``1. Anna  12``; a lives scheme marks who is out; then the Partien
    not counted, and the Kasse."""
    names = short_names(player for _place, player, _score in standings.lines)
    items = []
    for place, player, score in standings.lines:
        shown = texts.t("standings_out") if standings.lives and score == 0 else str(score)
        items.append(f"{place}. {names[player]}: {shown}")
    # A Partie whose journal is gone or damaged is not counted: the table must see that.
    items += [texts.t("standings_partie_lost", n=partie) for partie in standings.lost]
    items += [texts.t(_UNCOUNTED_KEYS[why], n=partie) for partie, why in standings.uncounted]
    return (*items, *kasse_items(texts, standings))


def kasse_items(texts: OledWords, standings: EveningStandings) -> tuple[str, ...]:
    """With a Kasse, under the standings: ``Kasse`` and one line per player, ``Anna 3,50 €``,
    then ``Kasse Saison`` and the season's; none without one."""
    if not standings.kasse:
        return ()
    names = short_names(player for player, _cents in standings.kasse)
    items = [texts.t("kasse_title")]
    items += [f"{names[player]} {euro(cents, texts)}" for player, cents in standings.kasse]
    items.append(texts.t("kasse_season"))
    items += [f"{names[player]} {euro(cents, texts)}" for player, cents in standings.season_kasse]
    return tuple(items)


def out_banner(texts: OledWords, standings: EveningStandings) -> BannerView:
    """Under Leben, after the game that left players without a life: who, and that they sit
    out."""
    names = short_names(standings.just_out)
    shown = ", ".join(names[player] for player in standings.just_out)
    many = len(standings.just_out) > 1
    lines = (shown, texts.t("out_sits_out_many" if many else "out_sits_out_one"))
    return BannerView(texts.t("spieltag_word"), texts.t("out_headline"), lines, ("", "", "OK"))


def scrolled_to(
    selected: int, standings: EveningStandings, button: Button | None
) -> int | None:
    """The line ▲ (KEEP 1) or ▼ (KEEP 2) moves the standings to, round at the ends; None for
    any other button."""
    kasse = 2 + 2 * len(standings.kasse) if standings.kasse else 0
    count = max(
        len(standings.lines) + len(standings.lost) + len(standings.uncounted) + kasse, 1
    )
    if button is Button.KEEP_1:
        return (selected - 1) % count
    if button is Button.KEEP_2:
        return (selected + 1) % count
    return None


@dataclass(eq=False)
class StandingsStage(Stage):
    """After a game of a Spieltag: the evening's standings (under Leben first who went out,
    until a press); ▲ ▼ scroll, OK starts the next game."""

    ends_game = True

    session: Session
    standings: EveningStandings
    selected: int = 0
    #: Under Leben: the players the game left without a life were told.
    told: bool = False

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if self.standings.just_out and not self.told:
            self.told = True
            return None
        scrolled = scrolled_to(self.selected, self.standings, event.button)
        if scrolled is not None:
            self.selected = scrolled
        elif event.button in OK_BUTTONS:
            return Goto((self.session.next_game(),))
        return None

    def view(self) -> MenuView | BannerView:
        texts = self.session.catalogue
        if self.standings.just_out and not self.told:
            return out_banner(texts, self.standings)
        title = standings_title(texts, self.standings)
        return MenuView(title, standings_items(texts, self.standings), self.selected,
                        ("▲", "▼", texts.t("key_new_game")))


def evening_damage_lines(texts: OledWords, kept: bool, *, this_game: bool = False,
                         ) -> tuple[str, ...]:
    """What a damaged ``spieltag.json`` means, under the title "Spieltag-Datei": the games
    begun meanwhile keep the evening (they count once the file is repaired), or they do not
    (no evening's ID is left); ``this_game``: said of the game that just began."""
    if kept:
        return (texts.t("evening_damaged_1"), texts.t("evening_damaged_kept"),
                texts.t("evening_damaged_kept_2"))
    lost = "evening_damaged_lost" if this_game else "evening_damaged_none"
    return (texts.t("evening_damaged_1"), texts.t(lost), texts.t("evening_damaged_lost_2"))


def refusal_lines(texts: OledWords, error: SpieltagError | StorageError, *, ending: bool,
                  damaged: bool, going_on: bool) -> tuple[str, ...]:
    """Why a Spieltag could not be begun (or, ``ending``, ended), in words: the storage
    failed; its file is ``damaged``; one is ``going_on`` already (to end: none is); else it is
    worth another try (begun in the very second one ended)."""
    lines = (texts.t("spieltag_failed"),)
    if isinstance(error, StorageError):
        return lines
    if damaged:
        return (*lines, texts.t("evening_damaged_title"), texts.t("evening_damaged_1"))
    if going_on != ending:
        return (*lines, texts.t("spieltag_not_going_on" if ending else "spieltag_going_on"))
    return (*lines, texts.t("spieltag_try_again"))


def spieltag_entries(session: Session) -> list[tuple[str, Step]]:
    """The menu's Spieltag entries: begin one, or its standings and ending it; while its file
    is damaged (neither can be done then), what that means."""
    if not session.keeps_games:
        return []

    def refused(title: str, error: SpieltagError | StorageError) -> Transition:
        logger.warning("%s", error)
        evening = session.evening()
        lines = refusal_lines(
            session.catalogue, error, ending=title == "menu_spieltag_end",
            damaged=evening.problem is not None, going_on=evening.spieltag is not None,
        )
        return Push(Message(title, lines))

    evening = session.evening()
    if evening.problem is not None:
        kept = evening.id is not None

        def damage() -> Transition:
            return Push(Message("evening_damaged_title",
                                evening_damage_lines(session.catalogue, kept)))

        return [("menu_spieltag_damaged", damage)]
    if evening.spieltag is None:
        def begin(scheme: int, minutes: int) -> Transition:
            try:
                spieltag = session.begin_evening(SCHEMES[scheme], minutes)
            except (SpieltagError, StorageError) as error:
                return refused("menu_spieltag_begin", error)
            lines: tuple[str, ...] = (
                spieltag.name, scheme_name(session.catalogue, spieltag.scheme.name)
            )
            if minutes:
                key = "time_box_minutes_one" if minutes == 1 else "time_box_minutes"
                lines = (*lines, session.t(key, n=minutes))
            return Push(Notice("spieltag_begun_title", lines))

        def choose(index: int) -> Transition:
            first = session.config.spieltag.time_box_minutes
            return Push(
                time_box_picker(session.catalogue, lambda minutes: begin(index, minutes), first)
            )

        def pick() -> Transition:
            return Push(scheme_picker(session.catalogue, choose))

        return [("menu_spieltag_begin", pick)]

    def show() -> Transition:
        standings = session.evening_standings()
        if standings is None:
            return Push(Message("menu_spieltag_standings", (session.t("spieltag_none"),)))
        return Push(StandingsList(standings))

    def end() -> Transition:
        try:
            ended = session.end_evening()
        except (SpieltagError, StorageError) as error:
            return refused("menu_spieltag_end", error)
        return Push(Notice("spieltag_ended_title", (ended.name,)))

    def ask_end() -> Transition:
        return Push(Menu("confirm_spieltag_end", [("no", _close), ("yes_spieltag_end", end)]))

    return [("menu_spieltag_standings", show), ("menu_spieltag_last", lambda: last_game(session)),
            ("menu_spieltag_end", ask_end)]


def last_game(session: Session) -> Transition:
    """The menu's last game of the Spieltag: asked, then taken out (played, not counted) or put
    back, recounted, and kept in the evening's history."""
    last = session.last_game()
    if last is None:
        return Push(Message("menu_spieltag_last", (session.t("spieltag_none"),)))
    partie, taken_out = last

    def amend() -> Transition:
        try:
            amended = session.amend_last_game(partie, not taken_out)
        except (SpieltagError, StorageError) as error:
            logger.warning("%s", error)
            return Push(Message("menu_spieltag_last", (session.t("spieltag_failed"),
                                                       session.t("spieltag_try_again"))))
        after = amended.after
        done = "amended_put_back" if taken_out else "standings_partie_taken_out"
        return Push(Notice("spieltag_word", (
            session.t(done, n=partie),
            session.t("amended_counted", counted=len(after.counted), games=len(after.games)),
        )))

    title, yes = ("confirm_put_back", "yes_put_back") if taken_out else (
        "confirm_take_out", "yes_take_out")
    return Push(Menu(title, [("no", _close), (yes, amend)], values={"n": partie}))


def _close() -> Transition:
    return CLOSE


@dataclass(eq=False)
class Notice(Message):
    """A message that closes the menu under it too: the Spieltag was begun or ended."""

    def on_input(self, event: InputEvent) -> Transition | None:
        return CLOSE_ALL if event.kind is InputKind.PRESS else None


@dataclass(eq=False)
class StandingsList(Overlay):
    """The standings from the menu: ▲ ▼ scroll, OK or FLIP close."""

    standings: EveningStandings
    selected: int = 0

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        scrolled = scrolled_to(self.selected, self.standings, event.button)
        if scrolled is None:
            return CLOSE
        self.selected = scrolled
        return None

    def view(self, texts: OledWords) -> MenuView:
        title = standings_title(texts, self.standings)
        return MenuView(title, standings_items(texts, self.standings), self.selected,
                        ("▲", "▼", "OK"))
