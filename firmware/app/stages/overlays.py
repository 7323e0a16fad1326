"""The overlays: a menu, a picker and a message, shown on top of a stage while open.

Buttons are the same on every overlay: KEEP_1 and KEEP_2 move (up and down, or - and +), KEEP_3
and STAND are OK, FLIP goes back (closes the overlay). A message closes on any press.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware.app.stages.base import CLOSE, OK_BUTTONS, Overlay, Step, Transition
from firmware.screen.oled_words import OledWords
from firmware.screen.views import BannerView, MenuView, PickerView
from hal.ports import Button, InputEvent, InputKind

__all__ = ["Menu", "Message", "Picker"]


@dataclass(eq=False)
class Menu(Overlay):
    """A list of entries (text keys), each with the step OK runs; ``values`` fill the
    placeholders of the title and the entries."""

    title: str
    entries: list[tuple[str, Step]]
    selected: int = 0
    values: dict[str, object] = field(default_factory=dict)

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if event.button is Button.FLIP:
            return CLOSE
        if event.button is Button.KEEP_1:
            self.selected = (self.selected - 1) % len(self.entries)
        elif event.button is Button.KEEP_2:
            self.selected = (self.selected + 1) % len(self.entries)
        else:
            return self.entries[self.selected][1]()
        return None

    def view(self, texts: OledWords) -> MenuView:
        items = tuple(texts.t(key, **self.values) for key, _ in self.entries)
        title = texts.t(self.title, **self.values)
        return MenuView(title, items, self.selected, ("▲", "▼", "OK"))


@dataclass(eq=False)
class Picker(Overlay):
    """One of ``count`` values, shown by ``label`` and ``detail``; OK runs ``on_ok``."""

    title: str
    count: int
    index: int
    label: Callable[[int], str]
    detail: Callable[[int], str]
    on_ok: Callable[[int], Transition | None]
    #: Runs on every change of the value (a live preview).
    on_change: Callable[[int], None] | None = None
    #: Runs when FLIP closes the picker without OK (undo the preview).
    on_cancel: Callable[[], None] | None = None
    #: Value 0 is "nobody yet" ("Wer?", in the catalogue's words rather than ``label``'s), where
    #: it starts: a choice with consequences (a penalty) is never made by a single OK.
    nobody_first: bool = False

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        button = event.button
        if button is Button.FLIP:
            if self.on_cancel is not None:
                self.on_cancel()
            return CLOSE
        if button in OK_BUTTONS:
            return self.on_ok(self.index)
        step = -1 if button is Button.KEEP_1 else 1
        self.index = (self.index + step) % self.count
        if self.on_change is not None:
            self.on_change(self.index)
        return None

    def view(self, texts: OledWords) -> PickerView:
        if self.nobody_first:
            shown = self.count - 1
            if self.index == 0:
                return PickerView(
                    texts.t(self.title), f"-/{shown}", texts.t("pick_nobody"),
                    texts.t("pick_nobody_detail"), ("◀", "▶", ""),
                )
            counter = f"{self.index}/{shown}"
        else:
            counter = f"{self.index + 1}/{self.count}"
        return PickerView(
            texts.t(self.title), counter, self.label(self.index), self.detail(self.index),
            ("◀", "▶", "OK"),
        )


@dataclass(eq=False)
class Message(Overlay):
    """A titled message (title as a text key, lines already worded); any press closes it."""

    title: str
    lines: tuple[str, ...]
    headline: str = ""
    #: Only for the player holding the device (the hint): the table sees the stage instead.
    private: bool = False

    def on_input(self, event: InputEvent) -> Transition | None:
        return CLOSE if event.kind is InputKind.PRESS else None

    def view(self, texts: OledWords) -> BannerView:
        return BannerView(texts.t(self.title), self.headline, self.lines, ("", "", "OK"))
