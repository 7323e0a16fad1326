"""The frame recorder: distinct frames as PNGs, a GIF timed by the clock, the OLED's look."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from hal.ports import Display
from sim.fakes import FakeClock
from sim.recorder import BACKGROUND, LIT, SEAM_SHARE, FrameRecorder, render_oled


def frame(text_x: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((text_x, 10, text_x + 20, 30), fill=1)
    return image


def test_the_recorder_is_a_display_port(tmp_path: Path) -> None:
    assert isinstance(FrameRecorder(FakeClock()), Display)


def test_only_distinct_frames_are_written_in_order(tmp_path: Path) -> None:
    clock = FakeClock()
    recorder = FrameRecorder(clock, frames_dir=tmp_path / "frames")
    for x in (0, 0, 40, 40, 0):
        recorder.display(frame(x))
        clock.advance(0.5)
    files = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert [f.name for f in files] == ["frame_00001.png", "frame_00002.png", "frame_00003.png"]
    with Image.open(files[1]) as second:
        assert second.mode == "1" and second.tobytes() == frame(40).tobytes()


def test_an_old_recording_in_the_frames_directory_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "frame_00009.png").write_bytes(b"old")
    recorder = FrameRecorder(FakeClock(), frames_dir=tmp_path)
    recorder.display(frame(0))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame_00001.png"]


def test_the_gif_lasts_as_long_as_each_frame_stood_on_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    gif = tmp_path / "game.gif"
    recorder = FrameRecorder(clock, gif_path=gif, gif_scale=2)
    recorder.display(frame(0))
    clock.advance(1.5)
    recorder.display(frame(30))
    clock.advance(0.01)  # a flicker no GIF viewer could show: the frame before lasts longer
    recorder.display(frame(60))
    clock.advance(0.25)
    recorder.contrast(8)  # dimmed: the same frame, darker
    clock.advance(4.0)
    recorder.close()
    with Image.open(gif) as animation:
        assert animation.size == (256, 128)
        durations = []
        for index in range(animation.n_frames):
            animation.seek(index)
            durations.append(animation.info["duration"])
    assert durations == [1510, 250, 4000]


def test_dark_text_on_a_lit_bar_stands_out_from_the_grid() -> None:
    """A dark pixel in a lit bar is dark across its whole cell; the seams around it are at least
    70% as bright as the bar, so the grid does not compete with the letters."""
    bar = Image.new("1", (128, 64))
    ImageDraw.Draw(bar).rectangle((0, 0, 127, 9), fill=1)
    bar.putpixel((10, 5), 0)
    shown = render_oled(bar, scale=3).convert("L")
    bright = shown.getpixel((0, 0))
    dark = {shown.getpixel((30 + dx, 15 + dy)) for dx in range(3) for dy in range(3)}
    seams = [shown.getpixel((2, y)) for y in range(30)]
    seams += [shown.getpixel((x, 2)) for x in range(30)]
    assert max(dark) < 0.1 * bright and min(seams) >= 0.7 * bright


def test_render_oled_draws_lit_pixels_as_squares_with_a_seam() -> None:
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    shown = render_oled(image, scale=4).convert("RGB")
    assert shown.size == (512, 256)
    assert shown.getpixel((0, 0)) == LIT
    seam = shown.getpixel((3, 3))  # the seam between pixels: fainter, but lit
    faint = [round(b + (c - b) * SEAM_SHARE) for c, b in zip(LIT, BACKGROUND, strict=True)]
    assert seam == tuple(faint)
    assert shown.getpixel((3, 0)) == shown.getpixel((0, 3)) == seam
    assert shown.getpixel((5, 0)) == BACKGROUND  # the next pixel is dark
    dim = render_oled(image, scale=4, light=0.3).convert("RGB").getpixel((0, 0))
    assert sum(BACKGROUND) < sum(dim) < sum(LIT)


def test_a_wrong_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="mode '1' and 128x64"):
        FrameRecorder(FakeClock()).display(Image.new("L", (128, 64)))
