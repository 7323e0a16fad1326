"""The tournament's pure rules: the draw, lives and the KO steps, the Trostrunde, team scores,
the tie-break and the Schock-aus king (engine/tournament.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine.scoring import GameResult
from engine.tournament import (
    FORMAT_PRESETS,
    Entrant,
    Format,
    Leaving,
    Phase,
    PhaseKind,
    PlayedRound,
    TournamentError,
    draw,
    draw_cost,
    meetings,
    placed,
    progress,
    ranking,
    schock_aus_king,
    table_sizes,
    team_scores,
)


def game(players: Sequence[str], loser: str, *, schock_aus: dict[str, int] | None = None,
         other: str | None = None) -> GameResult:  # fmt: skip
    """A game ``loser`` lost in the final, the halves lost by ``loser`` and ``other``."""
    players = tuple(players)
    second = other or next(p for p in players if p != loser)
    order = (*((p,) for p in players if p != loser), (loser,))
    order2 = (*((p,) for p in players if p != second), (second,))
    return GameResult(
        players, (loser, second), loser, loser, (order, order2),
        tuple((schock_aus or {}).items()),
    )  # fmt: skip


def names(count: int) -> list[str]:
    return [f"P{i:03}" for i in range(count)]


@pytest.mark.parametrize(
    ("count", "sizes"),
    [(4, (4,)), (5, (5,)), (6, (3, 3)), (7, (4, 3)), (8, (4, 4)), (9, (3, 3, 3)),
     (10, (4, 3, 3)), (11, (4, 4, 3)), (608, (4,) * 152), (150 * 4 - 1, (4,) * 149 + (3,))],
)  # fmt: skip
def test_tables_are_fours_with_threes_only_where_the_count_needs_them(
    count: int, sizes: tuple[int, ...]
) -> None:
    assert table_sizes(count) == sizes


def test_one_player_cannot_be_seated() -> None:
    with pytest.raises(TournamentError, match="at least 2"):
        table_sizes(1)


def test_the_draw_seats_everyone_once_and_is_the_same_for_the_same_order() -> None:
    entrants = [Entrant(n) for n in names(30)]
    order = names(30)
    random.Random(7).shuffle(order)
    tables = draw(entrants, order, first_table=3)
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == names(30)
    assert [t.number for t in tables] == list(range(3, 3 + len(tables)))
    assert [len(t.players) for t in tables] == [4] * 6 + [3] * 2
    assert draw(entrants, order, first_table=3) == tables


def test_the_draw_refuses_an_order_that_misses_a_player() -> None:
    with pytest.raises(TournamentError, match="every entrant exactly once"):
        draw([Entrant("A"), Entrant("B"), Entrant("C")], ["A", "B", "B"])


def test_team_mates_are_spread_over_the_tables() -> None:
    """Five teams of four, 20 players at five tables: no table holds two of one team, even
    when the order lists each team's players together."""
    entrants = [Entrant(f"{team}{i}", team) for team in "ABCDE" for i in range(4)]
    tables = draw(entrants, [e.name for e in entrants])
    for table in tables:
        teams = [name[0] for name in table.players]
        assert len(set(teams)) == len(teams), tables


def test_repeat_meetings_are_avoided_where_they_can_be() -> None:
    """16 players, four rounds: a draw with no pair meeting twice exists (a resolvable
    design), and with the history each round's draw meets nobody again in the first two."""
    players = names(16)
    entrants = [Entrant(n) for n in players]
    history: list[tuple[str, ...]] = []
    rng = random.Random(3)
    for _ in range(2):
        order = players[:]
        rng.shuffle(order)
        tables = draw(entrants, order, history)
        assert draw_cost([t.players for t in tables], {}, meetings(history)) == 0
        history += [t.players for t in tables]
    assert max(meetings(history).values()) == 1


def test_team_mates_and_last_rounds_tables_are_both_avoided() -> None:
    """24 players in six teams after one round: whatever the order, the draw seats no team
    mates together and nobody with someone met before."""
    players = names(24)
    entrants = [Entrant(n, f"T{i % 6}") for i, n in enumerate(players)]
    history = [tuple(players[i : i + 4]) for i in range(0, 24, 4)]
    met = meetings(history)
    teams = {e.name: e.team for e in entrants}
    for seed in range(5):
        order = players[:]
        random.Random(seed).shuffle(order)
        tables = draw(entrants, order, history)
        assert draw_cost([t.players for t in tables], teams, met) == 0


