"""Screens: pure functions from a view (:mod:`firmware.views`) to a 128x64 mode "1" image.

Everything is drawn with rectangles, lines, points and our own bitmap font
(:mod:`firmware.font`), never with anti-aliased or version-dependent primitives (ellipses,
TrueType), so a view renders to the same pixels on every Pillow version and the golden images in
``tests/firmware/golden/`` stay valid. Dice are drawn as pips, as large as the layout allows:
25 pixels on the turn screen, under the KEEP button that marks each of them.

A screen is drawn anew for every change, so what repeats is drawn once and then copied: each
kind of die (size, face, marks, the rattle of a "?") is painted point by point the first time it
is needed and blitted as one image afterwards, as the font does with its lines of text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import lru_cache, singledispatch

from PIL import Image, ImageDraw

from firmware.font import FONT
from firmware.views import (
    BannerView,
    DieFace,
    HandOverView,
    MenuView,
    PickerView,
    RevealView,
    RollOffView,
    SeatsView,
    SoftKeys,
    Tally,
    TurnView,
    View,
)
from hal.ports import SCREEN_SIZE

__all__ = ["KEY_CENTRES", "draw_die", "render", "status_room"]

WIDTH, HEIGHT = SCREEN_SIZE
#: x of the middle of each KEEP button (and of the die above it).
KEY_CENTRES = (21, 64, 107)
LINE = 9  # one text line of the font
TITLE_HEIGHT = 10

#: Die size -> (distance of the side pips from the centre, pip size).
_PIP_LAYOUT = {25: (6, 5), 21: (5, 3), 17: (4, 3), 13: (3, 1)}
#: Which of the 3x3 pip positions (column, row; -1..1) each face shows.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((1, -1), (-1, 1)),
    3: ((1, -1), (0, 0), (-1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


#: The mark of the frame being drawn (see :func:`render`).
_MARK: ContextVar[str] = ContextVar("mark", default="")


def render(view: View, *, mark: str = "") -> Image.Image:
    """The 128x64 mode "1" image of ``view``.

    ``mark`` is lit in a dark box at the right end of the title bar, the title's own right text
    moved left of it: a mode that must stay visible on every screen (the link's referee mode).
    """
    image = Image.new("1", SCREEN_SIZE, 0)
    token = _MARK.set(mark)
    try:
        _draw(view, ImageDraw.Draw(image))
    finally:
        _MARK.reset(token)
    return image



@singledispatch
def _draw(view: object, draw: ImageDraw.ImageDraw) -> None:
    raise TypeError(f"no screen for {type(view).__name__}")


# --- building blocks ----------------------------------------------------------------------------


def _title_bar(draw: ImageDraw.ImageDraw, left: str, right: str = "") -> None:
    """An inverted bar across the top with ``left`` and ``right`` text in it (and the mark)."""
    draw.bitmap((0, 0), _title_mask(left, right, _MARK.get()), fill=1)


@lru_cache(maxsize=512)
def _title_mask(left: str, right: str, mark: str) -> Image.Image:
    mask = Image.new("1", (WIDTH, TITLE_HEIGHT), 0)
    _paint_title_bar(ImageDraw.Draw(mask), left, right, mark)
    return mask


def _paint_title_bar(draw: ImageDraw.ImageDraw, left: str, right: str, mark: str) -> None:
    draw.rectangle((0, 0, WIDTH - 1, TITLE_HEIGHT - 1), fill=1)
    end = WIDTH
    if mark:
        end = WIDTH - FONT.width(mark) - 4
        draw.rectangle((end, 0, WIDTH - 1, TITLE_HEIGHT - 1), fill=0)
        FONT.draw(draw, (end + 2, 1), mark, fill=1)
    right_width = FONT.width(right)
    right_x = end - 2 - right_width
    room = (right_x - 6 if right else WIDTH - 2) - 2
    FONT.draw(draw, (2, 1), FONT.fit(left, room), fill=0)
    if right:
        FONT.draw(draw, (right_x, 1), right, fill=0)


def _centred(
    draw: ImageDraw.ImageDraw, y: int, text: str, *, scale: int = 1, fill: int = 1
) -> None:
    text = FONT.fit(text, WIDTH - 2, scale)
    FONT.draw(draw, ((WIDTH - FONT.width(text, scale)) // 2, y), text, fill=fill, scale=scale)


def _soft_keys(draw: ImageDraw.ImageDraw, keys: SoftKeys) -> None:
    """Labels above the three KEEP buttons, on the bottom line, under a separator."""
    if not any(keys):
        return
    draw.line((0, 53, WIDTH - 1, 53), fill=1)
    slot = WIDTH // 3
    for centre, label in zip(KEY_CENTRES, keys, strict=True):
        if label:
            label = FONT.fit(label, slot - 2)
            x = min(max(centre - FONT.width(label) // 2, 0), WIDTH - FONT.width(label))
            FONT.draw(draw, (x, 55), label)


def _wrap(text: str, width: int, max_lines: int) -> list[str]:
    """Greedy word wrap in the font's metrics; the last line is cut with "…" if needed."""
    lines: list[str] = []
    current = ""
    words = text.split()
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if FONT.width(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[index:])
            break
    if current:
        lines.append(current)
    return [FONT.fit(line, width) for line in lines[:max_lines]]


def draw_die(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    size: int,
    face: DieFace,
    *,
    rattle: tuple[int, int] = (0, 0),
) -> None:
    """One die with its top-left corner at (x, y), on a blank part of the screen.

    A die in the cup is a dotted outline around a "?" (moved by ``rattle`` while the cup is
    shaken); a thrown die an outline with lit pips; a laid-out (or marked) die is solid with dark
    pips; a die that stays out is also underlined.
    """
    draw.bitmap((x - _DIE_MARGIN, y - _DIE_MARGIN), _die_mask(size, face, rattle), fill=1)


#: Room around a die's painting for the rattling "?" and the underline.
_DIE_MARGIN = 3


@lru_cache(maxsize=256)
def _die_mask(size: int, face: DieFace, rattle: tuple[int, int]) -> Image.Image:
    """The lit pixels of one die, painted once (:func:`_paint_die`) with a margin around it."""
    room = size + 2 * _DIE_MARGIN
    mask = Image.new("1", (room, room), 0)
    _paint_die(ImageDraw.Draw(mask), _DIE_MARGIN, _DIE_MARGIN, size, face, rattle)
    return mask


def _paint_die(
    draw: ImageDraw.ImageDraw, x: int, y: int, size: int, face: DieFace, rattle: tuple[int, int]
) -> None:
    """Paint a die point by point on a blank image (see :func:`draw_die`)."""
    right, bottom = x + size - 1, y + size - 1
    if face.value is None:
        for offset in range(2, size - 2, 2):
            for px, py in (
                (x + offset, y),
                (x + offset, bottom),
                (x, y + offset),
                (right, y + offset),
            ):
                draw.point((px, py), fill=1)
        mark = FONT.render("?")
        mark_x, mark_y = x + (size - mark.width) // 2, y + (size - 7) // 2
        draw.bitmap((mark_x + rattle[0], mark_y + rattle[1]), mark, fill=1)
        return
    ink = 0 if face.out else 1
    if face.out:
        draw.rectangle((x, y, right, bottom), fill=1)
    else:
        draw.rectangle((x, y, right, bottom), outline=1, fill=0)
    # Round the corners: clear each corner pixel, light the one diagonally inside.
    for cx, cy, dx, dy in (
        (x, y, 1, 1),
        (right, y, -1, 1),
        (x, bottom, 1, -1),
        (right, bottom, -1, -1),
    ):
        draw.point((cx, cy), fill=0)
        if not face.out:
            draw.point((cx + dx, cy + dy), fill=1)
    spread, pip = _PIP_LAYOUT[size]
    centre_x, centre_y = x + size // 2, y + size // 2
    for column, row in _PIPS[face.value]:
        _pip(draw, centre_x + column * spread, centre_y + row * spread, pip, ink)
    if face.fixed:
        draw.rectangle((x + 2, bottom + 2, right - 2, bottom + 2), fill=1)


def _pip(draw: ImageDraw.ImageDraw, cx: int, cy: int, size: int, ink: int) -> None:
    half = size // 2
    if size >= 5:  # a round pip: a plus of two rectangles
        draw.rectangle((cx - half, cy - half + 1, cx + half, cy + half - 1), fill=ink)
        draw.rectangle((cx - half + 1, cy - half, cx + half - 1, cy + half), fill=ink)
    else:
        draw.rectangle((cx - half, cy - half, cx + half, cy + half), fill=ink)


def _board(draw: ImageDraw.ImageDraw, board: Sequence[Tally], top: int, lines: int) -> None:
    """Everyone's Deckel in ``lines`` rows of equal slots: name, then the count at the right.

    The current player's slot is inverted; a player who is out is struck through.
    """
    if board:
        draw.bitmap((0, top - 1), _board_mask(tuple(board), lines), fill=1)


@lru_cache(maxsize=256)
def _board_mask(board: tuple[Tally, ...], lines: int) -> Image.Image:
    """The board's lit pixels from the row above it down (an inverted slot starts there)."""
    mask = Image.new("1", (WIDTH, lines * LINE + 1), 0)
    _paint_board(ImageDraw.Draw(mask), board, 1, lines)
    return mask


def _paint_board(draw: ImageDraw.ImageDraw, board: Sequence[Tally], top: int, lines: int) -> None:
    per_line = -(-len(board) // lines)
    slot = WIDTH // per_line
    for index, tally in enumerate(board):
        line, column = divmod(index, per_line)
        x, y = column * slot, top + line * LINE
        count = str(tally.deckel)
        room = slot - FONT.width(count) - 7
        name = tally.name
        while name and FONT.width(name) > room:
            name = name[:-1]
        ink = 1
        if tally.current:
            draw.rectangle((x, y - 1, x + slot - 3, y + LINE - 1), fill=1)
            ink = 0
        FONT.draw(draw, (x + 1, y), name, fill=ink)
        FONT.draw(draw, (x + slot - 4 - FONT.width(count), y), count, fill=ink)
        if tally.out:
            draw.line((x + 1, y + 3, x + slot - 4, y + 3), fill=ink)


def _board_lines(board: Sequence[Tally]) -> int:
    return 1 if len(board) <= 5 else 2


# --- the screens --------------------------------------------------------------------------------


def status_room(right_text: str) -> int:
    """Pixels the turn screen's status line (where a throw's name stands) leaves beside
    ``right_text`` at its right end (the pot, or "weiter ▶")."""
    return WIDTH - FONT.width(right_text) - 8


@_draw.register
def _turn(view: TurnView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.player, view.throw_text)
    lines = _board_lines(view.board)
    size = 25 if lines == 1 else 21
    top = 12
    for index, face in enumerate(view.dice):
        rattle = (0, 0)
        if view.shaking and face.value is None:
            # The dice rattle in the cup: each "?" hops on its own beat inside its still outline,
            # so a frame of the animation changes a few bytes on the I2C bus, not whole dice.
            rattle = (
                (-1, 1, 0, 1)[(view.frame + index) % 4] * 2,
                (-1, 0, 1, 0)[(view.frame + 2 * index) % 4] * 2,
            )
        draw_die(draw, KEY_CENTRES[index] - size // 2, top, size, face, rattle=rattle)
    status_y = top + size + 4
    pot_width = FONT.width(view.pot_text)
    room = status_room(view.pot_text)
    status = view.status
    if FONT.width(status) > room:
        status = status.replace("Hausnummer ", "Hausnr. ")  # "Hausnummer 641 weiter ▶" is too wide
    FONT.draw(draw, (1, status_y), FONT.fit(status, room))
    FONT.draw(draw, (WIDTH - 1 - pot_width, status_y), view.pot_text)
    _board(draw, view.board, HEIGHT - lines * LINE, lines)


@_draw.register
def _hand_over(view: HandOverView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.info)
    scale = 2 if FONT.width(view.player, 2) <= WIDTH - 4 else 1
    _centred(draw, 12 if scale == 2 else 15, view.player, scale=scale)
    lines = _board_lines(view.board)
    if view.shown:
        note = FONT.fit(view.note, 56)
        FONT.draw(draw, (1, 33), note)
        x = WIDTH - len(view.shown) * 21 + 3
        for face in view.shown:
            draw_die(draw, x, 28, 17, face)
            x += 21
    else:
        _centred(draw, 32, view.note)
    if lines == 1:
        _centred(draw, 45, view.hint)
    _board(draw, view.board, HEIGHT - lines * LINE, lines)


@_draw.register
def _roll_off(view: RollOffView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title)
    entries: list[tuple[str, str, bool]] = [
        (row.name, "".join(map(str, row.dice)), row.lead) for row in view.rows
    ]
    entries += [(name, "–" if not view.shaking else "…", False) for name in view.waiting]
    columns = 1 if len(entries) <= 4 else 2
    per_column = -(-len(entries) // columns)
    width = WIDTH // columns
    pitch = LINE if per_column <= 4 else LINE - 1
    for index, (name, dice, lead) in enumerate(entries):
        column, line = divmod(index, per_column)
        x, y = column * width, 12 + line * pitch
        ink = 1
        if lead:
            draw.rectangle((x, y - 1, x + width - 2, y + pitch - 1), fill=1)
            ink = 0
        dice = dice.replace("–", "-")
        dice_width = FONT.width(dice)
        FONT.draw(draw, (x + 2, y), FONT.fit(name, width - dice_width - 8), fill=ink)
        FONT.draw(draw, (x + width - 3 - dice_width, y), dice, fill=ink)
    draw.line((0, 53, WIDTH - 1, 53), fill=1)
    _centred(draw, 55, view.message)


@_draw.register
def _reveal(view: RevealView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.page_text)
    for index, row in enumerate(view.rows):
        y = 11 + index * LINE
        ink = 1
        if row.mark < 0:
            draw.rectangle((0, y - 1, WIDTH - 1, y + LINE - 2), fill=1)
            ink = 0
        if row.mark:
            FONT.draw(draw, (1, y), "▲" if row.mark > 0 else "▼", fill=ink)
        throw_width = FONT.width(row.throw)
        name = FONT.fit(row.name, WIDTH - throw_width - 16)
        FONT.draw(draw, (9, y), name, fill=ink)
        if row.out:
            draw.line((9, y + 3, 9 + FONT.width(name), y + 3), fill=ink)
        FONT.draw(draw, (WIDTH - 2 - throw_width, y), row.throw, fill=ink)
    draw.line((0, 55, WIDTH - 1, 55), fill=1)
    FONT.draw(draw, (1, 56), FONT.fit(view.outcome, WIDTH - 2))


@_draw.register
def _banner(view: BannerView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title)
    y = 14
    if view.headline:
        scale = 2 if FONT.width(view.headline, 2) <= WIDTH - 4 else 1
        _centred(draw, y, view.headline, scale=scale)
        y += 16 if scale == 2 else 11
    room = (53 if any(view.keys) else HEIGHT) - y
    for line in view.lines[: max(room // LINE, 0)]:
        _centred(draw, y, line)
        y += LINE
    _soft_keys(draw, view.keys)


@_draw.register
def _menu(view: MenuView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title)
    visible = 4
    first = min(max(view.selected - 1, 0), max(len(view.items) - visible, 0))
    for line, index in enumerate(range(first, min(first + visible, len(view.items)))):
        y = 11 + line * 10
        ink = 1
        if index == view.selected:
            draw.rectangle((0, y, WIDTH - 8, y + 9), fill=1)
            ink = 0
        FONT.draw(draw, (3, y + 1), FONT.fit(view.items[index], WIDTH - 14), fill=ink)
    if first > 0:
        FONT.draw(draw, (WIDTH - 5, 11), "▲")
    if first + visible < len(view.items):
        FONT.draw(draw, (WIDTH - 5, 44), "▼")
    _soft_keys(draw, view.keys)


@_draw.register
def _picker(view: PickerView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.step)
    value = FONT.fit(view.value, WIDTH - 24, 2)
    scale = 2 if FONT.width(value, 2) <= WIDTH - 24 else 1
    value = FONT.fit(view.value, WIDTH - 24, scale)
    y = 14 if scale == 2 else 18
    _centred(draw, y, value, scale=scale)
    if view.keys[0] or view.keys[1]:  # the value can be changed: arrows either side
        FONT.draw(draw, (2, 18), "◀")
        FONT.draw(draw, (WIDTH - 6, 18), "▶")
    for index, line in enumerate(_wrap(view.detail, WIDTH - 4, 2)):
        _centred(draw, 33 + index * LINE, line)
    _soft_keys(draw, view.keys)


@_draw.register
def _seats(view: SeatsView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.step)
    visible = 4
    first = min(max(view.selected - 1, 0), max(len(view.rows) - visible, 0))
    for line, index in enumerate(range(first, min(first + visible, len(view.rows)))):
        row = view.rows[index]
        y = 11 + line * 10
        ink = 1
        if index == view.selected:
            draw.rectangle((0, y, WIDTH - 8, y + 9), fill=1)
            ink = 0
        role_width = FONT.width(row.role)
        FONT.draw(draw, (WIDTH - 10 - role_width, y + 1), row.role, fill=ink)
        name = FONT.fit(row.name, WIDTH - 18 - role_width)
        FONT.draw(draw, (3, y + 1), name, fill=ink)
    if first > 0:
        FONT.draw(draw, (WIDTH - 5, 11), "▲")
    if first + visible < len(view.rows):
        FONT.draw(draw, (WIDTH - 5, 44), "▼")
    _soft_keys(draw, view.keys)


#: Renderers by view type, for tools that list the screens.
SCREENS: dict[type, Callable[..., None]] = {
    TurnView: _turn,
    HandOverView: _hand_over,
    RollOffView: _roll_off,
    RevealView: _reveal,
    BannerView: _banner,
    MenuView: _menu,
    PickerView: _picker,
    SeatsView: _seats,
}
