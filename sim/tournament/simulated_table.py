"""Simulated tables of a tournament: the device's real reporting code without its screen.

A :class:`SimulatedTable` is one table's device, headless: its own state directory (the game
store's journals, the reporter's outbox), its own MQTT client (:class:`hal.mqtt.MqttLink`, user
``table-N``), computer players (:mod:`engine.bots`) at every seat, on a simulated clock that many
tables share in one process. Each action of a game goes to the journal first (the real
:class:`~firmware.store.gamestore.GameStore`) and then to the reporter (the real
:class:`~firmware.tournament.reporter.Reporter`), exactly as on a device::

    clock = FakeClock(start=time.time())
    table = SimulatedTable(7, TableSettings(broker.url, "dm2026", password), folder, clock)
    table.start()
    table.play_round(assignment)        # the hub's assignment for table-7, or the one it got
    table.stop()
    recount_from_journal(folder)        # every result the table's journals hold

Nothing here sleeps: time moves by ``action_s`` per action, and the caller moves it between
rounds (give each table its own clock to play the tables of a round side by side; one shared
clock moves on with every table's every action). Resends go by ``network_clock`` (real time
unless given): a simulated round is over long before an Ack could come back. Messages from
the broker are handled in :meth:`SimulatedTable.step`, which every action calls (and a caller
waiting for acks calls itself).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from engine.bots import StrategyBot, apply_move, make_bot, view_of
from engine.events import Event
from engine.game import Game, GameSetup, Phase
from engine.rules import load_preset
from firmware.app.session.table import Table
from firmware.store.gamestore import GameStore
from firmware.store.journal import JournalHeader
from firmware.tournament.recount import recount_journals
from firmware.tournament.reporter import Reporter, TableIdentity, last_will
from firmware.wire.messages import Assignment, Result
from hal.clock import MonotonicClock
from hal.mqtt import MqttLink, MqttSettings, Will
from hal.ports import Clock
from hal.storage import StateDirectory
from sim.fakes import FakeClock

__all__ = ["MAX_GAMES", "DeviceDied", "SimulatedTable", "TableSettings", "recount_from_journal"]

#: The most games a table plays in one round when the round has no time box.
MAX_GAMES = 10


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What every simulated table of one tournament shares (the password is the table's)."""

    broker: str
    event: str
    password: str
    #: The computer players' strategy (engine.bots): "threshold" is quick.
    strategy: str = "threshold"
    rules: str = "standard"
    #: Simulated seconds an action takes at the table.
    action_s: float = 6.0
    resend_s: float = 30.0
    #: The MQTT keepalive (the device's): the broker takes a silent table for gone after 1.5
    #: times this and publishes its Last Will.
    keepalive_s: int = 15


class DeviceDied(Exception):
    """A simulated table's device died in the middle of a game (:attr:`SimulatedTable.dies_after`
    actions were played): nothing after the last journal write happened."""


