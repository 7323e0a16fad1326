"""The simulator's window: the device drawn in pygame, its OLED, five buttons and the cup.

Why not luma.emulator's ``pygame`` device? It owns the window: its ``display()`` sizes the window
to the (scaled) OLED alone, pumps the event queue and calls ``sys.exit()`` when Esc is down. The
device cannot be drawn around it, and the buttons, the cup and a clean shutdown need the event
queue. So the window draws the 1-bit frame itself, with :func:`sim.recorder.render_oled` (the same
look as the recorded GIF: lit pixels as squares with a fainter seam, dimmed with the contrast).

Threads: pygame (events and drawing) runs on the main thread, as SDL wants on every platform; the
firmware's main loop runs on another. :class:`WindowDisplay` is the
:class:`~hal.ports.Display` the firmware draws on: it only stores the newest frame under a lock,
and the window picks it up on its next tick. Keys and clicks go to :class:`~sim.controls.Hands`,
which report raw edges to the firmware's decoder, exactly like the GPIO backend.

Idle, the window draws nothing: a tick (60 a second) only collects pygame's events and looks at
the frame's version. It draws when the frame changed, a button went down or up, the cup is being
shaken, the help opened or closed, or the window itself changed (exposed, resized, focus).

A keyboard does not bounce, but the decoder debounces every edge (30 ms, for the switches of the
device). So a button the window presses stays down for at least :data:`SHORTEST_PRESS_S` past the
debounce, even when key down and key up arrive in the same tick: a tap always counts as a press.

pygame is imported here only, on the first :class:`SimWindow`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from hal.ports import SCREEN_SIZE, Button
from sim.controls import BUTTON_KEYS, BUTTON_LABELS, Hands, Say, Shaker, key_help
from sim.recorder import LatestFrame, render_oled

__all__ = [
    "SHORTEST_PRESS_S",
    "WINDOW_SIZE",
    "SimWindow",
    "WindowDisplay",
    "pygame_problem",
    "window_problem",
]

#: The window's size in pixels.
WINDOW_SIZE = (920, 640)
#: How many window pixels one OLED pixel takes.
OLED_SCALE = 4
_FPS = 60
#: How much longer than the decoder's debounce the shortest press the window reports lasts.
SHORTEST_PRESS_S = 0.02
_OLED_ORIGIN = (74, 104)

# Colours: a dark wooden pub table, a graphite case, amber and red for FLIP and STAND.
_TABLE_TOP = (58, 36, 24)
_TABLE_BOTTOM = (30, 18, 12)
_CASE = (44, 47, 53)
_CASE_EDGE = (78, 83, 92)
_CASE_SHADOW = (14, 9, 6)
_BEZEL = (8, 9, 11)
_LABEL = (176, 182, 190)
_KEEP_CAP = (208, 212, 218)
_FLIP_CAP = (232, 160, 48)
_STAND_CAP = (196, 58, 52)
_CUP = (92, 52, 30)
_CUP_DARK = (62, 34, 20)
_STITCH = (214, 182, 132)


class WindowDisplay(LatestFrame):
    """The :class:`~hal.ports.Display` of the window: keeps the newest frame for the window.

    Called from the firmware's thread; :meth:`snapshot` is read from the window's thread.
    """


@dataclass(frozen=True, slots=True)
class _Control:
    """A clickable button of the drawn device: its rectangle and its cap colour."""

    button: Button
    rect: tuple[int, int, int, int]
    cap: tuple[int, int, int]
    round: bool


def _layout() -> tuple[tuple[int, int], list[_Control], tuple[int, int, int, int]]:
    """Where the OLED, the buttons and the cup go: OLED origin, controls, cup rectangle."""
    oled_w, oled_h = SCREEN_SIZE[0] * OLED_SCALE, SCREEN_SIZE[1] * OLED_SCALE
    oled_x, oled_y = _OLED_ORIGIN
    controls: list[_Control] = []
    keep_y = oled_y + oled_h + 40
    # The KEEP buttons sit under the three dice: the middles of the screen's thirds.
    for index, button in enumerate((Button.KEEP_1, Button.KEEP_2, Button.KEEP_3)):
        middle = oled_x + oled_w * (2 * index + 1) // 6
        controls.append(_Control(button, (middle - 32, keep_y, 64, 64), _KEEP_CAP, True))
    row_y = keep_y + 64 + 44
    controls.append(_Control(Button.FLIP, (oled_x + 34, row_y, 160, 52), _FLIP_CAP, False))
    controls.append(
        _Control(Button.STAND, (oled_x + oled_w - 194, row_y, 160, 52), _STAND_CAP, False)
    )
    cup = (oled_x + oled_w + 112, 170, 140, 190)
    return (oled_x, oled_y), controls, cup


def window_problem(say: Say) -> str | None:
    """Why no window can be opened here, in ``say``'s words, or None if SDL can open one."""
    if not _display_available():
        return say("sim_no_display")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as error:
        return say("sim_no_pygame", error=error)
    try:
        pygame.display.init()
    except pygame.error as error:
        return say("sim_no_sdl", error=error)
    return None


