"""Our own bitmap font: crisp at one bit per pixel and identical on every Pillow version.

Anti-aliased TrueType text turns to mush when thresholded to a 1-bit OLED, and its rasterisation
changes between FreeType and Pillow versions, which would break the golden images. So the screens
use the glyphs drawn below: a 5x7 cell with two rows of descender (9 rows in all), ASCII,
the German letters ÄÖÜäöüß and a few symbols (→ · … ▲ ▼ ◀ ▶ ×, and ⚙ marking computer players).
Letters are proportional (blank columns trimmed, one column of spacing); digits keep their full
width so that numbers line up. Scale 2 doubles every pixel for headlines.

A second sheet draws the small font (:data:`SMALL`): letters in a 3x5 cell (M and W five wide),
one row of descender, digits three wide; for the scoreboard and details that do not fit in the
big font. It has the characters of the big one but ``# $ @ ~``. (A bitmap font that Pillow
loads, such as the public-domain misc-fixed 4x6 in Debian's ``xfonts-base``, is monospaced at
four pixels a character and would be a file to install on the Pi; these glyphs are proportional
and live in this module.)

The sheets are the source of truth: each block is a line of characters followed by their rows
(nine, or six for the small font), ``#`` for a lit pixel. To change a glyph, edit its picture;
``tests/firmware/test_text.py`` checks the sheets, and the golden images show the result.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

__all__ = ["FONT", "SMALL", "BitmapFont"]

_SHEET = """
A     B     C     D     E     F     G     H
.###. ####. .###. ####. ##### ##### .###. #...#
#...# #...# #...# #...# #.... #.... #...# #...#
#...# #...# #.... #...# #.... #.... #.... #...#
##### ####. #.... #...# ####. ####. #.### #####
#...# #...# #.... #...# #.... #.... #...# #...#
#...# #...# #...# #...# #.... #.... #...# #...#
#...# ####. .###. ####. ##### #.... .#### #...#
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

I     J     K     L     M     N     O     P
.###. ..### #...# #.... #...# #...# .###. ####.
..#.. ...#. #..#. #.... ##.## ##..# #...# #...#
..#.. ...#. #.#.. #.... #.#.# #.#.# #...# #...#
..#.. ...#. ##... #.... #.#.# #..## #...# ####.
..#.. ...#. #.#.. #.... #...# #...# #...# #....
..#.. #..#. #..#. #.... #...# #...# #...# #....
.###. .##.. #...# ##### #...# #...# .###. #....
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

Q     R     S     T     U     V     W     X
.###. ####. .#### ##### #...# #...# #...# #...#
#...# #...# #.... ..#.. #...# #...# #...# #...#
#...# #...# #.... ..#.. #...# #...# #...# .#.#.
#...# ####. .###. ..#.. #...# #...# #.#.# ..#..
#.#.# #.#.. ....# ..#.. #...# #...# #.#.# .#.#.
#..#. #..#. ....# ..#.. #...# .#.#. #.#.# #...#
.##.# #...# ####. ..#.. .###. ..#.. .#.#. #...#
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

Y     Z     Ä     Ö     Ü     ß     0     1
#...# ##### #...# #...# .#.#. .##.. .###. ..#..
#...# ....# .###. .###. ..... #..#. #...# .##..
.#.#. ...#. #...# #...# #...# #..#. #..## ..#..
..#.. ..#.. #...# #...# #...# #.#.. #.#.# ..#..
..#.. .#... ##### #...# #...# #..#. ##..# ..#..
..#.. #.... #...# #...# #...# #..#. #...# ..#..
..#.. ##### #...# .###. .###. #.##. .###. .###.
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

2     3     4     5     6     7     8     9
.###. ##### ...#. ##### ..##. ##### .###. .###.
#...# ...#. ..##. #.... .#... ....# #...# #...#
....# ..#.. .#.#. ####. #.... ...#. #...# #...#
...#. ...#. #..#. ....# ####. ..#.. .###. .####
..#.. ....# ##### ....# #...# .#... #...# ....#
.#... #...# ...#. #...# #...# .#... #...# ...#.
##### .###. ...#. .###. .###. .#... .###. .##..
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

