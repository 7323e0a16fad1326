"""The device app's shell: routes inputs and timers to the current stage or the top overlay.

:class:`DeviceApp` is event-driven and single-threaded. It owns no hardware and no thread: the main
loop (:mod:`firmware.loop`) feeds it decoded inputs with :meth:`DeviceApp.handle`, runs its timers
with :meth:`DeviceApp.advance` (the shaking animation, computer players, screens that go on by
themselves), and shows :meth:`DeviceApp.screen`. Everything the players see is a frozen view
(:mod:`firmware.screen.views`) that the current stage or overlay builds, so a test can check what
is on screen without pixels. Where a screen lives and what a button does on it: :mod:`firmware.app`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PIL import Image

from engine.events import Correct, Report, RollOff
from engine.game import Game, GameSetup, Scharf
from firmware.app.flow import stage_for
from firmware.app.session.moments import Moment
from firmware.app.session.resume import opening
from firmware.app.session.session import Session
from firmware.app.stages.base import (
    Close,
    CloseAll,
    Continue,
    Goto,
    Overlay,
    PowerOff,
    Push,
    Stage,
    Transition,
)
from firmware.app.stages.menu import MainMenu
from firmware.app.stages.notices import Notices
from firmware.app.stages.overlays import Message
from firmware.app.stages.resume_question import ResumeQuestion
from firmware.app.stages.standings import scharf_banner
from firmware.config import DeviceConfig
from firmware.dice import DiceSource
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import render
from firmware.screen.views import TableCup, View
from firmware.sink import EventSink
from firmware.store.gamestore import GameStore
from firmware.store.stores import Stores, open_stores
from firmware.work import Work
from hal.ports import Button, Clock, InputEvent, InputKind

if TYPE_CHECKING:
    from firmware.link.pairing import Pairing
    from firmware.tournament.reporter import Reporter

__all__ = ["DeviceApp"]

logger = logging.getLogger(__name__)


class DeviceApp:
    """The Schockbesteck's logic: no threads, no hardware; time comes from events and ``advance``.

    ``setup`` starts a game at once (skipping the setup menu), with the computer players of
    ``config.game.bots``; ``stores`` (:func:`firmware.store.stores.open_stores`) remember the
    last setup, language, brightness and names, and keep the games' journals (without them
    nothing is kept); ``event_sink`` receives every event, the engine's and the device's own
    (:mod:`firmware.sink`), as it happens;
    ``shutdown`` is called by the menu's "shut down" (the menu offers it only if given);
    ``work`` computes odds tables and computer players' decisions (:mod:`firmware.work`; by
    default at once, on the caller's thread). A worker that answers later hands each answer to the
    loop and then calls :meth:`work_done`.
    ``ask_to_resume`` puts "Weiterspielen?" over an unfinished game found in ``stores`` (the
    simulator); without it the game simply goes on (the device after a pulled plug).
    """

    def __init__(
        self,
        config: DeviceConfig,
        *,
        clock: Clock,
        dice: DiceSource,
        stores: Stores | None = None,
        setup: GameSetup | None = None,
        event_sink: EventSink | None = None,
        shutdown: Callable[[], None] | None = None,
        pairing: Pairing | None = None,
        work: Work | None = None,
        ask_to_resume: bool = False,
    ) -> None:
        self.config = config
        self._clock = clock
        if stores is None:
            stores = open_stores(None)
        stores.roster.learn((*config.game.players, *config.game.names))
        self._store = stores.games
        self._session = session = Session(
            config, clock=clock, dice=dice, stores=stores, plan=setup, event_sink=event_sink,
            shutdown=shutdown, pairing=pairing, work=work,
        )
        self._queue: list[Stage] = []
        self._overlays: list[Overlay] = []
        #: The messages the shell put up for the table itself (the time box's banner, a storage
        #: failure), which an entry from outside leaves up (:meth:`enter_result`).
        self._announced: list[Overlay] = []
        #: The stage whose timer is armed, and when it fires.
        self._timer: tuple[Stage, float] | None = None
        self._notices = Notices(session)
        self.powered_off = False
        begun = opening(session, setup)
        self._stage, *self._queue = self._stages(begun.moments)
        if begun.resumed and ask_to_resume:
            self._overlays.append(ResumeQuestion(session, setup, begun.asked_bots, begun.whose))
        self._schedule()
        self._overlays.extend(self._notices.damaged_state())  # damaged state, set aside
        self._show_notices()
        self.view: View = self._build_view()
        self._screen = _Rendering()
        self._table_screen = _Rendering()

    # --- what the loop, the link and the tests read ---------------------------------------------

    @property
    def game(self) -> Game | None:
        """The engine's game, or None while the setup runs."""
        table = self._session.table
        return table.game if table is not None and self._stage.in_game else None

    @property
    def at_game_end(self) -> bool:
        """True while the screen shows the end of a finished game, waiting for the next."""
        return self._stage.ends_game

    @property
    def thinking(self) -> bool:
        """True while a question to the odds worker (a decision, a hint) waits for its answer."""
        return self._session.asking > 0

    @property
    def catalogue(self) -> OledWords:
        return self._session.catalogue

    @property
    def language(self) -> str:
        return self._session.catalogue.language

    @property
    def contrast(self) -> int:
        """The panel contrast the menu has set (0-255)."""
        return self._session.contrast

    @property
    def store(self) -> GameStore | None:
        """The games on disk: None without a state directory (the link's statistics and
        Spieltag page read them; only the session writes a game's journal)."""
        return self._store

    @property
    def resumed(self) -> bool:
        """True while the game that was interrupted by a power cut goes on."""
        return self._session.resumed

    @property
    def game_number(self) -> int:
        return self._session.game_number

    @property
    def next_setup(self) -> GameSetup | None:
        """Players and rules of the next game, once known (the last game's, or a planned one)."""
        return self._session.plan

    def t(self, key: str, **values: object) -> str:
        """A UI text in the current language."""
        return self._session.t(key, **values)

    def screen(self) -> Image.Image:
        """The current frame: the render of :attr:`view` (cached while the view is unchanged).

        While the link's referee mode is on, every frame says so in its corner.
        """
        referee = self.config.link.referee and bool(self.config.link.url)
        return self._screen.of(self.view, mark=self.t("referee_mark") if referee else "")

    @property
    def scharf(self) -> bool:
        """Whether the game in play goes on scharf (the Spieltag's time box ran out)."""
        table = self._session.table
        return table is not None and not table.game.is_over and table.game.scharf is not Scharf.OFF

    def table_screen(self) -> Image.Image:
        """The current frame as anyone at the table may see it: no die under the cup, no hint,
        no pairing PIN (what the link mirrors to a host that is not paired)."""
        return self._table_screen.of(self.table_view)

    @property
    def table_view(self) -> View:
        """What anyone at the table may see of the current screen (the view of
        :meth:`table_screen`)."""
        # A private overlay (the pairing PIN) hides the overlays under it too: the menu with
        # Koppeln chosen would tell a watcher that a PIN is up.
        for overlay in reversed(self._overlays):
            if overlay.private:
                break
            return overlay.view(self._session.catalogue)
        return self._stage.table_view()

    def table_cup(self) -> TableCup | None:
        """The cup of the turn under way as the table sees it on the screen now, or None off a
        turn's screen (what the page's bar follows between the rules' events)."""
        return self._stage.table_cup()

    # --- what changes it ------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """Act on one decoded input: the top overlay takes it, else the current stage."""
        self._session.note_time(event.at)
        if self.powered_off:
            return
        self._time_box(event.at)
        if self._overlays:
            self._go(self._overlays[-1].on_input(event))
        elif event.kind is InputKind.LONG_PRESS and event.button is Button.STAND:
            self._go(Push(MainMenu(self._session, self._stage).open()))
        elif self._stage.bot_plays:
            if event.kind is InputKind.PRESS:  # someone is impatient: the bot acts at once
                self._fire_timer()
        else:
            self._go(self._stage.on_input(event))
        self._schedule()
        self._show_notices()
        self._refresh()

    def advance(self, now: float) -> None:
        """Run the timers due by ``now``: the shaking animation and the stages' own steps."""
        self._session.note_time(now)
        changed = self._time_box(now)
        changed = self._stage.advance_frames(now) or changed
        while not self._overlays and self._timer is not None and self._timer[1] <= now:
            self._fire_timer()
            self._schedule()
            changed = True
        if changed:
            self._refresh()

    def next_deadline(self) -> float | None:
        """When :meth:`advance` next has something to do, or None: the Spieltag's time box,
        and (never while a menu is open) the stage's timer and frames."""
        session = self._session
        at = session.time_box_deadline()
        scharf = [] if at is None or self.powered_off else [at]
        if self._overlays:
            return min(scharf, default=None)
        deadlines = scharf + ([] if self._timer is None else [self._timer[1]])
        frame = self._stage.frame_deadline()
        if frame is not None:
            deadlines.append(frame)
        return min(deadlines, default=None)

    def _time_box(self, now: float) -> bool:
        """The Spieltag's time box ran out by ``now``: the game in play goes on scharf, and a
        banner says so until a press (the turn screen's corner then says "scharf" in place of
        the pot, the reveal names the loser); not while only computer players are in, whom a
        banner would hold up with nobody to press. True if it went scharf."""
        session = self._session
        if not session.go_scharf_due(now):
            return False
        session.go_scharf()
        if not session.require_table().only_bots():
            self._announce(scharf_banner(session))
        self._refresh()
        return True

    def work_done(self) -> None:
        """The odds worker's answer was handed over: re-arm the stage's timer (a computer player
        acts on it), and show what changed (a hint)."""
        self._session.note_time(self._clock.now())
        self._schedule()
        self._refresh()

    @property
    def time_box_ends_at(self) -> float | None:
        """When the assigned round's time box ends (unix seconds); None: no time box."""
        return self._session.time_box_ends_at

    def join_tournament(self, reporter: Reporter) -> None:
        """Be a table of the tournament ``reporter`` reports to: the menu offers its card, a
        game of the assigned players is the round's, and the screen follows the reports."""
        self._session.join_tournament(reporter)
        reporter.on_change = self._refresh

    def plan_next_game(self, setup: GameSetup) -> None:
        """Set who plays the next game under which rules (the serial link's ``setup``).

        In the setup menu the game starts at once; after a game it is the next one. Raises
        RuntimeError while a game is running: its players and rules cannot change.
        """
        self._refuse_while_playing()
        self._session.plan_next_game(setup)
        if not self._stage.in_game:
            self._go(Goto((self._session.start_game(setup),)))
        self._schedule()
        self._refresh()

    def abandon_game(self) -> None:
        """Give up the game under way, as the menu's confirmed "Neues Spiel" does (the link's
        ``abandon``): it counts for nobody, and the setup comes next. Raises RuntimeError when no
        game is running (the setup, or a game that is over)."""
        table = self._session.table
        if table is None or table.game.is_over or not self._stage.in_game:
            raise RuntimeError("no game is running")
        self._go(Goto((self._session.abandon_game(),)))
        self._schedule()
        self._refresh()

    def enter_result(self, action: Report | Correct | RollOff) -> None:
        """A result thrown with real dice and entered from outside (a paired page's or the
        link's ``report``, ``correct``, ``rolloff``): recorded as the device's own entry would
        be, and the device's screen follows: the entry under way there (or the reveal, a banner
        still on screen) gives way to what the game calls for now, the next entry or the reveal.
        A message for the table (the time box's "Scharf!", a storage failure) stays up until a
        press at the device, as it would over the device's own entry.
        Raises RuntimeError when no game is running, IllegalActionError when the engine refuses."""
        table = self._session.table
        if table is None or table.game.is_over or not self._stage.in_game:
            raise RuntimeError("no game is running")
        kept = [overlay for overlay in self._overlays if overlay in self._announced]
        self._go(Goto(tuple(table.enter(action))))
        self._overlays.extend(kept)
        self._announced = kept
        self._schedule()
        self._refresh()

    @property
    def real_dice(self) -> bool:
        """Whether the next game is played with real dice at the table (the menu's switch)."""
        return self._session.real_dice

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """Per seat of the next game: a computer player's strategy, or "" for a person."""
        return self._session.seat_bots

    def plan_bots(self, bots: tuple[str, ...]) -> None:
        """Set the computer players per seat of the next game (the link's ``setup``, with its
        ``bots``); like :meth:`plan_next_game`, refused while a game is running."""
        self._refuse_while_playing()
        self._session.plan_bots(bots)

    def _refuse_while_playing(self) -> None:
        """RuntimeError while a game is running: its players and rules cannot change."""
        table = self._session.table
        if table is not None and not table.game.is_over and self._stage.in_game:
            raise RuntimeError("a game is running")

    # --- routing --------------------------------------------------------------------------------

    def _go(self, transition: Transition | None) -> None:
        """Carry out what a stage or an overlay asked for."""
        match transition:
            case None:
                return
            case Goto(steps, keep_queue):
                self._overlays = []
                queue = self._queue if keep_queue else []
                first, *then = self._stages(steps)
                self._stage, self._queue = first, [*then, *queue]
            case Continue():
                self._overlays = []
                if self._queue:
                    self._stage = self._queue.pop(0)
                else:
                    moment = self._session.require_table().next_moment()
                    self._stage = stage_for(moment, self._session)
            case Push(overlay):
                self._overlays.append(overlay)
            case Close():
                self._overlays.pop()
            case CloseAll():
                self._overlays = []
            case PowerOff(stage):
                self._power_off(stage)

    def _stages(self, steps: Sequence[Stage | Moment]) -> list[Stage]:
        """The stages of ``steps``: a stage as it is, a moment as the router makes it."""
        session = self._session
        return [stage_for(step, session) if isinstance(step, Moment) else step for step in steps]

    def _power_off(self, goodbye: Stage) -> None:
        self._overlays = []
        self._stage, self._queue = goodbye, []
        self.powered_off = True
        self._refresh()
        shutdown = self._session.shutdown
        if shutdown is not None:
            try:
                shutdown()
            except Exception:  # the hook runs a system command; report, keep the screen
                logger.exception("shutting down failed")

    def _schedule(self) -> None:
        """Arm the current stage's timer, unless it is armed already."""
        if self._timer is not None and self._timer[0] is self._stage:
            return
        at = self._stage.auto_at(self._session.now)
        self._timer = None if at is None else (self._stage, at)

    def _fire_timer(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None and timer[0] is self._stage:
            self._go(self._stage.auto_step())

    def _show_notices(self) -> None:
        """Say once on the screen what is wrong with the storage (:class:`Notices`)."""
        for notice in self._notices.due():
            self._announce(notice)

    def _announce(self, message: Message) -> None:
        """Put up a message for the table until a press at the device."""
        self._overlays.append(message)
        self._announced = [*(o for o in self._announced if o in self._overlays), message]

    def _build_view(self) -> View:
        if self._overlays:
            return self._overlays[-1].view(self._session.catalogue)
        return self._stage.view()

    def _refresh(self) -> None:
        self.view = self._build_view()


class _Rendering:
    """The last image rendered, kept while its view and mark are the same (the loop compares
    images by identity, so an unchanged screen is the very same image)."""

    def __init__(self) -> None:
        self._key: tuple[View, str] | None = None
        self._image: Image.Image | None = None

    def of(self, view: View, mark: str = "") -> Image.Image:
        if self._image is None or self._key != (view, mark):
            self._image = render(view, mark=mark)
            self._key = (view, mark)
        return self._image
