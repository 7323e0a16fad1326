"""A season (Saison): the table over many Spieltage, pure records from their evenings.

A :class:`Season` is made from evenings (:class:`engine.spieltag.Evening`) by
:func:`make_season`: the two tables of one league match (the same home, guest and date, tables
1 and 2) are merged into one Spieltag first (:func:`engine.spieltag.merge_match`), then

- the players' table: each player's scores of the Spieltage added (points under a points
  scheme; under a lives scheme the lives left at each evening's end), with the counts the
  scheme's tie-breaks read, ranked under the scheme as an evening is; and how many Spieltage
  each player came to (attendance: a Spieltag with a finished game of theirs);
- the teams' table, for league matches: each side's score in a match is its seated players'
  (``H1`` ... for home, ``G1`` ... for guest) scores added; the better side under the scheme
  wins the match. Teams rank by their scores added under the scheme, then by matches won;
- the Kasse (:mod:`engine.kasse`), if any Spieltag keeps one: each player's lines of the
  evenings added, each evening at its own prices.

Each evening adds the games its standings count (:attr:`engine.spieltag.Evening.counted`);
its Kasse charges every finished game but those taken out (:func:`evening_kasse`).

A season is under one scheme: Spieltage under different schemes (or one scheme with other
parameters) cannot be added and are refused in one :class:`~engine.spieltag.SpieltagError`
line, as is the same Spieltag given twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.kasse import KasseLine, add_lines, kasse_lines
from engine.league import team_result
from engine.scoring import TIE_BREAKS, Scheme, Standing
from engine.spieltag import Evening, SpieltagError, merge_match

__all__ = [
    "Season", "SeasonPlayer", "SeasonTeam", "evening_kasse", "make_season", "matches_of",
    "season_kasse",
]

#: The counts of a player's season line, as :class:`engine.scoring.Standing` names them.
_COUNTS = ("games", "games_lost", "halves_lost", "finals_lost", "durchmarsch", "schock_aus")


@dataclass(frozen=True, slots=True)
class SeasonPlayer:
    """One player's line in the season's table."""

    place: int
    player: str
    #: The scores of the Spieltage added (points, or lives left).
    score: int
    #: How many Spieltage the player came to.
    spieltage: int
    games: int
    games_lost: int
    halves_lost: int
    finals_lost: int
    durchmarsch: int
    schock_aus: int

    def count(self, name: str) -> int:
        return int(getattr(self, name))


@dataclass(frozen=True, slots=True)
class SeasonTeam:
    """One team's line in the season's table of league matches."""

    place: int
    team: str
    matches: int
    won: int
    drawn: int
    lost: int
    #: The team's scores of its matches added, and its opponents'.
    score: int
    against: int


@dataclass(frozen=True, slots=True)
class Season:
    """The season of ``evenings`` (league matches merged, in date order) under one scheme."""

    scheme: Scheme
    evenings: tuple[Evening, ...]
    players: tuple[SeasonPlayer, ...]
    teams: tuple[SeasonTeam, ...]
    #: Each player's Kasse over the Spieltage that keep one; empty if none does.
    kasse: tuple[KasseLine, ...] = ()

    @property
    def first_date(self) -> str:
        return self.evenings[0].spieltag.date

    @property
    def last_date(self) -> str:
        return self.evenings[-1].spieltag.date


def _same_scheme(one: Scheme, two: Scheme) -> bool:
    """Whether two schemes score alike (where each is documented does not matter)."""
    return replace(one, source="") == replace(two, source="")


def matches_of(evenings: Sequence[Evening]) -> tuple[Evening, ...]:
    """``evenings`` with each league match's two tables merged into one, in date order (then
    by ID); SpieltagError for a Spieltag given twice."""
    seen: set[str] = set()
    for evening in evenings:
        if evening.spieltag.id in seen:
            raise SpieltagError(
                f"Spieltag {evening.spieltag.id} ({evening.spieltag.name}) is given twice: "
                "give each Spieltag once"
            )
        seen.add(evening.spieltag.id)
    merged: list[Evening] = []
    waiting: dict[tuple[str, str, str], Evening] = {}
    for evening in evenings:
        spieltag = evening.spieltag
        if not (spieltag.home and spieltag.guest):
            merged.append(evening)
            continue
        key = (spieltag.home, spieltag.guest, spieltag.date)
        other = waiting.pop(key, None)
        if other is None:
            waiting[key] = evening
        else:  # the match's other table (merge_match refuses two of one table)
            merged.append(merge_match(other, evening))
    merged += waiting.values()  # one table of a match: counted as it is
    return tuple(sorted(merged, key=lambda e: (e.spieltag.date, e.spieltag.id)))


def make_season(evenings: Sequence[Evening]) -> Season:
    """The season of ``evenings``; SpieltagError (one line) for none, a Spieltag given twice,
    or Spieltage under different schemes."""
    if not evenings:
        raise SpieltagError("no Spieltag: a season needs at least one")
    scheme = evenings[0].spieltag.scheme
    for evening in evenings[1:]:
        if not _same_scheme(evening.spieltag.scheme, scheme):
            first, other = evenings[0].spieltag, evening.spieltag
            raise SpieltagError(
                f"Spieltag {other.id} ({other.name}) is scored under {other.scheme.name!r} but "
                f"{first.id} ({first.name}) under {scheme.name!r}"
                + (" with other parameters" if other.scheme.name == scheme.name else "")
                + ": a season adds Spieltage of one scheme only"
            )
    matches = matches_of(evenings)
    # A Spieltag whose games all are taken out or unscorable adds nothing (its standings are
    # refused): only its Kasse counts.
    played = tuple(evening for evening in matches if evening.counted)
    lines = {evening.spieltag.id: evening.standings() for evening in played}
    players = _players(scheme, [lines[evening.spieltag.id] for evening in played])
    teams = _teams(scheme, [(evening, lines[evening.spieltag.id]) for evening in played])
    return Season(scheme, matches, players, teams, season_kasse(matches))


def evening_kasse(evening: Evening) -> tuple[KasseLine, ...]:
    """What each player owes for ``evening``'s finished games; empty if it keeps no Kasse.
    A game taken out of the evening charges nothing (it does not count); one the scheme cannot
    score (two players under Platzpunkte) was played and lost, and charges as any other."""
    kasse = evening.spieltag.kasse
    if kasse is None:
        return ()
    return kasse_lines(kasse, [game.result for game in evening.games if not game.taken_out])


def season_kasse(evenings: Sequence[Evening]) -> tuple[KasseLine, ...]:
    """Each player's Kasse over the ``evenings`` that keep one, each at its own prices."""
    return add_lines([evening_kasse(evening) for evening in evenings])


