"""The device as one table of a tournament: its results to the hub, the hub's assignment back.

The reporter listens to the device's events. When a Hälfte (half), the Finale or a game ends,
it counts the game's results from its journal (:mod:`firmware.tournament.recount`, so the
same result always has the same id), puts each new one in the outbox on the medium
(:mod:`firmware.tournament.outbox`) and only then publishes it at QoS 1. A result leaves the
outbox when the hub's :class:`~firmware.wire.messages.Ack` says "stored" or "duplicate";
"refused" keeps it as refused (on the screen, never resent). Everything still in the outbox is
published again at every connect and every ``resend_s`` seconds, and after a start the
reporter first recounts the journals of its event: nothing a pulled plug interrupted is lost,
and the hub stores each id once.

A hub that lost its database asks every table for a refill (a retained
:class:`~firmware.wire.messages.RefillRequest`): the reporter answers each request once, sending
again from the journals every result of the event the hub had acknowledged, and the assignment
it holds (:meth:`Reporter.refill`); when the request is cleared it sends what waits at once.

It keeps the table's retained :class:`~firmware.wire.messages.TableStatus` (online, how many
results wait) up to date; its Last Will (:func:`last_will`) says "offline". The hub's retained
:class:`~firmware.wire.messages.Assignment` for this table is what the screen offers:
"Tisch 7 · Runde 2", the players, the time left, and the report's state.

Messages arrive on the MQTT link's thread: :meth:`Reporter.on_message` only queues them and
hands :meth:`Reporter.pump` to ``call_soon``, which runs it on the owner's thread (the device's
main loop; the simulated table pumps at each step itself), where everything else happens.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.events import GameOver, HalfOver
from engine.game import GameSetup
from engine.scoring import Scheme, lives_cost, load_scheme, scheme_from_mapping
from engine.tournament import PhaseKind
from firmware.sink import DeviceEvent, GameResumed
from firmware.store.gamestore import GameStore, KeptGame
from firmware.store.journal import JournalHeader, TournamentGame
from firmware.tournament.outbox import Outbox
from firmware.tournament.recount import recount, tournament_games
from firmware.wire.messages import (
    Ack,
    Assignment,
    RefillRequest,
    Result,
    TableStatus,
    WireError,
    ack_topic,
    assign_topic,
    refill_answer_topic,
    refill_topic,
    result_topic,
    seat_topic,
    status_topic,
    table_user,
)
from hal.ports import Clock, Storage, StorageError

__all__ = [
    "BrokerLink", "LinkMaker", "Publisher", "ReportState", "Reporter", "TableIdentity", "last_will",
    "life_scheme",
]

log = logging.getLogger("schockbesteck.tournament")


class Sent(Protocol):
    """A publish on its way (the MQTT link's ``Delivery``)."""

    def done(self) -> bool: ...


class Publisher(Protocol):
    """What the reporter needs of an MQTT link (:class:`hal.mqtt.MqttLink` is one)."""

    @property
    def connected(self) -> bool: ...

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False,
                ) -> Sent: ...

    def subscribe(self, topic: str, qos: int = 1) -> None: ...


