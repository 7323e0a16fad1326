"""An evening's Kasse and points counted by hand from its games' events, as a Kassenwart counts
a paper card: the independent recount the Kasse's and the season's tests hold the code to."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game
from engine.events import Event, GameOver, HalfOver, RoundOver
from engine.kasse import Kasse

__all__ = ["events_of", "hand_count", "verlustpunkte"]


def events_of(game: Game) -> list[Event]:
    """Every event of ``game``, replayed from its actions."""
    replay = Game(game.setup)
    return [event for action in game.actions for event in replay.apply(action)]


def hand_count(kasse: Kasse, games: Sequence[Game]) -> dict[str, int]:
    """What each player owes, counted from the events as a Kassenwart counts a paper card:
    each half's loser, the final's (a game over without one is a Durchmarsch), and each round
    whose winning throw is called "Schock aus" charged to its loser; the stake once."""
    owed: dict[str, int] = {}
    for game in games:
        for player in game.setup.players:
            owed.setdefault(player, kasse.stake)
        final = False
        for event in events_of(game):
            if isinstance(event, HalfOver) and event.section in (1, 2):
                owed[event.loser] += kasse.half_lost
            elif isinstance(event, HalfOver):
                owed[event.loser] += kasse.final_lost
                final = True
            elif isinstance(event, RoundOver) and event.winning == "Schock aus":
                owed[event.loser] += kasse.schock_aus_against
            elif isinstance(event, GameOver) and not final:
                owed[event.loser] += kasse.durchmarsch
    return owed


def verlustpunkte(games: Sequence[Game]) -> dict[str, int]:
    """Each player's Verlustpunkte (SV Gonzerath): 1 per half lost, 1 more per game lost."""
    points: dict[str, int] = {}
    for game in games:
        for player in game.setup.players:
            points.setdefault(player, 0)
        for event in events_of(game):
            half = isinstance(event, HalfOver) and event.section in (1, 2)
            if half or isinstance(event, GameOver):
                points[event.loser] += 1
    return points
