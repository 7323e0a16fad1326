"""The remote panel on its own: what it sends for each input and what it shows."""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware.protocol import PROTOCOL_VERSION, encode_frame
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind
from sim.attach import RemotePanel
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
