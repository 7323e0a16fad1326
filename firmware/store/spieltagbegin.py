"""Beginning a Spieltag: one function for every door (the menu, the page, the command line).

Each door translates what it was asked into a :class:`SpieltagRequest` and calls
:func:`begin_spieltag` with the wall time; the evening gets its one ID (the wall time's,
``20261201-193000``), one set of checks and its file (:class:`~firmware.store.spieltagfile.
SpieltagFiles`). A refusal is one :class:`~engine.spieltag.SpieltagError` line naming the
value and what is allowed, in the door's own names for the values (:class:`Wording`: the
page's JSON keys, the command line's options), which the door turns into its surface (the
command line's exit status 2, the page's ``error spieltag-begin ...``, the menu's message).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from engine.kasse import Kasse
from engine.league import with_substitute
from engine.scoring import SCHEME_PRESETS, Scheme, load_scheme
from engine.spieltag import (
    MAX_REMARKS,
    LeaguePlayer,
    Spieltag,
    SpieltagError,
    is_date,
    spieltag_from_mapping,
    spieltag_to_mapping,
    time_box_problem,
)
from firmware.names import name_problem
from firmware.store.spieltagfile import SpieltagFiles
from hal.ports import Storage

__all__ = [
    "COMMAND_LINE", "PAGE", "SpieltagRequest", "Wording", "begin_spieltag", "spieltag_id",
]

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


@dataclass(frozen=True, slots=True)
class SpieltagRequest:
    """What a door was asked for a new Spieltag, unchecked."""

    #: Its name or number; None: "Spieltag N", numbered after the evenings kept (the menu's).
    name: str | None = None
    #: A scoring preset's name, or a scheme the door read already (the command line's file).
    scheme: str | Scheme = "verlustpunkte"
    #: The day, YYYY-MM-DD; "": the wall time's.
    date: str = ""
    venue: str = ""
    #: The sides of a league match (both or neither).
    home: str = ""
    guest: str = ""
    #: The table of a league match this device keeps (1 or 2).
    table: int = 1
    players: tuple[LeaguePlayer, ...] = ()
    #: Minutes after which the game in play goes on scharf (1-600); None: no time box.
    time_box: int | None = None
    #: The evening's Kasse (the scoring file's ``[kasse]``, read by the door); None: none.
    kasse: Kasse | None = None
    #: A league match's header: the league or Staffel, the match's number, the captains,
    #: remarks (a protest).
    league: str = ""
    match_number: str = ""
    home_captain: str = ""
    guest_captain: str = ""
    remarks: str = ""
    #: Substitutes (Auswechselspieler), each on the seat of one of ``players``; table 0: that
    #: player's table.
    substitutes: tuple[LeaguePlayer, ...] = ()


@dataclass(frozen=True, slots=True)
class Wording:
    """How a door names the values of a request in a refusal: by default the page's (its JSON
    keys, values quoted); :data:`COMMAND_LINE` the command line's options."""

    name: str = "name"
    scheme: str = "scheme"
    date: str = "date"
    time_box: str = "time box"
    home: str = "home"
    guest: str = "guest"
    venue: str = "venue"
    player: str = "player"
    table: str = "table"
    league: str = "league"
    match_number: str = "match number"
    home_captain: str = "home captain"
    guest_captain: str = "guest captain"
    remarks: str = "remarks"
    substitute: str = "substitute"
    #: Values quoted as JSON text is, or as typed on a command line.
    quoted: bool = True

    def said(self, label: str, value: object) -> str:
        """``label`` and the value asked, as a refusal begins."""
        return f"{label} {value!r}" if self.quoted else f"{label} {value}"


#: The page's names (``spieltag-begin``'s JSON keys), and the file's.
PAGE = Wording()
#: The command line's names (``schocken spieltag begin``).
COMMAND_LINE = Wording("--name", "--scoring", "--date", "--time-box", "--home", "--guest",
                       "--venue", "--player", "--table", "--league", "--match-number",
                       "--home-captain", "--guest-captain", "--remarks", "--substitute",
                       quoted=False)
#: The longest text of a Spieltag's (its name, venue, sides), as its file keeps them.
_MAX_TEXT = 80


def _text_problem(text: str, limit: int = _MAX_TEXT) -> str | None:
    """Why ``text`` cannot be a Spieltag's name, venue or side (one line), or None."""
    if len(text) > limit:
        return f"{len(text)} characters: at most {limit}"
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in text):
        return "holds a line break or another control character: one line of text"
    return None


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def spieltag_id(now: datetime) -> str:
    """The ID of a Spieltag begun at ``now`` (it names the ended evening's file)."""
    return now.strftime("%Y%m%d-%H%M%S")


