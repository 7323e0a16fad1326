"""`make docs-images`: every picture the README and docs show is made by it, and the committed
pictures are what it makes.

Compared as decoded pixels and frame times, not bytes; the OLED's pictures exactly (its fonts
are the firmware's own bitmaps). Two kinds of picture draw text with fonts of the system:

* the page's screenshots (Chromium): they may differ in a small share of their pixels;
* the Spielberichtsbogen (``sheet-de.png``, its PDF rendered by poppler): the PDF names
  Helvetica without embedding it, and poppler draws it with whatever fontconfig finds (DejaVu
  Sans, Liberation Sans, or Nimbus Sans where ``fonts-urw-base35`` is installed). So the sheet
  is compared by its layout, which no font changes: the PDF's text layer (``pdftotext -bbox``,
  every word and its box, from Helvetica's own metrics) against ``golden/sheet-de.words.txt``,
  and the picture's pixels outside those words (the rules, the boxes, the fills) exactly. A
  moved column moves both.

Each picture is made by its own test (the page's pictures from one game share it, made once);
the five screenshots of that game, whose computer players think for half a minute, are in the
slow selection, and so are the Spieltag card's (a game played in the page) and the entry card's
(a device played to its card, then a window's screenshot): `make test` makes every other
picture, and measures the entry card in Chromium at every screen (tests/web/test_layout.py).
The pictures taken in Chromium are taken in the session's one browser (the ``chromium`` fixture of
tests/conftest.py), lent to their makers; the command's own run, where each maker starts its own
browser, is the one of every other picture.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageSequence

from sim.pictures.browser import SHOTS, browser_missing
from sim.pictures.docs import DEMO_GAME, DEMO_SCRIPT, PICTURES, ROOT, main, make_pictures
from tests.chromium import SharedChromium

pytest.importorskip("pygame")

#: Why the page's pictures cannot be made here (no Chromium), or None (.ci/run installs it).
BROWSER_MISSING = browser_missing()
#: The page's pictures taken from one game with computer players (sim.pictures.browser.SHOTS).
ONE_GAMES_SHOTS = {f"docs/img/{shot.name}" for shot in SHOTS}

#: The Spieltag card's picture plays a game in the page to fill its standings (seconds of
#: Chromium), the entry card's a device to its card (a second and more): the slow selection
#: makes them; the cards themselves are tests/web/test_spieltag_browser.py's and
#: tests/web/test_entry_page.py's, their fit at every screen tests/web/test_layout.py's.
SLOW_PICTURES = ONE_GAMES_SHOTS | {"docs/img/web-spieltag.png", "docs/img/web-entry-de.png"}

#: A picture in Markdown, ![text](path), or in HTML, <img src="path">.
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)|<img[^>]*\ssrc=\"([^\"]+)\"")
REMAKE = "run `make docs-images`, look at the pictures, and commit them"
GOLDEN = Path(__file__).parent / "golden"
SHEET = "docs/img/sheet-de.png"
SHEET_WORDS = GOLDEN / "sheet-de.words.txt"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this module's tests make their pictures (the page's game's five share one run)."""
    return tmp_path_factory.mktemp("docs-images")


def made(folder: Path, kept: str, chromium: SharedChromium | None = None) -> Path:
    """The picture kept at ``kept``, made into ``folder`` (once): by the command, or, given the
    session's ``chromium``, by its maker in a window of that browser."""
    fresh = folder / Path(kept).name
    if not fresh.exists():
        if chromium is None:
            assert main(["--into", str(folder), fresh.name]) == 0
        else:
            with chromium.window(1000, 900) as browser:  # each maker sets the size it needs
                assert make_pictures(folder, [fresh.name], browser) == [fresh]
    return fresh


def shown_in_the_docs() -> set[Path]:
    """Every local picture that README.md and docs/*.md show."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    shown = set()
    for page in pages:
        for match in IMAGE_LINK.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if "://" not in target:
                shown.add((page.parent / target).resolve())
    return shown


def test_every_picture_in_the_docs_is_made_by_the_command() -> None:
    registered = {(ROOT / path).resolve() for path in PICTURES}
    shown = shown_in_the_docs()
    assert shown, "no picture found in the README and docs: is the link pattern still right?"
    assert shown <= registered, f"shown but made by nothing: {sorted(shown - registered)}"
    kept = {path.resolve() for path in (ROOT / "docs" / "img").iterdir()}
    assert kept <= registered, f"kept in docs/img but made by nothing: {sorted(kept - registered)}"


#: The page's screenshots come from whatever Chromium Debian ships that day, whose text smoothing
#: may change a little from one release (or CPU) to the next: they may differ in this share of
#: their pixels (by more than a faint edge), no more. A changed layout moves far more.
BROWSER_TOLERANCE = 0.01


def _share_of_pixels_that_differ(committed: Path, fresh: Path) -> float:
    """The share of pixels of two same-sized pictures that differ by more than a faint edge."""
    with Image.open(committed) as a, Image.open(fresh) as b:
        difference = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    marked = difference.point(lambda level: 255 if level > 48 else 0)
    histogram = marked.histogram()
    return histogram[255] / (marked.width * marked.height)


def frames(path: Path) -> list[tuple[bytes, int]]:
    """The decoded pictures of an image (one, or every frame of a GIF) with their durations."""
    with Image.open(path) as image:
        return [
            (frame.convert("RGB").tobytes(), int(frame.info.get("duration", 0)))
            for frame in ImageSequence.Iterator(image)
        ]


def _picture_params() -> list[object]:
    """Every kept picture but the sheet (compared by its layout, below); those of the page's
    one game and the Spieltag card's in the slow selection."""
    return [
        pytest.param(kept, marks=pytest.mark.slow) if kept in SLOW_PICTURES else kept
        for kept in sorted(PICTURES)
        if kept != SHEET
    ]


