"""Measuring the Schockbesteck: speed, memory and I2C traffic, on a laptop and on the Pi.

:func:`run_benchmarks` takes every measurement in turn and returns :class:`Measurement` values;
``schocken bench`` (:mod:`sim.bench.cli`) prints them as a table or as JSON. What is
measured, and how:

* the engine: evaluating a throw, settling a round, the exact odds (a query, the tables of a rule
  set and those an odds bot needs) and ``simulate``;
* two whole games with two people and two odds bots on the device's own wiring (gpiozero's mock
  pins, luma's SSD1306 driver on a counting bus, the journal with fsync, the odds worker's
  thread), one played by a random robot and one by a human-like player
  (:mod:`sim.bench.whole_game`): the main loop's longest step, the latency from an edge to the last
  I2C byte, the bytes and transactions each screen change costs on the Pi's bus, and the render
  time of each distinct screen;
* the idle main loop on the real monotonic clock: CPU time and wake-ups;
* the idle simulator: a ``schocken sim`` process in its window (SDL's dummy video driver) and in
  its terminal (a pseudo-terminal), waiting for a key: its CPU time over the wall time;
* fresh ``schocken sim --script`` and ``schocken run`` processes (the latter on mock pins and a
  counting bus): the time from the start to the first frame and the peak resident memory; and
  the CPU time of ``schocken rank`` and ``schocken odds`` against a bare interpreter;
* real dice at the table: the presses and seconds four players' results take to enter on the
  buttons (:mod:`sim.bench.dice_entry`, on the fake clock);
* a tournament's hub (:mod:`sim.bench.hub_load`): 100 simulated tables on a real mosquitto,
  ``schocken hub serve`` as a subprocess: a result's way from the table's journal to the TV
  view, the hub's and the broker's memory and CPU meanwhile, and the results a second it takes;
* a DM's hall (the same, :mod:`sim.bench.phones`): 150 tables and 600 phones on the hub's
  event stream: the bytes a phone gets per result, the hub's CPU and memory with them watching,
  and a result's way to the TV meanwhile;
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
import resource
import shutil
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

from engine.rules import Rules, toml_value
from sim.bench.figures import Measurement, percentile
from sim.tournament.processes import tied_to_this_process

__all__ = [
    "GROUPS",
    "Measurement",
    "Settings",
    "bus_speed",
    "machine",
    "run_benchmarks",
]


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to measure. :meth:`quick` takes about ten seconds, for the test suite."""

    evaluations: int = 400_000
    settlements: int = 20_000
    odds_queries: int = 200
    simulate_games: int = 300
    render_repeats: int = 20
    game_deckel: int = 7
    idle_s: float = 10.0
    sim_idle_s: float = 5.0
    #: How long a measured ``schocken sim`` runs before it measures (start-up, first frames).
    sim_warm_up_s: float = 1.5
    starts: int = 5
    pi_frames: int = 50
    seed: int = 7
    web_presses: int = 200
    crowd_pages: int = 200
    crowd_s: float = 20.0
    #: How long ``schocken run`` plays a game of four odds players before its memory is taken.
    bots_s: float = 20.0
    #: A person pairing (and reloading) this many times under a crowd of ``pairing_pages``.
    pairing_runs: int = 10
    pairing_pages: int = 100
    #: Pages flooding at 1,000 lines a second each, for ``crowd_s``.
    flood_pages: int = 100
    #: Four-player rounds of real dice entered on the buttons.
    entry_rounds: int = 200
    #: The hub's short run (:meth:`sim.bench.hub_load.HubBenchSettings.quick`): 3 s, not 60.
    hub_quick: bool = False

    @classmethod
    def quick(cls) -> Settings:
        return cls(
            evaluations=20_000,
            settlements=1_000,
            odds_queries=5,
            simulate_games=10,
            render_repeats=2,
            game_deckel=3,
            idle_s=0.5,
            sim_idle_s=0.5,
            sim_warm_up_s=1.0,
            starts=1,
            pi_frames=5,
            web_presses=8,
            crowd_pages=10,
            crowd_s=1.0,
            bots_s=1.0,
            pairing_runs=2,
            pairing_pages=10,
            flood_pages=10,
            entry_rounds=10,
            hub_quick=True,
        )


