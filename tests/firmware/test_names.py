"""The one rule of a player's name (firmware/names.py), and how the OLED shows a name longer than
it fits (firmware/screen/shortnames.py): the same in every entry path, the hub's too."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import GameSetup, load_preset, preset_names
from firmware.config import ConfigError, config_from_toml
from firmware.names import (
    MAX_NAME_LENGTH,
    NAME_CHARACTERS,
    PlayerNameError,
    check_player_names,
    name_problem,
)
from firmware.screen.font import FONT, SMALL
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import TITLE_HEIGHT, render
from firmware.screen.shortnames import SHORT_MARK, SHOWN_NAME_LENGTH, fits_whole, short_names
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
def test_the_longest_shown_name_of_the_widest_letters_fits_the_turn_title_whole(
    language: str,
) -> None:
    limit = max(load_preset(name).max_throws for name in preset_names())
    throws = OledWords(language).t("throw_of", n=limit, limit=limit)
    label = BOT_MARK + WIDEST * SHOWN_NAME_LENGTH  # a computer player's name carries its mark
    assert title_shows_whole(label, throws)
    if language == "en":  # the tighter title: the limit is the longest that fits
        assert not title_shows_whole(label + WIDEST, throws)
    # A shortened name is no wider: the mark is no wider than the widest letter.
    shortened = short_names([WIDEST * MAX_NAME_LENGTH, "Anna"])[WIDEST * MAX_NAME_LENGTH]
    assert len(shortened) == SHOWN_NAME_LENGTH and FONT.width(SHORT_MARK) <= FONT.width(WIDEST)
    assert title_shows_whole(BOT_MARK + shortened, throws)


def test_both_fonts_draw_every_character_a_name_may_hold() -> None:
    """The repertoire is data below the device and the hub; the screen's fonts cover it."""
    assert FONT.missing("".join(NAME_CHARACTERS)) == set()
    assert SMALL.missing("".join(NAME_CHARACTERS)) == set()
    assert name_problem("".join(sorted(NAME_CHARACTERS))[:MAX_NAME_LENGTH]) is None
    # The screen's own marks are no letters of a name: a name never looks shortened, or like
    # a computer player's.
    for mark in (SHORT_MARK, BOT_MARK, "→", "·", "✓"):
        assert FONT.covers(mark) and mark not in NAME_CHARACTERS
        assert name_problem(f"Ann{mark}") is not None


def test_names_up_to_the_limit_pass_and_longer_ones_are_named() -> None:
    check_player_names(["Anna", "Jürgen", "W" * MAX_NAME_LENGTH, "Spieler10"])
    assert name_problem("x" * 900) == (
        f"player name 'xxxxxxxxxxxx'… has 900 characters: at most {MAX_NAME_LENGTH}"
    )
    with pytest.raises(PlayerNameError, match="holds the control or format character U\\+202E"):
        check_player_names(["Anna", "Be\u202en"])
    with pytest.raises(PlayerNameError, match="U\\+2028"):
        check_player_names(["Be\u2028n"])


#: Names met at a German table, with the Latin letters beyond German that they bring.
NAMES_AT_THE_TABLE = (
    "José", "François", "Çağla", "Bén", "Øystein", "Łukasz", "Şule", "Ñoño", "İlkay", "Åsa",
    "Zoë", "Dvořák", "Müller", "Renée", "Ægir", "Małgorzata", "Jiří", "Ayşe", "Gökçe", "Ásdís",
)  # fmt: skip


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
    # The roster, the letter wheel, the config, the link and the hub all ask name_problem alone.
    assert name_problem("Jo Lu") == (
        "player name 'Jo Lu': must not contain spaces or any of , ; : = / |"
    )
    assert name_problem(" Jo") == "player name ' Jo': must be non-empty, no outer spaces"
    assert name_problem(7) == "player name 7: must be a string"
    assert name_problem("Jo") is None


def test_the_config_refuses_a_name_longer_than_the_rule(tmp_path: Path) -> None:
    long_name = "M" * (MAX_NAME_LENGTH + 1)
    with pytest.raises(ConfigError) as refused:
        config_from_toml(f'[game]\nplayers = ["Anna", "{long_name}"]\n', origin="config.toml")
    assert str(refused.value) == (
        f"config.toml: game.players: player name '{long_name[:12]}'… has 41 characters: "
        f"at most {MAX_NAME_LENGTH}"
    )
    players = ("Anna", "Maximiliane-Schmidt")
    toml = f'[game]\nplayers = ["{players[0]}", "{players[1]}"]\n'
    assert config_from_toml(toml).game.players == players


def test_a_long_name_is_shown_short_and_unique_at_its_table() -> None:
    names = ("Anna", "Maximilian-Schmidt", "Maximilian-Schulz", "W" * SHOWN_NAME_LENGTH)
    shown = short_names(names)
    assert shown == {
        "Anna": "Anna", "Maximilian-Schmidt": "Maximili…t", "Maximilian-Schulz": "Maximili…z",
        "W" * SHOWN_NAME_LENGTH: "W" * SHOWN_NAME_LENGTH,
    }  # fmt: skip
    assert fits_whole("W" * SHOWN_NAME_LENGTH) and not fits_whole("W" * (SHOWN_NAME_LENGTH + 1))
    # Names alike at both ends are numbered, in the order of the table.
    twins = ("Alexander-A-Schmidt", "Alexander-B-Schmidt", "Alexander-C-Schmidt")
    assert list(short_names(twins).values()) == ["Alexande…1", "Alexande…2", "Alexande…3"]


@pytest.mark.parametrize("seed", range(40))
def test_shortened_names_are_unique_and_fit_for_any_table(seed: int) -> None:
    import random

    rng = random.Random(seed)
    letters = "".join(sorted(NAME_CHARACTERS))
    stem = "".join(rng.choice(letters) for _ in range(rng.randint(0, 30)))
    names = list(dict.fromkeys(
        stem[: rng.randint(0, len(stem))]
        + "".join(rng.choice("AB") for _ in range(rng.randint(1, MAX_NAME_LENGTH - len(stem))))
        for _ in range(10)
    ))  # fmt: skip
    shown = short_names(names)
    assert set(shown) == set(names)
    assert len(set(shown.values())) == len(names)
    for name, form in shown.items():
        assert len(form) <= SHOWN_NAME_LENGTH and name_problem(name) is None
        assert form == name if fits_whole(name) else SHORT_MARK in form


def test_the_engine_itself_still_takes_longer_names() -> None:
    """A journal written before the limit still replays: the limit is the name rule's, not the
    engine's."""
    assert GameSetup(("Anna", "x" * 60)).players[1] == "x" * 60