def test_velen_three_lives_then_two_for_those_still_in() -> None:
    """Velen: eight players with 3 lives at two tables; losing three games puts one out; the
    step ends with four left, who start the final step with 2 lives each."""
    fmt = FORMAT_PRESETS["velen"]
    entrants = [Entrant(n) for n in "ABCDEFGH"]
    first, second = ("A", "B", "C", "D"), ("E", "F", "G", "H")
    start = progress(fmt, entrants, [])
    assert [g.lives for g in start.groups] == [dict.fromkeys("ABCDEFGH", 3)]
    results = [game(first, "A")] * 3 + [game(second, "E")] * 3 + [game("BCD", "B")] * 3
    results += [game("FGH", "F")] * 3
    after = progress(fmt, entrants, [PlayedRound(1, tuple(results))])
    assert after.step == 1
    (final,) = after.groups
    assert final.players == ("C", "D", "G", "H")
    assert final.lives == dict.fromkeys("CDGH", 2)
    out = {line.name for line in after.lines if line.out}
    assert out == {"A", "B", "E", "F"}


def test_the_last_one_with_lives_ends_it_and_those_out_rank_by_when() -> None:
    """Four players are at most the first step's 4: the final (2 lives) begins at once; a
    player out can play no more game, and the later out ranks higher."""
    fmt = FORMAT_PRESETS["velen"]
    entrants = [Entrant(n) for n in "ABCD"]
    assert progress(fmt, entrants, []).groups[0].lives == dict.fromkeys("ABCD", 2)
    results = [game("ABCD", "A")] * 2 + [game("BCD", "B")] * 2 + [game("CD", "C")] * 2
    with pytest.raises(TournamentError, match="does not belong"):
        progress(fmt, entrants, [PlayedRound(1, (*results[:2], game("ABCD", "A")))])
    done = progress(fmt, entrants, [PlayedRound(1, tuple(results[:2])),
                                    PlayedRound(2, tuple(results[2:]))])  # fmt: skip
    assert done.over
    lines = {line.name: line for line in done.lines}
    assert lines["A"].lives == 0 and lines["A"].lives_lost == 2
    assert [line.name for line in done.ranked()] == ["D", "C", "B", "A"]


def test_kamen_plays_a_trostrunde_for_those_out_beside_the_second_ko_step() -> None:
    fmt = FORMAT_PRESETS["kamen"]
    entrants = [Entrant(n) for n in "ABCDEFGH"]
    results = [game("ABCD", "A")] * 3 + [game("EFGH", "E")] * 3 + [game("BCD", "B")] * 3
    results += [game("FGH", "F")] * 3
    after = progress(fmt, entrants, [PlayedRound(1, tuple(results))])
    ko, trost = after.groups
    assert (ko.phase.kind, ko.players) == (PhaseKind.KO, ("C", "D", "G", "H"))
    assert (trost.phase.kind, trost.players) == (PhaseKind.TROST, ("A", "B", "E", "F"))
    assert trost.lives == dict.fromkeys("ABEF", 2)
    # The Trostrunde's lives are its own: losing there leaves the main draw as it was.
    second = progress(fmt, entrants, [PlayedRound(1, tuple(results)),
                                      PlayedRound(2, (game("ABEF", "A"),))])  # fmt: skip
    lines = {line.name: line for line in second.lines}
    assert lines["A"].lives == 1 and lines["A"].trost and lines["A"].out
    assert not lines["C"].out and lines["C"].lives == 2


