"""The builders' self-test (``schocken run --check``): every button, the tilt switch, the display.

:class:`CheckApp` takes the device app's place in the main loop. It draws a test pattern (a frame
around the very edge of the panel, so a wrong controller or a shifted picture shows at once),
lists what happens on the inputs, and logs each event to stderr. Raw tilt edges are counted
through :class:`TappedDecoder`, which tells the check about every edge before decoding it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from PIL import Image, ImageDraw

from firmware.config import DeviceConfig
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from hal.inputs import InputDecoder, InputTiming
from hal.ports import SCREEN_SIZE, Button, Edge, EdgeSource, InputEvent, InputKind

__all__ = ["CheckApp", "TappedDecoder"]

logger = logging.getLogger(__name__)

_SHORT = {
    Button.KEEP_1: "1",
    Button.KEEP_2: "2",
    Button.KEEP_3: "3",
    Button.FLIP: "F",
    Button.STAND: "S",
}


class TappedDecoder(InputDecoder):
    """An input decoder that shows every raw edge to ``tap`` before decoding it."""

    def __init__(self, timing: InputTiming, tap: Callable[[Edge], None]) -> None:
        super().__init__(timing)
        self._tap = tap

    def feed(self, edge: Edge) -> None:
        self._tap(edge)
        super().feed(edge)


class CheckApp:
    """Shows and logs inputs; satisfies :class:`firmware.loop.App`."""

    def __init__(self, config: DeviceConfig) -> None:
        self.config = config
        self.contrast = config.display.contrast
        self.catalogue = OledWords(config.game.language)
        self.down: set[Button] = set()
        self.presses: dict[Button, int] = dict.fromkeys(Button, 0)
        self.tilt_edges = 0
        self.shakes = 0
        self.lines: deque[str] = deque(maxlen=3)
        self._image: Image.Image | None = None

    def note_edge(self, edge: Edge) -> None:
        """A raw edge, before debouncing: buttons light up, tilt edges are counted."""
        if edge.source is EdgeSource.TILT:
            self.tilt_edges += 1
        elif edge.button is not None:
            if edge.active:
                self.down.add(edge.button)
            else:
                self.down.discard(edge.button)
        self._image = None

    def handle(self, event: InputEvent) -> None:
        t = self.catalogue.t
        if event.button is not None:
            name = event.button.name
            pin = self.config.pins.of(event.button)
            if event.kind is InputKind.PRESS:
                self.presses[event.button] += 1
                self.lines.append(t("check_pressed", name=name))
                logger.info("button %s pressed and released (BCM %d)", name, pin)
            else:
                self.lines.append(t("check_held", name=name))
                logger.info("button %s held (long press, BCM %d)", name, pin)
        elif event.kind is InputKind.SHAKE_START:
            self.shakes += 1
            self.lines.append(t("check_shake", n=self.tilt_edges))
            logger.info("tilt switch: shaking (%d edges so far)", self.tilt_edges)
        else:
            self.lines.append(t("check_shake", n=self.tilt_edges))
            logger.info("tilt switch: still again (throw); %d edges so far", self.tilt_edges)
        self._image = None

    def advance(self, now: float) -> None:
        """Nothing runs on a timer here."""

    def next_deadline(self) -> float | None:
        return None

    def screen(self) -> Image.Image:
        if self._image is None:
            self._image = self._draw()
        return self._image

    def _draw(self) -> Image.Image:
        width, height = SCREEN_SIZE
        image = Image.new("1", SCREEN_SIZE, 0)
        draw = ImageDraw.Draw(image)
        # The test pattern: the outermost pixels all round, and a tick in each corner.
        draw.rectangle((0, 0, width - 1, height - 1), outline=1)
        for x, y, dx, dy in ((2, 2, 1, 1), (width - 3, 2, -1, 1), (2, height - 3, 1, -1),
                             (width - 3, height - 3, -1, -1)):  # fmt: skip
            draw.line((x, y, x + 4 * dx, y + 4 * dy), fill=1)
        draw.rectangle((0, 0, width - 1, 10), fill=1)
        FONT.draw(draw, (4, 1), self.catalogue.t("check_title"), fill=0)
        tilt = f"~{self.tilt_edges}"
        FONT.draw(draw, (width - 4 - FONT.width(tilt), 1), tilt, fill=0)
        lines = list(self.lines) or [self.catalogue.t("check_hint")]
        for index, line in enumerate(lines):
            FONT.draw(draw, (4, 13 + index * 9), FONT.fit(line, width - 8))
        # One box per button: lit while it is held down, with its press count under it.
        for index, button in enumerate(Button):
            x = 6 + index * 24
            lit = button in self.down
            draw.rectangle((x, 42, x + 17, 52), outline=1, fill=1 if lit else 0)
            FONT.draw(draw, (x + 7, 43), _SHORT[button], fill=0 if lit else 1)
            count = str(self.presses[button])
            FONT.draw(draw, (x + 9 - FONT.width(count) // 2, 54), count)
        return image
