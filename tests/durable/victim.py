"""The kill harness's victim: the real firmware on simulator backends, telling what it shows.

    python -m tests.durable.victim --state-dir DIR --seed S --input-seed I [--players N]

It builds the device exactly as ``schocken run`` does (:func:`firmware.wiring.build_device`,
through the tests' :func:`tests.harness.build_test_device`)
with the headless script input, a fake clock, seeded dice and a real state directory, plays a
long random script (made a few hundred lines at a time, as the clock reaches them: a victim is
killed within seconds and plays only the first few hundred), and writes one line per fact to
stdout, flushed at once:

    R K NOTATION   the device resumed an interrupted game at action K, in this position
    N              the device started without an interrupted game
    G              a new game started
    E JSON         an action was applied (and, by the promise, written before this line)
    F K            a frame showing the game after K actions reached the display
    O              the game is over (and archived)

A line is a single ``write`` to the pipe or file, so a SIGKILL cannot tear one that was
written; what the process had not written yet is simply missing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import deque
from typing import Any

from PIL import Image

from engine import GameSetup, to_notation
from engine.events import ACTION_TYPES
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from hal.inputs import InputTiming
from hal.ports import Edge, EdgeSink
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from sim.script import parse_script, script_edges
from tests.harness import as_json, build_test_device

NAMES = ("Anna", "Ben", "Carla", "Dieter", "Elke")
#: The random script's length in lines, and how many of them are made at a time.
SCRIPT_LINES = 20_000
CHUNK_LINES = 200


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def random_script(rng: random.Random, lines: int) -> str:
    """A long, mostly playful script: shakes, KEEPs, STAND, sometimes the menu and back."""
    out = []
    for _ in range(lines):
        roll = rng.random()
        if roll < 0.4:
            out.append("shake")
        elif roll < 0.6:
            out.append(rng.choice(["keep1", "keep2", "keep3"]))
        elif roll < 0.9:
            out.append("stand")
        elif roll < 0.97:
            out.append(rng.choice(["flip", "keep3", "wait 0.3"]))
        else:
            out += ["hold stand", rng.choice(["keep2", "keep1"]), "flip", "flip"]
    return "\n".join(out) + "\n"


class RandomScript:
    """An input backend that plays :func:`random_script`'s ``lines`` lines from ``start`` on,
    making them ``CHUNK_LINES`` at a time when the clock reaches the end of those made: the
    same lines and edges as one :func:`random_script` of them all, without building the many
    a killed victim never reaches."""

    def __init__(
        self, rng: random.Random, start: float, timing: InputTiming, lines: int = SCRIPT_LINES
    ) -> None:
        self._rng = rng
        self._timing = timing
        self._left = lines
        self._edges: deque[Edge] = deque()
        #: The moment the lines made so far are over; the script's end once all are made.
        self.made_until = start
        self._sink: EdgeSink | None = None

    @property
    def over(self) -> bool:
        """Every line is made and every edge reported."""
        return self._left == 0 and not self._edges

    def start(self, sink: EdgeSink) -> None:
        """Report edges to ``sink`` when :meth:`play_until` is called."""
        self._sink = sink

    def play_until(self, until: float) -> None:
        """Report the edges stamped before ``until``, making more lines as they are needed."""
        assert self._sink is not None, "the script input is not started"
        while True:
            while self._edges and self._edges[0].at < until:
                self._sink(self._edges.popleft())
            if self._edges or self._left == 0 or self.made_until >= until:
                return
            lines = min(CHUNK_LINES, self._left)
            self._left -= lines
            actions = parse_script(random_script(self._rng, lines), "victim")
            edges, self.made_until = script_edges(actions, self.made_until, self._timing)
            self._edges.extend(edges)

    def close(self) -> None:
        """Nothing to release."""


class Witness:
    """A display that reports each frame it is given, with the action count the app shows."""

    width, height, mode = 128, 64, "1"

    def __init__(self) -> None:
        self.app: Any = None

    def display(self, image: Image.Image) -> None:
        game = self.app.game if self.app is not None else None
        say(f"F {len(game.actions) if game is not None else -1}")

    def contrast(self, level: int) -> None:
        """The witness has no panel."""

    def show(self) -> None:
        """The witness has no panel."""

    def hide(self) -> None:
        """The witness has no panel."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--seed", type=int, required=True, help="dice seed")
    parser.add_argument("--input-seed", type=int, required=True)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()

    witness = Witness()

    def sink(event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind in ACTION_TYPES:
            say("E " + json.dumps(event, ensure_ascii=False, separators=(",", ":")))
        elif kind == "game_started":
            say("G")
        elif kind == "game_over":
            say("O")

    clock = FakeClock()
    setup = GameSetup(NAMES[: args.players])
    config = DeviceConfig()
    script = RandomScript(random.Random(args.input_seed), clock.now(), config.input)
    device = build_test_device(
        config, clock=clock, inputs=[script], display=witness,
        dice=SeededDice(args.seed), storage=StateDirectory(args.state_dir), setup=setup,
        event_sink=as_json(sink), power=False,
    )
    app = device.app
    witness.app = app
    game = app.game
    if app.resumed and game is not None:
        say(f"R {len(game.actions)} {to_notation(game)}")
    else:
        say("N")
    device.loop.start()
    while not script.over:
        step_end = clock.now() + 1.0
        script.play_until(step_end)
        device.run(until=min(step_end, script.made_until) if script.over else step_end)
    device.close()
    say("END")
    return 0


if __name__ == "__main__":
    sys.exit(main())
