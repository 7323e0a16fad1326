"""Screens: pure functions from a view (:mod:`firmware.screen.views`) to a 128x64 mode "1" image.

Everything is drawn with rectangles, lines, points and our own bitmap font
(:mod:`firmware.screen.font`), never with anti-aliased or version-dependent primitives (ellipses,
TrueType), so a view renders to the same pixels on every Pillow version and the golden images in
``tests/firmware/golden/`` stay valid. Dice are drawn as pips, as large as the layout allows:
25 pixels on the turn screen, under the KEEP button that marks each of them.

A screen is drawn anew for every change, so what repeats is drawn once and then copied: each
kind of die (size, face, marks, the rattle of a "?") is painted point by point the first time it
is needed and blitted as one image afterwards, as the font does with its lines of text.

Every text fits by design: what a player reads first is in the 5x7 font, the scoreboard and
long details in the 3x5 one (:data:`firmware.screen.font.SMALL`); lines wrap, and a list too narrow
for whole names shows their starts (:func:`_tags`). :func:`trace_layout` records what a render
draws, so that the fit check (``tests/firmware/test_fit.py``) can find a cut, a text off the
panel or an overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache, singledispatch

from PIL import Image, ImageDraw

from firmware.screen.font import FONT, SMALL, BitmapFont
from firmware.screen.views import (
    BannerView,
    DieFace,
    HandOverView,
    MenuView,
    NameEntryView,
    PickerView,
    RevealRow,
    RevealView,
    RollOffView,
    RulesView,
    SeatsView,
    SoftKeys,
    TableCardView,
    Tally,
    TurnView,
    View,
)
from hal.ports import SCREEN_SIZE

__all__ = [
    "KEY_CENTRES",
    "LayoutTrace",
    "Placed",
    "draw_die",
    "render",
    "rules_entry_lines",
    "status_room",
    "trace_layout",
]

WIDTH, HEIGHT = SCREEN_SIZE
#: x of the middle of each KEEP button (and of the die above it).
KEY_CENTRES = (21, 64, 107)
LINE = 9  # one text line of the font
TITLE_HEIGHT = 10
#: Turns on one page of the reveal (the app pages by this many).
REVEAL_LINES = 4
SMALL_HEIGHT = SMALL.height
#: One line of the board, in the small font.
BOARD_LINE = SMALL_HEIGHT + 1

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

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Placed:
    """One element a screen drew, as the fit check sees it.

    ``kind``: "text", "die", "rule" (a separator line), "bar" (a lit area that dark text sits
    in: the title bar, a highlighted row) or "cut" (a text the screen had to shorten, ``text``,
    or leave out, ``text`` empty; ``wanted`` is the whole text). ``box`` is (left, top, right,
    bottom), inclusive: a text's lit pixels, a die's outline, a bar's area. ``dark``: a text
    drawn unlit on a bar.
    """

    kind: str
    box: Box
    text: str = ""
    dark: bool = False
    wanted: str = ""
    #: Which part of the screen cut a text ("board", "reveal row", ...; "" for any other).
    where: str = ""


@dataclass
class LayoutTrace:
    """Everything one :func:`render` drew, and what it had to cut (:func:`trace_layout`)."""

    placed: list[Placed] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Each cut or dropped text, element outside the panel, or overlap, as one line."""
        found: list[str] = []
        for item in self.placed:
            if item.kind == "short":  # the start of a name, long enough (see _tags)
                continue
            if item.kind == "cut":
                shown = f"shown as {item.text!r}" if item.text else "left out"
                where = f" [{item.where}]" if item.where else ""
                found.append(f"cut{where}: {item.wanted!r} {shown}")
                continue
            left, top, right, bottom = item.box
            name = f"{item.kind} {item.text!r}" if item.text else item.kind
            if item.text and not _covered(item.text):
                missing = FONT.missing(item.text) | SMALL.missing(item.text)
                found.append(f"{name}: no glyph for {sorted(missing)}")
            if left < 0 or top < 0 or right >= WIDTH or bottom >= HEIGHT:
                found.append(f"{name} at {item.box} leaves the {WIDTH}x{HEIGHT} panel")
        drawn = [item for item in self.placed if item.kind not in ("cut", "short")]
        for first, second in _touching(drawn):
            problem = _overlap(drawn[first], drawn[second])
            if problem:
                found.append(problem)
        return found


