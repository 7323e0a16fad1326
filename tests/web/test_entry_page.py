"""A paired phone as the scorekeeper of a real-dice table, in headless Chromium: the page's entry
card against the firmware's own device (gpiozero's MockFactory pins, the real clock, a real
server on 127.0.0.1).

One round is entered tap by tap (each checked as Selenium's click checks it: shown, enabled, not
covered; the settling by Selenium's own click, the pairing's and the language's are
tests/web/test_browser.py's): the roll-off, an impossible
report refused in the page's words, a correction, and the round's last entry changed before it
is settled. Whole
four-player games under ``standard`` and ``dsm`` (the slow selection) are entered by the card's
own buttons (clicked in the page's script, an entry per call), with the results the mock-pins
test enters (``tests/realdice.py``), and every round, the halves, the final and the loser are
checked against ``schocken judge`` settling the same results.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.events import Correct, Report
from firmware.config import DeviceConfig, GameConfig
from firmware.screen.views import TurnView
from sim.pictures.browser import Browser, browser_missing
from tests.realdice import ROLL_OFF_WINNER, Reported, judged_game, roll_off_dice

from .conftest import (
    SHOWN_TEXTS,
    SharedChromium,
    WebDevice,
    WsClient,
    tap,
    tap_all,
    text,
    texts,
    wait_texts,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]

PLAYERS = ("Anna", "Ben", "Carla", "Dora")


def real_dice_device(preset: str, players: tuple[str, ...] = PLAYERS) -> WebDevice:
    config = DeviceConfig(game=GameConfig(players=players, real_dice=True))
    return WebDevice(setup=GameSetup(players, load_preset(preset), real_dice=True), config=config)


@pytest.fixture
def browser(chromium: SharedChromium) -> Iterator[Browser]:
    """A phone's window, 390 x 844."""
    with chromium.window(390, 844) as opened:
        yield opened


def open_paired(browser: Browser, device: WebDevice) -> None:
    """The page, paired with the PIN the device's Koppeln shows, put into the page's box (typed
    and clicked by Selenium in tests/web/test_browser.py)."""
    browser.open(device.url)
    (hidden,) = browser.wait(
        "window.schock.connects >= 1 && window.schock.page.logWaiting === false"
        " && [document.getElementById('entry').hidden]"
    )
    assert hidden, "unpaired: no card"
    browser.js("document.getElementById('pin').value = arguments[0]", device.show_pin())
    tap(browser, "#pair")
    browser.wait("window.schock.page.paired === true && !document.getElementById('entry').hidden")


def click(browser: Browser, selector: str) -> None:
    """A real click (Selenium's: the element must be shown and clickable), as the round's
    settling is clicked; the card's many other taps are :func:`tap`'s."""
    from selenium.webdriver.common.by import By

    browser.driver.find_element(By.CSS_SELECTOR, selector).click()


def entered(browser: Browser) -> int:
    return int(browser.js("return window.schock.entered"))


def enter(browser: Browser, dice: tuple[int, ...], throws: int | None = None,
          hand: bool | None = None) -> None:
    """Tap the dice, the throws and (where the card asks) hand or built, then Eintragen."""
    taps: list[str | tuple[str, str]] = [
        f'#entry-dice [data-die="{index}"] [data-face="{value}"]'
        for index, value in enumerate(dice, start=1)
    ]
    if throws is not None:
        taps.append(f'#entry-throws [data-throws="{throws}"]')
    if hand is not None:
        taps.append((f'#entry-hand [data-hand="{str(hand).lower()}"]', "#entry-hand"))
    tap_all(browser, [*taps, "#entry-ok"])


def wait_entered(browser: Browser, before: int) -> None:
    browser.wait(f"window.schock.entered > {before}")


def card_title(browser: Browser) -> str:
    return str(text(browser, "entry-title"))


#: What the card says (its shown texts), read by :func:`card`.
CARD_TEXTS = ("entry-title", "entry-limit", "entry-summary")


