"""Names on the device: the setup's names step, the remembered names and the letter wheel.

The first test is the issue's measure: a new user enters three names with the five buttons in
under a minute, on gpiozero's mock pins through the real GpioInput, input decoder and main loop,
with every press held and released as a hand does, counted in the device's clock time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from engine import GameSetup
from firmware.app.device import DeviceApp
from firmware.app.stages.naming import WHEEL
from firmware.config import DeviceConfig, config_from_toml
from firmware.dice import SeededDice
from firmware.screen.shortnames import SHOWN_NAME_LENGTH
from firmware.screen.views import MenuView, NameEntryView, PickerView, RollOffView, SeatsView
from firmware.store.roster import ROSTER_FILE
from hal.ports import Button
from sim.fakes import FakeClock
from tests.harness import build_test_device, make_app

from .conftest import Inputs

K1, K2, K3, FLIP, STAND = (
    Button.KEEP_1, Button.KEEP_2, Button.KEEP_3, Button.FLIP, Button.STAND
)

#: How long a finger holds a button down, and the time until the next press begins: 150 ms a
#: press, tapping as on a phone's keypad (well above the 30 ms debounce).
HOLD_S, RELEASE_S = 0.08, 0.07
#: A look at the screen before taking a letter, and before each step of the setup.
LOOK_S, READ_S = 0.4, 1.0


class Hands:
    """A device on mock pins, a fake clock and a real state directory, and a user's fingers."""

    def __init__(self, factory: MockFactory, state: Path, config: DeviceConfig) -> None:
        self.clock = FakeClock(1000.0)
        self.state = state
        self.started = self.clock.now()
        self.presses = 0
        self.device = build_test_device(
            config, clock=self.clock, pins=factory, dice=SeededDice(3), storage=state
        )
        self.pins = {button: factory.pin(config.pins.of(button)) for button in Button}
        self.device.loop.start()

    @property
    def app(self) -> DeviceApp:
        return self.device.app

    @property
    def elapsed(self) -> float:
        return self.clock.now() - self.started

    def wait(self, seconds: float) -> None:
        self.device.run(until=self.clock.now() + seconds)

    def press(self, button: Button, times: int = 1) -> None:
        for _ in range(times):
            self.pins[button].drive_low()
            self.wait(HOLD_S)
            self.pins[button].drive_high()
            self.wait(RELEASE_S)
            self.presses += 1

    def spell(self, name: str, *, finish: bool = True) -> None:
        """Type ``name`` on the letter wheel, stepping the shorter way round to each letter."""
        for char in name:
            view = self.app.view
            assert isinstance(view, NameEntryView)
            entry = self.app._overlays[-1]  # the letter wheel knows where it stands
            here = entry.position  # type: ignore[attr-defined]
            target = next(i for i, c in enumerate(WHEEL) if c.lower() == char.lower())
            forward = (target - here) % len(WHEEL)
            if forward <= len(WHEEL) - forward:
                self.press(K3, forward)
            else:
                self.press(K1, len(WHEEL) - forward)
            self.wait(LOOK_S)
            assert self.app.view.letter == char  # type: ignore[union-attr]
            self.press(K2)
        if finish:
            self.wait(LOOK_S)
            self.press(STAND)


@pytest.fixture
def hands(mock_factory: MockFactory, tmp_path: Path) -> Hands:
    return Hands(mock_factory, tmp_path / "state", DeviceConfig())


def test_a_new_user_enters_three_names_with_the_buttons_in_under_a_minute(hands: Hands) -> None:
    names = ("Jürgen", "Lena", "Tobias")
    view = hands.app.view
    assert isinstance(view, PickerView) and view.value == "3"
    hands.wait(READ_S)
    hands.press(K3)  # to the names step
    for seat, name in enumerate(names):
        view = hands.app.view
        assert isinstance(view, SeatsView) and view.title == "Namen" and view.selected == seat
        hands.wait(READ_S)
        hands.press(K2)  # the names list for this seat: "Neuer Name…" comes first
        assert isinstance(hands.app.view, MenuView)
        assert hands.app.view.items[0] == "Neuer Name…"
        hands.press(K3)
        hands.spell(name)
    view = hands.app.view
    assert isinstance(view, SeatsView) and [row.name for row in view.rows] == list(names)
    typed_in = hands.elapsed
    presses = hands.presses
    for _ in range(5):  # to the computer seats; rules, Deckel as they are; start
        hands.wait(READ_S)
        hands.press(STAND)
    assert isinstance(hands.app.view, RollOffView)
    assert hands.app.game is not None and hands.app.game.setup.players == names
    # The measure: three names from the first press to the last, in the device's clock time.
    assert typed_in < 60, f"{presses} presses took {typed_in:.1f} s"
    print(f"three names: {presses} presses, {typed_in:.1f} s of device time")
    remembered = json.loads((hands.state / ROSTER_FILE).read_text())
    assert remembered["names"][:3] == list(names)


