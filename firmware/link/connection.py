"""One host's connection: whether it is paired, and whether it asked for frames.

Whether a line may be carried out for a host is decided here and nowhere else
(:meth:`Connection.refusal`): a command that changes the device, or a payload of one that the
device cannot read, needs a paired host, and pairing is said before the payload's problem. The
serial link's :class:`~firmware.link.remote.Remote` asks its connection on the main loop; a
page's connection is one object that both its :class:`~firmware.link.crowd.PageGate` (on the
web server's thread, to answer an unpaired page without the loop) and its remote (on the loop,
where the line is carried out) read, so nothing of it is copied from one side to the other.

Threads: the token is written on the main loop only (``pair``, ``auth``, ``unpair``, a
greeting) and read on any thread; :attr:`Connection.paired` reads single values (the token,
the pairing's frozen set of tokens). :attr:`Connection.frames` is written by whichever side
answers the host's ``frames`` or ``hello``: a page's gate answers only while none of the
page's lines waits on the loop, so the two sides never write it at once.
"""

from __future__ import annotations

from firmware.link.pairing import Door, Pairing, PairingRefused
from firmware.link.protocol import Command, EntryError, Parsed, ProtocolError, Setup, SetupError

__all__ = ["Connection", "needs_pairing"]


class Connection:
    """A host's pairing (its token, or pairing waived: ``trusted``), its way to pairing
    (``door``, which counts its wrong tries) and whether it asked for frames."""

    def __init__(self, pairing: Pairing, door: Door, *, trusted: bool = False) -> None:
        self.pairing = pairing
        self.door = door
        #: Pairing waived by the configuration (a serial cable's ``trust_serial``).
        self.trusted = trusted
        #: The token this connection paired with (``pair`` or ``auth``), if any.
        self._token: str | None = None
        #: Whether the host asked for frames (``frames on``).
        self.frames = False

    @property
    def paired(self) -> bool:
        """Whether this connection may change the device (paired, or pairing waived). Any
        thread."""
        token = self._token
        return self.trusted or (token is not None and self.pairing.knows(token))

    def refusal(self, parsed: Parsed) -> ProtocolError | None:
        """Why ``parsed`` may not be carried out for this connection now, or None: a command
        that changes the device, or a ``setup``'s, a result's or a ``spieltag-begin``'s
        payload that does not parse (pairing comes first), from a host that is not paired."""
        match parsed:
            case SetupError():
                word = Setup.word
            case EntryError() | Command(changing=True):
                word = parsed.word
            case _:
                return None
        return None if self.paired else needs_pairing(word)

    # -- the main loop ---------------------------------------------------------------------------

    def pair(self, pin: str, now: float) -> str:
        """Pair with the PIN shown: the new token; :class:`PairingRefused` (counted by the
        door) for a wrong one."""
        self.door.pin(pin, now)
        try:
            token = self.pairing.pair(pin, now)
        except PairingRefused:  # the PIN went since the door let it pass
            raise self.door.refused("pair: wrong PIN", now) from None
        self._token = token
        return token

    def auth(self, token: str, now: float) -> None:
        """Pair with the token of an earlier ``pair``; PairingRefused (counted) if unknown."""
        self.door.token(token, now)
        self._token = token

    def unpair(self) -> bool:
        """Forget this connection's pairing on the device (its token pairs no more); False if
        it has none to forget (pairing waived)."""
        token = self._token
        if token is None:
            return False
        self.pairing.revoke(token)
        self._token = None
        return True

    def greeted(self) -> None:
        """A greeting (a new connection, or ``hello``): unpaired, frames off."""
        self._token = None
        self.frames = False


def needs_pairing(word: str) -> ProtocolError:
    """The refusal of ``word`` from a host that is not paired."""
    return ProtocolError(
        f"{word} needs pairing: open Koppeln (pair) in the device's menu, then send "
        "pair PIN (or auth TOKEN from an earlier pairing)"
    )