@lru_cache(maxsize=4096)
def _covered(text: str) -> bool:
    """Whether both fonts have a glyph for every character of ``text``."""
    return FONT.covers(text) and SMALL.covers(text)


def _touching(drawn: Sequence[Placed]) -> list[tuple[int, int]]:
    """The pairs (first, second), first < second, of elements whose boxes meet, in that order:
    a sweep from left to right, so that only boxes that share columns are compared."""
    order = sorted(range(len(drawn)), key=lambda index: drawn[index].box[0])
    pairs: list[tuple[int, int]] = []
    for place, index in enumerate(order):
        _, top, right, bottom = drawn[index].box
        for other in order[place + 1 :]:
            box = drawn[other].box
            if box[0] > right:
                break
            if box[1] <= bottom and top <= box[3]:
                pairs.append((index, other) if index < other else (other, index))
    return sorted(pairs)


def _overlap(first: Placed, second: Placed) -> str:
    """Why two elements clash ("" if they do not): they may touch only as text on its bar."""
    a, b = first.box, second.box
    if a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]:
        return ""
    for bar, other in ((first, second), (second, first)):
        if bar.kind == "bar" and other.dark and _inside(other.box, bar.box):
            return ""
        if bar.kind == "bar" and other.kind == "bar":
            return ""
    def label(item: Placed) -> str:
        return f"{item.kind} {item.text!r}" if item.text else item.kind

    return f"overlap: {label(first)} at {a} and {label(second)} at {b}"


def _inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0] and outer[1] <= inner[1]
        and inner[2] <= outer[2] and inner[3] <= outer[3]
    )


#: The trace of the frame being drawn, while :func:`trace_layout` is on.
_TRACE: ContextVar[LayoutTrace | None] = ContextVar("trace", default=None)


@contextmanager
def trace_layout() -> Iterator[LayoutTrace]:
    """Record every element the screens draw inside this block (for the fit check).

    While tracing, the cached pieces (title bar, scoreboard) are painted afresh so that each of
    their texts is recorded.
    """
    trace = LayoutTrace()
    token = _TRACE.set(trace)
    try:
        yield trace
    finally:
        _TRACE.reset(token)


def _note(
    kind: str, box: Box, text: str = "", *, dark: bool = False, wanted: str = "", where: str = ""
) -> None:
    trace = _TRACE.get()
    if trace is not None:
        trace.placed.append(Placed(kind, box, text, dark, wanted, where))


def _fit(
    text: str, room: int, scale: int = 1, *, where: str = "", font: BitmapFont = FONT
) -> str:
    """``text`` if it fits in ``room`` pixels, else cut with "…" (and the cut noted)."""
    shown = font.fit(text, room, scale)
    if shown != text:
        _note("cut", (0, 0, 0, 0), shown, wanted=text, where=where)
    return shown


def _dropped(text: str, *, where: str = "") -> None:
    """Note a text the screen had no room for at all."""
    if text:
        _note("cut", (0, 0, 0, 0), "", wanted=text, where=where)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    *,
    fill: int = 1,
    scale: int = 1,
    font: BitmapFont = FONT,
) -> int:
    """Draw ``text`` at ``xy`` (as :meth:`BitmapFont.draw`), noting its lit pixels' box."""
    end = font.draw(draw, xy, text, fill=fill, scale=scale)
    if text and _TRACE.get() is not None:
        ink = font.render(text, scale).getbbox()
        if ink is not None:
            x, y = xy
            box = (x + ink[0], y + ink[1], x + ink[2] - 1, y + ink[3] - 1)
            _note("text", box, text, dark=fill == 0)
    return end


#: The fewest characters a name keeps where a list shows the start of each name (the board).
MIN_TAG = 3


