"""Pairing: who may change the game from outside the device.

Watching needs nothing. Pressing buttons, setting up the next game and anything else that changes
the device needs a host that was paired: someone at the table opens "Koppeln" (pair) in the menu,
the OLED shows a PIN, and the host sends it (``pair PIN`` on the link). In exchange the host gets a
token that pairs its later connections too (``auth TOKEN``), until the host unpairs itself
(``unpair``), the menu's "Kopplungen löschen" (forget pairings) revokes every token, or the device
restarts (tokens live in memory only).

A PIN is valid while its screen is open, for at most :data:`PIN_VALID_S`. Wrong tries are counted
where they come from, never against the PIN, so a script cannot spoil the PIN for the person at
the table: a connection has :data:`PIN_ATTEMPTS` wrong tries (then it is closed), and a peer
address (an IPv6 /64) :data:`ADDRESS_ATTEMPTS` in :data:`ADDRESS_WINDOW_S` over all its
connections (then its tries are refused until the window has passed). A wrong PIN, an expired one
and a try while no PIN is shown get the same answer and count the same, so the answer tells a
script nothing about the menu. One mechanism for every way in: the serial link and the table's
web page use the same :class:`Pairing` and :class:`TryCounter`.

Threads: :class:`Pairing`'s checks (:meth:`~Pairing.is_shown`, :meth:`~Pairing.knows`) read
immutable values and may run on any thread (the web server answers wrong PINs itself, off the
main loop); what changes a pairing runs on the main loop. :class:`TryCounter` takes a lock.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass

__all__ = [
    "ADDRESS_ATTEMPTS",
    "ADDRESS_WINDOW_S",
    "PIN_ATTEMPTS",
    "PIN_DIGITS",
    "PIN_VALID_S",
    "Door",
    "Pairing",
    "PairingRefused",
    "TryCounter",
]

#: Digits of a PIN.
PIN_DIGITS = 6
#: Seconds a PIN stays valid after it is shown.
PIN_VALID_S = 120.0
#: Wrong PINs or tokens one connection may send; the next closes it.
PIN_ATTEMPTS = 3
#: Wrong PINs or tokens from one peer address (an IPv6 /64) in :data:`ADDRESS_WINDOW_S` ...
ADDRESS_ATTEMPTS = 10
#: ... seconds; beyond them its tries are refused until the oldest leaves the window.
ADDRESS_WINDOW_S = 600.0
#: Peer addresses whose tries are remembered (the oldest is forgotten first).
ADDRESSES_KEPT = 1024
#: Random bytes in a token (shown as twice as many hex digits).
TOKEN_BYTES = 16


class PairingRefused(ValueError):
    """A PIN or token that does not pair: the message says why, in one line. ``close``: the
    connection is over its tries and is closed after the answer."""

    def __init__(self, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.close = close


@dataclass(frozen=True, slots=True)
class _Pin:
    digits: str
    expires: float


class Pairing:
    """The device's PIN (while shown) and the tokens of the paired hosts."""

    def __init__(self) -> None:
        self._pin: _Pin | None = None
        #: Replaced whole on every change, so that any thread may read it.
        self._tokens: frozenset[str] = frozenset()

    @property
    def paired_hosts(self) -> int:
        """How many tokens are valid."""
        return len(self._tokens)

    def is_shown(self, pin: str, now: float | None = None) -> bool:
        """Whether ``pin`` is the PIN shown (not yet used, withdrawn or, given ``now``, expired).
        Any thread."""
        shown = self._pin
        if shown is None or (now is not None and now > shown.expires):
            return False
        return hmac.compare_digest(pin.encode(), shown.digits.encode())

    def show_pin(self, now: float) -> str:
        """A fresh PIN, valid from ``now`` (the one shown before is withdrawn)."""
        digits = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self._pin = _Pin(digits, now + PIN_VALID_S)
        return digits

    def withdraw_pin(self) -> None:
        """The PIN's screen closed: it pairs no one any more."""
        self._pin = None

    def pair(self, pin: str, now: float) -> str:
        """A new token for the PIN shown now (it is used up); raises :class:`PairingRefused` for
        a wrong PIN, an expired one, or none shown, all with the same message."""
        if not self.is_shown(pin, now):
            raise PairingRefused("wrong PIN")
        self._pin = None
        token = secrets.token_hex(TOKEN_BYTES)
        self._tokens = self._tokens | {token}
        return token

    def knows(self, token: str) -> bool:
        """Whether ``token`` pairs (compared in constant time). Any thread."""
        return any(hmac.compare_digest(token.encode(), known.encode()) for known in self._tokens)

    def revoke(self, token: str) -> bool:
        """Forget one pairing (its host's ``unpair``); whether ``token`` was known."""
        known = self.knows(token)
        self._tokens = frozenset(known for known in self._tokens if known != token)
        return known

    def revoke_all(self) -> None:
        """Forget every pairing: every host must pair again."""
        self._tokens = frozenset()
        self._pin = None


