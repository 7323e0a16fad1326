"""`schocken simulate`: whole games between bots, loss shares with confidence intervals."""

from __future__ import annotations

import json

import pytest

#: Games a run simulates: enough for every seat to lose some, the same twice from one seed.
GAMES = 100


@pytest.mark.parametrize(
    ("players", "bots"),
    [
        (2, "threshold,odds"),
        # A third seat and odds-v1 add no field: the slow selection (odds-v1's play is
        # engine/test_bots.py's); the odds bot at a table of three builds its tables for seconds.
        pytest.param(3, "threshold,odds-v1,threshold", marks=pytest.mark.slow),
        pytest.param(3, "threshold,odds,threshold", marks=pytest.mark.slow),
    ],
)
def test_json_shape_and_reproducibility(schocken, players: int, bots: str) -> None:
    args = ("simulate", "--games", str(GAMES), "--players", str(players), "--bots", bots,
            "--seed", "42", "--json")
    status, out, err = schocken(*args)
    assert status == 0 and err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(out)
    assert data["games"] == GAMES and data["players"] == players and data["seed"] == 42
    assert data["bots"] == bots.split(",")
    assert data["rounds"] >= 2 * GAMES and data["rounds_per_s"] > 0
    shares = data["loss_share"]
    assert [s["seat"] for s in shares] == list(range(players))
    assert sum(s["losses"] for s in shares) == GAMES
    for share in shares:
        low, high = share["ci95"]
        assert 0 <= low <= share["share"] <= high <= 1
    again = json.loads(schocken(*args)[1])
    for key in ("rounds", "throws", "loss_share", "blattschuss"):
        assert again[key] == data[key]


def test_text_report(schocken) -> None:
    status, out, _ = schocken("simulate", "--games", "50", "--seed", "1")
    assert status == 0
    assert "50 games, 2 players, rules standard, seed 1" in out
    assert out.count("seat ") == 2 and "rounds per second" in out and "95 % CI" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "--games 0"),
        (("--players", "11"), "--players 11"),
        (("--players", "3", "--bots", "odds,threshold"), "give 1 strategy or 3"),
        (("--bots", "genius"), "unknown bot strategy 'genius'"),
        (("--seed", "abc"), "--seed"),
        (("--rules", "missing.toml"), "does not exist"),
    ],
)
def test_bad_input_exits_2_with_one_line(schocken, args, message) -> None:
    status, out, err = schocken("simulate", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err
