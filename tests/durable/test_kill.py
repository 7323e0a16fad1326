"""The kill harness as tests: 3 early kills in `make test`; in the slow selection 20 early kills,
and 100 kills with 2 players and 100 with 5.

Each kill starts the firmware afresh (half a second of CPU: the interpreter, the firmware, a
resume), so `make test` kills three times within 0.3 s of the first frame (at start-up,
mid-resume, in the first actions); the slow selection does the same twenty times and lets the
long runs play.

Manual runs with more kills and a random seed::

    .venv/bin/python -m tests.durable.killharness --kills 1000
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.durable.killharness import harness


@pytest.mark.parametrize(
    "kills", [3, pytest.param(20, marks=pytest.mark.slow)], ids=lambda kills: f"{kills}-kills"
)
def test_early_kills(tmp_path: Path, kills: int) -> None:
    tally = harness(kills=kills, seed=20, state_dir=tmp_path / "state", max_delay=0.3)
    assert tally.kills + tally.natural_exits == kills
    assert tally.kills >= kills - 2, "the victim should still be playing when it is killed"
    assert tally.resumes >= kills // 2 and tally.actions_seen > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_a_hundred_kills(tmp_path: Path, players: int) -> None:
    tally = harness(kills=100, seed=200 + players, state_dir=tmp_path / "state", players=players,
                    max_delay=1.5)
    assert tally.kills == 100
    assert tally.finished_games + tally.finished_unreported >= 1, "long runs finish games"