def address_key(peer: str) -> str:
    """Whose tries ``peer`` counts as: an IPv4 address itself, an IPv6 address its /64 (one
    host can take many addresses of its network), anything else as it is."""
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return peer
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TryCounter:
    """Wrong tries per peer address, over every connection from it. Any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tries: OrderedDict[str, deque[float]] = OrderedDict()

    def locked(self, peer: str, now: float) -> bool:
        """Whether ``peer``'s address is over its tries at ``now``."""
        key = address_key(peer)
        with self._lock:
            tries = self._tries.get(key)
            if tries is None:
                return False
            while tries and tries[0] <= now - ADDRESS_WINDOW_S:
                tries.popleft()
            return len(tries) >= ADDRESS_ATTEMPTS

    def wrong(self, peer: str, now: float) -> None:
        """Count one wrong try of ``peer``'s address at ``now``."""
        key = address_key(peer)
        with self._lock:
            tries = self._tries.pop(key, None) or deque(maxlen=ADDRESS_ATTEMPTS)
            tries.append(now)
            self._tries[key] = tries
            while len(self._tries) > ADDRESSES_KEPT:
                self._tries.popitem(last=False)


class Door:
    """One connection's way to pairing: its own wrong tries, and its address's.

    :meth:`pin` and :meth:`token` check a try without changing the pairing; a try that passes
    is then carried out on the main loop (:meth:`Pairing.pair`, or keeping the token). A door is
    used by one thread at a time.
    """

    def __init__(self, pairing: Pairing, counter: TryCounter, peer: str) -> None:
        self.pairing = pairing
        self.counter = counter
        self.peer = peer
        #: Wrong tries of this connection so far.
        self.wrong = 0

    def pin(self, pin: str, now: float) -> None:
        """Pass if ``pin`` is the PIN shown; else :class:`PairingRefused`, counted."""
        self._admit("pair: wrong PIN; too many tries", now)
        if not self.pairing.is_shown(pin, now):
            self._refuse("pair: wrong PIN", now)

    def token(self, token: str, now: float) -> None:
        """Pass if ``token`` pairs; else :class:`PairingRefused`, counted."""
        self._admit("auth: unknown token; too many tries", now)
        if not self.pairing.knows(token):
            self._refuse("auth: unknown token (revoked, or the device restarted); pair again", now)

    def refused(self, reason: str, now: float) -> PairingRefused:
        """A try that passed here but failed on the main loop (the PIN went meanwhile): counted
        as wrong, with the same answer as any wrong try."""
        try:
            self._refuse(reason, now)
        except PairingRefused as refusal:
            return refusal
        raise AssertionError("unreachable")  # pragma: no cover

    def _admit(self, reason: str, now: float) -> None:
        if self.wrong >= PIN_ATTEMPTS:
            raise PairingRefused(f"{reason} on this connection: it is closed", close=True)
        if self.counter.locked(self.peer, now):
            minutes = round(ADDRESS_WINDOW_S / 60)
            raise PairingRefused(
                f"{reason} from this address: wait up to {minutes} minutes", close=True
            )

    def _refuse(self, reason: str, now: float) -> None:
        self.wrong += 1
        self.counter.wrong(self.peer, now)
        left = PIN_ATTEMPTS - self.wrong
        if left <= 0:
            raise PairingRefused(
                f"{reason}; too many tries on this connection: it is closed", close=True
            )
        tries = "1 try" if left == 1 else f"{left} tries"
        raise PairingRefused(f"{reason}; {tries} left on this connection")
