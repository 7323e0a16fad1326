"""A remote panel: the simulator's window (or terminal) as a second face of a device on a link.

:class:`RemotePanel` stands in for the device app in the simulator's main loop. Instead of playing
the game itself it forwards what the user does, decoded exactly as on the device (a press, a long
press, a shake), as ``press``/``hold``/``shake`` commands, and shows the frames the device sends.
The device may be a real Schockbesteck on a serial port or another simulator started with
``--link tcp-listen://...``.

Threads: the link's reader thread decodes frames and stores the newest one under a lock, then
calls ``wake`` so the main loop redraws; the main loop reads :meth:`RemotePanel.screen`.

A panel must never look live when it is not. It sends ``ping`` every second; when nothing has
come from the device for three seconds (it was switched off, its cable pulled, its program
ended) the panel greys its last frame and says so on the panel itself: "Verbindung getrennt –
verbinde neu…". The link reconnects by itself, and the first line the device sends brings the
panel back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from firmware.link.protocol import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    ProtocolError,
    decode_frame,
    parse_device_line,
)
from firmware.screen.font import FONT
from firmware.words import language_or_default
from hal.ports import (
    SCREEN_SIZE,
    Clock,
    Display,
    InputBackend,
    InputEvent,
    InputKind,
    Link,
    Timed,
)
from sim.sim_words import SimWords

if TYPE_CHECKING:
    from firmware.config import DeviceConfig
    from firmware.loop import MainLoop

__all__ = ["PING_S", "SILENCE_S", "PanelDevice", "RemotePanel", "attach_panel"]

logger = logging.getLogger(__name__)

#: How often a panel asks the device for a sign of life (``ping``), in seconds.
PING_S = 1.0
#: How long the device may say nothing before the panel shows the link as lost, in seconds.
SILENCE_S = 3.0

class RemotePanel:
    """An app for the main loop that mirrors and drives a device at the other end of ``link``.

    ``wake`` is called (on the link's thread) when a new frame has arrived; it should make the
    main loop redraw, e.g. ``lambda: loop.call_soon(lambda: None)``. With a ``clock`` the panel
    checks that the device is alive: a ``ping`` every ``ping_s`` seconds, and after ``silence_s``
    seconds without a line from the device the last frame is shown greyed, as lost.
    """

    #: A remote panel runs no game of its own.
    game: Any = None
    #: The panel's own brightness (the main loop sets the display's contrast from it).
    contrast: int = 255

    def __init__(
        self,
        link: Link,
        *,
        url: str = "",
        language: str = "de",
        pin: str | None = None,
        wake: Callable[[], None] = lambda: None,
        clock: Clock | None = None,
        ping_s: float = PING_S,
        silence_s: float = SILENCE_S,
    ) -> None:
        self._link = link
        self._clock = clock
        self._ping_s = ping_s
        self._silence_s = silence_s
        #: When the device last sent a line (None before the first); guarded by the lock.
        self._heard_at: float | None = None
        self._next_ping: float | None = None
        #: True while the device has been silent too long: the frame is shown greyed.
        self.lost = False
        self._lost_cache: tuple[Image.Image, Image.Image] | None = None
        self._url = url
        #: The pairing PIN the device shows (its menu's Koppeln), sent once connected.
        self._pin = pin
        #: The token a pairing gave: later connections pair with it (``auth``).
        self.token: str | None = None
        self._texts = SimWords(language_or_default(language))
        self.wake = wake
        self._lock = threading.Lock()
        self._frame: Image.Image | None = None
        self._problem: str | None = None
        self._greeted = False
        self._message_cache: tuple[tuple[str | None, bool, bool], Image.Image] | None = None
        #: The device's latest ``state`` snapshot (decoded JSON), None until one arrives.
        self.state: dict[str, Any] | None = None
        #: The ``hello`` payload of the device: name, version and its info object.
        self.device: dict[str, Any] | None = None
        self._started = False

    def start(self) -> None:
        """Start the link: on every connection the panel asks for a greeting and frames."""
        if not self._started:
            self._started = True
            self._link.start(self._received, self._connected)

    def close(self) -> None:
        """Close the link. Idempotent."""
        self._link.close()

    # -- the app's face towards the main loop ----------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """Send what the user did to the device, as the device's own decoder would have seen it."""
        if event.kind is InputKind.THROW:
            self._link.send_line("shake")
        elif event.button is not None and event.kind is InputKind.PRESS:
            self._link.send_line(f"press {event.button.value}")
        elif event.button is not None and event.kind is InputKind.LONG_PRESS:
            self._link.send_line(f"hold {event.button.value}")
        # SHAKE_START: the device gets the whole shake with the throw.

    def advance(self, now: float) -> None:
        """Ask the device for a sign of life when it is time; note a device gone silent."""
        with self._lock:
            heard_at = self._heard_at
            silent = heard_at is not None and not self.lost and now - heard_at >= self._silence_s
            if silent:
                self.lost = True
        if heard_at is None:
            return  # not yet connected: the screen says so already
        if silent:
            logger.info("remote panel: the device has said nothing for %.0f s", now - heard_at)
        if self._next_ping is None:
            self._next_ping = heard_at + self._ping_s
        if now >= self._next_ping:
            self._link.send_line("ping")
            self._next_ping = now + self._ping_s

    def next_deadline(self) -> float | None:
        """The next ``ping``, or the moment the device's silence would count as a lost link."""
        with self._lock:
            heard_at = self._heard_at
        if heard_at is None:
            return None
        deadlines = [self._next_ping if self._next_ping is not None else heard_at + self._ping_s]
        if not self.lost:
            deadlines.append(heard_at + self._silence_s)
        return min(deadlines)

    def screen(self) -> Image.Image:
        """The device's newest frame (greyed while the link is lost), or a line saying what the
        panel waits for."""
        with self._lock:
            frame, problem = self._frame, self._problem
        if problem is None and frame is not None:
            return self._greyed(frame) if self.lost else frame
        return self._message(problem)

    # -- the link's side (reader thread) ---------------------------------------------------------

    def _connected(self) -> None:
        with self._lock:
            self._greeted = False
        # On a serial line the device cannot see us arrive: ask for the greeting ourselves.
        self._link.send_line("hello")
        # Pair first: a paired panel is the player's hands and eyes, and gets the OLED's frames;
        # unpaired it mirrors the table's view and its presses are refused.
        if self.token is not None:
            self._link.send_line(f"auth {self.token}")
        elif self._pin is not None:
            self._link.send_line(f"pair {self._pin}")
        self._link.send_line("frames on")

    def _received(self, raw: bytes) -> None:
        if self._clock is not None:
            with self._lock:
                self._heard_at = self._clock.now()
                back, self.lost = self.lost, False
            if back:
                self.wake()
        try:
            line = parse_device_line(raw)
            if line.word == "hello":
                self._hello(line.payload or {})
            elif line.word == "frame":
                frame = decode_frame(line.text)
                with self._lock:
                    self._frame = frame
            elif line.word == "state" and isinstance(line.payload, dict):
                self.state = line.payload
                return  # the screen shows the frames, not the state
            elif line.word == "ok" and line.text.startswith("pair "):
                self.token = line.text.split(" ", 1)[1].strip()
                return
            elif line.word == "error":
                logger.warning("the device refused a command: %s", line.text)
                return
            else:
                return  # events, acknowledgements, pongs: nothing to show
        except ProtocolError as error:
            logger.info("remote panel: %s", error)
            return
        self.wake()

    def _hello(self, payload: dict[str, Any]) -> None:
        problem = None
        if payload.get("name") != PROTOCOL_NAME:
            problem = self._texts.t("attach_other")
        elif payload.get("version") != str(PROTOCOL_VERSION):
            problem = self._texts.t("attach_version", version=payload.get("version"))
        with self._lock:
            self._problem = problem
            self._greeted = True
        self.device = payload

    def _greyed(self, frame: Image.Image) -> Image.Image:
        """``frame`` with every other pixel off, and the lost link said across it."""
        if self._lost_cache is not None and self._lost_cache[0] is frame:
            return self._lost_cache[1]
        width, height = SCREEN_SIZE
        checker = Image.new("1", SCREEN_SIZE, 0)
        checker.putdata([(x + y) % 2 for y in range(height) for x in range(width)])
        image = Image.composite(frame, checker, checker)  # the frame where the checker is on
        draw = ImageDraw.Draw(image)
        lines = [self._texts.t("attach_lost"), self._texts.t("attach_reconnecting")]
        top = (height - len(lines) * (FONT.height + 2) - 6) // 2
        bottom = top + len(lines) * (FONT.height + 2) + 5
        draw.rectangle((1, top, width - 2, bottom), fill=0, outline=1)
        for index, line in enumerate(lines):
            text = FONT.fit(line, width - 8)
            x = (width - FONT.width(text)) // 2
            FONT.draw(draw, (x, top + 4 + index * (FONT.height + 2)), text, fill=1)
        self._lost_cache = (frame, image)
        return image

    def _lost_text(self) -> str:
        """The lost link in one line, as the message screen says it."""
        return f"{self._texts.t('attach_lost')} – {self._texts.t('attach_reconnecting')}"

    def _message(self, problem: str | None) -> Image.Image:
        key = (problem, self._greeted, self.lost)
        if self._message_cache is not None and self._message_cache[0] == key:
            return self._message_cache[1]  # the same image: the main loop sees nothing changed
        image = Image.new("1", SCREEN_SIZE, 0)
        draw = ImageDraw.Draw(image)
        font = ImageFont.load_default(size=10)
        if problem is not None:
            lines = [problem]
        elif self.lost:
            lines = [self._lost_text()]
        elif self._greeted:
            lines = [self._texts.t("attach_waiting")]
        else:
            lines = [self._texts.t("attach_connecting"), self._url]
        y = 16
        for text in lines:
            for chunk in _wrap(draw, text, font, SCREEN_SIZE[0] - 4):
                draw.text((2, y), chunk, fill=1, font=font)
                y += 12
        self._message_cache = (key, image)
        return image


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> list[str]:
    """``text`` in pieces no wider than ``width`` pixels (long URLs are cut anywhere)."""
    pieces: list[str] = []
    current = ""
    for char in text:
        if current and draw.textlength(current + char, font=font) > width:
            pieces.append(current)
            current = ""
        current += char
    if current:
        pieces.append(current)
    return pieces[:3]


@dataclass
class PanelDevice:
    """A remote panel wired up: the panel app, its main loop, the inputs and the display."""

    panel: RemotePanel
    loop: MainLoop
    inputs: list[InputBackend]
    display: Display

    def run(self, until: float | None = None) -> None:
        """Run the main loop (see :meth:`firmware.loop.MainLoop.run`)."""
        self.loop.run(until)

    def close(self) -> None:
        """Close the link and the inputs. Idempotent."""
        self.panel.close()
        self.loop.close()


def attach_panel(
    config: DeviceConfig,
    link: Link,
    *,
    url: str = "",
    clock: Clock,
    inputs: InputBackend,
    display: Display,
    timers: Sequence[Timed] = (),
    pin: str | None = None,
    ping_s: float = PING_S,
    silence_s: float = SILENCE_S,
) -> PanelDevice:
    """A remote panel for the device at the other end of ``link`` (a link to ``url``), on the
    given input backend and display, all built by the caller; ``timers`` are those of them with
    timers of their own (:class:`~hal.ports.Timed`), driven by the panel's main loop. ``pin``
    pairs the panel (the PIN the device's menu shows under Koppeln), so that it may press.
    ``ping_s`` and ``silence_s`` set how the panel notices a lost device (see
    :class:`RemotePanel`).

    The inputs are decoded with the config's ``[input]`` timing, exactly as on a device. The
    panel takes ``link`` and ``inputs`` over: :meth:`PanelDevice.close` closes them.
    """
    from firmware.loop import MainLoop
    from hal.inputs import InputDecoder

    panel = RemotePanel(
        link, url=url, language=config.game.language, pin=pin, clock=clock, ping_s=ping_s,
        silence_s=silence_s,
    )
    loop = MainLoop(
        panel,
        clock=clock,
        inputs=[inputs],
        decoder=InputDecoder(config.input),
        display=display,
        timers=timers,
    )
    panel.wake = lambda: loop.call_soon(_redraw)
    panel.start()
    return PanelDevice(panel, loop, [inputs], display)


def _redraw() -> None:
    """Nothing to do: a turn of the main loop shows the panel's newest frame."""
