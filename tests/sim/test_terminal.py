"""The terminal front end: half-block frames, and keys typed into a real pseudo-terminal."""

from __future__ import annotations

import contextlib
import os
import termios
import threading
import time
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from firmware.screen.screens import KEY_CENTRES
from hal.clock import MonotonicClock
from hal.inputs import InputTiming
from hal.ports import Button, Display, Edge, EdgeSource, InputKind
from sim.controls import EdgeHands
from sim.fakes import FakeClock
from sim.sim_words import SimWords
from sim.terminal import (
    LEGEND_CENTRES,
    QUEUED_PRESSES,
    TerminalDisplay,
    TerminalUI,
    frame_to_blocks,
    frame_to_braille,
)
from tests.sim.conftest import decode

GERMAN = SimWords("de").t


def test_two_pixel_rows_make_one_line_of_half_blocks() -> None:
    image = Image.new("1", (4, 4))
    for xy in ((1, 0), (2, 1), (3, 0), (3, 1), (0, 3)):
        image.putpixel(xy, 1)
    assert frame_to_blocks(image) == [" ▀▄█", "▄   "]


def test_a_whole_frame_is_128_by_32_cells() -> None:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=1)
    lines = frame_to_blocks(image)
    assert len(lines) == 32 and {len(line) for line in lines} == {128}
    assert lines[0] == "█" + "▀" * 126 + "█" and lines[-1] == "█" + "▄" * 126 + "█"
    assert lines[5] == "█" + " " * 126 + "█"


def test_eight_pixels_make_one_braille_cell() -> None:
    image = Image.new("1", (4, 8))
    for xy in ((0, 0), (1, 1), (0, 3), (1, 3), (2, 4), (3, 7)):
        image.putpixel(xy, 1)
    # Cell (0, 0): dots 1, 5, 7 and 8; cell (1, 0) empty; (0, 1) empty; (1, 1): dots 1 and 8.
    assert frame_to_braille(image) == ["\u28d1\u2800", "\u2800\u2881"]


def test_a_whole_frame_is_64_by_16_braille_cells() -> None:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=1)
    lines = frame_to_braille(image)
    assert len(lines) == 16 and {len(line) for line in lines} == {64}
    assert lines[0] == "⡏" + "⠉" * 62 + "⢹" and lines[-1] == "⣇" + "⣀" * 62 + "⣸"


@pytest.mark.parametrize(
    ("size", "layout"),
    [((140, 40), "big"), ((132, 37), "big"), ((131, 37), "compact"), ((80, 24), "compact"),
     ((72, 21), "compact"), ((71, 24), "too small"), ((80, 20), "too small")],
)  # fmt: skip
def test_the_layout_follows_the_terminal_size(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], layout: str
) -> None:
    monkeypatch.setenv("COLUMNS", str(size[0]))
    monkeypatch.setenv("LINES", str(size[1]))
    display = TerminalDisplay()
    ui = TerminalUI(EdgeHands(FakeClock()), display, hold_s=1.0, say=GERMAN)
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((0, 0, 127, 9), fill=1)
    text = ui.render(frame, 1.0)
    display.close()
    lines = [line.replace("\x1b[K", "") for line in text.split("\r\n")[:-1]]
    if layout == "too small":
        assert " ".join(lines) == (
            f"Das Terminal hat {size[0]}x{size[1]}, das Gerät braucht 72x21: bitte größer "
            "machen (q beendet)"
        )
        assert all(len(line) < size[0] for line in lines)
        return
    plain = [line.replace("\x1b[97m", "").replace("\x1b[0m", "") for line in lines]
    assert len(plain) < size[1] and max(map(len, plain)) <= size[0]
    assert "[STAND]" in plain[-2] and "Leertaste: schütteln" in plain[-1]
    # Each KEEP key stands under the middle of its legend on the OLED (after "│ ").
    per_column = 1 if layout == "big" else 2
    assert LEGEND_CENTRES == KEY_CENTRES  # the terminal's copy of the firmware's layout
    for label, centre in zip(("[1]", "[2]", "[3]"), KEY_CENTRES, strict=True):
        assert plain[-2].index(label) + 1 == 2 + centre // per_column
    if layout == "big":
        assert len(plain) == 36 and plain[1] == "│ " + "█" * 128 + " │"
    else:
        assert len(plain) == 20 and plain[1] == "│ " + "⣿" * 64 + " │"
        assert plain[3] == "│ " + "⠛" * 64 + " │" and plain[4] == "│ " + "⠀" * 64 + " │"


