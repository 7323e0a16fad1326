"""A tournament across tables: its format, the draw of each round, lives, standings, teams.

Pure functions of the registered players and the finished games (:class:`GameResult`) of each
round, like :mod:`engine.scoring` for one evening; the hub (``firmware/hub/``) keeps them in
its store and asks this module what they mean. Nothing here draws a random number: the draw
takes the order to seat players in from its caller (the hub shuffles with a seed it stores).
So that a hub need not replay every game on each new one, :class:`Recount` takes one game more
into the standings :func:`progress` gives, and :class:`Ranker` places only the lines that
changed; each gives what the functions give.

How organised tournaments play, and so what a :class:`Format` can say:

- points rounds under a scheme (the Deutsche Meisterschaft im Schocken: four rounds, tables of
  four drawn anew each round, the team standings summed from the players);
- KO rounds with lives (Leben): every game lost costs one; a player with none left is out
  (the Velen Masters Cup: 3 lives, then 2 for those still in);
- the Deutsche Schockmeisterschaft's rules as used in Kamen: 3 chips, then 2, and a
  Trostrunde (consolation round) for those out of the first KO stage, played beside it.

A format is a list of *steps*; each step runs one or more *phases* in the same rounds (the
second KO stage and the Trostrunde side by side). A points phase lasts its number of rounds;
a lives phase lasts until at most ``until`` of its players have a life left.

The draw seats players at tables of four; threes ("Springer" tables) only where the count
needs them (10 players: 4 + 3 + 3; 9: 3 + 3 + 3), and a field of 2 to 5 (a KO final) at one.
It spreads team mates over the tables and avoids seating players together again, in that
order of weight.

A player may leave a tournament at the director's desk (:class:`Leaving`): withdrawn,
disqualified, or replaced by a substitute (a Springer) who takes their seat, and in a KO phase
their lives. Their games stay counted (the others at their table played them); from the point
they left they play no more, rank among those out, and a disqualified player ranks last and
counts for no team.
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from engine.errors import SchockenError
from engine.scoring import (
    SCHEME_PRESETS,
    GameResult,
    LifeCost,
    Scheme,
    game_points,
    lives_cost,
)

__all__ = [
    "FORMAT_PRESETS",
    "DrawnTable",
    "Entrant",
    "Format",
    "Group",
    "Leaving",
    "Phase",
    "PhaseKind",
    "PlacedLine",
    "PlayedRound",
    "PlayerLine",
    "Progress",
    "Ranker",
    "Recount",
    "TeamLine",
    "TournamentError",
    "draw",
    "draw_cost",
    "meetings",
    "placed",
    "progress",
    "rank_key",
    "ranking",
    "schock_aus_king",
    "table_sizes",
    "team_scores",
]

#: What one pair of team mates at a table costs in the draw, against one earlier meeting.
TEAM_WEIGHT = 1000
#: How many passes of swaps the draw makes at most to improve the greedy seating.
_PASSES = 8
#: How many seatings the draw tries at most (each from the order turned round a little).
_STARTS = 12


class TournamentError(SchockenError):
    """A format, a draw or a round the tournament cannot take; the message is one line."""


class PhaseKind(enum.Enum):
    """What a phase counts: points under a scheme, lives (KO), or lives in the Trostrunde."""

    POINTS = "points"
    KO = "ko"
    TROST = "trost"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player and the team they play for ("" without one)."""

    name: str
    team: str = ""


@dataclass(frozen=True, slots=True)
class Phase:
    """One stage of a format.

    POINTS: ``rounds`` rounds under ``scheme``. KO: the players still in (the best
    ``advance`` of the ranking so far, or everyone still in) start with ``lives``; the phase
    ends when at most ``until`` have a life left. TROST: those out of the step before, with
    ``lives``, until at most ``until`` are left.
    """

    kind: PhaseKind
    rounds: int = 0
    scheme: Scheme = field(default_factory=lambda: SCHEME_PRESETS["verlustpunkte"])
    lives: int = 0
    until: int = 1
    advance: int | None = None
    life_cost: LifeCost = LifeCost.GAME