a     b     c     d     e     f     g     h
..... #.... ..... ....# ..... ..##. ..... #....
..... #.... ..... ....# ..... .#... ..... #....
.###. ####. .###. .#### .###. ####. .#### ####.
....# #...# #.... #...# #...# .#... #...# #...#
.#### #...# #.... #...# ##### .#... #...# #...#
#...# #...# #...# #...# #.... .#... #...# #...#
.#### ####. .###. .#### .###. .#... .#### #...#
..... ..... ..... ..... ..... ..... ....# .....
..... ..... ..... ..... ..... ..... .###. .....

i     j     k     l     m     n     o     p
..#.. ...#. #.... .##.. ..... ..... ..... .....
..... ..... #.... ..#.. ..... ..... ..... .....
.##.. ..##. #..#. ..#.. ##.#. ####. .###. ####.
..#.. ...#. #.#.. ..#.. #.#.# #...# #...# #...#
..#.. ...#. ##... ..#.. #.#.# #...# #...# #...#
..#.. ...#. #.#.. ..#.. #.#.# #...# #...# #...#
.###. ...#. #..#. .###. #.#.# #...# .###. ####.
..... #..#. ..... ..... ..... ..... ..... #....
..... .##.. ..... ..... ..... ..... ..... #....

q     r     s     t     u     v     w     x
..... ..... ..... .#... ..... ..... ..... .....
..... ..... ..... .#... ..... ..... ..... .....
.#### #.##. .#### ####. #...# #...# #...# #...#
#...# ##..# #.... .#... #...# #...# #...# .#.#.
#...# #.... .###. .#... #...# #...# #.#.# ..#..
#...# #.... ....# .#..# #..## .#.#. #.#.# .#.#.
.#### #.... ####. ..##. .##.# ..#.. .#.#. #...#
....# ..... ..... ..... ..... ..... ..... .....
....# ..... ..... ..... ..... ..... ..... .....

y     z     ä     ö     ü     !     "     #
..... ..... .#.#. .#.#. .#.#. ..#.. .#.#. .#.#.
..... ..... ..... ..... ..... ..#.. .#.#. .#.#.
#...# ##### .###. .###. #...# ..#.. ..... #####
#...# ...#. ....# #...# #...# ..#.. ..... .#.#.
#...# ..#.. .#### #...# #...# ..#.. ..... #####
#...# .#... #...# #...# #..## ..... ..... .#.#.
.#### ##### .#### .###. .##.# ..#.. ..... .#.#.
....# ..... ..... ..... ..... ..... ..... .....
.###. ..... ..... ..... ..... ..... ..... .....

%     &     '     (     )     *     +     ,
##... .##.. ..#.. ...#. .#... ..... ..... .....
##..# #..#. ..#.. ..#.. ..#.. ..#.. ..... .....
...#. #.#.. ..... .#... ...#. #.#.# ..#.. .....
..#.. .#... ..... .#... ...#. .###. ..#.. .....
.#... #.#.# ..... .#... ...#. #.#.# ##### .....
#..## #..#. ..... ..#.. ..#.. ..#.. ..#.. ..#..
...## .##.# ..... ...#. .#... ..... ..#.. ..#..
..... ..... ..... ..... ..... ..... ..... .#...
..... ..... ..... ..... ..... ..... ..... .....

-     .     /     :     ;     <     =     >
..... ..... ..... ..... ..... ...#. ..... .#...
..... ..... ....# ..... ..... ..#.. ..... ..#..
..... ..... ...#. ..#.. ..#.. .#... ##### ...#.
####. ..... ..#.. ..... ..... #.... ..... ....#
..... ..... .#... ..... ..... .#... ##### ...#.
..... ..... #.... ..... ..#.. ..#.. ..... ..#..
..... ..#.. ..... ..#.. ..#.. ...#. ..... .#...
..... ..... ..... ..... .#... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

?     @     [     ]     _     |     →     ·
.###. .###. .###. .###. ..... ..#.. ..... .....
#...# #...# .#... ...#. ..... ..#.. ..#.. .....
....# #.### .#... ...#. ..... ..#.. ...#. .....
...#. #.#.# .#... ...#. ..... ..#.. ##### .....
..#.. #.### .#... ...#. ..... ..#.. ...#. ..#..
..... #.... .#... ...#. ..... ..#.. ..#.. .....
..#.. .###. .###. .###. ..... ..#.. ..... .....
..... ..... ..... ..... ##### ..#.. ..... .....
..... ..... ..... ..... ..... ..... ..... .....

