"""Wiring: the device put together from backends that are already built.

:func:`build_device` takes its backends as objects, the way every gpiozero device takes its
``pin_factory``: the input backends (:class:`~hal.ports.InputBackend`), the display
(:class:`~hal.ports.Display`), optionally the serial link (:class:`~hal.ports.Link`) and the state
directory (:class:`~hal.ports.Storage`). A name becomes a backend only at the edge, in the command
that runs the device (``firmware/cli/run.py`` on the Pi, ``sim/cli.py`` in the simulator) and in
tests: the firmware itself never imports a backend, and nothing is looked up by a module path.

When a link is given, :class:`firmware.link.remote.Remote` speaks the protocol on it
(docs/protocol.md): it listens to every frame the main loop gives the display, and to the app's
events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.game import GameSetup
from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig
from firmware.dice import DiceSource, SystemDice
from firmware.loop import MainLoop
from firmware.sink import EventRelay, EventSink
from firmware.store.stores import open_stores
from firmware.work import BackgroundWork, InlineWork, Work
from hal.inputs import InputDecoder
from hal.ports import Clock, Display, InputBackend, Link, LinkServer, Storage, Timed
from hal.power import PowerManager

if TYPE_CHECKING:
    from firmware.link.pairing import Pairing
    from firmware.link.remote import Remote
    from firmware.link.webtable import WebTable
    from firmware.tournament.reporter import LinkMaker, Reporter

__all__ = ["Device", "build_device", "system_poweroff"]

logger = logging.getLogger(__name__)


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
    #: Who may change the game over the link (PIN from the menu), when the link is on.
    pairing: Pairing | None = None
    #: The table's web page (docs/web.md), when ``[web]`` is on.
    web: WebTable | None = None
    #: The tournament's reporter, when ``[tournament]`` is on (docs/tournament.md).
    reporter: Reporter | None = None

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
    clock: Clock,
    inputs: Sequence[InputBackend],
    display: Display,
    timers: Sequence[Timed] = (),
    link: Link | None = None,
    web: LinkServer | None = None,
    dice: DiceSource | None = None,
    storage: Storage | None = None,
    setup: GameSetup | None = None,
    event_sink: EventSink | None = None,
    shutdown: Callable[[], None] | None = None,
    power: bool = True,
    odds_worker: bool = False,
    ask_to_resume: bool = False,
    tournament_link: LinkMaker | None = None,
) -> Device:
    """Build the app and its main loop on the given backends, all running on ``clock``.

    ``timers`` are the backends with timers of their own (:class:`~hal.ports.Timed`), for the
    main loop to drive: the OLED's :class:`~hal.oled.ResilientDisplay`, which retries an
    unplugged panel. The device takes ``inputs`` and ``link`` over: :meth:`Device.close` closes
    them, and so does a failure while building. ``link`` switches the serial link on (the edge
    builds it from the config's ``[link] url``); its host then sees every frame the display is
    given. ``web`` serves the table's page (:class:`~firmware.link.webtable.WebTable`) on a built
    server (``[web] listen``); its pages pair with the same PIN as the link. ``power`` adds
    the :class:`~hal.power.PowerManager` (dim and sleep when idle).
    Without ``dice`` the system's random source is used. ``odds_worker`` computes odds
    tables and computer players' decisions on a worker thread
    (:class:`~firmware.work.BackgroundWork`) rather than on the main loop: the edge asks for it
    on the real clock (``schocken run``, the interactive simulator), never on a fake one (tests,
    scripts), where a game must go the same way on every run. ``ask_to_resume`` asks
    before an unfinished game in ``storage`` goes on (see :class:`~firmware.app.device.DeviceApp`).
    ``tournament_link`` (with ``[tournament]`` on and a ``storage``) makes the device a table
    of a tournament: the edge's maker of its MQTT link, given the reporter's callbacks.
    """
    backends = list(inputs)
    # What the app is handed is built before it; the loop after the app; what calls into the
    # loop (the tournament's reporter, the hosts, the worker) after the loop.
    tournament = (
        tournament_link is not None and storage is not None and config.tournament.enabled
    )
    try:
        work: Work = BackgroundWork() if odds_worker else InlineWork()
        manager = PowerManager(display, clock, config.display) if power else None
        hosts = link is not None or web is not None
        relay = EventRelay(*([event_sink] if event_sink is not None else []))
        pairing = _pairing() if hosts else None  # one PIN for every way in from outside
        app = DeviceApp(
            config, clock=clock, dice=dice if dice is not None else SystemDice(),
            stores=open_stores(storage), setup=setup,
            event_sink=relay if hosts or tournament else event_sink,
            shutdown=shutdown, pairing=pairing, work=work, ask_to_resume=ask_to_resume,
        )
    except BaseException:
        _close_all(backends, link, web)
        raise
    loop = MainLoop(
        app, clock=clock, inputs=backends, decoder=InputDecoder(config.input), display=display,
        power=manager, timers=timers,
    )
    device = Device(app, loop, backends, display, manager, loop.decoder, clock, pairing=pairing)
    device.closers.append(work.close)
    try:
        if tournament and tournament_link is not None and storage is not None:
            _connect_tournament(device, relay, _reporter(config, storage, loop), tournament_link)
        if pairing is not None:
            _connect_hosts(device, pairing, relay, link, web)
        if isinstance(work, BackgroundWork):
            work.start(loop.call_soon, app.work_done)
    except BaseException:
        device.close()  # the inputs, a host that started, the worker
        _close_all((), link, web)
        raise
    return device


def _reporter(config: DeviceConfig, storage: Storage, loop: MainLoop) -> Reporter:
    """The tournament's reporter on the state directory (its outbox read, its journals
    recounted), pumped on the main loop."""
    import time

    from firmware.tournament.reporter import Reporter, TableIdentity

    settings = config.tournament
    return Reporter(TableIdentity(settings.event, settings.table), storage, clock=loop.clock,
                    wall=time.time, resend_s=settings.resend_s, call_soon=loop.call_soon)


def _connect_tournament(
    device: Device, relay: EventRelay, reporter: Reporter, make: LinkMaker
) -> None:
    """The reporter hears the app's events and runs its resends on the loop; its MQTT link,
    started; the app's session sees the reporter (the menu's "Turnier", the assigned game's
    journal)."""
    relay.add(reporter)
    device.loop.add_timer(reporter)
    link = make(reporter.on_message, reporter.on_connect_change)
    reporter.attach(link)
    device.app.join_tournament(reporter)
    device.reporter = reporter
    link.start()
    device.closers.append(link.stop)


def _pairing() -> Pairing:
    """The device's one pairing (the protocol and pairing load only when a host may connect)."""
    from firmware.link.pairing import Pairing

    return Pairing()


