"""Points of finished games under a scoring scheme, and the standings of an evening (Spieltag).

Pure functions of finished games: a game enters as its setup and actions, is replayed, and
becomes a :class:`GameResult` (who lost which half, the final, the game, who went out of each
half in which order, the Schock aus each player stood with). A :class:`Scheme` turns a result
into points (:func:`game_points`) and a list of results into :func:`standings`.

The four presets are the schemes clubs document for their own evenings:

- ``verlustpunkte`` (SV Gonzerath): 1 per half lost, 1 more per game lost; fewer is better,
  ties go to fewer games lost ("3 verlorene Spiele + 2 Hälften sind besser als 4 verlorene
  Spiele": both are 8 points, and 3 lost games are fewer than 4);
- ``siegpunkte`` (Schockfreunde): in each half everyone but its loser gets 1; the final's loser
  gives his point of that game back;
- ``platzpunkte`` (3. Kompanie Werl): at a table of four the first out of a half gets 3, the
  second 2, the third 1, the half's loser 0; at three 3 / 1 / 0; the final lost −1, a
  Durchmarsch −1;
- ``leben`` (the Velen Masters Cup, the Deutsche Schockmeisterschaft's rules as used in Kamen):
  each player starts with 3 lives (later rounds 2); a lost game (or half, by the format) costs
  one; out at none.

A scheme is read from the ``[scoring]`` table of a TOML file (:func:`scheme_from_toml`): a
preset plus any of its parameters; every mistake is a one-line :class:`ScoringError`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import SchockenError
from engine.events import Event, GameOver, HalfOver, PenaltyGiven, RoundOver, TurnOver
from engine.game import Game, GameSetup
from engine.limits import toml_document
from engine.throws import Kind, RankTable, rank_table

__all__ = [
    "MAX_SCORING_BYTES",
    "SCHEME_PRESETS",
    "TEAM_RESULTS",
    "TIE_BREAKS",
    "GameResult",
    "LifeCost",
    "Scheme",
    "ScoringError",
    "Standing",
    "evening_points",
    "game_points",
    "game_result",
    "game_result_from_events",
    "lives_cost",
    "load_scheme",
    "result_from_events",
    "scheme_from_mapping",
    "scheme_from_toml",
    "scheme_to_mapping",
    "standings",
]

#: The largest ``[scoring]`` file we read.
MAX_SCORING_BYTES = 64 * 1024


class ScoringError(SchockenError):
    """A scheme, or a game or evening a scheme cannot score; the message is one line."""


class LifeCost(enum.Enum):
    """What costs a life under a lives scheme."""

    GAME = "game"
    HALF = "half"


#: The tie-breaks a scheme may list, in the order given: each compares one count of the
#: players tied so far. ``True``: fewer is better.
TIE_BREAKS: dict[str, bool] = {
    "games_lost": True,
    "halves_lost": True,
    "finals_lost": True,
    "durchmarsch": True,
    "schock_aus": False,
}


@dataclass(frozen=True, slots=True)
class Scheme:
    """How an evening is scored. Points schemes add the fields below per game; a lives scheme
    (``lives > 0``) counts lives left instead."""

    name: str
    #: Where the scheme is documented (the club that plays it).
    source: str = ""
    #: True: more points rank higher; False (Verlustpunkte): fewer rank higher.
    higher_is_better: bool = True
    #: To the loser of each half (halves 1 and 2).
    half_lost: int = 0
    #: To each player of a half but its loser.
    half_survived: int = 0
    #: To the loser of the game (final or Durchmarsch).
    game_lost: int = 0
    #: To the loser of the final.
    final_lost: int = 0
    #: To the player who lost both halves.
    durchmarsch: int = 0
    #: Points per place in a half, by table size: the first out first, the half's loser last.
    places: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: Lives each player starts the evening with; 0 for a points scheme.
    lives: int = 0
    life_cost: LifeCost = LifeCost.GAME
    tie_breaks: tuple[str, ...] = ("games_lost",)
    #: A league's Mannschaftspunkte (team points) for a match won, drawn and lost by the
    #: sides' totals; () where the league gives none.
    team_points: tuple[int, ...] = ()

    @property
    def counts_lives(self) -> bool:
        return self.lives > 0

    @property
    def ranks_higher_first(self) -> bool:
        """Whether a higher score ranks first: points the scheme counts up, or lives left."""
        return self.higher_is_better or self.counts_lives

    def places_for(self, table_size: int) -> tuple[int, ...] | None:
        """The points per place at a table of ``table_size``; None if the scheme has none."""
        return dict(self.places).get(table_size)

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The table sizes a place scheme scores, smallest first; () for a scheme that scores
        any table."""
        return tuple(size for size, _ in self.places)

    def counts_table(self, table_size: int) -> bool:
        """Whether a game of ``table_size`` players can be scored under the scheme."""
        return not self.places or self.places_for(table_size) is not None

    def table_problem(self, table_size: int) -> str | None:
        """One line if the scheme cannot score a table of ``table_size`` players, else None."""
        if self.places and self.places_for(table_size) is None:
            sizes = " and ".join(str(size) for size, _ in self.places)
            return (
                f"scoring {self.name!r} gives points per place at tables of {sizes} players "
                f"only, not {table_size}; set places for {table_size} in [scoring] or choose "
                f"another scheme ({', '.join(SCHEME_PRESETS)})"
            )
        return None


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a scheme needs of one finished game."""

    players: tuple[str, ...]
    #: The losers of half 1 and half 2.
    half_losers: tuple[str, str]
    #: The loser of the final; None after a Durchmarsch.
    final_loser: str | None
    loser: str
    #: Per half (1 and 2): the players in the order they went out, those going out in the
    #: same round grouped together, the half's loser last on their own.
    out_order: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    #: Schock aus each player stood with from the hand (in one throw), and built.
    schock_aus_hand: tuple[tuple[str, int], ...] = ()
    schock_aus_built: tuple[tuple[str, int], ...] = ()
    #: How often each player lost a round another won with a Schock aus (the Kasse's
    #: "Schock aus against you").
    schock_aus_against: tuple[tuple[str, int], ...] = ()

    @property
    def durchmarsch(self) -> bool:
        """One player lost both halves: no final."""
        return self.final_loser is None

    def schock_aus(self, player: str) -> int:
        return dict(self.schock_aus_hand).get(player, 0) + dict(self.schock_aus_built).get(
            player, 0
        )

    def halves_lost(self, player: str) -> int:
        return sum(loser == player for loser in self.half_losers)


def result_from_events(players: Sequence[str], events: Iterable[Event]) -> GameResult:
    """The result of a game from its outcomes (as :meth:`Game.apply` returns them).

    Schock aus are counted only where a :class:`TurnOver` names the throw ``Schock aus``; use
    :func:`game_result` to count them under the game's rules. ScoringError if the events do
    not finish a game.
    """
    players = tuple(players)
    out: list[list[tuple[str, ...]]] = [[], []]
    half_losers: list[str] = []
    final_loser: str | None = None
    over: GameOver | None = None
    section = 1
    for event in events:
        match event:
            case RoundOver(out=gone) | PenaltyGiven(out=gone) if gone and section <= 2:
                out[section - 1].append(tuple(gone))
            case HalfOver(section=3, loser=loser):
                final_loser = loser
            case HalfOver(loser=loser):
                half_losers.append(loser)
                section += 1
            case GameOver():
                over = event
    if over is None or len(half_losers) != 2:
        raise ScoringError("the game is not finished: only finished games have points")
    orders = []
    for index, groups in enumerate(out):
        loser = half_losers[index]
        seen: list[tuple[str, ...]] = []
        placed: set[str] = set()
        for group in groups:
            fresh = tuple(p for p in group if p not in placed and p != loser)
            if fresh:
                seen.append(fresh)
                placed.update(fresh)
        rest = tuple(p for p in players if p not in placed and p != loser)
        if rest:
            seen.append(rest)
        seen.append((loser,))
        orders.append(tuple(seen))
    return GameResult(
        players, (half_losers[0], half_losers[1]), final_loser, over.loser,
        (orders[0], orders[1]),
    )


def game_result(setup: GameSetup, actions: Iterable[Event]) -> GameResult:
    """Replay a game and return its result, Schock aus counted under its rules.

    ScoringError if the game does not finish; the engine's IllegalActionError for an action
    the rules refuse.
    """
    return game_result_from_events(setup, Game.replay_events(setup, actions))


def game_result_from_events(setup: GameSetup, events: Iterable[Event]) -> GameResult:
    """The result of a game from its replay's events (every event :meth:`Game.apply` returned,
    in order), Schock aus counted under its rules: :func:`game_result` without replaying.

    ScoringError if the events do not finish a game.
    """
    table = rank_table(setup.rules)
    played = list(events)
    hand = dict.fromkeys(setup.players, 0)
    built = dict.fromkeys(setup.players, 0)
    against = dict.fromkeys(setup.players, 0)
    for event in played:
        if (
            isinstance(event, TurnOver)
            and table.evaluate(event.dice, event.hand).kind is Kind.SCHOCK_AUS
        ):
            (hand if event.hand else built)[event.player] += 1
        elif isinstance(event, RoundOver) and _won_with_schock_aus(table, event):
            against[event.loser] += 1
    result = result_from_events(setup.players, played)
    return replace(
        result,
        schock_aus_hand=tuple((p, n) for p, n in hand.items() if n),
        schock_aus_built=tuple((p, n) for p, n in built.items() if n),
        schock_aus_against=tuple((p, n) for p, n in against.items() if n),
    )


def _won_with_schock_aus(table: RankTable, over: RoundOver) -> bool:
    """Whether the round's winner stood with a Schock aus (the turn the reveal shows)."""
    return any(
        isinstance(turn, TurnOver) and turn.player == over.winner
        and table.evaluate(turn.dice, turn.hand).kind is Kind.SCHOCK_AUS
        for turn in over.turns
    )