def begin_spieltag(
    storage: Storage, request: SpieltagRequest, now: datetime, wording: Wording = PAGE
) -> Spieltag:
    """Check ``request`` and write it as the evening in progress, begun at ``now`` (the wall
    time, with its offset): every game begun from now on is its. SpieltagError (one line)
    for a bad value or while one is going on, StorageError if it cannot be written."""
    files = SpieltagFiles(storage)
    name = request.name
    if name is None:
        name = f"Spieltag {len(files.ids()) + 1}"
    return files.begin(_checked(request, name, now, wording))


def _checked(request: SpieltagRequest, name: str, now: datetime, wording: Wording) -> Spieltag:
    """The Spieltag ``request`` asks for; SpieltagError naming the first bad value."""
    scheme = request.scheme
    if isinstance(scheme, str):
        if scheme not in SCHEME_PRESETS:
            raise SpieltagError(
                f"{wording.said(wording.scheme, scheme)}: not a scheme; schemes: "
                f"{', '.join(SCHEME_PRESETS)}"
            )
        scheme = load_scheme(scheme)
    if request.time_box is not None:
        problem = time_box_problem(request.time_box, wording.time_box)
        if problem is not None:
            raise SpieltagError(problem)
    if not name.strip():
        raise SpieltagError(f"{wording.name}: give the Spieltag a name or number")
    header = (
        (wording.league, request.league), (wording.match_number, request.match_number),
        (wording.home_captain, request.home_captain),
        (wording.guest_captain, request.guest_captain),
    )  # fmt: skip
    for label, text in ((wording.name, name), (wording.venue, request.venue),
                        (wording.home, request.home), (wording.guest, request.guest), *header,
                        (wording.remarks, request.remarks)):  # fmt: skip
        problem = _text_problem(text, MAX_REMARKS if label == wording.remarks else _MAX_TEXT)
        if problem is not None:
            raise SpieltagError(f"{wording.said(label, _clip(text))}: {problem}")
    date = request.date.strip() or now.date().isoformat()
    day = _DATE.fullmatch(date)
    if day is None or not is_date(*(int(part) for part in day.groups())):
        raise SpieltagError(
            f"{wording.said(wording.date, date)}: must be YYYY-MM-DD, a day of the calendar "
            "(e.g. 2026-12-01)"
        )
    home, guest = request.home.strip(), request.guest.strip()
    if bool(home) != bool(guest):
        given, missing = (wording.home, wording.guest) if home else (wording.guest, wording.home)
        raise SpieltagError(
            f"{wording.said(given, home or guest)} without {missing}: a league match has a "
            "home and a guest side; give both"
        )
    if not home and (request.players or request.table != 1 or request.substitutes):
        what = (
            wording.player if request.players
            else wording.substitute if request.substitutes
            else f"{wording.table} {request.table}"
        )  # fmt: skip
        raise SpieltagError(
            f"{what}: a league match's seats and tables need its sides: give {wording.home} "
            f"and {wording.guest}"
        )
    for player in request.players:
        problem = name_problem(player.name)
        if problem is not None:
            raise SpieltagError(f"{wording.player} {player.seat}: {problem}")
    for player in request.substitutes:
        problem = name_problem(player.name)
        if problem is not None:
            raise SpieltagError(f"{wording.substitute} {player.seat}: {problem}")
    for table in (1, 2):
        size = sum(player.table == table for player in request.players)
        problem = scheme.table_problem(size) if size else None
        if problem is not None:
            raise SpieltagError(problem)
    spieltag = Spieltag(
        spieltag_id(now), name, scheme, date, request.venue, home, guest, request.table,
        request.players, time_box=request.time_box or 0,
        began_at=now.isoformat(timespec="seconds"), kasse=request.kasse,
        league=request.league.strip(),
        match_number=request.match_number.strip(), home_captain=request.home_captain.strip(),
        guest_captain=request.guest_captain.strip(), remarks=request.remarks.strip(),
    )
    for player in request.substitutes:
        spieltag = with_substitute(
            spieltag, player.seat, player.name, player.number, player.table or None
        )
    # The file's own checks (lengths, seats and names once each) for what was asked.
    return spieltag_from_mapping(spieltag_to_mapping(spieltag))
