"""Play Schockbesteck on a laptop: the device's firmware in a window, a terminal or a script.

Without a display (or with --terminal) the device is drawn in the terminal; with --script FILE
the game runs headless on a simulated clock, much faster than real time, and --frames,
--record and --events write what happened. See docs/simulator.md.

Games are kept as on the device: journal, resume, statistics. In the window and the terminal
they go to the user's state directory (~/.local/state/schockbesteck); a game left unfinished
is offered again at the next start ("Weiterspielen?"). --script runs keep nothing unless
--state-dir (or the config's [storage] state_dir) asks them to; --no-save keeps nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from engine.limits import ascii_whole_number
from firmware.sink import DeviceEvent, event_json
from firmware.words import LANGUAGES
from sim.outputs import PendingOutputs, pending_outputs

if TYPE_CHECKING:  # the modes import what they need when they run, to start quickly
    from engine.events import GameOver
    from firmware.config import DeviceConfig
    from firmware.loop import MainLoop
    from firmware.wiring import Device
    from hal.ports import Clock, Display
    from hal.serial_link import SerialLink
    from hal.storage import StateDirectory
    from hal.web_server import WebServer
    from sim.controls import HandsInput, Say
    from sim.fakes import FakeClock
    from sim.recorder import FrameRecorder, LatestFrame
    from sim.script import ScriptInput

__all__ = ["DEFAULT_NAMES", "add_arguments", "run"]

#: Names for --players N when the configuration names fewer players.
DEFAULT_NAMES = ("Anna", "Ben", "Carla", "Dieter", "Elke", "Fritz", "Gabi", "Heinz", "Ilse", "Jupp")


#: Where ``--web`` serves the table's page when no address is given: this computer only.
DEFAULT_WEB = "127.0.0.1:8080"


#: How an empty option is shown in a message.
EMPTY = "''"


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
    mode.add_argument(
        "--attach",
        metavar="PORT|URL",
        help="be a remote panel for a device on a serial port or URL (docs/protocol.md): "
        "show its screen, send it the buttons and shakes",
    )
    parser.add_argument(
        "--pin",
        metavar="PIN",
        help="with --attach: pair with the device, giving the PIN its menu shows under Koppeln "
        "(Pair); unpaired, the panel shows the table's view and cannot press",
    )
    parser.add_argument(
        "--link",
        metavar="URL",
        help="offer the serial link, e.g. tcp-listen://127.0.0.1:7777 (docs/protocol.md)",
    )
    parser.add_argument(
        "--web",
        nargs="?",
        const=DEFAULT_WEB,
        metavar="HOST:PORT",
        help=f"serve the table's page (docs/web.md), on {DEFAULT_WEB} if no address is given; "
        "with --script the script plays in real time and the page stays up until Ctrl+C",
    )
    game = parser.add_argument_group("game (any of these skips the setup menu)")
    game.add_argument("--players", metavar="N", help="number of players, 2-10")
    game.add_argument("--names", metavar="A,B,C", help="player names in seat order")
    game.add_argument("--rules", metavar="NAME|FILE", help="a rules preset or a rules TOML file")
    game.add_argument(
        "--seed", metavar="S", help="seed the dice, 0 to 2^63: the same seed, the same game"
    )
    game.add_argument(
        "--bots",
        metavar="STRATEGY,...",
        help="computer players, one entry per seat: odds, threshold, or empty (or human) for a "
        "person, e.g. --players 3 --bots ,odds,threshold",
    )
    game.add_argument("--lang", choices=LANGUAGES, help="screen language (default: de)")
    parser.add_argument(
        "--real-dice",
        action="store_true",
        help="the table throws real dice and enters each result on the buttons (the config's "
        "[game] real_dice); the setup menu still comes first unless a game option is given",
    )
    parser.add_argument("--config", metavar="PATH", help="a device config.toml (default: built-in)")
    saving = parser.add_argument_group("saving (as on the device: journal, resume, statistics)")
    keep = saving.add_mutually_exclusive_group()
    keep.add_argument(
        "--state-dir",
        metavar="DIR",
        help="keep the games in DIR (default: the config's [storage] state_dir if it names one, "
        "else ~/.local/state/schockbesteck; --script runs keep nothing unless asked)",
    )
    keep.add_argument(
        "--no-save", action="store_true", help="keep nothing: no resume, no statistics"
    )
    output = parser.add_argument_group("output")
    output.add_argument("--frames", metavar="DIR", help="write every distinct frame as a PNG")
    output.add_argument("--record", metavar="FILE.gif", help="write an animated GIF")
    output.add_argument(
        "--events", metavar="FILE", help="write the game's events as JSON lines ('-': stdout)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the simulator in the mode the options ask for."""
    from firmware.cli.common import seed_from_text

    seed = seed_from_text(args.seed) if args.seed is not None else None  # as simulate's
    config, setup = _configure(args)
    if args.record is not None and not args.record.lower().endswith(".gif"):
        raise UsageError(f"--record {args.record}: the file name must end in .gif")
    if args.script is not None and (args.terminal or args.gpio_mock):
        flag = "--terminal" if args.terminal else "--gpio-mock"
        raise UsageError(f"--script plays headless: {flag} cannot be used with it")
    if args.pin is not None and args.attach is None:
        raise UsageError("--pin pairs a remote panel: give --attach PORT|URL too")
    if args.pin is not None and not (args.pin.isascii() and args.pin.isdigit()):
        raise UsageError(f"--pin {args.pin!r}: the PIN is the digits the device shows")
    if args.web is not None:
        _web_address(args.web)  # a bad address fails before anything starts
        if args.attach is not None:
            raise UsageError("--web serves this simulator's own game: not with --attach")
    if args.attach is not None:
        with pending_outputs() as outputs:
            return _run_attached(args, config, setup, _recording(args, outputs))
    if args.link is not None and args.script is not None:
        raise UsageError("--link needs the window or the terminal: it cannot be used with --script")
    from firmware.dice import SeededDice, SystemDice

    dice = SeededDice(seed) if seed is not None else SystemDice()
    # A bad script is refused before any output or the state directory is touched.
    actions = _load_script(args.script) if args.script is not None else None
    with (
        _state_directory(_state_dir(args, config)) as storage,
        pending_outputs() as outputs,
        _event_output(args.events, outputs) as sink,
    ):
        recording = _recording(args, outputs)
        if actions is not None:
            return _run_script(args, config, setup, dice, sink, recording, storage, actions)
        return _run_interactive(args, config, setup, dice, sink, recording, storage)


