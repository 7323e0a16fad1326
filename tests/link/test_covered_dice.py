"""No die under the cup crosses the link, and only a paired host changes the game.

A whole game is played on the real DeviceApp, by a person and computer players, under rules
that keep the last throw hidden; a host watches without pairing and gets every event, every state,
the log and the frames. The app's own event stream (which the journal needs) has every die: it is
the reference for what must stay covered.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.events import Roll, TurnOver, to_json
from firmware.config import DeviceConfig, GameConfig, LinkConfig
from firmware.link.pairing import PIN_ATTEMPTS
from firmware.link.protocol import encode_frame
from firmware.screen.screens import render
from firmware.screen.views import BannerView, MenuView, TurnView
from firmware.sink import DeviceEvent
from hal.ports import Button, InputEvent, InputKind

from .conftest import AppDevice


def payload(line: str) -> Any:
    return json.loads(line.split(" ", 1)[1])


def press(device: AppDevice, button: Button, kind: InputKind = InputKind.PRESS) -> None:
    device.app.handle(InputEvent(kind, device.clock.advance(0.5), button))
    device.run_pending()


def shake(device: AppDevice) -> None:
    device.app.handle(InputEvent(InputKind.SHAKE_START, device.clock.advance(0.5)))
    device.app.handle(InputEvent(InputKind.THROW, device.clock.advance(0.5)))
    device.run_pending()


def watched_game(**config: Any) -> tuple[AppDevice, list[str]]:
    """A person (Anna) and two computer players play a whole game; an unpaired host watches
    everything, with frames on, and asks for the state and the log after every step."""
    setup = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))
    device_config = replace(DeviceConfig(), game=GameConfig(bots=("", "odds", "threshold")),
                            **config)
    device = AppDevice(setup, config=device_config, trust_serial=False, referee=False, seed=11)
    device.connect()
    lines = device.host_sends("frames on")
    for step in range(4000):
        game = device.app.game
        if game is None or game.is_over:
            break
        if device.app.next_deadline() is not None:  # a computer player, or a screen going on
            device.clock.advance(2.0)
            device.app.advance(device.clock.now())
            device.remote.show(device.app.screen())
            device.run_pending()
        elif step % 3 == 0:
            shake(device)
        else:
            press(device, Button.STAND)
        device.remote.show(device.app.screen())
        lines += device.link.take()
        if step % 25 == 0:
            lines += device.host_sends("state")
            lines += device.host_sends("log")
    game = device.app.game
    assert game is not None and game.is_over, "the game ran to its end"
    return device, lines


def covered_turns(events: list[DeviceEvent]) -> int:
    return sum(1 for event in events if isinstance(event, TurnOver))


def test_no_covered_die_crosses_the_link_in_a_whole_game() -> None:
    device, lines = watched_game()
    full = device.events
    assert covered_turns(full) > 20 and any(isinstance(e, Roll) for e in full)
    events = [payload(line) for line in lines if line.startswith("event ")]
    states = [payload(line)["game"] for line in lines if line.startswith("state ")]
    logged = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(events) == len(full) - 1, "all but game_started, sent before the host came"
    for event in [*events, *logged]:
        if event["event"] == "roll":
            assert event["dice"] is None, event
        elif event["event"] == "turn_over":
            shown = (event["dice"], event["name"], event["kind"], event["hand"])
            assert shown == (None, None, None, None), event  # the kind tells the throw too
    reveals = [event for event in events if event["event"] == "round_over"]
    full_turns = [json.loads(json.dumps(to_json(e))) for e in full if isinstance(e, TurnOver)]
    revealed = [turn for reveal in reveals for turn in reveal["turns"]]
    assert revealed and all(turn.pop("kind") for turn in revealed), "each names its kind"
    assert all(turn in full_turns for turn in revealed), "the reveal shows all"
    in_turn = [state for state in states if state and state["turn"] and state["turn"]["throws"]]
    assert in_turn, "states were taken during turns"
    for state in in_turn:
        turn = state["turn"]
        hidden = [value for value, out in zip(turn["dice"], turn["laid_out"], strict=True)
                  if not out]
        assert hidden and all(value is None for value in hidden), state
        assert state["notation"] is None and state["can"] is None and turn["hand"] is None


def first_throw() -> AppDevice:
    """A device as shipped, with an unpaired host: the first player's first throw is done."""
    setup = GameSetup(("Anna", "Ben"), load_preset("standard"))
    device = AppDevice(setup, trust_serial=False, referee=False)
    device.connect()
    shake(device)  # the roll-off
    press(device, Button.STAND)  # on to the hand-over
    press(device, Button.STAND)  # take the cup
    shake(device)
    return device