def card(browser: Browser, after: int | None = None) -> dict[str, Any]:
    """What the card shows, in one script: its texts (:data:`CARD_TEXTS`), whether it asks for
    the covered dice, and how many entries the device has taken (``entered``); where ``after``
    is given, once the device has taken more than ``after`` (:func:`wait_entered`)."""
    condition = "true" if after is None else f"window.schock.entered > {after}"
    return dict(browser.wait(
        f"({condition}) && {{entered: window.schock.entered,"
        " covered: !document.getElementById('entry-covered').hidden,"
        f" ...{SHOWN_TEXTS}({json.dumps(CARD_TEXTS)})}}"
    ))


def test_a_round_a_refusal_and_corrections_from_the_page(browser: Browser) -> None:
    device = real_dice_device("standard", ("Anna", "Ben", "Carla"))
    watcher = WsClient(device.ws_url)
    try:
        open_paired(browser, device)
        # The roll-off: one throw per contender, then one rolloff line.
        shown = card(browser)
        assert shown["entry-title"] == "Auswürfeln: Anna (1/3)"
        for throw in [(1, 1, 1), (6, 4, 2), (5, 3, 2)]:
            enter(browser, throw)
        shown = card(browser, after=shown["entered"])
        assert shown["entry-title"] == "Ergebnis von Anna"
        assert shown["entry-limit"] == "max. 3 Würfe"
        assert shown["covered"], "covered"
        enter(browser, (6, 5, 4), throws=2)
        shown = card(browser, after=shown["entered"])
        assert shown["entry-title"] == "Ergebnis von Ben"
        assert shown["entry-limit"] == "max. 2 Würfe", "the opener's limit"
        # Past the buttons, three throws: the engine refuses, the page says so in its words.
        throws = browser.js(
            "window.schock.page.ws.send('report ' + JSON.stringify("
            "{player: 'Ben', dice: [2, 2, 1], throws: 3}));"
            "return [...document.querySelectorAll('#entry-throws [data-throws]')]"
            ".map((b) => b.dataset.throws)"
        )
        assert throws == ["1", "2"]
        note = wait_texts(
            browser, "document.getElementById('entry-note').textContent.length > 0", "entry-note"
        )
        assert note["entry-note"] == "Zu viele Würfe: höchstens 2"
        tap(browser, "#lang")  # the note follows the page's language
        assert text(browser, "entry-note") == "Too many throws: at most 2"
        tap(browser, "#lang")
        enter(browser, (2, 2, 1), throws=1)
        shown = card(browser, after=shown["entered"])
        # Korrigieren: Anna took one throw, not two (the limit falls to one: Ben's still fits).
        tap(browser, '#entry-fix [data-fix="Anna"]')
        fixing = browser.js(
            f"return {{...{SHOWN_TEXTS}(['entry-title']), chosen: [...document.querySelectorAll("
            "'#entry-dice .face.chosen')].map((b) => b.dataset.face)};"
        )
        assert fixing["entry-title"] == "Korrigieren: Anna"
        assert fixing["chosen"] == ["6", "5", "4"], "the card starts from what this page entered"
        tap_all(browser, ['#entry-throws [data-throws="1"]', "#entry-ok"])
        shown = card(browser, after=shown["entered"])
        game = device.on_loop(lambda: device.device.app.game)
        assert [(r.player, r.throws) for r in game.results] == [("Anna", 1), ("Ben", 1)]
        # Carla's is the round's last entry: it waits for "Runde abrechnen", and can change.
        assert shown["entry-title"] == "Ergebnis von Carla"
        enter(browser, (3, 3, 1), throws=1)
        review = wait_texts(
            browser, "!document.getElementById('entry-review').hidden", "entry-summary"
        )
        assert review["entry-summary"] == "Carla: 3\u20113\u20111, 1 Wurf"
        assert device.on_loop(lambda: len(device.device.app.game.results)) == 2, "not sent yet"
        schock_3 = '#entry-dice [data-die="1"] [data-face="1"]'  # 1-3-1
        tap_all(browser, ["#entry-change", schock_3, "#entry-ok"])
        assert text(browser, "entry-summary") == "Carla: 1\u20113\u20111, 1 Wurf"
        click(browser, "#entry-settle")
        rows = browser.wait(
            f"window.schock.entered > {shown['entered']}"
            " && document.querySelectorAll('#reveal .rows li').length === 3"
            " && [...document.querySelectorAll('#reveal .rows li')].map((li) =>"
            " [li.dataset.player, [...li.querySelectorAll('.die')].map((d) => d.dataset.value)"
            ".join('')])"
        )
        # The engine keeps dice highest first.
        assert rows == [["Anna", "654"], ["Ben", "221"], ["Carla", "311"]]
        actions = device.on_loop(lambda: list(device.device.app.game.actions))
        assert [type(a) for a in actions[1:]] == [Report, Report, Correct, Report]
        view = device.on_loop(lambda: device.device.app.view)
        assert type(view).__name__ == "RevealView", "the device's screen followed the page"
        # A watcher saw no die of a reported turn before the reveal (hidden_last_throw).
        events = [json.loads(line.split(" ", 1)[1]) for line in watcher.lines
                  if line.startswith("event ")]  # fmt: skip
        reports = [e for e in events if e["event"] in ("report", "correct", "turn_over")]
        assert reports and all(e["dice"] is None for e in reports)
    finally:
        watcher.close()
        device.close()