def pygame_problem() -> str | None:
    """Why pygame cannot be used here (not installed), or None."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401  (only whether it is there)
    except ImportError as error:
        return f"pygame is not installed ({error})"
    return None


def _display_available() -> bool:
    """Whether SDL has a chance: a display server on Linux/BSD, always on macOS and Windows."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if os.name == "nt" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class SimWindow:
    """The device in a window: draws :class:`WindowDisplay`'s frames, turns input into edges.

    Keys: 1, 2, 3, F, S press the buttons for as long as they are held (hold for a long press);
    Space shakes the cup while held and throws when let go; H or ? toggles the help; Esc or
    closing the window quits. The mouse presses the drawn buttons and shakes the cup while the
    button is held on it. A press lasts at least ``debounce_s`` (the decoder's) plus
    :data:`SHORTEST_PRESS_S`, however short the tap. :meth:`step` handles one tick (tests call it
    directly); :meth:`run` ticks until the user quits. The captions and the help are ``say``'s,
    the device's words in its language now (the menu may change it).
    """

    def __init__(
        self,
        hands: Hands,
        display: WindowDisplay,
        *,
        title: str = "Schockbesteck",
        now: Callable[[], float] | None = None,
        debounce_s: float = 0.03,
        say: Say,
    ) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self._pg: Any = pygame
        pygame.display.init()
        pygame.font.init()
        try:
            self.surface: Any = pygame.display.set_mode(WINDOW_SIZE)
        except pygame.error:
            pygame.quit()
            raise
        pygame.display.set_caption(title)
        pygame.key.set_repeat()  # no auto-repeat: holding a key is a long press
        self._hands = hands
        self._display = display
        self._now = now if now is not None else _monotonic
        self._shaker = Shaker(hands)
        self._oled_origin, self._controls, self._cup_rect = _layout()
        self._held: set[Button] = set()
        #: When each held button went down, and the buttons let go too soon: when to release them.
        self._pressed_at: dict[Button, float] = {}
        self._release_at: dict[Button, float] = {}
        self._shortest_press_s = debounce_s + SHORTEST_PRESS_S
        #: Whether the next tick must draw (the first one does).
        self._stale = True
        self._key_held: dict[int, Button] = {}
        self._mouse_button: Button | None = None
        self._mouse_shaking = False
        self._key_shaking = False
        self._shake_started = 0.0
        self.help_shown = False
        self.quit_requested = False
        self._oled_surface: Any = None
        self._cup_surface: Any = None
        self._seen_version = -1
        self._fonts = {size: pygame.font.Font(None, size) for size in (22, 26, 30, 40)}
        # The captions' and the help's words: pygame.freetype without kerning, since the default
        # font's kerning pulls "tt" apart ("schüt teln"); sizes as pygame.font's (0.6875 x).
        import pygame.freetype

        pygame.freetype.init()
        self._words: dict[int, Any] = {}
        for size in (22, 30, 40):
            words = pygame.freetype.Font(None, round(size * 0.6875))
            words.kerning = False
            self._words[size] = words
        self._say = say
        self._static_caption = say("sim_cup_caption")
        self._static = self._draw_static()
        self._clock = pygame.time.Clock()
        #: What the window system says when the window must be drawn again (or looks different).
        self._redraw_events = {
            getattr(pygame, name)
            for name in (
                "VIDEOEXPOSE", "VIDEORESIZE", "WINDOWEXPOSED", "WINDOWSHOWN", "WINDOWRESTORED",
                "WINDOWMAXIMIZED", "WINDOWRESIZED", "WINDOWSIZECHANGED", "WINDOWFOCUSGAINED",
                "WINDOWFOCUSLOST", "WINDOWMOVED", "WINDOWDISPLAYCHANGED", "ACTIVEEVENT",
            )
            if hasattr(pygame, name)
        }  # fmt: skip
        self.step()

    # --- the loop ------------------------------------------------------------------------------

    def run(self, keep_going: Callable[[], bool] = lambda: True) -> None:
        """Tick 60 times a second until the user quits or ``keep_going()`` is False."""
        while not self.quit_requested and keep_going():
            self.step()
            self._clock.tick(_FPS)

    def step(self) -> bool:
        """Handle pending events, let go of short presses, shake, and draw if anything changed;
        False once the user asked to quit."""
        for event in self._pg.event.get():
            self.handle(event)
        now = self._now()
        for button, at in list(self._release_at.items()):
            if now >= at:
                del self._release_at[button]
                self._let_go(button)
        self._shaker.tick(now)
        if self._stale or self._shaker.shaking or self._display.version != self._seen_version:
            self._stale = False
            self._draw()
            self._pg.display.flip()
        return not self.quit_requested

    def save_png(self, path: str) -> None:
        """Save what the window shows now as a PNG file (for the README's screenshot)."""
        self._pg.image.save(self.surface, path)

    def close(self) -> None:
        """Let go of everything held and close the window. Idempotent."""
        self._release_all()
        if self._pg.display.get_init():
            self._pg.display.quit()
        self._pg.quit()

    # --- input ---------------------------------------------------------------------------------

    def handle(self, event: Any) -> None:
        """Act on one pygame event."""
        pg = self._pg
        if event.type == pg.QUIT:
            self.quit_requested = True
        elif event.type == pg.KEYDOWN:
            self._key_down(event)
        elif event.type == pg.KEYUP:
            self._key_up(event)
        elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            self._mouse_down(event.pos)
        elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
            self._mouse_up()
        elif event.type == pg.WINDOWFOCUSLOST:
            self._release_all()  # a key released in another window would stay down forever
        if event.type in self._redraw_events:
            self._stale = True

    def _key_down(self, event: Any) -> None:
        pg = self._pg
        char = (event.unicode or "").lower()
        if event.key == pg.K_ESCAPE:
            self.quit_requested = True
        elif event.key == pg.K_h or char == "?":
            self.help_shown = not self.help_shown
            self._stale = True
        elif event.key == pg.K_SPACE:
            self._key_shaking = True
            self._start_shaking()
        else:
            button = self._button_of_key(event.key, char)
            if button is not None and event.key not in self._key_held:
                self._key_held[event.key] = button
                self._press(button)

    def _key_up(self, event: Any) -> None:
        if event.key == self._pg.K_SPACE:
            self._key_shaking = False
            self._stop_shaking()
            return
        button = self._key_held.pop(event.key, None)
        if button is not None:
            self._release(button)

    def _button_of_key(self, key: int, char: str) -> Button | None:
        pg = self._pg
        keypad = {pg.K_KP1: "1", pg.K_KP2: "2", pg.K_KP3: "3"}
        name = keypad.get(key) or (pg.key.name(key) if 0 <= key < 0x110000 else "")
        return BUTTON_KEYS.get(name) or BUTTON_KEYS.get(char)

    def _mouse_down(self, pos: tuple[int, int]) -> None:
        control = self._control_at(pos)
        if control is not None:
            self._mouse_button = control.button
            self._press(control.button)
        elif _inside(pos, self._cup_rect):
            self._mouse_shaking = True
            self._start_shaking()

    def _mouse_up(self) -> None:
        button, self._mouse_button = self._mouse_button, None
        if button is not None:
            self._release(button)
        if self._mouse_shaking:
            self._mouse_shaking = False
            self._stop_shaking()

    def _control_at(self, pos: tuple[int, int]) -> _Control | None:
        for control in self._controls:
            x, y, w, _ = control.rect
            if control.round:
                radius = w / 2
                if math.hypot(pos[0] - (x + radius), pos[1] - (y + radius)) <= radius:
                    return control
            elif _inside(pos, control.rect):
                return control
        return None

    def _press(self, button: Button) -> None:
        if button not in self._held:
            self._held.add(button)
            self._pressed_at[button] = self._now()
            self._stale = True
            self._hands.press(button)

    def _release(self, button: Button) -> None:
        """Let go of ``button`` when no key or click holds it any more; a press shorter than the
        debounce is held on until it counts (see :meth:`step`)."""
        still_held = button in self._key_held.values() or button == self._mouse_button
        if button not in self._held or still_held or button in self._release_at:
            return
        counts_at = self._pressed_at[button] + self._shortest_press_s
        if self._now() < counts_at:
            self._release_at[button] = counts_at
        else:
            self._let_go(button)

    def _let_go(self, button: Button) -> None:
        self._held.discard(button)
        self._pressed_at.pop(button, None)
        self._stale = True
        self._hands.release(button)

    def _start_shaking(self) -> None:
        if not self._shaker.shaking:
            self._shake_started = self._now()
            self._shaker.start(self._shake_started)

    def _stop_shaking(self) -> None:
        if not (self._key_shaking or self._mouse_shaking):
            self._shaker.stop()
            self._stale = True  # the cup comes to rest upright

    def _release_all(self) -> None:
        self._key_held.clear()
        self._mouse_button = None
        self._release_at.clear()
        for button in list(self._held):
            self._let_go(button)
        self._key_shaking = self._mouse_shaking = False
        self._shaker.stop()

    # --- drawing -------------------------------------------------------------------------------

    def oled_rect(self) -> tuple[int, int, int, int]:
        """Where the OLED's pixels are drawn in the window: x, y, width, height."""
        x, y = self._oled_origin
        return x, y, SCREEN_SIZE[0] * OLED_SCALE, SCREEN_SIZE[1] * OLED_SCALE

    def control_center(self, button: Button) -> tuple[int, int]:
        """The middle of ``button`` on the drawn device (where a click presses it)."""
        for control in self._controls:
            if control.button is button:
                x, y, w, h = control.rect
                return x + w // 2, y + h // 2
        raise KeyError(button)

    def cup_center(self) -> tuple[int, int]:
        """The middle of the cup (where a held click shakes it)."""
        x, y, w, h = self._cup_rect
        return x + w // 2, y + h // 2

    def _text(self, text: str, size: int, colour: tuple[int, int, int]) -> Any:
        """``text`` rendered as a surface in the words' font of ``size``."""
        surface, _ = self._words[size].render(text, colour)
        return surface

    def _draw(self) -> None:
        pg = self._pg
        jiggle = (0, 0)
        if self._say("sim_cup_caption") != self._static_caption:  # another language: redraw
            self._static_caption = self._say("sim_cup_caption")
            self._static = self._draw_static()
        if self._shaker.shaking:
            phase = (self._now() - self._shake_started) * 38
            jiggle = (round(3 * math.sin(phase)), round(2 * math.cos(phase * 1.3)))
        self.surface.blit(self._static, (0, 0))
        self._draw_oled()
        for control in self._controls:
            self._draw_control(control, control.button in self._held)
        self._draw_cup(jiggle)
        hint = self._say("sim_help_open") if not self.help_shown else ""
        if hint:
            text = self._text(hint, 22, (150, 120, 96))
            self.surface.blit(text, (WINDOW_SIZE[0] - text.get_width() - 18, WINDOW_SIZE[1] - 30))
        if self.help_shown:
            self._draw_help()
        del pg

    def _draw_oled(self) -> None:
        pg = self._pg
        version, image, light = self._display.snapshot()
        if version != self._seen_version:
            self._seen_version = version
            frame = image if image is not None else Image.new("1", SCREEN_SIZE)
            shown = render_oled(frame, OLED_SCALE, light).convert("RGB")
            self._oled_surface = pg.image.frombytes(shown.tobytes(), shown.size, "RGB")
        self.surface.blit(self._oled_surface, self._oled_origin)

    def _draw_static(self) -> Any:
        """The table, the case and the OLED's bezel: drawn once."""
        pg = self._pg
        static = pg.Surface(WINDOW_SIZE)
        width, height = WINDOW_SIZE
        for y in range(height):
            t = y / height
            colour = [
                round(a + (b - a) * t) for a, b in zip(_TABLE_TOP, _TABLE_BOTTOM, strict=True)
            ]
            pg.draw.line(static, colour, (0, y), (width, y))
        for y in range(9, height, 23):  # the grain of the table
            pg.draw.line(static, (66, 42, 28), (0, y), (width, y + 5), 1)
        ox, oy, ow, oh = self.oled_rect()
        bottom = max(control.rect[1] + control.rect[3] for control in self._controls) + 40
        case = pg.Rect(ox - 48, oy - 70, ow + 96, bottom - (oy - 70))
        shadow = pg.Surface(case.size, pg.SRCALPHA)
        pg.draw.rect(shadow, (*_CASE_SHADOW, 140), shadow.get_rect(), border_radius=44)
        static.blit(shadow, case.move(12, 16))
        pg.draw.rect(static, _CASE_EDGE, case, border_radius=44)
        face = case.inflate(-6, -6)
        gradient = pg.Surface(face.size, pg.SRCALPHA)
        for y in range(face.height):  # light from above: the case brightens towards the top
            lift = round(16 * (1 - y / face.height) ** 2)
            gradient.fill([min(255, c + lift) for c in _CASE], pg.Rect(0, y, face.width, 1))
        mask = pg.Surface(face.size, pg.SRCALPHA)
        pg.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=41)
        gradient.blit(mask, (0, 0), special_flags=pg.BLEND_RGBA_MIN)
        static.blit(gradient, face)
        for sx, sy in (
            (case.x + 26, case.y + 26),
            (case.right - 26, case.y + 26),
            (case.x + 26, case.bottom - 26),
            (case.right - 26, case.bottom - 26),
        ):
            pg.draw.circle(static, (30, 32, 36), (sx, sy), 6)  # the case's four screws
            pg.draw.line(static, (70, 74, 82), (sx - 4, sy - 1), (sx + 4, sy + 1), 2)
        bezel = pg.Rect(ox - 18, oy - 18, ow + 36, oh + 36)
        pg.draw.rect(static, _BEZEL, bezel, border_radius=14)
        pg.draw.rect(static, (34, 36, 41), bezel, width=2, border_radius=14)
        name = self._fonts[26].render("S C H O C K B E S T E C K", True, _LABEL)
        static.blit(name, (case.centerx - name.get_width() // 2, case.y + 26))
        for control in self._controls:
            if control.round:
                label = self._fonts[22].render("KEEP", True, _LABEL)
                x, y, w, h = control.rect
                static.blit(label, (x + w // 2 - label.get_width() // 2, y + h + 16))
        cx, cy, cw, ch = self._cup_rect
        caption = self._text(self._say("sim_cup_caption"), 22, (196, 164, 128))
        static.blit(caption, (cx + cw // 2 - caption.get_width() // 2, cy + ch + 34))
        caption = self._text(self._say("sim_cup_caption_2"), 22, (150, 120, 96))
        static.blit(caption, (cx + cw // 2 - caption.get_width() // 2, cy + ch + 56))
        return static

    def _draw_control(self, control: _Control, pressed: bool) -> None:
        pg = self._pg
        x, y, w, h = control.rect
        depth = 2 if pressed else 6
        cap = [round(c * (0.78 if pressed else 1.0)) for c in control.cap]
        side = [round(c * 0.55) for c in control.cap]
        if control.round:
            centre = (x + w // 2, y + h // 2)
            pg.draw.circle(self.surface, (20, 21, 24), (centre[0], centre[1] + 7), w // 2 + 4)
            pg.draw.circle(self.surface, side, (centre[0], centre[1] + depth), w // 2)
            top = (centre[0], centre[1] + (6 - depth) - 4)
            pg.draw.circle(self.surface, cap, top, w // 2 - 2)
            pg.draw.circle(self.surface, [min(255, c + 22) for c in cap], top, w // 2 - 12, width=2)
            text = self._fonts[30].render(BUTTON_LABELS[control.button], True, (40, 42, 46))
            self.surface.blit(
                text, (top[0] - text.get_width() // 2, top[1] - text.get_height() // 2)
            )
        else:
            well = pg.Rect(x - 4, y + 3, w + 8, h + 8)
            pg.draw.rect(self.surface, (20, 21, 24), well, border_radius=16)
            pg.draw.rect(self.surface, side, pg.Rect(x, y + depth, w, h - 4), border_radius=14)
            top = pg.Rect(x, y + (6 - depth) - 4, w, h - 6)
            pg.draw.rect(self.surface, cap, top, border_radius=14)
            text = self._fonts[30].render(BUTTON_LABELS[control.button], True, (34, 24, 20))
            self.surface.blit(
                text, (top.centerx - text.get_width() // 2, top.centery - text.get_height() // 2)
            )

    def _draw_cup(self, jiggle: tuple[int, int]) -> None:
        pg = self._pg
        if self._cup_surface is None:
            self._cup_surface = self._make_cup()
        angle = 0.0
        if self._shaker.shaking:
            angle = 16 * math.sin((self._now() - self._shake_started) * 30)
        turned = pg.transform.rotate(self._cup_surface, angle)
        x, y, w, h = self._cup_rect
        centre = (x + w // 2 + jiggle[0] * 3, y + h // 2 + jiggle[1] * 3)
        self.surface.blit(turned, turned.get_rect(center=centre))

    def _make_cup(self) -> Any:
        """A leather Knobelbecher, open side up, wider at the foot, with stitched rims."""
        pg = self._pg
        _, _, w, h = self._cup_rect
        cup = pg.Surface((w + 24, h + 24), pg.SRCALPHA)
        left, right, top, bottom = 22, w + 2, 14, h + 6
        flare = 12
        body = [(left, top), (right, top), (right + flare, bottom), (left - flare, bottom)]
        pg.draw.polygon(cup, _CUP, body)
        for band in range(8):  # shading: darker on the left, a sheen right of the middle
            t = band / 8
            colour = [round(c * (0.62 + 0.5 * t - 0.4 * t * t)) for c in _CUP]
            x0 = left + (right - left) * t
            x1 = left + (right - left) * (t + 1 / 8)
            strip = [
                (x0, top),
                (x1, top),
                (x1 + flare * (2 * t + 0.25 - 1), bottom),
                (x0 + flare * (2 * t - 1), bottom),
            ]
            pg.draw.polygon(cup, colour, strip)
        pg.draw.ellipse(cup, _CUP_DARK, pg.Rect(left - 2, top - 9, right - left + 4, 20))
        pg.draw.ellipse(cup, (26, 14, 9), pg.Rect(left + 6, top - 5, right - left - 12, 12))
        pg.draw.ellipse(
            cup, _CUP_DARK, pg.Rect(left - flare, bottom - 9, right - left + 2 * flare, 16)
        )
        for row in (top + 22, bottom - 20):
            spread = flare * (row - top) / (bottom - top)
            for sx in range(round(left - spread + 8), round(right + spread - 8), 11):
                pg.draw.line(cup, _STITCH, (sx, row), (sx + 6, row), 2)
        return cup

    def _draw_help(self) -> None:
        pg = self._pg
        shade = pg.Surface(WINDOW_SIZE, pg.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        self.surface.blit(shade, (0, 0))
        row_height = 38
        rows = key_help(self._say)
        card = pg.Rect(0, 0, 600, 130 + row_height * len(rows))
        card.center = (WINDOW_SIZE[0] // 2, WINDOW_SIZE[1] // 2)
        pg.draw.rect(self.surface, (24, 26, 30), card, border_radius=18)
        pg.draw.rect(self.surface, _FLIP_CAP, card, width=2, border_radius=18)
        title = self._text(self._say("sim_keys_title"), 40, (240, 236, 228))
        self.surface.blit(title, (card.centerx - title.get_width() // 2, card.y + 24))
        split = card.x + 200
        for row, (keys, meaning) in enumerate(rows):
            y = card.y + 78 + row * row_height
            key_text = self._text(keys, 30, _FLIP_CAP)
            self.surface.blit(key_text, (split - 24 - key_text.get_width(), y))
            text = self._text(meaning, 30, (226, 226, 226))
            self.surface.blit(text, (split, y))
        foot = self._text(self._say("sim_help_close"), 22, (160, 160, 160))
        self.surface.blit(foot, (card.centerx - foot.get_width() // 2, card.bottom - 34))


def _inside(pos: tuple[int, int], rect: tuple[int, int, int, int]) -> bool:
    x, y, w, h = rect
    return x <= pos[0] < x + w and y <= pos[1] < y + h


def _monotonic() -> float:
    import time

    return time.monotonic()
