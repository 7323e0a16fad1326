"""The window under SDL's dummy video driver: keys and clicks become edges, frames are drawn."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw
from pytest_mock import MockerFixture

from hal.ports import Button, Display, Edge, EdgeSource, InputKind
from sim.controls import EdgeHands, key_help
from sim.fakes import FakeClock
from sim.gpio_mock import MockPinHands
from sim.recorder import BACKGROUND, LIT
from sim.sim_words import SimWords
from sim.terminal import terminal_key_help
from sim.window import OLED_SCALE, SimWindow, WindowDisplay
from tests.sim.conftest import decode

pygame = pytest.importorskip("pygame")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1.0)


@pytest.fixture
def edges() -> list[Edge]:
    return []


@pytest.fixture
def window(clock: FakeClock, edges: list[Edge]) -> Iterator[SimWindow]:
    hands = EdgeHands(clock)
    hands.start(edges.append)
    window = SimWindow(hands, WindowDisplay(), now=clock.now, say=SimWords("de").t)
    yield window
    window.close()


def key(kind: int, code: int, char: str = "") -> Any:
    return pygame.event.Event(kind, key=code, unicode=char, mod=0, scancode=0)


def click(kind: int, pos: tuple[int, int]) -> Any:
    return pygame.event.Event(kind, pos=pos, button=1)


def test_the_window_display_is_a_display_port() -> None:
    assert isinstance(WindowDisplay(), Display)


def test_a_held_key_is_a_long_press_and_a_tapped_key_a_press(
    window: SimWindow, clock: FakeClock, edges: list[Edge]
) -> None:
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_2, "2"))
    window.step()
    clock.advance(0.1)
    pygame.event.post(key(pygame.KEYUP, pygame.K_2, "2"))
    window.step()
    clock.advance(0.5)
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_s, "s"))
    window.step()
    clock.advance(1.2)
    pygame.event.post(key(pygame.KEYUP, pygame.K_s, "s"))
    window.step()
    assert [(e.button, e.active, e.at) for e in edges] == [
        (Button.KEEP_2, True, 1.0),
        (Button.KEEP_2, False, pytest.approx(1.1)),
        (Button.STAND, True, pytest.approx(1.6)),
        (Button.STAND, False, pytest.approx(2.8)),
    ]
    decoded = decode(edges, 4.0, FakeClock(1.0))
    assert [(e.kind, e.button) for e in decoded] == [
        (InputKind.PRESS, Button.KEEP_2),
        (InputKind.LONG_PRESS, Button.STAND),
    ]


def test_clicking_the_drawn_buttons_presses_them(
    window: SimWindow, clock: FakeClock, edges: list[Edge]
) -> None:
    for button in (Button.KEEP_1, Button.KEEP_3, Button.FLIP, Button.STAND):
        centre = window.control_center(button)
        pygame.event.post(click(pygame.MOUSEBUTTONDOWN, centre))
        window.step()
        clock.advance(0.1)
        pygame.event.post(click(pygame.MOUSEBUTTONUP, centre))
        window.step()
        clock.advance(0.2)
    decoded = decode(edges, 5.0, FakeClock(1.0))
    assert [(e.kind, e.button) for e in decoded] == [
        (InputKind.PRESS, Button.KEEP_1),
        (InputKind.PRESS, Button.KEEP_3),
        (InputKind.PRESS, Button.FLIP),
        (InputKind.PRESS, Button.STAND),
    ]


def test_a_click_beside_the_buttons_presses_nothing(window: SimWindow, edges: list[Edge]) -> None:
    pygame.event.post(click(pygame.MOUSEBUTTONDOWN, (5, 5)))
    pygame.event.post(click(pygame.MOUSEBUTTONUP, (5, 5)))
    window.step()
    assert edges == []


@pytest.mark.parametrize("how", ["space", "drag"])
def test_holding_space_or_the_cup_shakes_and_letting_go_throws(
    window: SimWindow, clock: FakeClock, edges: list[Edge], how: str
) -> None:
    if how == "space":
        pygame.event.post(key(pygame.KEYDOWN, pygame.K_SPACE, " "))
    else:
        pygame.event.post(click(pygame.MOUSEBUTTONDOWN, window.cup_center()))
    for _ in range(45):  # 0.75 s at 60 frames a second
        window.step()
        clock.advance(1 / 60)
    if how == "space":
        pygame.event.post(key(pygame.KEYUP, pygame.K_SPACE, " "))
    else:
        pygame.event.post(click(pygame.MOUSEBUTTONUP, window.cup_center()))
    window.step()
    tilts = [edge for edge in edges if edge.source is EdgeSource.TILT]
    assert len(tilts) == len(edges) and 12 <= len(tilts) <= 20  # one every ~50 ms
    gaps = [b.at - a.at for a, b in itertools.pairwise(tilts)]
    assert all(0.04 <= gap <= 0.07 for gap in gaps[:-1])
    decoded = decode(edges, 4.0, FakeClock(1.0))
    assert [e.kind for e in decoded] == [InputKind.SHAKE_START, InputKind.THROW]
    assert decoded[1].at == pytest.approx(tilts[-1].at + 0.4)


def test_frames_reach_the_window(window: SimWindow) -> None:
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((10, 20, 19, 29), fill=1)
    window._display.display(frame)
    window.step()
    x, y, width, height = window.oled_rect()
    assert (width, height) == (128 * OLED_SCALE, 64 * OLED_SCALE)

    def pixel(px: int, py: int) -> tuple[int, int, int]:
        colour = window.surface.get_at((x + px * OLED_SCALE + 1, y + py * OLED_SCALE + 1))
        return (colour.r, colour.g, colour.b)

    assert pixel(12, 22) == LIT
    assert pixel(30, 22) == BACKGROUND
    window._display.contrast(0)  # dimmed: still lit, but darker
    window.step()
    assert sum(BACKGROUND) < sum(pixel(12, 22)) < sum(LIT)
    window._display.hide()
    window.step()
    assert pixel(12, 22) == BACKGROUND


def test_help_toggles_and_escape_or_closing_quits(window: SimWindow) -> None:
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_h, "h"))
    window.step()
    assert window.help_shown
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_SLASH, "?"))
    window.step()
    assert not window.help_shown
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_ESCAPE, "\x1b"))
    assert window.step() is False
    assert window.quit_requested


def test_losing_focus_lets_go_of_held_buttons(
    window: SimWindow, clock: FakeClock, edges: list[Edge]
) -> None:
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_f, "f"))
    window.step()
    clock.advance(0.2)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    window.step()
    assert [(e.button, e.active) for e in edges] == [(Button.FLIP, True), (Button.FLIP, False)]


@pytest.mark.parametrize("pins", [False, True], ids=["edges", "gpio-mock"])
def test_a_tap_within_one_tick_counts_as_a_press(
    clock: FakeClock, edges: list[Edge], pins: bool
) -> None:
    """Key down and key up 5 ms apart, handled in one tick: the button stays down until the
    press outlasts the decoder's debounce, and the decoder sees a press (a keyboard never
    bounces). With --gpio-mock the edges come from gpiozero's MockFactory pins."""
    hands: EdgeHands | MockPinHands = MockPinHands(clock) if pins else EdgeHands(clock)
    hands.start(edges.append)
    window = SimWindow(
        hands, WindowDisplay(), now=clock.now, debounce_s=0.03, say=SimWords("de").t
    )
    try:
        pygame.event.post(key(pygame.KEYDOWN, pygame.K_s, "s"))
        pygame.event.post(key(pygame.KEYUP, pygame.K_s, "s"))
        window.step()
        assert [(e.button, e.active) for e in edges] == [(Button.STAND, True)]
        clock.advance(0.005)
        window.step()
        assert len(edges) == 1, "let go before the debounce could see the press"
        clock.advance(0.05)
        window.step()
        assert [(e.button, e.active) for e in edges] == [
            (Button.STAND, True),
            (Button.STAND, False),
        ]
        assert edges[1].at - edges[0].at >= 0.05
        decoded = decode(edges, 3.0, FakeClock(1.0))
        assert [(e.kind, e.button) for e in decoded] == [(InputKind.PRESS, Button.STAND)]
    finally:
        window.close()
        hands.close()


