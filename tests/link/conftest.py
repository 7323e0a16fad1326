"""Shared helpers for the link tests: a recording link, a small stand-in device app, the main
loop run by hand, a server that listens nowhere, and the devices and link ends a test closes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

import pytest
from PIL import Image, ImageDraw

from engine import Event, Game, GameSetup, load_preset
from firmware.link.pairing import Pairing
from firmware.link.remote import DeviceHooks, Remote
from firmware.sink import DeviceEvent
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind
from sim.fakes import FakeClock


class RecordingLink:
    """A Link that keeps what is sent; the test plays the reader thread itself."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []
        #: A cable, as far as pairing goes (the fixtures trust it; see test_pairing.py).
        self.network = False
        #: Where the host connects from (a page's address; the server's links have one).
        self.peer = "192.0.2.7"
        #: Bytes waiting to be written: none, the test reads them at once.
        self.queued_bytes = 0
        self.on_line: Callable[[bytes], None] | None = None
        self.on_connect: Callable[[], None] | None = None
        self.closed = False

    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
        self.on_line, self.on_connect = on_line, on_connect

    def send_line(self, line: str, *, droppable: bool = False) -> None:
        assert "\n" not in line
        self.sent.append((line, droppable))

    def close(self) -> None:
        self.closed = True

    def take(self) -> list[str]:
        lines = [line for line, _ in self.sent]
        self.sent.clear()
        return lines


class TinyApp:
    """Shake throws 6-5-2 (then 3s), STAND stands, a long STAND starts a new game."""

    def __init__(self, publish: Callable[[DeviceEvent], None]) -> None:
        self.publish = publish
        self.next = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))
        self.game: Game | None = None
        self.inputs: list[InputEvent] = []

    def handle(self, event: InputEvent) -> None:
        self.inputs.append(event)
        game = self.game
        if event.kind is InputKind.LONG_PRESS and (game is None or game.is_over):
            self.game = game = Game(self.next)
            self._emit(game.roll_off([[2, 3, 5], [1, 1, 1], [4, 4, 5]]))
        elif game is None:
            return
        elif event.kind is InputKind.THROW and game.can_roll():
            turn = game.turn
            assert turn is not None
            if turn.throws == 0:
                self._emit(game.roll([6, 5, 2]))
            else:
                self._emit(game.roll([3], keep=(0, 1)))
        elif event.kind is InputKind.PRESS and event.button is Button.STAND and game.can_stand():
            self._emit(game.stand())

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            self.publish(event)

    def screen(self) -> Image.Image:
        image = Image.new("1", SCREEN_SIZE, 0)
        ImageDraw.Draw(image).text((0, 0), f"{len(self.inputs)} inputs", fill=1)
        return image

    def table_screen(self) -> Image.Image:
        return self.screen()


class HostSide:
    """A recording link and the main loop's call queue, run by hand: what a host sees."""

    link: RecordingLink
    pending: list[Callable[[], None]]

    def run_pending(self) -> None:
        while self.pending:
            self.pending.pop(0)()

    def host_sends(self, text: str | bytes) -> list[str]:
        """One line from the host, through the link's callback and the loop; what came back."""
        assert self.link.on_line is not None
        self.link.on_line(text.encode() if isinstance(text, str) else text)
        self.run_pending()
        return self.link.take()

    def connect(self) -> list[str]:
        """A host (re)connects: what the device greets it with."""
        assert self.link.on_connect is not None
        self.link.on_connect()
        self.run_pending()
        return self.link.take()


class Device(HostSide):
    """Remote + TinyApp + a queue standing in for the main loop's call_soon.

    The protocol's mechanics are tested as a trusted cable with a referee's view (every die);
    pairing and the table's view have tests of their own.
    """

    def __init__(self) -> None:
        self.link = RecordingLink()
        self.pending: list[Callable[[], None]] = []
        self.clock = FakeClock(100.0)
        self.app = TinyApp(lambda event: self.remote.publish_event(event))
        hooks = DeviceHooks(
            deliver=self.app.handle,
            next_setup=lambda: self.app.next,
            apply_setup=self._apply,
        )
        self.remote = Remote(
            self.link,
            self.app,
            hooks,
            clock=self.clock,
            call_soon=self.pending.append,
            pairing=Pairing(),
            trust_serial=True,
            referee=True,
            info={"version": "test"},
        )
        self.remote.start()

    def _apply(self, setup: GameSetup) -> None:
        self.app.next = setup


class AppDevice(HostSide):
    """Remote + the real DeviceApp (seeded dice, fake clock), run by hand like :class:`Device`.

    By default a trusted cable with a referee's view; ``trust_serial=False, referee=False`` is a
    device as shipped. ``events`` keeps every event the app emitted, in full.
    """

    def __init__(
        self,
        setup: GameSetup | None = None,
        *,
        config: Any = None,
        trust_serial: bool = True,
        referee: bool = True,
        network: bool = False,
        seed: int = 5,
    ) -> None:
        from firmware.config import DeviceConfig
        from firmware.dice import SeededDice
        from tests.harness import make_app

        self.link = RecordingLink()
        self.link.network = network
        self.pending: list[Callable[[], None]] = []
        self.clock = FakeClock(100.0)
        self.pairing = Pairing()
        self.events: list[DeviceEvent] = []
        self.remote: Remote | None = None

        def sink(event: DeviceEvent) -> None:
            self.events.append(event)
            if self.remote is not None:  # the app announces its first game while it is made
                self.remote.publish_event(event)

        self.app = make_app(
            config or DeviceConfig(),
            clock=self.clock,
            dice=SeededDice(seed),
            setup=setup or GameSetup(("Anna", "Ben", "Carla"), load_preset("standard")),
            event_sink=sink,
            pairing=self.pairing,
        )
        hooks = DeviceHooks(
            deliver=self.app.handle,
            next_setup=lambda: self.app.next_setup,
            apply_setup=self.app.plan_next_game,
        )
        self.remote = Remote(
            self.link, self.app, hooks, clock=self.clock, call_soon=self.pending.append,
            pairing=self.pairing, trust_serial=trust_serial, referee=referee,
        )
        self.remote.start()


class HandLoop:
    """The main loop's call queue, run by hand: ``call_soon`` is ``pending.append``."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], None]] = []

    def run(self) -> int:
        """Run what is queued, and what that queues, until nothing is left; how many ran."""
        ran = 0
        while self.pending:
            self.pending.pop(0)()
            ran += 1
        return ran


class StubServer:
    """A LinkServer that listens nowhere: the test hands its links to ``accept`` itself."""

    def __init__(self) -> None:
        self.accept: Callable[[Any], None] | None = None

    def start(self, on_link: Callable[[Any], None], on_gone: Callable[[Any], None]) -> None:
        self.accept = on_link

    def close(self) -> None:
        pass


class _Closable(Protocol):
    def close(self) -> None: ...


@pytest.fixture
def devices() -> Iterator[list[_Closable]]:
    """The whole devices a test started (``firmware.wiring.Device``), closed after it."""
    started: list[_Closable] = []
    yield started
    for device in started:
        device.close()


@pytest.fixture
def ends() -> Iterator[list[_Closable]]:
    """The host ends of links a test opened, closed after it."""
    opened: list[_Closable] = []
    yield opened
    for end in opened:
        end.close()
