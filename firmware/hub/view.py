"""What the hub shows, as one frozen value: the round, the standings with their places, the
teams, the Schock-aus king, every table of the round, and what waits for the director.

:meth:`firmware.hub.hub.Hub.view` builds a :class:`HubView` from the store and the engine's
standings (:meth:`engine.tournament.Progress.standings`, which gives the places: lines that
rank equal share one). Everything the hub shows derives from it: the TV's and the phone's JSON
(:meth:`HubView.to_json`), the retained standings on the wire (:meth:`HubView.board`), and the
exports (:mod:`firmware.hub.pages`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.tournament import PhaseKind, PlacedLine, TeamLine
from firmware.wire.messages import RoundStage, StandingRow, StandingsBoard, TeamScore

__all__ = ["HubView", "RoundView", "TableView"]


@dataclass(frozen=True, slots=True)
class RoundView:
    """The current round (number 0 and no state before the first draw) and its time box."""

    number: int = 0
    state: RoundStage | None = None
    starts_at: float | None = None
    ends_at: float | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    """One table of the current round: its players and their lives, what it has reported, and
    its link to the broker (its retained status)."""

    table: int
    kind: PhaseKind
    players: tuple[str, ...]
    #: Lives left per player (KO and Trostrunde tables; empty at a points table).
    lives: tuple[tuple[str, int], ...]
    games: int
    halves: int
    last_loser: str | None
    online: bool
    outbox: int
    #: Results stored but not yet approved (approval on).
    waiting: int
    #: Publishes and subscriptions of this table's login the broker denied (its log).
    denied: int = 0


@dataclass(frozen=True, slots=True)
class HubView:
    """Everything the hub shows at one moment (``now``, unix seconds)."""

    event: str
    now: float
    format: str
    #: Whether the format has a points phase (the TV shows a points column).
    points: bool
    round: RoundView
    #: Every player best first, with the place the engine gives.
    standings: tuple[PlacedLine, ...]
    teams: tuple[TeamLine, ...]
    king: tuple[str, ...]
    tables: tuple[TableView, ...]
    #: Messages the hub refused, every one counted (kept or not).
    refused: int
    waiting: int
    #: Every round of the format is played.
    over: bool
    #: The points phases' scheme ("verlustpunkte", ...): the TV says next to the points (where
    #: the format has them) what they mean.
    scheme: str = ""
    #: Publishes and subscriptions the broker denied, all logins (from its log).
    denied: int = 0
    #: The hub's own link to its broker: connected or not, since when (None: no ``serve`` has
    #: run). While it is down, no table's link is known.
    broker: tuple[bool, float] | None = None

    @property
    def lives(self) -> bool:
        """Whether any player has lives (a KO phase or Trostrunde has begun)."""
        return any(placed.line.lives is not None for placed in self.standings)

    def board(self) -> StandingsBoard:
        """The retained standings for the tables and TVs on the broker."""
        rows = tuple(
            StandingRow(
                line.name, line.team or None, line.points, line.lives, line.games_lost,
                line.halves_lost, line.schock_aus, line.out, place=place,
            )
            for place, line in ((p.place, p.line) for p in self.standings)
        )  # fmt: skip
        teams = tuple(TeamScore(team.team, team.score) for team in self.teams)
        return StandingsBoard(self.event, self.round.number, rows, teams)

    def to_json(self) -> dict[str, Any]:
        """The TV's and the phone's state (``web/tv.html`` reads it), JSON-ready."""
        return {
            "event": self.event,
            "now": self.now,
            "format": self.format,
            "points": self.points,
            "round": {
                "number": self.round.number,
                "state": self.round.state,
                "starts_at": self.round.starts_at,
                "ends_at": self.round.ends_at,
            },
            "standings": [
                {
                    "place": placed.place,
                    "name": line.name,
                    "team": line.team,
                    "points": line.points,
                    "lives": line.lives,
                    "games": line.games,
                    "games_lost": line.games_lost,
                    "halves_lost": line.halves_lost,
                    "schock_aus": line.schock_aus,
                    "out": line.out,
                    "trost": line.trost,
                }
                for placed in self.standings
                for line in (placed.line,)
            ],
            "teams": [
                {"team": team.team, "score": team.score, "games_lost": team.games_lost}
                for team in self.teams
            ],
            "king": list(self.king),
            "tables": [
                {
                    "table": table.table,
                    "kind": table.kind.value,
                    "players": list(table.players),
                    "lives": dict(table.lives),
                    "games": table.games,
                    "halves": table.halves,
                    "last_loser": table.last_loser,
                    "online": table.online,
                    "outbox": table.outbox,
                    "waiting": table.waiting,
                    "denied": table.denied,
                }
                for table in self.tables
            ],
            "refused": self.refused,
            "waiting": self.waiting,
            "over": self.over,
            "scheme": self.scheme,
            "denied": self.denied,
            "broker": None
            if self.broker is None
            else {"connected": self.broker[0], "since": self.broker[1]},
        }
