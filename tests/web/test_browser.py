"""The table's page in a real browser: headless Chromium against a real server on 127.0.0.1,
the device on gpiozero's MockFactory pins, its main loop on the real clock.

The time a button press takes to reach the board is measured in the browser (the page stamps
every ``state`` it gets) and asserted only generously here; ``schocken bench`` measures it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from pytest_mock import MockerFixture

from engine import GameSetup, load_preset
from engine.events import DroppedTurn, Roll, RoundOver, TurnOver
from firmware.sink import GameStarted
from hal.ports import Button
from sim.pictures.browser import Browser, browser_missing

from .conftest import SHOWN_TEXTS, WebDevice, WsClient, tap, tap_all, texts, wait_texts

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]


def state_of(client: WsClient) -> dict[str, Any]:
    line = client.command("state", "state")
    assert line.startswith("state "), line
    return dict(json.loads(line.split(" ", 1)[1]))


def paired_client(device: WebDevice) -> WsClient:
    client = WsClient(device.ws_url)
    client.wait_for(lambda line: line.startswith("state "))
    assert client.command(f"pair {device.show_pin()}", "ok pair").startswith("ok pair")
    return client


def open_page(browser: Browser, device: WebDevice) -> None:
    browser.open(device.url)
    # Connected, and the log read: an event published from here on is followed live.
    browser.wait(
        "window.schock && window.schock.connects >= 1 && window.schock.states >= 1"
        " && window.schock.page.logWaiting === false"
    )


def test_a_button_on_the_device_updates_the_board_at_once(
    tmp_path: Path, browser: Browser, record_property: Any
) -> None:
    device = WebDevice(setup=GameSetup(("Anna", "Ben"), load_preset("standard")))
    try:
        host = paired_client(device)
        try:  # the roll-off and Anna's first throw, from a paired host
            for attempt in range(12):
                game = state_of(host)["game"]
                turn = game["turn"]
                if game["phase"] == "turn" and turn and turn["throws"] >= 1:
                    break
                # The roll-off wants a shake; its result and the hand-over a press or a shake.
                shake = game["phase"] == "roll_off" or attempt % 2 == 1
                host.command("shake" if shake else "press stand", "ok")
            else:
                raise AssertionError(f"no throw: {game}")
        finally:
            host.close()
        player = turn["player"]
        open_page(browser, device)
        current = "document.querySelector('#players tr.current').dataset.player"
        board = browser.js(
            f"return {{current: {current}, states: window.schock.states,"
            f" ...{SHOWN_TEXTS}(['turn'])}};"
        )
        assert board["current"] == player
        assert board["turn"].startswith(f"{player} ist dran")
        device.press(Button.STAND)  # on the device: the turn is over, the cup passes on
        released = time.time() * 1000
        # A new state, and in it the cup passed on; when it came (one script waits for both).
        arrived = browser.wait(
            f"window.schock.states > {board['states']} && {current} !== {player!r}"
            " && window.schock.lastStateAt"
        )
        # The 200 ms target is the bench's (docs/performance.md, "press to the board"): a timed
        # assertion here would fail on a busy machine, not on a slow device. Recorded only.
        latency = arrived - released
        record_property("press_to_board_ms", round(latency, 1))
    finally:
        device.close()


def test_pairing_and_a_name_change_from_the_page(
    web_device: WebDevice, browser: Browser
) -> None:
    open_page(browser, web_device)
    assert browser.js("return document.getElementById('apply').disabled"), "unpaired: closed"
    pin = web_device.show_pin()  # the menu's Koppeln shows it on the OLED
    browser.by_id("pin").send_keys("000000" if pin != "000000" else "111111")
    browser.by_id("pair").click()
    note = wait_texts(browser, "document.getElementById('note').textContent.length > 0", "note")
    assert note["note"] == "Falsche PIN, noch 2 Versuche", "the page's own words"
    browser.by_id("pair").click()  # the same wrong PIN again: the last try is one
    note = wait_texts(
        browser, "document.getElementById('note').textContent.endsWith('1 Versuch')", "note"
    )
    assert note["note"] == "Falsche PIN, noch 1 Versuch"
    browser.js("document.getElementById('pin').value = arguments[0]", pin)  # typed just above
    tap(browser, "#pair")
    paired = browser.wait(
        "!document.getElementById('controls').hidden"
        f" && {{token: localStorage.getItem('schockbesteck.token'), ...{SHOWN_TEXTS}(['note'])}}"
    )
    assert paired["token"]
    assert paired["note"] == "", "paired: the box says so, the note waits for a setup"
    first = browser.js("return document.querySelector('#seats input.name')")
    first.clear()
    first.send_keys("Zoe")
    browser.js(
        "const seat = document.querySelectorAll('#seats select.bot')[2];"
        "seat.value = 'odds'; seat.dispatchEvent(new Event('change'));"
    )
    tap(browser, "#apply")
    note = wait_texts(browser, "document.getElementById('note').textContent.length > 0", "note")
    assert note["note"] == "Übernommen"
    for _ in range(100):  # the game's first event, recorded on the device's loop
        started = [e for e in web_device.events if isinstance(e, GameStarted)]
        if started:
            break
        time.sleep(0.02)
    assert started and started[0].players == ("Zoe", "Ben", "Carla")
    assert started[0].bots == (("Carla", "odds"),)
    browser.wait("document.querySelector('#players tr[data-player=\"Zoe\"]') !== null")

    browser.open(web_device.url)  # a reload: the token in localStorage pairs it again
    (pairing_hidden,) = browser.wait(
        "window.schock.page.paired === true && [document.getElementById('pairing').hidden]"
    )
    assert pairing_hidden


def test_an_unpaired_page_cannot_change_anything_shows_the_statistics_and_reconnects(
    web_device: WebDevice, browser: Browser, clients: list[WsClient]
) -> None:
    """An unpaired page's buttons are closed, and what it sends past them is refused in its
    words; its statistics fit a TV's three columns and a small laptop's two; its link dropped,
    it dials again by itself and says so meanwhile; and it speaks English (one page for all)."""
    open_page(browser, web_device)
    selectors = ["#buttons button", "#setup button", "#setup input", "#setup select"]
    shown = browser.js(
        "return {disabled: arguments[0].map((s) =>"
        " [...document.querySelectorAll(s)].every((b) => b.disabled)),"
        f" ...{SHOWN_TEXTS}(['title'])}};",
        selectors,
    )
    assert dict(zip(selectors, shown["disabled"], strict=True)) == dict.fromkeys(selectors, True)
    assert shown["title"] == "Schocken am Tisch"
    # Past the disabled buttons: the page's own socket, sending what a paired page would.
    lines = ["press stand", "shake", 'setup {"players": ["Mallory", "Eve"]}', "hold stand"]
    browser.js("for (const line of arguments[0]) window.schock.page.ws.send(line)", lines)
    note = wait_texts(browser, "document.getElementById('note').textContent.length > 0", "note")
    assert note["note"] == "Erst koppeln (PIN vom Gerät)", "in the page's words"
    watcher = WsClient(web_device.ws_url)
    clients.append(watcher)
    watcher.wait_for(lambda line: line.startswith("state "))
    assert state_of(watcher)["next"]["players"] == ["Anna", "Ben", "Carla"]
    assert web_device.events == []
    _check_the_statistics_fit(browser, ((1920, 1080), (1280, 800)))
    _check_it_reconnects_by_itself_and_says_so_and_speaks_english(web_device, browser)


def _check_it_reconnects_by_itself_and_says_so_and_speaks_english(
    web_device: WebDevice, browser: Browser
) -> None:
    table = web_device.device.web
    assert table is not None
    connects = browser.js("return window.schock.connects")

    def drop_every_page() -> None:
        for page in list(table._pages.values()):
            page.remote.link.close()

    web_device.on_loop(drop_every_page)
    (banners,) = browser.wait(f"window.schock.connects > {connects} && [window.schock.banners]")
    assert "Verbindung getrennt - verbinde neu …" in banners
    browser.wait("document.getElementById('banner').hidden")
    browser.by_id("lang").click()
    english = browser.js(
        f"return {{...{SHOWN_TEXTS}(['title']), lang: document.documentElement.lang}};"
    )
    assert english == {"title": "Schocken at the table", "lang": "en"}


def _check_a_dropped_cup(web_device: WebDevice, browser: Browser) -> None:
    # A dropped cup's row has no throw (dropped_cup = "round"): it is no covered die either.
    table = web_device.device.web
    assert table is not None
    reveal = RoundOver(
        "Anna", "Ben", "Schock 4", "gefallen", 4, "pot", (), 9,
        (("Anna", 0), ("Ben", 4), ("Carla", 0)),
        (TurnOver("Anna", (4, 1, 1), False, 2, "Schock 4", 2), DroppedTurn("Ben")),
    )  # fmt: skip
    web_device.on_loop(lambda: (table.publish_event(reveal), table.flush()))
    rows = browser.wait(
        "document.getElementById('reveal').classList.contains('fresh')"
        " && [...document.querySelectorAll('#reveal .rows li')]"
        ".map((li) => [li.dataset.player, li.querySelector('.what').textContent,"
        " li.querySelectorAll('.die').length])"
    )
    assert rows == [["Anna", "Schock 4 · 2 Würfe", 3], ["Ben", "Becher gefallen", 0]]


@pytest.mark.parametrize(
    "until",
    # The script plays in real time: its first round is over after some 15 s, so `make test`
    # watches the board follow the roll-off live (3 s), the slow selection until the round is
    # in its history (the page's history of rounds is in `make test` in test_spieltag_browser).
    ["live", pytest.param("a-round", marks=pytest.mark.slow)],
)
def test_schocken_sim_web_shows_the_live_board_of_a_scripted_game(
    browser: Browser, tmp_path: Path, until: str
) -> None:
    """The done-when of the page: `schocken sim --web` during a scripted game, in Chromium."""
    import os
    import re
    import signal
    import subprocess
    import sys

    root = Path(__file__).parents[2]
    command = [
        sys.executable, "-m", "schockbesteck", "sim", "--players", "3", "--seed", "7",
        "--no-save", "--script", str(root / "sim" / "scripts" / "whole-game.txt"),
        "--web", "127.0.0.1:0",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        found = re.search(r"die Seite des Tischs: (http://127\.0\.0\.1:\d+/)", first)
        assert found, first
        browser.open(found.group(1))
        (seen,) = browser.wait(
            "window.schock.states >= 1"
            " && document.querySelectorAll('#players tr[data-player]').length === 3"
            " && [window.schock.states]"
        )
        live = wait_texts(browser, f"window.schock.states > {seen}", "turn", timeout=20)
        assert live["turn"].endswith(" ist dran")  # the roll-off, live
        if until == "a-round":
            browser.wait(f"window.schock.states > {seen} + 3", timeout=20)  # it goes on
            browser.wait("document.querySelector('#history .round') !== null", timeout=30)
        assert browser.js("return window.schock.page.paired") is False
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    rest = process.stderr.read() if process.stderr is not None else ""
    # Ctrl+C while the script plays is the usual 130; after it, the page's end: 0.
    assert process.returncode in (0, 130) and "Traceback" not in rest, rest


def _check_the_statistics_fit(browser: Browser, sizes: tuple[tuple[int, int], ...]) -> None:
    """In two or three columns (a laptop, a 16:9 TV) one is too narrow for the statistics'
    seven: the table takes two and shows every column without scrolling, at the widest names
    and three-digit counts (the screen emulated at each of ``sizes``, then cleared)."""
    fields = browser.wait("window.schock.page.stats !== null && window.schock.page.stats.fields")
    figures = {field: 100 for field in fields}  # three digits in every column
    names = ["Maximilian", "Ann-Katrin", "Jo"]  # the widest names the device takes
    body = "document.querySelector('#stats .body')"
    for width, height in sizes:
        browser.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        shown = browser.js(
            "window.schock.page.stats = {fields: arguments[0], players: arguments[1]};"
            f" renderStats(); const body = {body};"
            " return {width: window.innerWidth, columns: body.querySelectorAll('th').length,"
            " cut: body.scrollWidth > body.clientWidth};",
            fields, {name: figures for name in names},
        )  # fmt: skip
        assert shown["width"] == width
        assert shown["columns"] == 1 + len(fields)
        assert not shown["cut"], f"the table is cut at {width} x {height}"
    browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.slow  # `make test`: a TV's three columns and a small laptop's two (one page, above)
def test_the_statistics_fit_a_usual_laptop(web_device: WebDevice, browser: Browser) -> None:
    open_page(browser, web_device)
    _check_the_statistics_fit(browser, ((1366, 768),))


def pair_page(browser: Browser, device: WebDevice) -> None:
    """Pair the open page with the PIN the device's Koppeln shows, put into its box, and tap
    Koppeln (Selenium's own typing and click on them are the pairing test's)."""
    browser.js("document.getElementById('pin').value = arguments[0]", device.show_pin())
    tap(browser, "#pair")
    browser.wait("window.schock.page.paired === true")


def test_a_paired_page_ends_the_game_after_asking_and_sets_up_every_house_rule(
    web_device: WebDevice, browser: Browser, clients: list[WsClient]
) -> None:
    """A running game: an unpaired page can neither end it nor set up; a paired one ends it
    after asking. Then, set up anew from the page, a preset to start from and any option
    changed: the device's next game has them all (one page for both)."""
    web_device.on_loop(
        lambda: web_device.device.app.plan_next_game(
            GameSetup(("Anna", "Ben"), load_preset("standard"))
        )
    )
    open_page(browser, web_device)
    watching = browser.js(
        "return {abandon: document.getElementById('abandon').getClientRects().length,"
        " setup: document.getElementById('setup').hidden};"
    )
    assert watching == {"abandon": 0, "setup": True}, "a watcher: no ending, no setup"
    pair_page(browser, web_device)
    browser.by_id("abandon").click()  # Selenium's click; the dialog's by the page's script
    shown = "return document.getElementById('confirm').getClientRects().length > 0"
    assert browser.js(shown)
    tap(browser, "#abandon-no")  # not yet: nothing is sent
    assert not browser.js(shown)
    assert web_device.on_loop(lambda: web_device.device.app.game) is not None
    tap_all(browser, ["#abandon", "#abandon-yes"])
    # The game's end (its event) and the device's ok to the page (its note), in either order.
    ended = browser.wait(
        "window.schock.page.abandoned === true"
        " && document.getElementById('note').textContent.length > 0 && {applyDisabled:"
        f" document.getElementById('apply').disabled, ...{SHOWN_TEXTS}(['turn', 'note'])}}"
    )
    assert ended["turn"] == "Spiel abgebrochen"
    assert ended["note"] == "Spiel abgebrochen"
    assert web_device.on_loop(lambda: web_device.device.app.game) is None, "the setup is next"
    assert any(type(event).__name__ == "GameAbandoned" for event in web_device.events)
    assert not ended["applyDisabled"], "set up anew"
    _check_a_setup_carries_every_house_rule(web_device, browser, clients)