def _web_address(text: str) -> tuple[str, int]:
    """``--web HOST:PORT`` as (host, port), or a UsageError naming what is wrong."""
    from firmware.config import parse_listen

    try:
        return parse_listen(text)
    except ValueError as error:
        raise UsageError(f"--web {error}") from None


def _web_server(
    args: argparse.Namespace, config: DeviceConfig, notices: list[str] | None = None
) -> WebServer | None:
    """The table's page if ``--web`` asks for it; says where on stderr (and in ``notices``, the
    lines the terminal shows: its full screen soon covers stderr)."""
    if args.web is None:
        return None
    from firmware.cli.run import open_web_server

    server = open_web_server(*_web_address(args.web))
    host, port = server.address
    shown = f"[{host}]" if ":" in host else host
    where = _words(config)("sim_page_where", url=f"http://{shown}:{port}/")
    print(f"schocken sim: {where}", file=sys.stderr)
    if notices is not None:
        notices.insert(0, where)
    return server


# --- where the games are kept -------------------------------------------------------------------


def _state_dir(args: argparse.Namespace, config: DeviceConfig) -> Path | None:
    """The folder that keeps the games, or None to keep nothing (see the module's doc)."""
    from hal.storage import user_state_dir

    if args.no_save:
        return None
    if args.state_dir is not None:
        return _named_state_dir(args.state_dir, f"--state-dir {args.state_dir or EMPTY}")
    if "storage.state_dir" in config.given:
        named = config.storage.state_dir
        return _named_state_dir(named, f"{config.origin}: storage.state_dir = {named!r}")
    if args.script is not None:
        return None
    return user_state_dir()


def _named_state_dir(text: str, where: str) -> Path:
    """A state directory the user named: a folder, or a new one in a folder that exists."""
    from firmware.userfile import missing_folder

    if not text:
        raise UsageError(f"{where}: the empty string is not a folder; give a folder to keep the "
                         "games in, or play with --no-save")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise UsageError(f"{where}: is a file, not a folder; give a folder to keep the games in")
    missing = missing_folder(path)
    if not path.exists() and missing is not None:
        raise UsageError(
            f"{where}: its folder {missing} does not exist; create it first, or give another"
        )
    return path