def _half_places(scheme: Scheme, result: GameResult, half: int) -> dict[str, int]:
    """Place points of one half: players going out in the same round share the better place."""
    table = scheme.places_for(len(result.players))
    if table is None:
        raise ScoringError(scheme.table_problem(len(result.players)) or "no places")
    points: dict[str, int] = {}
    place = 0
    for group in result.out_order[half]:
        for player in group:
            points[player] = table[place]
        place += len(group)
    return points


def game_points(scheme: Scheme, result: GameResult) -> dict[str, int]:
    """Each player's points from one game under a points scheme (lives: the lives it cost,
    as negative numbers)."""
    if scheme.counts_lives:
        return {p: -lives_cost(scheme, result, p) for p in result.players}
    problem = scheme.table_problem(len(result.players))
    if problem is not None:
        raise ScoringError(problem)
    points = dict.fromkeys(result.players, 0)
    for half in (0, 1):
        loser = result.half_losers[half]
        for player in result.players:
            points[player] += scheme.half_lost if player == loser else scheme.half_survived
        if scheme.places:
            for player, value in _half_places(scheme, result, half).items():
                points[player] += value
    points[result.loser] += scheme.game_lost
    if result.final_loser is not None:
        points[result.final_loser] += scheme.final_lost
    else:
        points[result.loser] += scheme.durchmarsch
    return points


