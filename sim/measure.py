"""Measuring the Schockbesteck: speed, memory and I2C traffic, on a laptop and on the Pi.

:func:`run_benchmarks` takes every measurement in turn and returns :class:`Measurement` values;
``schocken bench`` (:mod:`sim.bench_cli`) prints them as a table or as JSON. What is
measured, and how:

* the engine: evaluating a throw, settling a round, the exact odds (:mod:`engine.odds`) and
  ``simulate`` (:mod:`engine.simulation`);
* a whole game played by a seeded robot on the simulator's fake clock, through the firmware's
  own wiring, with the OLED backend (luma's real SSD1306 driver) on a fake I2C bus that counts
  every byte: the render time of each distinct screen, and the bytes each screen change costs;
* the idle main loop on the real monotonic clock: CPU time and wake-ups;
* a fresh ``schocken sim --script`` process: the time from its start to its first frame and its
  peak resident memory;
* on a Raspberry Pi with the display attached: real frames per second and the I2C bus speed.

It lives in :mod:`sim` because it wires the whole stack together like the tests do: the
simulator's fake clock and scripted hands, the hal backends and luma's driver on a counting bus.
The firmware itself never imports it.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

__all__ = [
    "FULL_FRAME_BYTES",
    "Measurement",
    "Settings",
    "bus_speed",
    "machine",
    "run_benchmarks",
]

#: What luma's SSD1306 driver sends for one whole frame: 6 addressing command bytes, 1024 pixels.
FULL_FRAME_BYTES = 6 + 1024


@dataclass(frozen=True, slots=True)
class Measurement:
    """One figure: ``key`` names it with its unit for JSON (``throw_eval_ns``).

    ``target`` is the limit on this machine class (an upper bound, or a lower one when
    ``at_least``); ``value`` is None when the measurement was skipped, with the reason in ``note``.
    """

    key: str
    label: str
    value: float | None
    unit: str
    target: float | None = None
    at_least: bool = False
    note: str = ""

    @property
    def status(self) -> str:
        """Either "OK", "over" (the target was missed), "-" (no target) or "skipped"."""
        if self.value is None:
            return "skipped"
        if self.target is None:
            return "-"
        met = self.value >= self.target if self.at_least else self.value <= self.target
        return "OK" if met else "over"


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to measure. :meth:`quick` takes a few seconds, for the test suite."""

    evaluations: int = 400_000
    settlements: int = 20_000
    odds_queries: int = 200
    simulate_games: int = 300
    render_repeats: int = 20
    game_deckel: int = 7
    idle_s: float = 10.0
    starts: int = 5
    pi_frames: int = 50
    seed: int = 7

    @classmethod
    def quick(cls) -> Settings:
        return cls(
            evaluations=20_000,
            settlements=1_000,
            odds_queries=5,
            simulate_games=10,
            render_repeats=2,
            game_deckel=3,
            idle_s=1.0,
            starts=1,
            pi_frames=5,
        )


Progress = Callable[[str], None]


def run_benchmarks(
    settings: Settings | None = None, progress: Progress | None = None
) -> list[Measurement]:
    """Every measurement, in the order of the table; ``progress`` hears what is being measured."""
    settings = settings if settings is not None else Settings()
    say = progress if progress is not None else (lambda what: None)
    results: list[Measurement] = []
    say("engine")
    results += engine_speed(settings)
    say("odds and simulation")
    results += odds_speed(settings)
    say("a whole game on the simulated SSD1306")
    results += game_on_the_oled(settings)
    say(f"the idle main loop ({settings.idle_s:g} s)")
    results += idle_loop(settings)
    say("start-up of `schocken sim`")
    results += start_up(settings)
    say("the display on this machine's I2C bus")
    results += real_display(settings)
    return results


#: Timed runs of a micro-benchmark; the fastest counts (as timeit does): the others were slowed
#: by whatever else the machine was doing.
_REPEATS = 5


def _per_call(calls: int, function: Callable[[], object], repeats: int = _REPEATS) -> float:
    """Seconds per call of ``function``: the fastest of ``repeats`` runs of ``calls`` calls."""
    fastest = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(calls):
            function()
        fastest = min(fastest, (time.perf_counter() - started) / calls)
    return fastest


# --- the engine --------------------------------------------------------------------------------


