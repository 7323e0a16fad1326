"""The device side of the link protocol: a host mirrors and drives the device over a serial line.

:class:`Remote` answers a host (a laptop, a second panel, a serial terminal) as docs/protocol.md
describes: it greets every new connection with ``hello`` and the current state, turns ``press``,
``hold`` and ``shake`` into the very :class:`~hal.ports.InputEvent` values the buttons and the
tilt switch produce, answers ``state`` and ``log``, applies ``setup`` between games, and publishes
engine events, state snapshots and (on request) every new OLED frame.

Threads. The :class:`~hal.ports.Link` calls back on its reader thread; the app belongs to the main
loop. So the two link callbacks do nothing but hand the work to ``call_soon`` (the main loop's
thread-safe "run this on the loop" queue), and everything else in this class runs on the main loop
thread, between input events, exactly like a button press. A host can never race the buttons, and
a misbehaving host costs an ``error`` line, never an exception in the loop: every command is
checked before it touches the app.

Sending goes through ``link.send_line``, which only queues: the main loop never waits for a host.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from engine import Game, GameSetup
from engine.events import Correct, Report, RollOff
from firmware.link.connection import Connection
from firmware.link.feed import HostFeed
from firmware.link.pairing import Door, Pairing, PairingRefused, TryCounter
from firmware.link.protocol import (
    BUTTON_NAMES,
    INTERNAL_ERROR,
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    Abandon,
    Auth,
    Command,
    CorrectTurn,
    Frames,
    Hello,
    Help,
    Hold,
    Log,
    Pair,
    Parsed,
    Ping,
    Press,
    ProtocolError,
    ReportRollOff,
    ReportTurn,
    Setup,
    SetupError,
    Shake,
    SpieltagAsk,
    SpieltagBegin,
    SpieltagEnd,
    State,
    Stats,
    Unpair,
    encode_frame,
    format_line,
    help_text,
    log_page,
    one_line,
    read_line,
    to_json_text,
)
from firmware.link.tablefeed import table_log_lines
from firmware.sink import DeviceEvent
from hal.ports import SCREEN_SIZE, Clock, InputEvent, InputKind, Link
from hal.quietlog import QuietLog, failure_place, where_it_failed

__all__ = ["DeviceHooks", "Remote", "SpieltagDesk", "greeting"]

logger = logging.getLogger(__name__)
#: What the hosts' lines trip in the device's own code, logged once a minute at most.
QUIET = QuietLog(logger)


class _App(Protocol):
    """What the remote reads of the device app."""

    @property
    def game(self) -> Game | None: ...

    def screen(self) -> Image.Image: ...

    def table_screen(self) -> Image.Image: ...


class SpieltagDesk(Protocol):
    """The Spieltag's commands on a device that keeps its games
    (:class:`firmware.link.evening_page.PageSpieltag`), on the main loop."""

    def answer(self) -> dict[str, Any]:
        """The ``spieltag`` line's JSON."""

    def begin(self, asked: SpieltagBegin) -> None:
        """Begin the Spieltag asked for; ValueError (one line) for what cannot be."""

    def end(self) -> None:
        """End the Spieltag going on; ValueError (one line) for what cannot be."""


@dataclass(frozen=True, slots=True)
class DeviceHooks:
    """How the remote acts on the device; all are called on the main loop thread.

    ``deliver`` takes an input event exactly as the decoder's events are taken (waking the
    display, handling, redrawing). ``next_setup`` tells who plays the next game under which
    rules; ``apply_setup`` changes it (called only while no game is running). ``seat_bots`` and
    ``apply_bots`` read and set the computer players per seat of the next game (a strategy name,
    or "" for a person), ``stats`` the statistics of past games (``stats`` line); a device
    without them refuses ``setup``'s ``bots`` and ``stats``. ``abandon`` gives up the game under
    way (RuntimeError if none is); a device without it refuses ``abandon``. ``enter`` takes a
    result thrown with real dice (a ``report``, ``correct`` or ``rolloff``), once the engine
    allows it (RuntimeError if no game is running); a device without it refuses them.
    """

    deliver: Callable[[InputEvent], None]
    next_setup: Callable[[], GameSetup | None]
    apply_setup: Callable[[GameSetup], None]
    seat_bots: Callable[[], tuple[str, ...]] | None = None
    apply_bots: Callable[[tuple[str, ...]], None] | None = None
    stats: Callable[[], dict[str, Any]] | None = None
    abandon: Callable[[], None] | None = None
    enter: Callable[[Report | Correct | RollOff], None] | None = None
    #: The Spieltag's ``spieltag``, ``spieltag-begin`` and ``spieltag-end``. None: a device
    #: that keeps no games.
    spieltag: SpieltagDesk | None = None