class SimulatedTable:
    """One table's device without a screen; see the module's docstring."""

    def __init__(
        self, number: int, settings: TableSettings, state_dir: str | Path, clock: FakeClock,
        *, seed: int | None = None, network_clock: Clock | None = None,
    ) -> None:
        self.number = number
        self.settings = settings
        self.clock = clock
        self.identity = TableIdentity(settings.event, number)
        self.storage = StateDirectory(state_dir)
        self.storage.lock()
        self.store = GameStore(self.storage)
        #: The game a pulled plug interrupted, if the state directory holds one.
        self.interrupted = self.store.open()
        # The game runs on the simulated clock (the status's time, the round's time box); the
        # resends on the network's own time, which a simulated round outruns by far.
        self.network_clock: Clock = network_clock if network_clock is not None else (
            MonotonicClock()
        )
        self.reporter = Reporter(
            self.identity, self.storage, clock=self.network_clock, wall=clock.now,
            resend_s=settings.resend_s,
        )
        topic, payload = last_will(self.identity)
        user = self.identity.user
        self.link = MqttLink(
            MqttSettings(settings.broker, client_id=f"{settings.event}-{user}", username=user,
                         password=settings.password, keepalive_s=settings.keepalive_s,
                         will=Will(topic, payload)),
            on_message=self.reporter.on_message,
            on_connect_change=self.reporter.on_connect_change,
        )
        self.reporter.attach(self.link)
        self.rng = random.Random(number if seed is None else seed)
        self.rules = load_preset(settings.rules)
        self._bot: StrategyBot = make_bot(settings.strategy)
        #: The device dies (:class:`DeviceDied`) at the first action after this many that
        #: leaves a game unfinished (:meth:`die_after`); None: it lives.
        self.dies_after: int | None = None
        self._actions = 0

    # -- the network -----------------------------------------------------------------------

    def start(self) -> None:
        """Connect to the broker (in the background; the link reconnects by itself)."""
        self.link.start()

    def stop(self) -> None:
        """Leave the broker cleanly (the network goes; the outbox stays)."""
        self.link.stop()
        self.reporter.pump()

    def die_after(self, actions: int) -> None:
        """Let the device die in the middle of a game, ``actions`` actions from now."""
        self.dies_after, self._actions = actions, 0

    def close(self) -> None:
        """Stop and let go of the state directory (a table switched off)."""
        self.stop()
        self.storage.unlock()

    def step(self) -> None:
        """Handle what the broker sent, and resend what waited ``resend_s`` for its Ack (on
        :attr:`network_clock`)."""
        self.reporter.pump()
        self.reporter.advance(self.network_clock.now())

    @property
    def pending(self) -> int:
        """Results not acknowledged by the hub yet."""
        return len(self.reporter.waiting())

    # -- playing -----------------------------------------------------------------------------

    def play_round(self, assignment: Assignment | None = None, games: int | None = None) -> int:
        """Play the round ``assignment`` gives (the one the hub sent, if None): ``games`` games,
        or as many as start before the round's time box ends (at least one, at most
        :data:`MAX_GAMES`). A game a pulled plug interrupted is finished first. The number of
        games finished."""
        self.step()
        if assignment is not None:
            self.reporter.assignment = assignment
        assigned = self.reporter.assignment
        if assigned is None:
            raise ValueError(f"table {self.number} has no assignment to play")
        played = self.finish_interrupted()
        while played < (games if games is not None else MAX_GAMES):
            if games is None and played and assigned.ends_at is not None and (
                self.clock.now() >= assigned.ends_at
            ):
                break
            self.play_game(assigned.players)
            played += 1
        return played

    def finish_interrupted(self) -> int:
        """Finish the game a pulled plug or a dead device interrupted, if the state directory
        held one (the game's journal goes on where it stopped); how many games that was."""
        recovery, self.interrupted = self.interrupted, None
        if recovery is None or recovery.game.is_over or not self.store.resume(recovery):
            return 0
        self._finish(recovery.game)
        return 1

    def play_game(self, players: tuple[str, ...]) -> Game:
        """One whole game of ``players``, journalled and reported as on a device."""
        setup = GameSetup(tuple(players), self.rules)
        bots = (self.settings.strategy,) * len(players)
        place = self.reporter.place_for(setup)
        self.store.begin(JournalHeader(setup, bots=bots, tournament=place))
        game = Game(setup)
        return self._finish(game)

    def _finish(self, game: Game) -> Game:
        """Play ``game`` to its end: each action through the device's own :class:`Table`,
        which writes it to the journal first and then hands its events to the reporter."""
        rng = self.rng
        table = Table(game, {}, store=self.store, emit=self.reporter)
        while game.phase is Phase.ROLL_OFF:
            throws = [tuple(rng.randint(1, 6) for _ in range(game.rules.dice_count))
                      for _ in game.contenders]
            self._record(table, game.roll_off(throws))
        while not game.is_over:
            move = self._bot.decide(game, view_of(game), rng)
            self._record(table, apply_move(game, move, rng))
        return game

    def _record(self, table: Table, events: list[Event]) -> None:
        table.record(events)
        self._actions += 1
        if self.dies_after is not None and self._actions >= self.dies_after and (
            not table.game.is_over
        ):
            raise DeviceDied(f"table {self.number} died after {self._actions} actions")
        self.clock.advance(self.settings.action_s)
        self.step()


def recount_from_journal(state_dir: str | Path, event: str | None = None) -> list[Result]:
    """Every result a table's state directory holds in its journals (of ``event`` only, when
    given), in the order played: what the hub must have stored, recounted without it."""
    return recount_journals(StateDirectory(state_dir), event)