def _check_a_setup_carries_every_house_rule(
    web_device: WebDevice, browser: Browser, clients: list[WsClient]
) -> None:
    # The preset, then each option as a person sets it (in turn, each with its change event);
    # the note emptied, for the device's answer to the setup.
    house = browser.js(
        "document.getElementById('note').textContent = '';"
        "const preset = document.getElementById('preset');"
        "preset.value = 'bvb'; preset.dispatchEvent(new Event('change'));"
        "document.getElementById('house').open = true;"
        "for (const [rule, value] of arguments[0]) {"
        "  const select = document.querySelector(`#options [data-rule='${rule}'] select`);"
        "  select.value = JSON.stringify(value); select.dispatchEvent(new Event('change'));"
        "}"
        "const box = document.querySelector("
        "  `#options [data-rule='hand_only'] input[value='general']`);"
        "box.checked = true; box.dispatchEvent(new Event('change'));"
        "const deckel = document.getElementById('deckel');"
        "deckel.value = '17'; deckel.dispatchEvent(new Event('input'));"
        f"return {SHOWN_TEXTS}(['house-count']);",
        [["jule", True], ["two_two_one", "neuner"], ["max_throws", 2]],
    )
    assert house["house-count"] == "4 anders als bvb"
    tap(browser, "#apply")
    note = wait_texts(browser, "document.getElementById('note').textContent.length > 0", "note")
    assert note["note"] == "Übernommen"
    for _ in range(100):  # the game starts from the device's setup at once (the second here)
        started = [e for e in web_device.events if isinstance(e, GameStarted)]
        if len(started) == 2:
            break
        time.sleep(0.02)
    game = web_device.on_loop(lambda: web_device.device.app.game)
    rules = game.rules
    expected = {"deckel": 17, "jule": True, "two_two_one": "neuner", "max_throws": 2,
                "hand_only": ["general"]}  # fmt: skip
    assert {key: rules.to_mapping()[key] for key in expected} == expected
    assert rules.general_above_schock2 and rules.ties.value == "nachgelegt", "bvb underneath"
    watcher = WsClient(web_device.ws_url)
    clients.append(watcher)
    watcher.wait_for(lambda line: line.startswith("state "))
    assert state_of(watcher)["game"]["rules_changed"] == {
        key: value for key, value in expected.items()
    }


