"""The simulator in a terminal: the OLED as half blocks or braille, the keys on the keyboard.

In a terminal of 132x37 or more each character cell shows two OLED pixels, one above the other
(`` ``, ``▀``, ``▄``, ``█``), so the 128x64 frame takes 128x32 cells. A smaller terminal, down to
:data:`COMPACT_SIZE` (a default 80x24 has room), gets the compact layout: each cell is a braille
character of 2x4 dots (``⣿``), so the frame takes 64x16 cells. A terminal reports no key
releases, so a key is a whole
press: 1, 2, 3, f, s are short presses; F, S, the shifted digits (! " § or ! @ #) or ``l``
followed by a key are long presses (the button is held past ``hold_ms``); a key typed while its
button is still down waits its turn (:data:`QUEUED_PRESSES`). Space is a whole shake (the cup
rattles for a moment, then is put down). h or ? shows the help, q or Esc quits.

The terminal is put into cbreak mode on the alternate screen and restored on every way out
(quit, Ctrl-C, an error). Like the window, the terminal runs on the main thread and the firmware
on another: :class:`TerminalDisplay` keeps the newest frame and wakes the terminal through a pipe.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import select
import signal
import sys
import termios
import textwrap
import time
import tty
from collections.abc import Callable, Iterator
from typing import TextIO

from PIL import Image

from hal.ports import SCREEN_SIZE, Button
from sim.controls import BUTTON_KEYS, BUTTON_LABELS, Hands, Say, Shaker
from sim.recorder import LatestFrame

__all__ = [
    "LEGEND_CENTRES",
    "QUEUED_PRESSES",
    "TAP_S",
    "TerminalDisplay",
    "TerminalUI",
    "frame_to_blocks",
    "frame_to_braille",
    "terminal_key_help",
]

#: How long a key press holds the button down (at least, see :class:`TerminalUI`: it must outlast
#: the decoder's debounce, or the press would not count).
TAP_S = 0.1
#: How many presses of a button that is still down (typed fast, or pasted) wait for their turn;
#: more are dropped, so that a key held on auto-repeat stops soon after it is let go.
QUEUED_PRESSES = 4
#: How long the Space key shakes the cup.
SHAKE_S = 0.7
#: x of the middle of each KEEP button's legend on the OLED (the firmware's
#: ``firmware.screen.screens.KEY_CENTRES``; a backend imports no firmware, and
#: ``tests/sim/test_terminal.py`` holds the two equal): the key bar puts each key under its legend.
LEGEND_CENTRES = (21, 64, 107)
#: Columns and rows the big layout needs (half blocks).
NEEDED_SIZE = (SCREEN_SIZE[0] + 4, SCREEN_SIZE[1] // 2 + 5)
#: Columns and rows the compact layout needs (braille): the OLED in its frame, two lines of keys.
COMPACT_SIZE = (SCREEN_SIZE[0] // 2 + 8, SCREEN_SIZE[1] // 4 + 5)

_BLOCKS = (" ", "▄", "▀", "█")  # indexed by (top lit) * 2 + (bottom lit)
_LONG_KEYS: dict[str, Button] = {
    "F": Button.FLIP,
    "S": Button.STAND,
    "!": Button.KEEP_1,
    '"': Button.KEEP_2,
    "@": Button.KEEP_2,
    "§": Button.KEEP_3,
    "#": Button.KEEP_3,
}
_LONG_PREFIX = "l"
_ESC = "\x1b"
_CSI = "\x1b["


#: The bit of each dot of a braille cell (Unicode's dot numbering), by its (x, y) in the cell.
_BRAILLE_DOTS = (
    ((0, 0), 0x01), ((0, 1), 0x02), ((0, 2), 0x04), ((1, 0), 0x08),
    ((1, 1), 0x10), ((1, 2), 0x20), ((0, 3), 0x40), ((1, 3), 0x80),
)  # fmt: skip


def frame_to_braille(image: Image.Image) -> list[str]:
    """The mode "1" ``image`` as lines of braille characters: each cell 2x4 pixels."""
    width, height = image.size
    lit = image.convert("L").tobytes()
    lines = []
    for top in range(0, height, 4):
        cells = []
        for left in range(0, width, 2):
            bits = 0
            for (dx, dy), bit in _BRAILLE_DOTS:
                x, y = left + dx, top + dy
                if x < width and y < height and lit[y * width + x]:
                    bits |= bit
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    return lines


def frame_to_blocks(image: Image.Image) -> list[str]:
    """The mode "1" ``image`` as lines of half-block characters, two pixel rows per line."""
    width, height = image.size
    lit = image.convert("L").tobytes()
    lines = []
    for y in range(0, height, 2):
        top = lit[y * width : (y + 1) * width]
        bottom = lit[(y + 1) * width : (y + 2) * width] if y + 1 < height else bytes(width)
        lines.append(
            "".join(_BLOCKS[(t > 0) * 2 + (b > 0)] for t, b in zip(top, bottom, strict=True))
        )
    return lines


class TerminalDisplay(LatestFrame):
    """The :class:`~hal.ports.Display` of the terminal: the newest frame, and a wake-up pipe."""

    def __init__(self) -> None:
        super().__init__()
        self.wake_fd, self._wake_write = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self._wake_write, False)

    def close(self) -> None:
        """Close the wake-up pipe. Idempotent."""
        for fd in (self.wake_fd, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _changed(self) -> None:
        with contextlib.suppress(OSError):  # a full pipe already holds a wake-up
            os.write(self._wake_write, b"!")


class TerminalUI:
    """Keys in, half-block or braille frames out, on a terminal in cbreak mode.

    ``hold_s`` is how long a long press holds its button (the decoder's ``hold_ms`` plus a
    margin); a short press holds it :data:`TAP_S`, or longer if the decoder's ``debounce_s``
    asks for it. :meth:`run` takes over the terminal until the user quits or ``keep_going()`` is
    False, and always gives it back as it was. Keys typed before the device's first frame stay
    in the terminal's input until then (the device's inputs start before that frame), so none is
    lost. ``say`` gives the device's words in its language: the help and the key bar speak it.
    """

    def __init__(
        self,
        hands: Hands,
        display: TerminalDisplay,
        *,
        hold_s: float,
        debounce_s: float = 0.03,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        now: Callable[[], float] = time.monotonic,
        notice: str = "",
        say: Say,
    ) -> None:
        #: Lines shown under the device, one message each, most important first: where the
        #: table's page is, why the simulator plays in the terminal. A small terminal shows the
        #: first messages that fit.
        self.notice = notice
        #: The device's words in its language now (the menu may change it): the help, the key
        #: bar and the notes follow.
        self._say = say
        self._hands = hands
        self._display = display
        self._hold_s = hold_s
        self._tap_s = max(TAP_S, debounce_s + 0.05)
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self._now = now
        self._shaker = Shaker(hands)
        self._shake_until: float | None = None
        self._releases: dict[Button, float] = {}
        # Presses typed while their button was still down (True: a long one), and when the next
        # may go down: after the release has outlasted the debounce, so that both count.
        self._queued: dict[Button, list[bool]] = {}
        self._next_press: dict[Button, float] = {}
        self._long_next = False
        self._help = False
        self._seen_version = -1
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending_escape: float | None = None
        self.quit_requested = False
        self._resized = False

    # --- the loop ------------------------------------------------------------------------------

    def run(self, keep_going: Callable[[], bool] = lambda: True) -> None:
        """Play in the terminal until the user quits; the terminal is restored however it ends."""
        with self._terminal():
            self._redraw(force=True)
            while not self.quit_requested and keep_going():
                self._wait_and_read()
                self._tick()
                self._redraw(force=self._resized)

    def close(self) -> None:
        """Close the display's wake-up pipe. Idempotent."""
        self._display.close()

    @contextlib.contextmanager
    def _terminal(self) -> Iterator[None]:
        fd = self._in.fileno()
        saved = termios.tcgetattr(fd)
        previous_winch = signal.getsignal(signal.SIGWINCH)

        def on_resize(signum: int, frame: object) -> None:
            self._resized = True

        try:
            tty.setcbreak(fd, termios.TCSANOW)  # not TCSAFLUSH: keys typed already are kept
            signal.signal(signal.SIGWINCH, on_resize)
            self._write(f"{_CSI}?1049h{_CSI}?25l{_CSI}2J")
            yield
        finally:
            self._release_all()
            signal.signal(signal.SIGWINCH, previous_winch)
            self._write(f"{_CSI}0m{_CSI}2J{_CSI}?25h{_CSI}?1049l")
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def _wait_and_read(self) -> None:
        due = [
            t
            for t in (
                *self._releases.values(),
                *self._next_press.values(),
                self._shaker.next_due(),
                self._shake_until,
            )
            if t
        ]
        if self._pending_escape is not None:
            due.append(self._pending_escape)
        timeout = max(0.0, min(due) - self._now()) if due else 0.5
        # Until the device shows its first frame its inputs may not listen yet: keys typed so far
        # wait in the terminal's input, and are read with that frame.
        started = self._display.snapshot()[1] is not None
        watched = [self._in.fileno(), self._display.wake_fd] if started else [self._display.wake_fd]
        try:
            readable, _, _ = select.select(watched, [], [], timeout)
        except InterruptedError:  # SIGWINCH
            return
        if self._display.wake_fd in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(self._display.wake_fd, 4096)
        if self._in.fileno() in readable:
            data = os.read(self._in.fileno(), 1024)
            if not data:  # the terminal went away
                self.quit_requested = True
                return
            for char in self._decoder.decode(data):
                self.key(char)

    def _tick(self) -> None:
        now = self._now()
        if self._pending_escape is not None and now >= self._pending_escape:
            self.quit_requested = True  # a lone Esc, not the start of an escape sequence
        for button, at in list(self._releases.items()):
            if now >= at:
                del self._releases[button]
                self._hands.release(button)
                if self._queued.get(button):
                    self._next_press[button] = now + self._tap_s
        for button, at in list(self._next_press.items()):
            if now >= at:
                del self._next_press[button]
                self._press(button, self._queued[button].pop(0), now)
        if self._shake_until is not None and now >= self._shake_until:
            self._shake_until = None
            self._shaker.stop()
        self._shaker.tick(now)

    # --- keys ----------------------------------------------------------------------------------

    def key(self, char: str) -> None:
        """Act on one typed character."""
        now = self._now()
        if self._pending_escape is not None:
            self._pending_escape = None  # an escape sequence (arrow key...): ignored
            return
        if char == _ESC:
            self._pending_escape = now + 0.05
            return
        if char in ("q", "Q", "\x04"):
            self.quit_requested = True
            return
        if char in ("h", "H", "?"):
            self._help = not self._help
            self._seen_version = -1
            return
        if char == " ":
            self._long_next = False
            self._shaker.start(now)
            self._shake_until = now + SHAKE_S
            return
        if char == _LONG_PREFIX:
            self._long_next = True
            self._seen_version = -1
            return
        long_press = self._long_next or char in _LONG_KEYS
        self._long_next = False
        button = BUTTON_KEYS.get(char.lower()) or _LONG_KEYS.get(char)
        if button is None:
            return
        if button in self._releases or button in self._next_press:
            # Still down from the last key: this press follows once that one is let go.
            queued = self._queued.setdefault(button, [])
            if len(queued) < QUEUED_PRESSES:
                queued.append(long_press)
            return
        self._press(button, long_press, now)

    def _press(self, button: Button, long_press: bool, now: float) -> None:
        self._hands.press(button)
        self._releases[button] = now + (self._hold_s if long_press else self._tap_s)
        self._seen_version = -1

    def _release_all(self) -> None:
        for button in list(self._releases):
            del self._releases[button]
            self._hands.release(button)
        self._queued.clear()
        self._next_press.clear()
        self._shake_until = None
        self._shaker.stop()

    # --- drawing -------------------------------------------------------------------------------

    def render(self, image: Image.Image | None, light: float) -> str:
        """The whole screen as text with ANSI colours (without the cursor-home prefix): the big
        layout if the terminal has room for it, else the compact one, else what size is needed."""
        columns, rows_available = self.terminal_size()
        notice = self._notice_lines(columns)
        if columns >= NEEDED_SIZE[0] and rows_available >= NEEDED_SIZE[1] + len(notice):
            lines = self._layout(image, light, compact=False) + notice
        elif columns >= COMPACT_SIZE[0] and rows_available >= COMPACT_SIZE[1]:
            room = rows_available - COMPACT_SIZE[1]
            lines = self._layout(image, light, compact=True) + self._notice_lines(columns, room)
        else:
            # A wrapped picture is garbage: say what is needed instead, until the window grows,
            # wrapped at words.
            message = self._say(
                "sim_too_small", size=f"{columns}x{rows_available}",
                needed=f"{COMPACT_SIZE[0]}x{COMPACT_SIZE[1]}",
            )
            lines = textwrap.wrap(message, max(columns - 1, 10))
        return "".join(f"{line}{_CSI}K\r\n" for line in lines)


    def _notice_lines(self, columns: int, room: int | None = None) -> list[str]:
        """The notice wrapped to ``columns``: each of its lines is a message of its own, and
        only whole messages are shown, as many as ``room`` lines hold (all if None)."""
        lines: list[str] = []
        for message in self.notice.splitlines():
            wrapped = [f"  {line}" for line in textwrap.wrap(message, max(columns - 3, 20))]
            if room is not None and len(lines) + len(wrapped) > room:
                break
            lines += wrapped
        return lines

    def terminal_size(self) -> tuple[int, int]:
        """Columns and rows of the terminal: COLUMNS and LINES if set (as :mod:`shutil` reads
        them), else the output's terminal, else the big layout's size."""
        fallback = os.terminal_size(NEEDED_SIZE)
        try:
            size = os.get_terminal_size(self._out.fileno())
        except (AttributeError, ValueError, OSError):
            size = fallback
        if size.columns <= 0 or size.lines <= 0:
            size = fallback
        columns, rows = _whole(os.environ.get("COLUMNS")), _whole(os.environ.get("LINES"))
        return columns or size.columns, rows or size.lines

    def _layout(self, image: Image.Image | None, light: float, compact: bool) -> list[str]:
        """The device's lines: the framed OLED, the buttons and the keys."""
        width = SCREEN_SIZE[0] // 2 if compact else SCREEN_SIZE[0]
        height = SCREEN_SIZE[1] // 4 if compact else SCREEN_SIZE[1] // 2
        if image is None or light == 0:
            rows = [" " * width] * height
        else:
            rows = frame_to_braille(image) if compact else frame_to_blocks(image)
        ink = f"{_CSI}97m" if light >= 0.6 else f"{_CSI}2;37m"
        title = " SCHOCKBESTECK "
        lines = [f"╭{title.center(width + 2, '─')}╮"]
        if self._help:
            rows = _help_rows(width, len(rows), compact, self._say)
            ink = f"{_CSI}0m"
        lines += [f"│ {ink}{row}{_CSI}0m │" for row in rows]
        lines.append(f"╰{'─' * (width + 2)}╯")
        lines.append(self._key_bar(compact))
        say = self._say
        state = (
            say("sim_state_long")
            if self._long_next
            else (say("sim_state_shaking") if self._shaker.shaking else "")
        )
        if compact:  # no room beside the footer: the state stands in for it while it lasts
            lines.append("  " + (state or say("sim_footer_compact")))
        else:
            lines.append(f"  {say('sim_footer')}   {state}".rstrip())
        return lines

    def _key_bar(self, compact: bool) -> str:
        """The buttons, each KEEP under the middle of its legend on the OLED
        (:data:`LEGEND_CENTRES`), FLIP and STAND after the third."""
        pixels_per_column = 2 if compact else 1
        bar = ""
        for button, centre in zip((Button.KEEP_1, Button.KEEP_2, Button.KEEP_3), LEGEND_CENTRES,
                                  strict=True):
            column = 2 + centre // pixels_per_column  # "│ " comes before the OLED's first pixel
            start = column - len(BUTTON_LABELS[button]) // 2 - 1
            bar += " " * max(start - _visible_length(bar), 1) + self._button_label(button)
        return bar + " " + " ".join(self._button_label(b) for b in (Button.FLIP, Button.STAND))

    def _button_label(self, button: Button) -> str:
        label = f"[{BUTTON_LABELS[button]}]"
        return f"{_CSI}7m{label}{_CSI}0m" if button in self._releases else label

    def _redraw(self, force: bool = False) -> None:
        version, image, light = self._display.snapshot()
        if version == self._seen_version and not force:
            return
        self._seen_version = version
        self._resized = False
        self._write(f"{_CSI}H{self.render(image, light)}{_CSI}J")

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()


