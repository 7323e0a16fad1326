"""Recording what the OLED shows: numbered PNG frames, an animated GIF, and the OLED's look.

:class:`FrameRecorder` is a :class:`~hal.ports.Display` that keeps every distinct picture the
panel shows (a new frame, or the same frame dimmed, woken or put to sleep) with its moment on the
clock, and passes everything on to another display if it wraps one. Frames are written as PNGs
while the game runs (the 1-bit 128x64 frame itself, as luma would send it); the GIF is built on
:meth:`FrameRecorder.close`, each picture lasting as long as it stood on the simulated clock.

:func:`render_oled` draws a frame as the panel looks: lit pixels as small squares with a fainter
seam between them, brightness following the contrast. The window uses it too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

from hal.ports import SCREEN_SIZE, Clock, Display

__all__ = [
    "BACKGROUND",
    "LIT",
    "SEAM_SHARE",
    "FrameRecorder",
    "RecordedFrame",
    "check_frame",
    "render_oled",
]

#: The colour of a lit pixel at full contrast: the cool white of a common SSD1306 panel.
LIT = (214, 238, 255)
#: The colour of the panel where nothing is lit.
BACKGROUND = (6, 9, 14)
#: How bright the seam at the right and bottom edge of a lit pixel is, as a share of the pixel.
#: The grid stays visible, but a lit bar reads as a bar, so dark text on it (a title, the current
#: player) is as easy to read as lit text on dark. A black seam, as before, cut such a bar into a
#: mesh as busy as the letters in it. (luma.emulator's transforms were the other choice:
#: ``identity`` is crisp but loses the grid, ``led_matrix`` draws round LEDs with wide dark gaps,
#: ``smoothscale`` blurs, ``scale2x`` only doubles.)
SEAM_SHARE = 0.75
#: GIF viewers show frames shorter than this for 100 ms; shorter pictures are left out.
_SHORTEST_GIF_FRAME_S = 0.02
#: How long the last picture of a GIF stays before it loops.
_LAST_GIF_FRAME_S = 3.0

_grids: dict[int, Image.Image] = {}


def check_frame(image: Image.Image, size: tuple[int, int] = SCREEN_SIZE) -> None:
    """ValueError unless ``image`` is a mode "1" frame of ``size``."""
    if image.mode != "1" or image.size != size:
        raise ValueError(
            f"a frame must be mode '1' and {size[0]}x{size[1]}, "
            f"not mode {image.mode!r} and {image.size[0]}x{image.size[1]}"
        )


def _grid(scale: int, size: tuple[int, int]) -> Image.Image:
    """A mask that is set inside each scaled pixel and clear on the seam between pixels."""
    key = scale * 100_000 + size[0] * 1000 + size[1]
    grid = _grids.get(key)
    if grid is None:
        cell = Image.new("L", (scale, scale), 0)
        seam = 1 if scale >= 3 else 0
        cell.paste(255, (0, 0, scale - seam, scale - seam))
        grid = Image.new("L", (size[0] * scale, size[1] * scale))
        for y in range(0, grid.height, scale):
            for x in range(0, grid.width, scale):
                grid.paste(cell, (x, y))
        _grids[key] = grid
    return grid


def brightness(contrast: int, hidden: bool = False) -> float:
    """How bright lit pixels look at ``contrast`` (0-255): an OLED at 0 is dim, not dark."""
    return 0.0 if hidden else 0.3 + 0.7 * contrast / 255


class LatestFrame:
    """A :class:`~hal.ports.Display` that keeps the newest frame for a front end to pick up.

    The firmware's thread calls the port's methods; a window or terminal thread reads
    :meth:`snapshot`. Every change bumps a version, so the reader redraws only when something
    changed. Subclasses may override :meth:`_changed` to wake their reader.
    """

    def __init__(self) -> None:
        self.width, self.height = SCREEN_SIZE
        self.mode = "1"
        self._lock = threading.Lock()
        self._image: Image.Image | None = None
        self._contrast = 255
        self._hidden = False
        self._version = 0

    def display(self, image: Image.Image) -> None:
        """Keep ``image`` (mode "1", 128x64) for the reader's next look."""
        check_frame(image, (self.width, self.height))
        self._change(image=image.copy())

    def contrast(self, level: int) -> None:
        """Set the brightness, 0-255."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"contrast must be a level from 0 to 255, not {level!r}")
        self._change(contrast=level)

    def show(self) -> None:
        """Wake the panel."""
        self._change(hidden=False)

    def hide(self) -> None:
        """Put the panel to sleep."""
        self._change(hidden=True)

    @property
    def version(self) -> int:
        """A number that changes with every change of the frame, the contrast or the sleep."""
        return self._version

    def snapshot(self) -> tuple[int, Image.Image | None, float]:
        """(version, newest frame, brightness 0-1); the version changes with every call above."""
        with self._lock:
            return self._version, self._image, brightness(self._contrast, self._hidden)

    def _change(
        self,
        image: Image.Image | None = None,
        contrast: int | None = None,
        hidden: bool | None = None,
    ) -> None:
        with self._lock:
            if image is not None:
                self._image = image
            if contrast is not None:
                self._contrast = contrast
            if hidden is not None:
                self._hidden = hidden
            self._version += 1
        self._changed()

    def _changed(self) -> None:
        """Called after every change, outside the lock."""


def render_oled(image: Image.Image, scale: int = 4, light: float = 1.0) -> Image.Image:
    """``image`` (mode "1") as the panel shows it: a palette image ``scale`` times as large.

    Palette entry 0 is the dark panel, 1 a lit pixel at ``light`` (0-1) of full brightness, 2 the
    seam of a lit pixel (:data:`SEAM_SHARE` of it; from ``scale`` 3 up).
    """
    size = (image.width * scale, image.height * scale)
    lit = image.convert("L").resize(size, Image.Resampling.NEAREST)
    shown = Image.new("P", size, 0)
    colour = [round(b + (c - b) * light) for c, b in zip(LIT, BACKGROUND, strict=True)]
    seam = [round(b + (c - b) * SEAM_SHARE) for c, b in zip(colour, BACKGROUND, strict=True)]
    shown.putpalette([*BACKGROUND, *colour, *seam])
    if light > 0:
        if scale >= 3:
            shown.paste(2, mask=lit)
            lit = ImageChops.multiply(lit, _grid(scale, image.size))
        shown.paste(1, mask=lit)
    return shown


@dataclass(frozen=True, slots=True)
class RecordedFrame:
    """One distinct picture: the frame, when it appeared, and how bright it was (0 = asleep)."""

    image: Image.Image
    at: float
    light: float


class FrameRecorder:
    """A :class:`~hal.ports.Display` that records every distinct picture, optionally passing on.

    ``frames_dir``: every distinct frame is written there as ``frame_00001.png`` and so on (the
    1-bit frame; a change of brightness alone writes no file). ``gif_path``: an animation built
    on :meth:`close`, ``gif_scale`` times the panel's size.
    """

    def __init__(
        self,
        clock: Clock,
        inner: Display | None = None,
        *,
        frames_dir: str | Path | None = None,
        gif_path: str | Path | None = None,
        gif_scale: int = 3,
    ) -> None:
        self.width, self.height = SCREEN_SIZE
        self.mode = "1"
        self._clock = clock
        self._inner = inner
        self.frames_dir = Path(frames_dir) if frames_dir is not None else None
        self.gif_path = Path(gif_path) if gif_path is not None else None
        self._gif_scale = gif_scale
        self.frames: list[RecordedFrame] = []
        self.files_written = 0
        self._image: Image.Image | None = None
        self._image_key: bytes | None = None
        self._contrast = 255
        self._hidden = False
        self._closed = False
        if self.frames_dir is not None:
            self.frames_dir.mkdir(parents=True, exist_ok=True)
            for old in self.frames_dir.glob("frame_*.png"):
                old.unlink()

    def display(self, image: Image.Image) -> None:
        """Show ``image``: recorded if it differs from the last frame, then passed on."""
        check_frame(image, (self.width, self.height))
        key = image.tobytes()
        if key != self._image_key:
            self._image, self._image_key = image.copy(), key
            self._record()
            if self.frames_dir is not None:
                self.files_written += 1
                self._image.save(self.frames_dir / f"frame_{self.files_written:05d}.png")
        if self._inner is not None:
            self._inner.display(image)

    def contrast(self, level: int) -> None:
        """Set the brightness, 0-255."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"contrast must be a level from 0 to 255, not {level!r}")
        if level != self._contrast:
            self._contrast = level
            self._record()
        if self._inner is not None:
            self._inner.contrast(level)

    def show(self) -> None:
        """Wake the panel."""
        self._set_hidden(False)
        if self._inner is not None:
            self._inner.show()

    def hide(self) -> None:
        """Put the panel to sleep."""
        self._set_hidden(True)
        if self._inner is not None:
            self._inner.hide()

    def close(self) -> None:
        """Write the GIF (if asked for) with the last picture standing a while. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.gif_path is not None and self.frames:
            write_gif(self.frames, self.gif_path, self._gif_scale, end=self._clock.now())

    def _set_hidden(self, hidden: bool) -> None:
        if hidden != self._hidden:
            self._hidden = hidden
            self._record()

    def _record(self) -> None:
        if self._image is None:
            return
        frame = RecordedFrame(
            self._image, self._clock.now(), brightness(self._contrast, self._hidden)
        )
        if self.frames and self.frames[-1].at == frame.at:
            self.frames[-1] = frame  # two changes in one instant: only the result was visible
        else:
            self.frames.append(frame)


def write_gif(frames: list[RecordedFrame], path: str | Path, scale: int, end: float) -> None:
    """An animated GIF of ``frames``, each lasting until the next (the last until ``end``).

    A picture that stood for less than 20 ms is left out (GIF viewers would stretch it to 100 ms);
    the picture before it lasts until the next one.
    """
    pictures: list[Image.Image] = []
    starts: list[float] = []
    for index, frame in enumerate(frames):
        if index + 1 < len(frames) and frames[index + 1].at - frame.at < _SHORTEST_GIF_FRAME_S:
            continue
        # RGB, so that a dimmed frame (same pixels, darker colour) counts as a new picture.
        picture = render_oled(frame.image, scale, frame.light).convert("RGB")
        if pictures and picture.tobytes() == pictures[-1].tobytes():
            continue
        pictures.append(picture)
        starts.append(frame.at)
    stops = [*starts[1:], max(end, starts[-1] + _LAST_GIF_FRAME_S)]
    durations = [
        max(round((stop - start) * 1000), 20) for start, stop in zip(starts, stops, strict=True)
    ]
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=durations, loop=0)