def test_an_unpaired_host_sees_the_tables_frames_a_paired_one_the_oled() -> None:
    device = first_throw()
    assert device.app.table_view != device.app.view, "the holder sees the dice, the table does not"
    device.link.take()
    assert device.remote is not None and device.remote.paired is False
    frame = [line for line in device.host_sends("frames on") if line.startswith("frame ")]
    image = render(device.app.table_view)
    assert frame == [f"frame {encode_frame(image)}"]
    assert image.tobytes() != device.app.screen().tobytes()
    device.pairing.show_pin(device.clock.now())


def test_a_marked_die_stays_under_the_cup_for_the_table() -> None:
    # A mark is not laid out: it may be taken back, or the player may stand with it, and the die
    # then goes under the cup to the reveal. Only the engine's laid-out dice are on the table.
    device = first_throw()
    press(device, Button.KEEP_1)  # mark the first die, not thrown with yet
    game = device.app.game
    assert game is not None and game.turn is not None and not any(game.turn.laid_out)
    held = device.app.view
    assert isinstance(held, TurnView) and held.dice[0].out and held.dice[0].value is not None
    table = device.app.table_view
    assert isinstance(table, TurnView)
    assert [face.value for face in table.dice] == [None, None, None], table.dice
    frame = [line for line in device.host_sends("frames on") if line.startswith("frame ")]
    assert frame == [f"frame {encode_frame(render(table))}"]
    press(device, Button.KEEP_1)  # taken back: the table never saw its value either
    press(device, Button.KEEP_1)  # marked again, and the cup shaken: now it goes out for sure
    device.app.handle(InputEvent(InputKind.SHAKE_START, device.clock.advance(0.5)))
    shaking = device.app.table_view
    assert isinstance(shaking, TurnView) and shaking.dice[0] == held.dice[0]


def open_pin(device: AppDevice) -> str:
    """The PIN as a person at the table reads it: menu, Koppeln, the banner on the OLED."""
    press(device, Button.STAND, InputKind.LONG_PRESS)
    menu = device.app.view
    assert isinstance(menu, MenuView)
    for _ in range(menu.items.index("Koppeln")):
        press(device, Button.KEEP_2)
    press(device, Button.KEEP_3)
    banner = device.app.view
    assert isinstance(banner, BannerView) and banner.title == "Koppeln"
    assert device.app.table_screen().tobytes() != device.app.screen().tobytes(), "never mirrored"
    return banner.headline


def test_pressing_needs_pairing_with_the_pin_from_the_menu_and_can_be_revoked() -> None:
    # A network URL: trust_serial never applies there.
    device = AppDevice(trust_serial=True, referee=False, network=True)
    device.connect()
    before = json.dumps(device.host_sends("state"))
    refused = device.host_sends("shake")
    assert refused[0].startswith("error shake needs pairing") and len(refused) == 1
    assert device.host_sends('setup {"players": ["A", "B"]}')[0].startswith("error setup needs")
    assert json.dumps(device.host_sends("state")) == before, "nothing changed"
    pin = open_pin(device)
    assert len(pin) == 6 and pin.isdigit()
    assert device.app.table_screen().tobytes() != device.app.screen().tobytes()
    answer = device.host_sends(f"pair {pin}")
    assert answer[0].startswith("ok pair ")
    token = answer[0].split()[2]
    assert device.host_sends(f"pair {pin}")[0] == (
        "error pair: wrong PIN; 2 tries left on this connection"
    ), "a PIN pairs once (and a used one is answered as any wrong one)"
    press(device, Button.STAND)  # close the PIN's screen
    press(device, Button.FLIP)  # and the menu
    assert device.host_sends("shake")[-1] == "ok shake"
    device.connect()  # a new connection starts unpaired, and the token pairs it again
    assert device.host_sends("shake")[0].startswith("error")
    assert device.host_sends(f"auth {token}") == ["ok auth"]
    press(device, Button.STAND, InputKind.LONG_PRESS)
    menu = device.app.view
    assert isinstance(menu, MenuView) and "Kopplungen löschen" in menu.items
    for _ in range(menu.items.index("Kopplungen löschen")):
        press(device, Button.KEEP_2)
    press(device, Button.KEEP_3)
    assert device.host_sends("press stand")[0].startswith("error press needs pairing")
    assert device.host_sends(f"auth {token}")[0].startswith("error auth: unknown token")


