"""Bounded TOML and JSON reading: deep nesting and long documents give one clear error."""

from __future__ import annotations

import json
import tomllib

import pytest

from engine.limits import MAX_DEPTH, InputLimitError, json_loads, nesting_depth, toml_loads


def test_nesting_depth_counts_levels_without_recursion() -> None:
    assert nesting_depth(1) == 0
    assert nesting_depth({"a": [1, {"b": []}]}) == 4
    deep: object = 0
    for _ in range(50_000):
        deep = [deep]
    assert nesting_depth(deep) == 50_000


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 900, 5_000, 100_000])
def test_deep_toml_is_refused_in_one_line(levels: int) -> None:
    text = "deckel = " + "[" * levels + "1" + "]" * levels + "\n"
    with pytest.raises(InputLimitError) as caught:
        toml_loads(text)
    assert str(caught.value) == f"nested deeper than {MAX_DEPTH} levels of tables and arrays"


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 900, 100_000])
def test_deep_json_is_refused_in_one_line(levels: int) -> None:
    with pytest.raises(InputLimitError, match=f"^nested deeper than {MAX_DEPTH} levels"):
        json_loads("[" * levels + "]" * levels)
    with pytest.raises(InputLimitError, match=f"^nested deeper than {MAX_DEPTH} levels"):
        json_loads(b'{"a":' * levels + b"1" + b"}" * levels)


def test_documents_at_the_limit_and_normal_ones_load() -> None:
    assert toml_loads("[game]\nplayers = ['Anna', 'Ben']\n") == {
        "game": {"players": ["Anna", "Ben"]}
    }
    text = "x = " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert nesting_depth(toml_loads(text)) == MAX_DEPTH
    assert json_loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_size_bound() -> None:
    with pytest.raises(InputLimitError, match=r"^13 bytes is too long: at most 10 bytes"):
        toml_loads("a = 'äöü'\n", max_bytes=10)
    with pytest.raises(InputLimitError, match="at most 4 bytes"):
        json_loads(b"[1, 2]", max_bytes=4)
    assert json_loads("[1]", max_bytes=3) == [1]


def test_syntax_errors_stay_the_parsers_own() -> None:
    with pytest.raises(tomllib.TOMLDecodeError):
        toml_loads("a = = 1")
    with pytest.raises(json.JSONDecodeError):
        json_loads("{nope")
