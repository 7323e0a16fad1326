"""The bitmap font, the words and the dice sources."""

from __future__ import annotations

import re
import string
from collections import Counter

import pytest

from engine.game import FINAL
from firmware.cli.cli_words import CLI_WORDS
from firmware.dice import DiceSource, SeededDice, SystemDice
from firmware.hub.hub_words import HUB_WORDS
from firmware.report.sheet_words import SHEET_WORDS
from firmware.screen.font import FONT, GLYPH_ROWS, SMALL, SMALL_ROWS, BitmapFont
from firmware.screen.oled_words import OLED_WORDS, SECTION_KEYS, OledWords, section_name
from firmware.words import Catalogue
from sim.sim_words import SIM_WORDS

#: Every word drawn with the device's bitmap font: the screen's (with the evening's it shows)
#: and the remote panel's, which the simulator draws on the panel's picture.
DRAWN = {**OledWords.WORDS, **{k: v for k, v in SIM_WORDS.items() if k.startswith("attach_")}}
#: The words that speak of the game's stages in one language (the table's page glosses the
#: game's terms in English, and `schocken replay` names the Auswürfeln).
ONE_LANGUAGE = {
    **OLED_WORDS, **SHEET_WORDS, **HUB_WORDS, **SIM_WORDS,
    **{k: v for k, v in CLI_WORDS.items() if not k.startswith("replay_")},
}


def test_the_font_covers_ascii_letters_digits_and_german() -> None:
    assert FONT.covers(string.ascii_letters + string.digits + "ÄÖÜäöüß .,:;!?-+/()→·…▲▼◀▶")
    assert FONT.covers("€") and SMALL.covers("€")  # the Kasse
    assert FONT.missing("a¤b") == {"¤"}


def test_the_fonts_draw_the_latin_letters_of_names_at_a_german_table() -> None:
    letters = "éèêëáàâåãçñøłşğıíîïóôòõúùûýÿžšżźčćřńęąæœðÉÈÊÁÀÂÅÇÑØŁŞĞİÍÎÓÔÚÝŽŠŻŹČĆŘÆ"
    assert FONT.covers(letters) and SMALL.covers(letters)
    # Each is its own glyph in the big font: not its base letter, not its other case, not "?".
    pictures = [FONT.render(letter).tobytes() for letter in letters + "ÄÖÜäöüaceinosuyzAEIOUCNSZ?"]
    assert len(set(pictures)) == len(pictures)
    for font in (FONT, SMALL):  # a capital is not its small letter drawn again
        for capital in "ÉÇÑØŁŞÅ":
            assert font.render(capital).tobytes() != font.render(capital.lower()).tobytes()


def test_the_small_font_has_every_glyph_of_the_screens_and_its_own_capital_umlauts() -> None:
    text = string.ascii_letters + string.digits + "ÄÖÜäöüß .,:;!?-+/()→·…▲▼◀▶×⚙%&'\"<=>[]_|"
    assert SMALL.covers(text) and FONT.covers(text)
    assert SMALL.height == SMALL_ROWS and SMALL.width("1") == SMALL.width("8") == 3
    for font in (FONT, SMALL):
        for capital in "ÄÖÜ":  # a capital umlaut is not its small letter drawn again
            small = capital.lower()
            assert font.render(capital).tobytes() != font.render(small).tobytes(), capital


def test_glyph_metrics() -> None:
    assert FONT.render("Hg").height == GLYPH_ROWS
    assert FONT.width("1") == FONT.width("8") == 5  # digits line up in columns
    assert FONT.width("i") < FONT.width("m")  # letters are proportional
    assert FONT.width("ab") == FONT.width("a") + 1 + FONT.width("b")
    assert FONT.render("Ab", scale=2).size == (2 * FONT.width("Ab"), 2 * GLYPH_ROWS)


def test_fit_cuts_with_an_ellipsis() -> None:
    assert FONT.fit("Anna", 100) == "Anna"
    cut = FONT.fit("Hausnummer 653", 40)
    assert cut.endswith("…") and FONT.width(cut) <= 40