…     ▲     ▼     ◀     ▶     ×     $     ~
..... ..... ..... ..... ..... ..... ..#.. .....
..... ..... ..... ...#. .#... ..... .#### .....
..... ..#.. ##### ..##. .##.. #...# #.#.. .#..#
..... .###. .###. .###. .###. .#.#. .###. #.##.
..... ##### ..#.. ..##. .##.. ..#.. ..#.# .....
..... ..... ..... ...#. .#... .#.#. ####. .....
#.#.# ..... ..... ..... ..... #...# ..#.. .....
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....

⚙
.....
#.#.#
.###.
##.##
.###.
#.#.#
.....
.....
.....
"""

_SMALL_SHEET = """
A     B     C     D     E     F     G     H
.#... ##... .##.. ##... ###.. ###.. .##.. #.#..
#.#.. #.#.. #.... #.#.. #.... #.... #.... #.#..
###.. ##... #.... #.#.. ##... ##... #.#.. ###..
#.#.. #.#.. #.... #.#.. #.... #.... #.#.. #.#..
#.#.. ##... .##.. ##... ###.. #.... .##.. #.#..
..... ..... ..... ..... ..... ..... ..... .....

I     J     K     L     M     N     O     P
###.. ..#.. #.#.. #.... #...# #..#. .#... ##...
.#... ..#.. #.#.. #.... ##.## ##.#. #.#.. #.#..
.#... ..#.. ##... #.... #.#.# #.##. #.#.. ##...
.#... #.#.. #.#.. #.... #...# #..#. #.#.. #....
###.. .#... #.#.. ###.. #...# #..#. .#... #....
..... ..... ..... ..... ..... ..... ..... .....

Q     R     S     T     U     V     W     X
.#... ##... .##.. ###.. #.#.. #.#.. #...# #.#..
#.#.. #.#.. #.... .#... #.#.. #.#.. #...# #.#..
#.#.. ##... .#... .#... #.#.. #.#.. #.#.# .#...
##... #.#.. ..#.. .#... #.#.. #.#.. #.#.# #.#..
.##.. #.#.. ##... .#... ###.. .#... .#.#. #.#..
..... ..... ..... ..... ..... ..... ..... .....

Y     Z     Ä     Ö     Ü     ß     0     1
#.#.. ###.. #.#.. #.#.. #.#.. ##... ###.. .#...
#.#.. ..#.. .#... .#... ..... #.#.. #.#.. ##...
.#... .#... #.#.. #.#.. #.#.. ##... #.#.. .#...
.#... #.... ###.. #.#.. #.#.. #.#.. #.#.. .#...
.#... ###.. #.#.. .#... ###.. ##... ###.. ###..
..... ..... ..... ..... ..... #.... ..... .....

2     3     4     5     6     7     8     9
##... ##... #.#.. ###.. .##.. ###.. ###.. ###..
..#.. ..#.. #.#.. #.... #.... ..#.. #.#.. #.#..
.#... .#... ###.. ##... ###.. .#... ###.. ###..
#.... ..#.. ..#.. ..#.. #.#.. .#... #.#.. ..#..
###.. ##... ..#.. ##... ###.. .#... ###.. ##...
..... ..... ..... ..... ..... ..... ..... .....

a     b     c     d     e     f     g     h
..... #.... ..... ..#.. ..... .##.. ..... #....
.##.. ##... .##.. .##.. .#... .#... .##.. ##...
#.#.. #.#.. #.... #.#.. ###.. ###.. #.#.. #.#..
#.#.. #.#.. #.... #.#.. #.... .#... .##.. #.#..
.##.. ##... .##.. .##.. .##.. .#... ..#.. #.#..
..... ..... ..... ..... ..... ..... ##... .....

