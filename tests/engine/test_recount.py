"""The standings kept up to date one game at a time (engine.tournament.Recount): after every
game it takes, its progress is what the replay of every round from the start gives
(:func:`engine.tournament.progress`, the oracle), over whole tournaments of every preset
format, with players leaving mid-round and before a round."""

from __future__ import annotations

import random

import pytest

from engine.tournament import (
    FORMAT_PRESETS,
    Entrant,
    Leaving,
    PhaseKind,
    PlayedRound,
    PlayerLine,
    Ranker,
    Recount,
    TournamentError,
    placed,
    progress,
    table_sizes,
    team_scores,
)
from tests.engine.test_tournament import game


def _tables(players: tuple[str, ...], rng: random.Random) -> list[list[str]]:
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    return tables


def _play_through(name: str, count: int, seed: int, leavings: tuple[Leaving, ...] = ()) -> int:
    """Play format ``name`` with ``count`` players to its end (or 12 rounds), each game taken
    by a Recount and checked against the replay; how many games it took."""
    fmt = FORMAT_PRESETS[name]
    rng = random.Random(seed)
    entrants = [Entrant(f"P{i:02}", f"T{i % 3}") for i in range(count)]
    rounds: list[PlayedRound] = []
    rankers: dict[bool, Ranker] = {}
    taken = 0
    for number in range(1, 13):
        state = progress(fmt, entrants, rounds, leavings)
        if state.over:
            break
        rounds.append(PlayedRound(number, ()))
        recount = Recount(fmt, entrants, rounds, leavings)  # the hub's recount at the draw
        assert recount.progress() == progress(fmt, entrants, rounds, leavings)
        for group in state.groups:
            for table in _tables(group.players, rng):
                for _ in range(rng.randrange(2, 6)):
                    alive = [p for p in table if group.phase.kind is PhaseKind.POINTS
                             or rng.random() < 0.97]  # fmt: skip
                    if group.phase.kind is not PhaseKind.POINTS:
                        lives = {line.name: line.lives for line in recount.progress().lines}
                        alive = [p for p in table if lives.get(p)]
                    if len(alive) < 2:
                        break
                    result = game(alive, rng.choice(alive), schock_aus={alive[0]: rng.randrange(2)})
                    rounds[-1] = PlayedRound(number, (*rounds[-1].results, result))
                    try:
                        expected = progress(fmt, entrants, rounds, leavings)
                    except TournamentError:  # a player who left: the hub refuses such a game
                        rounds[-1] = PlayedRound(number, rounds[-1].results[:-1])
                        continue
                    if not recount.add(number, result):
                        recount = Recount(fmt, entrants, rounds, leavings)  # the fall-back
                    else:
                        taken += 1
                    assert recount.progress() == expected
                    ranker = rankers.setdefault(expected.higher_is_better,
                                                Ranker(expected.higher_is_better))  # fmt: skip
                    assert ranker.placed(recount.progress().lines) == expected.standings()
                    assert ranker.team_scores(recount.progress().lines) == team_scores(
                        expected.lines, "points", expected.higher_is_better
                    )
    return taken


@pytest.mark.parametrize(
    ("name", "count", "seed"),
    [("dm", 12, 1), ("velen", 10, 2), ("kamen", 11, 3), ("points-then-ko", 9, 4)],
)
def test_each_game_taken_gives_the_replays_standings(name: str, count: int, seed: int) -> None:
    assert _play_through(name, count, seed) > 20


@pytest.mark.parametrize(
    ("name", "leavings"),
    [
        ("velen", (Leaving("P03", 1, "withdrawn", after=3), Leaving("P05", 2, "disqualified"))),
        ("dm", (Leaving("P01", 2, "withdrawn", after=2), Leaving("P02", 3, "disqualified"))),
    ],
)
def test_the_same_with_players_leaving(name: str, leavings: tuple[Leaving, ...]) -> None:
    assert _play_through(name, 11, 5, leavings) > 10