def test_dm_ko_takes_the_best_32_of_four_points_rounds_into_ko_and_the_rest_to_the_trostrunde(
) -> None:
    """The DM-sized run's format: four points rounds, the best 32 in KO with 3 lives until
    four are left, then their final with 2 beside a Trostrunde with 2 for everyone out."""
    fmt = FORMAT_PRESETS["dm-ko"]
    names = [f"S{i:03}" for i in range(64)]
    entrants = [Entrant(n) for n in names]
    tables = [names[i : i + 4] for i in range(0, 64, 4)]
    points = [PlayedRound(n, tuple(game(t, t[n % 4]) for t in tables)) for n in range(1, 5)]
    assert progress(fmt, entrants, points[:3]).groups[0].phase.kind is PhaseKind.POINTS
    (ko,) = progress(fmt, entrants, points).groups
    assert ko.phase.kind is PhaseKind.KO and len(ko.players) == 32
    assert set(ko.lives.values()) == {3}
    # Three games at each KO table put three of its four out: eight are left, then four.
    ko_tables = [ko.players[i : i + 4] for i in range(0, 32, 4)]
    knock = [game(t, t[0]) for t in ko_tables for _ in range(3)]
    knock += [game(t[1:], t[1]) for t in ko_tables for _ in range(3)]
    knock += [game(t[2:], t[2]) for t in ko_tables for _ in range(3)]
    left = [t[3] for t in ko_tables]
    final = [game(left[:4], left[0])] * 3 + [game(left[4:], left[4])] * 3
    final += [game(left[1:4], left[1])] * 3 + [game(left[5:], left[5])] * 3
    rounds = [*points, PlayedRound(5, tuple(knock)), PlayedRound(6, tuple(final))]
    last, trost = progress(fmt, entrants, rounds).groups
    assert (last.phase.kind, len(last.players), set(last.lives.values())) == (
        PhaseKind.KO, 4, {2}
    )
    assert trost.phase.kind is PhaseKind.TROST and len(trost.players) == 60
    assert set(trost.lives.values()) == {2}


def test_a_result_of_players_of_two_groups_is_refused() -> None:
    fmt = FORMAT_PRESETS["kamen"]
    entrants = [Entrant(n) for n in "ABCDEFGH"]
    results = [game("ABCD", "A")] * 3 + [game("EFGH", "E")] * 3 + [game("BCD", "B")] * 3
    results += [game("FGH", "F")] * 3
    with pytest.raises(TournamentError, match="does not belong"):
        progress(fmt, entrants, [PlayedRound(1, tuple(results)),
                                 PlayedRound(2, (game("ACEF", "A"),))])  # fmt: skip


def test_points_rounds_then_the_best_go_on_to_ko() -> None:
    fmt = Format(
        "t", ((Phase(PhaseKind.POINTS, rounds=1),),
              (Phase(PhaseKind.KO, lives=3, advance=4),)),
    )  # fmt: skip
    entrants = [Entrant(n) for n in "ABCDEFGH"]
    # Verlustpunkte: the loser of a game takes 3 (two halves and the game); fewer is better.
    first = progress(fmt, entrants, [])
    assert first.groups[0].phase.kind is PhaseKind.POINTS
    played = PlayedRound(1, (game("ABCD", "A", other="B"), game("EFGH", "E", other="F")))
    after = progress(fmt, entrants, [played])
    (ko,) = after.groups
    assert set(ko.players) == {"C", "D", "G", "H"}
    assert {line.name for line in after.lines if line.out} == {"A", "B", "E", "F"}


def test_a_round_after_the_end_is_refused() -> None:
    fmt = FORMAT_PRESETS["dm"]
    entrants = [Entrant(n) for n in "ABCD"]
    rounds = [PlayedRound(n, (game("ABCD", "A"),)) for n in range(1, 6)]
    with pytest.raises(TournamentError, match="round 5: the tournament was over"):
        progress(fmt, entrants, rounds)


def test_ties_go_to_fewer_games_lost() -> None:
    """Siegpunkte-like: equal points, fewer games lost ranks first."""
    base = progress(FORMAT_PRESETS["dm"], [Entrant(n) for n in "ABCD"], []).lines
    a, b = base[0], base[1]
    lines = [replace(a, points=5, games_lost=2), replace(b, points=5, games_lost=1)]
    assert [line.name for line in ranking(lines)] == ["B", "A"]
    assert [line.name for line in ranking(lines, higher_is_better=False)] == ["B", "A"]
    lines = [replace(a, points=4, games_lost=2), replace(b, points=5, games_lost=1)]
    assert [line.name for line in ranking(lines, higher_is_better=False)] == ["A", "B"]


def test_lines_that_rank_equal_share_a_place_and_the_next_counts_them() -> None:
    """The places the TV, the board and the exports show: 1, 2, 2, 4, ties listed by name."""
    base = progress(FORMAT_PRESETS["dm"], [Entrant(n) for n in "ABCD"], []).lines
    a, b, c, d = base
    lines = [replace(a, points=3), replace(d, points=5), replace(c, points=3), replace(b, points=1)]
    assert [(p.place, p.line.name) for p in placed(lines)] == [
        (1, "D"), (2, "A"), (2, "C"), (4, "B"),
    ]  # fmt: skip
    assert [(p.place, p.line.name) for p in placed(lines, higher_is_better=False)] == [
        (1, "B"), (2, "A"), (2, "C"), (4, "D"),
    ]  # fmt: skip
    tied = [replace(a, points=3, games_lost=1), replace(c, points=3)]  # the tie-break parts them
    assert [(p.place, p.line.name) for p in placed(tied)] == [(1, "C"), (2, "A")]
    state = progress(FORMAT_PRESETS["dm"], [Entrant(n) for n in "ABCD"], [])
    assert [p.line for p in state.standings()] == list(state.ranked())
    assert {p.place for p in state.standings()} == {1}


