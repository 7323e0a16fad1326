"""What a league's Spielberichtsbogen adds to an evening: the team's result, the Partien gone
scharf, substitutes and players nobody listed. Pure functions of an :class:`~engine.spieltag.
Evening` and its standings, as the sheet (``firmware/report/``) prints them.

- :func:`team_result`: Heim's total against Gast's (each side's players' points, or lives left,
  under the evening's scheme; a substitute counts for the seat's side), and the Mannschaftspunkte
  the scheme's ``team_points`` give a match won, drawn and lost;
- :func:`scharf_section`: where a Partie went scharf (the time box ran out: the half or the
  final in play, or None);
- :func:`unlisted_players`: who played in a league match but is on no seat of its list;
- :func:`with_substitute`: a Spieltag with an Auswechselspieler registered on a seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.events import Event, GoScharf, HalfOver
from engine.game import Game, GameSetup
from engine.scoring import Scheme, Standing
from engine.spieltag import Evening, LeaguePlayer, Spieltag, SpieltagError

__all__ = ["TeamResult", "scharf_section", "team_result", "unlisted_players", "with_substitute"]


@dataclass(frozen=True, slots=True)
class TeamResult:
    """A league match's result: each side's total and, where the league gives them, its
    Mannschaftspunkte; ``winner`` ``"H"``, ``"G"`` or None for a draw."""

    home_total: int
    guest_total: int
    winner: str | None
    home_points: int | None = None
    guest_points: int | None = None


def team_result(
    scheme: Scheme, players: Sequence[LeaguePlayer], lines: Sequence[Standing]
) -> TeamResult | None:
    """The match's result from the standings ``lines`` (None if no player has a seat: not a
    league match). A side wins by its total the way the scheme ranks (fewer Verlustpunkte,
    more Siegpunkte, more lives left)."""
    side = {player.name: player.side for player in players}
    if not side:
        return None
    totals = {"H": 0, "G": 0}
    for line in lines:
        if line.player in side:
            totals[side[line.player]] += line.score
    home, guest = totals["H"], totals["G"]
    winner: str | None = None
    if home != guest:
        winner = "H" if (home > guest) == scheme.higher_is_better else "G"
    if not scheme.team_points:
        return TeamResult(home, guest, winner)
    won, drawn, lost = scheme.team_points
    points = {"H": drawn, "G": drawn} if winner is None else {
        winner: won, ("G" if winner == "H" else "H"): lost
    }  # fmt: skip
    return TeamResult(home, guest, winner, points["H"], points["G"])


def scharf_section(setup: GameSetup, actions: Iterable[Event]) -> int | None:
    """Where the game went scharf: 1 or 2 (the half in play), 3 (the final); None if the time
    box never ran out during it. A finished game's actions replay without error."""
    game = Game(setup)
    section = 1
    for action in actions:
        if isinstance(action, GoScharf):
            return section
        for event in game.apply(action):
            if isinstance(event, HalfOver):
                section = event.section + 1
    return None


def unlisted_players(evening: Evening) -> tuple[str, ...]:
    """The players of a league match's Partien who are on none of its seats (neither listed nor
    registered as a substitute), in the order they first played; () for an evening that is no
    league match."""
    spieltag = evening.spieltag
    if not spieltag.home:
        return ()
    found: dict[str, None] = {}
    for game in evening.games:
        for name in game.setup.players:
            if spieltag.player(name) is None:
                found[name] = None
    return tuple(found)


def with_substitute(
    spieltag: Spieltag, seat: str, name: str, number: str = "", table: int | None = None
) -> Spieltag:
    """``spieltag`` with ``name`` registered as a substitute on ``seat``, the seat of a listed
    player (at that player's table unless ``table`` is given). SpieltagError (one line) for an
    evening that is no league match, a seat with nobody listed or a substitute already, or a
    name on the list."""
    if not spieltag.home:
        raise SpieltagError(
            f"substitute {seat}={name}: only a league match has seats; begin the Spieltag with "
            "--home and --guest"
        )
    known = spieltag.player(name)
    if known is not None:
        role = "a substitute" if known.substitute else "listed"
        raise SpieltagError(f"substitute {name}: is {role} on {known.seat} already")
    holder = next((p for p in spieltag.players if p.seat == seat and not p.substitute), None)
    if holder is None:
        raise SpieltagError(
            f"substitute on {seat}: no player is listed on {seat}; a substitute comes in on a "
            "listed player's seat (give them with --player)"
        )
    taken = next((p for p in spieltag.players if p.seat == seat and p.substitute), None)
    if taken is not None:
        raise SpieltagError(f"substitute on {seat}: {taken.name} came in on {seat} already")
    added = LeaguePlayer(name, seat, number, holder.table if table is None else table, True)
    return replace(spieltag, players=(*spieltag.players, added))
