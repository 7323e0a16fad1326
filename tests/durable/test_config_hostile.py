"""Hostile configuration files: every mistake is one clear line naming the key, never a crash.

The loader is firmware/config.py; these tests attack it with unknown keys, wrong types,
impossible pins and out-of-range values, and with random TOML documents (hypothesis).
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import toml_value
from firmware.config import ConfigError, DeviceConfig, config_from_toml, load_config

DEPLOY_CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "config.toml"


def test_the_shipped_config_loads_and_equals_the_defaults() -> None:
    assert load_config(str(DEPLOY_CONFIG)) == DeviceConfig()


@pytest.mark.parametrize(
    ("toml", "names"),
    [
        # unknown sections and keys
        ("[gpio]\nkeep1 = 5\n", ["[gpio]"]),
        ("[pins]\nkeep4 = 5\n", ["pins.keep4"]),
        ("[display]\nbrightness = 3\n", ["display.brightness"]),
        ("players = ['A', 'B']\n", ["players"]),
        ("[game]\nplayer = ['A', 'B']\n", ["game.player"]),
        # wrong types
        ("[pins]\nkeep1 = '17'\n", ["pins.keep1"]),
        ("[pins]\nkeep1 = true\n", ["pins.keep1"]),
        ("[pins]\nkeep1 = 17.0\n", ["pins.keep1"]),
        ("[input]\nhold_ms = 'long'\n", ["input.hold_ms"]),
        ("[game]\nplayers = 'Anna, Ben'\n", ["game.players"]),
        ("[game]\nplayers = ['Anna', 2]\n", ["game.players"]),
        ("[game]\nrules = 3\n", ["game.rules"]),
        ("[storage]\nstate_dir = 0\n", ["storage.state_dir"]),
        ("[link]\nbaudrate = '115200'\n", ["link.baudrate"]),
        ("game = 1\n", ["game"]),
        ("[pins.keep1]\nbcm = 17\n", ["pins.keep1"]),
        # impossible pins
        ("[pins]\nkeep1 = 2\n", ["pins.keep1"]),
        ("[pins]\ntilt = 3\n", ["pins.tilt"]),
        ("[pins]\nflip = 28\n", ["pins.flip"]),
        ("[pins]\nstand = -1\n", ["pins.stand"]),
        ("[pins]\nkeep2 = 17\n", ["pins.keep2", "pins.keep1"]),
        # out-of-range values
        ("[input]\ndebounce_ms = -5\n", ["input.debounce_ms"]),
        ("[input]\nhold_ms = 10\n", ["input.hold_ms"]),
        ("[input]\nshake_edges = 1\n", ["input.shake_edges"]),
        ("[display]\nrotate = 5\n", ["display.rotate"]),
        ("[display]\ncontrast = 256\n", ["display.contrast"]),
        ("[display]\ndriver = 'ssd1351'\n", ["display.driver"]),
        ("[display]\ni2c_address = 0x100\n", ["display.i2c_address"]),
        ("[game]\nplayers = ['Anna']\n", ["game.players"]),
        ("[game]\nplayers = ['Anna', 'Anna']\n", ["game.players"]),
        ("[game]\nplayers = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K']\n",
         ["game.players"]),
        ("[game]\nlanguage = 'fr'\n", ["game.language"]),
        ("[game]\nrules = 'nonsense'\n", ["game.rules"]),
        ("[link]\nbaudrate = 12345\n", ["link.baudrate"]),
        ("[storage]\nstate_dir = ''\n", ["storage.state_dir"]),
        ('[storage]\nstate_dir = "/var/\\u0000lib"\n', ["storage.state_dir"]),
        # not TOML at all
        ("[game\nplayers = []\n", ["not valid TOML"]),
    ],
)
def test_a_bad_value_names_its_key_in_one_line(toml: str, names: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_toml(toml, origin="config.toml")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("config.toml: ")
    for name in names:
        assert name in message, message


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_config(str(tmp_path))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[game]\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(str(binary))


_SECTIONS = ["game", "pins", "input", "display", "storage", "link", "gpio"]
_KEYS = [
    "players", "rules", "language", "bots", "keep1", "keep2", "keep3", "flip", "stand", "tilt",
    "debounce_ms", "hold_ms", "shake_edges", "shake_window_ms", "settle_ms", "driver",
    "i2c_port", "i2c_address", "rotate", "contrast", "dim_after_s", "dim_contrast",
    "sleep_after_s", "state_dir", "url", "baudrate", "nonsense",
]
_scalars = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(string.printable, max_size=12),
    st.sampled_from(["standard", "bvb", "de", "en", "ssd1306", "sh1106", "Anna", ""]),
)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=12))


@given(
    document=st.dictionaries(
        st.sampled_from(_SECTIONS),
        st.dictionaries(st.sampled_from(_KEYS), _values, max_size=4),
        max_size=4,
    )
)
def test_random_documents_load_or_fail_with_one_line(
    document: dict[str, dict[str, object]],
) -> None:
    text = "".join(
        f"[{section}]\n" + "".join(f"{key} = {toml_value(v)}\n" for key, v in table.items())
        for section, table in document.items()
    )
    try:
        config = config_from_toml(text, origin="config.toml")
    except ConfigError as error:
        message = str(error)
        assert "\n" not in message and message.startswith("config.toml: ")
        return
    assert isinstance(config, DeviceConfig)
    assert 2 <= len(config.game.players) <= 10
