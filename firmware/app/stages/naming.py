"""Names on the device: the list of remembered names for a seat, and spelling a new one.

The setup's names step (:mod:`firmware.app.stages.setup`) opens :class:`RosterPicker` for a seat:
"Neuer Name…" first, then the remembered names (:mod:`firmware.store.roster`), the most recently
used first, without those already at another seat. KEEP_1 and KEEP_2 move, KEEP_3 or STAND takes the
name, FLIP goes back.

"Neuer Name…" opens :class:`NameEntry`, the letter wheel, with the five buttons:

======================  ==========================================================================
KEEP_1 / KEEP_3         one letter back / forward on the wheel (it wraps round)
KEEP_2                  take the letter
FLIP                    delete the last letter
STAND                   done: refuses an empty name and one another seat has, saying so
a long press (any)      cancel: back to the list, nothing changed
======================  ==========================================================================

The wheel is ``A Ä B … O Ö … S ß T U Ü … Z - 0-9``: each umlaut right after its letter, where a
German looks for it. The case follows the name, as names are written: the first
letter and the first after a hyphen are capitals, the others small, so "Ann-Katrin" needs no
shift key. The engine's notation keeps names free of spaces, so the hyphen stands where a space
would. The wheel spells at most :data:`firmware.screen.shortnames.SHOWN_NAME_LENGTH` characters
(what every screen shows whole), and the list offers only remembered names of that length; the
wheel stays on
the letter just taken (double letters cost one press more), and every new name starts at "A".
The input decoder has no auto-repeat (a hold is one long press, :mod:`hal.inputs`), so the wheel
moves one letter a press and a hold means cancel, on every button alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware.app.stages.base import CLOSE, OK_BUTTONS, Overlay, Push, Transition
from firmware.names import name_problem
from firmware.screen.oled_words import OledWords
from firmware.screen.shortnames import SHOWN_NAME_LENGTH
from firmware.screen.views import MenuView, NameEntryView
from hal.ports import Button, InputEvent, InputKind

__all__ = ["WHEEL", "NameEntry", "RosterPicker"]

#: The letter wheel, in the order KEEP_3 steps through it (KEEP_1 the other way).
WHEEL: tuple[str, ...] = tuple("AÄBCDEFGHIJKLMNOÖPQRSßTUÜVWXYZ-0123456789")

#: Takes a chosen or spelt name for the seat; returns what the app does next.
NameTaker = Callable[[str], Transition]


@dataclass(eq=False)
class NameEntry(Overlay):
    """Spell a new name for seat ``seat`` (1-based) with the five buttons (see the module)."""

    seat: int
    #: The names of the other seats: a new name must differ from each (ignoring case).
    taken: frozenset[str]
    on_done: NameTaker
    text: str = ""
    #: Where the wheel stands (an index into :data:`WHEEL`).
    position: int = 0
    #: The refusal shown until the next press (a text key), or "".
    alert: str = ""

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is InputKind.LONG_PRESS:
            return CLOSE
        if event.kind is not InputKind.PRESS:
            return None
        self.alert = ""
        button = event.button
        if button is Button.KEEP_1:
            self.position = (self.position - 1) % len(WHEEL)
        elif button is Button.KEEP_3:
            self.position = (self.position + 1) % len(WHEEL)
        elif button is Button.KEEP_2:
            if len(self.text) >= SHOWN_NAME_LENGTH:
                self.alert = "entry_full"
            else:
                self.text += self.letter()
        elif button is Button.FLIP:
            self.text = self.text[:-1]
        elif button is Button.STAND:
            return self._finish()
        return None

    def letter(self, position: int | None = None) -> str:
        """The wheel's letter at ``position`` (else where it stands), in the case it goes in."""
        char = WHEEL[self.position if position is None else position % len(WHEEL)]
        capital = not self.text or self.text.endswith("-")
        return char if capital or char == "ß" else char.lower()

    def _finish(self) -> Transition | None:
        name = self.text
        if not name:
            self.alert = "entry_empty"
            return None
        if name.casefold() in {other.casefold() for other in self.taken}:
            self.alert = "entry_taken"
            return None
        if name_problem(name) is not None:  # the wheel offers only what is allowed; checked too
            self.alert = "entry_full" if len(name) > SHOWN_NAME_LENGTH else "entry_empty"
            return None
        return self.on_done(name)

    def view(self, texts: OledWords) -> NameEntryView:
        full = len(self.text) >= SHOWN_NAME_LENGTH
        alert = texts.t(self.alert, n=SHOWN_NAME_LENGTH) if self.alert else ""
        keys = (
            f"◀ {self.letter(self.position - 1)}",
            texts.t("entry_take"),
            f"{self.letter(self.position + 1)} ▶",
        )
        return NameEntryView(
            texts.t("entry_title", seat=self.seat),
            f"{len(self.text)}/{SHOWN_NAME_LENGTH}",
            self.text,
            "" if full else self.letter(),
            (texts.t("entry_legend"), texts.t("entry_cancel")),
            alert,
            keys,
        )


@dataclass(eq=False)
class RosterPicker(Overlay):
    """A seat's name from the remembered ones, or "Neuer Name…" (the letter wheel)."""

    seat: int
    #: The remembered names this seat may take, the most recently used first.
    choices: tuple[str, ...]
    #: The names of the other seats (a new name must differ from them).
    taken: frozenset[str]
    on_pick: NameTaker
    #: 0 is "Neuer Name…", then the choices.
    selected: int = 0

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        button = event.button
        count = len(self.choices) + 1
        if button is Button.FLIP:
            return CLOSE
        if button is Button.KEEP_1:
            self.selected = (self.selected - 1) % count
        elif button is Button.KEEP_2:
            self.selected = (self.selected + 1) % count
        elif button in OK_BUTTONS:
            if self.selected == 0:
                return Push(NameEntry(self.seat, self.taken, self.on_pick))
            return self.on_pick(self.choices[self.selected - 1])
        return None

    def view(self, texts: OledWords) -> MenuView:
        items = (texts.t("roster_new"), *self.choices)
        title = texts.t("roster_title", seat=self.seat)
        return MenuView(title, items, self.selected, ("▲", "▼", "OK"))