def lives_cost(scheme: Scheme, result: GameResult, player: str) -> int:
    """How many lives ``player`` lost in this game under a lives scheme."""
    if scheme.life_cost is LifeCost.HALF:
        return result.halves_lost(player)
    return int(result.loser == player)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the evening's standings."""

    place: int
    player: str
    #: Points (points schemes) or lives left (lives schemes).
    score: int
    games: int
    games_lost: int
    halves_lost: int
    finals_lost: int
    durchmarsch: int
    schock_aus: int
    #: Lives schemes: no life left.
    out: bool = False
    #: The score after each game the player played, in order.
    per_game: tuple[int, ...] = field(default=())
    #: Lives schemes: after how many of the evening's games the player had no life left (0:
    #: still in); a later one is placed better.
    out_after: int = 0

    def count(self, name: str) -> int:
        return int(getattr(self, name))


def evening_points(scheme: Scheme, results: Sequence[GameResult]) -> tuple[dict[str, int], ...]:
    """Each game's points as the evening counts them, game by game: :func:`game_points`, but
    under a lives scheme a player loses no more lives than are left (none once out), so that
    a player's column adds up to the lives left."""
    if not scheme.counts_lives:
        return tuple(game_points(scheme, result) for result in results)
    left: dict[str, int] = {}
    counted = []
    for result in results:
        points = {}
        for player, cost in game_points(scheme, result).items():
            before = left.get(player, scheme.lives)
            points[player] = max(cost, -before)
            left[player] = before + points[player]
        counted.append(points)
    return tuple(counted)