def _players(scheme: Scheme, evenings: Sequence[Sequence[Standing]]) -> tuple[SeasonPlayer, ...]:
    score: dict[str, int] = {}
    came: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    for standings in evenings:
        for line in standings:
            score[line.player] = score.get(line.player, 0) + line.score
            came[line.player] = came.get(line.player, 0) + 1
            tally = counts.setdefault(line.player, dict.fromkeys(_COUNTS, 0))
            for name in _COUNTS:
                tally[name] += line.count(name)
    higher = scheme.ranks_higher_first

    def key(player: str) -> tuple[int, ...]:
        first = -score[player] if higher else score[player]
        rest = tuple(
            counts[player][name] if TIE_BREAKS[name] else -counts[player][name]
            for name in scheme.tie_breaks
        )
        return (first, *rest)

    order = sorted(score, key=lambda p: (key(p), p))
    lines: list[SeasonPlayer] = []
    for index, player in enumerate(order):
        place = lines[-1].place if lines and key(lines[-1].player) == key(player) else index + 1
        tally = counts[player]
        lines.append(SeasonPlayer(
            place, player, score[player], came[player], *(tally[name] for name in _COUNTS)
        ))  # fmt: skip
    return tuple(lines)


def _teams(
    scheme: Scheme, matches: Sequence[tuple[Evening, Sequence[Standing]]]
) -> tuple[SeasonTeam, ...]:
    higher = scheme.ranks_higher_first
    tally: dict[str, list[int]] = {}  # matches, won, drawn, lost, score, against
    for evening, standings in matches:
        spieltag = evening.spieltag
        if not (spieltag.home and spieltag.guest):
            continue
        result = team_result(scheme, spieltag.players, standings)  # None: nobody on a seat
        home, guest = (result.home_total, result.guest_total) if result else (0, 0)
        for team, own, other in ((spieltag.home, home, guest), (spieltag.guest, guest, home)):
            line = tally.setdefault(team, [0, 0, 0, 0, 0, 0])
            better = own > other if higher else own < other
            line[0] += 1
            line[1 if better else 2 if own == other else 3] += 1
            line[4] += own
            line[5] += other

    def key(team: str) -> tuple[int, int]:
        line = tally[team]
        return (-line[4] if higher else line[4], -line[1])

    order = sorted(tally, key=lambda team: (key(team), team))
    lines: list[SeasonTeam] = []
    for index, team in enumerate(order):
        place = lines[-1].place if lines and key(lines[-1].team) == key(team) else index + 1
        lines.append(SeasonTeam(place, team, *tally[team]))
    return tuple(lines)
