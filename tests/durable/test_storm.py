"""A storm of random input on the whole device: presses, holds, shakes, host lines, power cuts.

A hypothesis state machine plays the real DeviceApp on a real state directory, with the link's
remote (unpaired, as a stranger's laptop would be) under every preset. After every step:

* nothing raised;
* the Deckel are all there: the pot and the players' Deckel add up to the rules' number;
* the journal on disk replays to the game in play (a power cut may come at any moment);
* no die under the cup is on any line the host got, and the unpaired host changed nothing.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine import GameSetup, GameState, load_preset, preset_names
from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig, GameConfig
from firmware.dice import SeededDice
from firmware.link.pairing import Pairing
from firmware.link.remote import DeviceHooks, Remote
from firmware.sink import DeviceEvent
from firmware.store.gamestore import CURRENT
from firmware.store.journal import recover
from hal.ports import Button, InputEvent, InputKind
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.harness import make_app

from ..link.conftest import RecordingLink

HOST_LINES = [
    "state", "log", "log 3", "press stand", "shake", "hold stand", "frames on", "frames off",
    "pair 000000", "auth 00ff", 'setup {"players": ["A", "B"]}', "ping x", "help", "hello",
    "jump", "press keep9", "\x00", "log 99999",
]


class DeviceStorm(RuleBasedStateMachine):
    """The device under random input; see the module's docstring for what must hold."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="storm-"))
        self.clock = FakeClock(10.0)
        self.lines: list[str] = []
        self.pending: list[Any] = []
        self.app: DeviceApp | None = None
        self.remote: Remote | None = None
        self.preset = "standard"
        self.seed = 0
        #: The journal's bytes and the game's state when they last replayed alike: a step that
        #: changed neither needs no second replay.
        self.replayed: tuple[bytes, GameState] | None = None

    # --- the device -----------------------------------------------------------------------------

    @initialize(preset=st.sampled_from(preset_names()), seed=st.integers(0, 2**16),
                bots=st.sampled_from([(), ("", "threshold"), ("odds", "threshold", "")]))
    def power_on(self, preset: str, seed: int, bots: tuple[str, ...]) -> None:
        self.preset, self.seed = preset, seed
        self.config = DeviceConfig(game=GameConfig(bots=bots))
        self.setup = GameSetup(("Anna", "Ben", "Carla"), load_preset(preset))
        self._start(self.setup)

    def _start(self, setup: GameSetup | None) -> None:
        link = RecordingLink()
        self.link = link

        def sink(event: DeviceEvent) -> None:
            if self.remote is not None:
                self.remote.publish_event(event)

        self.remote = None
        self.app = app = make_app(
            self.config, clock=self.clock, dice=SeededDice(self.seed),
            storage=StateDirectory(self.root), setup=setup, event_sink=sink,
            pairing=Pairing(),
        )
        hooks = DeviceHooks(deliver=app.handle, next_setup=lambda: app.next_setup,
                            apply_setup=app.plan_next_game)
        self.remote = Remote(link, app, hooks, clock=self.clock, call_soon=self.pending.append,
                             pairing=Pairing())
        self.remote.start()
        assert link.on_connect is not None
        link.on_connect()
        self._settle()

    def _settle(self) -> None:
        while self.pending:
            self.pending.pop(0)()
        self.lines += self.link.take()

    def teardown(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    # --- what happens to it ---------------------------------------------------------------------

    @rule(button=st.sampled_from(list(Button)), long=st.booleans())
    def press(self, button: Button, long: bool) -> None:
        assert self.app is not None
        kind = InputKind.LONG_PRESS if long else InputKind.PRESS
        self.app.handle(InputEvent(kind, self.clock.advance(0.3), button))
        self._settle()

    @rule()
    def shake(self) -> None:
        assert self.app is not None
        self.app.handle(InputEvent(InputKind.SHAKE_START, self.clock.advance(0.3)))
        self.app.handle(InputEvent(InputKind.THROW, self.clock.advance(0.5)))
        self._settle()

    @rule(seconds=st.sampled_from([0.2, 1.0, 2.5]))
    def time_passes(self, seconds: float) -> None:
        assert self.app is not None
        self.app.advance(self.clock.advance(seconds))
        self._settle()

    @rule(line=st.sampled_from(HOST_LINES))
    def host_says(self, line: str) -> None:
        """A line from a host that never paired: it may ask, and it changes nothing."""
        assert self.link.on_line is not None and self.app is not None
        before = self.app.game.state() if self.app.game is not None else None
        self.link.on_line(line.encode())
        self._settle()
        after = self.app.game.state() if self.app.game is not None else None
        assert after == before, f"an unpaired host changed the game with {line!r}"

    @precondition(lambda self: self.app is not None)
    @rule()
    def power_cut(self) -> None:
        """The plug is pulled and put back: a new app on the same state directory."""
        assert self.app is not None
        before = self.app.game
        state = before.state() if before is not None and not before.is_over else None
        self._start(None)
        if state is not None and before is not None and before.actions:
            again = self.app.game
            assert again is not None and again.state() == state, "resumed where it was"

    # --- what must hold -------------------------------------------------------------------------

    @invariant()
    def deckel_are_conserved(self) -> None:
        game = self.app.game if self.app is not None else None
        if game is None or game.is_over:
            return
        assert game.pot + sum(game.holdings.values()) == game.rules.deckel

    @invariant()
    def the_journal_replays_to_the_game(self) -> None:
        game = self.app.game if self.app is not None else None
        if game is None or game.is_over or not game.actions:
            return
        storage = StateDirectory(self.root)
        data, state = storage.read_bytes(CURRENT), game.state()
        if data is not None and (data, state) == self.replayed:
            return
        recovery = recover(storage, CURRENT)
        assert recovery is not None and recovery.game.state() == state
        self.replayed = (data, state) if data is not None else None

    @invariant()
    def no_covered_die_went_out(self) -> None:
        hidden = load_preset(self.preset).hidden_last_throw
        for line in self.lines:
            if not line.startswith(("event ", "{")):
                continue
            event = json.loads(line.split(" ", 1)[1] if line.startswith("event ") else line)
            if event.get("event") == "roll" and hidden:
                assert event["dice"] is None, line
            if event.get("event") == "turn_over" and hidden:
                assert event["dice"] is None and event["name"] is None, line
        self.lines = [line for line in self.lines if line.startswith("state ")][-1:]


_STORM = {"stateful_step_count": 60, "deadline": None,
          "suppress_health_check": [HealthCheck.too_slow]}


class TestDeviceStorm(DeviceStorm.TestCase):
    """15 sequences in `make test`."""

    settings = settings(max_examples=15, **_STORM)


@pytest.mark.slow
class TestDeviceStormExhaustive(DeviceStorm.TestCase):
    """1,000 sequences in the slow selection (`make test-long`)."""

    settings = settings(max_examples=1000, **_STORM)