def test_the_team_score_is_the_sum_of_its_members() -> None:
    entrants = [Entrant("A", "Rot"), Entrant("B", "Rot"), Entrant("C", "Blau"),
                Entrant("D", "Blau")]  # fmt: skip
    played = PlayedRound(1, (game("ABCD", "A", other="B"), game("ABCD", "C", other="A")))
    result = progress(FORMAT_PRESETS["dm"], entrants, [played])
    lines = {line.name: line for line in result.lines}
    teams = {t.team: t for t in team_scores(result.lines, higher_is_better=False)}
    assert teams["Rot"].score == lines["A"].points + lines["B"].points
    assert teams["Blau"].score == lines["C"].points + lines["D"].points
    assert [t.team for t in team_scores(result.lines, higher_is_better=False)] == ["Blau", "Rot"]
    lost = team_scores(result.lines, by="lives_lost")
    assert all(t.score == 0 for t in lost)
    assert [t.team for t in lost] == ["Blau", "Rot"]  # tie: fewer games lost (1 against 1: name)


def test_the_schock_aus_king() -> None:
    played = PlayedRound(1, (game("ABCD", "A", schock_aus={"B": 2, "C": 1}),
                             game("ABCD", "A", schock_aus={"C": 1})))  # fmt: skip
    result = progress(FORMAT_PRESETS["dm"], [Entrant(n) for n in "ABCD"], [played])
    assert schock_aus_king(result.lines) == ("B", "C")
    assert schock_aus_king(progress(FORMAT_PRESETS["dm"], [Entrant("A"), Entrant("B")],
                                    []).lines) == ()  # fmt: skip


def test_a_format_without_rounds_or_lives_is_refused() -> None:
    with pytest.raises(TournamentError, match="points phase needs rounds"):
        Format("x", ((Phase(PhaseKind.POINTS),),))
    with pytest.raises(TournamentError, match="KO phase needs lives"):
        Format("x", ((Phase(PhaseKind.KO),),))
    with pytest.raises(TournamentError, match="Trostrunde needs a KO step"):
        Format("x", ((Phase(PhaseKind.TROST, lives=2),),))


def test_who_left_plays_no_more_from_where_they_left_and_a_springer_takes_the_lives() -> None:
    """Velen, eight players at 3 lives: A leaves table one after its first game and J (a
    Springer) takes the 2 lives A has left; H is disqualified before round 2 is drawn."""
    fmt = FORMAT_PRESETS["velen"]
    entrants = [Entrant(n, "T1" if n in "AH" else "T2") for n in "ABCDEFGHJ"]
    left = (Leaving("A", 1, "replaced", after=1, substitute="J"), Leaving("H", 2, "disqualified"))
    first = [game("ABCD", "A"), game("JBCD", "J"), game("EFGH", "E")]
    state = progress(fmt, entrants, [PlayedRound(1, tuple(first))], left)
    lines = {line.name: line for line in state.lines}
    assert (lines["A"].games, lines["A"].lives_lost, lines["A"].left) == (1, 1, "replaced")
    assert (lines["J"].lives, lines["J"].games) == (1, 1)  # A's two, one lost since
    assert lines["A"].out and lines["H"].out and lines["H"].left == "disqualified"
    (group,) = state.groups
    assert "A" not in group.players and "H" not in group.players and group.lives["J"] == 1
    assert [line.name for line in state.ranked()][-1] == "H"  # last of all, below A
    teams = {t.team: t.members for t in team_scores(state.lines)}
    assert teams == {"T1": ("A",), "T2": ("B", "C", "D", "E", "F", "G", "J")}  # H counts for none
    # A's game after the leaving fits no table of the round.
    with pytest.raises(TournamentError, match="does not belong"):
        progress(fmt, entrants, [PlayedRound(1, (first[0], game("ABCD", "B")))], left)