def test_the_reveal_stays_marked_until_the_next_rounds_first_throw(browser: Browser) -> None:
    """Before the first round the board says "Auswürfeln", not "Runde 0". The reveal is marked
    fresh and the board shows the Deckel it moved until someone throws; then it stays up,
    marked as the round before. A dropped cup's reveal names it (one page for the three)."""
    web_device = WebDevice(setup=GameSetup(("Anna", "Ben", "Carla"), load_preset("standard")))
    try:
        open_page(browser, web_device)
        assert texts(browser, "round", "pot") == {"round": "Auswürfeln", "pot": "Topf 13"}
        _check_the_reveal_marks(web_device, browser)
        _check_a_dropped_cup(web_device, browser)
    finally:
        web_device.close()


def _check_the_reveal_marks(web_device: WebDevice, browser: Browser) -> None:
    table = web_device.device.web
    assert table is not None
    reveal = RoundOver(
        "Anna", "Ben", "Schock 4", "Hausnummer 632", 4, "pot", (), 9,
        (("Anna", 0), ("Ben", 4), ("Carla", 0)),
        (TurnOver("Anna", (4, 1, 1), False, 2, "Schock 4", 2),
         TurnOver("Ben", (6, 3, 2), True, 1, "Hausnummer 632", 2)),
    )  # fmt: skip
    web_device.on_loop(lambda: (table.publish_event(reveal), table.flush()))
    # What the board shows, read in the one script that waits for the reveal's mark.
    board = (
        "{badge: document.querySelector('#reveal .badge').textContent,"
        " moved: [...document.querySelectorAll('#players tr.moved')].map((r) => r.dataset.player),"
        " deltas: [...document.querySelectorAll('#players tr.moved .delta')]"
        ".map((d) => d.textContent),"
        " rows: document.querySelectorAll('#reveal .rows li').length,"
        f" ...{SHOWN_TEXTS}(['pot'])}}"
    )
    fresh = browser.wait(
        f"document.getElementById('reveal').classList.contains('fresh') && {board}"
    )
    assert fresh["badge"] == "gerade aufgedeckt"
    assert fresh["moved"] == ["Ben"]
    assert fresh["deltas"] == ["+4"]
    assert fresh["pot"] == "Topf 13 (-4)"
    throw = Roll("Ben", (), (5, 5, 2))
    web_device.on_loop(lambda: (table.publish_event(throw), table.flush()))
    old = browser.wait(f"document.getElementById('reveal').classList.contains('old') && {board}")
    assert old["badge"] == "nächste Runde läuft"
    assert old["rows"] == 2
    assert old["moved"] == [] and old["pot"] == "Topf 13"


