"""Play Schockbesteck on a laptop: the device's firmware in a window, a terminal or a script.

Without a display (or with --terminal) the device is drawn in the terminal; with --script FILE
the game runs headless on a simulated clock, much faster than it describes, and --frames,
--record and --events write what happened. See docs/simulator.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # the modes import what they need when they run, to start quickly
    from firmware.config import DeviceConfig

    from hal.ports import Clock, Display, InputBackend

__all__ = ["DEFAULT_NAMES", "Device", "add_arguments", "build_device", "run"]

#: Names for --players N when the configuration names fewer players.
DEFAULT_NAMES = ("Anna", "Ben", "Carla", "Dieter", "Elke", "Fritz", "Gabi", "Heinz", "Ilse", "Jupp")


class UsageError(ValueError):
    """A bad option: printed as one line by the CLI, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``schocken sim``."""
    mode = parser.add_argument_group("mode (default: a window, or the terminal without display)")
    mode.add_argument("--terminal", action="store_true", help="play in the terminal")
    mode.add_argument(
        "--script", metavar="FILE", help="play the actions in FILE headless on a simulated clock"
    )
    mode.add_argument(
        "--gpio-mock",
        action="store_true",
        help="keys drive gpiozero mock pins read by the device's own GPIO backend",
    )
    game = parser.add_argument_group("game (any of these skips the setup menu)")
    game.add_argument("--players", type=int, metavar="N", help="number of players, 2-10")
    game.add_argument("--names", metavar="A,B,C", help="player names in seat order")
    game.add_argument("--rules", metavar="NAME|FILE", help="a rules preset or a rules TOML file")
    game.add_argument("--seed", metavar="S", help="seed the dice: the same seed, the same game")
    game.add_argument("--lang", choices=("de", "en"), help="screen language (default: de)")
    parser.add_argument("--config", metavar="PATH", help="a device config.toml (default: built-in)")
    output = parser.add_argument_group("output")
    output.add_argument("--frames", metavar="DIR", help="write every distinct frame as a PNG")
    output.add_argument("--record", metavar="FILE.gif", help="write an animated GIF")
    output.add_argument(
        "--events", metavar="FILE", help="write the game's events as JSON lines ('-': stdout)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the simulator in the mode the options ask for."""
    config, setup = _configure(args)
    if args.record is not None and not args.record.lower().endswith(".gif"):
        raise UsageError(f"--record {args.record}: the file name must end in .gif")
    if args.script is not None and (args.terminal or args.gpio_mock):
        flag = "--terminal" if args.terminal else "--gpio-mock"
        raise UsageError(f"--script plays headless: {flag} cannot be used with it")
    from firmware.dice import SeededDice, SystemDice

    dice = SeededDice(args.seed) if args.seed is not None else SystemDice()
    with _event_output(args.events) as sink:
        if args.script is not None:
            return _run_script(args, config, setup, dice, sink)
        return _run_interactive(args, config, setup, dice, sink)


# --- configuration -----------------------------------------------------------------------------


