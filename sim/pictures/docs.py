"""Make every picture of the README and docs/: ``make docs-images``.

    .venv/bin/python -m sim.pictures.docs              # all of them, into docs/img/
    .venv/bin/python -m sim.pictures.docs --into DIR   # into DIR instead (the tests compare)
    .venv/bin/python -m sim.pictures.docs demo.gif     # only the named ones

Every picture comes from a fixed script with fixed seeds, so the same code makes the same
pictures. Each picture is one entry of :data:`PICTURES`, registered with :func:`picture`; a new
picture (a page's screenshot, say) is one more decorated function that writes its file::

    @picture("docs/img/page.png", "the web page after a round")
    def _page(path: Path) -> None:
        ...

A picture taken in headless Chromium is registered with ``browser=True``; its function takes
the browser too (``None``: it starts one of its own), so that the caller may lend one Chromium
to every such picture (:func:`make_pictures`).

The test ``tests/sim/test_docs_pictures.py`` fails when a committed picture differs from what its
entry makes, and when the README or docs show a picture that no entry makes.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.pictures.browser import Browser

ROOT = Path(__file__).parents[2]
#: The game of the README's pictures: one round under the standard rules, seeded.
DEMO_SCRIPT = "sim/scripts/demo.txt"
DEMO_GAME = ("--players", "3", "--rules", "standard", "--seed", "49")

__all__ = ["PICTURES", "ROOT", "Picture", "main", "make_pictures", "picture"]


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of the docs: where it is kept (relative to the repository), what it shows, and
    the function that writes it to a given path."""

    path: str
    about: str
    #: Called with the path, and for a picture taken in Chromium also with a browser or None.
    make: Callable[..., None]
    #: Taken in headless Chromium (the page's screenshots), so it needs the browser.
    browser: bool = False

    @property
    def name(self) -> str:
        """The file's name, e.g. ``demo.gif``."""
        return Path(self.path).name


#: Every picture, by its path in the repository, in the order they are made.
PICTURES: dict[str, Picture] = {}


def picture(
    path: str, about: str, *, browser: bool = False
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the decorated function as the maker of the picture at ``path`` (``browser``: a
    screenshot taken in headless Chromium, made by ``make(path, browser)``)."""

    def register(make: Callable[..., None]) -> Callable[..., None]:
        if path in PICTURES:
            raise ValueError(f"{path} has a maker already")
        PICTURES[path] = Picture(path, about, make, browser)
        return make

    return register


@picture("docs/img/demo.gif", "a round of Schocken on the OLED, as the README's command records it")
def _demo_gif(path: Path) -> None:
    """The README's command itself: ``schocken sim ... --script demo.txt --record FILE`` (its
    options and its run, as the ``schocken`` command hands them over)."""
    from sim import cli

    parser = argparse.ArgumentParser(prog="schocken sim")
    cli.add_arguments(parser)
    argv = [*DEMO_GAME, "--script", str(ROOT / DEMO_SCRIPT), "--record", str(path)]
    cli.run(parser.parse_args(argv))


@picture("docs/img/device.png", "the window, just after Anna's FLIP in the demo round")
def _device_png(path: Path) -> None:
    """The simulator's window (SDL's dummy video driver, no display needed) showing the frame
    on the OLED just after the FLIP of the demo round, with FLIP drawn pressed."""
    from engine.events import Flip
    from engine.game import GameSetup
    from firmware.config import load_config
    from firmware.dice import SeededDice
    from firmware.sink import DeviceEvent
    from firmware.store.rulesfile import load_rules
    from firmware.wiring import build_device
    from sim.fakes import FakeClock
    from sim.recorder import FrameRecorder
    from sim.script import ScriptInput, load_script

    config = load_config(None)
    clock = FakeClock()
    moments: list[tuple[float, DeviceEvent]] = []
    script = ScriptInput(load_script(ROOT / DEMO_SCRIPT), clock, config.input)
    recorder = FrameRecorder(clock)
    device = build_device(
        config,
        clock=clock,
        inputs=[script],
        display=recorder,
        dice=SeededDice(int(DEMO_GAME[-1])),
        setup=GameSetup(("Anna", "Ben", "Carla"), load_rules("standard")),
        event_sink=lambda event: moments.append((clock.now(), event)),
    )
    device.loop.start()
    script.play_until(script.end)
    device.run(until=script.end)
    device.close()
    recorder.close()
    flipped_at = next(at for at, event in moments if isinstance(event, Flip))
    frame = next(f for f in reversed(recorder.frames) if f.at <= flipped_at + 0.001)
    _window_png(frame.image, path)


def _window_png(image: Any, path: Path) -> None:
    """The window showing ``image``, with FLIP held down, saved as a PNG."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from hal.ports import Button
    from sim.controls import EdgeHands
    from sim.fakes import FakeClock
    from sim.sim_words import SimWords
    from sim.window import SimWindow, WindowDisplay

    display = WindowDisplay()
    display.display(image)
    window = SimWindow(EdgeHands(FakeClock()), display, say=SimWords("de").t)
    try:
        window._press(Button.FLIP)  # the button just pressed, drawn down
        window.step()
        window.save_png(str(path))
    finally:
        window.close()


