"""The README's key table names the keys the simulator reads: each key of it, typed into the
real terminal front end, does what the table says, and the terminal's own footer agrees."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from hal.ports import Button
from sim.controls import BUTTON_KEYS, EdgeHands
from sim.fakes import FakeClock
from sim.sim_words import SimWords
from sim.terminal import TerminalDisplay, TerminalUI

README = Path(__file__).parents[2] / "README.md"


def key_table() -> dict[str, list[str]]:
    """The README's first table under "Key | Button": what a row says -> the keys it names."""
    text = README.read_text(encoding="utf-8")
    start = text.index("| Key ")
    rows = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        keys, meaning = (cell.strip() for cell in line.strip("|").split("|"))
        rows[meaning] = re.findall(r"`([^`]+)`", keys)
    return rows


#: The terminal's wall clock in these tests: moved by hand.
CLOCK = FakeClock(100.0)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[TerminalUI]:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    display = TerminalDisplay()
    # The README is English, so is the terminal it is held against (its words are the device's).
    yield TerminalUI(EdgeHands(CLOCK), display, hold_s=1.0, now=CLOCK.now, say=SimWords("en").t)
    display.close()


def test_the_buttons_keys_are_the_simulators(terminal: TerminalUI) -> None:
    rows = key_table()
    buttons = {"KEEP": (Button.KEEP_1, Button.KEEP_2, Button.KEEP_3), "FLIP": (Button.FLIP,),
               "STAND": (Button.STAND,)}  # fmt: skip
    for word, expected in buttons.items():
        (keys,) = [keys for meaning, keys in rows.items() if meaning.startswith(word)]
        assert tuple(BUTTON_KEYS[key] for key in keys) == expected, (word, keys)


def test_help_and_quit_keys_work_in_the_terminal_as_the_table_says(
    terminal: TerminalUI,
) -> None:
    rows = key_table()
    (help_keys,) = [keys for meaning, keys in rows.items() if meaning.startswith("help")]
    (quit_keys,) = [keys for meaning, keys in rows.items() if meaning.startswith("quit")]
    frame = Image.new("1", (128, 64))
    footer = terminal.render(frame, 1.0).split("\r\n")[-2]
    assert f"{help_keys[0]}: help" in footer and f"{quit_keys[0]}: quit" in footer
    for key in help_keys:
        plain = terminal.render(frame, 1.0)
        terminal.key(key)
        assert terminal.render(frame, 1.0) != plain, f"{key!r} shows the help"
        terminal.key(key)
        assert terminal.render(frame, 1.0) == plain, f"{key!r} again: back"
    for key in quit_keys:
        terminal.quit_requested = False
        terminal.key({"Esc": "\x1b"}.get(key, key))
        CLOCK.advance(1.0)  # a lone Esc: no escape sequence follows
        terminal._tick()
        assert terminal.quit_requested, f"{key!r} quits"