i     j     k     l     m     n     o     p
#.... .#... #.... #.... ..... ..... ..... .....
..... ..... #.#.. #.... ####. ##... .#... ##...
#.... .#... ##... #.... #.#.# #.#.. #.#.. #.#..
#.... .#... #.#.. #.... #.#.# #.#.. #.#.. #.#..
#.... .#... #.#.. #.... #.#.# #.#.. .#... ##...
..... #.... ..... ..... ..... ..... ..... #....

q     r     s     t     u     v     w     x
..... ..... ..... .#... ..... ..... ..... .....
.##.. #.#.. .##.. ###.. #.#.. #.#.. #...# #.#..
#.#.. ##... #.... .#... #.#.. #.#.. #.#.# .#...
#.#.. #.... ..#.. .#... #.#.. #.#.. #.#.# .#...
.##.. #.... ##... ..#.. .##.. .#... .#.#. #.#..
..#.. ..... ..... ..... ..... ..... ..... .....

y     z     ä     ö     ü     !     "     '
..... ..... #.#.. #.#.. #.#.. #.... #.#.. #....
#.#.. ###.. ..... ..... ..... #.... #.#.. #....
#.#.. ..#.. .##.. .#... #.#.. #.... ..... .....
.##.. .#... #.#.. #.#.. #.#.. ..... ..... .....
..#.. ###.. .##.. .#... .##.. #.... ..... .....
##... ..... ..... ..... ..... ..... ..... .....

(     )     *     +     ,     -     .     /
.#... #.... ..... ..... ..... ..... ..... ..#..
#.... .#... #.#.. .#... ..... ..... ..... ..#..
#.... .#... .#... ###.. ..... ###.. ..... .#...
#.... .#... #.#.. .#... ..... ..... ..... #....
.#... #.... ..... ..... .#... ..... #.... #....
..... ..... ..... ..... #.... ..... ..... .....

:     ;     <     =     >     ?     [     ]
..... ..... ..#.. ..... #.... ##... ##... ##...
#.... .#... .#... ###.. .#... ..#.. #.... .#...
..... ..... #.... ..... ..#.. .#... #.... .#...
#.... .#... .#... ###.. .#... ..... #.... .#...
..... #.... ..#.. ..... #.... .#... ##... ##...
..... ..... ..... ..... ..... ..... ..... .....

%     &     _     |     →     ·     …     ×
#.#.. .#... ..... #.... ..... ..... ..... .....
..#.. #.#.. ..... #.... ..#.. ..... ..... #.#..
.#... .#... ..... #.... ####. #.... ..... .#...
#.... #.#.. ..... #.... ..#.. ..... ..... #.#..
#.#.. .##.. ..... #.... ..... ..... #.#.# .....
..... ..... ###.. #.... ..... ..... ..... .....