def _configure(args: argparse.Namespace) -> tuple[DeviceConfig, Any]:
    """The device config (with --lang applied) and the game setup the options ask for (or None)."""
    import dataclasses

    from firmware.config import load_config

    from engine.game import MAX_PLAYERS, MIN_PLAYERS, GameSetup
    from firmware.rulesfile import load_rules

    config = load_config(args.config)
    if args.lang is not None:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, language=args.lang)
        )
    if args.players is None and args.names is None and args.rules is None and args.seed is None:
        return config, None
    if args.players is not None and not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise UsageError(
            f"--players {args.players}: allowed are {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    if args.names is not None:
        names = tuple(name.strip() for name in args.names.split(","))
        if args.players is not None and args.players != len(names):
            raise UsageError(
                f"--players {args.players} but --names gives {len(names)} names: "
                "give as many names as players, or leave one option out"
            )
    else:
        count = args.players if args.players is not None else len(config.game.players)
        pool = list(config.game.players)
        pool += [name for name in DEFAULT_NAMES if name not in pool]
        names = tuple(pool[:count])
    rules = load_rules(args.rules) if args.rules is not None else config.game.rule_set
    return config, GameSetup(names, rules)


class _EventSink:
    """Writes each engine event (a dict with "event") as one JSON line."""

    def __init__(self, stream: IO[str] | None) -> None:
        self._stream = stream
        self.count = 0
        self.last: dict[str, Any] | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        self.count += 1
        self.last = event
        if self._stream is not None:
            self._stream.write(json.dumps(event, ensure_ascii=False) + "\n")
            self._stream.flush()


@contextlib.contextmanager
def _event_output(target: str | None) -> Iterator[_EventSink]:
    """An event sink writing to ``target`` (a path, "-" for stdout, None for nowhere)."""
    if target is None or target == "-":
        yield _EventSink(sys.stdout if target == "-" else None)
        return
    with open(target, "w", encoding="utf-8") as stream:
        yield _EventSink(stream)


# --- the device --------------------------------------------------------------------------------


@dataclass
class Device:
    """The firmware wired to simulator backends: the app, its main loop and the display."""

    app: Any
    loop: Any
    display: Display


def build_device(
    config: DeviceConfig,
    setup: Any,
    *,
    clock: Clock,
    dice: Any,
    inputs: InputBackend,
    display: Display,
    event_sink: Callable[[dict[str, Any]], None] | None = None,
) -> Device:
    """The device's app and main loop on the given clock, input backend and display."""
    from firmware.app import DeviceApp
    from firmware.loop import MainLoop

    from hal.inputs import InputDecoder
    from hal.oled import PowerManager

    app = DeviceApp(config, clock=clock, dice=dice, setup=setup, event_sink=event_sink)
    power = PowerManager(display, clock, config.display)
    loop = MainLoop(
        app,
        clock=clock,
        inputs=inputs,
        decoder=InputDecoder(config.input),
        display=display,
        power=power,
    )
    return Device(app, loop, display)


def _recording(args: argparse.Namespace, clock: Clock, inner: Display | None) -> Any:
    """A FrameRecorder around ``inner`` if --frames or --record asks for one, else None."""
    if args.frames is None and args.record is None:
        return None
    from sim.recorder import FrameRecorder

    return FrameRecorder(clock, inner, frames_dir=args.frames, gif_path=args.record)


# --- headless ----------------------------------------------------------------------------------


def _run_script(
    args: argparse.Namespace, config: DeviceConfig, setup: Any, dice: Any, sink: _EventSink
) -> int:
    from sim.fakes import FakeClock
    from sim.recorder import FrameRecorder
    from sim.script import ScriptInput, load_script

    actions = load_script(args.script)
    clock = FakeClock()
    recorder = _recording(args, clock, None) or FrameRecorder(clock)
    script = ScriptInput(actions, clock, config.input)
    device = build_device(
        config, setup, clock=clock, dice=dice, inputs=script, display=recorder, event_sink=sink
    )
    started = time.perf_counter()
    device.loop.run(until=script.end)
    recorder.close()
    elapsed = time.perf_counter() - started
    outcome = ""
    if sink.last is not None and sink.last.get("event") == "game_over":
        outcome = f"; game over, {sink.last.get('loser')} lost"
    wrote = [f"{recorder.files_written} frames to {args.frames}"] if args.frames else []
    wrote += [str(args.record)] if args.record else []
    print(
        f"schocken sim: {len(actions)} actions played, {clock.now():.1f} s of game time "
        f"in {elapsed:.2f} s{outcome}" + (f"; wrote {', '.join(wrote)}" if wrote else ""),
        file=sys.stderr,
    )
    return 0


# --- window and terminal -----------------------------------------------------------------------


def _run_interactive(
    args: argparse.Namespace, config: DeviceConfig, setup: Any, dice: Any, sink: _EventSink
) -> int:
    import threading

    from hal.clock import MonotonicClock
    from sim.controls import EdgeHands, Hands

    clock = MonotonicClock()
    hands: Hands
    if args.gpio_mock:
        from sim.gpio_mock import MockPinHands

        hands = inputs = MockPinHands(clock, config.pins)
    else:
        hands = inputs = EdgeHands(clock)
    front_end = None if args.terminal else _try_window(hands)
    ui: Any
    if front_end is None:
        from sim.terminal import TerminalDisplay, TerminalUI

        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise UsageError(
                "no display and no terminal to play in: use --script FILE to play headless"
            )
        screen: Any = TerminalDisplay()
        hold_s = config.input.hold_s + 0.2
        ui = TerminalUI(hands, screen, hold_s=hold_s)
    else:
        ui, screen = front_end
    recorder = _recording(args, clock, screen)
    device = build_device(
        config,
        setup,
        clock=clock,
        dice=dice,
        inputs=inputs,
        display=recorder if recorder is not None else screen,
        event_sink=sink,
    )
    failure: list[BaseException] = []

    def firmware() -> None:
        try:
            device.loop.run()
        except BaseException as error:  # shown after the UI has given the screen back
            failure.append(error)

    thread = threading.Thread(target=firmware, name="firmware", daemon=True)
    thread.start()
    try:
        ui.run(keep_going=thread.is_alive)
    finally:
        device.loop.stop()
        thread.join(timeout=2)
        ui.close()
        inputs.close()
        if recorder is not None:
            recorder.close()
    if failure:
        raise failure[0]
    return 0


def _try_window(hands: Any) -> tuple[Any, Any] | None:
    """The window and its display, or None after saying in one line why there is no window."""
    from sim.window import WindowDisplay, WindowUnavailable, open_window

    screen = WindowDisplay()
    try:
        return open_window(hands, screen), screen
    except WindowUnavailable as reason:
        print(
            f"schocken sim: {reason}; playing in the terminal instead "
            "(--terminal skips the window)",
            file=sys.stderr,
        )
        return None
