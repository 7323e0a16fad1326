"""Partial redraws: send an SSD1306 or SH1106 only the part of a frame that changed.

luma.oled's monochrome drivers send the whole frame on every ``display()``: 1024 data bytes plus
the addressing commands, about 93 ms on the Pi's default 100 kHz I2C bus. luma.core's
framebuffer strategies (``diff_to_previous``, ``full_frame``) are used by its colour drivers
only; the SSD1306 and SH1106 classes accept a ``framebuffer`` argument and ignore it. Most of
our screen changes are small (a die, a mark, a line of text), so :class:`PartialRedraw` wraps a
luma device and, from the second frame on, sends only the changed columns of the changed pages.

The panel's memory is organised in 8 pages of 128 columns; one byte is 8 pixels stacked
vertically, the least significant bit on top. The SSD1306 runs in horizontal addressing mode
(luma sets ``MEMORYMODE 0``), so a rectangle of pages and columns is one window
(``COLUMNADDR``, ``PAGEADDR``) and one data write. The SH1106 only knows page addressing: a
page and a start column per changed page.

Nothing here imports luma: the wrapper talks to the device's own ``command``, ``data`` and
``preprocess`` (the rotation), so it works with any object that has them.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

__all__ = ["ADDRESSING", "PartialRedraw", "changed_spans", "pack_pages", "plan_windows"]

#: The addressing each driver uses for a partial write.
ADDRESSING = {"ssd1306": "horizontal", "sh1106": "page"}

_COLUMNADDR, _PAGEADDR = 0x21, 0x22  # SSD1306: set the column and page window
_SET_PAGE, _LOW_COLUMN, _HIGH_COLUMN = 0xB0, 0x00, 0x10  # SH1106: page, column low/high nibble
#: luma's sh1106 puts our 128 columns at 2-129 of the controller's 132 (its page_address_offset).
SH1106_COLUMN_OFFSET = 0x02

#: A changed run of columns in one page: (page, first column, last column).
_Span = tuple[int, int, int]
#: An SSD1306 window: (top page, bottom page, first column, last column).
_Window = tuple[int, int, int, int]
#: What opening one more SSD1306 window costs on the wire: 6 command bytes (COLUMNADDR a b
#: PAGEADDR c d), and the address and control bytes of its command and its data transaction.
_WINDOW_COST = 10
#: The same for an SH1106 page: 3 command bytes (page, column low and high nibble) and 4 more.
_PAGE_COST = 7


def pack_pages(image: Image.Image) -> list[bytes]:
    """A mode "1" image as the controller stores it: one bytes object per 8-pixel page.

    Byte ``x`` of page ``p`` holds the pixels ``(x, 8p)`` to ``(x, 8p + 7)``, top one in bit 0.
    Pillow packs a mode "1" row most significant bit first, so turning the image a quarter
    clockwise makes every image column one row of bytes, each byte one page with its top
    pixel in bit 0.
    """
    height = image.size[1]
    if height % 8:
        raise ValueError(f"the image height must be a multiple of 8, not {height}")
    pages = height // 8
    packed = image.convert("1").transpose(Image.Transpose.ROTATE_270).tobytes()
    return [packed[pages - 1 - page :: pages] for page in range(pages)]


def changed_spans(old: list[bytes], new: list[bytes], gap: int) -> list[_Span]:
    """The runs of changed bytes, page by page; runs less than ``gap`` bytes apart are joined
    (resending a few unchanged bytes is cheaper than addressing the next run)."""
    spans = []
    for page, (before, after) in enumerate(zip(old, new, strict=True)):
        if before == after:
            continue
        run: list[int] | None = None
        for column in range(len(after)):
            if before[column] == after[column]:
                continue
            if run is not None and column - run[1] - 1 < gap:
                run[1] = column
                continue
            if run is not None:
                spans.append((page, run[0], run[1]))
            run = [column, column]
        if run is not None:
            spans.append((page, run[0], run[1]))
    return spans


def _cost(window: _Window) -> int:
    top, bottom, left, right = window
    return _WINDOW_COST + (bottom - top + 1) * (right - left + 1)


def plan_windows(spans: list[_Span]) -> list[_Window]:
    """SSD1306 windows covering ``spans`` with few bytes: the bounding box, or rectangles.

    Rectangles grow downwards: a run joins the rectangle ending on the page above that it
    overlaps when the joined rectangle costs no more than the two apart. The cheaper of that
    and one window around everything is taken.
    """
    if not spans:
        return []
    box = (
        spans[0][0],
        spans[-1][0],
        min(left for _, left, _ in spans),
        max(right for _, _, right in spans),
    )
    rectangles: list[_Window] = []
    for page, left, right in spans:
        best: tuple[int, int] | None = None  # (saving, index)
        for index, (top, bottom, first, last) in enumerate(rectangles):
            if bottom != page - 1 or right < first or left > last:
                continue
            joined = (top, page, min(left, first), max(right, last))
            saving = _cost(rectangles[index]) + _cost((page, page, left, right)) - _cost(joined)
            if saving >= 0 and (best is None or saving > best[0]):
                best = (saving, index)
        if best is None:
            rectangles.append((page, page, left, right))
        else:
            top, _, first, last = rectangles[best[1]]
            rectangles[best[1]] = (top, page, min(left, first), max(right, last))
    return [box] if _cost(box) <= sum(map(_cost, rectangles)) else rectangles


class PartialRedraw:
    """A luma SSD1306/SH1106 device whose :meth:`display` sends only what changed.

    The first frame after construction (and the one after a failed write) goes out whole: the
    panel's memory is not trusted until a frame has been written completely. Everything else
    (``contrast``, ``hide``, ``show``, ``rotate``, ``persist``, ...) is the wrapped device's.
    ``frames``, ``full_frames`` and ``bytes_sent`` (commands and pixel data) count what was sent.
    """

    def __init__(self, device: Any, addressing: str = "horizontal") -> None:
        if addressing not in ADDRESSING.values():
            raise ValueError(f"addressing {addressing!r} is unknown: use horizontal or page")
        self.device = device
        self.addressing = addressing
        self._pages: list[bytes] | None = None
        self.frames = 0
        self.full_frames = 0
        self.bytes_sent = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.device, name)

    def display(self, image: Image.Image) -> None:
        """Show ``image``: the whole frame the first time, afterwards the changed area only."""
        pages = pack_pages(self.device.preprocess(image))
        previous, self._pages = self._pages, None  # untrusted until this write has succeeded
        if previous is None or len(previous) != len(pages):
            self._write_full(pages)
            self.full_frames += 1
        elif self.addressing == "horizontal":
            self._write_windows(pages, plan_windows(changed_spans(previous, pages, _WINDOW_COST)))
        else:
            self._write_page_spans(pages, changed_spans(previous, pages, _PAGE_COST))
        self._pages = pages
        self.frames += 1

    # --- writing -------------------------------------------------------------------------------

    def _command(self, *command: int) -> None:
        self.device.command(*command)
        self.bytes_sent += len(command)

    def _data(self, data: bytes) -> None:
        self.device.data(list(data))
        self.bytes_sent += len(data)

    def _write_full(self, pages: list[bytes]) -> None:
        if self.addressing == "horizontal":
            self._write_windows(pages, [(0, len(pages) - 1, 0, len(pages[0]) - 1)])
        else:
            self._write_page_spans(
                pages, [(page, 0, len(data) - 1) for page, data in enumerate(pages)]
            )

    def _write_windows(self, pages: list[bytes], windows: list[_Window]) -> None:
        """SSD1306: per window, its address range, then its bytes page by page."""
        for top, bottom, left, right in windows:
            self._command(_COLUMNADDR, left, right, _PAGEADDR, top, bottom)
            self._data(b"".join(pages[page][left : right + 1] for page in range(top, bottom + 1)))

    def _write_page_spans(self, pages: list[bytes], spans: list[_Span]) -> None:
        """SH1106: per changed page, its page address, the first column, the changed bytes."""
        for page, first, last in spans:
            column = first + SH1106_COLUMN_OFFSET
            self._command(
                _SET_PAGE | page, _LOW_COLUMN | (column & 0x0F), _HIGH_COLUMN | (column >> 4)
            )
            self._data(pages[page][first : last + 1])