def _close_all(backends: Sequence[InputBackend], link: Link | None, web: LinkServer | None,
               ) -> None:
    """Close what the device was handed, when it could not be built."""
    for backend in backends:
        backend.close()
    if link is not None:
        link.close()
    if web is not None:
        web.close()


def _connect_hosts(
    device: Device, pairing: Pairing, relay: EventRelay, link: Link | None,
    web: LinkServer | None,
) -> None:
    """The link's host and the table's page: they see the events and the frames, and their
    inputs take the buttons' way through the loop."""
    from firmware.link.hooks import device_hooks, hello_info

    app, loop = device.app, device.loop
    hooks = device_hooks(app, loop.deliver)
    info = hello_info(app.language)
    if link is not None:
        from firmware.link.remote import Remote

        settings = app.config.link
        remote = Remote(
            link, app, hooks, clock=device.clock, call_soon=loop.call_soon, pairing=pairing,
            trust_serial=settings.trust_serial, referee=settings.referee, info=info,
        )
        relay.add(remote.publish_event)
        loop.add_frame_listener(remote.show)
        device.remote = remote
        remote.start()
        device.closers.append(remote.close)
    if web is not None:
        from firmware.link.webtable import WebTable

        page = WebTable(
            web, app, hooks, clock=device.clock, call_soon=loop.call_soon, pairing=pairing,
            info=info, cup=app.table_cup,
        )
        relay.add(page.publish_event)
        loop.add_frame_listener(page.show)
        device.web = page
        _sheet_routes(web, app, pairing)
        page.start()
        device.closers.append(page.close)


def _sheet_routes(web: LinkServer, app: DeviceApp, pairing: Pairing) -> None:
    """The Spieltag's sheet and the season for a paired phone, where the server answers plain
    requests and the device keeps its games."""
    from hal.ports import Routed

    if not isinstance(web, Routed) or app.store is None:
        return
    from firmware.link.evening_page import SEASON_ROUTES, SHEET_ROUTES, season_route, sheet_route

    for path, kind in SHEET_ROUTES.items():
        web.route(path, sheet_route(app.store.storage, pairing, kind))
    for path, kind in SEASON_ROUTES.items():
        web.route(path, season_route(app.store.storage, pairing, kind))