Progress = Callable[[str], None]

#: The bench's groups of rows, in the order of the table: what ``schocken bench --only`` names.
GROUPS: dict[str, str] = {
    "engine": "throw evaluation and settling a round",
    "odds": "the odds, the hints and simulate",
    "games": "two whole games on the device's wiring, and the screens they showed",
    "idle": "the idle main loop",
    "simulator": "the idle simulator, in its window and in its terminal",
    "web": "the table's page with 20 pages connected, and under a crowd",
    "entry": "entering real dice on the buttons",
    "start-up": "start-up and memory of `schocken sim` and `run`, CPU of `rank` and `odds`",
    "evening": "an evening: the Spielberichtsbogen and the standings",
    "hub": "a tournament's hub: 100 tables on a real mosquitto",
    "phones": "a DM's hall: 150 tables on a real mosquitto and 600 phones on the hub's stream",
    "display": "the display on this machine's I2C bus (a Raspberry Pi's)",
}


def run_benchmarks(
    settings: Settings | None = None,
    progress: Progress | None = None,
    only: frozenset[str] | None = None,
) -> list[Measurement]:
    """Every measurement, in the order of the table; ``progress`` hears what is being measured.
    ``only``: the rows of just these :data:`GROUPS` (None: all of them)."""
    settings = settings if settings is not None else Settings()
    step = progress if progress is not None else (lambda what: None)
    chosen = frozenset(GROUPS) if only is None else only
    unknown = sorted(chosen - set(GROUPS))
    if unknown:
        raise ValueError(f"no such group of rows: {', '.join(unknown)}")
    results: list[Measurement] = []
    if "engine" in chosen:
        step("engine")
        results += engine_speed(settings)
    if "odds" in chosen:
        step("odds and simulation")
        results += odds_speed(settings)
    records: dict[str, Any] = {}
    if "games" in chosen:
        step("two whole games on the device's wiring")
        records = play_games(settings)
        results += game_figures(records)
        step("the screens")
        results += render_speed(settings, records)
    if "idle" in chosen:
        step(f"the idle main loop ({settings.idle_s:g} s)")
        results += idle_loop(settings)
    if "simulator" in chosen:
        step(f"the idle simulator, window and terminal at once ({settings.sim_idle_s:g} s)")
        results += idle_simulator(settings)
    if "web" in chosen:
        step("the table's page with 20 pages connected")
        results += web_pages(settings)
    if "entry" in chosen:
        step("entering real dice on the buttons")
        results += entry_speed(settings)
    if "start-up" in chosen:
        step("start-up of `schocken sim`, `schocken run`, `rank` and `odds`")
        results += start_up(settings)
    if "evening" in chosen:
        step("an evening: the Spielberichtsbogen and the standings")
        from sim.bench.evening_sheet import sheet_figures

        results += sheet_figures(2 if settings.render_repeats < 5 else 5)
    if "hub" in chosen:
        step("a tournament's hub: 100 tables on a real mosquitto")
        results += hub_bench(settings)
    if "phones" in chosen:
        step("a DM's hall: 150 tables and 600 phones")
        results += hall_bench(settings)
    if "display" in chosen:
        step("the display on this machine's I2C bus")
        results += real_display(settings, records)
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


def hub_bench(settings: Settings) -> list[Measurement]:
    """A tournament's hub with 100 tables live on a real mosquitto (:mod:`sim.bench.hub_load`);
    skipped, in one line, where mosquitto is not installed."""
    from sim.bench.hub_load import HubBenchSettings, hub_figures

    return hub_figures(HubBenchSettings.quick() if settings.hub_quick else HubBenchSettings())


def hall_bench(settings: Settings) -> list[Measurement]:
    """A DM's hall: 150 tables on a real mosquitto and 600 phones on the hub's event stream
    (:mod:`sim.bench.hub_load`, :mod:`sim.bench.phones`); skipped, in one line, as the hub's."""
    from sim.bench.hub_load import HubBenchSettings, hub_figures

    return hub_figures(HubBenchSettings.hall(quick=settings.hub_quick))