class BrokerLink(Publisher, Protocol):
    """A :class:`Publisher` that connects in the background until stopped (the device's)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


#: Builds the link a reporter talks through, given the reporter's ``on_message`` and
#: ``on_connect_change`` (the edge builds an :class:`hal.mqtt.MqttLink` with them).
LinkMaker = Callable[[Callable[[str, bytes], None], Callable[[bool], None]], BrokerLink]


@dataclass(frozen=True, slots=True)
class TableIdentity:
    """Which table of which tournament this device is: ``number`` 7 is broker user
    ``table-7``."""

    event: str
    number: int

    @property
    def user(self) -> str:
        return table_user(self.number)


def last_will(table: TableIdentity) -> tuple[str, bytes]:
    """The Last Will's topic and payload: the table's status, offline (retained)."""
    return status_topic(table.event, table.user), TableStatus(table.user, False).to_json()


def life_scheme(assignment: Assignment) -> Scheme:
    """What costs a life at a KO or Trostrunde table: the assignment's lives scheme (the
    default lives scheme if the hub sent another)."""
    if assignment.scheme.get("preset") == "leben":
        return scheme_from_mapping(assignment.scheme)
    return load_scheme("leben")


@dataclass(frozen=True, slots=True)
class ReportState:
    """What the screen says about the reports: how many wait, how many were refused, and
    whether the broker is reachable."""

    pending: int
    refused: int
    online: bool
    #: One line when the outbox cannot be written (the results are then kept in the journals
    #: only, and recounted at the next start).
    failure: str | None = None
    #: Tournament games whose journal cannot be read whole (their results may be missing).
    unreadable: int = 0


class Reporter:
    """One table's reports: the outbox, the link to the broker, the assignment.

    ``clock`` drives the resends (:class:`hal.ports.Timed`); ``wall`` gives unix seconds (the
    time a status is stamped with, the time left of a round). ``call_soon`` (the main loop's)
    is handed :meth:`pump` from the link's thread whenever a message waits: it must run it on
    the owner's thread.
    """

    def __init__(
        self,
        table: TableIdentity,
        storage: Storage,
        *,
        clock: Clock,
        wall: Callable[[], float],
        resend_s: float = 30.0,
        call_soon: Callable[[Callable[[], object]], None] | None = None,
    ) -> None:
        self.table = table
        self.storage = storage
        self.outbox = Outbox(storage)
        self._clock = clock
        self._wall = wall
        self.resend_s = resend_s
        self._call_soon = call_soon
        self._inbox: queue.SimpleQueue[tuple[str, bytes] | bool] = queue.SimpleQueue()
        self.link: Publisher | None = None
        self.online = False
        #: The hub's assignment for this table (None until one came, or after it was cleared).
        self.assignment: Assignment | None = None
        #: One line about the last failure to keep a result, or None.
        self.failure: str | None = self.outbox.problem if self.outbox.broken else None
        #: One line for each tournament game whose journal cannot be read whole, by the
        #: journal's name (their results may not all be reported): the start's recount of
        #: every journal finds them, each later one of a journal updates what it says of it.
        self.unreadable: dict[str, str] = {}
        #: id -> when it was last published (clock time), for the resends.
        self._sent: dict[str, float] = {}
        self._last_status: tuple[bool, int, int | None] | None = None
        #: The hub's refill request this table answered last (its ``asked_at``), or None.
        self._refilled: float | None = None
        #: Called by :meth:`pump` (on the owner's thread, between the game's actions) when what
        #: the screen shows may have changed.
        self.on_change: Callable[[], None] | None = None
        self.reconcile()

    # -- the link ------------------------------------------------------------------------------

    def attach(self, link: Publisher) -> None:
        """Report through ``link`` from now on: subscribe to the acks and the assignment (the
        link subscribes again at every connect) and send what waits."""
        self.link = link
        event, user = self.table.event, self.table.user
        link.subscribe(ack_topic(event, user))
        link.subscribe(assign_topic(event, user))
        link.subscribe(refill_topic(event))
        if link.connected:
            self._connection(True)

    def on_message(self, topic: str, payload: bytes) -> None:
        """The link's ``on_message`` (any thread): queue it for :meth:`pump`."""
        self._inbox.put((topic, payload))
        if self._call_soon is not None:
            self._call_soon(self.pump)

    def on_connect_change(self, connected: bool) -> None:
        """The link's ``on_connect_change`` (any thread): queue it for :meth:`pump`."""
        self._inbox.put(connected)
        if self._call_soon is not None:
            self._call_soon(self.pump)

    def pump(self) -> int:
        """Handle everything the link queued, on the owner's thread; how many it was."""
        handled = 0
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            handled += 1
            if isinstance(item, bool):
                self._connection(item)
            else:
                self.receive(*item)
        if handled:
            self._changed()
        return handled

    def _connection(self, connected: bool) -> None:
        self.online = connected
        if connected:
            self.resend()
        self._changed()

    def receive(self, topic: str, payload: bytes) -> None:
        """One message from the broker: an Ack or this table's Assignment. Anything else, or
        anything malformed, is logged in one line and changes nothing."""
        event, user = self.table.event, self.table.user
        try:
            if topic == ack_topic(event, user):
                self._acknowledged(Ack.from_json(payload))
            elif topic == assign_topic(event, user):
                self._assigned(payload)
            elif topic == refill_topic(event):
                self._refill_asked(payload)
            else:
                log.warning("ignored a message on %s: not a topic of table %s", topic, user)
        except WireError as error:
            log.warning("ignored a message on %s: %s", topic, error)

    def _acknowledged(self, ack: Ack) -> None:
        try:
            if not self.outbox.acknowledge(ack.id, ack.status, ack.reason):
                return  # an ack again, or for a result this table does not wait for
            self._sent.pop(ack.id, None)
        except StorageError as error:
            self._fail(error)  # the result stays pending; the next ack is a "duplicate"
            return
        if ack.status == "refused":
            log.warning("the hub refused result %s: %s", ack.id, ack.reason or "no reason")
        self._status()

    def _assigned(self, payload: bytes) -> None:
        if not payload:
            self.assignment = None
            return
        assignment = Assignment.from_json(payload)
        if assignment.event != self.table.event or assignment.table != self.table.user:
            raise WireError(
                f"assignment: for {assignment.event}/{assignment.table}, "
                f"not {self.table.event}/{self.table.user}"
            )
        self.assignment = assignment
        self._status()

    def _refill_asked(self, payload: bytes) -> None:
        if not payload:  # the hub has rebuilt its rounds: what waits can be stored now
            if self._refilled is not None:
                self._refilled = None
                self.resend()
            return
        asked = RefillRequest.from_json(payload)
        if asked.event != self.table.event or asked.asked_at == self._refilled:
            return
        if self.refill() is not None:
            self._refilled = asked.asked_at

    def refill(self) -> int | None:
        """Answer the hub's refill request: every result of the event the journals hold that
        the hub acknowledged before, once more (on the refill topic; what waits for its Ack
        goes as ever, what the hub refused stays refused), and the assignment held. How many
        results; None while offline or when the journals cannot be read (the retained request
        comes again at the next connect)."""
        link = self.link
        if link is None or not self.online:
            return None
        event, user = self.table.event, self.table.user
        try:
            results = recount(self.storage, event).results
        except StorageError as error:
            self._fail(error)
            return None
        sent = 0
        for result in results:
            if result.id in self.outbox.pending or result.id in self.outbox.refused:
                continue
            link.publish(refill_answer_topic(event, user), result.to_json())
            sent += 1
        if self.assignment is not None:
            link.publish(seat_topic(event, user), self.assignment.to_json())
        log.info("answered the hub's refill with %d results", sent)
        return sent

    # -- results ---------------------------------------------------------------------------

    def __call__(self, event: DeviceEvent) -> None:
        """The device's event sink: after a half, the Finale or a game, report what ended;
        after a resumed game, whatever its journal holds.

        The journal is written before the events reach the sink: a half that goes on is in
        ``current.journal``; the action that ends the game has archived it already, and its
        last half comes with the game's end, so a half reads the current journal only (if
        there is one) and the game's end the newest archived one only.
        """
        match event:
            case GameOver():
                self.sync(current=False)
            case HalfOver():
                self.sync(archived=False)
            case GameResumed():
                self.sync()
            case _:
                pass

    def sync(self, *, current: bool = True, archived: bool = True) -> int:
        """Report the results of the latest games (the current journal, the newest archived
        one) that are not in the outbox yet; how many were new."""
        latest = GameStore(self.storage).latest(archived=archived, current=current)
        ours = [game for game in latest if _of_event(game.header, self.table.event)]
        if not ours:
            return 0
        return self._recounted(ours)

    def reconcile(self) -> int:
        """Report every result the event's journals hold that the outbox does not know (after
        a start: a pulled plug may have come between a journal and the outbox)."""
        return self._recounted(None)

    def _recounted(self, games: list[KeptGame] | None) -> int:
        try:
            counted = recount(self.storage, self.table.event, games)
        except StorageError as error:
            self._fail(error)
            return 0
        if games is None:
            self.unreadable = dict(counted.unreadable)
        else:
            for game in games:
                self.unreadable.pop(game.name, None)
            self.unreadable.update(counted.unreadable)
        return self._take(list(counted.results))

    def _take(self, results: list[Result]) -> int:
        fresh = 0
        for result in results:
            if self.outbox.knows(result.id):
                continue
            try:
                self.outbox.put(result.id, result.to_json().decode("utf-8"))
            except StorageError as error:
                self._fail(error)  # not published: the next start recounts it
                return fresh
            fresh += 1
            self._publish(result.id, self.outbox.pending[result.id])
        if fresh:
            self.failure = None
            self._status()
        return fresh

    def _publish(self, ident: str, text: str) -> None:
        link = self.link
        if link is None or not self.online:
            return  # sent at the next connect
        link.publish(result_topic(self.table.event, self.table.user), text.encode("utf-8"))
        self._sent[ident] = self._clock.now()

    def resend(self) -> int:
        """Publish every result still waiting for its Ack, and the status; how many."""
        waiting = self.waiting()
        for ident, text in waiting.items():
            self._publish(ident, text)
        self._status(force=True)
        return len(waiting)

    def waiting(self) -> dict[str, str]:
        """The results of this table's event still waiting for the hub's Ack (an outbox
        may still hold another tournament's: they stay there, never sent to this one)."""
        prefix = f"{self.table.event}/{self.table.user}/"
        return {i: text for i, text in self.outbox.pending.items() if i.startswith(prefix)}

    def _status(self, *, force: bool = False) -> None:
        link = self.link
        current = (True, len(self.waiting()),
                   self.assignment.round if self.assignment else None)
        if link is None or not self.online or (not force and current == self._last_status):
            return
        status = TableStatus(self.table.user, True, current[1], current[2], self._wall())
        link.publish(status_topic(self.table.event, self.table.user), status.to_json(),
                     retain=True)
        self._last_status = current

    # -- timers (hal.ports.Timed) --------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When the result published longest ago is due again (None while offline: the
        connect sends everything)."""
        waiting = self.waiting()
        if not self.online or self.link is None or not waiting:
            return None
        now = self._clock.now()
        return min(self._sent.get(ident, now) for ident in waiting) + self.resend_s

    def advance(self, now: float) -> None:
        """Publish again each result whose Ack has not come ``resend_s`` after it went."""
        if not self.online:
            return
        for ident, text in self.waiting().items():
            if self._sent.get(ident, now) + self.resend_s <= now:
                self._publish(ident, text)

    # -- the tournament game and the screen ---------------------------------------------------

    def next_place(self) -> TournamentGame | None:
        """Where the next game started with the assigned players stands in the tournament:
        the round, and the next number of a game at this table in it (counting the games in
        the journals and every id the outbox knows, so that no number is used twice)."""
        assignment = self.assignment
        if assignment is None:
            return None
        played = [0]
        for game in GameStore(self.storage).kept():
            place = game.header.tournament if game.header is not None else None
            if place is not None and (place.event, place.round) == (
                assignment.event, assignment.round
            ):
                played.append(place.game)
        prefix = f"{assignment.event}/{assignment.table}/r{assignment.round}/g"
        for ident in [*self.outbox.pending, *self.outbox.done, *self.outbox.refused]:
            if ident.startswith(prefix):
                number = ident[len(prefix):].split("/", 1)[0]
                if number.isdigit():
                    played.append(int(number))
        return TournamentGame(
            assignment.event, assignment.table, assignment.round, max(played) + 1
        )

    def players_in(self) -> tuple[str, ...]:
        """The assigned players who play the table's next game, in the hub's order: all of
        them in a points round; in a KO round or the Trostrunde those with a life left (the
        lives the hub drew the round with, less what this round's games in the journals cost
        under :func:`life_scheme`), since a player out plays no more game. Empty without an
        assignment."""
        assignment = self.assignment
        if assignment is None:
            return ()
        if assignment.kind is PhaseKind.POINTS:
            return assignment.players
        scheme = life_scheme(assignment)
        lives = {player: scheme.lives for player in assignment.players}
        lives.update(assignment.lives)
        games = [
            game for game in tournament_games(GameStore(self.storage), assignment.event)
            if game.header is not None and _same_round(game.header.tournament, assignment)
        ]
        for result in recount(self.storage, assignment.event, games).results:
            if result.kind != "game":
                continue
            game = result.game_result()
            for player in game.players:
                if player in lives:
                    lives[player] -= min(lives[player], lives_cost(scheme, game, player))
        return tuple(player for player in assignment.players if lives[player] > 0)

    def place_for(self, setup: GameSetup) -> TournamentGame | None:
        """The tournament place of a game of ``setup``, for its journal's header: a game of
        the players still in (:meth:`players_in`, at least two) is the round's next game at
        this table; any other game is not part of the tournament (None)."""
        assignment = self.assignment
        players = self.players_in()
        if assignment is None or len(players) < 2 or tuple(setup.players) != players:
            return None
        return self.next_place()

    def time_left(self) -> float | None:
        """Seconds until the assigned round's time box ends (0 once over); None without one."""
        if self.assignment is None or self.assignment.ends_at is None:
            return None
        return max(0.0, self.assignment.ends_at - self._wall())

    def state(self) -> ReportState:
        """The report's state for the screen."""
        prefix = f"{self.table.event}/"
        refused = sum(ident.startswith(prefix) for ident in self.outbox.refused)
        return ReportState(
            len(self.waiting()), refused, self.online, self.failure, len(self.unreadable)
        )

    def _fail(self, error: StorageError) -> None:
        message = str(error)
        if message != self.failure:
            log.error("a result could not be kept in the outbox: %s", message)
        self.failure = message

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()



def _of_event(header: JournalHeader | None, event: str) -> bool:
    """Whether a journal holds a game of ``event`` (or cannot be read: the recount says so)."""
    return header is None or (header.tournament is not None and header.tournament.event == event)


def _same_round(place: TournamentGame | None, assignment: Assignment) -> bool:
    """Whether a journal's tournament game is one of this table's in the assigned round."""
    return place is not None and (place.event, place.table, place.round) == (
        assignment.event, assignment.table, assignment.round
    )
