"""Wiring: the one place where backends are chosen, by name, and the device is put together.

The firmware never imports a backend at module level. :data:`INPUTS` and :data:`DISPLAYS` map a
backend's name to the dotted path of a *builder*, ``"module:function"``, imported with
:mod:`importlib` only when :func:`build_device` asks for it; so ``schocken run`` loads gpiozero
and luma but the simulator need not, and a laptop without either can still import the firmware.

A builder takes ``(config, clock, **options)`` and returns the backend: an
:class:`~hal.ports.InputBackend` or a :class:`~hal.ports.Display`. The simulator registers its own
(``window``, ``terminal``, ``script``) with :func:`register_input` and :func:`register_display`,
or by adding entries to the tables.

The serial link (docs/protocol.md) is added when ``[link] url`` is set (or ``link=`` is given):
:data:`LINKS` names its builder, :class:`firmware.remote.Remote` speaks the protocol, the display
is wrapped so the host sees every frame, and the app's events go to the host too.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.game import GameSetup
from firmware.app import DeviceApp, EventSink
from firmware.config import DeviceConfig
from firmware.dice import DiceSource, SystemDice
from firmware.loop import MainLoop
from firmware.work import BackgroundWork, InlineWork, Work
from hal.inputs import InputDecoder
from hal.ports import Clock, Display, InputBackend, InputEvent, Link, Storage
from hal.power import PowerManager

__all__ = [
    "DISPLAYS",
    "INPUTS",
    "LINKS",
    "Device",
    "build_device",
    "load_builder",
    "register_display",
    "register_input",
    "system_poweroff",
]


if TYPE_CHECKING:
    from firmware.remote import Remote
    from hal.storage import StateDirectory

logger = logging.getLogger(__name__)

#: Input backend name -> "module:builder".
INPUTS: dict[str, str] = {
    "gpio": "firmware.wiring:gpio_input",
}
#: Display backend name -> "module:builder".
DISPLAYS: dict[str, str] = {
    "oled": "firmware.wiring:oled_display",
    "dummy": "firmware.wiring:dummy_display",
}
#: Link backend name -> "module:builder". The URL picks the transport (see hal.serial_link).
LINKS: dict[str, str] = {
    "serial": "firmware.wiring:serial_link",
}


def register_input(name: str, builder: str) -> None:
    """Make an input backend available under ``name`` ("module:function")."""
    INPUTS[name] = builder


def register_display(name: str, builder: str) -> None:
    """Make a display backend available under ``name`` ("module:function")."""
    DISPLAYS[name] = builder


def load_builder(kind: str, name: str) -> Callable[..., Any]:
    """Import the builder registered for backend ``name`` of ``kind`` (input, display, link)."""
    table = {"input": INPUTS, "display": DISPLAYS, "link": LINKS}[kind]
    if name not in table:
        raise ValueError(f"unknown {kind} backend {name!r}: use one of {', '.join(sorted(table))}")
    module_name, _, attribute = table[name].partition(":")
    module = importlib.import_module(module_name)
    builder: Callable[..., Any] = getattr(module, attribute)
    return builder


# --- the device's own builders ------------------------------------------------------------------


def gpio_input(config: DeviceConfig, clock: Clock, **options: Any) -> InputBackend:
    """The five buttons and the tilt switch on the configured pins (options: ``pin_factory``)."""
    from hal.gpio import GpioInput

    return GpioInput(clock, config.pins, **options)


def oled_display(config: DeviceConfig, clock: Clock, **options: Any) -> Display:
    """The SSD1306/SH1106 on I2C, resilient to an unplugged panel (options: ``bus``)."""
    from hal.oled import open_resilient_oled

    return open_resilient_oled(config.display, clock, **options)


def dummy_display(config: DeviceConfig, clock: Clock, **options: Any) -> Display:
    """luma's in-memory dummy device, which keeps the last frame (for tests and scripts)."""
    from hal.oled import open_dummy

    return open_dummy(clock)


def serial_link(config: DeviceConfig, url: str, **options: Any) -> Link:
    """The link on pyserial (a device path, socket://, loop://) or tcp-listen:// (options are
    :class:`~hal.serial_link.SerialLink`'s)."""
    from hal.serial_link import SerialLink

    return SerialLink(url, baudrate=config.link.baudrate, **options)


def state_directory(config: DeviceConfig) -> Storage:
    """The state directory of the config (``[storage] state_dir``) on the real filesystem."""
    return state_directory_at(config.storage.state_dir)


def state_directory_at(path: str | Path) -> StateDirectory:
    """A state directory on the real filesystem (for tools that read the device's games)."""
    from hal.storage import StateDirectory

    return StateDirectory(path)


def system_poweroff() -> None:
    """The device's shutdown hook: ask systemd to power the Pi off."""
    import subprocess

    logger.info("shutting down on request from the menu")
    subprocess.run(["systemctl", "poweroff"], check=True, timeout=30)


# --- putting it together ------------------------------------------------------------------------


