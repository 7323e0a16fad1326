"""`make docs-images`: every picture the README and docs show is made by it, and the committed
pictures are exactly what it makes (compared as decoded pixels and frame times, not bytes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageSequence

from sim.pictures.browser import browser_missing
from sim.pictures.docs import DEMO_GAME, DEMO_SCRIPT, PICTURES, ROOT, main, make_pictures

pytest.importorskip("pygame")

#: Why the page's pictures cannot be made here (no Chromium), or None (.ci/run installs it).
BROWSER_MISSING = browser_missing()

#: A picture in Markdown, ![text](path), or in HTML, <img src="path">.
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)|<img[^>]*\ssrc=\"([^\"]+)\"")
REMAKE = "run `make docs-images`, look at the pictures, and commit them"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every picture, made once into a temporary folder."""
    folder = tmp_path_factory.mktemp("docs-images")
    names = [
        item.name
        for item in PICTURES.values()
        if not (BROWSER_MISSING and item.browser)
    ]
    assert main(["--into", str(folder), *names]) == 0
    return folder



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


@pytest.mark.parametrize("kept", sorted(PICTURES))
def test_the_committed_picture_is_what_the_command_makes(made: Path, kept: str) -> None:
    if BROWSER_MISSING and PICTURES[kept].browser:
        pytest.skip(BROWSER_MISSING)
    committed, fresh = ROOT / kept, made / Path(kept).name
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
