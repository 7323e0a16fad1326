"""A count of one is said in the singular, in German and English, wherever a surface counts:
the simulator's summary, a journal going on, an evening of one game when it ends, the actions
a damaged journal gave back, a time box of one minute (the PIN's last try:
tests/link/test_covered_dice.py; an evening's title after one game: tests/cli/test_time_box.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine import Game, GameSetup
from firmware.app.stages.standings import time_box_picker
from firmware.screen.oled_words import OledWords
from firmware.store.gamestore import CURRENT, DamageReport, GameStore
from firmware.store.journal import JournalHeader
from firmware.store.spieltagfile import open_spieltag_id
from hal.storage import StateDirectory
from tests.cli.test_time_box import scharf_game

Run = Callable[..., tuple[int, str, str]]
LANGUAGES = ("de", "en")


def test_the_simulators_summary_of_one_action(schocken: Run, tmp_path: Path) -> None:
    script = tmp_path / "one.txt"
    script.write_text("wait 1\n", encoding="utf-8")
    status, _, err = schocken("sim", "--script", str(script), "--lang", "en")
    assert status == 0 and "1 script action played," in err, err


def test_a_journal_of_one_action_and_an_evening_of_one_game(schocken: Run, tmp_path: Path) -> None:
    root = str(tmp_path)
    assert schocken("spieltag", "begin", "--name", "8", "--state-dir", root)[0] == 0
    scharf_game(tmp_path)
    store = GameStore(StateDirectory(tmp_path))
    store.open()
    setup = GameSetup(("Anna", "Ben"))
    store.begin(JournalHeader(setup, spieltag=open_spieltag_id(store.storage)))
    store.record(Game(setup).roll_off([(1, 1, 1), (2, 2, 2)]))
    for language, said in (("de", "läuft  Anna, Ben – 1 Aktion\n"),
                           ("en", "going  Anna, Ben – 1 action\n")):
        status, out, _ = schocken("replay", "--list", "--state-dir", root, "--lang", language)
        assert status == 0 and said in out, out
    status, out, _ = schocken("spieltag", "end", "--state-dir", root)
    assert status == 0 and out.endswith(" beendet, 1 Spiel.\n"), out


@pytest.mark.parametrize(
    ("language", "rescued", "minute"),
    [("de", "1 Aktion gerettet", "1 Minute"), ("en", "1 action kept", "1 minute")],
)
def test_one_action_rescued_and_a_time_box_of_one_minute_on_the_oled(
    language: str, rescued: str, minute: str
) -> None:
    texts = OledWords(language)
    report = DamageReport(CURRENT, "record 3: checksum mismatch", "damaged/x", resumed_actions=1)
    assert report.screen_lines(texts.t)[1] == rescued
    picker = time_box_picker(texts, lambda minutes: None, first=1)
    assert picker.label(1) == minute
