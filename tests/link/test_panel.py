"""The remote panel on its own: what it sends for each input and what it shows."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from firmware.link.protocol import PROTOCOL_VERSION, encode_frame
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind
from sim.attach import RemotePanel
from sim.fakes import FakeClock
from tests.link.conftest import RecordingLink


def started() -> tuple[RemotePanel, RecordingLink, list[int]]:
    link = RecordingLink()
    wakes: list[int] = []
    panel = RemotePanel(link, url="socket://host:7777", wake=lambda: wakes.append(1))
    panel.start()
    assert link.on_connect is not None
    link.on_connect()
    return panel, link, wakes


def test_on_connect_it_asks_for_a_greeting_and_frames() -> None:
    _, link, _ = started()
    assert link.take() == ["hello", "frames on"]


def test_inputs_become_commands() -> None:
    panel, link, _ = started()
    link.take()
    panel.handle(InputEvent(InputKind.PRESS, 1.0, Button.KEEP_3))
    panel.handle(InputEvent(InputKind.LONG_PRESS, 2.0, Button.STAND))
    panel.handle(InputEvent(InputKind.SHAKE_START, 3.0))
    panel.handle(InputEvent(InputKind.THROW, 3.5))
    assert link.take() == ["press keep3", "hold stand", "shake"]


def test_it_shows_the_devices_frames() -> None:
    panel, link, wakes = started()
    waiting = panel.screen()
    assert panel.screen() is waiting  # unchanged: the main loop redraws nothing
    assert link.on_line is not None
    link.on_line(f'hello schockbesteck {PROTOCOL_VERSION} {{"device": "schockbesteck"}}'.encode())
    image = Image.new("1", SCREEN_SIZE, 0)
    ImageDraw.Draw(image).ellipse((10, 10, 50, 50), outline=1)
    link.on_line(b"frame " + encode_frame(image).encode())
    assert panel.screen().tobytes() == image.tobytes()
    assert len(wakes) == 2
    link.on_line(b"frame !!!")  # a broken frame is skipped, the last good one stays
    assert panel.screen().tobytes() == image.tobytes()
    link.on_line(b'state {"game": null, "next": null}')
    assert panel.state == {"game": None, "next": None}


def test_an_unknown_protocol_version_is_shown_not_mirrored() -> None:
    panel, link, _ = started()
    assert link.on_line is not None
    link.on_line(f"hello schockbesteck {PROTOCOL_VERSION + 1} {{}}".encode())
    link.on_line(b"frame " + encode_frame(Image.new("1", SCREEN_SIZE, 1)).encode())
    shown = panel.screen()
    assert shown.getbbox() is not None and shown.tobytes() != b"\xff" * 1024
    assert panel.device is not None and panel.device["version"] == str(PROTOCOL_VERSION + 1)


# -- a device gone silent: the panel says so on the panel, and comes back --------------------


def text_at_some_place(shown: Image.Image, text: str) -> bool:
    """Whether ``text``, drawn in the device's font, appears somewhere in ``shown``."""
    from firmware.screen.font import FONT

    width, height = FONT.width(text), FONT.height
    pattern = Image.new("1", (width, height), 0)
    FONT.draw(ImageDraw.Draw(pattern), (0, 0), text, fill=1)
    wanted = pattern.tobytes()
    return any(
        shown.crop((x, y, x + width, y + height)).tobytes() == wanted
        for y in range(SCREEN_SIZE[1] - height + 1)
        for x in range(SCREEN_SIZE[0] - width + 1)
    )


def live_panel(language: str) -> tuple[RemotePanel, RecordingLink, FakeClock, Image.Image]:
    clock = FakeClock()
    link = RecordingLink()
    panel = RemotePanel(link, url="socket://host:7777", language=language, clock=clock)
    panel.start()
    assert link.on_connect is not None and link.on_line is not None
    assert panel.next_deadline() is None  # nothing to check before the device answers
    link.on_connect()
    link.on_line(f"hello schockbesteck {PROTOCOL_VERSION} {{}}".encode())
    frame = Image.new("1", SCREEN_SIZE, 0)
    ImageDraw.Draw(frame).rectangle((0, 0, 127, 63), fill=1)  # every pixel on
    link.on_line(b"frame " + encode_frame(frame).encode())
    link.take()
    return panel, link, clock, frame


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        ("de", ("Verbindung getrennt", "verbinde neu…")),
        ("en", ("Connection lost", "reconnecting…")),
    ],
)
def test_a_silent_device_greys_the_panel_until_it_speaks_again(
    language: str, lines: tuple[str, str]
) -> None:
    panel, link, clock, frame = live_panel(language)
    assert link.on_line is not None
    for _ in range(2):  # alive: asked every second, nothing greyed
        clock.advance(1.0)
        assert panel.next_deadline() == clock.now()
        panel.advance(clock.now())
        assert link.take() == ["ping"] and not panel.lost
        assert panel.screen() is panel.screen() and panel.screen().tobytes() == frame.tobytes()
    clock.advance(1.0)  # three seconds without a word from the device
    panel.advance(clock.now())
    assert panel.lost and link.take() == ["ping"]
    greyed = panel.screen()
    assert greyed is panel.screen(), "the same image while nothing changes: no redraws"
    assert all(text_at_some_place(greyed, line) for line in lines)
    # Outside the box, the frame with every other pixel off: a grey.
    assert all(
        greyed.getpixel((x, y)) == (255 if (x + y) % 2 else 0)
        for x in range(SCREEN_SIZE[0]) for y in (0, 1, 2, 60, 61, 62, 63)
    )
    clock.advance(5.0)
    panel.advance(clock.now())
    assert link.take() == ["ping"], "it keeps asking while the link is down"
    link.on_line(b"pong")  # the device is back (the link reconnected by itself)
    assert not panel.lost and panel.screen().tobytes() == frame.tobytes()


def test_a_device_that_never_answered_keeps_the_connecting_screen() -> None:
    clock = FakeClock()
    link = RecordingLink()
    panel = RemotePanel(link, url="socket://host:7777", clock=clock)
    panel.start()
    clock.advance(60.0)
    panel.advance(clock.now())
    assert not panel.lost and link.take() == []
    assert text_at_some_place(panel.screen(), "Verbinde mit") is False  # PIL's font, not ours