def test_the_notice_is_wrapped_to_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    notice = (
        "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set): playing in the terminal "
        "instead"
    )
    display = TerminalDisplay()
    ui = TerminalUI(EdgeHands(FakeClock()), display, hold_s=1.0, notice=notice, say=GERMAN)
    text = ui.render(Image.new("1", (128, 64)), 1.0)
    display.close()
    lines = [line.replace("\x1b[K", "") for line in text.split("\r\n")[:-1]]
    assert len(lines) == 22 and all(len(line) <= 80 for line in lines)
    assert " ".join(line.strip() for line in lines[-2:]) == notice


def test_the_terminal_display_is_a_display_port() -> None:
    display = TerminalDisplay()
    assert isinstance(display, Display)
    display.close()


def test_keys_typed_into_a_pty_press_buttons_and_the_frame_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The size comes from COLUMNS/LINES when they are set (pytest-xdist's workers set 80x24).
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    timing = InputTiming(hold_ms=200)
    master, slave = os.openpty()
    reader = os.fdopen(slave, "r", closefd=False)
    writer = os.fdopen(slave, "w", encoding="utf-8", closefd=False)
    before = termios.tcgetattr(slave)
    clock = MonotonicClock()
    edges: list[Edge] = []
    hands = EdgeHands(clock)
    hands.start(edges.append)
    display = TerminalDisplay()
    ui = TerminalUI(
        hands, display, hold_s=timing.hold_s + 0.1, stdin=reader, stdout=writer, say=GERMAN
    )
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            shown.append(chunk)

    def wait_for(done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 10
        while not done() and time.monotonic() < deadline:
            time.sleep(0.01)

    def let_go(button: Button) -> Callable[[], bool]:
        return lambda: any(e.button is button and not e.active for e in edges)

    def shaken() -> bool:  # the tilt switch rattled, and has been still since (a shake is over)
        tilts = [e for e in edges if e.source is EdgeSource.TILT]
        return bool(tilts) and clock.now() - tilts[-1].at > 0.3

    def type_keys() -> None:
        frame = Image.new("1", (128, 64))
        ImageDraw.Draw(frame).rectangle((0, 0, 127, 1), fill=1)
        display.display(frame)
        wait_for(lambda: "█".encode() * 128 in b"".join(shown))  # the UI is up and drawing
        # Each key once the one before has done its edges.
        for keys, done in (
            ("2", let_go(Button.KEEP_2)), ("S", let_go(Button.STAND)), (" ", shaken),
            ("lf", let_go(Button.FLIP)),
        ):  # fmt: skip
            os.write(master, keys.encode())
            wait_for(done)
        os.write(master, b"q")

    threading.Thread(target=drain, daemon=True).start()
    typist = threading.Thread(target=type_keys)
    start = clock.now()
    typist.start()
    ui.run()
    typist.join()
    ui.close()
    after = termios.tcgetattr(slave)
    os.close(slave)
    time.sleep(0.05)
    os.close(master)

    decoded = decode(edges, clock.now() + 2, FakeClock(start), timing)
    assert [(e.kind, e.button) for e in decoded] == [
        (InputKind.PRESS, Button.KEEP_2),
        (InputKind.LONG_PRESS, Button.STAND),
        (InputKind.SHAKE_START, None),
        (InputKind.THROW, None),
        (InputKind.LONG_PRESS, Button.FLIP),
    ]
    output = b"".join(shown).decode("utf-8", errors="replace")
    assert "│ \x1b[97m" + "█" * 128 in output  # the frame's two lit rows, in one line of blocks
    assert output.startswith("\x1b[?1049h") and output.rstrip().endswith("\x1b[?1049l")
    assert after == before  # cbreak mode undone


def test_a_key_is_a_press_even_with_a_long_debounce() -> None:
    """The short press a key makes outlasts the configured debounce, however long it is."""
    clock = FakeClock(1.0)
    edges: list[Edge] = []
    hands = EdgeHands(clock)
    hands.start(edges.append)
    display = TerminalDisplay()
    timing = InputTiming(debounce_ms=200, hold_ms=800)
    ui = TerminalUI(
        hands, display, hold_s=1.0, debounce_s=timing.debounce_s, now=clock.now, say=GERMAN
    )
    ui.key("s")
    for _ in range(40):
        clock.advance(0.01)
        ui._tick()
    display.close()
    assert [(e.button, e.active) for e in edges] == [(Button.STAND, True), (Button.STAND, False)]
    decoded = decode(edges, 3.0, FakeClock(1.0), timing)
    assert [(e.kind, e.button) for e in decoded] == [(InputKind.PRESS, Button.STAND)]


def test_keys_typed_faster_than_a_press_lasts_all_count() -> None:
    """'333' in one read steps three times: each waits until the one before is let go."""
    clock = FakeClock(1.0)
    edges: list[Edge] = []
    hands = EdgeHands(clock)
    hands.start(edges.append)
    display = TerminalDisplay()
    timing = InputTiming()
    ui = TerminalUI(
        hands, display, hold_s=1.0, debounce_s=timing.debounce_s, now=clock.now, say=GERMAN
    )
    for char in '33"3':
        ui.key(char)
    for _ in range(300):
        clock.advance(0.01)
        ui._tick()
    display.close()
    decoded = decode(edges, 5.0, FakeClock(1.0), timing)
    assert [(e.kind, e.button) for e in decoded] == [
        (InputKind.PRESS, Button.KEEP_3),
        (InputKind.PRESS, Button.KEEP_3),
        (InputKind.PRESS, Button.KEEP_3),
        (InputKind.LONG_PRESS, Button.KEEP_2),
    ]


def test_a_key_on_auto_repeat_stops_soon_after_it_is_let_go() -> None:
    """Thirty repeats of one key in a burst make the first press and QUEUED_PRESSES more."""
    clock = FakeClock(1.0)
    edges: list[Edge] = []
    hands = EdgeHands(clock)
    hands.start(edges.append)
    display = TerminalDisplay()
    timing = InputTiming()
    ui = TerminalUI(
        hands, display, hold_s=1.0, debounce_s=timing.debounce_s, now=clock.now, say=GERMAN
    )
    for _ in range(30):
        ui.key("1")
    for _ in range(300):
        clock.advance(0.01)
        ui._tick()
    display.close()
    decoded = decode(edges, 5.0, FakeClock(1.0), timing)
    assert [e.kind for e in decoded] == [InputKind.PRESS] * (1 + QUEUED_PRESSES)
    assert {e.button for e in decoded} == {Button.KEEP_1}


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_help_names_the_keys_a_terminal_reads(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], language: str
) -> None:
    """h shows f and s as the buttons and the capitals as long presses, every line whole, in
    the device's language alone."""
    monkeypatch.setenv("COLUMNS", str(size[0]))
    monkeypatch.setenv("LINES", str(size[1]))
    display = TerminalDisplay()
    ui = TerminalUI(EdgeHands(FakeClock()), display, hold_s=1.0, say=SimWords(language).t)
    ui.key("h")
    text = ui.render(Image.new("1", (128, 64)), 1.0)
    display.close()
    inside = [line[2:-2].rstrip() for line in text.split("\x1b[K\r\n") if line.startswith("│ ")]
    rows = [row.replace("\x1b[0m", "").strip() for row in inside]
    footer = text.split("\x1b[K\r\n")[-2]
    if language == "en":
        assert "Keys" in rows and "f            flip two sixes into a one" in rows
        assert "s            stand: end the turn" in rows
        assert 'F S ! " §    long press (S: the menu, F: a hint)' in rows
        assert "q or Esc     quit" in rows
        assert footer.startswith("  Space: shake")
    else:
        assert "Tasten" in rows and "f            zwei Sechsen zu einer Eins drehen" in rows
        assert "s            stehen: Zug beenden" in rows
        assert 'F S ! " §    lang drücken (S: Menü, F: Tipp)' in rows
        assert "q oder Esc   beenden" in rows
        assert footer.startswith("  Leertaste: schütteln")
        english = ("Keys", "flip", "stand", "quit", "press", "shake", "help", "the ")
        assert not [row for row in rows if any(word in row for word in english)]
    assert any(row.endswith(("fallen.", "Würfel).", "dice fall).", "dice fall.")) for row in rows)


def test_keys_typed_before_the_first_frame_wait_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fast "s" typed as the terminal's screen appears, before the device's first frame (its
    inputs start just before it), is kept and pressed once the frame is there."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    master, slave = os.openpty()
    reader = os.fdopen(slave, "r", closefd=False)
    writer = os.fdopen(slave, "w", encoding="utf-8", closefd=False)
    clock = MonotonicClock()
    edges: list[Edge] = []
    hands = EdgeHands(clock)  # not started: edges before the first frame would be lost
    display = TerminalDisplay()
    ui = TerminalUI(hands, display, hold_s=0.3, stdin=reader, stdout=writer, say=GERMAN)

    def drain() -> None:
        with contextlib.suppress(OSError):
            while os.read(master, 65536):
                pass

    def device_starts() -> None:
        os.write(master, b"s")  # typed at once, while the device still starts
        time.sleep(0.3)
        hands.start(edges.append)  # the device's inputs start, then its first frame
        display.display(Image.new("1", (128, 64)))
        deadline = time.monotonic() + 5
        while len(edges) < 2 and time.monotonic() < deadline:  # pressed and let go
            time.sleep(0.01)
        os.write(master, b"q")

    threading.Thread(target=drain, daemon=True).start()
    starter = threading.Thread(target=device_starts)
    starter.start()
    ui.run()
    starter.join()
    ui.close()
    os.close(slave)
    time.sleep(0.05)
    os.close(master)
    assert [(edge.active, edge.button) for edge in edges] == [
        (True, Button.STAND), (False, Button.STAND)
    ]


def test_a_small_terminal_shows_the_notices_that_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """80x24 has room for three lines under the device: the page's and the link's addresses
    come first; the display's two lines wait for a taller terminal, rather than no device."""
    notice = (
        "the table's page is on http://127.0.0.1:8080/\n"
        "the link is on tcp-listen://127.0.0.1:7777\n"
        "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set): playing in the terminal "
        "instead"
    )
    display = TerminalDisplay()
    ui = TerminalUI(EdgeHands(FakeClock()), display, hold_s=1.0, notice=notice, say=GERMAN)
    shown = {}
    for rows in (24, 25):
        monkeypatch.setenv("COLUMNS", "80")
        monkeypatch.setenv("LINES", str(rows))
        text = ui.render(Image.new("1", (128, 64)), 1.0)
        shown[rows] = [line.replace("\x1b[K", "") for line in text.split("\r\n")[:-1]]
    display.close()
    assert shown[24][-2:] == [
        "  the table's page is on http://127.0.0.1:8080/",
        "  the link is on tcp-listen://127.0.0.1:7777",
    ]
    assert "[STAND]" in shown[24][-4] and len(shown[24]) == 22
    assert shown[25][-2:] == [
        "  no display found (neither DISPLAY nor WAYLAND_DISPLAY is set): playing in the",
        "  terminal instead",
    ]