@picture("docs/img/web-board-de.png", "the table's page on a laptop or TV, in German", browser=True)
def _web_board(path: Path, browser: Browser | None) -> None:
    _web_pictures_in(path.parent, browser)


@picture(
    "docs/img/web-landscape-de.png", "the page on a phone on its side, in German", browser=True
)
def _web_landscape(path: Path, browser: Browser | None) -> None:
    _web_pictures_in(path.parent, browser)


@picture("docs/img/web-narrow-en.png", "the page on a small phone, in English", browser=True)
def _web_narrow(path: Path, browser: Browser | None) -> None:
    _web_pictures_in(path.parent, browser)


@picture(
    "docs/img/web-phone-en.png", "the table's page on a phone, in English, paired", browser=True
)
def _web_phone(path: Path, browser: Browser | None) -> None:
    _web_pictures_in(path.parent, browser)


@picture(
    "docs/img/web-paired-en.png", "a paired phone: the mirror and its buttons", browser=True
)
def _web_paired(path: Path, browser: Browser | None) -> None:
    _web_pictures_in(path.parent, browser)


@picture(
    "docs/img/web-entry-de.png", "a paired phone enters a real-dice result, in German",
    browser=True,
)
def _web_entry(path: Path, browser: Browser | None) -> None:
    from sim.pictures.browser import make_entry_picture

    make_entry_picture(path, browser)


@picture("docs/img/sheet-de.png", "the Spielberichtsbogen of a league match, its PDF as a picture")
def _sheet(path: Path) -> None:
    from sim.pictures.league_match import write_sheet_png

    write_sheet_png(path)


@picture("docs/img/spieltag-screens.png", "the device's Spieltag screens, German and English")
def _spieltag_screens(path: Path) -> None:
    from sim.pictures.league_match import write_spieltag_screens

    write_spieltag_screens(path)


@picture("docs/img/scharf-screens.png", "the time box on the device: scharf, German and English")
def _scharf_screens(path: Path) -> None:
    from sim.pictures.league_match import write_scharf_screens

    write_scharf_screens(path)


@picture(
    "docs/img/web-spieltag.png", "the page's Spieltag card, paired, German and English",
    browser=True,
)
def _web_spieltag(path: Path, browser: Browser | None) -> None:
    from sim.pictures.browser import write_spieltag_card

    write_spieltag_card(path, browser)


@functools.cache
def _web_pictures_in(folder: Path, browser: Browser | None) -> None:
    """Every picture of the page, from one game in one headless Chromium
    (:mod:`sim.pictures.browser`), made once per folder: the makers share the browser's run."""
    from sim.pictures.browser import make_web_pictures

    make_web_pictures(folder, browser)


def make_pictures(
    into: Path | None = None, names: Sequence[str] = (), browser: Browser | None = None
) -> list[Path]:
    """Make the pictures named (by file name or path; all if none) where they are kept, or all
    in the folder ``into``; the paths written. The pictures taken in Chromium are taken in
    ``browser`` if given, else each maker starts its own."""
    chosen = [
        item for item in PICTURES.values() if not names or item.name in names or item.path in names
    ]
    written = []
    for item in chosen:
        target = (into / item.name) if into is not None else ROOT / item.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if item.browser:
            item.make(target, browser)
        else:
            item.make(target)
        written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.pictures.docs [--into DIR] [NAME ...]``."""
    parser = argparse.ArgumentParser(
        prog="python -m sim.pictures.docs", description=__doc__.split("\n")[0]
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these pictures (file names)")
    parser.add_argument(
        "--into", metavar="DIR", help="write into DIR instead of where they are kept"
    )
    args = parser.parse_args(argv)
    known = {item.name for item in PICTURES.values()} | set(PICTURES)
    unknown = [name for name in args.names if name not in known]
    if unknown:
        print(
            f"docs-images: no picture {unknown[0]!r}; known: "
            + ", ".join(item.name for item in PICTURES.values()),
            file=sys.stderr,
        )
        return 2
    into = Path(args.into) if args.into is not None else None
    for path in make_pictures(into, args.names):
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"wrote {shown} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