def terminal_key_help(t: Say) -> tuple[tuple[str, str], ...]:
    """The keys as the terminal reads them, in ``t``'s language (the window's
    :func:`~sim.controls.key_help` holds keys down, which a terminal cannot tell: there a
    capital is the long press)."""
    return (
        ("1 2 3", t("sim_help_keep")),
        ("f", t("sim_help_flip")),
        ("s", t("sim_help_stand")),
        (t("sim_key_space"), t("sim_help_shake_terminal")),
        ('F S ! " §', t("sim_help_long_terminal")),
        (t("sim_key_prefix"), t("sim_help_prefix")),
        (t("sim_key_help_terminal"), t("sim_help_help_terminal")),
        (t("sim_key_quit_terminal"), t("sim_help_quit")),
    )


def _help_rows(width: int, height: int, compact: bool, say: Say) -> list[str]:
    """The help in place of the OLED: ``height`` rows of ``width`` columns."""
    rows = ["", f"  {say('sim_keys_title')}", ""]
    rows += [f"  {keys:<12} {meaning}" for keys, meaning in terminal_key_help(say)]
    note = say("sim_terminal_note_compact" if compact else "sim_terminal_note")
    if compact:
        rows = rows[1:]
    rows += ["", *(f"  {line}" for line in textwrap.wrap(note, min(width - 3, 76)))]
    rows += [""] * (height - len(rows))
    return [row.ljust(width)[:width] for row in rows[:height]]


def _visible_length(text: str) -> int:
    """The columns ``text`` takes on the terminal: its ANSI colour codes take none."""
    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


def _whole(text: str | None) -> int:
    """A positive whole number from an environment variable, or 0."""
    return int(text) if text is not None and text.isascii() and text.isdigit() else 0