class Remote:
    """The protocol's device end, on a :class:`~hal.ports.Link`.

    ``call_soon(fn)`` must run ``fn`` on the main loop thread and may be called from any thread.
    ``info`` goes into the ``hello`` line (device name, software version, ...). ``connection``
    is the host's pairing and frames (a page's, read by its gate on the web server's thread
    too); without one the remote makes its own, the serial link's, whose wrong tries count
    under one address and whose pairing ``trust_serial`` waives on a cable. The events and the
    state after each batch come from a :class:`~firmware.link.feed.HostFeed`: the remote's own,
    which serves its link at once, or ``feed``, shared with other remotes (the pages'), which
    serves the link once it is added to it (``referee`` is then the feed's).
    """

    def __init__(
        self,
        link: Link,
        app: _App,
        hooks: DeviceHooks,
        *,
        clock: Clock,
        call_soon: Callable[[Callable[[], None]], None],
        pairing: Pairing,
        trust_serial: bool = False,
        referee: bool = False,
        info: Mapping[str, Any] | None = None,
        feed: HostFeed | None = None,
        connection: Connection | None = None,
    ) -> None:
        self._link = link
        self._app = app
        self._hooks = hooks
        self._clock = clock
        self._call_soon = call_soon
        if connection is None:
            # A cable is physical: the config may waive pairing on it, never on a network.
            trusted = trust_serial and not link.network
            connection = Connection(pairing, Door(pairing, TryCounter(), "link"), trusted=trusted)
        self._connection = connection
        if feed is None:
            feed = HostFeed(app, hooks, call_soon=call_soon, referee=referee)
            feed.add(link)
        self._feed = feed
        self._referee = feed.referee
        self._info = dict(info or {})
        self._last_frame: bytes | None = None
        self._screen: Image.Image | None = None
        self._started = False

    @property
    def link(self) -> Link:
        """The link the remote speaks on."""
        return self._link

    @property
    def connection(self) -> Connection:
        """The host's pairing and frames."""
        return self._connection

    # -- link side (reader thread) ---------------------------------------------------------------

    def start(self, on_line: Callable[[bytes], None] | None = None) -> None:
        """Start the link; from now on received lines are parsed and carried out on the main
        loop, or handed to ``on_line`` on the link's thread (the page's gate, which parses them
        and forwards what it does not answer itself to :meth:`handle`)."""
        if not self._started:
            self._started = True
            self._link.start(on_line or self._received, self._connected)

    def close(self) -> None:
        """Close the link. Idempotent."""
        self._link.close()

    def _received(self, raw: bytes) -> None:
        self._call_soon(lambda: self.handle_line(raw))

    def _connected(self) -> None:
        self._call_soon(self._new_connection)

    def _new_connection(self) -> None:
        self._connection.door.wrong = 0  # a new connection's own tries (its address's count)
        self.greet()

    # -- main loop side --------------------------------------------------------------------------

    def greet(self) -> None:
        """A new host: ``hello``, then the current state. Frames start switched off, and a new
        connection starts unpaired."""
        self._connection.greeted()
        self._last_frame = None
        trusted = self._connection.trusted
        self._send(greeting(self._info, trusted=trusted, referee=self._referee))
        self._send_state()

    def handle_line(self, raw: bytes) -> None:
        """One line received on this remote's own link (the serial link's): parsed here, then
        carried out as :meth:`handle` does."""
        try:
            parsed = read_line(raw)
        except Exception as error:  # a bug of ours must not take the device down
            self._failed(raw[:80], error)
            return
        if parsed is not None:
            self.handle(parsed)

    def handle(self, parsed: Parsed) -> None:
        """Carry out one parsed line (a page's, parsed by its gate): its answer, or exactly one
        ``error`` line."""
        try:
            self._carry_out(parsed)
        except ProtocolError as error:
            self._send(format_line("error", one_line(str(error))))
        except Exception as error:  # a bug of ours must not take the device down
            self._failed(parsed, error)

    def _failed(self, what: object, error: Exception) -> None:
        shown = what.word if isinstance(what, Command) else repr(what)[:80]
        QUIET.note(
            f"command {failure_place(error)}",
            f"link: a command failed: {where_it_failed(error)}; it was {shown}",
            logging.ERROR,
        )
        self._send(format_line("error", INTERNAL_ERROR))

    def _carry_out(self, parsed: Parsed) -> None:
        refusal = self._connection.refusal(parsed)  # pairing first
        if refusal is not None:
            raise refusal
        if isinstance(parsed, SetupError):
            # Then whatever comes before the payload's problem on the next setup as it stands.
            self._refuse_setup_while_playing()
            raise parsed.on(self._hooks.next_setup())
        if isinstance(parsed, ProtocolError):
            raise parsed
        self._execute(parsed)

    def publish_event(self, event: DeviceEvent) -> None:
        """A device event as it happens (a listener of the app's event sink), as the table may
        see it (:mod:`firmware.link.tablefeed`): an ``event`` line now, and a ``state`` snapshot
        once the whole batch is out (when the main loop is next free)."""
        self._feed.publish(event)

    def flush(self) -> None:
        """Send the ``state`` snapshot that published events made due, if any."""
        self._feed.flush()

    def show(self, image: Image.Image) -> None:
        """The display shows ``image``: send a ``frame`` if frames are on and it changed.

        A paired host (it stands in for the player holding the device) and a referee get the
        OLED's own image; any other host the table's (``DeviceApp.table_screen``), in which no
        die under the cup, no hint and no pairing PIN shows.

        The main loop calls this as a frame listener, beside the display rather than through a
        wrapper around it: a wrapper would have to pass on everything the display can do (its
        reconnection timers, say) and would hide whatever it forgot.
        """
        self._screen = image
        if self._connection.frames:
            self._send_frame(self._frame())

    @property
    def paired(self) -> bool:
        """Whether this connection may change the device (paired, or pairing waived)."""
        return self._connection.paired

    def _frame(self) -> Image.Image:
        if self._referee or self.paired:
            return self._screen if self._screen is not None else self._app.screen()
        return self._app.table_screen()

    # -- commands --------------------------------------------------------------------------------

    def _execute(self, command: Command) -> None:
        match command:
            case Pair(pin):
                try:
                    token = self._connection.pair(pin, self._clock.now())
                except PairingRefused as refusal:
                    self._refuse_pairing(refusal)
                    return
                self._send(f"ok pair {token}")
            case Auth(token):
                try:
                    self._connection.auth(token, self._clock.now())
                except PairingRefused as refusal:
                    self._refuse_pairing(refusal)
                    return
                self._send("ok auth")
            case Unpair():
                if not self._connection.unpair():
                    raise ProtocolError(
                        "unpair: this cable is trusted by the configuration ([link] "
                        "trust_serial); it has no pairing to forget"
                    )
                self._send("ok unpair")
            case Hello():
                if not self._link.network:  # a cable is physical: its address's tries still count
                    self._connection.door.wrong = 0
                self.greet()
            case Help():
                self._send(format_line("help", help_text()))
            case Ping(token):
                self._send(format_line("pong", token or None))
            case State():
                self._send_state()
            case Log(start):
                self._send_log(start)
            case Frames(on):
                self._connection.frames = on
                self._last_frame = None
                self._send(f"ok frames {'on' if on else 'off'}")
                if on:
                    self._send_frame(self._frame())
            case Setup():
                self._setup(command)
            case Abandon():
                self._abandon(command)
            case Stats():
                if self._hooks.stats is None:
                    raise ProtocolError("stats: this device keeps no games (no state directory)")
                self._send(format_line("stats", self._hooks.stats()))
            case Press(button) | Hold(button):
                kind = InputKind.PRESS if isinstance(command, Press) else InputKind.LONG_PRESS
                self._input(command, InputEvent(kind, self._clock.now(), button))
            case Shake():
                now = self._clock.now()
                shaken = InputEvent(InputKind.SHAKE_START, now), InputEvent(InputKind.THROW, now)
                self._input(command, *shaken)
            case ReportTurn() | CorrectTurn() | ReportRollOff():
                self._enter(command)
            case SpieltagAsk() | SpieltagBegin() | SpieltagEnd():
                self._spieltag(command)
            case _:  # a command parse_command knows and this match does not: still one answer
                raise NotImplementedError(f"{command.word} is parsed but not carried out")

    def _spieltag(self, command: SpieltagAsk | SpieltagBegin | SpieltagEnd) -> None:
        """The Spieltag's commands: its standings, or beginning or ending it (then ``ok``)."""
        desk = self._hooks.spieltag
        if desk is None:
            raise ProtocolError(f"{command.word}: this device keeps no games (no state directory)")
        if not isinstance(command, SpieltagAsk):
            try:
                if isinstance(command, SpieltagBegin):
                    desk.begin(command)
                else:
                    desk.end()
            except ValueError as error:
                raise ProtocolError(f"{command.word}: {one_line(str(error))}") from None
            self._send(f"ok {command.word}")
        self._send(format_line("spieltag", desk.answer()))

    def _refuse_pairing(self, refusal: PairingRefused) -> None:
        """Answer a refused ``pair`` or ``auth``; a network connection over its tries is closed
        after the answer (a cable stays, refusing its tries until its address's have passed)."""
        self._send(format_line("error", one_line(str(refusal))))
        if refusal.close and self._link.network:
            self._link.close()

    def _input(self, command: Command, *events: InputEvent) -> None:
        for event in events:
            self._hooks.deliver(event)
        self.flush()  # everything the input caused goes out before the ok
        self._send(f"ok {command.word}")

    def _abandon(self, command: Abandon) -> None:
        if self._hooks.abandon is None:
            raise ProtocolError("abandon: this device cannot give up a game from the link")
        try:
            self._hooks.abandon()
        except RuntimeError as error:  # the app's word that no game is under way
            raise ProtocolError(f"abandon refused: {error}") from None
        self.flush()  # the game_abandoned event and the state go out before the ok
        self._send(f"ok {command.word}")

    def _enter(self, command: ReportTurn | CorrectTurn | ReportRollOff) -> None:
        """A result thrown with real dice: checked by the engine, whose refusal goes back as
        ``error WORD refused: REASON: words`` (the page words it by the reason)."""
        word = command.word
        if self._hooks.enter is None:
            raise ProtocolError(f"{word}: this device takes no results from the link")
        game = self._app.game
        if game is None or game.is_over:
            raise ProtocolError(f"{word} refused: no_turn: no game is running")
        if not game.real_dice:  # the device's own roll-off takes no dice from outside either
            raise ProtocolError(
                f"{word} refused: device_dice: this game is played with the device's dice: "
                "throw them, a result is not reported"
            )
        action: Report | Correct | RollOff
        match command:
            case ReportRollOff(dice=dice):
                action = RollOff(game.contenders, dice)
            case ReportTurn(player=player, dice=dice, throws=throws, blind=blind):
                action = Report(player, dice, throws, command.from_hand, blind)
            case CorrectTurn(player=player, dice=dice, throws=throws, blind=blind):
                action = Correct(player, dice, throws, command.from_hand, blind)
        refusal = game.why_not(action)
        if refusal is not None:
            raise ProtocolError(f"{word} refused: {refusal.reason.value}: {refusal.message}")
        try:
            self._hooks.enter(action)
        except RuntimeError as error:  # the app's word that no game is under way
            raise ProtocolError(f"{word} refused: no_turn: {error}") from None
        self.flush()  # the events and the state go out before the ok
        self._send(f"ok {word}")

    def _refuse_setup_while_playing(self) -> None:
        """Refuse a ``setup`` while a game is running (its host is paired: that comes first)."""
        game = self._app.game
        if game is not None and not game.is_over:
            raise ProtocolError(
                "setup refused: a game is running; finish it (or end it on the device) first"
            )

    def _setup(self, command: Setup) -> None:
        self._refuse_setup_while_playing()
        setup, bots = command.on(self._hooks.next_setup())
        if bots is not None:
            if self._hooks.apply_bots is None:
                raise ProtocolError('setup: this device plays no seats itself; leave out "bots"')
            self._hooks.apply_bots(bots)
        try:
            self._hooks.apply_setup(setup)
        except RuntimeError as error:  # the app's own word that a game is under way
            raise ProtocolError(f"setup refused: {error}") from None
        self._send("ok setup")
        self._send_state()

    # -- answers ---------------------------------------------------------------------------------

    def _send(self, line: str, *, droppable: bool = False) -> None:
        self._link.send_line(line, droppable=droppable)

    def _send_state(self) -> None:
        self._send(self._feed.state_line())

    def _send_log(self, start: int) -> None:
        """One page of the log from event ``start`` (see
        :func:`~firmware.link.protocol.log_page`)."""
        game = self._feed.game()
        if game is None:
            raise ProtocolError("log: no game has been played since the device started")
        entries = table_log_lines(game, referee=self._referee)
        if start > len(entries):
            raise ProtocolError(
                f"log {start}: the game has {len(entries)} events; give 0 to {len(entries)}"
            )
        lines, following = log_page(entries, start)
        header = {
            "players": list(game.players),
            "rules": game.rules.to_mapping(),
            "from": start,
            "events": len(lines),
            "total": len(entries),
            "next": following,
            "over": game.is_over,
        }
        self._send(format_line("log", header))
        for line in lines:
            self._send(line)
        self._send("end")

    def _send_frame(self, image: Image.Image) -> None:
        packed = image.tobytes()
        if packed == self._last_frame:
            return
        self._last_frame = packed
        self._send(format_line("frame", encode_frame(image)), droppable=True)


def greeting(info: Mapping[str, Any], *, trusted: bool, referee: bool) -> str:
    """The ``hello`` line: the protocol, and the device as ``info`` describes it."""
    described = {
        "device": PROTOCOL_NAME,
        "screen": list(SCREEN_SIZE),
        "buttons": list(BUTTON_NAMES),
        "pairing": "waived" if trusted else "required",
        "referee": referee,
        **info,
    }
    return f"hello {PROTOCOL_NAME} {PROTOCOL_VERSION} {to_json_text(described)}"