def test_the_dm_ko_format_through_its_points_rounds_into_ko() -> None:
    fmt = FORMAT_PRESETS["dm-ko"]
    entrants = [Entrant(f"S{i:02}") for i in range(40)]
    tables = [[e.name for e in entrants[i : i + 4]] for i in range(0, 40, 4)]
    rounds: list[PlayedRound] = []
    for number in range(1, 5):
        rounds.append(PlayedRound(number, ()))
        recount = Recount(fmt, entrants, rounds)
        for at, table in enumerate(tables):
            result = game(table, table[(number + at) % 4])
            rounds[-1] = PlayedRound(number, (*rounds[-1].results, result))
            assert recount.add(number, result)
            assert recount.progress() == progress(fmt, entrants, rounds)
    (ko,) = recount.progress().groups  # the fourth round's last game opened the KO step
    assert ko.phase.kind is PhaseKind.KO and len(ko.players) == 32


def test_players_leaving_mid_round_and_before_a_round_fall_back_to_the_replay() -> None:
    """A leaving still to take effect in the last round, or one in a later round, is not
    taken game by game (add says False); once past it, the round is taken again."""
    fmt = FORMAT_PRESETS["velen"]
    entrants = [Entrant(n) for n in "ABCDEFGHJ"]
    left = (Leaving("A", 1, "replaced", after=1, substitute="J"),)
    first = [game("ABCD", "A"), game("JBCD", "J"), game("EFGH", "E"), game("JBCD", "B")]
    rounds = [PlayedRound(1, (first[0],))]
    recount = Recount(fmt, entrants, rounds, left)
    assert recount.progress() == progress(fmt, entrants, rounds, left)
    assert not recount.add(1, first[1])  # A's leaving comes after this round's first game
    rounds = [PlayedRound(1, tuple(first[:2]))]
    recount = Recount(fmt, entrants, rounds, left)
    for result in first[2:]:
        rounds = [PlayedRound(1, (*rounds[0].results, result))]
        assert recount.add(1, result)
        assert recount.progress() == progress(fmt, entrants, rounds, left)
    later = (*left, Leaving("H", 2, "disqualified"))
    recount = Recount(fmt, entrants, rounds, later)
    assert recount.progress() == progress(fmt, entrants, rounds, later)
    assert not recount.add(1, game("EFGH", "F"))
    assert not recount.add(2, game("EFGH", "F"))  # not the round it holds open


def test_a_game_that_fits_no_group_is_refused_and_nothing_is_taken() -> None:
    fmt = FORMAT_PRESETS["kamen"]
    entrants = [Entrant(n) for n in "ABCDEFGH"]
    rounds = [PlayedRound(1, (game("ABCD", "A"),))]
    recount = Recount(fmt, entrants, rounds)
    before = recount.progress()
    with pytest.raises(TournamentError, match="does not belong"):
        recount.add(1, game(("A", "Z"), "A"))
    assert recount.progress() == before
    assert Recount(fmt, entrants, []).add(1, game("ABCD", "A")) is False  # no round drawn


def test_the_ranker_sorts_in_what_changed_as_placed_sorts_it_all() -> None:
    """Random lines of 150 players, a few changed at a time (ties, teams, the disqualified,
    a whole new set now and then): the ranker's places and teams are placed's and
    team_scores'."""
    rng = random.Random(11)

    def line(name: str) -> PlayerLine:
        return PlayerLine(name, f"T{rng.randrange(9)}" if rng.random() < 0.9 else "",
                          rng.randrange(-5, 5), None, 3, rng.randrange(3), 1, 0, 0,
                          rng.random() < 0.05, 0,
                          left="disqualified" if rng.random() < 0.02 else "")  # fmt: skip

    for higher, by in ((True, "points"), (False, "lives_lost")):
        ranker = Ranker(higher, by)
        lines = {f"P{i:03}": line(f"P{i:03}") for i in range(150)}
        for step in range(30):
            count = 150 if step % 13 == 5 else rng.randrange(1, 8)
            for name in rng.sample(sorted(lines), count):
                lines[name] = line(name)
            now = tuple(lines.values())
            assert ranker.placed(now) == placed(now, higher)
            assert ranker.team_scores(now) == team_scores(now, by, higher)
