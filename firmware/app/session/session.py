"""The device's session: configuration, language, storage, the dice and the game under way.

One :class:`Session` lives as long as the :class:`~firmware.app.device.DeviceApp`; the stages and
the menu read and change it. The game itself, with its computer players, is the session's
:class:`~firmware.app.session.table.Table` (None before the first game). Starting, ending and
abandoning a game return the moment that comes next (:mod:`~firmware.app.session.moments`):
the session imports no stage.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game, GameSetup, Scharf
from engine.rules import Rules, load_preset, preset_names
from firmware.app.session.evening_desk import evening_standings, open_evening
from firmware.app.session.moments import Moment, RollOffDue, SetupDue
from firmware.app.session.table import Table
from firmware.config import DeviceConfig
from firmware.dice import DiceSource
from firmware.screen.oled_words import OledWords
from firmware.sink import DeviceEvent, EventSink, GameAbandoned, GameStarted
from firmware.store.setupfile import clamp_deckel
from firmware.store.spieltagfile import open_spieltag_id, time_box_ends
from firmware.store.stores import Stores
from firmware.words import LANGUAGES
from firmware.work import InlineWork, Work
from hal.ports import Clock

if TYPE_CHECKING:
    from engine.bots import StrategyBot
    from firmware.link.pairing import Pairing
    from firmware.tournament.reporter import Reporter

__all__ = ["Session"]

logger = logging.getLogger(__name__)

Answer = TypeVar("Answer")


class Session:
    """Everything the stages share: settings, language, brightness, storage and the game."""

    def __init__(
        self,
        config: DeviceConfig,
        *,
        clock: Clock,
        dice: DiceSource,
        stores: Stores,
        plan: GameSetup | None,
        event_sink: EventSink | None,
        shutdown: Callable[[], None] | None,
        pairing: Pairing | None = None,
        work: Work | None = None,
    ) -> None:
        self.config = config
        self.dice = dice
        #: The last setup, language and brightness (``setup.json``).
        self.settings = stores.settings
        #: The remembered names the setup offers, the most recently used first.
        self.roster = stores.roster
        #: The games on disk: None without a state directory.
        self.store = stores.games
        self.shutdown = shutdown
        #: Who may change the game from outside (the link's hosts); None without a link.
        self.pairing = pairing
        #: Where odds tables and computer players' decisions are computed (:mod:`firmware.work`).
        self.work: Work = work if work is not None else InlineWork()
        #: Questions asked of :attr:`work` and not answered yet.
        self.asking = 0
        self._sink = event_sink
        remembered = self.settings.remembered
        language = remembered.language or config.game.language
        self.catalogue = OledWords(language if language in LANGUAGES else config.game.language)
        self.contrast: int = (
            remembered.brightness if remembered.brightness is not None else config.display.contrast
        )
        self.rule_options = _rule_options(config)
        #: Players and rules of the next game, once known (the last game's, or a planned one).
        self.plan = plan
        #: Per seat of the next game: a strategy name, or "" for a person.
        self.seat_bots: tuple[str, ...] = (
            remembered.bots if plan is None and remembered.bots is not None else config.game.bots
        )
        self.game_number = 0
        #: Whether the next game is played with real dice at the table (``[game] real_dice``,
        #: switched in the menu between games and remembered).
        #: Without a planned game the menu's last choice counts (``setup.json``).
        self.real_dice = (
            plan.real_dice if plan is not None
            else remembered.real_dice if remembered.real_dice is not None
            else config.game.real_dice
        )
        #: The game under way or just over; None before the first one and after abandoning one.
        self.table: Table | None = None
        #: True while the game that was interrupted by a power cut goes on.
        self.resumed = False
        self.now = clock.now()
        #: The tournament this device is a table of (``[tournament]``); None outside one.
        self.tournament: Reporter | None = None
        #: When the assigned round's time box ends (unix seconds), for the next game's time box;
        #: None: no time box.
        self.time_box_ends_at: float | None = None
        self._clock = clock
        #: The Spieltag the game under way belongs to (its journal's tag), or None.
        self.table_spieltag: str | None = None
        #: When the Spieltag's time box runs out on the device's clock, for the game under way
        #: (None: no time box, another evening's game, or it went scharf already), and its
        #: minutes (what :class:`~engine.events.GoScharf` records).
        self.scharf_at: float | None = None
        self.time_box = 0

    def t(self, key: str, **values: object) -> str:
        """A UI text in the current language."""
        return self.catalogue.t(key, **values)

    def emit(self, event: DeviceEvent) -> None:
        """Hand an event to the sink; a broken listener (a link, a log) never stops the game."""
        if self._sink is None:
            return
        try:
            self._sink(event)
        except Exception:
            logger.exception("the event sink failed on %s", event.kind)

    def ask(self, job: Callable[[], Answer], done: Callable[[Answer], None]) -> None:
        """Have the odds worker compute ``job``; ``done(answer)`` runs on the main loop after."""
        self.asking += 1

        def answered(answer: Answer) -> None:
            self.asking -= 1
            done(answer)

        self.work.submit(job, answered)

    def require_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("no game is running")
        return self.table

    # --- starting games -------------------------------------------------------------------------

    def open_table(self, setup: GameSetup) -> Table:
        """A new table for ``setup`` with the seats' computer players (nothing recorded yet)."""
        self.plan = setup
        self.real_dice = setup.real_dice
        self.game_number += 1
        seats = zip(setup.players, self.seat_bots, strict=False)
        # Real dice: everyone at the table throws their own cup, the device plays no seat.
        strategies = {
            name: strategy for name, strategy in seats if strategy and not setup.real_dice
        }
        bots: dict[str, StrategyBot] = {}
        if strategies:
            from engine.bots import make_bot  # the odds load only for games with computer players

            bots = {name: make_bot(strategy) for name, strategy in strategies.items()}
        # The tables are built while the roll-off is on screen.
        if bots or (setup.rules.hints and not setup.real_dice):
            opener_asks = setup.rules.hints or "odds" in strategies.values()
            self.work.prepare(
                setup.rules, set(strategies.values()), len(setup.players) if opener_asks else 0
            )
        self.table = Table(Game(setup), bots, store=self.store, emit=self.emit)
        return self.table

    def start_game(self, setup: GameSetup) -> Moment:
        """Start a game: announce it, open its journal; the roll-off comes first."""
        table = self.open_table(setup)
        self.remember_names(setup.players)
        bots = tuple((name, bot.name) for name, bot in table.bots.items())
        rules = setup.rules
        self.emit(GameStarted(setup.players, rules.name, rules.deckel, self.game_number, bots))
        self.resumed = False
        if self.store is not None:
            meta = {"language": self.catalogue.language, "bots": list(self.seat_bots)}
            if self.tournament is not None:  # a game of the assigned players is the round's
                meta.update(self.tournament.game_meta(setup))
            self.store.begin(setup, meta)
            self.arm_time_box(open_spieltag_id(self.store.storage))
            if "tournament" in meta:
                self.arm_round_time_box()
        return RollOffDue()

    # --- the Spieltag's time box ----------------------------------------------------------------

    def arm_time_box(self, spieltag_id: str | None) -> None:
        """Note the game under way as the Spieltag ``spieltag_id``'s, and when its time box runs
        out on the device's clock: the wall clock's time left, counted from now on the device's
        own (monotonic) clock, so that a fake clock drives it in tests and the simulator, and a
        device that was off for a while finds it run out at once."""
        self.table_spieltag, self.scharf_at, self.time_box = spieltag_id, None, 0
        if spieltag_id is None or self.store is None:
            return
        spieltag = open_evening(self.store)
        ends = time_box_ends(spieltag) if spieltag is not None else None
        if spieltag is None or spieltag.id != spieltag_id or ends is None:
            return
        left = (ends - self.store.wall_time()).total_seconds()
        self.time_box = spieltag.time_box
        self.scharf_at = self._clock.now() + max(left, 0.0)

    def arm_round_time_box(self) -> None:
        """A tournament game: the round's time box (the hub's ``ends_at``, unix seconds, in
        :attr:`time_box_ends_at`) is the game's, unless a Spieltag's armed one already."""
        ends = self.time_box_ends_at
        if ends is None or self.scharf_at is not None or self.store is None:
            return
        left = ends - self.store.wall_time().timestamp()
        assignment = self.tournament.assignment if self.tournament is not None else None
        length = ends - assignment.starts_at if assignment is not None else left
        self.time_box = max(round(length / 60), 0)  # the round's minutes, for GoScharf's record
        self.scharf_at = self._clock.now() + max(left, 0.0)

    def time_box_deadline(self) -> float | None:
        """When the time box runs out for the game in play; None if there is none, the game is
        over or went scharf already."""
        table = self.table
        if table is None or table.game.is_over or table.game.scharf is not Scharf.OFF:
            return None
        return self.scharf_at

    def go_scharf_due(self, now: float) -> bool:
        """Whether the time box has run out by ``now`` for a game still in play, of an evening
        still going on (one ended meanwhile has no time box left: it is disarmed)."""
        deadline = self.time_box_deadline()
        if deadline is None or now < deadline:
            return False
        if self.store is None or open_spieltag_id(self.store.storage) != self.table_spieltag:
            self.scharf_at = None
            return False
        return True

    def go_scharf(self) -> None:
        """The time box ran out: the game in play goes on scharf (journalled, then announced)."""
        table = self.require_table()
        self.scharf_at = None
        table.record(table.game.go_scharf(self.time_box))

    def after_game(self) -> Moment:
        """After a game: the evening's standings while a Spieltag is going on, else the next
        game."""
        standings = evening_standings(self.store) if self.store is not None else None
        return standings if standings is not None else self.next_game()

    def next_game(self) -> Moment:
        """After a game: the same players and rules again, or the setup if none is planned."""
        return self.new_setup() if self.plan is None else self.start_game(self.plan)

    def abandon_game(self, then: GameSetup | None = None) -> Moment:
        """Drop the game under way (its journal too); start ``then``, or go to the setup."""
        self.emit(GameAbandoned(self.game_number))
        if self.store is not None:
            self.store.discard()
        self.resumed = False
        self.table = None
        self.arm_time_box(None)
        return self.new_setup() if then is None else self.start_game(then)

    # --- the setup ------------------------------------------------------------------------------

    def new_setup(self) -> SetupDue:
        """The setup, starting from the planned game, or else from what is remembered."""
        remembered = self.settings.remembered
        if self.plan is not None:
            count = len(self.plan.players)
            rules_index = self.rules_index(self.plan.rules.name)
            deckel = self.plan.rules.deckel
        else:
            count = remembered.players or len(self.config.game.players)
            rules_index = self.rules_index(remembered.rules)
            deckel = remembered.deckel or self.rule_options[rules_index].deckel
        count = min(max(count, MIN_PLAYERS), MAX_PLAYERS)
        bots = list(self.seat_bots[:MAX_PLAYERS])
        if self.plan is not None:
            names = list(self.plan.players)
        elif remembered.names is not None:
            names = list(remembered.names)
        else:
            names = list(self.config.game.players)
        defaults = self.default_names()
        return SetupDue(
            count,
            rules_index,
            clamp_deckel(deckel),
            tuple(bots + [""] * (MAX_PLAYERS - len(bots))),
            tuple([name if name not in defaults else "" for name in names]
                  + [""] * (MAX_PLAYERS - len(names))),
        )

    def rules_index(self, name: str | None) -> int:
        """The rule set called ``name`` among :attr:`rule_options` (else the configured one)."""
        names = [rules.name for rules in self.rule_options]
        if name in names:
            return names.index(name)
        configured = self.config.game.rule_set.name
        return names.index(configured) if configured in names else 0

    def default_names(self) -> frozenset[str]:
        """The numbered names the setup gives a seat without one, in every language
        ("Spieler4", "Player4"): placeholders, never remembered as a player's name."""
        return _default_names()

    def remember_names(self, players: tuple[str, ...]) -> None:
        """Put the players of a game (from the setup, the configuration or the link) first in
        the remembered names; numbered default names stay out."""
        defaults = self.default_names()
        self.roster.use(name for name in players if name not in defaults)

    def with_deckel(self, rules: Rules, deckel: int) -> Rules:
        """``rules`` played with ``deckel`` Deckel (a penalty never costs more than the pot)."""
        if deckel == rules.deckel:
            return rules
        return replace(rules, deckel=deckel, penalty_deckel=min(rules.penalty_deckel, deckel))


@cache
def _default_names() -> frozenset[str]:
    numbers = range(1, 2 * MAX_PLAYERS + 1)
    return frozenset(
        OledWords(language).t("default_player", number=number)
        for language in LANGUAGES
        for number in numbers
    )


def _rule_options(config: DeviceConfig) -> list[Rules]:
    """The presets, and before them the configured rules if they are not a preset as is."""
    options = [load_preset(name) for name in preset_names()]
    configured = config.game.rule_set
    if configured.name not in preset_names() or configured != load_preset(configured.name):
        options.insert(0, configured)
    return options