@dataclass(frozen=True, slots=True)
class Format:
    """A tournament's format: its steps, each one or more phases played in the same rounds."""

    name: str
    steps: tuple[tuple[Phase, ...], ...]
    #: Where the format is documented.
    source: str = ""
    #: The team score: "points" (the members' points summed) or "lives_lost".
    team_score: str = "points"

    def __post_init__(self) -> None:
        if not self.steps or any(not step for step in self.steps):
            raise TournamentError(f"format {self.name!r}: needs at least one phase per step")
        for index, step in enumerate(self.steps):
            for phase in step:
                if phase.kind is PhaseKind.POINTS and phase.rounds < 1:
                    raise TournamentError(f"format {self.name!r}: a points phase needs rounds")
                if phase.kind is not PhaseKind.POINTS and phase.lives < 1:
                    raise TournamentError(f"format {self.name!r}: a KO phase needs lives")
                if phase.kind is PhaseKind.TROST and index == 0:
                    raise TournamentError(
                        f"format {self.name!r}: a Trostrunde needs a KO step before it"
                    )
        if self.team_score not in ("points", "lives_lost"):
            raise TournamentError(
                f'team_score = {self.team_score!r}: must be "points" or "lives_lost"'
            )


def _ko(lives: int, until: int = 1, advance: int | None = None) -> Phase:
    return Phase(PhaseKind.KO, lives=lives, until=until, advance=advance)


#: The formats organisers document, by name.
FORMAT_PRESETS: dict[str, Format] = {
    "dm": Format(
        "dm",
        ((Phase(PhaseKind.POINTS, rounds=4),),),
        "Deutsche Meisterschaft im Schocken: four points rounds, team standings summed",
    ),
    "velen": Format(
        "velen",
        ((_ko(3, until=4),), (_ko(2),)),
        "Velen Masters Cup: 3 lives, then 2",
        team_score="lives_lost",
    ),
    "kamen": Format(
        "kamen",
        ((_ko(3, until=4),), (_ko(2), Phase(PhaseKind.TROST, lives=2))),
        "Deutsche Schockmeisterschaft's rules as used in Kamen: 3 chips, then 2, and a Trostrunde",
        team_score="lives_lost",
    ),
    "dm-ko": Format(
        "dm-ko",
        (
            (Phase(PhaseKind.POINTS, rounds=4),),
            (_ko(3, until=4, advance=32),),
            (_ko(2), Phase(PhaseKind.TROST, lives=2)),
        ),
        "the Deutsche Meisterschaft im Schocken's four points rounds, then the best 32 in KO "
        "rounds with 3 lives, the last four's final with 2 and a Trostrunde with 2 for all out",
    ),
    "points-then-ko": Format(
        "points-then-ko",
        ((Phase(PhaseKind.POINTS, rounds=2),), (_ko(3, until=4, advance=16),), (_ko(2),)),
        "points rounds, then the best 16 in KO rounds with 3 lives, then 2",
    ),
}


# -- the draw ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawnTable:
    """One table of a round's draw: its number and its players in seat order."""

    number: int
    players: tuple[str, ...]


def table_sizes(count: int) -> tuple[int, ...]:
    """The table sizes for ``count`` players: fours, and threes only as many as needed; a
    field of 2 to 5 (a KO final) sits at one table."""
    if 2 <= count <= 5:
        return (count,)
    if count < 2:
        raise TournamentError(f"{count} players: a table needs at least 2")
    threes = (4 - count % 4) % 4
    fours = (count - 3 * threes) // 4
    return (4,) * fours + (3,) * threes