def engine_speed(settings: Settings) -> list[Measurement]:
    """Evaluating a throw (every ordered throw of three dice, in and out of hand) and settling."""
    from engine.rules import load_preset
    from engine.settle import TurnResult, settle
    from engine.throws import rank_table

    rules = load_preset("standard")
    table = rank_table(rules)
    rng = random.Random(settings.seed)
    throws = [(tuple(rng.randint(1, 6) for _ in range(3)), rng.random() < 0.7) for _ in range(1024)]
    evaluate = table.evaluate
    count = max(settings.evaluations // len(throws) // _REPEATS, 1)

    def evaluate_all() -> None:
        for dice, hand in throws:
            evaluate(dice, hand)

    throw_s = _per_call(count, evaluate_all) / len(throws)

    players = ("Anna", "Ben", "Carla", "Dieter")
    rounds = []
    for _ in range(64):
        results = [
            TurnResult(name, tuple(rng.randint(1, 6) for _ in range(3)), True, rng.randint(1, 3))
            for name in players
        ]
        holdings = {name: 2 for name in players}
        rounds.append((rules.deckel - 8, holdings, results))
    cycle = iter(_forever(rounds))

    def settle_one() -> None:
        pot, holdings, results = next(cycle)
        settle(rules, pot, holdings, results)

    settle_s = _per_call(max(settings.settlements // _REPEATS, 1), settle_one)
    return [
        Measurement("throw_eval_ns", "throw evaluation", throw_s * 1e9, "ns", target=1000),
        Measurement("settle_round_us", "settling a round (4 players)", settle_s * 1e6, "µs"),
    ]


def _forever(items: list[Any]) -> Iterator[Any]:
    while True:
        yield from items


# --- odds and simulate --------------------------------------------------------------------------


def odds_speed(settings: Settings) -> list[Measurement]:
    """An odds query, the odds tables built from scratch, and ``simulate``'s rounds per second."""
    keys = [
        ("odds_query_ms", "odds query, a throw not asked before", "ms"),
        ("odds_table_build_ms", "odds table build (standard rules)", "ms"),
        ("simulate_rounds_per_s", "simulate (3 threshold bots)", "rounds/s"),
    ]
    measured = _odds_figures(settings)
    return [
        Measurement(key, label, value, unit)
        for (key, label, unit), value in zip(keys, measured, strict=True)
    ]


def _odds_figures(settings: Settings) -> list[float]:
    """(ms per odds query, ms per table build, simulated rounds per second).

    A query is ``chance_to_beat`` from the start of a turn against a throw not asked about
    before (a goal's table is memoised, so a repeated query costs next to nothing). A build is
    ``build_tables`` for a rule set seen for the first time (renamed, so no cache helps).
    ``simulate`` plays 3 threshold bots after one warm-up game that builds their turn tables.
    """
    from engine import bots, odds, simulation
    from engine.rules import load_preset
    from engine.throws import rank_table

    rules = load_preset("standard")
    builds = max(1, min(3, settings.odds_queries // 50))
    started = time.perf_counter()
    for index in range(builds):
        odds.build_tables(dataclasses.replace(rules, name=f"bench-{os.getpid()}-{index}"))
    build_s = (time.perf_counter() - started) / builds

    odds.build_tables(rules)
    targets = [
        odds.Target.beat(evaluation, rules, throws=throws)
        for throws in (1, 2, 3)
        for evaluation in rank_table(rules).ranking
    ][: settings.odds_queries]
    start = odds.Position.start(rules.max_throws)
    started = time.perf_counter()
    for target in targets:
        odds.chance_to_beat(start, target, rules)
    query_s = (time.perf_counter() - started) / len(targets)

    simulator = simulation.Simulator(rules, [bots.make_strategy("threshold")] * 3)
    rng = random.Random(settings.seed)
    simulator.play_game(rng)
    rounds = 0
    started = time.perf_counter()
    for _ in range(settings.simulate_games):
        rounds += simulator.play_game(rng).rounds
    rounds_per_s = rounds / (time.perf_counter() - started)
    return [query_s * 1e3, build_s * 1e3, rounds_per_s]


# --- a whole game on the SSD1306 ---------------------------------------------------------------


class CountingBus:
    """An smbus-like bus for luma's ``i2c(bus=...)`` that counts what is written and ignores it.

    luma treats a bus it was given as unmanaged and writes at most 32 bytes per call, each call
    one I2C transaction with a control byte (0x00 commands, 0x40 data) before the payload.
    """

    def __init__(self) -> None:
        self.payload_bytes = 0
        self.transactions = 0

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        self.payload_bytes += len(data)
        self.transactions += 1


class _Tap:
    """A :class:`~hal.ports.Display` in front of the OLED that notes the screens and their cost."""

    def __init__(self, inner: Any, bus: CountingBus) -> None:
        self.inner = inner
        self.bus = bus
        self.app: Any = None
        self.views: list[Any] = []
        self.changes: list[tuple[int, int]] = []  # (payload bytes, transactions) per change
        self.width, self.height, self.mode = inner.width, inner.height, inner.mode

    def display(self, image: Image.Image) -> None:
        before = (self.bus.payload_bytes, self.bus.transactions)
        self.inner.display(image)
        cost = (self.bus.payload_bytes - before[0], self.bus.transactions - before[1])
        if cost[0]:
            self.changes.append(cost)
        if self.app is not None and self.app.view not in self.views:
            self.views.append(self.app.view)

    def contrast(self, level: int) -> None:
        self.inner.contrast(level)

    def show(self) -> None:
        self.inner.show()

    def hide(self) -> None:
        self.inner.hide()


def play_game(settings: Settings) -> _Tap:
    """A whole game (3 players) played by a seeded robot through the firmware's wiring.

    On a turn screen the robot shakes, keeps a die or stands at random; on any other screen it
    presses OK (KEEP_3). Edges are timed as ``schocken sim --script`` times them.
    """
    from engine.game import GameSetup
    from engine.rules import load_preset
    from firmware.config import DeviceConfig
    from firmware.dice import SeededDice
    from firmware.views import TurnView
    from firmware.wiring import build_device
    from hal.oled import open_resilient_oled
    from hal.ports import Button
    from sim.fakes import FakeClock
    from sim.script import ActionKind, ScriptAction, script_edges

    rules = dataclasses.replace(load_preset("standard"), deckel=settings.game_deckel)
    config = DeviceConfig()
    clock = FakeClock()
    over: list[dict[str, Any]] = []
    bus = CountingBus()
    # The real OLED backend (luma's SSD1306 driver) on the counting bus, behind the tap.
    oled = open_resilient_oled(config.display, clock, bus=bus)
    tap = _Tap(oled, bus)
    device = build_device(
        config,
        clock=clock,
        inputs=[],
        display=tap,
        timers=[oled],
        dice=SeededDice(settings.seed),
        setup=GameSetup(("Anna", "Ben", "Carla"), rules),
        event_sink=lambda event: over.append(event) if event["event"] == "game_over" else None,
    )
    tap.app = device.app
    rng = random.Random(settings.seed)
    shake = ScriptAction(ActionKind.SHAKE, 0)
    presses = {
        button: ScriptAction(ActionKind.PRESS, 0, button)
        for button in (Button.KEEP_1, Button.KEEP_2, Button.KEEP_3, Button.STAND)
    }
    try:
        device.loop.start()
        for _ in range(20_000):
            if over:
                break
            if isinstance(device.app.view, TurnView):
                choice = rng.random()
                action = (
                    shake
                    if choice < 0.5
                    else presses[rng.choice((Button.KEEP_1, Button.KEEP_2, Button.KEEP_3))]
                    if choice < 0.7
                    else presses[Button.STAND]
                )
            else:
                action = presses[Button.KEEP_3]
            edges, end = script_edges([action], clock.now(), config.input)
            for edge in edges:
                device.loop.post(edge)
            device.run(until=end)
        else:
            raise RuntimeError("the benchmark's game did not end")
    finally:
        device.close()
    return tap


def game_on_the_oled(settings: Settings) -> list[Measurement]:
    """Render time of the game's screens and the I2C bytes of each screen change."""
    from firmware.screens import render

    tap = play_game(settings)
    samples = []
    for view in tap.views:
        for _ in range(settings.render_repeats):
            started = time.perf_counter()
            render(view)
            samples.append(time.perf_counter() - started)
    # The first frame after the display's initialisation is sent whole, by design.
    changes = tap.changes[1:] or tap.changes
    sent = [payload for payload, _ in changes]
    average = statistics.fmean(sent)
    return [
        Measurement(
            "render_ms",
            f"render a screen (median, {len(tap.views)} screens)",
            statistics.median(samples) * 1e3,
            "ms",
            target=2,
        ),
        Measurement("screen_changes", "screen changes in the game", len(changes), "changes"),
        Measurement(
            "i2c_bytes_per_change_avg", "I2C bytes per screen change, average", average, "bytes"
        ),
        Measurement(
            "i2c_full_frame_pct_avg",
            f"... of a full frame ({FULL_FRAME_BYTES} bytes)",
            100 * average / FULL_FRAME_BYTES,
            "%",
            target=40,
        ),
        Measurement(
            "i2c_bytes_per_change_max", "I2C bytes per screen change, worst", max(sent), "bytes"
        ),
        Measurement(
            "i2c_transactions_per_change_avg",
            "I2C transactions per change (32-byte blocks)",
            statistics.fmean(count for _, count in changes),
            "writes",
        ),
    ]


# --- the idle main loop ------------------------------------------------------------------------


def idle_loop(settings: Settings) -> list[Measurement]:
    """CPU and wake-ups of the main loop on the real clock, with no input, for ``idle_s``.

    The device is the firmware's own (setup screen, power manager, luma's dummy display); only
    the main loop's thread is measured (``time.thread_time``), each return from the clock's
    wait counts as a wake-up.
    """
    from firmware.config import DeviceConfig
    from firmware.wiring import build_device
    from hal.clock import MonotonicClock
    from hal.oled import open_dummy

    class CountingClock(MonotonicClock):
        def __init__(self) -> None:
            self.wakeups = 0

        def wait(self, deadline: float | None, poll: Callable[[float | None], Any]) -> Any:
            edge = super().wait(deadline, poll)
            self.wakeups += 1
            return edge

    clock = CountingClock()
    display = open_dummy(clock)
    device = build_device(
        DeviceConfig(), clock=clock, inputs=[], display=display, timers=[display]
    )
    device.loop.start()
    measured: dict[str, float] = {}

    def loop() -> None:
        cpu, wall, wakeups = time.thread_time(), time.monotonic(), clock.wakeups
        device.run(until=clock.now() + settings.idle_s)
        measured["cpu"] = time.thread_time() - cpu
        measured["wall"] = time.monotonic() - wall
        measured["wakeups"] = clock.wakeups - wakeups

    thread = threading.Thread(target=loop, name="bench-idle-loop")
    thread.start()
    thread.join()
    device.close()
    return [
        Measurement(
            "idle_cpu_pct",
            "idle main loop: CPU (of one core)",
            100 * measured["cpu"] / measured["wall"],
            "%",
            target=1,
        ),
        Measurement(
            "idle_wakeups_per_s",
            "idle main loop: wake-ups",
            # The wait that ends the window is not a wake-up of an idle device.
            max(measured["wakeups"] - 1, 0) / measured["wall"],
            "1/s",
        ),
    ]


# --- start-up and memory -----------------------------------------------------------------------

#: ``schocken sim`` as the console script runs it, noting when its first frame is shown and, at
#: exit, its peak resident memory. The peak is the kernel's VmHWM of this process image: Linux
#: carries ``ru_maxrss`` over from the parent across fork and exec, so the parent's size (a
#: benchmark that played a long game) would show up as the child's.
_LAUNCH = """
import atexit, sys, time
import sim.recorder
shown = sim.recorder.FrameRecorder.display
def first(self, image):
    if not sys.__dict__.get("_first_frame_noted"):
        sys._first_frame_noted = True
        print("FIRST_FRAME", time.monotonic(), file=sys.stderr, flush=True)
    return shown(self, image)
sim.recorder.FrameRecorder.display = first
def peak():
    try:
        with open("/proc/self/status") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        kb = kb // 1024 if sys.platform == "darwin" else kb  # bytes there, KiB on Linux
    print("PEAK_RSS_KB", kb, file=sys.stderr, flush=True)
atexit.register(peak)
from schockbesteck.cli import main
sys.exit(main(sys.argv[1:]))
"""

#: A short game for the start-up run: the roll-off and one round.
_SHORT_SCRIPT = "shake\nstand\n" + "shake\nstand\nstand\nstand\n" * 3


def start_up(settings: Settings) -> list[Measurement]:
    """Seconds from spawning ``schocken sim --script`` to its first frame; its peak memory."""
    firsts, peaks = [], []
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "short.txt"
        script.write_text(_SHORT_SCRIPT, encoding="utf-8")
        argv = ["sim", "--script", str(script), "--seed", "1", "--players", "3"]
        for _ in range(settings.starts):
            first, peak_kb = _start_once(argv)
            firsts.append(first)
            peaks.append(peak_kb)
    return [
        Measurement(
            "first_frame_s",
            f"start to first frame (`schocken sim`, median of {len(firsts)})",
            statistics.median(firsts),
            "s",
            target=0.6,
        ),
        Measurement(
            "peak_rss_mb", "peak resident memory (simulator)", max(peaks) / 1024, "MB", target=60
        ),
    ]


def _start_once(argv: list[str]) -> tuple[float, int]:
    """(seconds to the first frame, peak resident set in KiB) of one process."""
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-c", _LAUNCH, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    noted = dict(line.split(" ", 1) for line in process.stderr.splitlines() if " " in line)
    if process.returncode != 0 or "FIRST_FRAME" not in noted or "PEAK_RSS_KB" not in noted:
        last = process.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"`schocken sim` showed no frame (exit {process.returncode}): {last[0]}")
    return float(noted["FIRST_FRAME"]) - started, int(noted["PEAK_RSS_KB"])


# --- the real display --------------------------------------------------------------------------

#: Where the I2C bus speed is read, in this order. The device tree's ``clock-frequency`` is a
#: 32-bit big-endian number; config.txt's ``dtparam=i2c_arm_baudrate`` is what was asked for.
BUS_SPEED_SOURCES = (
    "/sys/class/i2c-adapter/i2c-{port}/of_node/clock-frequency",
    "/sys/module/i2c_bcm2835/parameters/baudrate",
    "/boot/firmware/config.txt",
    "/boot/config.txt",
)


def bus_speed(
    port: int = 1, sources: tuple[str, ...] = BUS_SPEED_SOURCES
) -> tuple[int, str] | None:
    """The I2C bus speed in Hz and where it was read, or None if nothing tells."""
    for template in sources:
        path = Path(template.format(port=port))
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        if path.name == "config.txt":
            for line in raw.decode("utf-8", "replace").splitlines():
                line = line.split("#", 1)[0].strip()
                for part in line.removeprefix("dtparam=").split(","):
                    name, _, value = part.partition("=")
                    known = name.strip() in ("i2c_arm_baudrate", "i2c_baudrate")
                    if known and value.isascii() and value.isdigit():
                        return int(value), f"{path} (dtparam)"
            continue
        if path.name == "clock-frequency" and len(raw) == 4:
            return int.from_bytes(raw, "big"), str(path)
        text = raw.decode("ascii", "replace").strip()
        if text.isascii() and text.isdigit():
            return int(text), str(path)
    return None


def real_display(settings: Settings) -> list[Measurement]:
    """Frames per second on the real panel, and the bus speed, when a display answers here.

    The display settings are the installed device's (``/etc/schockbesteck/config.toml``) or the
    defaults. Stop the service first (``sudo systemctl stop schockbesteck``): two programs
    writing to one panel garble it.
    """
    from firmware.config import DEVICE_CONFIG_PATH, load_config

    installed = Path(DEVICE_CONFIG_PATH)
    display = load_config(str(installed) if installed.exists() else None).display
    bus = Path(f"/dev/i2c-{display.i2c_port}")
    keys = [
        ("pi_full_frames_per_s", "real display: whole frames per second", "fps"),
        ("pi_game_frames_per_s", "real display: game screen changes per second", "fps"),
        ("i2c_bus_hz", "I2C bus speed", "Hz"),
    ]
    problem = _display_problem(bus, display.i2c_address)
    if problem is not None:
        return [Measurement(key, label, None, unit, note=problem) for key, label, unit in keys]
    from hal.oled import open_oled

    speed = bus_speed(display.i2c_port)
    blank, lit = Image.new("1", (128, 64), 0), Image.new("1", (128, 64), 1)
    whole = open_oled(display, framebuffer="full_frame")
    full_fps = 1 / _per_call(settings.pi_frames, _cycle(whole, [blank, lit]), repeats=1)
    game_images = _game_frames(settings)
    partial = open_oled(display)
    game_fps = 1 / _per_call(len(game_images), _cycle(partial, game_images), repeats=1)
    return [
        Measurement(keys[0][0], keys[0][1], full_fps, "fps"),
        Measurement(keys[1][0], keys[1][1], game_fps, "fps"),
        Measurement(
            "i2c_bus_hz",
            "I2C bus speed",
            None if speed is None else speed[0],
            "Hz",
            note="read from " + speed[1] if speed else "not found in /sys or config.txt",
        ),
    ]


def _display_problem(bus: Path, address: int) -> str | None:
    """Why no real display can be measured here, or None if one answers."""
    if not bus.exists():
        return f"skipped: no {bus} here (not a Raspberry Pi with I2C enabled)"
    from hal.oled import probe_display

    problem = probe_display(int(bus.name.rsplit("-", 1)[1]), address)
    return None if problem is None else f"skipped: {problem}"


def _cycle(device: Any, images: list[Image.Image]) -> Callable[[], None]:
    """A call that shows the next of ``images`` on ``device``, round and round."""
    frames = _forever(images)
    return lambda: device.display(next(frames))


def _game_frames(settings: Settings) -> list[Image.Image]:
    from firmware.screens import render

    tap = play_game(settings)
    return [render(view) for view in tap.views]


# --- the machine -------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    """Platform, Python and CPU model of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            name, _, value = line.partition(":")
            if name.strip() in ("model name", "Model"):
                cpu = value.strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu,
        "cores": str(os.cpu_count() or 1),
    }
