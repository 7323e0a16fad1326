"""The device configuration: defaults, the shipped file, and one-line errors naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config import ConfigError, DeviceConfig, config_from_toml, load_config

DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "config.toml"


def test_the_defaults_equal_the_shipped_config_file() -> None:
    assert load_config(None) == load_config(str(DEPLOYED)) == DeviceConfig()
    assert load_config(str(DEPLOYED)).origin == str(DEPLOYED)


def test_values_are_read_into_the_hal_settings() -> None:
    config = config_from_toml(
        '[game]\nplayers = ["Ute", "Vera"]\nrules = "bvb"\nlanguage = "en"\n'
        "[pins]\nkeep1 = 5\n[input]\nhold_ms = 1000\n"
        '[display]\ndriver = "sh1106"\ndim_after_s = 1.5\n[link]\nurl = "loop://"\n'
    )
    assert config.game.players == ("Ute", "Vera") and config.game.language == "en"
    assert config.game.rule_set.name == "bvb"
    assert config.pins.keep1 == 5 and config.input.hold_ms == 1000
    assert config.display.driver == "sh1106" and config.display.dim_after_s == 1.5
    assert config.link.url == "loop://"
    assert config.given == {
        "game.players", "game.rules", "game.language", "pins.keep1", "input.hold_ms",
        "display.driver", "display.dim_after_s", "link.url",
    }
    assert "storage.state_dir" in load_config(str(DEPLOYED)).given
    assert DeviceConfig().given == frozenset()


def test_a_rules_file_next_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('preset = "standard"\ndeckel = 15\njule = true\n')
    (tmp_path / "config.toml").write_text('[game]\nrules = "house.toml"\n')
    config = load_config(str(tmp_path / "config.toml"))
    assert config.game.rule_set.deckel == 15 and config.game.rule_set.jule


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[display]\nrotate = 5",
            "config.toml: display.rotate = 5 is not allowed: use 0, 1, 2 or 3",
        ),
        (
            "[display]\nrotation = 1",
            "config.toml: unknown key display.rotation; keys in [display]:",
        ),
        ("[screen]\nx = 1", "config.toml: unknown section [screen]; sections are [game]"),
        ("players = 3", "config.toml: unknown key players; sections are [game]"),
        ("[pins]\nkeep1 = 3", "pins.keep1 = 3 is the OLED's I2C SCL line"),
        ("[pins]\nkeep1 = 40", "pins.keep1 = 40 is not a GPIO"),
        ("[pins]\nflip = 17", "pins.flip = 17 is already used by pins.keep1"),
        (
            '[input]\nhold_ms = "long"',
            'config.toml: input.hold_ms = "long": must be a whole number',
        ),
        ("[input]\nhold_ms = 20", "input.hold_ms must be greater than debounce_ms (30)"),
        ("[display]\ncontrast = true", "display.contrast = true: must be a whole number"),
        ("[display]\ndriver = 1306", "display.driver = 1306: must be a string in quotes"),
        ('[display]\ndriver = "ssd1309"', "display.driver = 'ssd1309' is unknown"),
        ('[game]\nplayers = ["Anna"]', "game.players has 1 name: allowed are 2 to 10"),
        ('[game]\nplayers = ["Anna", "Anna"]', "game.players: player names must differ"),
        ('[game]\nplayers = ["Anna B", "Ben"]', "game.players: player name 'Anna B'"),
        ("[game]\nplayers = [1, 2]", "game.players = [1, 2]: must be a list of names in quotes"),
        ('[game]\nlanguage = "fr"', 'game.language = "fr": allowed are "de" (Deutsch), "en"'),
        ('[game]\nrules = "kneipe"', "game.rules: unknown rules 'kneipe': give a preset"),
        (
            '[game]\nbots = ["", "smart"]',
            'game.bots[1] = "smart": allowed are "" or "human" (a person), "odds", "threshold"',
        ),
        ("[game]\nbots = [1]", 'game.bots[0] = 1: allowed are "" or "human"'),
        ('[game]\nbots = { Zoe = "odds" }', 'game.bots.Zoe: "Zoe" is not one of game.players'),
        ('[game]\nbots = { Ben = "genius" }', 'game.bots.Ben = "genius": allowed are'),
        ('[game]\nbots = "odds"', 'game.bots = "odds": must be a list with one strategy per seat'),
        ("[game]\nbots = [" + '"odds", ' * 11 + "]", "game.bots has 11 entries: allowed are"),
        ("[link]\nbaudrate = 1234", "link.baudrate = 1234: allowed are 9600"),
        ("[storage]\nstate_dir = 5", "storage.state_dir = 5: must be a string in quotes"),
        ("[game", "config.toml: not valid TOML"),
        ("display = 1", "config.toml: display must be a section [display], not a value"),
    ],
)
def test_errors_are_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_toml(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_or_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "nope.toml"))
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_config(str(tmp_path))
    (tmp_path / "latin1.toml").write_bytes(b'[game]\nplayers = ["J\xf6rg", "Ben"]\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(str(tmp_path / "latin1.toml"))
    (tmp_path / "bad.toml").write_text("[pins]\nkeep1 = 2\n")
    with pytest.raises(ConfigError, match=r"^.*bad\.toml: pins\.keep1 = 2"):
        load_config(str(tmp_path / "bad.toml"))


def test_bots_by_seat_or_by_name_give_one_strategy_per_seat() -> None:
    by_seat = config_from_toml('[game]\nbots = ["human", "odds", "threshold", ""]')
    assert by_seat.game.bots == ("", "odds", "threshold")
    by_name = config_from_toml('[game]\nbots = { Carla = "threshold", Ben = "odds" }')
    assert by_name.game.bots == ("", "odds", "threshold")
    assert config_from_toml('[game]\nbots = { Anna = "human" }').game.bots == ()
    assert config_from_toml("[game]\nbots = []").game == config_from_toml("").game