▲     ▼     ◀     ▶     ⚙
..... ..... ..#.. #.... #.#.#
..#.. ##### .##.. ##... .###.
.###. .###. ###.. ###.. ##.##
##### ..#.. .##.. ##... .###.
..... ..... ..#.. #.... #.#.#
..... ..... ..... ..... .....
"""

#: Rows per glyph: 7 above the baseline, 2 below for descenders (g, j, p, q, y, comma).
GLYPH_ROWS = 9
#: Rows from the top of a glyph to its baseline (the cap height).
ASCENT = 7
#: The small font: 5 rows above the baseline, 1 below.
SMALL_ROWS = 6
_CELL = 5


def _parse_sheet(
    sheet: str, rows_per_glyph: int, space: int, digits: int
) -> dict[str, tuple[str, ...]]:
    """Character -> its rows (strings of "#" and ".", trimmed to the glyph's width).

    Digits keep ``digits`` columns each, so that numbers line up.
    """
    glyphs: dict[str, tuple[str, ...]] = {}
    blocks = [block.splitlines() for block in sheet.strip("\n").split("\n\n")]
    for lines in blocks:
        names = lines[0].split()
        rows = [line.split(" ") for line in lines[1:]]
        if len(rows) != rows_per_glyph or any(len(row) != len(names) for row in rows):
            raise ValueError(f"font sheet block {''.join(names)!r} is malformed")
        for column, name in enumerate(names):
            picture = tuple(row[column] for row in rows)
            if any(len(line) != _CELL or set(line) - {"#", "."} for line in picture):
                raise ValueError(f"glyph {name!r}: every row must be 5 of '#' and '.'")
            if name.isdigit():
                glyphs[name] = tuple(line[:digits] for line in picture)
            else:
                glyphs[name] = _trim(picture)
    glyphs[" "] = ("." * space,) * rows_per_glyph
    return glyphs


def _trim(picture: tuple[str, ...]) -> tuple[str, ...]:
    """Drop blank columns on both sides (proportional spacing)."""
    lit = [c for c in range(_CELL) if any(row[c] == "#" for row in picture)]
    if not lit:
        return picture
    return tuple(row[lit[0] : lit[-1] + 1] for row in picture)


def _glyph_image(picture: tuple[str, ...]) -> Image.Image:
    image = Image.new("1", (len(picture[0]), len(picture)), 0)
    image.putdata([1 if pixel == "#" else 0 for row in picture for pixel in row])
    return image


class BitmapFont:
    """A bitmap font: measure and draw strings, 1 bit per pixel, optionally scaled up."""

    def __init__(
        self,
        sheet: str,
        *,
        rows: int = GLYPH_ROWS,
        ascent: int = ASCENT,
        space: int = 3,
        digits: int = _CELL,
        fallback: str = "?",
    ) -> None:
        self._pictures = _parse_sheet(sheet, rows, space, digits)
        self._glyphs = {name: _glyph_image(p) for name, p in self._pictures.items()}
        self._fallback = fallback
        #: Each glyph's width plus the column of spacing after it.
        self._advance = {name: glyph.width + 1 for name, glyph in self._glyphs.items()}
        self.height = rows
        self.ascent = ascent

    def covers(self, text: str) -> bool:
        """True if every character of ``text`` has a glyph (no fallback needed)."""
        return all(char in self._glyphs for char in text)

    def missing(self, text: str) -> set[str]:
        """The characters of ``text`` that the font lacks."""
        return {char for char in text if char not in self._glyphs}

    def _glyph(self, char: str) -> Image.Image:
        return self._glyphs.get(char) or self._glyphs[self._fallback]

    def width(self, text: str, scale: int = 1) -> int:
        """The width of ``text`` in pixels (no trailing spacing)."""
        return _width(self, text) * scale

    def fit(self, text: str, max_width: int, scale: int = 1) -> str:
        """``text``, cut and ended with "…" if wider than ``max_width``."""
        if self.width(text, scale) <= max_width:
            return text
        while text and self.width(text + "…", scale) > max_width:
            text = text[:-1]
        return text + "…" if text else ""

    def render(self, text: str, scale: int = 1) -> Image.Image:
        """``text`` as a mode "1" mask, ``height * scale`` pixels tall."""
        return _render(self, text, scale)

    def draw(
        self,
        draw: ImageDraw.ImageDraw,
        xy: tuple[int, int],
        text: str,
        *,
        fill: int = 1,
        scale: int = 1,
    ) -> int:
        """Draw ``text`` with its top-left corner at ``xy``; returns the x after its end."""
        if not text:
            return xy[0]
        mask = self.render(text, scale)
        draw.bitmap(xy, mask, fill=fill)
        return xy[0] + mask.width


@lru_cache(maxsize=4096)
def _width(font: BitmapFont, text: str) -> int:
    if not text:
        return 0
    advance, fallback = font._advance, font._advance[font._fallback]
    return sum(advance.get(char, fallback) for char in text) - 1


@lru_cache(maxsize=1024)
def _render(font: BitmapFont, text: str, scale: int) -> Image.Image:
    width = max(font.width(text), 1)
    image = Image.new("1", (width, font.height), 0)
    x = 0
    for char in text:
        glyph = font._glyph(char)
        image.paste(glyph, (x, 0))
        x += glyph.width + 1
    if scale != 1:
        image = image.resize((width * scale, font.height * scale), Image.Resampling.NEAREST)
    return image


#: The font of every screen.
FONT = BitmapFont(_SHEET)
#: The small font (3x5 letters, 4 pixels a character): the scoreboard, long details, and where a
#: line of :data:`FONT` has no room. Same characters as :data:`FONT`.
SMALL = BitmapFont(_SMALL_SHEET, rows=SMALL_ROWS, ascent=5, space=2, digits=3)