def meetings(history: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table, from the tables of earlier rounds."""
    met: Counter[frozenset[str]] = Counter()
    for table in history:
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                met[frozenset((first, second))] += 1
    return met


def _pair_cost(a: str, b: str, team: Mapping[str, str], met: Mapping[frozenset[str], int]) -> int:
    same_team = bool(team.get(a)) and team.get(a) == team.get(b)
    return TEAM_WEIGHT * same_team + met.get(frozenset((a, b)), 0)


def draw_cost(
    tables: Iterable[Sequence[str]],
    teams: Mapping[str, str],
    met: Mapping[frozenset[str], int],
) -> int:
    """What a seating costs: :data:`TEAM_WEIGHT` per pair of team mates at one table, plus one
    per earlier meeting of two players seated together."""
    return sum(
        _pair_cost(table[i], table[j], teams, met)
        for table in tables
        for i in range(len(table))
        for j in range(i + 1, len(table))
    )


def draw(
    entrants: Sequence[Entrant],
    order: Sequence[str],
    history: Iterable[Sequence[str]] = (),
    first_table: int = 1,
) -> tuple[DrawnTable, ...]:
    """Seat ``entrants`` at tables of 4 (and 3 where needed), numbered from ``first_table``.

    ``order`` (every entrant's name once, shuffled by the caller) decides among equal
    seatings: players are seated in that order, each at the open table where they cost least,
    then pairs of players are swapped between tables while that lowers :func:`draw_cost`;
    if some cost is left, the same again from the order turned round, and the cheapest draw
    wins. The same order and history always give the same draw.
    """
    names = [e.name for e in entrants]
    if sorted(order) != sorted(names) or len(set(names)) != len(names):
        raise TournamentError("the draw's order must name every entrant exactly once")
    team = {e.name: e.team for e in entrants}
    met = meetings(history)
    sizes = table_sizes(len(names))
    seats: list[list[str]] = []
    best_cost = -1
    # Seating in order and then swapping finds a good draw, not always the best: a few more
    # starts (the order turned round by a share each time) find one where the first missed.
    for start in range(_STARTS):
        shift = start * len(order) // _STARTS
        tried = _seat([*order[shift:], *order[:shift]], sizes, team, met)
        cost = draw_cost(tried, team, met)
        if best_cost < 0 or cost < best_cost:
            seats, best_cost = tried, cost
        if cost == 0:
            break
    return tuple(DrawnTable(first_table + index, tuple(table)) for index, table in enumerate(seats))


def _seat(
    order: Sequence[str],
    sizes: Sequence[int],
    team: Mapping[str, str],
    met: Mapping[frozenset[str], int],
) -> list[list[str]]:
    """Seat players in ``order`` each where they cost least, then improve by swaps."""
    seats: list[list[str]] = [[] for _ in sizes]
    for name in order:
        open_tables = [i for i, size in enumerate(sizes) if len(seats[i]) < size]
        table = min(
            open_tables,
            key=lambda i: (sum(_pair_cost(name, other, team, met) for other in seats[i]), i),
        )
        seats[table].append(name)
    _improve(seats, team, met)
    return seats


def _cost_at(
    name: str, table: Sequence[str], team: Mapping[str, str], met: Mapping[frozenset[str], int]
) -> int:
    return sum(_pair_cost(name, other, team, met) for other in table if other != name)


def _improve(
    seats: list[list[str]], team: Mapping[str, str], met: Mapping[frozenset[str], int]
) -> None:
    """Swap two players of different tables while a swap lowers the cost. Only a player who
    costs something where they sit is moved, so a big field stays quick."""
    for _ in range(_PASSES):
        improved = False
        for a_index, a_table in enumerate(seats):
            for a_pos in range(len(a_table)):
                a = a_table[a_pos]
                a_cost = _cost_at(a, a_table, team, met)
                if a_cost and _swap_away(seats, a_index, a_pos, a_cost, team, met):
                    improved = True
        if not improved:
            return


def _swap_away(
    seats: list[list[str]],
    a_index: int,
    a_pos: int,
    a_cost: int,
    team: Mapping[str, str],
    met: Mapping[frozenset[str], int],
) -> bool:
    """Swap the player at ``seats[a_index][a_pos]`` with the first one elsewhere for whom the
    swap lowers the cost; whether one was found."""
    a_table = seats[a_index]
    a = a_table[a_pos]
    rest_a = [p for p in a_table if p != a]
    for b_index, b_table in enumerate(seats):
        if b_index == a_index:
            continue
        for b_pos, b in enumerate(b_table):
            before = a_cost + _cost_at(b, b_table, team, met)
            rest_b = [p for p in b_table if p != b]
            # a and b sit at different tables before and after: their own pair counts nowhere.
            after = _cost_at(b, rest_a, team, met) + _cost_at(a, rest_b, team, met)
            if after < before:
                a_table[a_pos], b_table[b_pos] = b, a
                return True
    return False


# -- rounds, lives and standings ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A round's finished games (stored and not refused), in the order they were stored."""

    number: int
    results: tuple[GameResult, ...]


@dataclass(frozen=True, slots=True)
class Leaving:
    """A player who left at the director's desk, from round ``round`` on, after ``after`` of
    that round's games (in the order stored; 0: before it started).

    ``how``: "withdrawn", "disqualified" or "replaced"; ``substitute``: who takes the seat and,
    in a KO phase or the Trostrunde, the lives left ("" for nobody).
    """

    name: str
    round: int
    how: str
    after: int = 0
    substitute: str = ""

    def __post_init__(self) -> None:
        if self.how not in LEAVING_KINDS:
            raise TournamentError(f"{self.name} left as {self.how!r}: not one of {LEAVING_KINDS}")
        if (self.how == "replaced") != bool(self.substitute):
            raise TournamentError(f"{self.name}: a substitute comes with 'replaced' only")


#: How a player may leave.
LEAVING_KINDS = ("withdrawn", "disqualified", "replaced")


@dataclass(frozen=True, slots=True)
class Group:
    """The players of one phase in the round to come, and their lives (KO and Trostrunde)."""

    phase: Phase
    players: tuple[str, ...]
    lives: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a tournament stands after its played rounds.

    ``groups``: who plays the next round in which phase (empty when it is over); ``step``:
    the step the next round belongs to (``len(steps)`` when over).
    """

    step: int
    groups: tuple[Group, ...]
    #: Every entrant's line, in the order registered.
    lines: tuple[PlayerLine, ...]
    #: Whether more points rank higher (the last points phase's scheme says).
    higher_is_better: bool = True

    @property
    def over(self) -> bool:
        """No round is left to play."""
        return not self.groups

    def ranked(self) -> tuple[PlayerLine, ...]:
        """The lines best first (:func:`ranking`)."""
        return ranking(self.lines, self.higher_is_better)

    def standings(self) -> tuple[PlacedLine, ...]:
        """The lines best first, each with its place (:func:`placed`)."""
        return placed(self.lines, self.higher_is_better)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's line in the tournament's standings."""

    name: str
    team: str
    points: int
    #: Lives left in the KO phase (or Trostrunde) the player is in; None outside one.
    lives: int | None
    games: int
    games_lost: int
    halves_lost: int
    lives_lost: int
    schock_aus: int
    #: Out of the main draw (no life left in a KO phase, or not advanced).
    out: bool
    #: How far the player got: the step index of the main draw they last played in.
    reached: int
    #: The round they went out in (0 if still in).
    out_round: int = 0
    #: In the Trostrunde (after going out of the main draw).
    trost: bool = False
    #: When they went out, counted in games stored: later is better among those out.
    out_seq: int = 0
    #: How they left at the director's desk ("withdrawn", "disqualified", "replaced"; "": not).
    left: str = ""


@dataclass
class _Tally:
    team: str
    points: int = 0
    lives: int | None = None
    games: int = 0
    games_lost: int = 0
    halves_lost: int = 0
    lives_lost: int = 0
    schock_aus: int = 0
    out: bool = False
    reached: int = 0
    out_round: int = 0
    trost: bool = False
    trost_out: bool = False
    out_seq: int = 0
    left: str = ""


def _count(tally: _Tally, result: GameResult, player: str) -> None:
    tally.games += 1
    tally.games_lost += int(result.loser == player)
    tally.halves_lost += result.halves_lost(player)
    tally.schock_aus += result.schock_aus(player)


def progress(
    fmt: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[PlayedRound],
    leavings: Sequence[Leaving] = (),
) -> Progress:
    """Replay the played rounds through the format: each player's line, and who plays next.

    Each of ``leavings`` takes effect in its round after its number of games (one for a round
    not played yet: in the groups of the round to come). A result whose players are not all in
    one group of its round raises TournamentError (the hub refuses such results before they
    are stored).
    """
    return Recount(fmt, entrants, rounds, leavings).progress()


class Recount:
    """:func:`progress`, kept up to date one game at a time: replayed once from the played
    rounds, it holds the last round open and takes each further game of it (:meth:`add`)
    into the running totals, where :func:`progress` would replay every game again.

    It takes no game of another round, and none while a player's leaving in the last round is
    still to take effect or one comes in a later round (:meth:`add` says False): replay from
    the rounds then. After each :meth:`add`, :meth:`progress` is what :func:`progress` of the
    rounds with that game added gives.
    """

    def __init__(
        self,
        fmt: Format,
        entrants: Sequence[Entrant],
        rounds: Sequence[PlayedRound],
        leavings: Sequence[Leaving] = (),
    ) -> None:
        self._fmt = fmt
        self._tally = {e.name: _Tally(e.team) for e in entrants}
        for leaving in leavings:
            for name in (leaving.name, leaving.substitute):
                if name and name not in self._tally:
                    raise TournamentError(f"{name} left or came in, but is not registered")
        self._waiting = list(leavings)
        self._scheme: Scheme | None = None
        self._step = 0
        self._main = [e.name for e in entrants]
        self._trost: list[str] = []
        #: The step's groups as the open round began (None: the next step is not open yet),
        #: and the step's rounds played before it.
        self._groups: tuple[Group, ...] | None = None
        self._played_in_step = 0
        #: The last round, open for more games (None: no round played).
        self._open: _RoundPlay | None = None
        #: The lines as the last :meth:`progress` gave them, by name: a line no game changed
        #: since is the same object (None: not made yet).
        self._shown: dict[str, PlayerLine] | None = None
        self._done = self._replay(list(rounds), hold_last=True)

    def add(self, round_: int, game: GameResult) -> bool:
        """Take one more game of round ``round_``, stored after those taken; False (and
        nothing taken) where it cannot: not the last round, or a player's leaving is still to
        come (see the class). TournamentError (nothing taken) for a game that fits no group."""
        play = self._open
        if play is None or play.number != round_ or play.leavings or self._waiting:
            return False
        play.take(game)
        return True

    def progress(self) -> Progress:
        """Where the tournament stands now."""
        if self._done is not None:
            return self._done
        play = self._open
        assert play is not None
        if not play.leavings and not self._waiting:
            # The usual case: the round's groups go on as they are; nothing closes or opens.
            groups = tuple(
                g for g in play.groups_now() if not _group_done(g, self._played_in_step + 1)
            )
            if groups:
                return Progress(self._step, groups, self._lines(), _higher(self._scheme))
        # The round's last leavings, or the end of a step: on a copy, the round stays open.
        copy = self._copy()
        assert copy._open is not None
        copy._groups = copy._open.close()
        copy._open = None
        copy._played_in_step += 1
        found = copy._replay([], hold_last=False)
        assert found is not None
        return found

    def _lines(self) -> tuple[PlayerLine, ...]:
        """Every line, made again only for the players of the games taken since the last."""
        play, tally = self._open, self._tally
        assert play is not None
        if self._shown is None:
            self._shown = {line.name: line for line in _lines(tally, tally)}
        else:
            for name in play.touched:
                self._shown[name] = _lines(tally, (name,))[0]
        play.touched.clear()
        return tuple(self._shown.values())

    def _copy(self) -> Recount:
        copy = object.__new__(Recount)
        copy.__dict__.update(self.__dict__)
        copy._tally = {name: _Tally(**vars(t)) for name, t in self._tally.items()}
        copy._waiting = list(self._waiting)
        copy._main = list(self._main)
        copy._trost = list(self._trost)
        copy._open = self._open.copy(copy._tally) if self._open is not None else None
        return copy

    def _replay(self, pending: list[PlayedRound], *, hold_last: bool) -> Progress | None:
        """Play the ``pending`` rounds on from where the replay stands: the progress after
        them, or (``hold_last``) None with the last one kept open."""
        fmt, tally = self._fmt, self._tally
        while True:
            if self._groups is None:
                if self._step >= len(fmt.steps):
                    break
                if not pending and self._waiting:
                    # Those who left before the round to come are in none of its phases.
                    for leaving in self._waiting:
                        _leave(leaving, [], [], tally, leaving.round)
                    self._main = [n for n in self._main if not tally[n].out]
                    self._trost = [n for n in self._trost if not tally[n].left]
                self._groups = _open_step(
                    fmt, self._step, self._main, self._trost, tally, self._scheme
                )
                for phase in fmt.steps[self._step]:
                    if phase.kind is PhaseKind.POINTS:
                        self._scheme = phase.scheme
                self._played_in_step = 0
            groups = tuple(g for g in self._groups if not _group_done(g, self._played_in_step))
            self._groups = groups
            if not groups:
                self._main = [n for n in self._main if not tally[n].out]
                self._trost = [n for n in tally if tally[n].out and not tally[n].trost]
                self._step += 1
                self._groups = None
                continue
            if not pending:
                groups = _leave_before_the_draw(groups, self._waiting, tally)
                return Progress(self._step, groups, _lines(tally, tally), _higher(self._scheme))
            played = pending.pop(0)
            now = [w for w in self._waiting if w.round <= played.number]
            self._waiting = [w for w in self._waiting if w.round > played.number]
            play = _RoundPlay(groups, tally, played.number, now)
            for result in played.results:
                play.take(result)
            if hold_last and not pending:
                self._open = play
                return None
            self._groups = play.close()
            self._played_in_step += 1
        if pending:
            raise TournamentError(
                f"round {pending[0].number}: the tournament was over before it was played"
            )
        return Progress(self._step, (), _lines(tally, tally), _higher(self._scheme))


def _open_step(
    fmt: Format,
    step_index: int,
    main: list[str],
    trost_pool: list[str],
    tally: dict[str, _Tally],
    points_scheme: Scheme | None,
) -> tuple[Group, ...]:
    groups = []
    for phase in fmt.steps[step_index]:
        if phase.kind is PhaseKind.TROST:
            players = list(trost_pool)
            for name in players:
                tally[name].trost = True
        else:
            players = list(main)
            if phase.advance is not None and phase.advance < len(players):
                ranked = ranking(_lines(tally, main), _higher(points_scheme))
                order = [line.name for line in ranked]
                keep = set(order[: phase.advance])
                for name in players:
                    if name not in keep:
                        tally[name].out = True
                players = [n for n in players if n in keep]
                main[:] = players
            for name in players:
                tally[name].reached = step_index
        lives = {n: phase.lives for n in players} if phase.lives else {}
        for name, left in lives.items():
            tally[name].lives = left
        groups.append(Group(phase, tuple(players), lives))
    return tuple(groups)


def _higher(scheme: Scheme | None) -> bool:
    return scheme is None or scheme.higher_is_better


def _group_done(group: Group, played: int) -> bool:
    if group.phase.kind is PhaseKind.POINTS:
        return played >= group.phase.rounds
    alive = [n for n in group.players if group.lives.get(n, 0) > 0]
    return len(alive) <= max(1, group.phase.until)


class _RoundPlay:
    """One round's games taken one at a time: its groups' players and lives as they go, and
    the round's leavings still to take effect (each after its number of games)."""

    def __init__(
        self,
        groups: tuple[Group, ...],
        tally: dict[str, _Tally],
        number: int,
        leavings: Sequence[Leaving] = (),
    ) -> None:
        self.groups = groups
        self.number = number
        self._tally = tally
        self.lives = [dict(g.lives) for g in groups]
        self.players = [list(g.players) for g in groups]
        self._members = [frozenset(p) for p in self.players]
        self.leavings = list(leavings)
        #: How many games the round has taken, and the players whose lines they changed.
        self.position = 0
        self.touched: set[str] = set()

    def copy(self, tally: dict[str, _Tally]) -> _RoundPlay:
        """The same round over ``tally`` (a copy of this one's)."""
        copy = object.__new__(_RoundPlay)
        copy.groups, copy.number, copy._tally = self.groups, self.number, tally
        copy.lives = [dict(left) for left in self.lives]
        copy.players = [list(members) for members in self.players]
        copy._members = list(self._members)
        copy.leavings = list(self.leavings)
        copy.position = self.position
        copy.touched = set(self.touched)
        return copy

    def take(self, result: GameResult) -> None:
        """Count one more game of the round (TournamentError if it fits no group: nothing is
        counted then)."""
        self._leave(end=False)
        index = next(
            (
                i
                for i, g in enumerate(self.groups)
                if _in_group(g, self._members[i], self.lives[i], result.players)
            ),
            None,
        )
        if index is None:
            raise TournamentError(
                f"round {self.number}: a game of {', '.join(result.players)} does not "
                "belong to any table of the round"
            )
        self.position += 1
        self.touched.update(result.players)
        tally, group, lives = self._tally, self.groups[index], self.lives[index]
        for player in result.players:
            _count(tally[player], result, player)
        if group.phase.kind is PhaseKind.POINTS:
            for player, value in game_points(group.phase.scheme, result).items():
                tally[player].points += value
            return
        for player in result.players:
            cost = min(lives[player], lives_cost(_life_scheme(group.phase), result, player))
            lives[player] -= cost
            tally[player].lives = lives[player]
            tally[player].lives_lost += cost
            if lives[player] == 0:
                if group.phase.kind is PhaseKind.TROST:
                    tally[player].trost_out = True
                elif not tally[player].out:
                    tally[player].out = True
                    tally[player].out_round = self.number
                    tally[player].out_seq = sum(t.games for t in tally.values())

    def groups_now(self) -> tuple[Group, ...]:
        """The groups as the round's games so far leave them (those out of lives gone)."""
        return tuple(
            Group(
                g.phase,
                tuple(
                    n for n in self.players[i]
                    if g.phase.kind is PhaseKind.POINTS or self.lives[i][n] > 0
                ),
                {n: v for n, v in self.lives[i].items() if v > 0},
            )
            for i, g in enumerate(self.groups)
        )  # fmt: skip

    def close(self) -> tuple[Group, ...]:
        """The round is over: its leavings still to come take effect; the groups after it."""
        self._leave(end=True)
        return self.groups_now()

    def _leave(self, *, end: bool) -> None:
        """The leavings due after the games taken (at the ``end``: every one left)."""
        position = self.position
        due = [w for w in self.leavings if w.after == position or (end and w.after > position)]
        if not due:
            return
        for leaving in due:
            _leave(leaving, self.players, self.lives, self._tally, self.number)
            self.touched.update(n for n in (leaving.name, leaving.substitute) if n)
        self.leavings = [
            w for w in self.leavings if not (w.after == position or (end and w.after > position))
        ]
        self._members = [frozenset(p) for p in self.players]


def _leave(
    leaving: Leaving,
    players: list[list[str]],
    lives: list[dict[str, int]],
    tally: dict[str, _Tally],
    number: int,
) -> None:
    """``leaving`` in a round's groups: the player out of theirs (a substitute in, with the
    lives left), their line marked, ranked as out at this moment."""
    name, substitute = leaving.name, leaving.substitute
    for members, left in zip(players, lives, strict=True):
        if name in members:
            members.remove(name)
            if substitute and substitute not in members:
                members.append(substitute)
            if name in left:
                if substitute:
                    left[substitute] = left[name]
                    tally[substitute].lives = left[name]
                left[name] = 0
    line = tally[name]
    line.left = leaving.how
    line.lives = 0 if line.lives is not None else None
    if not line.out:
        line.out = True
        line.out_round = number
        line.out_seq = sum(t.games for t in tally.values())


def _leave_before_the_draw(
    groups: tuple[Group, ...], waiting: Sequence[Leaving], tally: dict[str, _Tally]
) -> tuple[Group, ...]:
    """The groups of the round to come without those who left before it was played."""
    if not waiting:
        return groups
    lives = [dict(g.lives) for g in groups]
    players = [list(g.players) for g in groups]
    for leaving in waiting:
        _leave(leaving, players, lives, tally, leaving.round)
    return tuple(
        Group(g.phase, tuple(players[i]), {n: v for n, v in lives[i].items() if v > 0})
        for i, g in enumerate(groups)
    )


def _in_group(
    group: Group, members: frozenset[str], lives: Mapping[str, int], players: Sequence[str]
) -> bool:
    if group.phase.kind is PhaseKind.POINTS:
        return members.issuperset(players)
    return all(lives.get(p, 0) > 0 for p in players)


def _life_scheme(phase: Phase) -> Scheme:
    return Scheme("leben", lives=phase.lives, life_cost=phase.life_cost)


def _lines(tally: Mapping[str, _Tally], names: Iterable[str]) -> tuple[PlayerLine, ...]:
    return tuple(
        PlayerLine(
            name,
            t.team,
            t.points,
            t.lives,
            t.games,
            t.games_lost,
            t.halves_lost,
            t.lives_lost,
            t.schock_aus,
            t.out,
            t.reached,
            t.out_round,
            t.trost,
            t.out_seq,
            t.left,
        )
        for name in names
        for t in [tally[name]]
    )


def rank_key(line: PlayerLine, higher_is_better: bool = True) -> tuple[int, ...]:
    """What :func:`ranking` sorts by (the name aside): equal keys share a place."""
    return (
        int(line.left == "disqualified"),
        int(line.out),
        -line.reached,
        -line.out_seq if line.out else 0,
        -(line.lives or 0),
        -line.points if higher_is_better else line.points,
        line.games_lost,
    )


def ranking(lines: Iterable[PlayerLine], higher_is_better: bool = True) -> tuple[PlayerLine, ...]:
    """The lines best first: still in before out (a disqualified player last of all),
    further steps first, among those out the later out first; then more lives, then the
    points (``higher_is_better`` as the points scheme says), then fewer games lost (the
    tie-break), then the name."""
    return tuple(sorted(lines, key=lambda line: (rank_key(line, higher_is_better), line.name)))


@dataclass(frozen=True, slots=True)
class PlacedLine:
    """A player's line with the place the standings give it."""

    place: int
    line: PlayerLine


def placed(lines: Iterable[PlayerLine], higher_is_better: bool = True) -> tuple[PlacedLine, ...]:
    """The lines best first (:func:`ranking`), each with its place: lines that rank equal on
    every key but the name share a place, and the next line's place counts them all (1, 2, 2,
    4)."""
    keyed = sorted((((rank_key(line, higher_is_better), line.name), line) for line in lines),
                   key=_first)  # fmt: skip
    found: list[PlacedLine] = []
    for index, ((key, _name), line) in enumerate(keyed):
        tied = index and keyed[index - 1][0][0] == key
        found.append(PlacedLine(found[-1].place if tied else index + 1, line))
    return tuple(found)


_first = itemgetter(0)


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's score: the sum over its members, and their games lost (the tie-break)."""

    team: str
    score: int
    games_lost: int
    members: tuple[str, ...]


def team_scores(
    lines: Iterable[PlayerLine], by: str = "points", higher_is_better: bool = True
) -> tuple[TeamLine, ...]:
    """The teams best first: the members' points summed (``by="points"``) or their lives
    lost (``"lives_lost"``, fewer is better); ties go to fewer games lost, then the name. A
    disqualified player counts for no team."""
    teams = _teams(lines, by)
    scored = [_team_line(team, members, by) for team, members in teams.items()]
    return _teams_ranked(scored, by, higher_is_better)


def _teams(lines: Iterable[PlayerLine], by: str) -> dict[str, list[PlayerLine]]:
    if by not in ("points", "lives_lost"):
        raise TournamentError(f'team score by {by!r}: must be "points" or "lives_lost"')
    teams: dict[str, list[PlayerLine]] = {}
    for line in lines:
        if line.team and line.left != "disqualified":
            teams.setdefault(line.team, []).append(line)
    return teams


def _team_line(team: str, members: Sequence[PlayerLine], by: str) -> TeamLine:
    return TeamLine(
        team,
        sum(m.points if by == "points" else m.lives_lost for m in members),
        sum(m.games_lost for m in members),
        tuple(m.name for m in members),
    )


def _teams_ranked(scored: Iterable[TeamLine], by: str, higher: bool) -> tuple[TeamLine, ...]:
    better_high = higher and by == "points"
    return tuple(
        sorted(scored, key=lambda t: (-t.score if better_high else t.score, t.games_lost, t.team))
    )


class Ranker:
    """:func:`placed` and :func:`team_scores` for one tournament's lines after another (a
    :class:`Recount`'s, say, where a line no game changed is the same object as before): only
    the lines that are not the same objects as last time are sorted in again, only their
    teams summed again. What it gives is what those functions give."""

    #: More lines changed than this: sorted whole.
    RESORT = 64

    def __init__(self, higher_is_better: bool = True, by: str = "points") -> None:
        self.higher_is_better = higher_is_better
        self.by = by
        self._keyed: list[tuple[tuple[tuple[int, ...], str], PlayerLine]] = []
        self._lines: dict[str, PlayerLine] = {}
        self._placed: dict[str, PlacedLine] = {}
        self._teams: dict[str, tuple[tuple[PlayerLine, ...], TeamLine]] = {}

    def placed(self, lines: Iterable[PlayerLine]) -> tuple[PlacedLine, ...]:
        """:func:`placed` of ``lines`` (with this ranker's ``higher_is_better``)."""
        lines = tuple(lines)
        higher = self.higher_is_better
        last = self._lines
        changed = [line for line in lines if last.get(line.name) is not line]
        if len(lines) != len(last) or len(changed) > self.RESORT or any(
            line.name not in last for line in changed
        ):
            self._keyed = sorted((((rank_key(line, higher), line.name), line) for line in lines),
                                 key=_first)  # fmt: skip
        else:
            keyed = self._keyed
            for line in changed:
                old = last[line.name]
                del keyed[bisect_left(keyed, (rank_key(old, higher), old.name), key=_first)]
            for line in changed:
                item = ((rank_key(line, higher), line.name), line)
                keyed.insert(bisect_left(keyed, item[0], key=_first), item)
        self._lines = {line.name: line for line in lines}
        found: list[PlacedLine] = []
        shown, kept = self._placed, {}
        keyed = self._keyed
        for index, ((key, name), line) in enumerate(keyed):
            tied = index and keyed[index - 1][0][0] == key
            place = found[-1].place if tied else index + 1
            was = shown.get(name)
            now = was if was is not None and was.line is line and was.place == place else (
                PlacedLine(place, line))  # fmt: skip
            kept[name] = now
            found.append(now)
        self._placed = kept
        return tuple(found)

    def team_scores(self, lines: Iterable[PlayerLine]) -> tuple[TeamLine, ...]:
        """:func:`team_scores` of ``lines`` (with this ranker's ``by`` and
        ``higher_is_better``)."""
        scored, kept = [], {}
        for team, members in _teams(lines, self.by).items():
            held = self._teams.get(team)
            if held is None or len(held[0]) != len(members) or any(
                a is not b for a, b in zip(held[0], members, strict=True)
            ):
                held = (tuple(members), _team_line(team, members, self.by))
            kept[team] = held
            scored.append(held[1])
        self._teams = kept
        return _teams_ranked(scored, self.by, self.higher_is_better)


def schock_aus_king(lines: Iterable[PlayerLine]) -> tuple[str, ...]:
    """The side prize: the player(s) with the most Schock aus (none before the first)."""
    lines = list(lines)
    most = max((line.schock_aus for line in lines), default=0)
    return tuple(sorted(line.name for line in lines if most and line.schock_aus == most))
