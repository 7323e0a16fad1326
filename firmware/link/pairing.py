"""Pairing: who may change the game from outside the device.

Watching needs nothing. Pressing buttons, setting up the next game and anything else that changes
the device needs a host that was paired: someone at the table opens "Koppeln" (pair) in the menu,
the OLED shows a PIN, and the host sends it (``pair PIN`` on the link). In exchange the host gets a
token that pairs its later connections too (``auth TOKEN``), until the menu's "Kopplungen löschen"
(forget pairings) revokes every token, or the device restarts (tokens live in memory only).

A PIN is valid while its screen is open, for at most :data:`PIN_VALID_S`, and for
:data:`PIN_ATTEMPTS` wrong guesses in all: a host cannot try the million PINs. One mechanism for
every way in: the serial link and the table's web page use the same :class:`Pairing`.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

__all__ = ["PIN_ATTEMPTS", "PIN_DIGITS", "PIN_VALID_S", "Pairing", "PairingRefused"]

#: Digits of a PIN.
PIN_DIGITS = 6
#: Seconds a PIN stays valid after it is shown.
PIN_VALID_S = 120.0
#: Wrong PINs before the PIN shown is withdrawn (a new one needs the menu again).
PIN_ATTEMPTS = 3
#: Random bytes in a token (shown as twice as many hex digits).
TOKEN_BYTES = 16


class PairingRefused(ValueError):
    """A PIN or token that does not pair: the message says why, in one line."""


@dataclass
class _Pin:
    digits: str
    expires: float
    attempts_left: int = PIN_ATTEMPTS


class Pairing:
    """The device's PIN (while shown) and the tokens of the paired hosts."""

    def __init__(self) -> None:
        self._pin: _Pin | None = None
        self._tokens: set[str] = set()

    @property
    def paired_hosts(self) -> int:
        """How many tokens are valid."""
        return len(self._tokens)

    def is_shown(self, pin: str) -> bool:
        """Whether ``pin`` is still the PIN shown (not yet used, withdrawn or tried out)."""
        shown = self._pin
        return shown is not None and hmac.compare_digest(pin.encode(), shown.digits.encode())

    def show_pin(self, now: float) -> str:
        """A fresh PIN, valid from ``now`` (the one shown before is withdrawn)."""
        digits = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self._pin = _Pin(digits, now + PIN_VALID_S)
        return digits

    def withdraw_pin(self) -> None:
        """The PIN's screen closed: it pairs no one any more."""
        self._pin = None

    def pair(self, pin: str, now: float) -> str:
        """A new token for the PIN shown now; raises :class:`PairingRefused` otherwise."""
        shown = self._pin
        if shown is None:
            raise PairingRefused("no PIN is shown: open Koppeln (pair) in the device's menu first")
        if now > shown.expires:
            self._pin = None
            raise PairingRefused("the PIN has expired: open Koppeln (pair) in the menu again")
        if not hmac.compare_digest(pin.encode(), shown.digits.encode()):
            shown.attempts_left -= 1
            if shown.attempts_left <= 0:
                self._pin = None
                raise PairingRefused("wrong PIN; too many tries: open Koppeln in the menu again")
            raise PairingRefused(f"wrong PIN; {shown.attempts_left} tries left")
        self._pin = None
        token = secrets.token_hex(TOKEN_BYTES)
        self._tokens.add(token)
        return token

    def knows(self, token: str) -> bool:
        """Whether ``token`` pairs (compared in constant time)."""
        return any(hmac.compare_digest(token.encode(), known.encode()) for known in self._tokens)

    def revoke_all(self) -> None:
        """Forget every pairing: every host must pair again."""
        self._tokens.clear()
        self._pin = None