@pytest.mark.slow  # `make test`: the device takes a Blind report (test_real_dice_device.py), and
# the card offers Blind at every screen (test_layout.py); the card's round is entered above.
def test_blind_is_announced_on_the_card(browser: Browser) -> None:
    """Under rules with Blind the card offers it: the dice as entered, one throw; the device
    takes it as its menu's "Blind ansagen" would, and the limit for everyone is one throw."""
    rules = replace(load_preset("standard"), blind=True)
    config = DeviceConfig(game=GameConfig(players=("Anna", "Ben"), real_dice=True))
    device = WebDevice(setup=GameSetup(("Anna", "Ben"), rules, real_dice=True), config=config)
    try:
        open_paired(browser, device)
        before = entered(browser)
        for throw in [(1, 1, 1), (6, 4, 2)]:
            enter(browser, throw)
        wait_entered(browser, before)
        for index, value in enumerate((3, 2, 2), start=1):
            tap(browser, f'#entry-dice [data-die="{index}"] [data-face="{value}"]')
        tap(browser, "#entry-blind-toggle")
        assert browser.js("return document.getElementById('entry-throws').hidden")
        before = entered(browser)
        tap(browser, "#entry-ok")
        wait_entered(browser, before)
        (result,) = device.on_loop(lambda: list(device.device.app.game.results))
        assert (result.dice, result.throws, result.blind) == ((3, 2, 2), 1, True)
        assert text(browser, "entry-limit") == "max. 1 Wurf"
        view = device.on_loop(lambda: device.device.app.view)
        assert (view.player, view.throw_text) == ("Ben", "1 W. (max. 1)")
    finally:
        device.close()


def test_the_setup_from_the_page_chooses_real_dice(browser: Browser, tmp_path: Any) -> None:
    config = DeviceConfig(game=GameConfig(players=("Anna", "Ben")))
    device = WebDevice(config=config, state_dir=tmp_path / "state")
    try:
        browser.open(device.url)
        browser.wait("window.schock.connects >= 1 && window.schock.page.logWaiting === false")
        browser.js("document.getElementById('pin').value = arguments[0]", device.show_pin())
        tap(browser, "#pair")
        browser.wait("window.schock.page.paired === true")
        labels, value = browser.js(
            "const choice = document.getElementById('dice-choice');"
            "return [[...choice.options].map((o) => o.text), choice.value];"
        )
        assert labels == ["Elektronische Würfel", "Echte Würfel"]
        assert value == "device"
        browser.js(
            "const choice = document.getElementById('dice-choice');"
            "choice.value = 'real'; choice.dispatchEvent(new Event('change'));"
        )
        tap(browser, "#apply")
        browser.wait("!document.getElementById('entry').hidden")
        game = device.on_loop(lambda: device.device.app.game)
        assert game is not None and game.real_dice
        assert isinstance(device.on_loop(lambda: device.device.app.view), TurnView)
        tap(browser, "#lang")
        assert texts(browser, "entry-title", "entry-ok") == {
            "entry-title": "Roll-off: Anna (1/2)", "entry-ok": "Next"
        }
    finally:
        device.close()