def entry_speed(settings: Settings) -> list[Measurement]:
    """Real dice: the presses and seconds a table of four needs to enter a round's results
    (:mod:`sim.bench.dice_entry`; on a fake clock at a practised hand's timing)."""
    from sim.bench.dice_entry import entry_figures

    return entry_figures(settings.entry_rounds, settings.seed)


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


# --- odds and simulate ------------------------------------------------------------------------


def odds_speed(settings: Settings) -> list[Measurement]:
    """An odds query, the odds tables built from scratch (a hint's, and an odds bot's as the odds
    worker builds them when a game begins), and ``simulate``'s rounds per second.

    A query is ``chance_to_beat`` from the start of a turn against a throw not asked about
    before (a goal's table is memoised, so a repeated query costs next to nothing). A build is
    ``build_tables`` for a rule set seen for the first time (renamed, so no cache helps); the odds
    bot's tables are :func:`firmware.work.prepare_tables` after every table was forgotten.
    ``simulate`` plays 3 threshold bots after one warm-up game that builds their turn tables.
    """
    from engine import odds
    from engine.bots import clear_caches, make_strategy
    from engine.rules import load_preset
    from engine.simulation import Simulator
    from engine.throws import rank_table
    from firmware.work import prepare_tables

    rules = load_preset("standard")
    builds = max(1, min(3, settings.odds_queries // 50))
    started = time.perf_counter()
    for index in range(builds):
        odds.build_tables(dataclasses.replace(rules, name=f"bench-{os.getpid()}-{index}"))
    build_s = (time.perf_counter() - started) / builds

    bot_tables_s = float("inf")
    for _ in range(builds):
        clear_caches()
        started = time.perf_counter()
        prepare_tables(rules, ["odds"])
        bot_tables_s = min(bot_tables_s, time.perf_counter() - started)

    hint_opener_s, opening_s, hint_later_s = _hint_speed(rules)

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

    simulator = Simulator(rules, [make_strategy("threshold")] * 3)
    rng = random.Random(settings.seed)
    simulator.play_game(rng)
    rounds = 0
    started = time.perf_counter()
    for _ in range(settings.simulate_games):
        rounds += simulator.play_game(rng).rounds
    rounds_per_s = rounds / (time.perf_counter() - started)
    return [
        Measurement("odds_query_ms", "odds query, a throw not asked before", query_s * 1e3, "ms"),
        Measurement(
            "odds_table_build_ms", "odds tables of a rule set (standard)", build_s * 1e3, "ms",
            target=100,
        ),
        Measurement(
            "odds_bot_tables_ms", "... and an odds bot's (the worker's job)", bot_tables_s * 1e3,
            "ms",
        ),
        Measurement(
            "hint_opener_ms", "a hint: the opener's, not prepared (3 players)",
            hint_opener_s * 1e3, "ms",
        ),
        Measurement(
            "hint_opening_prepared_ms", "... the opener's objective prepared (the worker's job)",
            opening_s * 1e3, "ms",
        ),
        Measurement(
            "hint_later_ms", "a hint: a later player's in a new situation (3 players)",
            hint_later_s * 1e3, "ms",
        ),
        Measurement(
            "simulate_rounds_per_s", "simulate (3 threshold bots)", rounds_per_s, "rounds/s",
            target=100_000, at_least=True,
        ),
    ]  # fmt: skip


def _hint_speed(rules: Rules) -> tuple[float, float, float]:
    """Seconds for a hint of a new situation, from tables as a game begins with an odds bot:
    the opener's first hint unprepared; the opener's objective prepared on the worker (what
    the roll-off hides); a later player's hint after the opener stood on two throws."""
    from engine import Game, GameSetup
    from engine.bots import clear_caches
    from firmware.advice import best_hint
    from firmware.work import prepare_tables

    def opened() -> Game:
        game = Game(GameSetup(("A", "B", "C"), rules))
        game.roll_off([(1, 1, 1), (2, 2, 2), (2, 2, 2)])
        game.roll((6, 3, 1))
        return game

    clear_caches()
    prepare_tables(rules, ["odds"])
    started = time.perf_counter()
    best_hint(opened())
    hint_opener_s = time.perf_counter() - started

    clear_caches()
    prepare_tables(rules, ["odds"])
    started = time.perf_counter()
    prepare_tables(rules, [], 3)
    opening_s = time.perf_counter() - started

    game = opened()
    game.roll((5, 4), keep=(2,))  # the 1 laid out, then 1-5-4: stand after two throws
    game.stand()
    game.roll((6, 6, 2))
    started = time.perf_counter()
    best_hint(game)
    hint_later_s = time.perf_counter() - started
    return hint_opener_s, opening_s, hint_later_s


# --- whole games on the device's wiring --------------------------------------------------------

#: The players of the bench's two games: key, label, and how to make one.
_PLAYERS: tuple[tuple[str, str], ...] = (("robot", "random robot"), ("human", "human-like"))


def _player(key: str, seed: int) -> Any:
    from sim.bench.whole_game import HumanLike, RandomRobot

    return RandomRobot(seed) if key == "robot" else HumanLike(seed)


def play_games(settings: Settings) -> dict[str, Any]:
    """The bench's two whole games on the device's wiring (:mod:`sim.bench.whole_game`), by player.

    Four seats, two people and two odds bots, under the standard rules with ``game_deckel``
    Deckel; before each game every odds table is forgotten, as after a boot.
    """
    from engine.bots import clear_caches
    from engine.rules import load_preset
    from sim.bench.whole_game import play_on_the_wiring

    rules = dataclasses.replace(load_preset("standard"), deckel=settings.game_deckel)
    records = {}
    for key, _ in _PLAYERS:
        clear_caches()
        player = _player(key, settings.seed)
        records[key] = play_on_the_wiring(player, rules=rules, seed=settings.seed)
    return records


def game_figures(records: dict[str, Any]) -> list[Measurement]:
    """Per game: the main loop's longest step, the latency of inputs, the I2C traffic."""
    from sim.bench.whole_game import FULL_FRAME_WIRE_BYTES

    results: list[Measurement] = []
    for key, label in _PLAYERS:
        record = records[key]
        # The first frame after the display's initialisation is sent whole, by design.
        changes = record.changes[1:] or record.changes
        wire = [change[0] for change in changes]
        average = statistics.fmean(wire)
        steps = zip(record.step_wall, record.step_fsync, strict=True)
        own = [wall - waited for wall, waited in steps]
        results += [
            Measurement(
                f"{key}_longest_step_ms",
                f"{label}: longest main-loop step, less fsync (wall)",
                max(own) * 1e3,
                "ms",
                target=20,
            ),
            Measurement(
                f"{key}_longest_step_cpu_ms",
                f"{label}: longest main-loop step (CPU)",
                max(record.step_cpu) * 1e3,
                "ms",
                target=20,
            ),
            Measurement(
                f"{key}_longest_fsync_ms",
                f"{label}: longest wait for fsync in a step",
                max(record.step_fsync) * 1e3,
                "ms",
            ),
            Measurement(
                f"{key}_latency_p99_ms",
                f"{label}: edge to last I2C byte, p99",
                percentile(record.latencies, 0.99) * 1e3,
                "ms",
            ),
            Measurement(
                f"{key}_screen_changes",
                f"{label}: screen changes ({record.inputs} inputs, {record.hints} hints)",
                len(changes),
                "changes",
            ),
            Measurement(
                f"{key}_i2c_wire_bytes_avg",
                f"{label}: I2C bytes on the wire per change",
                average,
                "bytes",
            ),
            Measurement(
                f"{key}_i2c_full_frame_pct",
                f"{label}: ... of a whole frame ({FULL_FRAME_WIRE_BYTES:,} bytes)",
                100 * average / FULL_FRAME_WIRE_BYTES,
                "%",
                target=40,
            ),
            Measurement(
                f"{key}_i2c_wire_bytes_max",
                f"{label}: I2C bytes on the wire, worst change",
                max(wire),
                "bytes",
            ),
            Measurement(
                f"{key}_i2c_transactions_avg",
                f"{label}: I2C transactions per change (managed)",
                statistics.fmean(change[1] for change in changes),
                "writes",
            ),
        ]
    return results


def render_speed(settings: Settings, records: dict[str, Any]) -> list[Measurement]:
    """The median time to render one of the screens the games showed (each view ``render_repeats``
    times, the fastest of them counting)."""
    from firmware.screen.screens import render

    views: dict[Any, None] = {}
    for record in records.values():
        views.update(record.views)
    samples = []
    for view in views:
        fastest = float("inf")
        for _ in range(settings.render_repeats):
            started = time.perf_counter()
            render(view)
            fastest = min(fastest, time.perf_counter() - started)
        samples.append(fastest)
    return [
        Measurement(
            "render_ms",
            f"render a screen (median, {len(views):,} screens)",
            statistics.median(samples) * 1e3,
            "ms",
            target=0.06,
        )
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


# --- the idle simulator ------------------------------------------------------------------------

#: ``schocken sim`` as the console script runs it, measuring itself: after ``warm-up`` seconds
#: (start-up and the first frames) its CPU time (every thread: the window or terminal and the
#: firmware's loop) over ``idle`` seconds of wall time, then it ends at once (it keeps nothing).
_IDLE_LAUNCH = """
import os, sys, threading, time
warm_up, idle = float(sys.argv.pop(1)), float(sys.argv.pop(1))
def measure():
    time.sleep(warm_up)
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(idle)
    used, passed = time.process_time() - cpu, time.monotonic() - wall
    print("IDLE_CPU", used, passed, file=sys.stderr, flush=True)
    os._exit(0)
threading.Thread(target=measure, daemon=True).start()
from schockbesteck.cli import main
sys.exit(main(sys.argv[1:]))
"""
#: The terminal the terminal mode is measured in: a default 80x24.
_TERMINAL_SIZE = (80, 24)


def idle_simulator(settings: Settings) -> list[Measurement]:
    """CPU of a whole ``schocken sim`` process with nothing happening, as a share of one core:
    in its window (SDL's dummy video driver) and in its terminal (a pseudo-terminal of 80x24),
    each on the first screen of a 3-player game. The two processes run side by side (each
    idles at a few tenths of a per cent of a core, so neither slows the other)."""
    from concurrent.futures import ThreadPoolExecutor

    argv = ["sim", "--players", "3", "--seed", "1", "--no-save"]
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    results = []
    from sim.window import pygame_problem

    note = pygame_problem() or ""
    window = None
    with ThreadPoolExecutor(max_workers=2) as pool:
        windowed = None if note else pool.submit(
            _idle_share, [*argv], {**env, "SDL_VIDEODRIVER": "dummy"}, settings, None
        )
        in_terminal = pool.submit(
            _idle_share, [*argv, "--terminal"], {**env, "TERM": "xterm-256color"}, settings,
            _TERMINAL_SIZE,
        )
        window = None if windowed is None else windowed.result()
        terminal = in_terminal.result()
    results.append(
        Measurement(
            "sim_window_idle_cpu_pct", "`schocken sim` window, idle: CPU (of one core)", window,
            "%", target=2, note=note,
        )
    )
    results.append(
        Measurement(
            "sim_terminal_idle_cpu_pct", "`schocken sim --terminal` (80x24), idle: CPU", terminal,
            "%", target=2,
        )
    )
    return results  # fmt: skip


def _idle_share(
    argv: list[str], env: dict[str, str], settings: Settings, terminal: tuple[int, int] | None
) -> float:
    """The process's CPU time over wall time, in percent, measured by itself (_IDLE_LAUNCH);
    in a pseudo-terminal of ``terminal`` columns and rows if given."""
    import fcntl
    import pty
    import struct
    import termios

    command = [sys.executable, "-c", _IDLE_LAUNCH, str(settings.sim_warm_up_s),
               str(settings.sim_idle_s), *argv]  # fmt: skip
    master = slave = -1
    streams: dict[str, Any] = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL}
    if terminal is not None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", terminal[1], terminal[0], 0, 0))
        streams = {"stdin": slave, "stdout": slave}
    with tempfile.TemporaryDirectory() as scratch:
        process = subprocess.Popen(
            command, stderr=subprocess.PIPE, text=True, env={**env, "XDG_STATE_HOME": scratch},
            start_new_session=True, **streams, **tied_to_this_process(),
        )  # fmt: skip
        if slave >= 0:
            os.close(slave)
        drain = threading.Thread(target=_drain, args=(master,), daemon=True)
        if master >= 0:
            drain.start()
        try:
            _, err = process.communicate(timeout=settings.sim_warm_up_s + settings.sim_idle_s + 30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            if master >= 0:
                os.close(master)
    noted = [line.split() for line in err.splitlines() if line.startswith("IDLE_CPU ")]
    if not noted:
        last = err.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"`schocken {' '.join(argv)}` measured nothing: {last[0]}")
    used, passed = float(noted[0][1]), float(noted[0][2])
    return 100 * used / passed


def _drain(fd: int) -> None:
    """Read what a process writes to its pseudo-terminal until it closes (a full one blocks)."""
    while True:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return
def web_pages(settings: Settings) -> list[Measurement]:
    """The table's page under load (:mod:`sim.bench.web`): twenty pages during a game, then a
    crowd of unpaired pages at their limits beside a paired one, and a person pairing under a
    crowd."""
    from sim.bench.web import crowd_figures, flood_figures, page_figures, pairing_figures

    return [
        *page_figures(min(settings.idle_s, 5.0), settings.web_presses),
        *crowd_figures(settings.crowd_s, settings.crowd_pages),
        *pairing_figures(settings.pairing_runs, settings.pairing_pages),
        *flood_figures(settings.crowd_s, settings.flood_pages),
    ]


# --- start-up and memory -----------------------------------------------------------------------

#: Notes, at exit, the process's peak resident memory: the kernel's VmHWM of this process image
#: (Linux carries ``ru_maxrss`` over from the parent across fork and exec, so the parent's size,
#: a benchmark that played long games, would show up as the child's).
_PEAK = """
import atexit, sys
def _peak():
    try:
        with open("/proc/self/status") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        kb = kb // 1024 if sys.platform == "darwin" else kb  # bytes there, KiB on Linux
    print("PEAK_RSS_KB", kb, file=sys.stderr, flush=True)
atexit.register(_peak)
"""

#: ``schocken sim`` as the console script runs it, noting when its first frame is shown.
_SIM_LAUNCH = _PEAK + """
import time
import sim.recorder
shown = sim.recorder.FrameRecorder.display
def first(self, image):
    if not sys.__dict__.get("_first_frame_noted"):
        sys._first_frame_noted = True
        print("FIRST_FRAME", time.monotonic(), file=sys.stderr, flush=True)
    return shown(self, image)
sim.recorder.FrameRecorder.display = first
from schockbesteck.cli import main
sys.exit(main(sys.argv[1:]))
"""

#: ``schocken run`` as the console script runs it on the device's wiring, with gpiozero's mock
#: pins (GPIOZERO_PIN_FACTORY=mock) and the OLED backend on a bus that notes when the last byte of
#: the first frame arrives (luma's driver blanks the panel first: 1024 pixel bytes of set-up, then
#: the first frame is sent whole); then it stops as systemd stops it, with SIGTERM. With
#: ``SCHOCK_BENCH_BEGIN=1`` the configured game begins at once, as if its setup had just been
#: confirmed in the menu, and it stops once its odds worker built the tables the game needs (or
#: after ``SCHOCK_BENCH_WAIT`` seconds), or after ``SCHOCK_BENCH_RUN`` seconds of play if that is
#: set (computer players play on meanwhile): the memory of a device in a game.
_RUN_LAUNCH = _PEAK + """
import os, signal, threading, time
import firmware.work as work
import firmware.wiring as wiring
from engine import GameSetup
begin = os.environ.get("SCHOCK_BENCH_BEGIN") == "1"
build_device = wiring.build_device
def begun(config, **options):
    setup = GameSetup(config.game.players, config.game.rule_set)
    return build_device(config, setup=setup, **options)
if begin:
    wiring.build_device = begun
playing = float(os.environ.get("SCHOCK_BENCH_RUN", "0"))
stop = lambda: os.kill(os.getpid(), signal.SIGTERM)
noted = set()
def note(what):
    noted.add(what)
    if not playing and noted >= {"frame", "prepared"}:
        stop()
prepare_tables = work.prepare_tables
def prepared(*args, **kwargs):
    prepare_tables(*args, **kwargs)
    print("PREPARED", time.monotonic(), file=sys.stderr, flush=True)
    note("prepared")
work.prepare_tables = prepared
class FirstFrameBus:
    def __init__(self):
        self.pixels = 0
    def write_i2c_block_data(self, address, control, data):
        if control != 0x40 or self.pixels >= 2048:
            return
        self.pixels += len(data)
        if self.pixels >= 2048:
            print("FIRST_FRAME", time.monotonic(), file=sys.stderr, flush=True)
            print("FIRST_FRAME_CPU", time.process_time(), file=sys.stderr, flush=True)
            if not begin:
                stop()
                return
            wait = playing or float(os.environ.get("SCHOCK_BENCH_WAIT", "5"))
            threading.Timer(wait, stop).start()
            note("frame")
import firmware.cli.run as run
import hal.oled as oled
open_resilient_oled = oled.open_resilient_oled
oled.open_resilient_oled = lambda settings=None, clock=None, **options: open_resilient_oled(
    settings, clock, bus=FirstFrameBus(), **options)
missing_hardware = run._missing_hardware
run._missing_hardware = lambda config, gpio_error: (
    None if gpio_error is None else missing_hardware(config, gpio_error))
from schockbesteck.cli import main
sys.exit(main(sys.argv[1:]))
"""

#: A short game for the start-up run: the roll-off and one round.
_SHORT_SCRIPT = "shake\nstand\n" + "shake\nstand\nstand\nstand\n" * 3

#: What the command-line start-up figures run: a bare interpreter, and two subcommands.
_COMMANDS = {
    "bare": ["-c", "pass"],
    "rank": ["-c", "import sys; from schockbesteck.cli import main; sys.exit(main(sys.argv[1:]))",
             "rank", "1", "1", "4"],
    "odds": ["-c", "import sys; from schockbesteck.cli import main; sys.exit(main(sys.argv[1:]))",
             "odds", "--beat", "2", "1", "1", "--thrown", "6", "3", "1"],
}  # fmt: skip


def start_up(settings: Settings) -> list[Measurement]:
    """Seconds from spawning ``schocken sim`` and ``schocken run`` to their first frames, their
    peak memory, and the CPU time of ``schocken rank`` and ``schocken odds`` against a bare
    interpreter.

    Every process runs with compiled bytecode, as an installed device does: the children get a
    private bytecode cache (``PYTHONPYCACHEPREFIX``, whatever ``PYTHONDONTWRITEBYTECODE`` says
    here) and each command runs once to fill it before it is measured.
    """
    sim_firsts, sim_peaks, run_firsts, run_peaks, run_cpus = [], [], [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(scratch) / "bytecode")
        script = Path(scratch) / "short.txt"
        script.write_text(_SHORT_SCRIPT, encoding="utf-8")
        sim_argv = ["sim", "--script", str(script), "--seed", "1", "--players", "3"]
        config = Path(scratch) / "config.toml"
        state = Path(scratch) / "state"
        config.write_text(f"[storage]\nstate_dir = {toml_value(str(state))}\n", encoding="utf-8")
        run_argv = ["run", "--config", str(config)]
        run_env = {**env, "GPIOZERO_PIN_FACTORY": "mock"}
        bots_config = Path(scratch) / "bots.toml"
        bots_config.write_text(
            f"[storage]\nstate_dir = {toml_value(str(state))}\n[game]\n"
            'players = ["Anna", "Ben", "Carla", "Dora"]\nbots = ["odds", "odds", "odds", "odds"]\n',
            encoding="utf-8",
        )  # fmt: skip
        game_env = {**run_env, "SCHOCK_BENCH_BEGIN": "1"}
        bots_env = {**game_env, "SCHOCK_BENCH_RUN": str(settings.bots_s)}
        _start_once(_SIM_LAUNCH, sim_argv, env)  # fills the bytecode cache
        _start_once(_RUN_LAUNCH, run_argv, run_env)
        for _ in range(settings.starts):
            first, peak_kb, _ = _start_once(_SIM_LAUNCH, sim_argv, env)
            sim_firsts.append(first)
            sim_peaks.append(peak_kb)
            shutil.rmtree(state, ignore_errors=True)  # a device's first start: no saved game
            first, _, cpu_s = _start_once(_RUN_LAUNCH, run_argv, run_env)
            run_firsts.append(first)
            run_cpus.append(cpu_s)
            shutil.rmtree(state, ignore_errors=True)
            run_peaks.append(_start_once(_RUN_LAUNCH, run_argv, game_env)[1])  # in a game
        shutil.rmtree(state, ignore_errors=True)
        _, bots_peak_kb, _ = _start_once(_RUN_LAUNCH, ["run", "--config", str(bots_config)],
                                         bots_env)
        cpu = {}
        for name, argv in _COMMANDS.items():
            _fastest_cpu(argv, 1, env)
            cpu[name] = _fastest_cpu(argv, settings.starts + 2, env)
    count = len(sim_firsts)
    return [
        Measurement(
            "first_frame_s",
            f"`schocken sim`: start to first frame (median of {count})",
            statistics.median(sim_firsts),
            "s",
            target=0.6,
        ),
        Measurement(
            "run_first_frame_s",
            f"`schocken run`: start to first frame (median of {count})",
            statistics.median(run_firsts),
            "s",
            target=0.25,
        ),
        Measurement(
            "run_first_frame_cpu_s",
            "`schocken run`: CPU time to the first frame",
            min(run_cpus),
            "s",
        ),
        Measurement(
            "peak_rss_mb", "peak resident memory (`schocken sim`)", max(sim_peaks) / 1024, "MB",
            target=60,
        ),
        Measurement(
            "run_peak_rss_mb", "peak resident memory (`schocken run`, a game's tables built)",
            max(run_peaks) / 1024, "MB", target=60,
        ),
        Measurement(
            "run_bots_peak_rss_mb",
            f"peak resident memory (`schocken run`, 4 odds players, {settings.bots_s:g} s)",
            bots_peak_kb / 1024, "MB", target=60,
        ),
        Measurement("bare_cpu_ms", "a bare interpreter (`python -c pass`), CPU", cpu["bare"] * 1e3,
                    "ms"),
        Measurement(
            "rank_cpu_ratio",
            "`schocken rank 1 1 4`, CPU per bare interpreter",
            cpu["rank"] / cpu["bare"],
            "×",
            target=2,
        ),
        Measurement(
            "odds_cpu_ratio",
            "`schocken odds --beat 2 1 1 --thrown 6 3 1`, CPU per bare",
            cpu["odds"] / cpu["bare"],
            "×",
            target=2,
        ),
    ]  # fmt: skip


def _start_once(launch: str, argv: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """(seconds to the first frame, peak resident set in KiB, CPU seconds to the first frame if
    the process notes them, else NaN) of one process."""
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-c", launch, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        env=env,
    )
    noted = dict(line.split(" ", 1) for line in process.stderr.splitlines() if " " in line)
    if process.returncode != 0 or "FIRST_FRAME" not in noted or "PEAK_RSS_KB" not in noted:
        last = process.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(
            f"`schocken {argv[0]}` showed no frame (exit {process.returncode}): {last[0]}"
        )
    cpu = float(noted.get("FIRST_FRAME_CPU", "nan"))
    return float(noted["FIRST_FRAME"]) - started, int(noted["PEAK_RSS_KB"]), cpu


def _fastest_cpu(argv: list[str], runs: int, env: dict[str, str]) -> float:
    """The least CPU time (user and system) of ``runs`` runs of ``python argv``."""
    fastest = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, *argv], stdout=subprocess.DEVNULL, check=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        fastest = min(fastest, used)
    return fastest


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
                    if name.strip() in ("i2c_arm_baudrate", "i2c_baudrate") and value.isdigit():
                        return int(value), f"{path} (dtparam)"
            continue
        if path.name == "clock-frequency" and len(raw) == 4:
            return int.from_bytes(raw, "big"), str(path)
        text = raw.decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text), str(path)
    return None


def real_display(settings: Settings, records: dict[str, Any]) -> list[Measurement]:
    """Frames per second on the real panel, and the bus speed, when a display answers here
    (its game frames those of ``records``, or of the bench's two games played for it).

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
    game_images = _game_frames(records or play_games(settings))
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


def _game_frames(records: dict[str, Any]) -> list[Image.Image]:
    from firmware.screen.screens import render

    return [render(view) for view in records["human"].views]


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