@pytest.mark.parametrize("kept", _picture_params())
def test_the_committed_picture_is_what_the_command_makes(
    folder: Path, kept: str, request: pytest.FixtureRequest
) -> None:
    chromium = None
    if PICTURES[kept].browser:
        if BROWSER_MISSING:
            pytest.skip(BROWSER_MISSING)
        chromium = request.getfixturevalue("chromium")
    committed, fresh = ROOT / kept, made(folder, kept, chromium)
    with Image.open(committed) as a, Image.open(fresh) as b:
        assert a.size == b.size, f"{kept} is {a.size}, the command makes {b.size}: {REMAKE}"
    if PICTURES[kept].browser:
        share = _share_of_pixels_that_differ(committed, fresh)
        assert share <= BROWSER_TOLERANCE, f"{kept}: {share:.2%} of its pixels differ: {REMAKE}"
        return
    old, new = frames(committed), frames(fresh)
    assert len(old) == len(new), f"{kept} has {len(old)} frames, the command makes {len(new)}"
    differ = [index for index, pair in enumerate(zip(old, new, strict=True)) if pair[0] != pair[1]]
    assert not differ, f"{kept}: {len(differ)} of {len(new)} frames differ: {REMAKE}"


# -- the Spielberichtsbogen: its layout, whatever font the system draws Helvetica with -------------

#: Pixels around each word's box (at the picture's 80 dpi) that its glyphs may reach: a font
#: wider than Helvetica (DejaVu Sans) reaches a pixel or two past Helvetica's metrics.
WORD_MARGIN_PX = 3
#: A pixel differs when it changes by more than a faint edge (as the screenshots'). Outside the
#: words nothing may differ.
FAINT = 48

Word = tuple[float, float, float, float, str]


def sheet_words(pdf: Path) -> tuple[tuple[float, float], list[Word]]:
    """The page's size and every word of the PDF's text layer with its box, in points from the
    top left, as poppler's ``pdftotext -bbox`` reads them (from the fonts' metrics, which are
    Helvetica's whatever font draws them)."""
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext is missing: apt-get install poppler-utils (.ci/run does)")
    html = subprocess.run(
        [pdftotext, "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', html)
    assert page is not None, html[:500]
    words = [
        (round(float(x0), 1), round(float(y0), 1), round(float(x1), 1), round(float(y1), 1),
         text)
        for x0, y0, x1, y1, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)',
            html,
        )
    ]  # fmt: skip
    return (round(float(page.group(1)), 1), round(float(page.group(2)), 1)), words


def words_text(size: tuple[float, float], words: list[Word]) -> str:
    """The golden's form: the page's size, then one word a line with its box."""
    lines = [f"page {size[0]:.1f} {size[1]:.1f}"]
    lines += [f"{x0:.1f} {y0:.1f} {x1:.1f} {y1:.1f} {text}" for x0, y0, x1, y1, text in words]
    return "\n".join(lines) + "\n"


def _outside_words(picture: Path, size: tuple[float, float], words: list[Word]) -> Image.Image:
    """The picture in grey with every word's box (and its margin) painted white."""
    with Image.open(picture) as image:
        grey = image.convert("L")
    scale_x, scale_y = grey.width / size[0], grey.height / size[1]
    draw = ImageDraw.Draw(grey)
    for x0, y0, x1, y1, _ in words:
        draw.rectangle(
            (x0 * scale_x - WORD_MARGIN_PX, y0 * scale_y - WORD_MARGIN_PX,
             x1 * scale_x + WORD_MARGIN_PX, y1 * scale_y + WORD_MARGIN_PX),
            fill=255,
        )  # fmt: skip
    return grey


def differing_pixels_outside_words(
    committed: Path, fresh: Path, size: tuple[float, float], words: list[Word]
) -> int:
    """How many pixels outside the words differ (by more than a faint edge) between two
    renderings of the sheet."""
    a, b = _outside_words(committed, size, words), _outside_words(fresh, size, words)
    difference = ImageChops.difference(a, b).point(lambda level: 255 if level > FAINT else 0)
    return difference.histogram()[255]


