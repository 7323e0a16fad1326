"""The view's changes from one state to the next: what a phone and the TV get after the first
state, instead of the whole state again.

The state is :meth:`firmware.hub.view.HubView.to_json`; its three long lists are keyed
(:data:`KEYED`: the standings by name, the teams by team, the tables by number). The changes
(:func:`view_changes`) name, for each long list whose rows are the same set, only the rows that
changed (whole, without their place) and, where the order changed, the moves: the fewest rows
that left their order (those off a longest increasing run of their old positions), each with
its new index. The standings' places go separately, as runs of equal-sized groups
(:func:`place_runs`: the places of 600 players with no tie are ``[[1, 600]]``), so a player who
climbs 40 places costs one row and one move, not the 40 rows whose place he took. Everything
else that differs is sent whole. :func:`apply_view_changes` rebuilds the next state from the
last one and the changes; ``web/tv.html`` does the same in the browser (``applyChanges``).

Where the lists' rows are no longer the same set (a new round's tables, a player added) the
changes carry the list whole; where a key is gone, there are no changes (None): send the state.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "KEYED", "ViewFeed", "apply_view_changes", "place_runs", "places_of_runs", "view_changes",
]  # fmt: skip

#: The state's long lists and the field that names a row in each.
KEYED: dict[str, str] = {"standings": "name", "teams": "team", "tables": "table"}
#: The list whose rows carry a place, sent as runs (:func:`place_runs`).
PLACED = "standings"

State = Mapping[str, Any]


def view_changes(old: State, new: State) -> dict[str, Any] | None:
    """What turns ``old`` into ``new``: ``{"set": {...}, "lists": {...}, "places": [...]}``
    (each only where needed), or None where ``new`` lacks a key of ``old``."""
    if not set(old) <= set(new):
        return None
    whole: dict[str, Any] = {}
    lists: dict[str, Any] = {}
    places: list[list[int]] | None = None
    for key, value in new.items():
        if key in old and (old[key] is value or old[key] == value):
            continue
        changed = _list_changes(key, old.get(key), value) if key in KEYED else None
        if changed is None:
            whole[key] = value
            continue
        rows, moves, runs = changed
        if rows or moves:
            lists[key] = {"rows": rows, **({"moves": moves} if moves else {})}
        if runs is not None:
            places = runs
    found: dict[str, Any] = {}
    if whole:
        found["set"] = whole
    if lists:
        found["lists"] = lists
    if places is not None:
        found["places"] = places
    return found


def _list_changes(
    key: str, old: object, new: object
) -> tuple[list[dict[str, Any]], list[list[Any]], list[list[int]] | None] | None:
    """The changed rows, the moves and (the standings) the new place runs of one keyed list;
    None where it must go whole."""
    if not isinstance(old, list) or not isinstance(new, list):
        return None
    field = KEYED[key]
    old_keys = [row[field] for row in old]
    new_keys = [row[field] for row in new]
    if len(set(new_keys)) != len(new_keys) or set(old_keys) != set(new_keys):
        return None
    placed = key == PLACED
    before = {row[field]: row for row in old}
    rows = []
    for row in new:
        was = before[row[field]]
        if was is row or was == row:
            continue
        if not placed:
            rows.append(row)
        elif {**row, "place": was["place"]} != was:  # more than its place changed
            rows.append(_unplaced(row))
    moves = _moves(old_keys, new_keys)
    runs = None
    if placed:
        old_places = [row["place"] for row in old]
        new_places = [row["place"] for row in new]
        if new_places != old_places:
            runs = place_runs(new_places)
            if runs is None:
                return None
    return rows, moves, runs


def _unplaced(row: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in row.items() if name != "place"}


def _moves(old_keys: Sequence[Any], new_keys: Sequence[Any]) -> list[list[Any]]:
    """The rows that left their order, each ``[key, new index]``, by new index: all but a
    longest run of rows whose old positions increase in the new order."""
    if old_keys == new_keys:
        return []
    position = {name: index for index, name in enumerate(old_keys)}
    sequence = [position[name] for name in new_keys]
    # Patience sorting: tails[k] is the smallest old position ending a run of k + 1.
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(sequence)
    for index, value in enumerate(sequence):
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
            tail_at.append(index)
        else:
            tails[at] = value
            tail_at[at] = index
        back[index] = tail_at[at - 1] if at else -1
    kept: set[int] = set()
    index = tail_at[-1] if tail_at else -1
    while index >= 0:
        kept.add(index)
        index = back[index]
    return [[name, index] for index, name in enumerate(new_keys) if index not in kept]


def place_runs(places: Sequence[int]) -> list[list[int]] | None:
    """``places`` (1, 2, 2, 4, ...) as runs ``[group size, how many such groups]``; None where
    a place is not the count of those before it plus one."""
    runs: list[list[int]] = []
    index = 0
    while index < len(places):
        place = places[index]
        if place != index + 1:
            return None
        size = 1
        while index + size < len(places) and places[index + size] == place:
            size += 1
        if runs and runs[-1][0] == size:
            runs[-1][1] += 1
        else:
            runs.append([size, 1])
        index += size
    return runs


def places_of_runs(runs: Sequence[Sequence[int]]) -> list[int]:
    """The places that :func:`place_runs` made ``runs`` of."""
    places: list[int] = []
    for size, count in runs:
        for _ in range(count):
            places.extend([len(places) + 1] * size)
    return places


def apply_view_changes(state: State, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The state that ``changes`` (from :func:`view_changes`) make of ``state``."""
    found = dict(state)
    found.update(changes.get("set", {}))
    for key, change in changes.get("lists", {}).items():
        field = KEYED[key]
        by_key = {row[field]: row for row in state[key]}
        for row in change.get("rows", ()):
            by_key[row[field]] = row
        order = [row[field] for row in state[key]]
        moves = change.get("moves", ())
        if moves:
            moved = {name for name, _index in moves}
            order = [name for name in order if name not in moved]
            for name, index in moves:
                order.insert(index, name)
        found[key] = [by_key[name] for name in order]
    if PLACED in changes.get("lists", {}) or "places" in changes:
        if "places" in changes:
            places = places_of_runs(changes["places"])
        else:
            places = [row["place"] for row in state[PLACED]]
        found[PLACED] = [
            {"place": place, **_unplaced(row)}
            for place, row in zip(places, found[PLACED], strict=True)
        ]
    return found