def test_idle_the_window_draws_nothing(
    window: SimWindow, clock: FakeClock, mocker: MockerFixture
) -> None:
    """Only a new frame, a button, the cup, the help or the window system make it draw."""
    flips = mocker.spy(pygame.display, "flip")
    for _ in range(30):
        window.step()
        clock.advance(1 / 60)
    assert flips.call_count == 0
    window._display.display(Image.new("1", (128, 64), 1))
    window.step()
    window.step()
    assert flips.call_count == 1
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    window.step()
    window.step()
    assert flips.call_count == 2
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_1, "1"))
    window.step()
    clock.advance(0.2)
    pygame.event.post(key(pygame.KEYUP, pygame.K_1, "1"))
    window.step()
    window.step()
    assert flips.call_count == 4  # drawn down, drawn up
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_SPACE, " "))
    for _ in range(10):
        window.step()
        clock.advance(1 / 60)
    assert flips.call_count == 14  # the cup shakes: every tick
    pygame.event.post(key(pygame.KEYUP, pygame.K_SPACE, " "))
    for _ in range(10):
        window.step()
        clock.advance(1 / 60)
    assert flips.call_count == 15  # put down: drawn once more, upright


def test_the_captions_and_the_help_speak_the_devices_language(
    clock: FakeClock, mocker: MockerFixture
) -> None:
    """One language: the help's rows, its title and the cup's caption follow the device's
    language, and a change in the menu redraws the captions."""
    german = key_help(SimWords("de").t)
    assert german[0] == ("1 2 3", "Würfel darüber rauslegen/zurück")
    assert (SimWords("de").t("sim_keys_title"), SimWords("en").t("sim_keys_title")) == (
        "Tasten", "Keys"
    )
    english_words = ("keep", "flip", "stand", "shake", "press", "help", "quit", "hold")
    assert not [row for row in german if any(word in row[1] for word in english_words)]
    language = ["de"]
    window = SimWindow(EdgeHands(clock), WindowDisplay(), now=clock.now,
                       say=lambda key, **values: SimWords(language[0]).t(key, **values))
    try:
        redraw = mocker.spy(window, "_draw_static")
        window.step()
        assert redraw.call_count == 0
        language[0] = "en"
        window.step()  # the OLED's next frame would make it draw; the language change does too
        window._draw()
        assert redraw.call_count == 1
    finally:
        window.close()


@pytest.mark.parametrize(("language", "hint"), [("de", "F: Tipp"), ("en", "F: a hint")])
def test_the_help_names_the_hint_in_the_window_as_in_the_terminal(
    language: str, hint: str
) -> None:
    say = SimWords(language).t
    for rows in (key_help(say), terminal_key_help(say)):
        assert [meaning for _, meaning in rows if hint in meaning], rows


def test_the_cups_caption_has_no_gap_inside_a_word(window: SimWindow) -> None:
    """pygame's default font kerns "tt" apart ("schüt teln"): the captions' font does not."""
    surface = window._text("schütteln", 22, (255, 255, 255))
    width, height = surface.get_size()
    lit = [
        any(surface.get_at((x, y))[3] > 0 for y in range(height)) for x in range(width)
    ]
    inside = lit[lit.index(True) : width - lit[::-1].index(True)]
    longest_gap = max(len(run) for run in "".join("#" if c else "." for c in inside).split("#"))
    assert longest_gap <= 1