def test_the_wheel_writes_capitals_first_and_after_a_hyphen_and_refuses_what_cannot_be(
    hands: Hands,
) -> None:
    hands.press(K3)
    hands.press(K2)
    hands.press(K3)  # "Neuer Name…": the letter wheel for seat 1
    view = hands.app.view
    assert isinstance(view, NameEntryView)
    assert (view.title, view.count, view.text, view.letter) == ("Neu: Platz 1", "0/10", "", "A")
    assert view.keys == ("◀ 9", "nimm", "Ä ▶")  # the wheel wraps round; Ä after A
    assert view.legend == ("FLIP löscht · STAND ok", "Halten: Abbruch")
    hands.press(STAND)
    assert hands.app.view.alert == "Name fehlt"  # type: ignore[union-attr]
    hands.spell("Ann-Kathri", finish=False)
    hands.press(K2)  # an eleventh letter is refused
    view = hands.app.view
    assert isinstance(view, NameEntryView)
    assert view.text == "Ann-Kathri" and view.alert == "Höchstens 10 Zeichen"
    assert view.letter == "" and view.count == f"{SHOWN_NAME_LENGTH}/{SHOWN_NAME_LENGTH}"
    hands.press(FLIP)  # deletes the last letter
    assert hands.app.view.text == "Ann-Kathr"  # type: ignore[union-attr]
    hands.press(FLIP)
    hands.press(K1)  # from i back to h, in small letters
    hands.press(K2)
    hands.press(STAND)
    view = hands.app.view
    assert isinstance(view, SeatsView) and view.rows[0].name == "Ann-Kathh"
    assert view.selected == 1, "the next seat is chosen"


def test_a_duplicate_is_refused_and_a_long_press_cancels(hands: Hands) -> None:
    hands.press(K3)
    hands.press(K1)  # seat 2 ("Ben")
    hands.press(K2)
    hands.press(K3)
    hands.spell("Anna")  # seat 1's name, however spelt
    view = hands.app.view
    assert isinstance(view, NameEntryView) and view.alert == "Name gibt es schon"
    assert view.text == "Anna"
    hands.pins[K1].drive_low()  # held: a long press cancels
    hands.wait(1.0)
    hands.pins[K1].drive_high()
    hands.wait(RELEASE_S)
    assert isinstance(hands.app.view, MenuView), "back at the list, nothing changed"
    hands.press(FLIP)
    view = hands.app.view
    assert isinstance(view, SeatsView) and [row.name for row in view.rows] == [
        "Anna", "Ben", "Carla"
    ]


def test_the_list_offers_remembered_names_most_recent_first_but_none_at_another_seat(
    tmp_path: Path, inputs: Inputs
) -> None:
    state = tmp_path / "state"
    config = config_from_toml('[game]\nnames = ["Wolfgang", "Özlem"]\n')
    first = make_app(config, storage=state, setup=GameSetup(("Jo", "Lu", "Anna")))
    assert first.game is not None
    roster = json.loads((state / ROSTER_FILE).read_text())["names"]
    # the game's players first, then the configured players and names not played yet
    assert roster == ["Jo", "Lu", "Anna", "Ben", "Carla", "Wolfgang", "Özlem"]
    # nothing was played: the setup, with the configured seats
    app = make_app(config, storage=state)
    app.handle(inputs.press(K3))
    view = app.view
    assert isinstance(view, SeatsView) and [row.name for row in view.rows] == [
        "Anna", "Ben", "Carla"
    ]
    app.handle(inputs.press(K1))  # seat 2
    app.handle(inputs.press(K2))
    view = app.view
    assert isinstance(view, MenuView) and view.title == "Platz 2: Name"
    assert view.items == ("Neuer Name…", "Jo", "Lu", "Ben", "Wolfgang", "Özlem")
    app.handle(inputs.press(K2))
    app.handle(inputs.press(K3))  # Jo
    view = app.view
    assert isinstance(view, SeatsView) and [row.name for row in view.rows] == [
        "Anna", "Jo", "Carla"
    ]
    assert view.selected == 2
    roster = json.loads((state / ROSTER_FILE).read_text())["names"]
    assert roster[0] == "Jo", "a name chosen moves to the front"


def test_seats_without_a_name_are_numbered_by_seat_and_never_remembered(
    tmp_path: Path, inputs: Inputs
) -> None:
    state = tmp_path / "state"
    app = make_app(storage=state)
    app.handle(inputs.press(K2))  # 4 players
    app.handle(inputs.press(K2))  # 5
    assert isinstance(app.view, PickerView)
    assert app.view.detail == "Anna Ben Carla Spieler4 Spieler5"
    for _ in range(6):
        app.handle(inputs.press(STAND))
    assert app.game is not None
    assert app.game.setup.players == ("Anna", "Ben", "Carla", "Spieler4", "Spieler5")
    assert json.loads((state / ROSTER_FILE).read_text())["names"] == ["Anna", "Ben", "Carla"]
    english = make_app(config_from_toml('[game]\nlanguage = "en"\n'), storage=tmp_path / "other")
    english.handle(inputs.press(K2))
    assert isinstance(english.view, PickerView)
    assert english.view.detail == "Anna Ben Carla Player4"


def test_names_from_the_link_join_the_remembered_names(tmp_path: Path, inputs: Inputs) -> None:
    state = tmp_path / "state"
    app = make_app(storage=state)
    app.plan_next_game(GameSetup(("Kim", "Ute")))  # what the link's setup command does
    assert app.game is not None and app.game.setup.players == ("Kim", "Ute")
    names = json.loads((state / ROSTER_FILE).read_text())["names"]
    assert names[:2] == ["Kim", "Ute"]