def standings(scheme: Scheme, results: Sequence[GameResult]) -> tuple[Standing, ...]:
    """The evening's standings, best first. Players tied on the score and every tie-break share
    a place (and are listed by name); under a lives scheme a player who went out later is
    placed before one who went out earlier. ScoringError for an evening without games."""
    if not results:
        raise ScoringError("the evening has no finished games yet: nothing to rank")
    players: list[str] = []
    for result in results:
        players += [p for p in result.players if p not in players]
    score = dict.fromkeys(players, scheme.lives if scheme.counts_lives else 0)
    counts = {p: dict.fromkeys(("games", *TIE_BREAKS), 0) for p in players}
    per_game: dict[str, list[int]] = {p: [] for p in players}
    out_after = dict.fromkeys(players, 0)
    for number, (result, points) in enumerate(
        zip(results, evening_points(scheme, results), strict=True), start=1
    ):
        for player in result.players:
            tally = counts[player]
            tally["games"] += 1
            tally["games_lost"] += int(result.loser == player)
            tally["halves_lost"] += result.halves_lost(player)
            tally["finals_lost"] += int(result.final_loser == player)
            tally["durchmarsch"] += int(result.durchmarsch and result.loser == player)
            tally["schock_aus"] += result.schock_aus(player)
            score[player] += points[player]
            per_game[player].append(score[player])
            if scheme.counts_lives and score[player] == 0 and not out_after[player]:
                out_after[player] = number
    higher = scheme.ranks_higher_first

    def key(player: str) -> tuple[int, ...]:
        first = -score[player] if higher else score[player]
        rest = tuple(
            counts[player][name] if TIE_BREAKS[name] else -counts[player][name]
            for name in scheme.tie_breaks
        )
        return (first, -out_after[player], *rest)

    order = sorted(players, key=lambda p: (key(p), p))
    lines: list[Standing] = []
    for index, player in enumerate(order):
        place = lines[-1].place if lines and key(lines[-1].player) == key(player) else index + 1
        tally = counts[player]
        lines.append(
            Standing(
                place, player, score[player], tally["games"], tally["games_lost"],
                tally["halves_lost"], tally["finals_lost"], tally["durchmarsch"],
                tally["schock_aus"], scheme.counts_lives and score[player] == 0,
                tuple(per_game[player]), out_after[player],
            )
        )
    return tuple(lines)


# -- presets and the [scoring] table ------------------------------------------------------------

SCHEME_PRESETS: dict[str, Scheme] = {
    "verlustpunkte": Scheme(
        "verlustpunkte", "SV Gonzerath", higher_is_better=False, half_lost=1, game_lost=1,
    ),
    "siegpunkte": Scheme("siegpunkte", "Schockfreunde", half_survived=1, final_lost=-1),
    "platzpunkte": Scheme(
        "platzpunkte", "3. Kompanie Werl", final_lost=-1, durchmarsch=-1,
        places=((3, (3, 1, 0)), (4, (3, 2, 1, 0))),
    ),
    "leben": Scheme("leben", "Velen Masters Cup; Deutsche Schockmeisterschaft (Kamen)", lives=3),
}

_INT_KEYS = ("half_lost", "half_survived", "game_lost", "final_lost", "durchmarsch")
_KEYS = (
    "preset", "better", *_INT_KEYS, "places", "lives", "life_cost", "tie_breaks", "source",
    "team_points",
)
#: The results a league gives Mannschaftspunkte for, in :attr:`Scheme.team_points`' order.
TEAM_RESULTS = ("won", "drawn", "lost")
#: The largest |points| a parameter may give, and the most lives.
_MAX_POINTS = 100
_MAX_LIVES = 99


def load_scheme(name: str) -> Scheme:
    """The preset ``name``; ScoringError listing the presets for any other name."""
    scheme = SCHEME_PRESETS.get(name)
    if scheme is None:
        raise ScoringError(
            f"unknown scoring preset {name!r}; presets: {', '.join(SCHEME_PRESETS)}"
        )
    return scheme


