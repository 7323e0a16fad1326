"""The Koppeln screen shows a PIN only while it still pairs: after a page pairs with it, or it
expired, it says so (a phone that paired would otherwise leave a dead PIN up); wrong tries,
counted where they come from, leave it up."""

from __future__ import annotations

import pytest

from firmware.app.stages.base import CLOSE
from firmware.app.stages.menu import PinOverlay
from firmware.link.pairing import PIN_ATTEMPTS, PIN_VALID_S, Pairing, PairingRefused
from firmware.screen.oled_words import OledWords
from hal.ports import Button, InputEvent, InputKind


def shown(overlay: PinOverlay) -> tuple[str, tuple[str, ...]]:
    view = overlay.view(OledWords("de"))
    return view.headline, view.lines


def test_the_screen_says_paired_once_a_page_paired_with_its_pin() -> None:
    pairing = Pairing()
    overlay = PinOverlay(pairing, pairing.show_pin(10.0))
    assert shown(overlay) == (overlay.pin, ("PIN für Seite/Rechner", "gilt 2 Minuten"))
    pairing.pair(overlay.pin, 11.0)
    assert shown(overlay) == ("Gekoppelt", ())
    assert overlay.view(OledWords("en")).headline == "Paired"


def test_wrong_tries_leave_the_pin_up_and_good() -> None:
    pairing = Pairing()
    overlay = PinOverlay(pairing, pairing.show_pin(10.0))
    wrong = "000000" if overlay.pin != "000000" else "111111"
    for _ in range(PIN_ATTEMPTS * 10):
        with pytest.raises(PairingRefused, match=r"^wrong PIN$"):
            pairing.pair(wrong, 11.0)
    assert shown(overlay)[0] == overlay.pin, "wrong tries count where they come from"
    pairing.pair(overlay.pin, 12.0)
    assert shown(overlay) == ("Gekoppelt", ())


def test_the_screen_says_the_pin_is_gone_once_it_expired() -> None:
    pairing = Pairing()
    overlay = PinOverlay(pairing, pairing.show_pin(10.0))
    with pytest.raises(PairingRefused, match=r"^wrong PIN$"):  # as any wrong PIN
        pairing.pair(overlay.pin, 10.0 + PIN_VALID_S + 1)
    assert not pairing.is_shown(overlay.pin, 10.0 + PIN_VALID_S + 1)


def test_a_press_closes_the_screen_and_withdraws_the_pin() -> None:
    pairing = Pairing()
    overlay = PinOverlay(pairing, pairing.show_pin(10.0))
    assert overlay.on_input(InputEvent(InputKind.PRESS, 11.0, Button.STAND)) is CLOSE
    assert not pairing.is_shown(overlay.pin)
    with pytest.raises(PairingRefused):
        pairing.pair(overlay.pin, 12.0)
