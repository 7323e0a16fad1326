"""The device's session: configuration, language, storage, the dice and the game under way.

One :class:`Session` lives as long as the :class:`~firmware.app.device.DeviceApp`; the stages,
the menu and the shell read it, and change it only through its methods, each of which says what
it changes. The game itself, with its computer players, is the session's
:class:`~firmware.app.session.table.Table` (None before the first game). Starting, ending and
abandoning a game return the moment that comes next (:mod:`~firmware.app.session.moments`):
the session imports no stage.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game, GameSetup, Scharf
from engine.rules import Rules, load_preset, preset_names
from engine.scoring import Scheme
from engine.spieltag import Spieltag
from firmware.app.session.evening_desk import (
    amend_last_game,
    begin_evening,
    end_evening,
    evening_standings,
    last_game,
)
from firmware.app.session.moments import EveningStandings, Moment, RollOffDue, SetupDue
from firmware.app.session.table import Table
from firmware.config import DeviceConfig
from firmware.dice import DiceSource
from firmware.screen.oled_words import OledWords
from firmware.sink import DeviceEvent, EventSink, GameAbandoned, GameResumed, GameStarted
from firmware.store.gamestore import DamageReport, GameStore
from firmware.store.journal import JournalHeader, Recovery
from firmware.store.roster import RosterFile
from firmware.store.setupfile import Remembered, clamp_deckel
from firmware.store.spieltagamend import Amended
from firmware.store.spieltagfile import OpenEvening, open_evening, time_box_ends
from firmware.store.stats import PlayerStats
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


class _Unchanged(enum.Enum):
    """A keyword's default that leaves what the session holds as it is."""

    UNCHANGED = "unchanged"


_UNCHANGED = _Unchanged.UNCHANGED


