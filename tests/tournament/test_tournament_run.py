"""A whole simulated tournament on a real mosquitto: nothing lost, nothing counted twice.

The hub runs as ``schocken hub serve`` in a process of its own and every table is the device's
real reporting code (sim/tournament/whole_tournament.py, sim/tournament/simulated_table.py).
During the run the broker is killed with SIGKILL and started again twice, the hub once, some
tables play a whole round without a network (leaving cleanly, or cut off silently through
sim/tournament/cutoff.py, so that the broker's keepalive gives up on them and publishes their Last
Will), and a table's device dies mid-game and a spare with its state folder plays on. At the end
every table's own journals are recounted and held against what the hub stored and the standings
it published on the broker.

All three run in `make test-long` only: a small tournament (4 tables, short points rounds: a game
or two a table, every fault), one of 100 tables, every round 70 minutes, and one the size of the
Deutsche Meisterschaft (152 tables, 608 players in teams of five, four points rounds, then KO
rounds with lives and a Trostrunde). `make test` keeps each fault's own check: a broker killed
with SIGKILL and restarted under a table (tests/tournament/test_table.py), a hub process killed
mid-intake and restarted (tests/hub/test_broker_intake.py), a table a round offline and one cut
off silently (test_table.py again, test_cutoff.py), a dead device's spare (test_table.py).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sim.tournament.whole_tournament import Faults, Outcome, TournamentRun
from tests.broker import Broker

#: The tables of `make test`'s tournament: sixteen players, enough for the KO round's lives and
#: for two tables to play a round offline while two report; every fault strikes as with more.
TABLES = 4


#: The rounds' time boxes in `make test`: the points rounds short (a game or two a table, the
#: faults strike all the same), the KO round long enough for lives to run out.
SHORT_ROUNDS = (10.0, 10.0, 45.0)
#: Broker users beyond the hall's tables: a draw may seat one table more than there are devices
#: (the DM run's Trostrunde of everyone out, beside a KO final of three), and a spare is set up.
SPARES = 4


def play(
    broker: Broker, folder: Path, tables: int, faults: Faults,
    minutes: float | tuple[float, ...] = 70.0, *, fmt: str = "points-then-ko", rounds: int = 3,
) -> Outcome:  # fmt: skip
    broker.add_tables(tables + SPARES)
    run = TournamentRun(
        folder, broker, tables=tables, fmt=fmt, rounds=rounds, minutes=minutes, faults=faults,
    )
    with run:
        run.play()
        outcome = run.check()
    print(outcome.summary())
    assert outcome.rounds == rounds or outcome.winner is not None, outcome.summary()
    assert outcome.journalled > 0 and outcome.games > 0
    assert outcome.lost == [], outcome.summary()
    assert outcome.unexpected == [], outcome.summary()
    assert outcome.standings_equal, outcome.summary()
    assert outcome.board_equal, outcome.summary()
    assert outcome.refused == 0, outcome.summary()
    assert outcome.denied == 0, outcome.summary()  # no honest table asks beyond its rights
    assert outcome.untagged == 0, outcome.summary()  # every game played was reported
    assert outcome.doubled == 0, outcome.summary()
    # Every planned fault struck, every cut-off table's Will reached the hub, and the lives
    # round put players out.
    assert len(outcome.faults_done) == faults.planned, outcome.faults_done
    assert outcome.wills == outcome.cut == sum(n for _round, n in faults.cut), outcome.summary()
    assert outcome.replaced == sum(n for _round, n in faults.replaced), outcome.summary()
    assert any(line.out for line in outcome.recounted_lines)
    return outcome


@pytest.fixture
def fast_folder() -> Iterator[Path]:
    """The tables' state directories and the hub's file, in memory where the system has a
    tmpfs: the journal fsyncs every action, which on a disk costs most of the run's time,
    and a table's disk is not what these faults are about (tests/durable kills the device
    itself)."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="schock-tournament-", dir=shm if shm.is_dir() else None))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_a_small_tournament_through_kills_loses_nothing(broker: Broker, fast_folder: Path) -> None:
    faults = Faults(
        broker_kills=((1, 0.3, 0.5), (2, 0.6, 0.8)), hub_kills=((2, 0.2, 0.5),),
        offline=((1, 2),), cut=((3, 1),), replaced=((1, 1),),
    )  # fmt: skip
    play(broker, fast_folder, TABLES, faults, SHORT_ROUNDS)


@pytest.mark.slow
def test_a_lost_hub_database_is_refilled_from_the_tables(broker: Broker, fast_folder: Path) -> None:
    """Mid-way through round 2 the hub is killed and its SQLite file deleted; a new file with
    the same event, format and roster is refilled by `schocken hub refill` from every table's
    journals, and the tournament goes on to its end as if nothing had happened."""
    outcome = play(broker, fast_folder, TABLES, Faults(hub_lost=((2, 0.5),), offline=()),
                   SHORT_ROUNDS)
    # Round 1 finished and round 2 running were made again from the tables' answers, and round
    # 1's results all came from them (round 2's from their answers or their outboxes).
    (refilled,) = outcome.refills
    assert refilled.startswith(f"refilled from {TABLES} tables"), refilled
    assert refilled.endswith("rounds made: 1, 2"), refilled


@pytest.mark.slow
def test_a_hundred_tables_through_kills_lose_nothing(broker: Broker, fast_folder: Path) -> None:
    play(broker, fast_folder, 100, Faults())


#: The DM-sized run's time boxes: four points rounds of 40 minutes (three games or so a table),
#: then KO rounds and the Trostrunde of 70.
DM_ROUNDS = (40.0, 40.0, 40.0, 40.0, 70.0)


@pytest.mark.slow
def test_a_dm_sized_tournament_through_kills_and_cuts_loses_nothing(
    broker: Broker, fast_folder: Path
) -> None:
    """152 tables, 608 players in teams of five, the format ``dm-ko`` played to its winner:
    the broker killed twice, the hub once, ten tables cut off silently, one device dead
    mid-game and replaced."""
    outcome = play(broker, fast_folder, 152, Faults.dm(), DM_ROUNDS, fmt="dm-ko", rounds=30)
    assert outcome.players == 608
    assert outcome.winner is not None, outcome.summary()
    assert outcome.devices <= 153, outcome.summary()
    assert outcome.rounds > 6, outcome.summary()  # four points rounds, KO rounds, the final