def _whole(key: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScoringError(f"{key} = {value!r}: must be a whole number from {low} to {high}")
    return value


def scheme_from_mapping(data: Mapping[str, Any]) -> Scheme:
    """A scheme from the ``[scoring]`` table's keys: ``preset`` (default ``verlustpunkte``)
    plus any parameter. ScoringError (one line) naming the first bad key."""
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise ScoringError(f"unknown [scoring] key {unknown[0]!r}; keys: {', '.join(_KEYS)}")
    preset = data.get("preset", "verlustpunkte")
    if not isinstance(preset, str):
        raise ScoringError(f"preset = {preset!r}: must be one of {', '.join(SCHEME_PRESETS)}")
    scheme = load_scheme(preset)
    changes: dict[str, Any] = {}
    if "source" in data:
        if not isinstance(data["source"], str) or len(data["source"]) > 200:
            raise ScoringError("source: must be a text of at most 200 characters")
        changes["source"] = data["source"]
    if "better" in data:
        if data["better"] not in ("higher", "lower"):
            raise ScoringError(f"better = {data['better']!r}: must be \"higher\" or \"lower\"")
        changes["higher_is_better"] = data["better"] == "higher"
    for key in _INT_KEYS:
        if key in data:
            changes[key] = _whole(key, data[key], -_MAX_POINTS, _MAX_POINTS)
    if "lives" in data:
        changes["lives"] = _whole("lives", data["lives"], 0, _MAX_LIVES)
    if "life_cost" in data:
        try:
            changes["life_cost"] = LifeCost(data["life_cost"])
        except ValueError:
            raise ScoringError(
                f"life_cost = {data['life_cost']!r}: must be \"game\" or \"half\""
            ) from None
    if "places" in data:
        changes["places"] = _places(data["places"])
    if "tie_breaks" in data:
        breaks = data["tie_breaks"]
        if not isinstance(breaks, list) or not all(b in TIE_BREAKS for b in breaks) or len(
            set(breaks)
        ) != len(breaks):
            raise ScoringError(
                f"tie_breaks = {breaks!r}: must be a list of different names from "
                f"{', '.join(TIE_BREAKS)}"
            )
        changes["tie_breaks"] = tuple(breaks)
    if "team_points" in data:
        changes["team_points"] = _team_points(data["team_points"])
    return replace(scheme, **changes)


def _team_points(value: object) -> tuple[int, ...]:
    """``team_points = { won = 2, drawn = 1, lost = 0 }``: the Mannschaftspunkte per result."""
    if not isinstance(value, dict) or sorted(value) != sorted(TEAM_RESULTS):
        raise ScoringError(
            f"team_points = {value!r}: must give the Mannschaftspunkte for a match won, drawn "
            "and lost, e.g. { won = 2, drawn = 1, lost = 0 }"
        )
    return tuple(_whole(f"team_points.{key}", value[key], 0, _MAX_POINTS) for key in TEAM_RESULTS)


def _places(value: object) -> tuple[tuple[int, tuple[int, ...]], ...]:
    advice = 'places: a table of table sizes to points per place, e.g. { 4 = [3, 2, 1, 0] }'
    if not isinstance(value, dict):
        raise ScoringError(f"{advice}, got {value!r}")
    table = []
    for size_text, points in value.items():
        size = int(size_text) if str(size_text).isascii() and str(size_text).isdigit() else 0
        if not 2 <= size <= 10:
            raise ScoringError(f"{advice}; table size {size_text!r} is not 2 to 10")
        if not isinstance(points, list) or len(points) != size:
            raise ScoringError(
                f"places.{size_text}: must list {size} points, one per place, got {points!r}"
            )
        table.append(
            (size, tuple(_whole(f"places.{size}", p, -_MAX_POINTS, _MAX_POINTS) for p in points))
        )
    return tuple(sorted(table))


def scheme_from_toml(text: str, *, origin: str = "scoring") -> Scheme:
    """The scheme of a TOML file's ``[scoring]`` table; ``origin`` names it in errors."""
    data = toml_document(text, origin=origin, error=ScoringError, max_bytes=MAX_SCORING_BYTES)
    table = data.get("scoring")
    if not isinstance(table, dict):
        raise ScoringError(f"{origin}: has no [scoring] table")
    try:
        return scheme_from_mapping(table)
    except ScoringError as error:
        raise ScoringError(f"{origin}: {error}") from None


def scheme_to_mapping(scheme: Scheme) -> dict[str, Any]:
    """The scheme as ``[scoring]`` keys (all of them), read back by :func:`scheme_from_mapping`."""
    return {
        "preset": scheme.name if scheme.name in SCHEME_PRESETS else "verlustpunkte",
        "source": scheme.source,
        "better": "higher" if scheme.higher_is_better else "lower",
        **{key: getattr(scheme, key) for key in _INT_KEYS},
        "places": {str(size): list(points) for size, points in scheme.places},
        "lives": scheme.lives,
        "life_cost": scheme.life_cost.value,
        "tie_breaks": list(scheme.tie_breaks),
        # Only where a league gives them: a table's scheme on the wire stays as it was.
        **({"team_points": dict(zip(TEAM_RESULTS, scheme.team_points, strict=True))}
           if scheme.team_points else {}),
    }