class Session:
    """Everything the stages share: settings, language, brightness, storage and the game.

    Its state is its own: the stages, the overlays and the shell read it through properties and
    change it only through the methods that say what they do (choose the rules, switch the dice,
    set the brightness, choose the language, plan the next game, start one, ...). What the
    device remembers between power cycles (``setup.json``) changes in one place,
    :meth:`_remember`.
    """

    __slots__ = (
        "_asking", "_catalogue", "_clock", "_config", "_contrast", "_dice", "_evening_problem",
        "_game_number", "_now", "_pairing", "_plan", "_real_dice", "_resumed", "_roster",
        "_round_ends_at", "_rule_options", "_scharf_at", "_seat_bots", "_settings", "_setup_first",
        "_shutdown", "_sink", "_store", "_table", "_table_spieltag", "_time_box", "_tournament",
        "_uncounted_under", "_work",
    )

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
        self._config = config
        self._dice = dice
        self._settings = stores.settings
        self._roster = stores.roster
        self._store = stores.games
        self._shutdown = shutdown
        self._pairing = pairing
        self._work: Work = work if work is not None else InlineWork()
        self._asking = 0
        self._sink = event_sink
        remembered = self._settings.remembered
        language = remembered.language or config.game.language
        self._catalogue = OledWords(language if language in LANGUAGES else config.game.language)
        self._contrast: int = (
            remembered.brightness if remembered.brightness is not None else config.display.contrast
        )
        self._rule_options = _rule_options(config)
        self._plan = plan
        self._seat_bots: tuple[str, ...] = (
            remembered.bots if plan is None and remembered.bots is not None else config.game.bots
        )
        self._game_number = 0
        # Without a planned game the menu's last choice counts (``setup.json``).
        self._real_dice = (
            plan.real_dice if plan is not None
            else remembered.real_dice if remembered.real_dice is not None
            else config.game.real_dice
        )
        self._table: Table | None = None
        self._resumed = False
        self._now = clock.now()
        self._tournament: Reporter | None = None
        self._round_ends_at: float | None = None
        self._clock = clock
        self._table_spieltag: str | None = None
        self._scharf_at: float | None = None
        self._time_box = 0
        self._evening_problem: str | None = None
        self._uncounted_under: Scheme | None = None
        self._setup_first = False

    # --- what the stages and the shell read -----------------------------------------------------

    @property
    def config(self) -> DeviceConfig:
        """The device's configuration."""
        return self._config

    @property
    def dice(self) -> DiceSource:
        """Where the device's dice come from."""
        return self._dice

    @property
    def roster(self) -> RosterFile:
        """The remembered names the setup offers, the most recently used first."""
        return self._roster

    @property
    def keeps_games(self) -> bool:
        """Whether the device keeps its games (it has a state directory): the menu offers the
        statistics and the Spieltag only then."""
        return self._store is not None

    @property
    def damage_found(self) -> tuple[DamageReport, ...]:
        """The state files found damaged when the device started, and what became of each."""
        return tuple(self._store.damage) if self._store is not None else ()

    @property
    def storage_failure(self) -> str | None:
        """One line about the storage failing (the game is no longer saved); None while it
        works, and without a state directory."""
        return self._store.failure if self._store is not None else None

    @property
    def shutdown(self) -> Callable[[], None] | None:
        """What the menu's "shut down" calls; None: the menu does not offer it."""
        return self._shutdown

    @property
    def pairing(self) -> Pairing | None:
        """Who may change the game from outside (the link's hosts); None without a link."""
        return self._pairing

    @property
    def work(self) -> Work:
        """Where odds tables and computer players' decisions are computed
        (:mod:`firmware.work`)."""
        return self._work

    @property
    def asking(self) -> int:
        """Questions asked of :attr:`work` and not answered yet."""
        return self._asking

    @property
    def catalogue(self) -> OledWords:
        """The UI texts in the current language."""
        return self._catalogue

    @property
    def contrast(self) -> int:
        """The panel contrast (0-255): the menu's brightness, or its preview while it is open."""
        return self._contrast

    @property
    def rule_options(self) -> list[Rules]:
        """The rule sets the setup and the menu offer."""
        return self._rule_options

    @property
    def plan(self) -> GameSetup | None:
        """Players and rules of the next game, once known (the last game's, or a planned one)."""
        return self._plan

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """Per seat of the next game: a strategy name, or "" for a person."""
        return self._seat_bots

    @property
    def game_number(self) -> int:
        """How many games this session began (the one under way included)."""
        return self._game_number

    @property
    def real_dice(self) -> bool:
        """Whether the next game is played with real dice at the table (``[game] real_dice``,
        switched in the menu between games and remembered)."""
        return self._real_dice

    @property
    def table(self) -> Table | None:
        """The game under way or just over; None before the first one and after abandoning
        one."""
        return self._table

    @property
    def resumed(self) -> bool:
        """True while the game that was interrupted by a power cut goes on."""
        return self._resumed

    @property
    def now(self) -> float:
        """The latest time on the device's clock the session was told of (:meth:`note_time`)."""
        return self._now

    @property
    def tournament(self) -> Reporter | None:
        """The tournament this device is a table of (``[tournament]``); None outside one."""
        return self._tournament

    @property
    def time_box_ends_at(self) -> float | None:
        """When the assigned round's time box ends (unix seconds), for the round's games; None:
        no time box."""
        return self._round_ends_at

    @property
    def table_spieltag(self) -> str | None:
        """The Spieltag the game under way belongs to (its journal's tag), or None."""
        return self._table_spieltag

    @property
    def evening_problem(self) -> str | None:
        """One line about a damaged ``spieltag.json`` found when the game under way began or
        resumed (its games still belong to the evening), for the screen; None if there was
        none."""
        return self._evening_problem

    @property
    def uncounted_under(self) -> Scheme | None:
        """The Spieltag's scheme if it cannot score the game under way (a table of two under
        Platzpunkte): the game does not count, which the screen says once; None otherwise."""
        return self._uncounted_under

    def t(self, key: str, **values: object) -> str:
        """A UI text in the current language."""
        return self._catalogue.t(key, **values)

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
        self._asking += 1

        def answered(answer: Answer) -> None:
            self._asking -= 1
            done(answer)

        self._work.submit(job, answered)

    def require_table(self) -> Table:
        if self._table is None:
            raise RuntimeError("no game is running")
        return self._table

    def statistics(self) -> dict[str, PlayerStats]:
        """Every player's statistics over the finished games kept (none without a state
        directory)."""
        return self._store.stats() if self._store is not None else {}

    # --- the Spieltag ---------------------------------------------------------------------------

    def evening(self) -> OpenEvening:
        """The Spieltag as the state directory says now: the one going on, or that its file is
        damaged (and the evening the games begun meanwhile keep, where it can be found); no
        evening without a state directory."""
        return open_evening(self._store.storage) if self._store is not None else OpenEvening()

    def evening_standings(self) -> EveningStandings | None:
        """The standings of the Spieltag going on, recounted from its games; None outside one,
        before its first game, and without a state directory."""
        return evening_standings(self._store) if self._store is not None else None

    def begin_evening(self, scheme: str, time_box: int = 0) -> Spieltag:
        """Begin a Spieltag under the preset ``scheme``, dated by the wall clock, with a time box
        of ``time_box`` minutes (0: none): every game begun from now on is its. SpieltagError
        or StorageError if it cannot be begun."""
        store = self._require_store()
        return begin_evening(store, scheme, store.wall_time(), time_box)

    def end_evening(self) -> Spieltag:
        """End the Spieltag going on. SpieltagError or StorageError if it cannot be ended."""
        return end_evening(self._require_store())

    def last_game(self) -> tuple[int, bool] | None:
        """The Partie of the Spieltag's last finished game and whether it is taken out; None
        outside one, before its first game, and without a state directory."""
        return last_game(self._store) if self._store is not None else None

    def amend_last_game(self, partie: int, take_out: bool) -> Amended:
        """Take the Spieltag's last game (Partie ``partie``) out, or put it back, kept in its
        history. SpieltagError or StorageError if it cannot be."""
        return amend_last_game(self._require_store(), partie, take_out)

    def _require_store(self) -> GameStore:
        if self._store is None:
            raise RuntimeError("this device keeps no games (no state directory)")
        return self._store

    # --- what the menu, the setup, the link and the shell change --------------------------------

    def note_time(self, now: float) -> None:
        """The device's clock reads ``now`` (an input's time, a timer's): :attr:`now` is the
        latest time seen."""
        self._now = max(self._now, now)

    def choose_rules(self, rules: Rules, *, for_the_plan: bool = True) -> None:
        """The rule set ``rules`` (one of :attr:`rule_options`, with its own Deckel) for the next
        game: the planned game's, unless ``for_the_plan`` is False (the setup on screen takes
        it itself), and remembered for the next setup."""
        if for_the_plan and self._plan is not None:
            self._plan = replace(self._plan, rules=rules)
        self._remember(replace(self._settings.remembered, rules=rules.name, deckel=rules.deckel))

    def switch_dice(self) -> None:
        """Real dice at the table for the next game instead of the device's, or back (the
        planned game's too); remembered over a restart."""
        self._real_dice = not self._real_dice
        if self._plan is not None:
            self._plan = replace(self._plan, real_dice=self._real_dice)
        self._remember(replace(self._settings.remembered, real_dice=self._real_dice))

    def preview_brightness(self, contrast: int) -> None:
        """Show the panel at ``contrast`` while the menu's picker is on it (nothing
        remembered); the picker puts the one before back if it is left without a choice."""
        self._contrast = contrast

    def set_brightness(self, contrast: int) -> None:
        """The panel's contrast from now on (0-255), remembered."""
        self._contrast = contrast
        self._remember(replace(self._settings.remembered, brightness=contrast))

    def choose_language(self, language: str) -> None:
        """The UI's language from now on (one of :data:`~firmware.words.LANGUAGES`),
        remembered."""
        self._catalogue = OledWords(language)
        self._remember(replace(self._settings.remembered, language=self._catalogue.language))

    def plan_next_game(self, setup: GameSetup) -> None:
        """Who plays the next game under which rules, with which dice (the link's ``setup``);
        the players' names join the remembered ones."""
        self._plan = setup
        self._real_dice = setup.real_dice  # the menu's switch shows the plan's dice
        self.remember_names(setup.players)

    def plan_bots(self, bots: tuple[str, ...]) -> None:
        """The computer players per seat of the next game (a strategy name, or "" for a
        person)."""
        self._seat_bots = bots

    def join_tournament(self, reporter: Reporter) -> None:
        """Be a table of the tournament ``reporter`` reports to: a game of the assigned players
        is the round's."""
        self._tournament = reporter

    def _remember(self, remembered: Remembered) -> None:
        """What ``setup.json`` keeps from now on, written at once: the one place it changes."""
        self._settings.remembered = remembered
        self._settings.save()

    # --- starting games -------------------------------------------------------------------------

    def open_table(self, setup: GameSetup, bots: tuple[str, ...] | None = None) -> Table:
        """A new table for ``setup`` with the seats' computer players (nothing recorded yet):
        ``bots`` per seat from now on if given, else those planned (:attr:`seat_bots`)."""
        if bots is not None:
            self._seat_bots = bots
        self._plan = setup
        self._real_dice = setup.real_dice
        self._game_number += 1
        seats = zip(setup.players, self._seat_bots, strict=False)
        # Real dice: everyone at the table throws their own cup, the device plays no seat.
        strategies = {
            name: strategy for name, strategy in seats if strategy and not setup.real_dice
        }
        players: dict[str, StrategyBot] = {}
        if strategies:
            from engine.bots import make_bot  # the odds load only for games with computer players

            players = {name: make_bot(strategy) for name, strategy in strategies.items()}
        # The tables are built while the roll-off is on screen.
        if players or (setup.rules.hints and not setup.real_dice):
            opener_asks = setup.rules.hints or "odds" in strategies.values()
            self._work.prepare(
                setup.rules, set(strategies.values()), len(setup.players) if opener_asks else 0
            )
        self._table = Table(Game(setup), players, store=self._store, emit=self.emit)
        return self._table

    def start_game(
        self,
        setup: GameSetup,
        *,
        bots: tuple[str, ...] | None = None,
        round_ends_at: float | _Unchanged | None = _UNCHANGED,
    ) -> Moment:
        """Start a game: announce it, open its journal; the roll-off comes first.

        ``bots``: the computer players per seat from now on (else those planned);
        ``round_ends_at``: when the assigned tournament round ends (unix seconds; None: it has
        no time box), the time box of the round's games from now on (else the one noted
        before, if any)."""
        if not isinstance(round_ends_at, _Unchanged):
            self._round_ends_at = round_ends_at
        table = self.open_table(setup, bots)
        self.remember_names(setup.players)
        players = tuple((name, bot.name) for name, bot in table.bots.items())
        rules = setup.rules
        self.emit(GameStarted(setup.players, rules.name, rules.deckel, self._game_number, players))
        self._resumed = False
        self._uncounted_under = None
        if self._store is not None:
            evening = open_evening(self._store.storage)
            self._evening_problem = evening.problem
            self._note_uncounted(evening, len(setup.players))
            # A game of the assigned players is the tournament round's.
            place = self._tournament.place_for(setup) if self._tournament is not None else None
            self._store.begin(JournalHeader(
                setup, self._catalogue.language, tuple(self._seat_bots), evening.id, place,
            ))
            self.arm_time_box(evening.id, evening)
            if place is not None:
                self.arm_round_time_box()
        return RollOffDue()

    def start_set_up_game(
        self, setup: GameSetup, *, bots: tuple[str, ...], names: tuple[str, ...]
    ) -> Moment:
        """Start the game the setup chose, with ``bots`` per seat, and remember the choice for
        the next setup (``setup.json``): how many play, ``names`` as chosen ("" for a
        numbered seat), the computer seats, the rules, the Deckel and the dice."""
        self._remember(replace(
            self._settings.remembered, players=len(setup.players), rules=setup.rules.name,
            deckel=setup.rules.deckel, bots=bots, names=names, real_dice=setup.real_dice,
        ))
        return self.start_game(setup, bots=bots)

    def find_interrupted_game(self) -> Recovery | None:
        """The game a power cut interrupted, from its journal (the store tidies up after
        whatever stopped the device, once, at start); one with nothing played or entered yet is
        dropped. None without one, and without a state directory."""
        if self._store is None:
            return None
        recovery = self._store.open()
        if recovery is not None and recovery.unplayed:
            self._store.discard()
            return None
        return recovery

    def mark_resumed(self, recovery: Recovery) -> None:
        """The game just rebuilt from ``recovery`` (:mod:`~firmware.app.session.resume`) goes
        on: in its language (unless the menu has chosen one since, remembered), its journal
        continued, its evening's time box armed, a damaged ``spieltag.json`` noted for the
        screen (:attr:`evening_problem`) as when a game begins; announced as resumed."""
        assert self._store is not None
        header = recovery.header
        if self._settings.remembered.language is None and header.language in LANGUAGES:
            self._catalogue = OledWords(str(header.language))
        self._store.resume(recovery)
        evening = open_evening(self._store.storage)
        self._evening_problem = evening.problem
        self._note_uncounted(evening if header.spieltag == evening.id else OpenEvening(),
                             len(header.setup.players))
        self.arm_time_box(header.spieltag, evening)
        self._resumed = True
        self.emit(GameResumed(self._game_number, len(recovery.actions)))

    def _note_uncounted(self, evening: OpenEvening, players: int) -> None:
        """Note whether the Spieltag's scheme can score a game of ``players`` (the screen says
        so once if it cannot)."""
        scheme = evening.spieltag.scheme if evening.spieltag is not None else None
        self._uncounted_under = (
            scheme if scheme is not None and not scheme.counts_table(players) else None
        )

    # --- the Spieltag's time box ----------------------------------------------------------------

    def arm_time_box(self, spieltag_id: str | None, evening: OpenEvening | None = None) -> None:
        """Note the game under way as the Spieltag ``spieltag_id``'s, and when its time box runs
        out on the device's clock: the wall clock's time left, counted from now on the device's
        own (monotonic) clock, so that a fake clock drives it in tests and the simulator, and a
        device that was off for a while finds it run out at once. ``evening`` is what the state
        directory says of the evening going on, if read already."""
        self._table_spieltag, self._scharf_at, self._time_box = spieltag_id, None, 0
        if spieltag_id is None or self._store is None:
            return
        if evening is None:
            evening = open_evening(self._store.storage)
        spieltag = evening.spieltag
        ends = time_box_ends(spieltag) if spieltag is not None else None
        if spieltag is None or spieltag.id != spieltag_id or ends is None:
            return
        left = (ends - self._store.wall_time()).total_seconds()
        self._time_box = spieltag.time_box
        self._scharf_at = self._clock.now() + max(left, 0.0)

    def arm_round_time_box(self) -> None:
        """A tournament game: the round's time box (the hub's ``ends_at``, unix seconds, in
        :attr:`time_box_ends_at`) is the game's, unless a Spieltag's armed one already."""
        ends = self._round_ends_at
        if ends is None or self._scharf_at is not None or self._store is None:
            return
        left = ends - self._store.wall_time().timestamp()
        assignment = self._tournament.assignment if self._tournament is not None else None
        length = ends - assignment.starts_at if assignment is not None else left
        self._time_box = max(round(length / 60), 0)  # the round's minutes, for GoScharf's record
        self._scharf_at = self._clock.now() + max(left, 0.0)

    def time_box_deadline(self) -> float | None:
        """When the time box runs out for the game in play; None if there is none, the game is
        over or went scharf already."""
        table = self._table
        if table is None or table.game.is_over or table.game.scharf is not Scharf.OFF:
            return None
        return self._scharf_at

    def go_scharf_due(self, now: float) -> bool:
        """Whether the time box has run out by ``now`` for a game still in play, of an evening
        still going on (one ended meanwhile has no time box left: it is disarmed)."""
        deadline = self.time_box_deadline()
        if deadline is None or now < deadline:
            return False
        if self._store is None or open_evening(self._store.storage).id != self._table_spieltag:
            self._scharf_at = None
            return False
        return True

    def go_scharf(self) -> None:
        """The time box ran out: the game in play goes on scharf (journalled, then announced)."""
        table = self.require_table()
        self._scharf_at = None
        table.record(table.game.go_scharf(self._time_box))

    def after_game(self) -> Moment:
        """After a game: the evening's standings while a Spieltag is going on, else the next
        game. Under Leben the players without a life are left out of the next game's seats."""
        standings = evening_standings(self._store) if self._store is not None else None
        if standings is not None and standings.out:
            self._leave_out(standings.out)
        return standings if standings is not None else self.next_game()

    def _leave_out(self, out: tuple[str, ...]) -> None:
        """The planned game without the players ``out`` (and their seats' computer players);
        if fewer than two would be left, the setup comes first (the evening is decided)."""
        plan = self._plan
        if plan is None:
            return
        seats = [index for index, name in enumerate(plan.players) if name not in out]
        if len(seats) == len(plan.players):
            return
        if len(seats) < MIN_PLAYERS:
            self._setup_first = True
            return
        self._plan = replace(plan, players=tuple(plan.players[index] for index in seats))
        bots = self._seat_bots
        self._seat_bots = tuple(bots[index] for index in seats if index < len(bots))

    def next_game(self) -> Moment:
        """After a game: the same players and rules again, or the setup if none is planned."""
        if self._setup_first or self._plan is None:
            self._setup_first = False
            return self.new_setup()
        return self.start_game(self._plan)

    def abandon_game(
        self, then: GameSetup | None = None, *, bots: tuple[str, ...] | None = None
    ) -> Moment:
        """Drop the game under way (its journal too); start ``then``, or go to the setup.
        ``bots``: the computer players per seat from now on (else those of the dropped game)."""
        self.emit(GameAbandoned(self._game_number))
        if self._store is not None:
            self._store.discard()
        if bots is not None:
            self._seat_bots = bots
        self._resumed = False
        self._table = None
        self.arm_time_box(None)
        return self.new_setup() if then is None else self.start_game(then)

    # --- the setup ------------------------------------------------------------------------------

    def new_setup(self) -> SetupDue:
        """The setup, starting from the planned game, or else from what is remembered."""
        remembered = self._settings.remembered
        if self._plan is not None:
            count = len(self._plan.players)
            rules_index = self.rules_index(self._plan.rules.name)
            deckel = self._plan.rules.deckel
        else:
            count = remembered.players or len(self._config.game.players)
            rules_index = self.rules_index(remembered.rules)
            deckel = remembered.deckel or self._rule_options[rules_index].deckel
        count = min(max(count, MIN_PLAYERS), MAX_PLAYERS)
        bots = list(self._seat_bots[:MAX_PLAYERS])
        if self._plan is not None:
            names = list(self._plan.players)
        elif remembered.names is not None:
            names = list(remembered.names)
        else:
            names = list(self._config.game.players)
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
        names = [rules.name for rules in self._rule_options]
        if name in names:
            return names.index(name)
        configured = self._config.game.rule_set.name
        return names.index(configured) if configured in names else 0

    def default_names(self) -> frozenset[str]:
        """The numbered names the setup gives a seat without one, in every language
        ("Spieler4", "Player4"): placeholders, never remembered as a player's name."""
        return _default_names()

    def remember_names(self, players: tuple[str, ...]) -> None:
        """Put the players of a game (from the setup, the configuration or the link) first in
        the remembered names; numbered default names stay out."""
        defaults = self.default_names()
        self._roster.use(name for name in players if name not in defaults)

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
