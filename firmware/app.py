"""The device application: decoded inputs in, engine actions and screens out.

:class:`DeviceApp` is event-driven and single-threaded. It owns no hardware and no thread: the main
loop (:mod:`firmware.loop`) feeds it decoded inputs with :meth:`DeviceApp.handle`, advances its
timers with :meth:`DeviceApp.advance` (the shaking animation is its only timer), and shows
:meth:`DeviceApp.screen`. Everything the players see is a frozen view (:mod:`firmware.views`)
built from the game and the menus, so a test can check what is on screen without pixels.

The flow of a game, one stage at a time:

* setup (players, rules, Deckel) unless a :class:`~engine.GameSetup` was passed in;
* the roll-off (auswürfeln): a shake throws for everyone and shows who opens;
* for every turn, the hand-over ("Becher an Ben") that hides the previous player's dice still
  under the cup, then the turn: shake to throw, KEEP_n to mark dice to lay out, FLIP to turn two
  sixes into a one, STAND to end the turn;
* the reveal after every round, banners for a lost half, the final and the end of the game.

A long press on STAND opens the menu from anywhere; a long press on FLIP during a turn shows a hint
(:mod:`firmware.hint`), unless the rules switch hints off. Buttons in menus: KEEP_1/KEEP_2 are
up/down (or - and +), KEEP_3 and STAND are OK, FLIP goes back.

Computer players (seats chosen in the setup or ``[game] bots``) play on the app's timers, one
action per :data:`BOT_STEP_S` so the table can follow: the dice a bot lays out are marked on the
screen before it shakes. Any press while a bot plays makes it act at once. A hand-over to a bot
goes on by itself, and so do the reveal and banners when only bots are left to play. Bots see
what a player at the table sees (:func:`engine.bots.view_of`); their dice come from the app's dice
source like everyone's, so a seeded game replays exactly.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from PIL import Image

from engine.bots import Move, MoveKind, Shown, StrategyBot, make_bot, strategy_names, view_of
from engine.events import (
    Blind,
    Event,
    FinalStarts,
    Flip,
    GameOver,
    HalfOver,
    Penalty,
    PenaltyGiven,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    Stand,
    TurnOver,
    to_json,
)
from engine.game import MAX_PLAYERS, MIN_PLAYERS, Game, GameSetup, Phase, TurnState
from engine.odds import sorted_dice
from engine.rules import Rules, load_preset, preset_names
from firmware.config import LANGUAGES, DeviceConfig
from firmware.dice import DiceSource
from firmware.gamestore import GameStore
from firmware.hint import best_hint, hint_lines
from firmware.i18n import Catalogue
from firmware.journal import Recovery
from firmware.screens import render
from firmware.stats import PlayerStats
from firmware.views import (
    BOT_MARK,
    BannerView,
    DieFace,
    HandOverView,
    MenuView,
    PickerView,
    RevealRow,
    RevealView,
    RollOffRow,
    RollOffView,
    SeatRow,
    SeatsView,
    SoftKeys,
    Tally,
    TurnView,
    View,
)
from hal.ports import Button, Clock, InputEvent, InputKind, Storage

__all__ = ["BOT_PAUSE_S", "BOT_STEP_S", "BRIGHTNESS_LEVELS", "SETUP_FILE", "DeviceApp", "EventSink"]

logger = logging.getLogger(__name__)

#: Receives every engine event as JSON (``engine.to_json``) plus ``game_started``.
EventSink = Callable[[dict[str, Any]], None]

#: The state file that remembers the last setup, language and brightness.
SETUP_FILE = "setup.json"
#: Panel contrast of the five brightness steps in the menu.
BRIGHTNESS_LEVELS = (8, 40, 96, 170, 255)
#: Seconds between frames of the shaking animation.
FRAME_S = 0.15
#: Rows on one page of the reveal.
REVEAL_ROWS = 5
#: Deckel counts the setup offers.
DECKEL_RANGE = (3, 40)
#: Seconds a computer player takes for each action (laying out, shaking, flipping, standing).
BOT_STEP_S = 1.0
#: Seconds a computer player shakes the cup before the dice fall.
BOT_SHAKE_S = 0.6
#: Seconds a hand-over to a computer player, or a screen only computer players wait on, stays.
BOT_PAUSE_S = 2.0
#: Setup steps: players, computer players, rules, Deckel, start.
SETUP_STEPS = 5

_KEEPS = {Button.KEEP_1: 0, Button.KEEP_2: 1, Button.KEEP_3: 2}
_OK_BUTTONS = (Button.KEEP_3, Button.STAND)


# --- stages: where the game flow stands (mutable, private) ---------------------------------------


@dataclass
class _Setup:
    step: int
    players: int
    rules: int
    deckel: int
    #: One strategy name per seat ("" for a person), for every seat the setup can offer.
    bots: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS)
    #: The seat the computer step's keys change.
    seat: int = 0


@dataclass
class _RollOff:
    rows: tuple[RollOffRow, ...] = ()
    shaking: bool = False
    decided: bool = False


@dataclass
class _HandOver:
    player: str
    previous: str | None = None
    shown: tuple[DieFace, ...] = ()


@dataclass
class _Turn:
    marks: list[bool]
    shaking: bool = False
    frame: int = 0
    frame_at: float | None = None
    notice: str = ""
    #: A computer player's throw whose laid-out dice are marked, to be thrown next.
    plan: Move | None = None
    #: What a computer player is doing (a text key), shown on the status line.
    activity: str = ""
    #: When a computer player's shaking cup comes down.
    throw_at: float | None = None


@dataclass
class _TurnDone:
    """A turn ended by its last throw: the thrower sees the dice until a press."""

    player: str
    throws: int
    limit: int
    faces: tuple[DieFace, ...]
    name: str


@dataclass
class _Reveal:
    turns: tuple[TurnOver, ...]
    result: RoundOver
    section: int
    round_number: int
    page: int = 0


@dataclass
class _Banner:
    build: Callable[[], BannerView]
    then: Callable[[], None] | None = None


_Stage = _Setup | _RollOff | _HandOver | _Turn | _TurnDone | _Reveal | _Banner


@dataclass
class _Timer:
    """A step a stage takes by itself at ``at`` (dropped when the stage changes)."""

    stage: _Stage
    at: float
    action: Callable[[], None]


# --- overlays: the menu and its dialogs, on top of a stage ---------------------------------------


@dataclass
class _Menu:
    title: str
    entries: list[tuple[str, Callable[[], None]]]
    selected: int = 0


@dataclass
class _Picker:
    title: str
    count: int
    index: int
    label: Callable[[int], str]
    detail: Callable[[int], str]
    on_ok: Callable[[int], None]
    on_change: Callable[[int], None] | None = None


@dataclass
class _Message:
    title: str
    lines: tuple[str, ...]
    headline: str = ""


_Overlay = _Menu | _Picker | _Message


@dataclass
class _Remembered:
    """What ``setup.json`` keeps between power cycles."""

    players: int | None = None
    rules: str | None = None
    deckel: int | None = None
    language: str | None = None
    brightness: int | None = None
    bots: tuple[str, ...] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class DeviceApp:
    """The Schockbesteck's logic: no threads, no hardware; time comes from events and ``advance``.

    ``setup`` starts a game at once (skipping the setup menu), with the computer players of
    ``config.game.bots``; ``storage`` remembers the last setup, language and brightness;
    ``event_sink`` receives every engine event as JSON as it happens; ``shutdown`` is called by
    the menu's "shut down" (the menu offers it only if given).
    """

    def __init__(
        self,
        config: DeviceConfig,
        *,
        clock: Clock,
        dice: DiceSource,
        storage: Storage | None = None,
        setup: GameSetup | None = None,
        event_sink: EventSink | None = None,
        shutdown: Callable[[], None] | None = None,
    ) -> None:
        self.config = config
        self._clock = clock
        self._dice = dice
        self._storage = storage
        self._sink = event_sink
        self._shutdown = shutdown
        self._remembered = self._recall()
        language = self._remembered.language or config.game.language
        self.catalogue = Catalogue(language if language in LANGUAGES else config.game.language)
        self.contrast: int = (
            self._remembered.brightness
            if self._remembered.brightness is not None
            else config.display.contrast
        )
        self._rule_options = self._list_rules()
        self.game_number = 0
        self._game: Game | None = None
        self._plan: GameSetup | None = setup
        self._queue: list[_Stage] = []
        self._overlays: list[_Overlay] = []
        self._round_turns: list[TurnOver] = []
        self._section, self._round_number = 1, 0
        self._now = clock.now()
        self.powered_off = False
        self._brightness_before = self.contrast
        #: Per seat of the next game: a strategy name, or "" for a person.
        self._seat_bots: tuple[str, ...] = (
            self._remembered.bots
            if setup is None and self._remembered.bots is not None
            else config.game.bots
        )
        #: The computer players of the running game, by name.
        self._bots: dict[str, StrategyBot] = {}
        #: This round's finished turns as the table saw them (what a bot may know).
        self._shown: list[Shown] = []
        #: Bots draw no numbers (their dice come from ``dice``); the protocol asks for a Random.
        self._bot_rng = random.Random(0)
        self._timer: _Timer | None = None
        self._stage: _Stage
        #: The games on disk: None without a state directory that can hold journals.
        self.store: GameStore | None = _game_store(storage)
        self._recording = True
        self._failure_shown: str | None = None
        #: True while the game that was interrupted by a power cut goes on.
        self.resumed = False
        recovery = self.store.open() if self.store is not None else None
        if recovery is not None and not recovery.actions and self.store is not None:
            # Nothing was played yet: the setup (remembered) or the planned game starts afresh.
            self.store.discard()
            recovery = None
        if recovery is not None:
            self._resume(recovery)
        elif setup is not None:
            self._start_game(setup)
        else:
            self._stage = self._new_setup()
        self._schedule()
        self._show_storage_failure()
        self.view: View = self._build_view()
        self._image: Image.Image | None = None
        self._image_view: View | None = None

    # --- the public surface ---------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The engine's game, or None while the setup runs."""
        return None if isinstance(self._stage, _Setup) else self._game

    @property
    def language(self) -> str:
        return self.catalogue.language

    def t(self, key: str, **values: object) -> str:
        """A UI text in the current language."""
        return self.catalogue.t(key, **values)

    def handle(self, event: InputEvent) -> None:
        """Act on one decoded input."""
        self._now = max(self._now, event.at)
        if self.powered_off:
            return
        if self._overlays:
            self._overlay_input(event)
        elif event.kind is InputKind.LONG_PRESS and event.button is Button.STAND:
            self._open_menu()
        elif self._bot_plays():
            if event.kind is InputKind.PRESS:  # someone is impatient: the bot acts at once
                self._fire_timer()
        elif event.kind is InputKind.LONG_PRESS and event.button is Button.FLIP:
            if isinstance(self._stage, _Turn) and not self._stage.shaking:
                self._show_hint()
        else:
            self._stage_input(event)
        self._schedule()
        self._show_storage_failure()
        self._refresh()

    def advance(self, now: float) -> None:
        """Run the timers due by ``now``: the shaking animation and the computer players."""
        self._now = max(self._now, now)
        stage = self._stage
        changed = False
        frame_at = stage.frame_at if isinstance(stage, _Turn) and stage.shaking else None
        if isinstance(stage, _Turn) and frame_at is not None and now >= frame_at:
            steps = int((now - frame_at) / FRAME_S) + 1
            stage.frame += steps
            stage.frame_at = frame_at + steps * FRAME_S
            changed = True
        while not self._overlays and self._timer is not None and self._timer.at <= now:
            self._fire_timer()
            self._schedule()
            changed = True
        if changed:
            self._refresh()

    def next_deadline(self) -> float | None:
        """When :meth:`advance` next has something to do, or None."""
        if self._overlays:
            return None
        stage = self._stage
        deadlines = [] if self._timer is None else [self._timer.at]
        if isinstance(stage, _Turn) and stage.shaking and stage.frame_at is not None:
            deadlines.append(stage.frame_at)
        return min(deadlines, default=None)

    @property
    def next_setup(self) -> GameSetup | None:
        """Players and rules of the next game, once known (the last game's, or a planned one)."""
        return self._plan

    def plan_next_game(self, setup: GameSetup) -> None:
        """Set who plays the next game under which rules (the serial link's ``setup``).

        In the setup menu the game starts at once; after a game it is the next one. Raises
        RuntimeError while a game is running: its players and rules cannot change.
        """
        if self._game_running():
            raise RuntimeError("a game is running")
        self._plan = setup
        if isinstance(self._stage, _Setup):
            self._overlays = []
            self._start_game(setup)
        self._schedule()
        self._refresh()

    def screen(self) -> Image.Image:
        """The current frame: the render of :attr:`view` (cached while the view is unchanged)."""
        if self._image is None or self._image_view != self.view:
            self._image = render(self.view)
            self._image_view = self.view
        return self._image

    # --- setup ----------------------------------------------------------------------------------

    def _list_rules(self) -> list[Rules]:
        options = [load_preset(name) for name in preset_names()]
        configured = self.config.game.rule_set
        if configured.name not in preset_names() or configured != load_preset(configured.name):
            options.insert(0, configured)
        return options

    def _rules_index(self, name: str | None) -> int:
        names = [rules.name for rules in self._rule_options]
        if name in names:
            return names.index(name)
        configured = self.config.game.rule_set.name
        return names.index(configured) if configured in names else 0

    def _new_setup(self) -> _Setup:
        remembered = self._remembered
        if self._plan is not None:
            count = len(self._plan.players)
            rules_index = self._rules_index(self._plan.rules.name)
            deckel = self._plan.rules.deckel
        else:
            count = remembered.players or len(self.config.game.players)
            rules_index = self._rules_index(remembered.rules)
            deckel = remembered.deckel or self._rule_options[rules_index].deckel
        count = min(max(count, MIN_PLAYERS), MAX_PLAYERS)
        deckel = min(max(deckel, DECKEL_RANGE[0]), DECKEL_RANGE[1])
        bots = list(self._seat_bots[:MAX_PLAYERS])
        return _Setup(0, count, rules_index, deckel, bots + [""] * (MAX_PLAYERS - len(bots)))

    def _names(self, count: int) -> tuple[str, ...]:
        names = list(self.config.game.players[:count])
        number = 1
        while len(names) < count:
            candidate = self.t("default_player", number=number)
            if candidate not in names:
                names.append(candidate)
            number += 1
        return tuple(names)

    def _setup_input(self, stage: _Setup, event: InputEvent) -> None:
        if event.kind is not InputKind.PRESS:
            return
        button = event.button
        if button is Button.FLIP:
            stage.step = max(stage.step - 1, 0)
            return
        if button in _OK_BUTTONS:
            if stage.step < SETUP_STEPS - 1:
                stage.step += 1
                stage.seat = 0
            else:
                self._finish_setup(stage)
            return
        delta = -1 if button is Button.KEEP_1 else 1
        if stage.step == 0:
            stage.players = min(max(stage.players + delta, MIN_PLAYERS), MAX_PLAYERS)
        elif stage.step == 1:
            # KEEP_1 walks down the seats, KEEP_2 changes who plays the chosen one.
            if button is Button.KEEP_1:
                stage.seat = (stage.seat + 1) % stage.players
            else:
                roles = ["", *strategy_names()]
                current = stage.bots[stage.seat]
                index = roles.index(current) if current in roles else 0
                stage.bots[stage.seat] = roles[(index + 1) % len(roles)]
        elif stage.step == 2:
            stage.rules = (stage.rules + delta) % len(self._rule_options)
            stage.deckel = min(
                max(self._rule_options[stage.rules].deckel, DECKEL_RANGE[0]), DECKEL_RANGE[1]
            )
        elif stage.step == 3:
            stage.deckel = min(max(stage.deckel + delta, DECKEL_RANGE[0]), DECKEL_RANGE[1])

    def _setup_rules(self, stage: _Setup) -> Rules:
        rules = self._rule_options[stage.rules]
        if stage.deckel != rules.deckel:
            rules = replace(
                rules, deckel=stage.deckel, penalty_deckel=min(rules.penalty_deckel, stage.deckel)
            )
        return rules

    def _finish_setup(self, stage: _Setup) -> None:
        setup = GameSetup(self._names(stage.players), self._setup_rules(stage))
        bots = list(stage.bots[: stage.players])
        while bots and not bots[-1]:
            bots.pop()
        self._seat_bots = tuple(bots)
        self._remembered.players = stage.players
        self._remembered.rules = self._rule_options[stage.rules].name
        self._remembered.deckel = stage.deckel
        self._remembered.bots = self._seat_bots
        self._remember()
        self._start_game(setup)

    def _setup_view(self, stage: _Setup) -> PickerView | SeatsView:
        step = f"{stage.step + 1}/{SETUP_STEPS}"
        keys: SoftKeys = ("-", "+", self.t("key_next"))
        names = self._names(stage.players)
        bots = stage.bots[: stage.players]
        if stage.step == 0:
            shown = (self._marked(name, bool(bot)) for name, bot in zip(names, bots, strict=True))
            return PickerView(
                self.t("setup_players"), step, str(stage.players), " ".join(shown), keys
            )
        if stage.step == 1:
            rows = tuple(
                SeatRow(name, self._role(bot)) for name, bot in zip(names, bots, strict=True)
            )
            seat_keys: SoftKeys = (self.t("key_seat"), self.t("key_change"), self.t("key_next"))
            return SeatsView(self.t("setup_bots"), step, rows, stage.seat, seat_keys)
        rules = self._rule_options[stage.rules]
        if stage.step == 2:
            return PickerView(self.t("setup_rules"), step, rules.name, rules.description, keys)
        if stage.step == 3:
            detail = self.t("setup_deckel_detail", preset=rules.deckel)
            return PickerView(self.t("setup_deckel"), step, str(stage.deckel), detail, keys)
        computers = sum(1 for bot in bots if bot)
        summary = self.t(
            "setup_summary_bots" if computers else "setup_summary",
            players=stage.players,
            bots=computers,
            rules=rules.name,
            deckel=stage.deckel,
        )
        return PickerView(self.t("setup_start"), step, self.t("setup_go"), summary, ("", "", "OK"))

    def _role(self, strategy: str) -> str:
        """Who plays a seat, in words: a person, or the computer with a strategy."""
        if not strategy:
            return self.t("setup_human")
        key = f"strategy_{strategy}"
        return f"{BOT_MARK} " + (self.t(key) if self.catalogue.has(key) else strategy)

    @staticmethod
    def _marked(name: str, bot: bool) -> str:
        return f"{BOT_MARK}{name}" if bot else name

    def _label(self, name: str) -> str:
        """A player's name as shown: with the computer mark if the device plays it."""
        return self._marked(name, name in self._bots)

    # --- a game ---------------------------------------------------------------------------------

    def _start_game(self, setup: GameSetup) -> None:
        self._plan = setup
        self._game = Game(setup)
        self.game_number += 1
        self._queue = []
        self._round_turns = []
        self._shown = []
        self._section, self._round_number = 1, 0
        seats = zip(setup.players, self._seat_bots, strict=False)
        self._bots = {name: make_bot(strategy) for name, strategy in seats if strategy}
        started: dict[str, Any] = {
            "event": "game_started",
            "players": list(setup.players),
            "rules": setup.rules.name,
            "deckel": setup.rules.deckel,
            "game": self.game_number,
        }
        if self._bots:
            started["bots"] = {name: bot.name for name, bot in self._bots.items()}
        self._emit(started)
        self.resumed = False
        if self.store is not None:
            meta = {"language": self.language, "bots": list(self._seat_bots)}
            self.store.begin(setup, meta)
        self._stage = _RollOff()

    def _require_game(self) -> Game:
        if self._game is None:
            raise RuntimeError("no game is running")
        return self._game

    def _emit(self, data: dict[str, Any]) -> None:
        if self._sink is None:
            return
        try:
            self._sink(data)
        except Exception:  # a broken listener (a link, a log) must not stop the game
            logger.exception("the event sink failed on %s", data.get("event"))

    def _apply(self, events: list[Event]) -> None:
        """An action was applied: write it durably first (the screen shows it only after this)."""
        if self.store is not None and self._recording:
            self.store.record(events)
        if not self._recording:
            return  # replaying a journal on resume: the listeners saw these events before
        for event in events:
            self._emit(to_json(event))

    def _stage_input(self, event: InputEvent) -> None:
        stage = self._stage
        if isinstance(stage, _Setup):
            self._setup_input(stage, event)
        elif isinstance(stage, _RollOff):
            self._roll_off_input(stage, event)
        elif isinstance(stage, _HandOver):
            self._hand_over_input(stage, event)
        elif isinstance(stage, _Turn):
            self._turn_input(stage, event)
        elif event.kind is InputKind.PRESS:  # _Reveal, _TurnDone and _Banner: a press goes on
            self._go_on(stage)

    def _go_on(self, stage: _Reveal | _TurnDone | _Banner) -> None:
        """The next page of the reveal, or the stage after this one."""
        if isinstance(stage, _Reveal) and stage.page + 1 < self._reveal_pages(stage):
            stage.page += 1
        elif isinstance(stage, _Banner) and stage.then is not None:
            stage.then()
        else:
            self._continue()

    def _continue(self) -> None:
        """Show the next queued stage, or the hand-over of whoever's turn it is."""
        if self._queue:
            self._stage = self._queue.pop(0)
            return
        game = self._require_game()
        if game.is_over:
            self._stage = self._game_over_banner()
        elif game.phase is Phase.ROLL_OFF:
            self._stage = _RollOff()
        else:
            player = game.current_player
            assert player is not None
            self._stage = _HandOver(player)

    # --- roll-off -------------------------------------------------------------------------------

    def _roll_off_input(self, stage: _RollOff, event: InputEvent) -> None:
        if stage.decided:
            # A press or another shake goes on: people reach for the cup as often as a button.
            if event.kind in (InputKind.PRESS, InputKind.THROW):
                self._continue()
            return
        if event.kind is InputKind.SHAKE_START:
            stage.shaking = True
        elif event.kind is InputKind.THROW or (
            event.kind is InputKind.PRESS and event.button in _OK_BUTTONS
        ):
            self._roll_off(stage)

    def _roll_off(self, stage: _RollOff) -> None:
        game = self._require_game()
        throws = [self._dice.throw(game.rules.dice_count) for _ in game.contenders]
        self._roll_off_with(stage, throws)

    def _roll_off_with(self, stage: _RollOff, throws: Sequence[Sequence[int]]) -> None:
        game = self._require_game()
        contenders = game.contenders
        events = game.roll_off(throws)
        self._apply(events)
        leaders = game.contenders if game.phase is Phase.ROLL_OFF else ()
        opener = game.current_player
        rows = []
        for name, dice in zip(contenders, throws, strict=True):
            lead = name in leaders or name == opener
            rows.append(RollOffRow(self._label(name), sorted_dice(dice), lead))
        stage.rows = tuple(rows)
        stage.shaking = False
        stage.decided = game.phase is not Phase.ROLL_OFF
        self._track(events)
        if stage.decided:
            self._queue = []

    def _roll_off_view(self, stage: _RollOff) -> RollOffView:
        game = self._require_game()
        rows = stage.rows
        if stage.decided:
            message = self.t("rolloff_opens", name=game.current_player)
        elif rows:
            message = self.t("rolloff_tie", names=", ".join(game.contenders))
        else:
            message = self.t("rolloff_shake")
        waiting: tuple[str, ...] = ()
        if not rows:
            waiting = tuple(map(self._label, game.contenders))
        elif stage.shaking:
            rows, waiting = (), tuple(map(self._label, game.contenders))
        title = self.t("rolloff_title")
        return RollOffView(title, rows, waiting, message, stage.shaking)

    # --- hand-over and turn ---------------------------------------------------------------------

    def _hand_over_input(self, stage: _HandOver, event: InputEvent) -> None:
        game = self._require_game()
        if event.kind is InputKind.PRESS:
            self._stage = _Turn([False] * game.rules.dice_count)
        elif event.kind is InputKind.SHAKE_START:
            turn = _Turn([False] * game.rules.dice_count)
            self._stage = turn
            self._start_shaking(turn, event.at)

    def _start_shaking(self, stage: _Turn, at: float) -> None:
        stage.shaking = True
        stage.frame = 0
        stage.frame_at = at + FRAME_S

    def _turn_input(self, stage: _Turn, event: InputEvent) -> None:
        game = self._require_game()
        turn = game.turn
        assert turn is not None
        stage.notice = ""
        kind, button = event.kind, event.button
        if kind is InputKind.SHAKE_START:
            if game.can_roll():
                self._start_shaking(stage, event.at)
            else:
                stage.notice = "notice_stand"
        elif kind is InputKind.THROW:
            if stage.shaking and game.can_roll():
                self._throw(stage)
            stage.shaking = False
        elif kind is InputKind.PRESS and button in _KEEPS:
            self._toggle(stage, _KEEPS[button])
        elif kind is InputKind.PRESS and button is Button.FLIP:
            if game.can_flip():
                self._flip(stage)
            else:
                stage.notice = "notice_no_flip" if turn.throws else "notice_shake_first"
        elif kind is InputKind.PRESS and button is Button.STAND:
            if game.can_stand():
                self._end_turn_by(game.stand, turn, tuple(turn.laid_out))
            else:
                stage.notice = "notice_throw_after_flip" if turn.flipped else "notice_shake_first"

    def _toggle(self, stage: _Turn, index: int) -> None:
        game = self._require_game()
        turn = game.turn
        assert turn is not None
        count = game.rules.dice_count
        if index >= count:
            return
        if turn.throws == 0:
            stage.notice = "notice_shake_first"
            return
        if not game.can_roll():
            stage.notice = "notice_stand"
            return
        if stage.marks[index] and turn.laid_out[index] and not game.rules.take_back:
            stage.notice = "notice_stays_out"
            return
        marks = list(stage.marks)
        marks[index] = not marks[index]
        keep = tuple(i for i, marked in enumerate(marks) if marked)
        if len(keep) == count:
            stage.notice = "notice_all_out"
            return
        if keep not in set(game.legal_keeps()):
            stage.notice = "notice_only_ones" if game.rules.keep_only_ones else "notice_not_allowed"
            return
        stage.marks = marks
        if self.store is not None:
            self.store.note_ui({"marks": marks})

    def _throw(self, stage: _Turn) -> None:
        game = self._require_game()
        before = game.turn
        assert before is not None
        keep = tuple(i for i, marked in enumerate(stage.marks) if marked) if before.throws else ()
        self._roll_with(stage, keep, self._dice.throw(game.dice_to_throw(keep)))

    def _roll_with(self, stage: _Turn, keep: tuple[int, ...], dice: tuple[int, ...]) -> None:
        game = self._require_game()
        before = game.turn
        assert before is not None
        events = game.roll(dice, keep)
        if not any(isinstance(event, TurnOver) for event in events):
            self._apply(events)
            after = game.turn
            assert after is not None
            stage.marks = list(after.laid_out)
            return
        thrown = iter(dice)
        values = [v if i in keep else next(thrown) for i, v in enumerate(before.values)]
        laid_out = tuple(i in keep for i in range(len(values)))
        done = _TurnDone(
            before.player,
            before.throws + 1,
            before.limit,
            tuple(
                DieFace(v, out=i in keep, fixed=before.laid_out[i] and not game.rules.take_back)
                for i, v in enumerate(values)
            ),
            "",
        )
        self._after_turn(events, before, [v for v in values if v is not None], laid_out, done)

    def _flip(self, stage: _Turn) -> None:
        game = self._require_game()
        before = game.turn
        assert before is not None
        self._apply(game.flip())
        after = game.turn
        assert after is not None
        stage.marks = [
            after.laid_out[i] or (stage.marks[i] and before.values[i] != 6)
            for i in range(len(stage.marks))
        ]

    def _end_turn_by(
        self, action: Callable[[], list[Event]], before: TurnState, laid_out: tuple[bool, ...]
    ) -> None:
        events = action()
        values = [v for v in before.values if v is not None]
        self._after_turn(events, before, values, laid_out, None)

    def _after_turn(
        self,
        events: list[Event],
        before: TurnState,
        values: Sequence[int],
        laid_out: tuple[bool, ...],
        done: _TurnDone | None,
    ) -> None:
        """A turn ended: record it, then queue what comes next (hand-over or reveal)."""
        self._apply(events)
        game = self._require_game()
        over = next(event for event in events if isinstance(event, TurnOver))
        hidden = game.rules.hidden_last_throw
        shown = tuple(
            DieFace(v, out=True) if out else DieFace(None if hidden else v)
            for v, out in zip(values, laid_out, strict=True)
        )
        laid = sorted_dice(v for v, out in zip(values, laid_out, strict=True) if out)
        unseen = hidden or isinstance(events[0], Blind)  # a blind turn's dice stay in the cup
        self._shown.append(
            Shown(over.player, over.throws, laid, None, None)
            if unseen
            else Shown(over.player, over.throws, laid, sorted_dice(over.dice), over.hand)
        )
        stages = self._track(events)
        if any(isinstance(event, RoundOver) for event in events):
            self._stage, self._queue = stages[0], stages[1:]
            return
        queue: list[_Stage] = []
        if done is not None and not self._is_bot(before.player):  # a bot's dice stay in the cup
            done.name = over.name
            queue.append(done)
        player = game.current_player
        assert player is not None
        queue.append(_HandOver(player, before.player, shown))
        self._stage, self._queue = queue[0], queue[1:]

    def _track(self, events: Sequence[Event]) -> list[_Stage]:
        """Follow round and section changes; return the stages they call for, in order."""
        stages: list[_Stage] = []
        half: _HalfOverBanner | None = None
        for event in events:
            if isinstance(event, RoundStarted):
                self._round_turns = []
                self._shown = []
                self._section, self._round_number = event.section, event.number
            elif isinstance(event, TurnOver):
                self._round_turns.append(event)
            elif isinstance(event, RoundOver):
                reveal = _Reveal(tuple(self._round_turns), event, self._section, self._round_number)
                stages.append(reveal)
            elif isinstance(event, PenaltyGiven):
                stages.append(_Banner(partial(self._penalty_banner, event)))
                self._round_turns = [t for t in self._round_turns if t.player not in event.out]
                self._shown = [s for s in self._shown if s.player not in event.out]
            elif isinstance(event, HalfOver):
                half = _HalfOverBanner(event)
                stages.append(_Banner(partial(self._half_over_view, half)))
            elif isinstance(event, FinalStarts) and half is not None:
                half.final = event.players
            elif isinstance(event, GameOver):
                stages.append(self._game_over_banner())
        game = self._require_game()
        started = [event for event in events if isinstance(event, RoundStarted)]
        if started and not game.is_over and not isinstance(events[0], RollOff):
            player = game.current_player
            assert player is not None
            stages.append(_HandOver(player))
        return stages

    def _turn_view(self, stage: _Turn) -> TurnView:
        game = self._require_game()
        turn = game.turn
        assert turn is not None
        bot = self._is_bot(turn.player)
        # A bot's dice in the cup stay hidden under a hidden last throw: the table sees only what
        # it lays out, as at a real table.
        covered = bot and game.rules.hidden_last_throw
        faces = []
        for i, value in enumerate(turn.values):
            if turn.throws == 0 or ((stage.shaking or covered) and not stage.marks[i]):
                faces.append(DieFace(None))
            else:
                fixed = turn.laid_out[i] and not game.rules.take_back
                faces.append(DieFace(value, out=stage.marks[i], fixed=fixed))
        if bot:
            status = self.t(stage.activity or "bot_thinks")
            if not stage.activity and not covered and turn.throws:
                values = [v for v in turn.values if v is not None]
                status = game.evaluate(values, turn.hand).name
        elif stage.notice:
            status = self.t(stage.notice)
        elif stage.shaking:
            status = self.t("status_shaking")
        elif turn.throws == 0:
            status = self.t("status_shake")
        elif game.can_flip():
            status = self.t("status_flip")
        elif not game.can_roll():
            status = self.t("status_stand")
        else:
            values = [v for v in turn.values if v is not None]
            status = game.evaluate(values, turn.hand).name
        return TurnView(
            self._label(turn.player),
            self.t("throw_of", n=turn.throws, limit=turn.limit),
            tuple(faces),
            status,
            self.t("pot", n=game.pot),
            self._board(turn.player),
            shaking=stage.shaking,
            frame=stage.frame,
        )

    def _done_view(self, stage: _TurnDone) -> TurnView:
        return TurnView(
            self._label(stage.player),
            self.t("throw_of", n=stage.throws, limit=stage.limit),
            stage.faces,
            stage.name,
            self.t("key_continue"),
            self._board(stage.player),
        )

    def _board(self, current: str | None) -> tuple[Tally, ...]:
        game = self._require_game()
        return tuple(
            Tally(self._label(name), game.holdings[name], name == current, name in game.out)
            for name in game.participants
        )

    def _hand_over_view(self, stage: _HandOver) -> HandOverView:
        game = self._require_game()
        if stage.previous is not None:
            info = self.t("limit", n=game.limit) if game.limit is not None else ""
            note = stage.previous + ":"
        else:
            info = self._section_name(self._section)
            note = self.t("opens_round", n=self._round_number)
        return HandOverView(
            self.t("pass_cup"),
            info,
            self._label(stage.player),
            note,
            stage.shown,
            self.t("bot_hand_over" if self._is_bot(stage.player) else "hint_hand_over"),
            self._board(stage.player),
        )

    # --- computer players and the stages that go on by themselves -------------------------------

    def _is_bot(self, name: str | None) -> bool:
        return name is not None and name in self._bots

    def _bot_plays(self) -> bool:
        """Whether the stage belongs to a computer player (its hand-over or its turn)."""
        stage, game = self._stage, self._game
        if isinstance(stage, _HandOver):
            return self._is_bot(stage.player)
        return isinstance(stage, _Turn) and game is not None and self._is_bot(game.current_player)

    def _only_bots(self) -> bool:
        """Whether everyone still playing this section is a computer player."""
        game = self._game
        return game is not None and all(name in self._bots for name in game.in_play())

    def _schedule(self) -> None:
        """Arm the timer of the current stage, unless it is armed already."""
        if self._timer is not None and self._timer.stage is self._stage:
            return
        self._timer = self._auto_step()

    def _fire_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None and timer.stage is self._stage:
            timer.action()

    def _auto_step(self) -> _Timer | None:
        """The step the current stage takes by itself, and when; None if it waits for a person."""
        stage, game, now = self._stage, self._game, self._now
        if game is None or isinstance(stage, _Setup):
            return None
        if isinstance(stage, _Turn) and self._is_bot(game.current_player):
            if stage.shaking and stage.throw_at is not None:
                return _Timer(stage, stage.throw_at, partial(self._bot_throw, stage))
            return _Timer(stage, now + BOT_STEP_S, partial(self._bot_act, stage))
        if isinstance(stage, _HandOver) and self._is_bot(stage.player):
            return _Timer(stage, now + BOT_PAUSE_S, partial(self._take_cup, stage))
        if isinstance(stage, _RollOff) and not stage.shaking:
            if not stage.decided and all(self._is_bot(name) for name in game.contenders):
                return _Timer(stage, now + BOT_PAUSE_S, partial(self._roll_off, stage))
            if stage.decided and self._only_bots():
                return _Timer(stage, now + BOT_PAUSE_S, self._continue)
            return None
        waits = isinstance(stage, _Reveal | _TurnDone) or (
            isinstance(stage, _Banner) and stage.then is None  # never past the game's end
        )
        if waits and self._only_bots():
            assert isinstance(stage, _Reveal | _TurnDone | _Banner)
            return _Timer(stage, now + BOT_PAUSE_S, partial(self._go_on, stage))
        return None

    def _take_cup(self, stage: _HandOver) -> None:
        self._stage = _Turn([False] * self._require_game().rules.dice_count)

    def _bot_act(self, stage: _Turn) -> None:
        """A computer player's next step: shake what it marked, or decide and show its choice."""
        game = self._require_game()
        turn = game.turn
        assert turn is not None
        if stage.plan is not None:  # the dice it lays out are marked: now the cup
            self._bot_shake(stage)
            return
        bot = self._bots[turn.player]
        move = bot.decide(game, view_of(game, self._shown), self._bot_rng)
        if move.kind is MoveKind.ROLL:
            marks = [i in move.keep for i in range(game.rules.dice_count)]
            stage.plan = move
            if turn.throws and marks != stage.marks:
                stage.marks, stage.activity = marks, "bot_keeps"
            else:
                stage.marks = marks
                self._bot_shake(stage)
        elif move.kind is MoveKind.FLIP:
            self._flip(stage)
            stage.activity = "bot_flipped"
        else:
            end = game.blind if move.kind is MoveKind.BLIND else game.stand
            self._end_turn_by(end, turn, tuple(turn.laid_out))

    def _bot_shake(self, stage: _Turn) -> None:
        self._start_shaking(stage, self._now)
        stage.activity = "bot_throws"
        stage.throw_at = self._now + BOT_SHAKE_S

    def _bot_throw(self, stage: _Turn) -> None:
        stage.plan, stage.activity, stage.throw_at = None, "", None
        self._throw(stage)
        stage.shaking = False

    # --- the hint -------------------------------------------------------------------------------

    def _show_hint(self) -> None:
        """The best action now and its chance (a long press on FLIP), or why there is none."""
        game = self._require_game()
        if not game.rules.hints:
            lines = (self.t("hint_refused_1"), self.t("hint_refused_2"))
            self._overlays.append(_Message("hint_title", lines))
            return
        chance, action, goal = hint_lines(best_hint(game), self.catalogue)
        self._overlays.append(_Message("hint_title", (action, goal), chance))

    # --- reveal and banners ---------------------------------------------------------------------

    def _reveal_pages(self, stage: _Reveal) -> int:
        return max(1, -(-len(stage.turns) // REVEAL_ROWS))

    def _reveal_view(self, stage: _Reveal) -> RevealView:
        result = stage.result
        start = stage.page * REVEAL_ROWS
        rows = tuple(
            RevealRow(
                self._label(turn.player),
                turn.name,
                1 if turn.player == result.winner else -1 if turn.player == result.loser else 0,
                turn.player in result.out,
            )
            for turn in stage.turns[start : start + REVEAL_ROWS]
        )
        pages = self._reveal_pages(stage)
        page_text = (
            f"{stage.page + 1}/{pages}" if pages > 1 else self.t("round_n", n=stage.round_number)
        )
        if result.source == "all":
            outcome = self.t("outcome_all", loser=result.loser)
        elif result.source == "pot":
            outcome = self.t("outcome_pot", loser=result.loser, n=result.deckel)
        else:
            outcome = self.t(
                "outcome_winner", winner=result.winner, loser=result.loser, n=result.deckel
            )
        if result.out:
            outcome += " · " + self.t("outcome_out", names=", ".join(result.out))
        return RevealView(self.t("reveal_title"), page_text, rows, outcome)

    def _section_name(self, section: int) -> str:
        return self.t({1: "section_1", 2: "section_2"}.get(section, "section_final"))

    def _half_over_view(self, half: _HalfOverBanner) -> BannerView:
        event = half.event
        lines = [self.t("loses_section", section=self._section_name(event.section))]
        if half.final:
            lines.append(self.t("final_between", a=half.final[0], b=half.final[1]))
        elif event.section == 1:
            lines.append(self.t("next_section", section=self._section_name(2)))
        return BannerView(
            self._section_name(event.section), event.loser, tuple(lines), ("", "", "OK")
        )

    def _penalty_banner(self, event: PenaltyGiven) -> BannerView:
        return BannerView(
            self.t("penalty_title"),
            event.player,
            (self.t("penalty_given", n=event.deckel),),
            ("", "", "OK"),
        )

    def _game_over_banner(self) -> _Banner:
        def build() -> BannerView:
            game = self._require_game()
            over = game.state()
            blattschuss = len(over.half_losers) == 2 and over.half_losers[0] == over.half_losers[1]
            lines = [self.t("blattschuss" if blattschuss else "loses_game"), self.t("buys_round")]
            return BannerView(
                self.t("game_over_title"),
                over.loser or "",
                tuple(lines),
                ("", "", self.t("key_new_game")),
            )

        return _Banner(build, self._next_game)

    def _next_game(self) -> None:
        if self._plan is None:
            self._stage = self._new_setup()
        else:
            self._start_game(self._plan)

    # --- the menu -------------------------------------------------------------------------------

    def _open_menu(self) -> None:
        entries: list[tuple[str, Callable[[], None]]] = [("menu_continue", self._close_menu)]
        entries.append(("menu_new_game", self._ask_new_game))
        entries.append(("menu_rules", self._choose_rules))
        game = self._game
        in_game = game is not None and not isinstance(self._stage, _Setup)
        if in_game and game is not None and game.phase is Phase.TURN and game.rules.penalty_deckel:
            entries.append(("menu_penalty", self._choose_penalty))
        blind_allowed = isinstance(self._stage, _Turn) and not self._bot_plays()
        if in_game and game is not None and blind_allowed and game.can_blind():
            entries.append(("menu_blind", self._announce_blind))
        if in_game and self.resumed and self._game_running():
            entries.append(("menu_discard", self._ask_new_game))
        if self.store is not None:
            entries.append(("menu_stats", self._show_stats))
        entries.append(("menu_brightness", self._choose_brightness))
        entries.append(("menu_language", self._choose_language))
        if self._shutdown is not None:
            entries.append(("menu_shutdown", self._ask_shutdown))
        self._overlays = [_Menu("menu_title", entries)]

    def _close_menu(self) -> None:
        self._overlays = []

    def _game_running(self) -> bool:
        return (
            self._game is not None
            and not self._game.is_over
            and not isinstance(self._stage, _Setup)
        )

    def _ask_new_game(self) -> None:
        if not self._game_running():
            self._overlays = []
            self._stage = self._new_setup()
            return
        self._overlays.append(
            _Menu("confirm_new_game", [("no", self._back), ("yes_new_game", self._abandon_game)])
        )

    def _abandon_game(self) -> None:
        self._overlays = []
        self._emit({"event": "game_abandoned", "game": self.game_number})
        if self.store is not None:
            self.store.discard()
        self.resumed = False
        self._game = None
        self._stage = self._new_setup()

    def _back(self) -> None:
        self._overlays.pop()

    def _choose_rules(self) -> None:
        if self._game_running():
            self._overlays.append(
                _Message(
                    "menu_rules", (self.t("rules_between_games_1"), self.t("rules_between_games_2"))
                )
            )
            return
        stage = self._stage
        current = (
            stage.rules
            if isinstance(stage, _Setup)
            else self._rules_index(self._plan.rules.name if self._plan else None)
        )

        def choose(index: int) -> None:
            self._overlays = []
            rules = self._rule_options[index]
            if isinstance(self._stage, _Setup):
                self._stage.rules = index
                self._stage.deckel = min(max(rules.deckel, DECKEL_RANGE[0]), DECKEL_RANGE[1])
            elif self._plan is not None:
                self._plan = GameSetup(self._plan.players, rules)
            self._remembered.rules = rules.name
            self._remembered.deckel = rules.deckel
            self._remember()

        self._overlays.append(
            _Picker(
                "menu_rules",
                len(self._rule_options),
                current,
                lambda i: self._rule_options[i].name,
                lambda i: self._rule_options[i].description,
                choose,
            )
        )

    def _choose_penalty(self) -> None:
        game = self._require_game()
        players = game.in_play()

        def give(index: int) -> None:
            self._overlays = []
            resume, resume_player = self._stage, game.current_player
            events = game.penalty(players[index])
            self._apply(events)
            stages = self._track(events)
            if not any(isinstance(event, (HalfOver, RoundOver)) for event in events):
                if game.current_player == resume_player:
                    stages.append(resume)
                else:
                    # The penalty left the player at the cup without Deckel: the next one throws.
                    assert game.current_player is not None
                    stages.append(_HandOver(game.current_player))
            self._stage, self._queue = stages[0], stages[1:] + self._queue

        self._overlays.append(
            _Picker(
                "menu_penalty",
                len(players),
                0,
                lambda i: players[i],
                lambda i: self.t("penalty_detail", n=game.rules.penalty_deckel),
                give,
            )
        )

    def _announce_blind(self) -> None:
        self._overlays = []
        game = self._require_game()
        turn = game.turn
        assert turn is not None
        self._end_turn_by(game.blind, turn, tuple(turn.laid_out))

    def _choose_brightness(self) -> None:
        levels = BRIGHTNESS_LEVELS
        current = min(range(len(levels)), key=lambda i: abs(levels[i] - self.contrast))
        before = self.contrast

        def preview(index: int) -> None:
            self.contrast = levels[index]

        def choose(index: int) -> None:
            self._overlays = []
            self.contrast = levels[index]
            self._remembered.brightness = self.contrast
            self._remember()

        self._brightness_before = before
        self._overlays.append(
            _Picker(
                "menu_brightness",
                len(levels),
                current,
                lambda i: str(i + 1),
                lambda i: self.t("brightness_detail", n=i + 1, of=len(levels)),
                choose,
                preview,
            )
        )

    def _choose_language(self) -> None:
        names = {"de": "Deutsch", "en": "English"}

        def choose(index: int) -> None:
            self._overlays = []
            self.catalogue = Catalogue(LANGUAGES[index])
            self._remembered.language = self.catalogue.language
            self._remember()

        self._overlays.append(
            _Picker(
                "menu_language",
                len(LANGUAGES),
                LANGUAGES.index(self.catalogue.language),
                lambda i: names[LANGUAGES[i]],
                lambda i: Catalogue(LANGUAGES[i]).t("language_detail"),
                choose,
            )
        )

    def _ask_shutdown(self) -> None:
        self._overlays.append(
            _Menu("confirm_shutdown", [("no", self._back), ("yes_shutdown", self._power_off)])
        )

    def _power_off(self) -> None:
        self._overlays = []
        self._stage = _Banner(
            lambda: BannerView(
                self.t("goodbye_title"), self.t("goodbye"), (self.t("goodbye_hint"),)
            )
        )
        self.powered_off = True
        self._refresh()
        if self._shutdown is not None:
            try:
                self._shutdown()
            except Exception:  # the hook runs a system command; report, keep the screen
                logger.exception("shutting down failed")

    def _overlay_input(self, event: InputEvent) -> None:
        overlay = self._overlays[-1]
        if event.kind is not InputKind.PRESS:
            return
        button = event.button
        if button is Button.FLIP:
            if isinstance(overlay, _Picker) and overlay.on_change is not None:
                self.contrast = self._brightness_before
            self._overlays.pop()
            return
        if isinstance(overlay, _Message):
            self._overlays.pop()
            return
        if isinstance(overlay, _Menu):
            if button is Button.KEEP_1:
                overlay.selected = (overlay.selected - 1) % len(overlay.entries)
            elif button is Button.KEEP_2:
                overlay.selected = (overlay.selected + 1) % len(overlay.entries)
            else:
                overlay.entries[overlay.selected][1]()
            return
        if button in _OK_BUTTONS:
            overlay.on_ok(overlay.index)
            return
        step = -1 if button is Button.KEEP_1 else 1
        overlay.index = (overlay.index + step) % overlay.count
        if overlay.on_change is not None:
            overlay.on_change(overlay.index)

    def _overlay_view(self, overlay: _Overlay) -> View:
        if isinstance(overlay, _Menu):
            items = tuple(self.t(key) for key, _ in overlay.entries)
            return MenuView(self.t(overlay.title), items, overlay.selected, ("▲", "▼", "OK"))
        if isinstance(overlay, _Message):
            return BannerView(
                self.t(overlay.title), overlay.headline, overlay.lines, ("", "", "OK")
            )
        step = f"{overlay.index + 1}/{overlay.count}"
        return PickerView(
            self.t(overlay.title),
            step,
            overlay.label(overlay.index),
            overlay.detail(overlay.index),
            ("◀", "▶", "OK"),
        )

    # --- views ----------------------------------------------------------------------------------

    def _build_view(self) -> View:
        if self._overlays:
            return self._overlay_view(self._overlays[-1])
        stage = self._stage
        if isinstance(stage, _Setup):
            return self._setup_view(stage)
        if isinstance(stage, _RollOff):
            return self._roll_off_view(stage)
        if isinstance(stage, _HandOver):
            return self._hand_over_view(stage)
        if isinstance(stage, _Turn):
            return self._turn_view(stage)
        if isinstance(stage, _TurnDone):
            return self._done_view(stage)
        if isinstance(stage, _Reveal):
            return self._reveal_view(stage)
        return stage.build()

    def _refresh(self) -> None:
        self.view = self._build_view()

    # --- durable games: resume, statistics, storage failures ------------------------------------

    def _resume(self, recovery: Recovery) -> None:
        """Continue the game a power cut interrupted, on the screen its last action led to.

        Every action but the last is replayed into the game (tracking rounds and sections); the
        last one goes through the same code as when it was played, so the stage (hand-over,
        reveal, banners) is the one the players saw. UI state after the last action that is not
        an action (which dice were marked to lay out) comes from the journal's UI note.
        """
        assert self.store is not None
        self._plan = recovery.setup
        self._game = game = Game(recovery.setup)
        self.game_number += 1
        self._queue, self._round_turns = [], []
        self._section, self._round_number = 1, 0
        self._shown = []
        seat_bots = recovery.meta.get("bots")
        if isinstance(seat_bots, list) and all(isinstance(b, str) for b in seat_bots):
            self._seat_bots = tuple(seat_bots)
        seats = zip(recovery.setup.players, self._seat_bots, strict=False)
        self._bots = {name: make_bot(strategy) for name, strategy in seats if strategy}
        self._stage = _RollOff()
        self._recording = False
        try:
            for action in recovery.actions[:-1]:
                self._track(game.apply(action))
            if recovery.actions:
                self._replay_last(recovery.actions[-1])
        finally:
            self._recording = True
        # The language the game started in, unless the menu has chosen one since (remembered).
        language = recovery.meta.get("language")
        if self._remembered.language is None and language in LANGUAGES:
            self.catalogue = Catalogue(str(language))
        marks = (recovery.ui or {}).get("marks")
        stage = self._stage
        if isinstance(stage, _Turn) and isinstance(marks, list) and len(marks) == len(stage.marks):
            keep = tuple(i for i, marked in enumerate(marks) if marked is True)
            if keep in set(game.legal_keeps()):
                stage.marks = [marked is True for marked in marks]
        self.store.resume(recovery)
        self.resumed = True
        self._emit({"event": "game_resumed", "game": self.game_number,
                    "actions": len(recovery.actions)})

    def _replay_last(self, action: Event) -> None:
        game = self._require_game()
        turn = game.turn
        if isinstance(action, RollOff):
            stage = _RollOff()
            self._stage = stage
            self._roll_off_with(stage, action.dice)
        elif isinstance(action, Roll):
            assert turn is not None
            stage_marks = [i in action.keep for i in range(game.rules.dice_count)]
            turn_stage = _Turn(stage_marks)
            self._stage = turn_stage
            self._roll_with(turn_stage, action.keep, action.dice)
        elif isinstance(action, Flip):
            assert turn is not None
            turn_stage = _Turn(list(turn.laid_out))
            self._stage = turn_stage
            self._flip(turn_stage)
        elif isinstance(action, Stand | Blind):
            assert turn is not None
            step = game.stand if isinstance(action, Stand) else game.blind
            self._end_turn_by(step, turn, tuple(turn.laid_out))
        elif isinstance(action, Penalty):
            events = game.apply(action)
            stages = self._track(events)
            after = game.turn
            if after is not None and not any(isinstance(e, HalfOver) for e in events):
                stages.append(_Turn(list(after.laid_out)) if after.throws else
                              _HandOver(after.player))
            self._stage, self._queue = stages[0], stages[1:]

    def _show_stats(self) -> None:
        assert self.store is not None
        table = self.store.stats()
        names = sorted(table, key=lambda name: (-table[name].games, name))
        if not names:
            self._overlays.append(_Message("menu_stats", (self.t("stats_none"),)))
            return

        def detail(index: int) -> str:
            figures: PlayerStats = table[names[index]]
            return self.t("stats_detail", **{key: getattr(figures, key) for key in (
                "games", "lost", "halves_lost", "blattschuss", "schocks", "schock_aus")})

        self._overlays.append(
            _Picker("menu_stats", len(names), 0, lambda i: names[i], detail,
                    lambda i: self._back())
        )

    def _show_storage_failure(self) -> None:
        """Say once on the screen that the game is no longer saved (the log says why)."""
        failure = self.store.failure if self.store is not None else None
        if failure is None or failure == self._failure_shown:
            return
        self._failure_shown = failure
        self._overlays.append(
            _Message("storage_failed_title",
                     (self.t("storage_failed_1"), self.t("storage_failed_2")))
        )

    # --- remembering the setup ------------------------------------------------------------------

    def _recall(self) -> _Remembered:
        if self._storage is None:
            return _Remembered()
        try:
            text = self._storage.read_text(SETUP_FILE)
        except OSError as error:
            logger.warning("cannot read the last setup: %s", error)
            return _Remembered()
        if text is None:
            return _Remembered()
        try:
            data = json.loads(text)
        except ValueError:
            logger.warning("%s is not valid JSON; starting from the configuration", SETUP_FILE)
            return _Remembered()
        if not isinstance(data, dict):
            return _Remembered()
        remembered = _Remembered(extra=data)
        players, deckel, brightness = (
            data.get("players"),
            data.get("deckel"),
            data.get("brightness"),
        )
        if isinstance(players, int) and MIN_PLAYERS <= players <= MAX_PLAYERS:
            remembered.players = players
        if isinstance(data.get("rules"), str):
            remembered.rules = data["rules"]
        if isinstance(deckel, int) and DECKEL_RANGE[0] <= deckel <= DECKEL_RANGE[1]:
            remembered.deckel = deckel
        if data.get("language") in LANGUAGES:
            remembered.language = data["language"]
        if isinstance(brightness, int) and 0 <= brightness <= 255:
            remembered.brightness = brightness
        bots = data.get("bots")
        known = ("", *strategy_names())
        if isinstance(bots, list) and len(bots) <= MAX_PLAYERS and all(b in known for b in bots):
            remembered.bots = tuple(bots)
        return remembered

    def _remember(self) -> None:
        if self._storage is None:
            return
        remembered = self._remembered
        data = dict(remembered.extra)
        for key in ("players", "rules", "deckel", "language", "brightness"):
            value = getattr(remembered, key)
            if value is not None:
                data[key] = value
        if remembered.bots is not None:
            data["bots"] = list(remembered.bots)
        try:
            self._storage.write_atomic(
                SETUP_FILE, json.dumps(data, indent=1, sort_keys=True) + "\n"
            )
        except OSError as error:
            logger.warning("cannot remember the setup: %s", error)


def _game_store(storage: Storage | None) -> GameStore | None:
    """The game store on ``storage``; without a storage the games are kept in memory only."""
    return None if storage is None else GameStore(storage)


@dataclass
class _HalfOverBanner:
    event: HalfOver
    final: tuple[str, ...] = ()