def test_a_page_and_a_pin_refused_as_busy_are_asked_and_sent_again_by_the_page(
    web_device: WebDevice, browser: Browser, mocker: MockerFixture
) -> None:
    """Under a crowd the device may answer a page's first questions with ``error busy``
    (docs/web.md): the page asks again what it has not got, instead of waiting for ever for a log
    that will not come (and ignoring the table's events meanwhile). A ``pair`` over its
    address's budget hears ``error busy`` too: the page says so in its words and sends the PIN
    again by itself, and the person is paired without a second tap (one page for both)."""
    budget = web_device.device.web.budget if web_device.device.web else None
    assert budget is not None
    real_answer, real_call = budget.answer, budget.pairing_call
    refused = 0

    def crowded(lines: int) -> bool:  # the first answers after the greeting: the crowd's turn
        nonlocal refused
        if refused < 3:
            refused += 1
            return False
        return real_answer(lines)

    def crowded_pairing(peer: str) -> bool:  # the first pair: its address over its budget
        return pairings.call_count > 1 and real_call(peer)

    answers = mocker.patch.object(budget, "answer", side_effect=crowded)
    pairings = mocker.patch.object(budget, "pairing_call", side_effect=crowded_pairing)
    # The page asks again 1 to 2 s after a refusal (spread out for a crowd): that wait, and only
    # that one, runs twenty times faster here, from before the page's own script.
    driver = browser.driver
    quicker = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "const realTimeout = window.setTimeout;"
        "window.setTimeout = (f, ms, ...rest) =>"
        "  realTimeout(f, ms >= 1000 && ms <= 2000 ? ms / 20 : ms, ...rest);"
    )})  # fmt: skip
    try:
        browser.open(web_device.url)
        (busy,) = browser.wait(
            "window.schock.busy >= 1 && window.schock.page.logWaiting === false"
            " && window.schock.page.statsWaiting === false"
            " && window.schock.page.framesWaiting === false && [window.schock.busy]",
            timeout=15,
        )
        assert refused == 3 and answers.call_count > 3
        assert pairings.call_count == 0, "no pair asked yet"
        browser.js("document.getElementById('pin').value = arguments[0];"
                   "window.notes = []; new MutationObserver(() => window.notes.push("
                   "document.getElementById('note').textContent)).observe("
                   "document.getElementById('note'), {childList: true, characterData: true,"
                   " subtree: true});", web_device.show_pin())
        tap(browser, "#pair")
        seen = browser.wait(
            "window.schock.page.paired === true && {notes: window.notes,"
            f" busy: window.schock.busy, ...{SHOWN_TEXTS}(['note'])}}",
            timeout=10,
        )
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", quicker)
    assert "Das Gerät ist gerade sehr gefragt: die PIN geht gleich noch einmal hin …" in (
        seen["notes"]
    )
    assert seen["note"] == "", "paired: the note is cleared"
    assert seen["busy"] == busy + 1 and pairings.call_count == 2, "one tap"
