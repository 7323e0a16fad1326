"""Run the Schockbesteck on the Raspberry Pi: buttons and tilt switch on GPIO, the OLED on I2C.

Without --config, /etc/schockbesteck/config.toml is read if it exists, else the built-in
defaults (as in deploy/config.toml). --check runs the builders' self-test instead of a game: it
draws a test pattern and lists every button press and tilt edge (see docs/build.md).
--error-screen draws why the service stopped and exits (systemd runs it when the service fails
for good; see docs/deploy.md).
On a computer without GPIO or I2C, play with `schocken sim` instead.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.cli import CliError
from firmware.config import DEVICE_CONFIG_PATH, DeviceConfig, load_config
from firmware.sink import DeviceEvent, event_json

if TYPE_CHECKING:
    from firmware.tournament.reporter import LinkMaker
    from hal.ports import Clock
    from hal.storage import StateDirectory
    from hal.web_server import WebServer

logger = logging.getLogger("schocken.run")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="PATH",
        help=f"the device configuration (default: {DEVICE_CONFIG_PATH} if it exists)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="self-test for builders: test pattern, button presses and tilt edges",
    )
    parser.add_argument(
        "--error-screen",
        action="store_true",
        help="draw why the service stopped on the display and exit (run by systemd)",
    )
    parser.add_argument(
        "--verbose", "-v", action="store_true", help="log every input and game event"
    )


def run(args: argparse.Namespace) -> int:
    path = args.config
    if path is None and Path(DEVICE_CONFIG_PATH).exists():
        path = DEVICE_CONFIG_PATH
    if args.error_screen:
        if args.check:
            raise CliError("--error-screen and --check exclude each other")
        return _error_screen(path)
    config = load_config(path)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.check:
        return _play(config)
    from hal.clock import MonotonicClock

    clock = MonotonicClock()
    gpio = _open_gpio(config, clock)
    try:
        return _check(config, clock, gpio)
    finally:
        gpio.close()


def _missing_hardware(config: DeviceConfig, gpio_error: str | None) -> str | None:
    bus = Path(f"/dev/i2c-{config.display.i2c_port}")
    problems = []
    if gpio_error is not None:
        problems.append(f"no usable GPIO ({gpio_error})")
    if not bus.exists():
        problems.append(f"no I2C bus {bus}")
    if not problems:
        return None
    return (
        f"{' and '.join(problems)} on this machine: `schocken run` drives the Raspberry Pi's "
        "buttons and OLED; to play on this computer use `schocken sim`"
    )


def _open_gpio(config: DeviceConfig, clock: Any = None) -> Any:
    """The GPIO input, or a CliError naming what this machine lacks."""
    error: str | None = None
    gpio = None
    try:
        with warnings.catch_warnings():
            # gpiozero warns on stderr for every pin factory it tries and cannot use.
            warnings.simplefilter("ignore")
            from hal.clock import MonotonicClock
            from hal.gpio import GpioError, GpioInput

            try:
                gpio = GpioInput(clock if clock is not None else MonotonicClock(), config.pins)
            except GpioError as failure:
                error = str(failure.__cause__ or failure).splitlines()[0]
    except ImportError as failure:
        error = f"gpiozero is not installed: {failure.name}"
    problem = _missing_hardware(config, error)
    if problem is not None:
        if gpio is not None:
            gpio.close()
        raise CliError(problem)
    return gpio


def _check(config: DeviceConfig, clock: Clock, gpio: Any) -> int:
    from firmware.check import CheckApp, TappedDecoder
    from firmware.loop import MainLoop
    from hal.gpio import format_wiring
    from hal.oled import open_resilient_oled

    app = CheckApp(config)
    display = open_resilient_oled(config.display, clock)
    loop = MainLoop(
        app,
        clock=clock,
        inputs=[gpio],
        decoder=TappedDecoder(config.input, app.note_edge),
        display=display,
        power=None,
        timers=[display],  # retries an unplugged panel
    )
    logger.info("self-test: press every button, tilt and shake the cup; Ctrl+C ends it")
    logger.info("wiring expected by %s:\n%s", config.origin, format_wiring(config.pins))
    _stop_on_sigterm(loop)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how the check ends
        loop.run()
    presses = ", ".join(f"{button.name} {count}" for button, count in app.presses.items())
    logger.info("self-test over: presses %s; tilt edges %d", presses, app.tilt_edges)
    return 0


def tournament_link(config: DeviceConfig) -> LinkMaker | None:
    """With ``[tournament]`` on: the maker of the table's MQTT link (paho loads only then),
    user ``table-N`` with its Last Will; a CliError (one line) for settings paho refuses."""
    settings = config.tournament
    if not settings.enabled:
        return None
    from firmware.tournament.reporter import TableIdentity, last_will
    from hal.mqtt import MqttError, MqttLink, MqttSettings, Will

    table = TableIdentity(settings.event, settings.table)
    topic, payload = last_will(table)
    try:
        mqtt = MqttSettings(
            settings.broker, client_id=f"{settings.event}-{table.user}", username=table.user,
            password=settings.password, ca_file=settings.ca_file or None,
            will=Will(topic, payload),
        )
    except MqttError as error:
        raise CliError(f"{config.origin}: tournament.broker: {error}") from None

    def make(on_message: Callable[[str, bytes], None],
             on_change: Callable[[bool], None]) -> MqttLink:
        try:
            return MqttLink(mqtt, on_message, on_change)
        except MqttError as error:
            raise CliError(f"{config.origin}: tournament: {error}") from None

    return make


def _play(config: DeviceConfig) -> int:
    """The device: its first frame as soon as the display is up, then the buttons.

    The names of the config become backends here, nowhere else: the OLED, the state directory
    and, if ``[link] url`` is set, the serial link. The GPIO library is the largest import of all
    (about a third of the start-up) and the first screen does not need it, so the pins are
    claimed right after the first frame. Without an I2C bus nothing starts, and the error names
    everything this machine lacks.
    """
    if _missing_hardware(config, None) is not None:
        _open_gpio(config).close()  # raises the CliError naming the bus, and the GPIO if missing
    from firmware.wiring import build_device, system_poweroff
    from hal.clock import MonotonicClock
    from hal.oled import open_resilient_oled
    from hal.watchdog import systemd_pinger

    storage = locked_state_directory(config)
    clock = MonotonicClock()
    display = open_resilient_oled(config.display, clock)
    link = None
    if config.link.url:
        from hal.serial_link import SerialLink

        link = SerialLink(config.link.url, baudrate=config.link.baudrate)
    try:
        web = (
            open_web_server(*config.web.address, names=config.web.hosts)
            if config.web.enabled else None
        )
    except BaseException:
        if link is not None:
            link.close()
        raise
    device = build_device(
        config,
        clock=clock,
        inputs=[],
        display=display,
        timers=[display],  # retries an unplugged panel
        link=link,
        web=web,
        storage=storage,
        event_sink=_log_event,
        shutdown=system_poweroff,
        odds_worker=True,  # computer players think beside the loop, never stalling it
        tournament_link=tournament_link(config),
    )
    # Under systemd (Type=notify, WatchdogSec=): READY=1 after the first frame, then pings.
    pinger = systemd_pinger()
    if pinger is not None:
        device.loop.timers.append(pinger)
    _stop_on_sigterm(device.loop)
    try:
        device.loop.start()  # the first frame
        device.add_input(_open_gpio(config, device.clock))
        logger.info("Schockbesteck running (config: %s)", config.origin)
        if device.remote is not None:
            logger.info("serial link on %s", config.link.url)
        if web is not None:
            logger.info("the table's page on http://%s:%d/", *web.address)
        device.run()
    finally:
        if pinger is not None:
            pinger.stopping()
        device.close()
        storage.unlock()
    return 0


def open_web_server(host: str, port: int, *, names: tuple[str, ...] = ()) -> WebServer:
    """The table's page on ``host:port`` (docs/web.md), for the device's addresses, localhost
    and ``names`` (``[web] hosts``); a missing library or a bad address is one line naming the
    problem."""
    try:
        from hal.web_server import WebServer
    except ImportError:
        raise CliError(
            "[web] needs aiohttp: pip install 'schockbesteck[web]' (in a checkout, make sim "
            "SIM_ARGS=--web installs it; deploy/install.sh does when the configuration has a "
            "[web] section)"
        ) from None
    from firmware.link.webtable import page_files

    return WebServer(host, port, page_files(), names=names)


def _error_screen(path: str | None) -> int:
    """Draw why the service stopped; exit 0 once it is on the panel, 1 if no panel answers."""
    from firmware.screen.error_screen import error_image, failure_reason
    from firmware.screen.oled_words import OledWords
    from hal.oled import bus_errors, show_and_keep

    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    problem: str | None = None
    try:
        config = load_config(path)
    except Exception as error:  # whatever stops the config, show it; draw with the defaults
        problem = " ".join(str(error).split()) or type(error).__name__
        if path is not None:  # the panel is small: the file is known, keep the key and value
            problem = problem.removeprefix(f"{path}: ")
        config = load_config(None)
    reason = failure_reason(os.environ)
    image = error_image(OledWords(config.game.language), problem, reason)
    logger.error("service stopped: %s", problem or reason or "reason unknown")
    try:
        show_and_keep(config.display, image)
    except bus_errors() as error:
        logger.error("no display answers, the error screen stays dark: %s", error)
        return 1
    return 0


def locked_state_directory(config: DeviceConfig) -> StateDirectory:
    """The config's state directory, held for this process alone.

    Another program holding it (a second ``schocken run``, a simulator) is a CliError naming
    it. A directory that cannot be locked at all (read-only, missing) is only logged: the device
    plays on, and the game store shows on the screen that it cannot save.
    """
    from hal.ports import StorageError
    from hal.storage import StateDirectory, StateDirectoryBusy

    storage = StateDirectory(config.storage.state_dir)
    try:
        storage.lock()
    except StateDirectoryBusy as busy:
        raise CliError(
            f"{busy}: stop that one first (the service: sudo systemctl stop schockbesteck), or "
            "give this one another [storage] state_dir"
        ) from None
    except StorageError as error:
        logger.warning("%s; playing on without the lock", error)
    return storage


def _log_event(event: DeviceEvent) -> None:
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("event %s", event_json(event))


def _stop_on_sigterm(loop: Any) -> None:
    """systemd stops the service with SIGTERM: finish the current step, then return."""
    signal.signal(signal.SIGTERM, lambda signum, frame: loop.stop())