_Held = tuple[Mapping[str, Any], str, bool, str]


class ViewFeed:
    """The states a server streams: each next state as JSON, with its changes from the last
    one as JSON (None for the first, or where the changes are no smaller than the state). It
    keeps the last state it was given: give it a fresh one each time (``HubView.to_json``
    makes one; :class:`firmware.hub.view.ViewJson` one whose unchanged rows are the last
    state's), never one changed after. A row of a long list that is the same object as in
    the last state is not encoded again."""

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None
        #: Each row of the last state's long lists, by its list and key: the row, its JSON
        #: after its place (for a row that has one, else all of it), whether it has one, and
        #: its JSON.
        self._rows: dict[tuple[str, Any], _Held] = {}
        #: Each long list of the last state, with its JSON and its rows'.
        self._lists: dict[str, tuple[object, str, dict[tuple[str, Any], Any]]] = {}

    def next(self, state: Mapping[str, Any]) -> tuple[bytes, bytes | None]:
        """``state``'s JSON and its changes' JSON."""
        whole = self._dumped(state)
        changes = None if self._last is None else view_changes(self._last, state)
        self._last = dict(state)
        if changes is None:
            return whole, None
        delta = _dumps(changes).encode()
        return whole, (delta if len(delta) < len(whole) else None)

    def _dumped(self, state: Mapping[str, Any]) -> bytes:
        """``json.dumps(state)`` (compact, not ASCII-only), its rows' JSON kept for the next:
        a row equal to the last state's (but for its place) is not encoded again."""
        parts, kept, lists = [], {}, {}
        for key, value in state.items():
            if key not in KEYED or not isinstance(value, list):
                parts.append(f"{_dumps(key)}:{_dumps(value)}")
                continue
            same = self._lists.get(key)
            if same is not None and same[0] is value:
                kept.update(same[2])
                lists[key] = same
                parts.append(same[1])
                continue
            field, placed, texts, mine = KEYED[key], key == PLACED, [], {}
            for row in value:
                name = (key, row[field])
                held = self._rows.get(name)
                if held is None or held[0] is not row:
                    if held is None or not (held[0] == row or (
                            held[2] and held[0] == {**row, "place": held[0]["place"]})):
                        held = _row_text(row, placed)
                    text = f'{{"place":{row["place"]},{held[1]}' if held[2] else held[1]
                    held = (row, held[1], held[2], text)
                mine[name] = held
                texts.append(held[3])
            parts.append(f'{_dumps(key)}:[{",".join(texts)}]')
            lists[key] = (value, parts[-1], mine)
            kept.update(mine)
        self._rows, self._lists = kept, lists
        return ("{" + ",".join(parts) + "}").encode()


def _row_text(row: Mapping[str, Any], placed: bool) -> _Held:
    """A row's JSON; of a row that begins with its place (an int), what follows the place."""
    text = _dumps(row)
    first = next(iter(row), None)
    if placed and first == "place" and type(row["place"]) is int and len(row) > 1:
        return row, text[text.index(",") + 1 :], True, text
    return row, text, False, text


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