def _tags(names: Sequence[str], room: int, font: BitmapFont, *, where: str) -> list[str]:
    """Each name whole if it fits in ``room`` pixels, else its longest start that does.

    As on a pub's slate: no "…". Where two starts are the same ("Spieler1", "Spieler10"), each
    keeps its end after a shorter start ("Spie1", "Spi10"). A shortened name is only good enough
    if it keeps at least :data:`MIN_TAG` characters (a computer player's mark counts) and tells
    the players apart; otherwise the cut is noted for the fit check.
    """
    tags = [_start(name, "", room, font) for name in names]
    for tag in {tag for tag in tags if tags.count(tag) > 1}:
        group = [index for index, other in enumerate(tags) if other == tag]
        for index in group:
            end = _distinct_end(names[index], [names[other] for other in group])
            tags[index] = _start(names[index], end, room, font)
    for name, tag in zip(names, tags, strict=True):
        if tag != name:
            kind = "short" if len(tag) >= MIN_TAG else "cut"
            _note(kind, (0, 0, 0, 0), tag, wanted=name, where=where)
    if len(set(tags)) < len(tags):
        _note("cut", (0, 0, 0, 0), ", ".join(tags), wanted=", ".join(names), where=where)
    return tags


def _start(name: str, end: str, room: int, font: BitmapFont) -> str:
    """``name`` if it fits in ``room``, else its longest start that fits with ``end`` after it."""
    if font.width(name) <= room:
        return name
    head = name[: len(name) - len(end)]
    while head and font.width(head + end) > room:
        head = head[:-1]
    return head + end


def _distinct_end(name: str, group: Sequence[str]) -> str:
    """The shortest end of ``name`` that no other name of ``group`` has: its number if it ends in
    one ("10" of "Spieler10"), else as many last letters as it takes."""
    digits = len(name) - len(name.rstrip("0123456789"))
    for length in range(max(digits, 1), len(name) + 1):
        end = name[-length:]
        if all(not other.endswith(end) or other == name for other in group):
            return end
    return name