@contextlib.contextmanager
def _state_directory(path: Path | None) -> Iterator[StateDirectory | None]:
    """The state directory at ``path``, locked for this run alone (None: keep nothing)."""
    if path is None:
        yield None
        return
    from firmware.userfile import path_problem
    from hal.ports import StorageError
    from hal.storage import StateDirectory, StateDirectoryBusy

    storage = StateDirectory(path)
    try:
        storage.lock()
    except StateDirectoryBusy as busy:
        raise UsageError(
            f"{busy}: end that game first, or play with --state-dir DIR or --no-save"
        ) from None
    except StorageError as error:
        raise UsageError(
            f"state directory {path}: {path_problem(path, error, 'write')}; give another with "
            "--state-dir DIR, or play with --no-save"
        ) from None
    try:
        yield storage
    finally:
        storage.unlock()


def _left_unfinished(storage: StateDirectory | None, say: Say) -> str:
    """A note that a game waits in ``storage`` for the next start, or "": not when its journal
    holds nothing played or entered yet (quit before the first throw), since the next start
    drops such a game rather than offer it."""
    from firmware.store.gamestore import CURRENT
    from firmware.store.journal import JournalError, recover
    from hal.ports import StorageError

    if storage is None or storage.size(CURRENT) is None:
        return ""
    try:
        recovery = recover(storage, CURRENT)
    except (JournalError, StorageError):
        recovery = None  # damaged: kept and set aside at the next start, so say it is kept
    else:
        if recovery is None or recovery.unplayed:
            return ""
    return say("sim_kept", folder=storage.root)


# --- configuration -----------------------------------------------------------------------------


