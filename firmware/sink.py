"""What the device tells its listeners: the engine's events and the app's own, as typed values.

Inside the process every event is a frozen dataclass: the engine's actions and outcomes
(:mod:`engine.events`) and the three the device adds (:class:`GameStarted`,
:class:`GameAbandoned`, :class:`GameResumed`). Listeners tell them apart with ``match``. A dict
exists only where a line leaves the device, and :func:`event_json` is the one encoder that
makes it (the link's and the page's lines, ``schocken sim --events``).

:class:`EventRelay` is the sink the app is given when it is built; the listeners that need the
app themselves (the link, the page) are added to it afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, assert_never

from engine.events import Event, to_json

__all__ = [
    "AppEvent",
    "DeviceEvent",
    "EventRelay",
    "EventSink",
    "GameAbandoned",
    "GameResumed",
    "GameStarted",
    "event_json",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class AppEvent:
    """An event of the device's own (not of the rules); ``kind`` is the JSON ``event`` field."""

    kind: ClassVar[str] = "app_event"


@dataclass(frozen=True, slots=True)
class GameStarted(AppEvent):
    """A game begins: its players, its rules and Deckel, its number since power-up, and the
    seats the device plays (name to strategy; empty without computer players)."""

    kind: ClassVar[str] = "game_started"
    players: tuple[str, ...]
    rules: str
    deckel: int
    game: int
    bots: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GameAbandoned(AppEvent):
    """The game under way was given up in the menu (its journal goes with it)."""

    kind: ClassVar[str] = "game_abandoned"
    game: int


@dataclass(frozen=True, slots=True)
class GameResumed(AppEvent):
    """The game a power cut interrupted goes on, after ``actions`` replayed actions."""

    kind: ClassVar[str] = "game_resumed"
    game: int
    actions: int


#: Everything the event sink carries: the engine's events and the device's own.
DeviceEvent = Event | GameStarted | GameAbandoned | GameResumed
#: Receives every event as it happens, the engine's and the device's own.
EventSink = Callable[[DeviceEvent], None]


def event_json(event: DeviceEvent) -> dict[str, Any]:
    """``event`` as the JSON object of a line that leaves the device (docs/protocol.md)."""
    match event:
        case Event():
            return to_json(event)
        case GameStarted():
            started: dict[str, Any] = {
                "event": event.kind,
                "players": list(event.players),
                "rules": event.rules,
                "deckel": event.deckel,
                "game": event.game,
            }
            if event.bots:
                started["bots"] = dict(event.bots)
            return started
        case GameAbandoned():
            return {"event": event.kind, "game": event.game}
        case GameResumed():
            return {"event": event.kind, "game": event.game, "actions": event.actions}
        case _:
            assert_never(event)


class EventRelay:
    """An event sink that passes each event on to listeners, some of them added later.

    The app takes its event sink when it is made, and the link needs the app: give the app a
    relay, then :meth:`add` the link's listener (and any other). A listener that fails is logged
    and never keeps the event from the others, nor from the game.
    """

    def __init__(self, *listeners: EventSink) -> None:
        self._listeners = list(listeners)

    def add(self, listener: EventSink) -> None:
        """Pass events to ``listener`` too."""
        self._listeners.append(listener)

    def __call__(self, event: DeviceEvent) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:  # one broken listener must not starve the others
                logger.exception("an event listener failed on %s", event.kind)
