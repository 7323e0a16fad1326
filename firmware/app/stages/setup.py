"""The setup: how many play, their names, which seats the computer plays, the rules, the Deckel,
start.

KEEP_1 and KEEP_2 are - and + (on the names and computer steps: the next seat, and its name or who
plays it), KEEP_3 and STAND go to the next step, FLIP goes back one. A seat's name comes from the
remembered names or is spelt with the buttons (:mod:`firmware.app.stages.naming`); after a name the
next seat is chosen. The last step starts the game and remembers the setup for the next power-up
(``setup.json``); while a Spieltag goes on whose scheme cannot score that many players, it says
so ("Platzpunkte zählt zu dritt oder zu viert: dieses Spiel zählt nicht").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.game import MAX_PLAYERS, MIN_PLAYERS, GameSetup
from engine.rules import Rules
from engine.scoring import Scheme
from engine.strategy_names import strategy_names
from firmware.app.session.moments import SetupDue
from firmware.app.session.session import Session
from firmware.app.stages.base import CLOSE_ALL, OK_BUTTONS, Goto, Push, Stage, Transition
from firmware.app.stages.naming import RosterPicker
from firmware.report.sheet_words import table_warning
from firmware.screen.shortnames import fits_whole, short_names
from firmware.screen.views import BOT_MARK, PickerView, SeatRow, SeatsView, SoftKeys, marked
from firmware.store.setupfile import clamp_deckel
from hal.ports import Button, InputEvent, InputKind

__all__ = ["SetupStage", "SetupStep"]


#: The catalogue's word for each computer player's strategy (one a strategy of
#: :data:`engine.strategy_names.STRATEGY_NAMES`; a test checks that none is missing).
_STRATEGY_KEYS = {"odds": "strategy_odds", "threshold": "strategy_threshold"}


class SetupStep(enum.IntEnum):
    """The setup's steps, in order."""

    PLAYERS = 0
    NAMES = 1
    COMPUTERS = 2
    RULES = 3
    DECKEL = 4
    START = 5


