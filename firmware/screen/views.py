"""What a screen shows, as frozen values: the contract between the device app and the renderer.

The app (:mod:`firmware.app`) builds one of these views from the game and the menus, with every
text already translated; :func:`firmware.screen.screens.render` turns a view into a 128x64 1-bit
image and nothing else. A view holds no game objects, so two equal views draw the same picture, the
loop can skip a redraw when the view did not change, and tests can compare views directly.

``keys`` (where present) label the three KEEP buttons, which sit below the display: the renderer
draws each label above its button. A computer player's name carries :data:`BOT_MARK` in front
wherever the app shows it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = [
    "BOT_MARK",
    "BannerView",
    "DieFace",
    "HandOverView",
    "MenuView",
    "NameEntryView",
    "PickerView",
    "RevealRow",
    "RevealView",
    "RollOffRow",
    "RollOffView",
    "RulesView",
    "SeatRow",
    "SeatsView",
    "SoftKeys",
    "TableCardView",
    "TableCup",
    "Tally",
    "TurnView",
    "View",
    "marked",
]

#: Labels of the KEEP_1, KEEP_2 and KEEP_3 buttons ("" for none).
SoftKeys = tuple[str, str, str]

NO_KEYS: SoftKeys = ("", "", "")

#: Put before the name of a player the device plays (a gear in the bitmap font).
BOT_MARK = "⚙"


def marked(name: str, bot: bool) -> str:
    """A name with the computer mark if the device plays it."""
    return f"{BOT_MARK}{name}" if bot else name


@dataclass(frozen=True, slots=True)
class DieFace:
    """One die as shown: ``value`` None is a die still in the cup (or not thrown yet).

    ``out``: laid out, or marked to be laid out before the next throw (drawn inverted).
    ``fixed``: laid out in an earlier throw and staying out (underlined).
    """

    value: int | None
    out: bool = False
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's Deckel on the scoreboard."""

    name: str
    deckel: int
    current: bool = False
    out: bool = False


@dataclass(frozen=True, slots=True)
class TurnView:
    """A player's turn: their dice, throw n of the limit, the pot and everyone's Deckel."""

    player: str
    throw_text: str
    dice: tuple[DieFace, ...]
    status: str
    pot_text: str
    board: tuple[Tally, ...]
    shaking: bool = False
    frame: int = 0


@dataclass(frozen=True, slots=True)
class HandOverView:
    """Pass the cup: the next player's name; of the previous turn only the laid-out dice."""

    title: str
    info: str
    player: str
    note: str
    shown: tuple[DieFace, ...]
    hint: str
    board: tuple[Tally, ...]


@dataclass(frozen=True, slots=True)
class RollOffRow:
    """One contender's roll-off throw; ``lead`` marks the best."""

    name: str
    dice: tuple[int, ...]
    lead: bool = False


@dataclass(frozen=True, slots=True)
class RollOffView:
    """Auswürfeln: who opens the first round."""

    title: str
    rows: tuple[RollOffRow, ...]
    waiting: tuple[str, ...]
    message: str
    shaking: bool = False


class RevealMark(enum.IntEnum):
    """The reveal's mark beside a turn: ▲ the highest throw, ▼ the lowest."""

    LOWEST = -1
    NONE = 0
    HIGHEST = 1


@dataclass(frozen=True, slots=True)
class RevealRow:
    """One turn at the reveal, marked if it was the round's highest or lowest throw."""

    name: str
    throw: str
    mark: RevealMark = RevealMark.NONE
    out: bool = False


@dataclass(frozen=True, slots=True)
class RevealView:
    """Aufdecken: every throw of the round in order, then where the Deckel went, and how to go
    on (``hint``)."""

    title: str
    page_text: str
    rows: tuple[RevealRow, ...]
    outcome: str
    hint: str = ""


@dataclass(frozen=True, slots=True)
class BannerView:
    """A big message: half over, the final, game over, a refusal, goodbye, the hint.

    ``aside`` is written at the right end of the title bar, ``note`` in the small font under the
    lines (the hint's other choice)."""

    title: str
    headline: str
    lines: tuple[str, ...]
    keys: SoftKeys = NO_KEYS
    aside: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class MenuView:
    """A list to choose from; ``selected`` is highlighted."""

    title: str
    items: tuple[str, ...]
    selected: int
    keys: SoftKeys = NO_KEYS


@dataclass(frozen=True, slots=True)
class PickerView:
    """One value to set with - and +, as in the setup steps."""

    title: str
    step: str
    value: str
    detail: str
    keys: SoftKeys = NO_KEYS


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat in the setup: the player's name and who plays it (a person or a strategy)."""

    name: str
    role: str


@dataclass(frozen=True, slots=True)
class SeatsView:
    """Which seats the device plays: a list of seats, ``selected`` is the one the keys change."""

    title: str
    step: str
    rows: tuple[SeatRow, ...]
    selected: int
    keys: SoftKeys = NO_KEYS


@dataclass(frozen=True, slots=True)
class NameEntryView:
    """A name spelled letter by letter: ``text`` so far, ``letter`` the one KEEP_2 would add
    (drawn inverted at the cursor; "" when the name is full).

    ``legend`` is the key map of FLIP, STAND and a long press (the KEEP buttons are labelled in
    ``keys``); ``alert`` replaces its last line with a refusal until the next press.
    """

    title: str
    count: str
    text: str
    letter: str
    legend: tuple[str, ...]
    alert: str = ""
    keys: SoftKeys = NO_KEYS


@dataclass(frozen=True, slots=True)
class RulesView:
    """The rules in force, read only: ``entries`` (each wrapped to at most two lines) from
    ``first`` on, scrolled with the keys."""

    title: str
    entries: tuple[str, ...]
    first: int
    keys: SoftKeys = NO_KEYS


@dataclass(frozen=True, slots=True)
class TableCup:
    """The cup of the turn under way as the device's screen shows it to the table now: whose
    turn, the dice (None: in the cup), those marked to lay out with the next throw, and whether
    the cup is shaking. It changes without an event of the rules (a die marked, a computer
    player showing what it lays out, the cup shaken), so the table's page follows it itself."""

    player: str
    dice: tuple[int | None, ...]
    marked: tuple[bool, ...]
    shaking: bool


@dataclass(frozen=True, slots=True)
class TableCardView:
    """A tournament's table card: the table and round, its players, the time left in the
    round, and whether the table's results reached the hub."""

    title: str
    players: tuple[str, ...]
    clock: str
    report: str
    keys: SoftKeys = NO_KEYS


View = (
    TurnView
    | HandOverView
    | RollOffView
    | RevealView
    | BannerView
    | MenuView
    | PickerView
    | SeatsView
    | NameEntryView
    | RulesView
    | TableCardView
)