def _bar(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A lit area for dark text (a title bar, a highlighted row)."""
    draw.rectangle(box, fill=1)
    _note("bar", box)


def _rule(draw: ImageDraw.ImageDraw, y: int) -> None:
    """A separator line across the panel."""
    draw.line((0, y, WIDTH - 1, y), fill=1)
    _note("rule", (0, y, WIDTH - 1, y))


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
    if _TRACE.get() is not None:  # paint afresh, so that the trace sees the texts
        _paint_title_bar(draw, left, right, _MARK.get())
        return
    draw.bitmap((0, 0), _title_mask(left, right, _MARK.get()), fill=1)


@lru_cache(maxsize=512)
def _title_mask(left: str, right: str, mark: str) -> Image.Image:
    mask = Image.new("1", (WIDTH, TITLE_HEIGHT), 0)
    _paint_title_bar(ImageDraw.Draw(mask), left, right, mark)
    return mask


def _paint_title_bar(draw: ImageDraw.ImageDraw, left: str, right: str, mark: str) -> None:
    _bar(draw, (0, 0, WIDTH - 1, TITLE_HEIGHT - 1))
    # With the mark, the right text and then the mark too go to the small font if the left one
    # would not fit beside them (a computer player's ten-letter name, "Throw 1/3" and "REF").
    fonts = [(FONT, FONT), (FONT, SMALL), (SMALL, SMALL)] if mark else [(FONT, FONT)]
    for mark_font, right_font in fonts:
        end = WIDTH - (mark_font.width(mark) + 4 if mark else 0)
        room = end - 2 - (right_font.width(right) + 6 if right else 0) - 2
        if FONT.width(left) <= room:
            break
    if mark:
        draw.rectangle((end, 0, WIDTH - 1, TITLE_HEIGHT - 1), fill=0)
        mark_y = 1 + FONT.ascent - mark_font.ascent
        mark_font.draw(draw, (end + 2, mark_y), mark, fill=1)
    _text(draw, (2, 1), _fit(left, room), fill=0)
    if right:
        right_x = end - 2 - right_font.width(right)
        right_y = 1 + FONT.ascent - right_font.ascent
        _text(draw, (right_x, right_y), right, fill=0, font=right_font)


def _centred(
    draw: ImageDraw.ImageDraw, y: int, text: str, *, scale: int = 1, fill: int = 1
) -> None:
    text = _fit(text, WIDTH - 2, scale)
    _text(draw, ((WIDTH - FONT.width(text, scale)) // 2, y), text, fill=fill, scale=scale)


def _soft_keys(draw: ImageDraw.ImageDraw, keys: SoftKeys) -> None:
    """Labels above the three KEEP buttons, on the bottom line, under a separator."""
    if not any(keys):
        return
    _rule(draw, 53)
    slot = WIDTH // 3
    for centre, label in zip(KEY_CENTRES, keys, strict=True):
        if label:
            label = _fit(label, slot - 2)
            x = min(max(centre - FONT.width(label) // 2, 0), WIDTH - FONT.width(label))
            _text(draw, (x, 55), label)


def _units(text: str, width: int, font: BitmapFont) -> list[str]:
    """The words of ``text`` as a line break may part them: a parenthesis that fits a line is
    one unit ("(Regel: 13)" never ends a line with "(Regel:")."""
    units: list[str] = []
    group: list[str] | None = None
    for word in text.split():
        if group is None and word.startswith("(") and ")" not in word:
            group = [word]
        elif group is not None:
            group.append(word)
            if ")" in word:
                joined = " ".join(group)
                units += [joined] if font.width(joined) <= width else group
                group = None
        else:
            units.append(word)
    return units + (group or [])


def _split(text: str, width: int, font: BitmapFont = FONT) -> list[str]:
    """Greedy word wrap in ``font``'s metrics, all lines (a word wider than ``width`` stays)."""
    lines: list[str] = []
    current = ""
    for word in _units(text, width, font):
        candidate = f"{current} {word}" if current else word
        if font.width(candidate) <= width or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
    if current:
        lines.append(current)
    return lines


def _wrap(
    text: str, width: int, max_lines: int, *, where: str = "", font: BitmapFont = FONT
) -> list[str]:
    """Greedy word wrap in the font's metrics; the last line is cut with "…" if needed."""
    lines: list[str] = []
    current = ""
    words = _units(text, width, font)
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if font.width(candidate) <= width:
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
    for line in lines[max_lines:]:
        _dropped(line, where=where)
    return [_fit(line, width, where=where, font=font) for line in lines[:max_lines]]


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
    _note("die", (x, y, x + size - 1, y + size - 1 + (2 if face.fixed else 0)))


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


def _board(draw: ImageDraw.ImageDraw, board: Sequence[Tally], lines: int) -> None:
    """Everyone's Deckel at the bottom, in ``lines`` rows of equal slots: name, then the count.

    The current player's slot is inverted; a player who is out is struck through. One line is
    written in the big font if every name fits whole beside its count, else (and always on two
    or three lines) in the small font, each name whole or its start (:func:`_tags`).
    """
    if not board:
        return
    if _TRACE.get() is not None:  # paint afresh, so that the trace sees the names
        big = _board_is_big(tuple(board), lines)
        _paint_board(draw, board, _board_top(lines, big), lines, big)
        return
    mask, top = _board_mask(tuple(board), lines)
    draw.bitmap((0, top - 1), mask, fill=1)


def _board_is_big(board: tuple[Tally, ...], lines: int) -> bool:
    slot = WIDTH // len(board)
    return lines == 1 and all(
        FONT.width(tally.name) + FONT.width(str(tally.deckel)) + 7 <= slot for tally in board
    )


def _board_top(lines: int, big: bool) -> int:
    return HEIGHT - lines * (LINE if big else BOARD_LINE)


@lru_cache(maxsize=256)
def _board_mask(board: tuple[Tally, ...], lines: int) -> tuple[Image.Image, int]:
    """The board's lit pixels from the row above it down (an inverted slot starts there), and
    the row of its first line."""
    big = _board_is_big(board, lines)
    mask = Image.new("1", (WIDTH, lines * (LINE if big else BOARD_LINE) + 1), 0)
    _paint_board(ImageDraw.Draw(mask), board, 1, lines, big)
    return mask, _board_top(lines, big)


def _paint_board(
    draw: ImageDraw.ImageDraw, board: Sequence[Tally], top: int, lines: int, big: bool
) -> None:
    per_line = -(-len(board) // lines)
    slot = WIDTH // per_line
    font, pitch = (FONT, LINE) if big else (SMALL, BOARD_LINE)
    # Room for two digits whatever the count, so that a name keeps its length as Deckel come in.
    room = slot - SMALL.width("00") - 8
    names = [tally.name for tally in board]
    tags = names if big else _tags(names, room, SMALL, where="board")
    for index, (tally, name) in enumerate(zip(board, tags, strict=True)):
        line, column = divmod(index, per_line)
        x, y = column * slot, top + line * pitch
        count = str(tally.deckel)
        ink = 1
        if tally.current:
            _bar(draw, (x, y - 1, x + slot - 3, y + pitch - 1))
            ink = 0
        _text(draw, (x + 1, y), name, fill=ink, font=font)
        _text(draw, (x + slot - 4 - font.width(count), y), count, fill=ink, font=font)
        if tally.out:
            middle = 3 if big else 2
            draw.line((x + 1, y + middle, x + slot - 4, y + middle), fill=ink)


def _board_lines(board: Sequence[Tally]) -> int:
    """Lines of the board: four players a line at most (three lines for nine or ten)."""
    return -(-len(board) // 4) if len(board) > 4 else 1


# --- the screens --------------------------------------------------------------------------------


def status_room(right_text: str) -> int:
    """Pixels the turn screen's status line (where a throw's name stands) leaves beside
    ``right_text`` at its right end (the pot, or "weiter ▶"; "" leaves the whole line, as a
    notice takes it)."""
    return WIDTH - FONT.width(right_text) - 8 if right_text else WIDTH - 2


@_draw.register
def _turn(view: TurnView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.player, view.throw_text)
    lines = _board_lines(view.board)
    # Up to eight players the board takes one or two small lines under full-size dice; nine or
    # ten take three, and the dice shrink.
    size, top = (25, 12) if lines <= 2 else (17, 12)
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
    status_y = top + size + 3
    pot_width = FONT.width(view.pot_text)
    room = status_room(view.pot_text)
    status = view.status
    if FONT.width(status) > room:
        status = status.replace("Hausnummer ", "Hausnr. ")  # "Hausnummer 641 weiter ▶" is too wide
    _text(draw, (1, status_y), _fit(status, room, where="status"))
    _text(draw, (WIDTH - 1 - pot_width, status_y), view.pot_text)
    _board(draw, view.board, lines)


@_draw.register
def _hand_over(view: HandOverView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.info)
    lines = _board_lines(view.board)
    # A bigger table's board takes more lines: the name then stays at scale 1 (and with three
    # lines the dice shrink), so that the prompt keeps its line above the board.
    big = lines > 1
    scale = 2 if not big and FONT.width(view.player, 2) <= WIDTH - 4 else 1
    _centred(draw, 12 if scale == 2 else (11 if big else 15), view.player, scale=scale)
    size, die_y, prompt_y = ((17, 28, 45), (17, 21, 39), (13, 20, 33))[min(lines, 3) - 1]
    if view.shown:
        step = size + 3
        x = WIDTH - len(view.shown) * step + 2
        _text(draw, (1, die_y + (size - 7) // 2), _fit(view.note, x - 4, where="hand-over"))
        for face in view.shown:
            draw_die(draw, x, die_y, size, face)
            x += step
    else:
        _centred(draw, die_y + (size - 7) // 2 if big else 32, view.note)
    _centred(draw, prompt_y, view.hint)
    _board(draw, view.board, lines)


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
    # Two columns (five players or more) are written in the small font.
    font = FONT if columns == 1 else SMALL
    pitch = LINE if columns == 1 else BOARD_LINE + 1
    dice_room = max(font.width("666"), font.width("…"))
    tags = _tags([name for name, _, _ in entries], width - dice_room - 8, font, where="roll-off")
    for index, ((_, dice, lead), name) in enumerate(zip(entries, tags, strict=True)):
        column, line = divmod(index, per_column)
        x, y = column * width, 12 + line * pitch
        ink = 1
        if lead:
            _bar(draw, (x, y - 1, x + width - 2, y + font.height - (1 if columns == 1 else 0)))
            ink = 0
        dice = dice.replace("–", "-")
        dice_width = font.width(dice)
        _text(draw, (x + 2, y), name, fill=ink, font=font)
        _text(draw, (x + width - 3 - dice_width, y), dice, fill=ink, font=font)
    _rule(draw, 53)
    _centred(draw, 55, view.message)


@_draw.register
def _reveal(view: RevealView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.page_text)
    # Four turns a page (the first right under the title bar), then two lines for the outcome:
    # where the Deckel went, and who is out.
    rows = view.rows[:REVEAL_LINES]
    font, short = _reveal_throws(rows)
    for index, row in enumerate(rows):
        y = TITLE_HEIGHT + index * LINE
        ink = 1
        if row.mark < 0:
            _bar(draw, (0, y, WIDTH - 1, y + LINE - 1))
            ink = 0
        if row.mark:
            _text(draw, (1, y), "▲" if row.mark > 0 else "▼", fill=ink)
        throw = row.throw.replace("Hausnummer ", "Hausnr. ") if short else row.throw
        throw_width = font.width(throw)
        name = _fit(row.name, WIDTH - throw_width - 16, where="reveal row")
        _text(draw, (9, y), name, fill=ink)
        if row.out:
            draw.line((9, y + 3, 9 + FONT.width(name), y + 3), fill=ink)
        baseline = FONT.ascent - font.ascent
        _text(draw, (WIDTH - 2 - throw_width, y + baseline), throw, fill=ink, font=font)
    # The outcome and how to go on (the hint, a line of the small font at the bottom) share the
    # last 18 rows: the outcome in one line of the big font, else in the small one; an outcome
    # of three small lines (long names out) takes the hint's row too.
    top = TITLE_HEIGHT + REVEAL_LINES * LINE
    hint = view.hint
    parts = view.outcome.split(" · ")
    outcome = [line for part in parts for line in _split(part, WIDTH - 2)]
    font, pitch = FONT, LINE
    room = (HEIGHT - top - (SMALL_HEIGHT if hint else 0)) // pitch
    if len(outcome) > room:
        outcome = [line for part in parts for line in _split(part, WIDTH - 2, SMALL)]
        font, pitch = SMALL, SMALL_HEIGHT
        room = (HEIGHT - top) // pitch
        if len(outcome) >= room:
            hint = ""
        else:
            room -= 1
    for line in outcome[room:]:
        _dropped(line, where="reveal outcome")
    for index, line in enumerate(outcome[:room]):
        line = _fit(line, WIDTH - 2, where="reveal outcome", font=font)
        _text(draw, (1, top + index * pitch), line, font=font)
    if hint:
        hint = _fit(hint, WIDTH - 2, where="reveal hint", font=SMALL)
        _text(draw, ((WIDTH - SMALL.width(hint)) // 2, HEIGHT - SMALL_HEIGHT), hint, font=SMALL)


def _reveal_throws(rows: Sequence[RevealRow]) -> tuple[BitmapFont, bool]:
    """The font of the throws' column on a reveal page, and whether a Hausnummer is shortened.

    A long name beside a long throw ("Straße 6-5-4") puts the column in the small font, and
    if that is not enough, a Hausnummer is written as the pub says it short ("Hausnr. 642");
    the whole column alike, so that the throws line up.
    """
    room = WIDTH - 16
    for font, short in ((FONT, False), (SMALL, False), (SMALL, True)):
        throws = [r.throw.replace("Hausnummer ", "Hausnr. ") if short else r.throw for r in rows]
        pairs = zip(rows, throws, strict=True)
        if all(FONT.width(row.name) + font.width(throw) <= room for row, throw in pairs):
            return font, short
    return SMALL, True


@_draw.register
def _banner(view: BannerView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.aside)
    bottom = 53 if any(view.keys) else HEIGHT
    note = _wrap(view.note, WIDTH - 2, 1, where="banner note", font=SMALL) if view.note else []
    if note:
        bottom -= SMALL_HEIGHT + 3  # the note's line and a gap above it
    lines = [wrapped for line in view.lines for wrapped in _wrap(line, WIDTH - 2, 4)]
    y = 14
    if view.headline:
        # The headline is big unless the lines under it need its room.
        big = FONT.width(view.headline, 2) <= WIDTH - 4 and 32 + len(lines) * LINE <= bottom
        scale = 2 if big else 1
        y = 14 if big or len(lines) < 3 else 12
        _centred(draw, y, view.headline, scale=scale)
        y += 18 if scale == 2 else 10
    shown = max((bottom - y) // LINE, 0)
    for line in lines[:shown]:
        _centred(draw, y, line)
        y += LINE
    for line in lines[shown:]:
        _dropped(line)
    for line in note:
        _text(draw, ((WIDTH - SMALL.width(line)) // 2, bottom + 1), line, font=SMALL)
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
            _bar(draw, (0, y, WIDTH - 8, y + 9))
            ink = 0
        _text(draw, (3, y + 1), _fit(view.items[index], WIDTH - 14), fill=ink)
    if first > 0:
        _text(draw, (WIDTH - 5, 11), "▲")
    if first + visible < len(view.items):
        _text(draw, (WIDTH - 5, 44), "▼")
    _soft_keys(draw, view.keys)


@_draw.register
def _picker(view: PickerView, draw: ImageDraw.ImageDraw) -> None:
    _title_bar(draw, view.title, view.step)
    # The detail in two lines under a big value; if it needs more, three lines of the small font;
    # if it needs more still, the value at scale 1 and four small lines.
    width = WIDTH - 4
    layouts = (
        (FONT, 2, 33, LINE, 2),
        (SMALL, 3, 33, BOARD_LINE, 2),
        (SMALL, 4, 23, BOARD_LINE, 1),
        (SMALL, 5, 22, SMALL_HEIGHT, 1),
    )
    layout = next(
        (layout for layout in layouts if len(_split(view.detail, width, layout[0])) <= layout[1]),
        layouts[-1],
    )
    font, room, top, pitch, scale = layout
    if FONT.width(view.value, scale) > WIDTH - 24:
        scale = 1
    value = _fit(view.value, WIDTH - 24, scale)
    y = (14 if top > 30 else 12) if scale == 2 else (18 if top > 30 else 12)
    _centred(draw, y, value, scale=scale)
    if view.keys[0] or view.keys[1]:  # the value can be changed: arrows either side
        arrow_y = y + (4 if scale == 2 else 0)
        _text(draw, (2, arrow_y), "◀")
        _text(draw, (WIDTH - 6, arrow_y), "▶")
    for index, line in enumerate(_wrap(view.detail, width, room, where="picker detail",
                                       font=font)):
        x = (WIDTH - font.width(line)) // 2
        _text(draw, (x, top + index * pitch), line, font=font)
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
            _bar(draw, (0, y, WIDTH - 8, y + 9))
            ink = 0
        # A long name beside a long role: the role in the small font.
        font = FONT if FONT.width(row.name) + FONT.width(row.role) <= WIDTH - 18 else SMALL
        role_width = font.width(row.role)
        baseline = FONT.ascent - font.ascent
        _text(draw, (WIDTH - 10 - role_width, y + 1 + baseline), row.role, fill=ink, font=font)
        name = _fit(row.name, WIDTH - 18 - role_width, where="seats")
        _text(draw, (3, y + 1), name, fill=ink)
    if first > 0:
        _text(draw, (WIDTH - 5, 11), "▲")
    if first + visible < len(view.rows):
        _text(draw, (WIDTH - 5, 44), "▼")
    _soft_keys(draw, view.keys)


#: Where the name being spelt starts.
_ENTRY_X = 3


def _entry_end(text: str, letter: str, scale: int) -> int:
    """The x just after the name and its inverted letter box, drawn at ``scale``."""
    end = _ENTRY_X + FONT.width(text, scale)
    if letter:
        end += (scale if text else 0) + FONT.width(letter, scale) + 2 * scale
    return end


@_draw.register
def _name_entry(view: NameEntryView, draw: ImageDraw.ImageDraw) -> None:
    """The name so far in large letters, the letter KEEP_2 would take inverted at the cursor,
    the key map of FLIP, STAND and a long press below, the KEEP labels at the bottom."""
    _title_bar(draw, view.title, view.count)
    scale = 2 if _entry_end(view.text, view.letter, 2) <= WIDTH else 1
    y = 13 if scale == 2 else 17
    x = _text(draw, (_ENTRY_X, y), view.text, scale=scale)
    if view.letter:
        x += scale if view.text else 0
        box = FONT.width(view.letter, scale) + 2 * scale
        _bar(draw, (x, y - 2, x + box - 1, y + FONT.height * scale - 1))
        _text(draw, (x + scale, y), view.letter, fill=0, scale=scale)
    legend = list(view.legend)
    for index, line in enumerate(legend):
        line_y = 34 + index * (LINE + 1)
        if view.alert and index == len(legend) - 1:
            _bar(draw, (0, line_y - 1, WIDTH - 1, line_y + LINE - 1))
            _centred(draw, line_y, view.alert, fill=0)
        else:
            _centred(draw, line_y, line)
    _soft_keys(draw, view.keys)


#: Where a rules entry's first line and its second line start, and where both end (the scroll
#: marks sit to the right of that).
_RULES_X = (2, 6)
_RULES_END = WIDTH - 6


def rules_entry_lines(entry: str) -> list[str]:
    """The lines a rules entry takes on the rules screen: at most two, the second indented (a
    longer entry is cut with "…", which the fit test refuses)."""
    words = entry.split()
    lines: list[str] = []
    while words and len(lines) < 2:
        room = _RULES_END - _RULES_X[len(lines)]
        count = 1
        while count < len(words) and FONT.width(" ".join(words[: count + 1])) <= room:
            count += 1
        if len(lines) == 1:
            count = len(words)
        lines.append(FONT.fit(" ".join(words[:count]), room))
        words = words[count:]
    return lines


@_draw.register
def _rules(view: RulesView, draw: ImageDraw.ImageDraw) -> None:
    """The rules in force: whole entries from ``first`` on as far as they fit, a second line of
    an entry indented; ▲ and ▼ say that more lies above or below."""
    _title_bar(draw, view.title, f"{view.first + 1}/{len(view.entries)}")
    bottom = 53 if any(view.keys) else HEIGHT
    y, index = 11, view.first
    while index < len(view.entries):
        lines = rules_entry_lines(view.entries[index])
        if y + len(lines) * LINE > bottom + 1 and index > view.first:
            break
        for number, line in enumerate(lines):
            _text(draw, (_RULES_X[number], y), line)
            y += LINE
        index += 1
    if view.first > 0:
        _text(draw, (WIDTH - 5, 11), "▲")
    if index < len(view.entries):
        _text(draw, (WIDTH - 5, 44), "▼")
    _soft_keys(draw, view.keys)


@_draw.register
def _table_card(view: TableCardView, draw: ImageDraw.ImageDraw) -> None:
    """The players in the small font (three lines at most), then the time left and the report
    state, each in the big font where it fits and in the small one where it does not."""
    _title_bar(draw, view.title)
    players = ", ".join(view.players)
    y = 12
    for line in _wrap(players, WIDTH - 2, 3, where="players", font=SMALL):
        _text(draw, (1, y), line, font=SMALL)
        y += SMALL_HEIGHT + 1
    top = min(y + 2, 32)  # the time left and the report follow the players' lines
    for y, line in ((top, view.clock), (top + 10, view.report)):
        font = FONT if FONT.width(line) <= WIDTH - 2 else SMALL
        shown = _fit(line, WIDTH - 2, font=font)
        _text(draw, ((WIDTH - font.width(shown)) // 2, y + (0 if font is FONT else 2)), shown,
              font=font)
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
    NameEntryView: _name_entry,
    RulesView: _rules,
    TableCardView: _table_card,
}