@dataclass(eq=False)
class SetupStage(Stage):
    """The setup wizard; its choices are the next game's."""

    in_game = False

    session: Session
    step: SetupStep
    players: int
    #: Index into the session's rule options.
    rules: int
    deckel: int
    #: One strategy name per seat ("" for a person), for every seat the setup can offer.
    bots: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS)
    #: The seat the names and computer steps' keys change.
    seat: int = 0
    #: One name per seat the setup can offer; "" for a numbered default ("Spieler4").
    names: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS)
    #: The scheme of the Spieltag going on (None: none), to warn of a game it cannot score.
    evening_scheme: Scheme | None = None

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        button = event.button
        if button is Button.FLIP:
            self.step = SetupStep(max(self.step - 1, SetupStep.PLAYERS))
            return None
        if button in OK_BUTTONS:
            if self.step < SetupStep.START:
                self.step = SetupStep(self.step + 1)
                self.seat = 0
                return None
            return self._finish()
        delta = -1 if button is Button.KEEP_1 else 1
        if self.step is SetupStep.PLAYERS:
            self.players = min(max(self.players + delta, MIN_PLAYERS), MAX_PLAYERS)
        elif self.step is SetupStep.NAMES:
            if button is Button.KEEP_1:
                self.seat = (self.seat + 1) % self.players
            else:
                return self._pick_name()
        elif self.step is SetupStep.COMPUTERS:
            # KEEP_1 walks down the seats, KEEP_2 changes who plays the chosen one.
            if button is Button.KEEP_1:
                self.seat = (self.seat + 1) % self.players
            else:
                roles = ["", *strategy_names()]
                current = self.bots[self.seat]
                index = roles.index(current) if current in roles else 0
                self.bots[self.seat] = roles[(index + 1) % len(roles)]
        elif self.step is SetupStep.RULES:
            self.choose_rules((self.rules + delta) % len(self.session.rule_options))
        elif self.step is SetupStep.DECKEL:
            self.deckel = clamp_deckel(self.deckel + delta)
        return None

    @classmethod
    def starting(cls, session: Session, due: SetupDue) -> SetupStage:
        """The setup at its first step, with the choices ``due`` starts from."""
        spieltag = session.evening().spieltag
        return cls(session, SetupStep.PLAYERS, due.players, due.rules, due.deckel,
                   list(due.bots), names=list(due.names),
                   evening_scheme=spieltag.scheme if spieltag is not None else None)

    def rules_choice(self) -> SetupStage:
        return self

    def seat_names(self) -> tuple[str, ...]:
        """The players' names, seat by seat: the chosen ones, else "Spieler" and the seat's
        number (the next free number if someone is called so already)."""
        chosen = self.names[: self.players]
        used = {name for name in chosen if name}
        names = []
        for seat, name in enumerate(chosen, start=1):
            number = seat
            while not name:
                candidate = self.session.t("default_player", number=number)
                name = "" if candidate in used else candidate
                number += 1
            used.add(name)
            names.append(name)
        return tuple(names)

    def name_seat(self, seat: int, name: str) -> None:
        """Give seat ``seat`` (0-based) the name ``name``; a seat that had it before (beyond the
        players now counted) loses it, so no name is ever twice at the table."""
        self.names = ["" if other == name else other for other in self.names]
        self.names[seat] = name

    def _pick_name(self) -> Transition:
        """The remembered names for the chosen seat, and "Neuer Name…"."""
        seat = self.seat
        current = self.seat_names()
        others = frozenset(name for index, name in enumerate(current) if index != seat)
        choices = tuple(
            name for name in self.session.roster.names if name not in others and fits_whole(name)
        )  # the setup spells at most what every screen shows whole

        def take(name: str) -> Transition:
            self.name_seat(seat, name)
            self.session.roster.use([name])
            self.seat = (seat + 1) % self.players
            return CLOSE_ALL

        return Push(RosterPicker(seat + 1, choices, others, take))

    def choose_rules(self, index: int) -> None:
        """Take the rule set at ``index``, with its own number of Deckel."""
        self.rules = index
        self.deckel = clamp_deckel(self.session.rule_options[index].deckel)

    def game_rules(self) -> Rules:
        """The chosen rules with the chosen Deckel."""
        return self.session.with_deckel(self.session.rule_options[self.rules], self.deckel)

    def _finish(self) -> Transition:
        session = self.session
        setup = GameSetup(self.seat_names(), self.game_rules(), session.real_dice)
        bots = list(self.bots[: self.players])
        while bots and not bots[-1]:
            bots.pop()
        names = tuple(self.names[: self.players])
        return Goto((session.start_set_up_game(setup, bots=tuple(bots), names=names),))

    def view(self) -> PickerView | SeatsView:
        t = self.session.t
        step = f"{self.step + 1}/{len(SetupStep)}"
        keys: SoftKeys = ("-", "+", t("key_next"))
        short = short_names(self.seat_names())  # a configuration's long name, shortened
        names = tuple(short[name] for name in self.seat_names())
        bots = self.bots[: self.players]
        shown = tuple(marked(name, bool(bot)) for name, bot in zip(names, bots, strict=True))
        if self.step is SetupStep.PLAYERS:
            return PickerView(t("setup_players"), step, str(self.players), " ".join(shown), keys)
        if self.step is SetupStep.NAMES:
            rows = tuple(SeatRow(name, "") for name in shown)
            name_keys: SoftKeys = (t("key_seat"), t("key_name"), t("key_next"))
            return SeatsView(t("setup_names"), step, rows, self.seat, name_keys)
        if self.step is SetupStep.COMPUTERS:
            rows = tuple(
                SeatRow(name, self._role(bot)) for name, bot in zip(names, bots, strict=True)
            )
            seat_keys: SoftKeys = (t("key_seat"), t("key_change"), t("key_next"))
            return SeatsView(t("setup_bots"), step, rows, self.seat, seat_keys)
        rules = self.session.rule_options[self.rules]
        if self.step is SetupStep.RULES:
            return PickerView(t("setup_rules"), step, rules.name, rules.description, keys)
        if self.step is SetupStep.DECKEL:
            detail = t("setup_deckel_detail", preset=rules.deckel)
            return PickerView(t("setup_deckel"), step, str(self.deckel), detail, keys)
        computers = sum(1 for bot in bots if bot)
        summary = t(
            "setup_summary_bots" if computers else "setup_summary",
            players=self.players,
            bots=computers,
            rules=rules.name,
            deckel=self.deckel,
        )
        scheme = self.evening_scheme
        if scheme is not None and not scheme.counts_table(self.players):
            summary = table_warning(scheme, self.session.catalogue)  # said before it begins
        return PickerView(t("setup_start"), step, t("setup_go"), summary, ("", "", "OK"))

    def _role(self, strategy: str) -> str:
        """Who plays a seat, in words: a person, or the computer with a strategy."""
        if not strategy:
            return self.session.t("setup_human")
        key = _STRATEGY_KEYS.get(strategy)
        return f"{BOT_MARK} " + (self.session.t(key) if key is not None else strategy)