def test_wrong_guesses_lock_the_host_out_and_leave_the_pin_good() -> None:
    device = AppDevice(trust_serial=False, referee=False)
    device.connect()
    wrong = "000000"
    before = device.host_sends(f"pair {wrong}")[0]  # no PIN is shown yet: answered alike
    pin = open_pin(device)
    wrong = "0" * 6 if pin != "0" * 6 else "1" * 6
    answers = [before] + [device.host_sends(f"pair {wrong}")[0] for _ in range(PIN_ATTEMPTS - 1)]
    assert answers[0] == "error pair: wrong PIN; 2 tries left on this connection"
    assert answers[1] == "error pair: wrong PIN; 1 try left on this connection"
    assert answers[-1].startswith("error pair: wrong PIN; too many tries on this connection")
    refused = device.host_sends(f"pair {pin}")[0]
    assert refused.startswith("error pair: wrong PIN; too many tries"), "this host is locked"
    device.connect()  # a new connection (a cable plugged back in): its own tries again
    assert device.host_sends(f"pair {pin}")[0].startswith("ok pair "), "the PIN is still good"


def test_a_trusted_cable_presses_without_pairing() -> None:
    device = AppDevice(trust_serial=True, referee=False)
    hello = device.connect()[0]
    assert '"pairing":"waived"' in hello
    assert device.host_sends("shake")[-1] == "ok shake"


def test_state_names_what_the_rules_change() -> None:
    device = AppDevice(GameSetup(("Anna", "Ben"), load_preset("standard")))
    device.connect()
    game = device.app.game
    assert game is not None
    press(device, Button.STAND, InputKind.LONG_PRESS)  # abandon the game: setup is allowed
    for label in ("Neues Spiel", "Ja, neues Spiel"):
        view = device.app.view
        assert isinstance(view, MenuView)
        for _ in range(view.items.index(label)):
            press(device, Button.KEEP_2)
        press(device, Button.KEEP_3)
    device.link.take()
    lines = device.host_sends('setup {"rules": {"hidden_last_throw": false, "deckel": 7}}')
    assert "ok setup" in lines  # in the setup, the game starts at once: its events come first
    state = payload(lines[-1])
    assert state["game"]["rules"] == "standard"
    assert state["game"]["rules_changed"] == {"deckel": 7, "hidden_last_throw": False}


@pytest.mark.parametrize("referee", [False, True])
def test_the_referee_sees_every_die_and_the_oled_says_so(referee: bool) -> None:
    link = LinkConfig(url="loop://", referee=referee)
    device = AppDevice(config=replace(DeviceConfig(), link=link), referee=referee)
    device.connect()
    for _ in range(2):
        shake(device)
        press(device, Button.STAND)
    shake(device)
    rolls = [payload(line) for line in device.link.take() if line.startswith("event ")]
    rolls = [event for event in rolls if event["event"] == "roll"]
    assert rolls and (rolls[-1]["dice"] is not None) is referee
    marked = device.app.screen()
    plain = render(device.app.view)
    assert (marked.tobytes() != plain.tobytes()) is referee, "SR in the corner while on"


def test_the_tables_frames_do_not_show_that_a_pin_is_up() -> None:
    device = AppDevice(trust_serial=False, referee=False)
    device.connect()
    board = device.app.table_screen().tobytes()
    press(device, Button.STAND, InputKind.LONG_PRESS)
    menu = device.app.table_screen().tobytes()
    assert menu != board, "the menu itself is public"
    open_pin(device)
    assert device.app.table_screen().tobytes() == board, "not the menu with Koppeln chosen"
