"""The device's limit on player names: what the screen shows whole, the same in every entry path."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import GameSetup, load_preset, preset_names
from firmware.config import ConfigError, config_from_toml
from firmware.names import MAX_NAME_LENGTH, PlayerNameError, check_player_names, name_problem
from firmware.screen.font import FONT, SMALL
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import TITLE_HEIGHT, render
from firmware.screen.views import BOT_MARK, TurnView

#: The widest letters of the bitmap font (5 pixels plus one of spacing).
WIDEST = "W"


def title_shows_whole(label: str, throw_text: str) -> bool:
    """Whether the turn screen's title bar shows ``label`` uncut, as the device draws it."""
    drawn = render(TurnView(label, throw_text, (), "", "", ())).crop((0, 0, 128, TITLE_HEIGHT))
    expected = Image.new("1", (128, TITLE_HEIGHT), 0)
    draw = ImageDraw.Draw(expected)
    draw.rectangle((0, 0, 127, TITLE_HEIGHT - 1), fill=1)
    FONT.draw(draw, (2, 1), label, fill=0)
    box = (0, 0, 2 + FONT.width(label) + 1, TITLE_HEIGHT)
    return ImageChops.difference(drawn.crop(box), expected.crop(box)).getbbox() is None


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_longest_name_of_the_widest_letters_fits_the_turn_title_whole(language: str) -> None:
    limit = max(load_preset(name).max_throws for name in preset_names())
    throws = OledWords(language).t("throw_of", n=limit, limit=limit)
    label = BOT_MARK + WIDEST * MAX_NAME_LENGTH  # a computer player's name carries its mark
    assert title_shows_whole(label, throws)
    if language == "en":  # the tighter title: the limit is the longest that fits
        assert not title_shows_whole(label + WIDEST, throws)


def test_names_up_to_the_limit_pass_and_longer_ones_are_named() -> None:
    check_player_names(["Anna", "Jürgen", "W" * MAX_NAME_LENGTH, "Spieler10"])
    assert name_problem("x" * 900) == (
        f"player name 'xxxxxxxxxxxx'… has 900 characters: at most {MAX_NAME_LENGTH} "
        "(what the screen shows)"
    )
    with pytest.raises(PlayerNameError, match="holds the control or format character U\\+202E"):
        check_player_names(["Anna", "Be\u202en"])
    with pytest.raises(PlayerNameError, match="U\\+2028"):
        check_player_names(["Be\u2028n"])


#: Names met at a German table, with the Latin letters beyond German that they bring.
NAMES_AT_THE_TABLE = (
    "José", "François", "Çağla", "Bén", "Øystein", "Łukasz", "Şule", "Ñoño", "İlkay", "Åsa",
    "Zoë", "Dvořák", "Müller", "Renée", "Ægir", "Małgorzata", "Jiří", "Ayşe", "Gökçe", "Ásdís",
)


def test_names_of_the_table_are_taken_and_drawn_in_both_fonts() -> None:
    check_player_names(NAMES_AT_THE_TABLE)
    for name in NAMES_AT_THE_TABLE:
        assert FONT.covers(name) and SMALL.covers(name), name


def test_a_name_the_screen_cannot_draw_is_refused_in_one_line() -> None:
    """Never drawn as "?", the sign of a die under the cup."""
    assert name_problem("🎲🎲") == (
        "player name '🎲🎲': the screen cannot draw '🎲' (U+1F3B2); use letters (also é, ç, ñ, "
        "ø, ł, ş ...), digits and punctuation"
    )
    assert name_problem("Bé€n") is not None and "'€'" in str(name_problem("Bé€n"))
    with pytest.raises(PlayerNameError, match="cannot draw '☃'"):
        check_player_names(["Anna", "☃"])


def test_one_check_holds_the_engines_rule_and_the_devices() -> None:
    # The roster, the letter wheel, the config and the link all ask name_problem alone.
    assert name_problem("Jo Lu") == (
        "player name 'Jo Lu': must not contain spaces or any of , ; : = / |"
    )
    assert name_problem(" Jo") == "player name ' Jo': must be non-empty, no outer spaces"
    assert name_problem(7) == "player name 7: must be a string"
    assert name_problem("Jo") is None


def test_the_config_refuses_a_long_name(tmp_path: Path) -> None:
    long_name = "Maximiliane"
    assert len(long_name) == MAX_NAME_LENGTH + 1
    with pytest.raises(ConfigError) as refused:
        config_from_toml(f'[game]\nplayers = ["Anna", "{long_name}"]\n', origin="config.toml")
    assert str(refused.value) == (
        f"config.toml: game.players: player name '{long_name}' has 11 characters: "
        f"at most {MAX_NAME_LENGTH} (what the screen shows)"
    )
    assert config_from_toml('[game]\nplayers = ["Anna", "Maximilian"]\n').game.players == (
        "Anna", "Maximilian"
    )


def test_the_engine_itself_still_takes_longer_names() -> None:
    """A journal written before the limit still replays: the limit is the device's, not the
    engine's."""
    assert GameSetup(("Anna", "x" * 40)).players[1] == "x" * 40