@pytest.fixture(scope="module")
def sheet_pdf_file(folder: Path) -> Path:
    """The pictured match's sheet as the PDF ``schocken sheet --pdf`` writes (the picture's)."""
    from firmware.report.pdf import sheet_pdf
    from firmware.report.sheet import evening_sheet
    from sim.pictures.league_match import match_evening

    path = folder / "sheet-de.pdf"
    path.write_bytes(sheet_pdf(evening_sheet(match_evening()), "de"))
    return path


def test_the_sheets_picture_has_the_layout_its_pdf_has(folder: Path, sheet_pdf_file: Path) -> None:
    """The words and their boxes are the golden's, and the picture kept in docs/img/ shows the
    same page outside its words (its rules and boxes) as the one the command makes here,
    whichever font this system draws the words with."""
    size, words = sheet_words(sheet_pdf_file)
    text = words_text(size, words)
    if os.environ.get("SCHOCKEN_REFRESH_GOLDEN"):
        SHEET_WORDS.write_text(text, encoding="utf-8")
    assert text == SHEET_WORDS.read_text(encoding="utf-8"), (
        f"the sheet's words moved or changed: diff {SHEET_WORDS} against `pdftotext -bbox` of "
        f"{sheet_pdf_file}; if on purpose, refresh with SCHOCKEN_REFRESH_GOLDEN=1 and {REMAKE}"
    )
    committed, fresh = ROOT / SHEET, made(folder, SHEET)
    with Image.open(committed) as a, Image.open(fresh) as b:
        assert a.size == b.size, f"{SHEET} is {a.size}, the command makes {b.size}: {REMAKE}"
    differ = differing_pixels_outside_words(committed, fresh, size, words)
    assert differ == 0, f"{SHEET}: {differ} pixels outside its words differ: {REMAKE}"


def test_a_moved_rule_is_seen_and_a_word_drawn_in_another_font_is_not(
    folder: Path, sheet_pdf_file: Path, tmp_path: Path
) -> None:
    """The comparison's two sides on the picture the command makes: a rule moved by two points
    counts, glyphs changed inside the words' boxes (a wider font's) do not."""
    size, words = sheet_words(sheet_pdf_file)
    fresh = made(folder, SHEET)
    with Image.open(fresh) as image:
        picture = image.convert("L")
    scale = picture.width / size[0]
    # Inside every word's box: the glyphs replaced by a solid bar, as unlike a font as can be.
    glyphs = picture.copy()
    draw = ImageDraw.Draw(glyphs)
    for x0, y0, x1, y1, _ in words:
        draw.rectangle((x0 * scale, y0 * scale, x1 * scale + 1, y1 * scale), fill=0)
    glyphs.save(tmp_path / "glyphs.png")
    assert differing_pixels_outside_words(fresh, tmp_path / "glyphs.png", size, words) == 0
    # A vertical rule of the Partien's table, two points further right: found by its dark
    # column of pixels, far from any word.
    ink = picture.point(lambda level: 255 if level < 128 else 0)
    by_column = ink.resize((picture.width, 1), Image.Resampling.BOX)
    darkest = max(range(picture.width), key=lambda x: by_column.getpixel((x, 0)))
    column = picture.crop((darkest, 0, darkest + 1, picture.height))
    moved = picture.copy()
    moved.paste(255, (darkest, 0, darkest + 1, picture.height))
    moved.paste(column, (darkest + round(2 * scale), 0))
    moved.save(tmp_path / "moved.png")
    assert differing_pixels_outside_words(fresh, tmp_path / "moved.png", size, words) > 0


def test_the_readme_shows_the_command_that_records_the_gif() -> None:
    readme = " ".join(
        ROOT.joinpath("README.md").read_text(encoding="utf-8").replace("\\\n", " ").split()
    )
    command = (
        f"schocken sim {' '.join(DEMO_GAME)} --script {DEMO_SCRIPT} --record docs/img/demo.gif"
    )
    assert command in readme
    assert "make docs-images" in readme


def test_one_picture_by_name_and_an_unknown_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert make_pictures(tmp_path, ["device.png"]) == [tmp_path / "device.png"]
    assert [path.name for path in tmp_path.iterdir()] == ["device.png"]
    assert main(["--into", str(tmp_path), "nonsense.png"]) == 2
    assert capsys.readouterr().err == (
        "docs-images: no picture 'nonsense.png'; known: demo.gif, device.png, web-board-de.png, "
        "web-landscape-de.png, web-narrow-en.png, web-phone-en.png, web-paired-en.png, "
        "web-entry-de.png, sheet-de.png, spieltag-screens.png, scharf-screens.png, "
        "web-spieltag.png\n"
    )