@dataclass
class Device:
    """A wired device: the app, its main loop and the backends, ready to :meth:`run`."""

    app: DeviceApp
    loop: MainLoop
    inputs: list[InputBackend]
    display: Display
    power: PowerManager | None
    decoder: InputDecoder
    clock: Clock
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: The serial link's protocol end, when the link is on.
    remote: Remote | None = None

    def run(self, until: float | None = None) -> None:
        """Run the main loop (see :meth:`MainLoop.run`)."""
        self.loop.run(until)

    def add_input(self, backend: InputBackend) -> None:
        """An input backend built later (see :meth:`MainLoop.add_input`); closed with the rest."""
        self.inputs.append(backend)
        self.loop.add_input(backend)

    def close(self) -> None:
        """Release pins and other resources. Idempotent."""
        self.loop.close()
        for close in self.closers:
            close()
        self.closers = []


def build_device(
    config: DeviceConfig,
    *,
    inputs: Sequence[str] = ("gpio",),
    display: str = "oled",
    clock: Clock | None = None,
    dice: DiceSource | None = None,
    storage: Storage | None = None,
    setup: GameSetup | None = None,
    event_sink: EventSink | None = None,
    shutdown: Callable[[], None] | None = None,
    power: bool = True,
    options: dict[str, dict[str, Any]] | None = None,
    link: str | None = None,
    odds_worker: bool | None = None,
) -> Device:
    """Build the app, its loop and the named backends.

    ``options`` passes keyword arguments to a backend's builder by name, e.g.
    ``{"gpio": {"pin_factory": MockFactory()}, "oled": {"bus": fake_bus}}``. ``power`` adds the
    :class:`~hal.oled.PowerManager` (dim and sleep when idle). Without ``clock`` the real
    monotonic clock is used, without ``dice`` the system's random source. ``link`` overrides
    the config's ``[link] url`` ("" switches the link off); options for it go under "serial".
    ``odds_worker`` computes odds tables and computer players' decisions on a worker thread
    (:class:`~firmware.work.BackgroundWork`) rather than on the main loop; by default it does
    on the real clock, and not on a fake one (tests, scripts), where a game must go the same way
    on every run.
    """
    from hal.clock import MonotonicClock

    options = options or {}
    if clock is None:
        clock = MonotonicClock()
    if odds_worker is None:
        odds_worker = isinstance(clock, MonotonicClock)
    built_inputs: list[InputBackend] = []
    try:
        for name in inputs:
            builder = load_builder("input", name)
            built_inputs.append(builder(config, clock, **options.get(name, {})))
        make_display = load_builder("display", display)
        screen: Display = make_display(config, clock, **options.get(display, {}))
    except BaseException:
        for backend in built_inputs:
            backend.close()
        raise
    manager = PowerManager(screen, clock, config.display) if power else None
    url = config.link.url if link is None else link
    sink = event_sink
    if url:  # the serial link (and its protocol) load only when it is on
        from firmware.remote import EventRelay, LinkedDisplay

        relay = EventRelay(*([event_sink] if event_sink is not None else []))
        sink = relay
    work: Work = BackgroundWork() if odds_worker else InlineWork()
    app = DeviceApp(
        config,
        clock=clock,
        dice=dice if dice is not None else SystemDice(),
        storage=storage,
        setup=setup,
        event_sink=sink,
        shutdown=shutdown,
        work=work,
    )
    decoder = InputDecoder(config.input)
    remote: Remote | None = None
    shown: Display = screen
    if url:
        try:
            link_backend = load_builder("link", "serial")(config, url, **options.get("serial", {}))
        except BaseException:
            for backend in built_inputs:
                backend.close()
            raise
        remote = _remote(app, link_backend, manager, clock, lambda call: loop.call_soon(call))
        relay.add(remote.publish_event)
        shown = LinkedDisplay(screen, remote)
    loop = MainLoop(
        app, clock=clock, inputs=built_inputs, decoder=decoder, display=shown, power=manager
    )
    device = Device(app, loop, built_inputs, screen, manager, decoder, clock, remote=remote)
    if isinstance(work, BackgroundWork):
        work.start(loop.call_soon, app.work_done)
    device.closers.append(work.close)
    if remote is not None:
        remote.start()
        device.closers.append(remote.close)
    return device


def _remote(
    app: DeviceApp,
    link: Link,
    power: PowerManager | None,
    clock: Clock,
    call_soon: Callable[[Callable[[], None]], None],
) -> Remote:
    """The protocol's device end, acting on ``app`` from the main loop."""
    from importlib.metadata import PackageNotFoundError, version

    from firmware.remote import DeviceHooks, Remote

    def deliver(event: InputEvent) -> None:
        # A remote input counts as activity (it wakes a dimmed or sleeping panel) but is never
        # swallowed: the host acted on the frame it saw, not on a dark panel.
        if power is not None:
            power.activity(event.at)
        app.handle(event)

    def next_setup() -> GameSetup:
        planned = app.next_setup
        if planned is not None:
            return planned
        return GameSetup(app.config.game.players, app.config.game.rule_set)

    try:
        software = version("schockbesteck")
    except PackageNotFoundError:
        software = "unknown"
    hooks = DeviceHooks(deliver=deliver, next_setup=next_setup, apply_setup=app.plan_next_game)
    info = {"version": software, "language": app.language}
    return Remote(link, app, hooks, clock=clock, call_soon=call_soon, info=info)
