"""The one place the tests build the device app and the whole device.

* :func:`make_app`: a :class:`~firmware.app.device.DeviceApp` alone, driven with decoded inputs;
* :func:`build_test_device`: the whole device as ``schocken run`` builds it
  (:func:`firmware.wiring.build_device`): gpiozero's mock pins through the real
  :class:`~hal.gpio.GpioInput` (or any other input backend), luma's dummy display or the real
  SSD1306 driver on a fake I2C bus, on the clock the test drives.

Every test that builds either goes through here, so that a change to how the app or the device
is put together is made once, in this module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig
from firmware.dice import DiceSource, SeededDice
from firmware.sink import DeviceEvent, EventSink, event_json
from firmware.store.stores import open_stores
from firmware.wiring import Device, build_device
from hal.oled import open_dummy, open_resilient_oled
from hal.ports import Clock, Display, InputBackend, Link, LinkServer, Storage, Timed
from hal.storage import StateDirectory
from sim.fakes import FakeClock

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from engine.game import GameSetup
    from firmware.link.pairing import Pairing
    from firmware.work import Work

__all__ = ["as_json", "build_test_device", "make_app", "storage_of"]


def as_json(listener: Callable[[dict[str, Any]], None]) -> EventSink:
    """A sink that hands ``listener`` each event as the JSON object of the line it would be
    when it leaves the device (:func:`firmware.sink.event_json`), for tests that read them so."""

    def sink(event: DeviceEvent) -> None:
        listener(event_json(event))

    return sink


def storage_of(storage: Storage | Path | None) -> Storage | None:
    """A state directory for a path; a :class:`~hal.ports.Storage` (or None) as it is."""
    return StateDirectory(storage) if isinstance(storage, Path) else storage


def make_app(
    config: DeviceConfig | None = None,
    *,
    clock: Clock | None = None,
    dice: DiceSource | None = None,
    storage: Storage | Path | None = None,
    setup: GameSetup | None = None,
    event_sink: EventSink | None = None,
    shutdown: Callable[[], None] | None = None,
    pairing: Pairing | None = None,
    work: Work | None = None,
    ask_to_resume: bool = False,
) -> DeviceApp:
    """The device app on its own: the default configuration, a fake clock at 100 s and seeded
    dice unless given; its stores on ``storage``, a state directory (a path is opened as one),
    or on none at all.

    Without ``setup`` the app opens on the setup screen (or resumes a game left in
    ``storage``); with it, that game starts at once.
    """
    return DeviceApp(
        config if config is not None else DeviceConfig(),
        clock=clock if clock is not None else FakeClock(100.0),
        dice=dice if dice is not None else SeededDice(1),
        stores=open_stores(storage_of(storage)),
        setup=setup,
        event_sink=event_sink,
        shutdown=shutdown,
        pairing=pairing,
        work=work,
        ask_to_resume=ask_to_resume,
    )


def build_test_device(
    config: DeviceConfig | None = None,
    *,
    clock: Clock,
    pins: MockFactory | None = None,
    inputs: Sequence[InputBackend] = (),
    display: Display | None = None,
    bus: Any = None,
    timers: Sequence[Timed] | None = None,
    dice: DiceSource | None = None,
    storage: Storage | Path | None = None,
    setup: GameSetup | None = None,
    event_sink: EventSink | None = None,
    link: Link | None = None,
    web: LinkServer | None = None,
    power: bool = True,
    odds_worker: bool = False,
    ask_to_resume: bool = False,
) -> Device:
    """The whole device on ``clock``, not started yet (``device.loop.start()``).

    Inputs: with ``pins``, the real :class:`~hal.gpio.GpioInput` on that gpiozero
    ``MockFactory`` (the config's pin numbers), then any other ``inputs``. Display: the given
    one; else with ``bus`` luma's real SSD1306 driver on that (fake) I2C bus behind
    :class:`~hal.oled.ResilientDisplay`, else luma's dummy device behind it. A display built here
    is driven as a timer (it retries a failing panel) unless ``timers`` says otherwise; a given
    one only if it is in ``timers``. Dice are seeded (1) unless given; ``storage`` as in
    :func:`make_app`. The rest goes to :func:`firmware.wiring.build_device` as it is.
    """
    config = config if config is not None else DeviceConfig()
    backends = list(inputs)
    if pins is not None:
        from hal.gpio import GpioInput

        backends.insert(0, GpioInput(clock, config.pins, pin_factory=pins))
    if display is None:
        if bus is not None:
            built = open_resilient_oled(config.display, clock, bus=bus)
        else:
            built = open_dummy(clock)
        display = built
        timers = [built] if timers is None else timers
    return build_device(
        config,
        clock=clock,
        inputs=backends,
        display=display,
        timers=timers if timers is not None else (),
        link=link,
        web=web,
        dice=dice if dice is not None else SeededDice(1),
        storage=storage_of(storage),
        setup=setup,
        event_sink=event_sink,
        power=power,
        odds_worker=odds_worker,
        ask_to_resume=ask_to_resume,
    )