def test_a_malformed_sheet_is_refused() -> None:
    with pytest.raises(ValueError, match="malformed"):
        BitmapFont("\nA\n#...#\n")


def test_every_drawn_text_renders_without_missing_glyphs() -> None:
    for key, texts in DRAWN.items():
        for text in texts:
            shown = re.sub(r"{\w+}", "", text)
            assert FONT.covers(shown), f"{key}: {FONT.missing(shown)}"


def test_the_words_fill_placeholders_and_refuse_unknown_keys_and_languages() -> None:
    assert OledWords().t("throw_of", n=2, limit=3) == "Wurf 2/3"
    assert OledWords("en").t("pot", n=9) == "Pot 9"
    with pytest.raises(KeyError, match="web_title"):
        OledWords().t("web_title")  # the page's word, not the screen's
    with pytest.raises(ValueError, match="use one of de, en"):
        OledWords("fr")


def test_a_catalogue_refuses_a_key_in_two_of_its_homes() -> None:
    with pytest.raises(TypeError, match="pot in two of its homes"):
        type("Twice", (Catalogue,), {"HOMES": (OLED_WORDS, {"pot": ("Topf", "Pot")})})


@pytest.mark.parametrize("source", [SystemDice(), SeededDice(5)])
def test_dice_are_six_sided_and_fair_enough(source: DiceSource) -> None:
    counts = Counter(v for _ in range(3000) for v in source.throw(2))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 6000 dice: each face 1000 on average; 850-1150 is more than 5 standard deviations wide.
    assert all(850 < n < 1150 for n in counts.values()), counts
    assert source.throw(0) == ()
    with pytest.raises(ValueError, match="allowed are 0 to 10"):
        source.throw(-1)


def test_seeded_dice_repeat_themselves() -> None:
    one, two, other = SeededDice(3), SeededDice(3), SeededDice(4)
    first = [one.throw(3) for _ in range(5)]
    assert first == [two.throw(3) for _ in range(5)]
    assert first != [other.throw(3) for _ in range(5)]


def test_every_section_of_the_engine_has_its_name() -> None:
    assert set(SECTION_KEYS) == {1, 2, FINAL}
    names = [section_name(OledWords("de"), section) for section in (1, 2, FINAL)]
    assert names == ["1. Hälfte", "2. Hälfte", "Finale"]


def test_english_screens_name_the_games_stages_in_english() -> None:
    """One language per screen: "Half 1", "Final", "Roll-off" in English, never "Hälfte 1" or
    "Auswürfeln" (the names of throws and things, Schock or General, stay the game's own)."""
    german_words = ("Hälfte", "Auswürfeln", "Finale")
    english = OledWords("en")
    mixed = [
        key for key, (_, text) in ONE_LANGUAGE.items() if any(word in text for word in german_words)
    ]
    assert mixed == []
    assert [section_name(english, n) for n in SECTION_KEYS] == ["Half 1", "Half 2", "Final"]
    assert english.t("rolloff_title") == "Roll-off"


def test_the_half_lost_banner_reads_as_english() -> None:
    """"Half 1" is a name, as "1. Hälfte" is not: the banner says "loses Half 1", not "loses the
    Half 1" (German keeps its article: "verliert die 1. Hälfte")."""
    english, german = OledWords("en"), OledWords("de")
    assert english.t("loses_section", section=section_name(english, 1)) == "loses Half 1"
    assert german.t("loses_section", section=section_name(german, 1)) == "verliert die 1. Hälfte"


def test_german_screens_name_the_flip_button_one_way() -> None:
    german = OledWords("de")
    assert german.t("status_flip").startswith("FLIP") and german.t("notice_no_flip").startswith(
        "FLIP"
    )
    turn = [key for key in OLED_WORDS if key.startswith(("status_", "notice_"))]
    assert not [key for key in turn if "Drehen" in OLED_WORDS[key][0]]