def _configure(args: argparse.Namespace) -> tuple[DeviceConfig, Any]:
    """The device config (with --lang applied) and the game setup the options ask for (or None)."""
    import dataclasses

    from engine.errors import IllegalActionError
    from engine.game import MAX_PLAYERS, MIN_PLAYERS, GameSetup
    from firmware.config import load_config
    from firmware.names import name_problem
    from firmware.store.rulesfile import load_rules

    config = load_config(args.config)
    if args.lang is not None:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, language=args.lang)
        )
    if args.real_dice:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, real_dice=True)
        )
    chosen = (args.players, args.names, args.rules, args.seed, args.bots)
    if all(option is None for option in chosen):
        return config, None
    players: int | None = None
    if args.players is not None:
        players = ascii_whole_number(args.players)
        if players is None:
            raise UsageError(
                f"--players {args.players!r}: must be a whole number {MIN_PLAYERS} to "
                f"{MAX_PLAYERS} (digits 0-9)"
            )
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UsageError(
                f"--players {players}: allowed are {MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
    if args.names is not None:
        names = tuple(name.strip() for name in args.names.split(","))
        problem = next(filter(None, map(name_problem, names)), None)
        if problem is not None:
            raise UsageError(f"--names: {problem}")
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise UsageError(
                f"--names {args.names!r} gives {len(names)} name{'s' * (len(names) != 1)}: "
                f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
        if players is not None and players != len(names):
            raise UsageError(
                f"--players {players} but --names gives {len(names)} names: "
                "give as many names as players, or leave one option out"
            )
    else:
        count = players if players is not None else len(config.game.players)
        if players is None and args.bots is not None:
            count = len(args.bots.split(","))
        pool = list(config.game.players)
        pool += [name for name in DEFAULT_NAMES if name not in pool]
        names = tuple(pool[:count])
    rules = load_rules(args.rules) if args.rules is not None else config.game.rule_set
    if args.bots is not None:
        bots = _bots(args.bots, len(names))
        config = dataclasses.replace(config, game=dataclasses.replace(config.game, bots=bots))
    try:
        setup = GameSetup(names, rules, config.game.real_dice)
    except IllegalActionError as error:  # spaces, an empty or a repeated name
        raise UsageError(f"--names: {error}" if args.names is not None else str(error)) from None
    return config, setup


def _bots(text: str, seats: int) -> tuple[str, ...]:
    """``--bots``: one strategy per seat, "" for a person."""
    from engine.strategy_names import strategy_names
    from firmware.config import HUMAN_WORDS

    entries = [entry.strip() for entry in text.split(",")]
    allowed = ", ".join(strategy_names())
    if len(entries) != seats:
        raise UsageError(
            f"--bots {text}: {len(entries)} entries for {seats} players: give one per seat "
            f"({allowed}, or empty for a person)"
        )
    for entry in entries:
        if entry not in HUMAN_WORDS and entry not in strategy_names():
            raise UsageError(
                f"--bots {text}: unknown strategy {entry!r}: use {allowed}, or empty (or human) "
                "for a person"
            )
    return tuple("" if entry in HUMAN_WORDS else entry for entry in entries)


class _EventSink:
    """Writes each device event as one JSON line (:func:`firmware.sink.event_json`); notes the
    game's end."""

    def __init__(
        self, stream: IO[str] | None, clock_now: Callable[[], float] | None = None
    ) -> None:
        self._stream = stream
        self.count = 0
        self.last: DeviceEvent | None = None
        self.game_over_at: float | None = None
        self.now = clock_now

    def __call__(self, event: DeviceEvent) -> None:
        from engine.events import GameOver

        self.count += 1
        self.last = event
        if isinstance(event, GameOver) and self.now is not None:
            self.game_over_at = self.now()
        if self._stream is not None:
            self._stream.write(json.dumps(event_json(event), ensure_ascii=False) + "\n")
            self._stream.flush()

    @property
    def game_over(self) -> GameOver | None:
        """The game's end, if it is the last event so far."""
        from engine.events import GameOver

        return self.last if isinstance(self.last, GameOver) else None


@contextlib.contextmanager
def _event_output(target: str | None, outputs: PendingOutputs) -> Iterator[_EventSink]:
    """An event sink writing to ``target`` (a path, "-" for stdout, None for nowhere).

    A path is written under a temporary name that ``outputs`` renames when the run succeeds.
    """
    if target is None or target == "-":
        yield _EventSink(sys.stdout if target == "-" else None)
        return
    with open(outputs.file(target, "--events"), "w", encoding="utf-8") as stream:
        yield _EventSink(stream)


def _recording(args: argparse.Namespace, outputs: PendingOutputs) -> dict[str, Any]:
    """The recorder's options for --frames and --record: temporary places until success."""
    return {
        "frames_dir": None
        if args.frames is None
        else outputs.folder(args.frames, "--frames", replaces="frame_*.png"),
        "gif_path": None if args.record is None else outputs.file(args.record, "--record"),
    }


# --- the backends ------------------------------------------------------------------------------
# The simulator's edge: its options become backend objects here, handed to the firmware's wiring
# exactly as `schocken run` hands it the GPIO input and the OLED.


class _FrontEnd(Protocol):
    """The window or the terminal: runs on the main thread until the user quits."""

    def run(self, keep_going: Callable[[], bool] = ...) -> None: ...

    def close(self) -> None: ...


def _screen(
    name: str, hands: HandsInput, config: DeviceConfig, notices: list[str],
    say: Say | None = None,
) -> tuple[LatestFrame, Callable[[], _FrontEnd]]:
    """The display the front end shows (``window`` or ``terminal``) and how to open that
    front end on it, once the device is built; the terminal shows ``notices`` as they are then
    (one line each). Its help and key bar are ``say``'s words (the simulator's, in the language
    the device's menu sets), else the config's language's."""
    if say is None:
        say = _words(config)
    if name == "window":
        from sim.window import SimWindow, WindowDisplay

        window = WindowDisplay()
        return window, lambda: SimWindow(
            hands, window, debounce_s=config.input.debounce_s, say=say
        )
    from sim.terminal import TerminalDisplay, TerminalUI

    terminal = TerminalDisplay()

    def open_terminal() -> _FrontEnd:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise UsageError("--terminal needs a terminal: use --script FILE to play headless")
        return TerminalUI(
            hands,
            terminal,
            hold_s=config.input.hold_s + 0.2,
            debounce_s=config.input.debounce_s,
            notice="\n".join(notices),
            say=say,
        )

    return terminal, open_terminal


def _recorder(recording: dict[str, Any], clock: Clock, inner: Display | None) -> FrameRecorder:
    """A recorder of the frames for --frames and --record (written to their temporary places
    until the run succeeds), passing them on to ``inner``."""
    from sim.recorder import FrameRecorder

    return FrameRecorder(clock, inner, **recording)


def _records(recording: dict[str, Any]) -> bool:
    return any(value is not None for value in recording.values())


def _serial_link(url: str, config: DeviceConfig) -> SerialLink:
    """The link on ``url`` at the config's baud rate; a bad URL fails here, in one line."""
    from hal.serial_link import SerialLink

    return SerialLink(url, baudrate=config.link.baudrate)


# --- headless ----------------------------------------------------------------------------------

#: How long the final reveal stands in a headless run before the table presses on to the final
#: banner ("Spielende"), in seconds.
FINAL_REVEAL_S = 3.0
#: How long the final banner stands before a headless run ends, in seconds.
AFTER_GAME_OVER_S = 4.0
#: The screens a player presses on from after the last round: the reveal, the half's banner.
_SCREENS_BEFORE_THE_END = 3


def _run_script(
    args: argparse.Namespace,
    config: DeviceConfig,
    setup: Any,
    dice: Any,
    sink: _EventSink,
    recording: dict[str, Any],
    storage: StateDirectory | None,
    actions: list[Any],
) -> int:
    from firmware.wiring import build_device
    from sim.fakes import FakeClock
    from sim.script import ScriptInput

    clock = FakeClock()
    sink.now = clock.now
    script = ScriptInput(actions, clock, config.input)
    recorder = _recorder(recording, clock, None)  # headless, the recorder is the display
    web = _web_server(args, config)
    device = build_device(
        config,
        clock=clock,
        inputs=[script],
        display=recorder,
        web=web,
        dice=dice,
        storage=storage,
        setup=setup,
        event_sink=sink,
        ask_to_resume=True,
    )
    started = time.perf_counter()
    try:
        device.loop.start()
        pace = _real_time_pacer(clock) if web is not None else None
        _play_to_the_final_banner(device, script, sink, clock, config, pace=pace)
        if web is not None:
            _serve_until_interrupted(device, clock)
    finally:
        device.close()
        recorder.close()
    elapsed = time.perf_counter() - started
    say = _words(config)
    over = sink.game_over
    outcome = say("sim_summary_over", loser=over.loser) if over is not None else ""
    wrote = (
        [say("sim_summary_frames_one" if recorder.files_written == 1 else "sim_summary_frames",
             n=recorder.files_written, folder=args.frames)]
        if args.frames else []
    )  # fmt: skip
    wrote += [str(args.record)] if args.record else []
    kept = _left_unfinished(storage, say)
    played = min(script.played, len(actions))
    rest = len(actions) - played
    unplayed = ""
    if rest and outcome:
        unplayed = say("sim_summary_unplayed_one" if rest == 1 else "sim_summary_unplayed",
                       rest=rest)
    summary = say(
        "sim_summary_one" if played == 1 else "sim_summary", played=played, unplayed=unplayed,
        game_s=f"{clock.now():.1f}", wall_s=f"{elapsed:.2f}",
    )  # fmt: skip
    summary += outcome + (say("sim_summary_wrote", files=", ".join(wrote)) if wrote else "")
    print(f"schocken sim: {summary}" + (f"; {kept}" if kept else ""), file=sys.stderr)
    return 0


def _play_to_the_final_banner(
    device: Device,
    script: ScriptInput,
    sink: _EventSink,
    clock: Clock,
    config: DeviceConfig,
    *,
    pace: Callable[[], None] | None = None,
) -> None:
    """Play ``script`` in steps of a simulated second until it ends or the game is over.

    Once the game is over the script is fed no further (its next press could deal a new game).
    The final reveal stands :data:`FINAL_REVEAL_S`, and so does the banner of the lost half or
    Finale after it; a short press on STAND moves on from each, as a player at the table would
    (unless a table of computer players went on by itself), to the final banner ("Spielende");
    the run ends when that has stood :data:`AFTER_GAME_OVER_S`.

    With ``pace`` (``--web``) the run goes in steps of :data:`WEB_STEP_S`, and ``pace`` after
    each step waits for the wall clock, so that a page can watch the game as it is played.
    """
    from hal.ports import Button
    from sim.script import ActionKind, ScriptAction, ScriptInput

    step_s = 1.0 if pace is None else WEB_STEP_S

    def run_until(until: float) -> None:
        while True:
            step_end = min(until, clock.now() + step_s)
            device.run(until=step_end)
            if pace is not None:
                pace()
            if step_end >= until:
                return

    end = script.end
    while clock.now() < end and sink.game_over_at is None:
        step_end = min(end, clock.now() + step_s)
        script.play_until(step_end)
        run_until(step_end)
    if sink.game_over_at is None:
        return
    shown_at = max(clock.now(), sink.game_over_at)
    # The reveal, and the banner of the lost half or Finale, each go on with a press.
    for _ in range(_SCREENS_BEFORE_THE_END):
        run_until(shown_at + FINAL_REVEAL_S)
        if device.app.at_game_end:
            break
        stand = ScriptAction(ActionKind.PRESS, 0, Button.STAND)
        press_on = ScriptInput([stand], clock, config.input)
        device.add_input(press_on)
        press_on.play_until(press_on.end)
        shown_at = press_on.edges[-1].at + config.input.debounce_s  # a press counts when let go
    run_until(shown_at + AFTER_GAME_OVER_S)


def _real_time_pacer(clock: Clock) -> Callable[[], None]:
    """A pace for :func:`_play_to_the_final_banner`: it waits until the wall clock since it was
    made has caught up with the simulated ``clock`` since then."""
    simulated_start, wall_start = clock.now(), time.perf_counter()

    def pace() -> None:
        ahead = (clock.now() - simulated_start) - (time.perf_counter() - wall_start)
        time.sleep(max(0.0, ahead))

    return pace


#: With ``--web``, a script advances in steps this long (simulated seconds), each in real time;
#: a page's command waits at most one step.
WEB_STEP_S = 0.05


def _serve_until_interrupted(device: Any, clock: FakeClock) -> None:
    """Keep the page up after the script (its commands served) until Ctrl+C or SIGTERM."""
    import signal

    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"schocken sim: {_device_words(device)('sim_page_stays')}", file=sys.stderr)
    try:
        while True:
            # The loop serves the pages' commands on its way to `until`; run(until=now) would
            # return at once and leave every page without an answer.
            device.run(until=clock.now() + WEB_STEP_S)
            time.sleep(WEB_STEP_S)
    except KeyboardInterrupt:
        return


def _load_script(path: str) -> list[Any]:
    """The script's actions; a file that cannot be read is a UsageError naming --script."""
    from firmware.userfile import path_problem
    from sim.script import load_script

    try:
        return load_script(path)
    except OSError as error:
        raise UsageError(
            f"--script {path}: {path_problem(path, error)}; give a text file with one action "
            "per line (docs/simulator.md)"
        ) from None


# --- window and terminal -----------------------------------------------------------------------


def _run_interactive(
    args: argparse.Namespace,
    config: DeviceConfig,
    setup: Any,
    dice: Any,
    sink: _EventSink,
    recording: dict[str, Any],
    storage: StateDirectory | None,
) -> int:
    from firmware.wiring import build_device
    from hal.clock import MonotonicClock

    clock = MonotonicClock()
    screen, notice = ("terminal", "") if args.terminal else _choose_screen(config)
    notices = [notice] if notice else []
    hands: HandsInput
    if args.gpio_mock:
        from sim.gpio_mock import MockPinHands

        hands = MockPinHands(clock, config.pins)
    else:
        from sim.controls import EdgeHands

        hands = EdgeHands(clock)
    try:
        # The front end speaks the device's language, once there is a device.
        device_words: list[Say] = [_words(config)]
        shown, open_ui = _screen(
            screen, hands, config, notices, lambda key, **values: device_words[0](key, **values)
        )
        recorder = _recorder(recording, clock, shown) if _records(recording) else None
        link = _serial_link(args.link, config) if args.link else None
    except BaseException:
        hands.close()
        raise
    try:
        web = _web_server(args, config, notices)
    except BaseException:
        hands.close()
        if link is not None:
            link.close()
        raise
    device = build_device(
        config,
        clock=clock,
        inputs=[hands],
        display=recorder if recorder is not None else shown,
        link=link,
        web=web,
        dice=dice,
        storage=storage,
        setup=setup,
        event_sink=sink,
        odds_worker=True,  # on the real clock: computer players think beside the loop
        ask_to_resume=True,
    )
    device_words[0] = _device_words(device)
    if link is not None:
        notices.insert(len(notices) - bool(notice), _say_where_the_link_is(link, args.link, config))
    status = _play(device, open_ui, recorder)
    say = _device_words(device)
    kept = _left_unfinished(storage, say)
    if kept:
        print(f"schocken sim: {say('sim_kept_offer', kept=kept)}", file=sys.stderr)
    return status


def _say_where_the_link_is(link: SerialLink, url: str, config: DeviceConfig) -> str:
    """One line on stderr: where a host attaches (the real port when port 0 was asked for);
    returns it for the terminal's notices."""
    address = link.address
    where = f"tcp-listen://{address[0]}:{address[1]}" if address else url
    said = _words(config)("sim_link_where", url=where)
    print(f"schocken sim: {said}", file=sys.stderr)
    return said


def _run_attached(
    args: argparse.Namespace, config: DeviceConfig, setup: Any, recording: dict[str, Any]
) -> int:
    """Be a remote panel for the device at ``--attach``: its screen, our buttons."""
    conflicts = [
        flag
        for flag, given in (
            ("--script", args.script),
            ("--gpio-mock", args.gpio_mock or None),
            ("--link", args.link),
            ("--events", args.events),
            ("--state-dir", args.state_dir),
            ("--no-save", args.no_save or None),
            ("--players/--names/--rules/--seed/--bots", setup),
        )
        if given is not None
    ]
    if conflicts:
        raise UsageError(
            f"--attach drives a device elsewhere: {conflicts[0]} cannot be used with it "
            "(set up the device's game with its menu or the link's setup command)"
        )
    from hal.clock import MonotonicClock
    from sim.attach import attach_panel
    from sim.controls import EdgeHands

    link = _serial_link(args.attach, config)  # a bad URL fails here
    try:
        clock = MonotonicClock()
        hands = EdgeHands(clock)
        screen, notice = ("terminal", "") if args.terminal else _choose_screen(config)
        shown, open_ui = _screen(screen, hands, config, [notice] if notice else [])
        recorder = _recorder(recording, clock, shown) if _records(recording) else None
    except BaseException:
        link.close()
        raise
    panel = attach_panel(
        config,
        link,
        url=args.attach,
        clock=clock,
        inputs=hands,
        display=recorder if recorder is not None else shown,
        pin=args.pin,
    )
    return _play(panel, open_ui, recorder)


class _Runnable(Protocol):
    """A device or a remote panel: a main loop to run on its own thread, then close."""

    @property
    def loop(self) -> MainLoop: ...

    def run(self, until: float | None = None) -> None: ...

    def close(self) -> None: ...


def _play(
    device: _Runnable, open_ui: Callable[[], _FrontEnd], recorder: FrameRecorder | None
) -> int:
    """Run ``device``'s main loop in a thread and the front end on this one, until quit."""
    import threading

    try:
        ui = open_ui()
    except BaseException:
        device.close()
        raise
    failure: list[BaseException] = []

    def firmware() -> None:
        try:
            device.run()
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
        device.close()
        if recorder is not None:
            recorder.close()
    if failure:
        raise failure[0]
    return 0


def _words(config: DeviceConfig) -> Say:
    """The simulator's words in the configured screens' language (for what is said before the
    device runs: from then on they follow its menu's language, :func:`_device_words`)."""
    from sim.sim_words import SimWords

    return SimWords(config.game.language).t


def _device_words(device: Any) -> Say:
    """The simulator's words in the language the device's menu sets, whenever they are said."""
    from sim.sim_words import SimWords

    return lambda key, **values: SimWords(device.app.language).t(key, **values)


def _choose_screen(config: DeviceConfig) -> tuple[str, str]:
    """("window", "") if a window can be opened here; else ("terminal", why), said in one line
    in the screens' language.

    The terminal shows the reason too: the line on stderr is soon covered by its full screen.
    """
    from sim.window import window_problem

    say = _words(config)
    problem = window_problem(say)
    if problem is None:
        return "window", ""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(say("sim_no_terminal", why=problem))
    notice = say("sim_in_terminal", why=problem)
    print(f"schocken sim: {notice}", file=sys.stderr)
    return "terminal", notice
