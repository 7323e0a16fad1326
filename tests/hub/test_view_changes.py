"""The view's changes (firmware/hub/view_changes.py): applied to the last state they give the
next exactly, whatever moved; a climb past many costs one row and one move; the places go as
runs; what is no longer the same set of rows goes whole."""

from __future__ import annotations

import json
import random
from typing import Any

from firmware.hub.view_changes import (
    ViewFeed,
    apply_view_changes,
    place_runs,
    places_of_runs,
    view_changes,
)


def standings(points: dict[str, int]) -> list[dict[str, Any]]:
    """Rows best first (fewer points), equal points sharing a place as the engine gives them."""
    rows = sorted(({"name": name, "points": value, "games": 1} for name, value in points.items()),
                  key=lambda row: (row["points"], row["name"]))  # fmt: skip
    placed = []
    for index, row in enumerate(rows):
        tied = index and rows[index - 1]["points"] == row["points"]
        placed.append({"place": placed[-1]["place"] if tied else index + 1, **row})
    return placed


def state(points: dict[str, int], games: int = 0, now: float = 1.0) -> dict[str, Any]:
    return {
        "event": "dm", "now": now, "standings": standings(points),
        "teams": [{"team": "Rot", "score": sum(points.values())}, {"team": "Blau", "score": 0}],
        "tables": [{"table": 1, "games": games}, {"table": 2, "games": 0}], "king": [],
    }  # fmt: skip


def test_random_changes_rebuild_the_next_state_exactly() -> None:
    rng = random.Random(7)
    names = [f"P{i:02}" for i in range(40)]
    last = state({name: rng.randint(0, 4) for name in names})
    for step in range(200):
        points = {row["name"]: row["points"] for row in last["standings"]}
        for name in rng.sample(names, 4):
            points[name] += rng.randint(0, 3)
        nxt = state(points, games=step, now=2.0 + step)
        changes = view_changes(last, nxt)
        assert changes is not None
        assert apply_view_changes(last, json.loads(json.dumps(changes))) == nxt
        last = nxt


def test_a_climb_past_many_is_one_row_and_one_move_and_the_places_are_runs() -> None:
    points = {f"P{i:03}": i for i in range(600)}
    before = state(points)
    points["P500"] = -1  # from 501st to first: 500 rows lose their place
    after = state(points)
    changes = view_changes(before, after)
    assert changes is not None
    assert changes["lists"]["standings"] == {
        "rows": [{"name": "P500", "points": -1, "games": 1}],
        "moves": [["P500", 0]],
    }
    assert "places" not in changes  # still 1 to 600: nothing to send
    assert len(json.dumps(changes)) < 300 < len(json.dumps(after)) / 100
    assert apply_view_changes(before, changes) == after


def test_a_tie_sends_the_places_as_runs_of_groups() -> None:
    before = state({f"P{i:03}": i for i in range(600)})
    after = state({**{f"P{i:03}": i for i in range(600)}, "P001": 0})
    changes = view_changes(before, after)
    assert changes is not None and changes["places"] == [[2, 1], [1, 598]]
    assert apply_view_changes(before, changes) == after
    assert place_runs([1, 2, 2, 4, 4, 6, 7]) == [[1, 1], [2, 2], [1, 2]]
    assert place_runs([1, 2, 2, 4, 4, 6, 7]) == [[1, 1], [2, 2], [1, 2]]
    assert places_of_runs([[1, 1], [2, 2], [1, 2]]) == [1, 2, 2, 4, 4, 6, 7]
    assert place_runs([]) == []
    assert place_runs([1, 1, 2]) is None  # not what the engine gives: the standings go whole


def test_a_new_set_of_rows_goes_whole_and_a_key_gone_means_no_changes() -> None:
    before = state({"A": 1, "B": 2})
    after = state({"A": 1, "B": 2, "C": 0})
    changes = view_changes(before, after)
    assert changes is not None and changes["set"]["standings"] == after["standings"]
    assert apply_view_changes(before, changes) == after
    assert view_changes(before, {k: v for k, v in after.items() if k != "king"}) is None
    assert view_changes(before, before) == {}


def test_the_feed_sends_the_state_first_and_then_its_changes() -> None:
    feed = ViewFeed()
    first = state({f"P{i}": i for i in range(30)})
    whole, changes = feed.next(first)
    assert changes is None and json.loads(whole) == first
    second = state({**{f"P{i}": i for i in range(30)}, "P3": 40}, games=1, now=2.0)
    whole, changes = feed.next(second)
    assert changes is not None and len(changes) < len(whole) / 3
    assert apply_view_changes(first, json.loads(changes)) == json.loads(whole) == second


def test_the_feeds_json_is_the_states_whatever_rows_it_kept() -> None:
    """Rows kept from the last state (the same objects, or equal but for their place) are not
    encoded again, and the JSON is still byte for byte ``json.dumps`` of the state."""
    rng = random.Random(3)
    feed = ViewFeed()
    names = [f"Jörg {i:02}" for i in range(30)]
    last = state({name: rng.randint(0, 4) for name in names})
    for step in range(60):
        points = {row["name"]: row["points"] for row in last["standings"]}
        for name in rng.sample(names, 3):
            points[name] += rng.randint(0, 2)
        nxt = state(points, games=step % 3, now=2.5 + step)
        kept = {row["name"]: row for row in last["standings"]}
        nxt["standings"] = [  # the rows that did not change are the last state's objects
            kept[row["name"]] if kept[row["name"]] == row else row for row in nxt["standings"]
        ]
        if step % 4 == 0:
            nxt["tables"] = last["tables"]
        whole, _changes = feed.next(nxt)
        assert whole == json.dumps(nxt, ensure_ascii=False, separators=(",", ":")).encode()
        last = nxt
