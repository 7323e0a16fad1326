"""The kill harness as tests: 20 kills in `make test`; in the slow selection 100 kills with 2
players and 100 with 5.

Manual runs with more kills and a random seed::

    .venv/bin/python -m tests.durable.killharness --kills 1000
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.durable.killharness import harness


def test_twenty_kills(tmp_path: Path) -> None:
    tally = harness(kills=20, seed=20, state_dir=tmp_path / "state", max_delay=0.3)
    assert tally.kills + tally.natural_exits == 20
    assert tally.kills >= 18, "the victim should still be playing when it is killed"
    assert tally.resumes >= 10 and tally.actions_seen > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_a_hundred_kills(tmp_path: Path, players: int) -> None:
    tally = harness(kills=100, seed=200 + players, state_dir=tmp_path / "state", players=players,
                    max_delay=1.5)
    assert tally.kills == 100
    assert tally.finished_games + tally.finished_unreported >= 1, "long runs finish games"
