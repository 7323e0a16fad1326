"""What the hosts of one view are sent of the game as it goes: its events, then the state.

Every host, the serial link's and each page's, is told the device's events as the table sees
them (:class:`~firmware.link.tablefeed.TableFeed`), one ``event`` line each, and after a batch
of them (everything one button press caused) one ``state`` line. A :class:`HostFeed` makes
these lines once for all the hosts it serves and remembers the last game it saw, for a ``log``
or a ``state`` after the game is gone. It serves its hosts in one of two ways:

* at once (the serial link, one host): an event's line goes out as it happens, and the batch's
  state when the main loop is next free; a state the host is sent before that (the answer to
  ``state``, a greeting) is the batch's.
* in batches (the pages): a batch's event lines wait for its state, and all of them go to every
  page together when the main loop is next free, after the OLED has its frame: one wake-up of
  the server's loop serves all pages. A page's own ``state`` answer is its own.

A feed given the table's ``cup`` (the pages') puts it into each state's turn, and after each
frame (:meth:`HostFeed.follow_cup`) sends a state when the cup changed without an event: a die
marked, a computer player showing what it lays out, the cup shaken. So the page's bar shows what
the mirror shows, in the same step.

Threads: everything here runs on the main loop. The only way in from elsewhere is the
``call_soon`` the feed is given, which it calls itself, on the loop, to send a batch's state
once the loop is free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.game import Game, GameSetup
from firmware.link.protocol import format_line
from firmware.link.tablefeed import TableFeed, rules_changed, table_snapshot
from firmware.screen.views import TableCup
from firmware.sink import DeviceEvent
from hal.ports import Link

__all__ = ["HostFeed", "NextGame", "state_payload"]


class _App(Protocol):
    """What the feed reads of the device app."""

    @property
    def game(self) -> Game | None: ...


class NextGame(Protocol):
    """Where the feed reads the next game's setup (the remote's hooks)."""

    @property
    def next_setup(self) -> Callable[[], GameSetup | None]: ...

    @property
    def seat_bots(self) -> Callable[[], tuple[str, ...]] | None: ...


class HostFeed:
    """The event and state lines of one view (the table's, or a referee's) for its hosts.

    ``batched``: serve many hosts in batches (the pages), else one at once (the serial link);
    see the module's description. ``call_soon`` runs a call on the main loop when it is next
    free; ``after_flush`` is called after each batch is out (the pages' snapshot); ``cup``
    gives the cup as the table sees it (see the module's description).
    """

    def __init__(
        self,
        app: _App,
        upcoming: NextGame,
        *,
        call_soon: Callable[[Callable[[], None]], None],
        referee: bool = False,
        batched: bool = False,
        after_flush: Callable[[], None] | None = None,
        cup: Callable[[], TableCup | None] | None = None,
    ) -> None:
        self._app = app
        self._upcoming = upcoming
        self._call_soon = call_soon
        self._table = TableFeed(referee=referee)
        self._batched = batched
        self._after_flush = after_flush
        self._hosts: list[Link] = []
        self._last_game: Game | None = None
        #: A batch's state is due (its events went out, or wait for it).
        self._due = False
        #: In batches: the event lines of the batch under way, which go out with its state.
        self._pending: list[str] = []
        self._cup = cup
        #: The cup of the last state every host was sent.
        self._cup_sent: TableCup | None = None

    @property
    def referee(self) -> bool:
        """Whether the feed shows every die (``[link] referee``)."""
        return self._table.referee

    def add(self, host: Link) -> None:
        """Send the feed's lines to ``host`` too."""
        self._hosts.append(host)

    def remove(self, host: Link) -> None:
        """Send ``host`` nothing more (a host the feed does not serve is fine)."""
        if host in self._hosts:
            self._hosts.remove(host)

    def game(self) -> Game | None:
        """The game under way, else the last one the feed saw (for ``log``)."""
        game = self._app.game
        if game is not None:
            self._last_game = game
        return self._last_game

    def publish(self, event: DeviceEvent) -> None:
        """A device event as it happens (a listener of the app's event sink): its line as the
        table may see it, now or with its batch, and the batch's state when the loop is free."""
        game = self.game()
        if self._hosts:
            line = format_line("event", self._table.event(game, event))
            if self._batched:
                self._pending.append(line)
            else:
                self._send([line])
        if not self._due:
            self._due = True
            self._call_soon(self.flush)

    def flush(self) -> None:
        """Send what published events made due: in batches their lines, then the state."""
        if not self._due:
            return
        self._due = False
        lines, self._pending = self._pending, []
        if self._hosts:
            # A batch's state shows the game it was about, even once that game is gone (the
            # pages' board keeps a game just given up); a host sent at once hears of the game
            # under way, as in any state it asks for.
            game = self.game() if self._batched else self._app.game
            lines.append(self._state_line(game, to_all=True))
            self._send(lines)
        if self._after_flush is not None:
            self._after_flush()

    def follow_cup(self) -> None:
        """After a frame: if the cup the table sees is not the one of the last state, every host
        is sent a state (unless a batch's is on its way)."""
        if self._cup is None or not self._hosts or self._due or self._app.game is None:
            return
        if self._cup() != self._cup_sent:
            self._send([self._state_line(self._app.game, to_all=True)])
            if self._after_flush is not None:
                self._after_flush()

    def state_line(self) -> str:
        """The ``state`` line answering one host now (a greeting, ``state``, ``setup``).

        Sent at once to the feed's one host, it is also the state of the batch under way.
        """
        if not self._batched:
            self._due = False
        return self._state_line(self._app.game)

    def _state_line(self, game: Game | None, *, to_all: bool = False) -> str:
        self.game()  # a state remembers its game for a later `log`
        payload = state_payload(game, self._upcoming, referee=self.referee)
        if self._cup is not None:
            cup = self._cup() if game is not None and game is self._app.game else None
            turn = payload["game"]["turn"] if payload["game"] is not None else None
            if cup is not None and turn is not None and cup.player == turn["player"]:
                turn["cup"] = {
                    "dice": list(cup.dice), "marked": list(cup.marked), "shaking": cup.shaking,
                }
            if to_all:
                self._cup_sent = cup
        return format_line("state", payload)

    def _send(self, lines: list[str]) -> None:
        for host in self._hosts:
            for line in lines:
                host.send_line(line)


def state_payload(
    game: Game | None, upcoming: NextGame, *, referee: bool = False
) -> dict[str, Any]:
    """The ``state`` line's JSON object: ``game`` as the table sees it, and the next setup."""
    planned = upcoming.next_setup()
    following: dict[str, Any] | None = None
    if planned is not None:
        following = {
            "players": list(planned.players),
            "rules": planned.rules.name,
            "rules_changed": rules_changed(planned.rules),
            "real_dice": planned.real_dice,
        }
        if upcoming.seat_bots is not None:
            seats = upcoming.seat_bots()
            following["bots"] = [
                seats[index] if index < len(seats) else "" for index in range(len(planned.players))
            ]
    return {
        "game": table_snapshot(game, referee=referee) if game is not None else None,
        "next": following,
    }
