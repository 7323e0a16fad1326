"""Moments: what the game calls for next, named by the session for the screens to show.

The session (:class:`~firmware.app.session.table.Table`, :class:`~firmware.app.session.Session`)
knows what an action caused: a round ended and its reveal is due, a penalty was given, a Hälfte
(half) was lost, the cup passes on. It says so with one of these small frozen records and never
builds a screen itself. The router (:mod:`firmware.app.flow`) is the only place a moment becomes
a stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import HalfOver, PenaltyGiven, RoundOver
from firmware.store.journal import EntryNote

__all__ = [
    "EntryGoesOn",
    "EveningStandings",
    "GameEnded",
    "HalfLost",
    "HandOverDue",
    "Moment",
    "PenaltyDue",
    "RevealDue",
    "RollOffDue",
    "RollOffThrown",
    "SetupDue",
    "ShownDie",
    "TurnEnded",
    "TurnGoesOn",
]


@dataclass(frozen=True, slots=True)
class ShownDie:
    """A die as a screen shows it: its value (None: in the cup), laid out, and fixed (laid out in
    an earlier throw, where the rules let nobody take it back)."""

    value: int | None
    out: bool = False
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class SetupDue:
    """The setup, starting from these choices (a count of players, an index into the session's
    rule options, the Deckel, per seat a strategy or "" and a name or "" for a numbered one)."""

    players: int
    rules: int
    deckel: int
    bots: tuple[str, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RollOffDue:
    """The roll-off (auswürfeln) of a game that has just begun."""


@dataclass(frozen=True, slots=True)
class RollOffThrown:
    """The roll-off with these throws on the table (a resumed game's last action): each of
    ``contenders`` threw the dice at the same place in ``throws``."""

    contenders: tuple[str, ...]
    throws: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class HandOverDue:
    """The cup goes to ``player``; ``previous`` left ``shown`` on the table (None: a round
    opens)."""

    player: str
    previous: str | None = None
    shown: tuple[ShownDie, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnGoesOn:
    """The current player's turn goes on, with these dice marked to lay out."""

    marks: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A person's last throw ended their turn: they see their dice until a press."""

    player: str
    throws: int
    limit: int
    dice: tuple[ShownDie, ...]
    throw_name: str


@dataclass(frozen=True, slots=True)
class RevealDue:
    """A round is over: the reveal (Aufdecken) of its turns (``result.turns``) and where the
    Deckel went."""

    result: RoundOver
    round_number: int


@dataclass(frozen=True, slots=True)
class PenaltyDue:
    """A player was given penalty Deckel."""

    event: PenaltyGiven


@dataclass(frozen=True, slots=True)
class HalfLost:
    """A Hälfte or the Finale is lost; ``final``: the two who play the final it calls for."""

    event: HalfOver
    final: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: who lost it."""


# -- real dice at the table ("Echte Würfel") ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryGoesOn:
    """A result being entered for real dice goes on as it stood (a resumed game): the entry
    as the journal's note kept it (the dice, throws and hand flag on the entry screen, whose
    report it corrects, the roll-off's throws entered so far, whether the round's last entry
    waits to be settled)."""

    entry: EntryNote


@dataclass(frozen=True, slots=True)
class EveningStandings:
    """After a game of a Spieltag: the evening's standings under its scheme, best first, as
    (place, player, score) lines, of the ``games`` that count; ``lost`` are the Partien (by
    number) that cannot be counted, whose journal is gone or damaged; ``uncounted`` the
    finished ones not counted, with why (``taken_out``, or ``table_size``: a table the scheme
    cannot score); under a lives scheme ``just_out`` are the players the last game left
    without a life (they are told)."""

    name: str
    scheme: str
    games: int
    lives: bool
    lines: tuple[tuple[int, str, int], ...]
    lost: tuple[int, ...] = ()
    #: With a Kasse (:mod:`engine.kasse`): what each of the evening's players owes for it,
    #: and for the season (every Spieltag the device keeps), in cents, in the standings' order.
    kasse: tuple[tuple[str, int], ...] = ()
    season_kasse: tuple[tuple[str, int], ...] = ()
    uncounted: tuple[tuple[int, str], ...] = ()
    just_out: tuple[str, ...] = ()

    @property
    def out(self) -> tuple[str, ...]:
        """Under a lives scheme, the players without a life left."""
        return tuple(player for _, player, score in self.lines if self.lives and score == 0)


Moment = (
    SetupDue | RollOffDue | RollOffThrown | HandOverDue | TurnGoesOn | TurnEnded | RevealDue
    | PenaltyDue | HalfLost | GameEnded | EntryGoesOn | EveningStandings
)
