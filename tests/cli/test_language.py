"""One language per run: `stats`, `replay` and `rules` print in --lang, else in the language
the environment's LC_ALL, LC_MESSAGES or LANG names, else in German; never a mix."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.rules import load_preset, preset_names
from firmware.cli.cli_words import CLI_WORDS
from firmware.cli.language import output_language
from firmware.cli.rules import DESCRIPTION_KEYS
from schockbesteck.cli import main

#: Words only the German output has, and only the English output has.
GERMAN = ("Spieler", "Spiel:", "Noch keine", "Beschreibung", "Quelle", " über ", "Gleichstand")
ENGLISH = ("Player", "Game:", "No finished", "description", "source", " above ", " tie")


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def speaks(out: str, language: str) -> None:
    own, other = (GERMAN, ENGLISH) if language == "de" else (ENGLISH, GERMAN)
    assert any(word in out for word in own), out
    assert not [word for word in other if word in out], out


@pytest.mark.parametrize(
    ("environ", "lang", "expected"),
    [
        ({}, None, "de"),
        ({"LANG": "C.UTF-8"}, None, "de"),
        ({"LANG": "POSIX"}, None, "de"),
        ({"LANG": "fr_FR.UTF-8"}, None, "de"),
        ({"LANG": "en_GB.UTF-8"}, None, "en"),
        ({"LANG": "en"}, None, "en"),
        ({"LANG": "de_AT.UTF-8@euro"}, None, "de"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, None, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "de_DE.UTF-8"}, None, "de"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": ""}, None, "en"),  # set but empty: not consulted
        ({"LANG": "en_US.UTF-8"}, "de", "de"),
        ({}, "en", "en"),
    ],
)
def test_the_language_of_a_run(
    environ: dict[str, str], lang: str | None, expected: str
) -> None:
    assert output_language(argparse.Namespace(lang=lang), environ) == expected


@pytest.fixture
def played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A state directory with one finished game (as tests/sim/test_saving.py plays it)."""
    home = tmp_path / "games"
    scripts = Path(__file__).parents[2] / "sim" / "scripts"
    argv = ["sim", "--players", "3", "--rules", str(scripts / "three-deckel.toml"), "--seed", "7",
            "--script", str(scripts / "whole-game.txt")]
    assert main([*argv, "--state-dir", str(home)]) == 0
    capsys.readouterr()
    return home


@pytest.mark.parametrize(("locale", "language"), [("en_GB.UTF-8", "en"), ("de_DE.UTF-8", "de"),
                                                  ("C.UTF-8", "de")])
def test_stats_replay_and_rules_follow_lang_from_the_environment(
    played: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    locale: str, language: str,
) -> None:
    monkeypatch.setenv("LANG", locale)
    where = ("--state-dir", str(played))
    speaks(printed(capsys, "stats", *where), language)
    speaks(printed(capsys, "stats", "--state-dir", str(played / "..")), language)  # no games
    story = printed(capsys, "replay", *where)
    assert story.splitlines()[0] == f"Journal: {played / 'game-000001.journal'}"
    speaks(story, language)
    speaks(printed(capsys, "rules", "list"), language)
    speaks(printed(capsys, "rules", "show", "dsm"), language)


@pytest.mark.parametrize("language", ["de", "en"])
def test_lang_wins_over_the_environment(
    played: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8" if language == "en" else "en_US.UTF-8")
    for argv in (("stats", "--state-dir", str(played)), ("replay", "--state-dir", str(played)),
                 ("rules", "list"), ("rules", "show", "bvb")):
        speaks(printed(capsys, *argv, "--lang", language), language)


def test_every_preset_has_its_description_in_both_languages() -> None:
    assert set(DESCRIPTION_KEYS) == set(preset_names())
    for name, key in DESCRIPTION_KEYS.items():
        german, english = CLI_WORDS[key]
        assert german == load_preset(name).description, "the words say what the file says"
        assert english != german


def test_json_stays_the_preset_files_words(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    rows = json.loads(printed(capsys, "rules", "list", "--json", "--lang", "en"))
    assert rows[0]["description"] == load_preset(rows[0]["name"]).description


def test_a_files_worded_description_follows_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    worded, own = tmp_path / "worded.toml", tmp_path / "own.toml"
    worded.write_text('preset = "bvb"\ndeckel = 15\n', encoding="utf-8")
    own.write_text('description = "Unsere Kneipe"\ndeckel = 15\n', encoding="utf-8")
    lines = {lang: printed(capsys, "rules", "show", str(worded), "--lang", lang).splitlines()
             for lang in ("de", "en")}  # fmt: skip
    assert lines["de"][3] == "Beschreibung: wie bvb, aber 15 Deckel"
    assert lines["en"][3] == "description: like bvb, but 15 Deckel"
    assert "rules:       bvb+" in lines["en"] and "Regeln:       bvb+" in lines["de"]
    for lang in ("de", "en"):  # a file's own words are the file's
        assert "Unsere Kneipe" in printed(capsys, "rules", "show", str(own), "--lang", lang)
