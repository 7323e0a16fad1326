"""A whole game on the device's own wiring, timed step by step, for ``schocken bench``.

The device is built by :func:`firmware.wiring.build_device` as ``schocken run`` builds it, with
three stand-ins for the hardware only:

* the buttons and the tilt switch are gpiozero ``MockFactory`` pins read by the device's own
  GPIO backend (:class:`hal.gpio.GpioInput`, through :class:`sim.gpio_mock.MockPinHands`);
* the display is the device's OLED backend, luma.oled's SSD1306 driver behind
  :class:`hal.redraw.PartialRedraw`, writing to a :class:`CountingBus` instead of
  ``/dev/i2c-1``;
* the clock is a fake one (:class:`PatientClock`), so a game of many minutes plays in seconds:
  it jumps over every wait (the debounce, the computer players' pauses), but stands still while
  the app waits for an answer from its odds worker, so the game goes the same way on every run.

The journal is a real state directory in a temporary folder (every action fsync'd), and the odds
worker is a real thread. A player (:class:`RandomRobot` or :class:`HumanLike`) picks the next
actions from what the app shows; their edges are driven on the mock pins one at a time, each at
its moment on the fake clock. :func:`play_on_the_wiring` returns what was measured: the wall and
CPU time of every main-loop step and how long it waited for fsync, the latency from the last
edge of each input to the last I2C byte of the frame it changed, the bytes and transactions of
every screen change, and the views shown (to time their rendering).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from unittest.mock import patch

from PIL import Image

from engine.events import GameOver
from hal.ports import Button, Edge, EdgeSource, InputEvent
from sim.fakes import FakeClock
from sim.script import ActionKind, ScriptAction, ScriptPacing, script_edges

if TYPE_CHECKING:
    from firmware.screen.views import TurnView

__all__ = [
    "FULL_FRAME_WIRE_BYTES",
    "CountingBus",
    "GameRecord",
    "HumanLike",
    "PatientClock",
    "Player",
    "RandomRobot",
    "play_on_the_wiring",
]

#: The control byte before a command and before display data (SSD1306 and SH1106).
_COMMAND, _DATA = 0x00, 0x40
#: luma writes to a bus it is given in SMBus blocks of at most this many bytes.
_BLOCK = 32
#: A whole SSD1306 frame on the wire in the Pi's managed mode: one command transaction (address,
#: control, COLUMNADDR and PAGEADDR with their 4 arguments) and one data transaction (address,
#: control, 1024 pixel bytes).
FULL_FRAME_WIRE_BYTES = (2 + 6) + (2 + 1024)


class CountingBus:
    """An smbus-like bus for luma's ``i2c(bus=...)``: counts what is written, sends nothing.

    luma writes to a bus it is given in SMBus blocks of at most 32 bytes, one transaction each
    (:attr:`blocks`). On the Pi luma opens ``/dev/i2c-1`` itself through smbus2 (its *managed*
    mode) and sends every ``command()`` call as one SMBus write and every ``data()`` call as one
    ``i2c_rdwr`` transaction of up to 4096 bytes. The bus counts that too: a data block that
    follows a full 32-byte data block continues the same ``data()`` call (luma sends a call's
    blocks back to back, and every data write of ours follows its address command), so
    :attr:`transactions` and :attr:`wire_bytes` are what the Pi puts on the wire: per
    transaction the address byte, the control byte and the payload.
    """

    def __init__(self) -> None:
        self.blocks = 0
        self.payload_bytes = 0
        self.transactions = 0
        self.wire_bytes = 0
        #: ``time.perf_counter()`` of the last write.
        self.last_write = 0.0
        self._data_goes_on = False

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        size = len(data)
        self.blocks += 1
        self.payload_bytes += size
        if control == _DATA and self._data_goes_on:
            self.wire_bytes += size
        else:
            self.transactions += 1
            self.wire_bytes += 2 + size
        self._data_goes_on = control == _DATA and size == _BLOCK
        self.last_write = time.perf_counter()

    def snapshot(self) -> tuple[int, int, int, int]:
        """(wire bytes, transactions, payload bytes, 32-byte blocks) so far."""
        return self.wire_bytes, self.transactions, self.payload_bytes, self.blocks


class PatientClock(FakeClock):
    """A fake clock that stands still while ``waiting()`` says the app waits for its worker.

    Then :meth:`wait` blocks, in real time, on the main loop's queue until something arrives
    (the worker's answer comes through :meth:`firmware.loop.MainLoop.call_soon`), without moving
    the time: a computer player thinks for no time at all on this clock, whatever the machine.
    """

    def __init__(self, waiting: Callable[[], bool] | None = None) -> None:
        super().__init__()
        self.waiting = waiting if waiting is not None else (lambda: False)

    def wait(
        self, deadline: float | None, poll: Callable[[float | None], Edge | None]
    ) -> Edge | None:
        while self.waiting():
            arrived = poll(None)
            if arrived is not None:
                return arrived
        return super().wait(deadline, poll)


# --- players ------------------------------------------------------------------------------------


def _press(button: Button) -> ScriptAction:
    return ScriptAction(ActionKind.PRESS, 0, button)


def _wait(seconds: float) -> ScriptAction:
    return ScriptAction(ActionKind.WAIT, 0, seconds=seconds)


_SHAKE = ScriptAction(ActionKind.SHAKE, 0)
_HINT = ScriptAction(ActionKind.HOLD, 0, Button.FLIP)
_OK = _press(Button.KEEP_3)
_KEEPS = (Button.KEEP_1, Button.KEEP_2, Button.KEEP_3)


class Player:
    """Someone at the device: the next actions, from what the app shows now."""

    #: How the player's hands move (see :class:`sim.script.ScriptPacing`).
    pacing = ScriptPacing()

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def next_actions(self, app: Any) -> list[ScriptAction]:
        raise NotImplementedError


class RandomRobot(Player):
    """On a turn screen: shake, mark a die, stand or ask for a hint, at random; elsewhere OK.

    It presses as fast as ``schocken sim --script`` plays, and hurries the computer players.
    """

    def next_actions(self, app: Any) -> list[ScriptAction]:
        from firmware.screen.views import TurnView

        if not isinstance(app.view, TurnView):
            return [_OK]
        choice = self.rng.random()
        if choice < 0.5:
            return [_SHAKE]
        if choice < 0.7:
            return [_press(self.rng.choice(_KEEPS))]
        if choice < 0.95:
            return [_press(Button.STAND)]
        return [_HINT]


class HumanLike(Player):
    """Plays like a person: looks at the dice, lays out ones (or sixes), stands on a good throw,
    asks for a hint now and then and reads it, reads every reveal and banner, and waits while a
    computer player plays. Pauses between actions are a second or two, at random.
    """

    pacing = ScriptPacing(press_s=0.15, shake_s=1.0, pause_s=0.4, throw_pause_s=1.0)

    #: Throws of these kinds are good enough to stand on.
    _STRONG = ("SCHOCK_AUS", "SCHOCK", "GENERAL")

    def __init__(self, seed: int, hint_every: int = 2) -> None:
        super().__init__(seed)
        self.hint_every = hint_every
        self.decisions = 0

    def _think(self, low: float = 0.8, high: float = 2.0) -> ScriptAction:
        return _wait(self.rng.uniform(low, high))

    def next_actions(self, app: Any) -> list[ScriptAction]:
        from engine.game import Phase
        from firmware.screen.views import BOT_MARK, HandOverView, RollOffView, TurnView

        view, game = app.view, app.game
        if isinstance(view, HandOverView | TurnView) and view.player.startswith(BOT_MARK):
            return [_wait(0.5)]  # a computer player's hand-over or turn
        if isinstance(view, RollOffView) and game is not None:
            decided = game.phase is not Phase.ROLL_OFF
            return [self._think(), _OK if decided else _SHAKE]
        if isinstance(view, HandOverView):
            return [self._think(0.5, 1.2), _SHAKE]
        turn = game.turn if game is not None else None
        if isinstance(view, TurnView) and turn is not None and view.player == turn.player:
            return self._turn(app, view)
        # The dice after a last throw (the turn has passed on), a hint, a reveal, a banner.
        return [self._think(1.5, 3.0), _OK]

    def _turn(self, app: Any, view: TurnView) -> list[ScriptAction]:
        game = app.game
        turn = game.turn
        if turn.throws == 0:
            return [_SHAKE]
        self.decisions += 1
        if game.rules.hints and self.decisions % self.hint_every == 0:
            return [self._think(0.5, 1.0), _HINT]
        values = [value for value in turn.values if value is not None]
        evaluation = game.evaluate(values, turn.hand)
        if not game.can_roll() or evaluation.kind.name in self._STRONG:
            return [self._think(), _press(Button.STAND)]
        actions = [self._think()]
        wanted = 1 if 1 in turn.values else 6
        for index, (value, face) in enumerate(zip(turn.values, view.dice, strict=True)):
            # A die shown out is marked (or laid out): the player's own view of the turn.
            if value == wanted and not face.out and not turn.laid_out[index]:
                actions += [_press(_KEEPS[index]), self._think(0.2, 0.6)]
        return [*actions, _SHAKE]


# --- the game -----------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """What one game on the wiring measured (times in seconds)."""

    #: Wall and CPU time of every main-loop step, and the time it waited for fsync.
    step_wall: list[float] = field(default_factory=list)
    step_cpu: list[float] = field(default_factory=list)
    step_fsync: list[float] = field(default_factory=list)
    #: From the last edge of an input to the last I2C byte of the frame it changed.
    latencies: list[float] = field(default_factory=list)
    #: Every screen change: (wire bytes, transactions, payload bytes, 32-byte blocks).
    changes: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: Every view shown, in order of first appearance.
    views: dict[Any, None] = field(default_factory=dict)
    #: How many inputs reached the app, and how many of them asked for a hint.
    inputs: int = 0
    hints: int = 0
    #: Seconds of game time, and of real time the game took.
    game_s: float = 0.0
    real_s: float = 0.0
    #: fsync time of the step running now.
    waited: float = 0.0


class _Tap:
    """The display port in front of the OLED: notes each frame's bytes and the view shown."""

    def __init__(self, inner: Any, bus: CountingBus) -> None:
        self.inner = inner
        self.bus = bus
        self.record: GameRecord | None = None
        self.app: Any = None
        self.width, self.height, self.mode = inner.width, inner.height, inner.mode

    def display(self, image: Image.Image) -> None:
        before = self.bus.snapshot()
        self.inner.display(image)
        after = self.bus.snapshot()
        record = self.record
        if record is None:
            return
        if after[0] != before[0]:
            record.changes.append(
                (after[0] - before[0], after[1] - before[1], after[2] - before[2],
                 after[3] - before[3])
            )  # fmt: skip
        if self.app is not None:
            record.views.setdefault(self.app.view, None)

    def contrast(self, level: int) -> None:
        self.inner.contrast(level)

    def show(self) -> None:
        self.inner.show()

    def hide(self) -> None:
        self.inner.hide()

    def next_deadline(self) -> float | None:
        deadline: float | None = self.inner.next_deadline()
        return deadline

    def advance(self, now: float) -> None:
        self.inner.advance(now)


def play_on_the_wiring(
    player: Player,
    *,
    rules: Any,
    players: tuple[str, ...] = ("Anna", "Ben", "Carla", "Dieter"),
    bots: tuple[str, ...] = ("", "odds", "", "odds"),
    seed: int = 7,
    max_actions: int = 20_000,
) -> GameRecord:
    """Play one whole game; ``player`` plays every seat that ``bots`` leaves to a person."""
    from engine.events import GameOver
    from engine.game import GameSetup
    from firmware.config import DeviceConfig, GameConfig
    from firmware.dice import SeededDice
    from firmware.wiring import build_device
    from hal.oled import open_resilient_oled
    from hal.storage import StateDirectory
    from sim.gpio_mock import MockPinHands

    config = DeviceConfig(game=GameConfig(players=players, bots=bots, rule_set=rules))
    app_ref: list[Any] = []
    clock = PatientClock(lambda: bool(app_ref) and app_ref[0].thinking)
    over: list[GameOver] = []
    bus = CountingBus()
    record = GameRecord()
    with tempfile.TemporaryDirectory(prefix="schocken-bench-") as state, ExitStack() as stack:
        # The device's own OLED backend (luma's SSD1306 driver) on the counting bus, behind the
        # tap; gpiozero's mock pins read by the device's GPIO backend, as `schocken run` has it.
        oled = open_resilient_oled(config.display, clock, bus=bus)
        tap = _Tap(oled, bus)
        hands = MockPinHands(clock, config.pins)
        device = build_device(
            config,
            clock=clock,
            inputs=[hands],
            display=tap,
            timers=[oled],
            dice=SeededDice(seed),
            storage=StateDirectory(state),
            setup=GameSetup(players, rules),
            event_sink=lambda event: over.append(event) if isinstance(event, GameOver) else None,
            odds_worker=True,
        )
        app = device.app
        app_ref.append(app)
        tap.app, tap.record = app, record
        last_edge = [0.0]
        _instrument(device, bus, record, last_edge)
        started = time.perf_counter()
        try:
            stack.enter_context(_timed_fsync(record))
            device.loop.start()
            for _ in range(max_actions):
                if over:
                    break
                actions = player.next_actions(app)
                record.hints += sum(action == _HINT for action in actions)
                edges, end = script_edges(actions, clock.now(), config.input, player.pacing)
                for edge in edges:
                    device.run(until=edge.at)
                    last_edge[0] = time.perf_counter()
                    _drive(hands, edge)
                device.run(until=end)
            else:
                raise RuntimeError("the benchmark's game did not end")
        finally:
            record.real_s = time.perf_counter() - started
            record.game_s = clock.now()
            device.close()
    return record


@contextmanager
def _timed_fsync(record: GameRecord) -> Iterator[None]:
    """Add the time each ``os.fsync`` takes (the journal's, the state files') to the step."""
    fsync = os.fsync

    def timed(fd: int) -> None:
        started = time.perf_counter()
        try:
            fsync(fd)
        finally:
            record.waited += time.perf_counter() - started

    with patch.object(os, "fsync", timed):
        yield


def _drive(hands: Any, edge: Edge) -> None:
    """Move the mock pin of ``edge`` (the GPIO backend reports it to the loop)."""
    if edge.source is EdgeSource.TILT:
        hands.tilt(edge.active)
    elif edge.active:
        hands.press(edge.button)
    else:
        hands.release(edge.button)


def _instrument(device: Any, bus: CountingBus, record: GameRecord, last_edge: list[float]) -> None:
    """Time every step of ``device``'s main loop and the inputs the app handles in it."""
    loop, app = device.loop, device.app
    step, handle = loop.step, app.handle
    handled = [False]

    def handle_timed(event: InputEvent) -> None:
        handled[0] = True
        record.inputs += 1
        handle(event)

    def step_timed(edge: Edge | None = None) -> None:
        handled[0] = False
        record.waited = 0.0
        wall, cpu, writes = time.perf_counter(), time.thread_time(), bus.last_write
        step(edge)
        record.step_cpu.append(time.thread_time() - cpu)
        record.step_wall.append(time.perf_counter() - wall)
        record.step_fsync.append(record.waited)
        if handled[0] and bus.last_write != writes:
            record.latencies.append(bus.last_write - last_edge[0])

    app.handle = handle_timed
    loop.step = step_timed

