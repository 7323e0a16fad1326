"""``engine.rules.toml_value``: one value as TOML writes it, read back by tomllib as it was."""

from __future__ import annotations

import math
import tomllib

from hypothesis import given
from hypothesis import strategies as st

from engine.rules import load_preset, toml_value

_scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _same(read: object, written: object) -> bool:
    if isinstance(written, float) and math.isnan(written):
        return isinstance(read, float) and math.isnan(read)
    if isinstance(written, list):
        return isinstance(read, list) and len(read) == len(written) and all(
            _same(a, b) for a, b in zip(read, written, strict=True)
        )
    if isinstance(written, dict):
        return isinstance(read, dict) and read.keys() == written.keys() and all(
            _same(read[key], value) for key, value in written.items()
        )
    return type(read) is type(written) and read == written


@given(_values)
def test_a_value_reads_back_as_it_was(value: object) -> None:
    line = f"v = {toml_value(value)}"
    assert "\n" not in line
    assert _same(tomllib.loads(line)["v"], value), line


def test_rules_values_read_as_a_rules_file_writes_them() -> None:
    mapping = load_preset("bvb").to_mapping()
    assert toml_value(mapping["names"]) == '{general = "Jenie"}'
    assert toml_value(mapping["hand_only"]) == "[]"
    assert toml_value(mapping["ties"]) == '"nachgelegt"'
    assert toml_value("a\x7f\\b") == '"a\\u007f\\\\b"'
