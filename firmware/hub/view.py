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

__all__ = ["HubView", "RoundView", "TableView", "ViewJson", "board_row"]


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
        rows = tuple(board_row(placed) for placed in self.standings)
        return StandingsBoard(self.event, self.round.number, rows, self.board_teams())

    def board_teams(self) -> tuple[TeamScore, ...]:
        """The teams as the board has them."""
        return tuple(TeamScore(team.team, team.score) for team in self.teams)

    def to_json(self) -> dict[str, Any]:
        """The TV's and the phone's state (``web/tv.html`` reads it), JSON-ready."""
        return _state(
            self,
            [_standing_row(placed) for placed in self.standings],
            [{"team": team.team, "score": team.score, "games_lost": team.games_lost}
             for team in self.teams],
            [_table_row(table) for table in self.tables],
        )  # fmt: skip


class ViewJson:
    """:meth:`HubView.to_json` for one view after another, where a row (a player's, a team's,
    a table's) that did not change since the last view is the same object as in the last
    state, and the teams' list too: what :class:`firmware.hub.view_changes.ViewFeed` and the
    changes skip at once. The states it gives are never changed after (they share rows)."""

    def __init__(self) -> None:
        self._standings: dict[str, tuple[PlacedLine, dict[str, Any]]] = {}
        self._tables: dict[int, tuple[TableView, dict[str, Any]]] = {}
        self._teams: tuple[tuple[TeamLine, ...], list[dict[str, Any]]] | None = None
        self._ranked: tuple[tuple[PlacedLine, ...], list[dict[str, Any]]] | None = None

    def state(self, view: HubView) -> dict[str, Any]:
        """``view.to_json()``, its unchanged rows those of the last state (and its standings'
        list the last one, where they are the same)."""
        if self._ranked is None or self._ranked[0] is not view.standings:
            standings: dict[str, tuple[PlacedLine, dict[str, Any]]] = {}
            for placed in view.standings:
                last = self._standings.get(placed.line.name)
                if last is None or last[0].line is not placed.line or (
                        last[0].place != placed.place):  # fmt: skip
                    last = (placed, _standing_row(placed))
                standings[placed.line.name] = last
            self._standings = standings
            self._ranked = (view.standings, [standings[p.line.name][1] for p in view.standings])
        tables: dict[int, tuple[TableView, dict[str, Any]]] = {}
        for table in view.tables:
            shown = self._tables.get(table.table)
            if shown is None or shown[0] != table:
                shown = (table, _table_row(table))
            tables[table.table] = shown
        self._tables = tables
        if self._teams is None or self._teams[0] is not view.teams:
            self._teams = (view.teams, [
                {"team": team.team, "score": team.score, "games_lost": team.games_lost}
                for team in view.teams
            ])  # fmt: skip
        return _state(
            view,
            self._ranked[1],
            self._teams[1],
            [tables[t.table][1] for t in view.tables],
        )


def _state(
    view: HubView,
    standings: list[dict[str, Any]],
    teams: list[dict[str, Any]],
    tables: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "event": view.event,
        "now": view.now,
        "format": view.format,
        "points": view.points,
        "round": {
            "number": view.round.number,
            "state": view.round.state,
            "starts_at": view.round.starts_at,
            "ends_at": view.round.ends_at,
        },
        "standings": standings,
        "teams": teams,
        "king": list(view.king),
        "tables": tables,
        "refused": view.refused,
        "waiting": view.waiting,
        "over": view.over,
        "scheme": view.scheme,
        "denied": view.denied,
        "broker": None
        if view.broker is None
        else {"connected": view.broker[0], "since": view.broker[1]},
    }


def board_row(placed: PlacedLine) -> StandingRow:
    """A player's row on the board (:meth:`HubView.board`)."""
    line = placed.line
    return StandingRow(
        line.name, line.team or None, line.points, line.lives, line.games_lost,
        line.halves_lost, line.schock_aus, line.out, place=placed.place,
    )  # fmt: skip


def _standing_row(placed: PlacedLine) -> dict[str, Any]:
    line = placed.line
    return {
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


def _table_row(table: TableView) -> dict[str, Any]:
    return {
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