# -- whole games (a few seconds each: the slow selection) -----------------------------------------

#: One entry by the page's own buttons, in one script: the clicks a thumb makes, then Eintragen
#: (and "Runde abrechnen" for a round's last).
ENTER = """
const [dice, throws, hand] = arguments;
const tap = (selector) => {
  const node = document.querySelector(selector);
  if (!node || node.offsetParent === null) throw new Error('not shown: ' + selector);
  node.click();
};
dice.forEach((value, i) => tap(`#entry-dice [data-die="${i + 1}"] [data-face="${value}"]`));
if (throws !== null) tap(`#entry-throws [data-throws="${throws}"]`);
if (hand !== null && !document.getElementById('entry-hand').hidden)
  tap(`#entry-hand [data-hand="${hand}"]`);
tap('#entry-ok');
if (!document.getElementById('entry-review').hidden) tap('#entry-settle');
"""


def enter_fast(browser: Browser, turn: Reported | tuple[int, ...]) -> None:
    before = entered(browser)
    if isinstance(turn, Reported):
        assert card_title(browser) == f"Ergebnis von {turn.player}"
        browser.js(ENTER, list(turn.dice), turn.throws, turn.hand)
    else:
        browser.js(ENTER, list(turn), None, None)
    if isinstance(turn, Reported) or browser.js("return window.schock.page.entryForm === null"
                                                " || window.schock.page.entryForm.sent !== null"):
        wait_entered(browser, before)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "seed"),
    # Each entry re-renders the page: a whole game is seconds of Chromium's CPU, so the slow
    # selection enters them; `make test` enters a round on the page (above) and the same whole
    # games on the mock pins (tests/firmware/test_real_dice_device.py).
    [("standard", 1), ("dsm", 4)],
)
def test_a_whole_real_dice_game_from_the_page_ends_as_judge_settles_it(
    browser: Browser, preset: str, seed: int, monkeypatch: pytest.MonkeyPatch,
    record_property: Any,
) -> None:
    judged = judged_game(PLAYERS, load_preset(preset), preset, seed, monkeypatch)
    device = real_dice_device(preset)
    try:
        open_paired(browser, device)
        started = time.monotonic()
        for throw in roll_off_dice(PLAYERS):
            enter_fast(browser, throw)
        browser.wait(f"window.schock.page.state.game.turn.player === {ROLL_OFF_WINNER!r}")
        for turn in judged.turns:
            enter_fast(browser, turn)
        record_property("entries", len(judged.turns))
        record_property("seconds", round(time.monotonic() - started, 1))
        game = device.on_loop(lambda: device.device.app.game)
        assert game.is_over
        assert (game.loser, list(game.half_losers)) == (judged.loser, judged.half_losers)
        settled = [e for e in device.events if e.kind == "round_over"]
        assert [(e.pot, dict(e.holdings)) for e in settled] == judged.rounds  # type: ignore[attr-defined]
        assert all(isinstance(a, Report) for a in game.actions[1:])
        browser.wait("window.schock.page.state.game.phase === 'over'")
        assert text(browser, "turn") == f"Spielende: {judged.loser} verliert"
        assert browser.js("return document.getElementById('entry').hidden")
    finally:
        device.close()

