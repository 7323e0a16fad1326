"""Who may use the director's desk: the password, the sessions, the wrong tries.

The desk has one password (``deploy/install.sh --hub`` writes it for the service; ``schocken
hub serve --desk-password-file``). A login makes a session: a random token of 32 bytes in a
cookie (``HttpOnly``, ``SameSite=Strict``, only under ``/desk``), which ends
:data:`IDLE_S` after its last request and :data:`LONGEST_S` after the login at the latest, or
at the logout; a hub restarted forgets every session. Each session has a CSRF token of its own
that every form carries and every POST must give back; and a POST must come from the desk's own
page (its ``Origin`` is the address the request was made to). Wrong passwords are counted per
client address and in all: :data:`TRIES_PER_ADDRESS` within :data:`TRY_WINDOW_S` from one
address, or :data:`TRIES_IN_ALL` from all, and the next login waits until the oldest try is
older than that. Nothing here logs or shows a password or a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

__all__ = ["COOKIE", "DeskLogin", "DeskSession", "from_own_page"]

#: The session cookie's name.
COOKIE = "schocken_desk"
#: A session ends this long after its last request, and this long after its login at the latest.
IDLE_S = 2 * 3600.0
LONGEST_S = 14 * 3600.0
#: Most sessions at once (a desk, a laptop, a phone or two); a new one ends the oldest.
MAX_SESSIONS = 8
#: Wrong passwords allowed within the window, from one address and from all addresses.
TRY_WINDOW_S = 300.0
TRIES_PER_ADDRESS = 5
TRIES_IN_ALL = 20
#: Addresses whose wrong tries are remembered (the oldest forgotten first).
MAX_ADDRESSES = 256
#: The longest password taken (a longer one is wrong without comparing).
MAX_PASSWORD = 256


@dataclass(slots=True)
class DeskSession:
    """A director logged in: who (kept with every action), the CSRF token of the forms, and
    since when."""

    who: str
    csrf: str
    started: float
    last: float
    #: What the next page shows once: the last action's outcome.
    flash: list[str] = field(default_factory=list)


def from_own_page(headers: Mapping[str, str]) -> bool:
    """Whether a POST came from a page of this hub: its ``Origin`` (headers in lower case) names
    the address the request was made to (its ``Host``). A browser sends ``Origin`` with every
    POST (the desk's pages say ``Referrer-Policy: same-origin`` so that it is not "null");
    none, "null" or another is refused."""
    origin, host = headers.get("origin", ""), headers.get("host", "")
    if not origin or not host or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class DeskLogin:
    """The desk's password, its sessions and its wrong tries (any thread)."""

    def __init__(self, password: str, clock: Callable[[], float]) -> None:
        self._digest = hashlib.sha256(password.encode()).digest()
        self._clock = clock
        self._sessions: dict[str, DeskSession] = {}
        self._tries: dict[str, deque[float]] = {}
        self._all_tries: deque[float] = deque()
        self._lock = threading.Lock()

    def wait_s(self, address: str) -> float:
        """How long ``address`` must wait before its next login (0: it may try now)."""
        now = self._clock()
        with self._lock:
            self._forget_tries(now)
            waits = [0.0]
            mine = self._tries.get(address)
            if mine is not None and len(mine) >= TRIES_PER_ADDRESS:
                waits.append(mine[0] + TRY_WINDOW_S - now)
            if len(self._all_tries) >= TRIES_IN_ALL:
                waits.append(self._all_tries[0] + TRY_WINDOW_S - now)
            return max(waits)

    def log_in(self, address: str, password: str, who: str) -> tuple[str, DeskSession] | None:
        """A new session (its token and itself) for the right password, else None (counted);
        the caller asks :meth:`wait_s` first."""
        given = password.encode()[:MAX_PASSWORD + 1]
        right = len(given) <= MAX_PASSWORD and hmac.compare_digest(
            hashlib.sha256(given).digest(), self._digest
        )
        now = self._clock()
        with self._lock:
            if not right:
                self._forget_tries(now)
                if address not in self._tries and len(self._tries) >= MAX_ADDRESSES:
                    del self._tries[next(iter(self._tries))]
                self._tries.setdefault(address, deque()).append(now)
                self._all_tries.append(now)
                return None
            self._tries.pop(address, None)
            while len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions, key=lambda token: self._sessions[token].last)
                del self._sessions[oldest]
            token = secrets.token_urlsafe(32)
            desk_session = DeskSession(who, secrets.token_urlsafe(32), now, now)
            self._sessions[token] = desk_session
            return token, desk_session

    def session(self, token: str) -> DeskSession | None:
        """The session of a cookie's token, if it is one and has not ended (its last request
        is now)."""
        if not token:
            return None
        now = self._clock()
        with self._lock:
            desk_session = self._sessions.get(token)
            if desk_session is None:
                return None
            if now - desk_session.last > IDLE_S or now - desk_session.started > LONGEST_S:
                del self._sessions[token]
                return None
            desk_session.last = now
            return desk_session

    def log_out(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)

    @staticmethod
    def csrf_ok(desk_session: DeskSession, given: str) -> bool:
        """Whether a form gave back its session's CSRF token."""
        return hmac.compare_digest(desk_session.csrf.encode(), given.encode())

    def _forget_tries(self, now: float) -> None:
        for address in list(self._tries):
            tries = self._tries[address]
            while tries and now - tries[0] >= TRY_WINDOW_S:
                tries.popleft()
            if not tries:
                del self._tries[address]
        while self._all_tries and now - self._all_tries[0] >= TRY_WINDOW_S:
            self._all_tries.popleft()
