"""How a host of the link (the serial link's, a page's) acts on the device app, and what its
``hello`` tells: the :class:`~firmware.link.remote.DeviceHooks` of a
:class:`~firmware.app.device.DeviceApp`, made from the app's public parts.

The composition root (:mod:`firmware.wiring`) only connects these to the hosts; what a host
is told of the next game, the ``stats`` answer and the page's Spieltag are decided here and in
the modules named below, never there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.events import Correct, Report, RollOff
from engine.game import GameSetup
from firmware.config import DeviceConfig
from firmware.link.evening_page import PageSpieltag
from firmware.link.remote import DeviceHooks
from firmware.store.gamestore import GameStore
from firmware.store.stats import stats_payload
from hal.ports import InputEvent

__all__ = ["device_hooks", "hello_info", "next_setup"]


class _App(Protocol):
    """What the hooks read and call of the device app."""

    @property
    def config(self) -> DeviceConfig: ...

    @property
    def next_setup(self) -> GameSetup | None: ...

    @property
    def real_dice(self) -> bool: ...

    @property
    def seat_bots(self) -> tuple[str, ...]: ...

    @property
    def store(self) -> GameStore | None: ...

    @property
    def scharf(self) -> bool: ...

    def plan_next_game(self, setup: GameSetup) -> None: ...

    def plan_bots(self, bots: tuple[str, ...]) -> None: ...

    def abandon_game(self) -> None: ...

    def enter_result(self, action: Report | Correct | RollOff) -> None: ...


def next_setup(app: _App) -> GameSetup:
    """The next game as a host is told it: the one planned (the last game's, or set up), else
    the configuration's players and rules with the dice the menu has chosen."""
    planned = app.next_setup
    if planned is not None:
        return planned
    game = app.config.game
    return GameSetup(game.players, game.rule_set, app.real_dice)


def device_hooks(app: _App, deliver: Callable[[InputEvent], None]) -> DeviceHooks:
    """How a host acts on ``app`` (on the main loop); ``deliver`` takes a host's input as the
    buttons' go (:meth:`firmware.loop.MainLoop.deliver`). Without a state directory the device
    keeps no statistics and no Spieltag."""
    store = app.store

    def stats() -> dict[str, Any]:
        return stats_payload(store.stats() if store is not None else {})

    return DeviceHooks(
        deliver=deliver,
        next_setup=lambda: next_setup(app),
        apply_setup=app.plan_next_game,
        seat_bots=lambda: app.seat_bots,
        apply_bots=app.plan_bots,
        stats=stats if store is not None else None,
        abandon=app.abandon_game,
        enter=app.enter_result,
        spieltag=(
            PageSpieltag(store.storage, store.wall_time, lambda: app.scharf)
            if store is not None else None
        ),
    )


def hello_info(language: str) -> dict[str, Any]:
    """What a ``hello`` tells about the device besides the protocol: its software's version
    and its language."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        software = version("schockbesteck")
    except PackageNotFoundError:
        software = "unknown"
    return {"version": software, "language": language}
