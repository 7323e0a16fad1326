"""The page's Spieltag card in headless Chromium: a paired page begins a Spieltag, a game is
played on the device, the standings follow it, and the sheet comes down as CSV and PDF through
the page's own buttons; without the pairing token the same route gives no file."""

from __future__ import annotations

import base64
import json
import subprocess
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from engine import GameOver, GameSetup, load_preset
from hal.ports import Button, InputEvent, InputKind
from sim.pictures.browser import Browser, browser_missing

from .conftest import SHOWN_TEXTS, WebDevice, WsClient, fill, tap, text, texts, wait_texts
from .test_browser import open_page, pair_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]

PLAYERS = ("Anna", "Ben", "Carla")


def play_a_game(device: WebDevice) -> None:
    """Start a game of three and play it to its end with the cup's inputs (shake, stand), as
    the main loop hands them to the app: the shortest, of 2 Deckel (the page re-renders at every
    event, a second of Chromium's CPU at 3 Deckel, and the standings count a game whatever its
    length)."""
    app = device.device.app
    rules = replace(load_preset("standard"), deckel=2)
    device.on_loop(lambda: app.plan_next_game(GameSetup(PLAYERS, rules)))

    def step(index: int) -> None:
        now = device.clock.now()
        if index % 2 == 0:
            device.device.loop.deliver(InputEvent(InputKind.SHAKE_START, now))
            device.device.loop.deliver(InputEvent(InputKind.THROW, now))
        else:
            device.device.loop.deliver(InputEvent(InputKind.PRESS, now, Button.STAND))

    for index in range(4000):
        if any(isinstance(event, GameOver) for event in device.events):
            return
        device.on_loop(lambda index=index: step(index))
    raise AssertionError("the game did not end")


def download(browser: Browser, button: str) -> tuple[str, bytes]:
    """Click the card's download button; the file's name and bytes as the page got them."""
    browser.js("window.schock.page.lastDownload = null")
    tap(browser, f"#{button}")
    name, status, data = browser.wait(
        "window.schock.page.lastDownload !== null && ((d) => {"
        "let text = ''; if (d.bytes) for (const b of d.bytes) text += String.fromCharCode(b);"
        "return [d.name, d.status, btoa(text)]; })(window.schock.page.lastDownload)",
        timeout=30,
    )
    assert status == 200, status
    return str(name), base64.b64decode(data)


def test_a_paired_page_begins_a_spieltag_sees_the_standings_and_downloads_the_sheet(
    web_device: WebDevice, browser: Browser, clients: list[WsClient], tmp_path: Path
) -> None:
    open_page(browser, web_device)
    card = browser.wait(
        "!document.getElementById('spieltag').hidden"
        " && {form: !document.getElementById('sp-paired').hidden,"
        f" ...{SHOWN_TEXTS}(['sp-info'])}}"
    )
    assert card["sp-info"] == "Kein Spieltag läuft."
    assert not card["form"], "a watcher: no form"
    pair_page(browser, web_device)
    browser.wait("!document.getElementById('sp-begin').hidden")
    # A bad time box first: one line on the card, nothing begun.
    fill(browser, {"#sp-name": "7. Spieltag", "#sp-time-box": "0"})
    browser.by_id("sp-begin-go").click()  # Selenium's click; the card's others are taps
    note = wait_texts(
        browser, "document.getElementById('sp-note').textContent.length > 0", "sp-note"
    )
    assert "time box 0: must be a whole number of minutes from 1 to 600" in note["sp-note"]
    assert not (tmp_path / "state" / "spieltag.json").exists()
    fill(browser, {"#sp-venue": "Zum Anker", "#sp-scheme": "platzpunkte", "#sp-time-box": "70"})
    tap(browser, "#sp-begin-go")
    begun = browser.wait(
        "window.schock.page.spieltag && window.schock.page.spieltag.spieltag !== null"
        f" && {{csvDisabled: document.getElementById('sp-csv').disabled,"
        f" ...{SHOWN_TEXTS}(['sp-info'])}}"
    )
    info = begun["sp-info"]
    assert info.startswith("7. Spieltag · Zum Anker · ") and "Platzpunkte" in info
    assert info.endswith("Zeitlimit: 70 Min.")
    assert begun["csvDisabled"], "no game yet: no sheet"
    kept = json.loads((tmp_path / "state" / "spieltag.json").read_text())
    assert kept["time_box_minutes"] == 70 and kept["scoring"]["preset"] == "platzpunkte"

    play_a_game(web_device)
    standings = browser.wait(
        "document.querySelectorAll('#sp-standings tbody tr').length === 3"
        " && {rows: [...document.querySelectorAll('#sp-standings tbody tr')]"
        ".map((r) => [...r.children].map((c) => c.textContent)),"
        " sub: document.querySelector('#sp-body .sub').textContent}",
        timeout=15,
    )
    assert sorted(row[1] for row in standings["rows"]) == sorted(PLAYERS)
    assert standings["sub"] == "Stand nach 1 Spiel"

    name, data = download(browser, "sp-csv")
    assert name.startswith("Spielberichtsbogen-7-Spieltag-") and name.endswith(".csv")
    assert data.startswith("\ufeff".encode())
    sheet = data.decode("utf-8-sig")
    rows = [line.split(";") for line in sheet.splitlines()]
    assert max(len(row) for row in rows) >= 4 and all(player in sheet for player in PLAYERS)
    name, data = download(browser, "sp-pdf")
    assert name.endswith(".pdf") and data.startswith(b"%PDF")
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(data)
    words = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert all(player in words for player in PLAYERS) and "7. Spieltag" in words

    # Without the token the same route gives no file: the page's own fetch, and a plain one.
    assert browser.js("return fetch('/spieltag.pdf').then((r) => r.status)") == 403
    request = urllib.request.Request(web_device.url + "spieltag.pdf")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403 and not refused.value.read().startswith(b"%PDF")

    # The page ends the Spieltag after asking.
    tap(browser, "#sp-end")
    assert browser.js("return document.getElementById('sp-confirm').getClientRects().length > 0")
    tap(browser, "#sp-end-yes")
    ended = wait_texts(browser, "window.schock.page.spieltag.spieltag === null", "sp-info")
    assert ended["sp-info"] == "Kein Spieltag läuft."
    assert not (tmp_path / "state" / "spieltag.json").exists()


@pytest.mark.parametrize(
    "language",
    # The same flow in English is the slow selection's: the page's English words are measured
    # by tests/web/test_layout.py, the device's "loses, scharf" by test_scharf_device.py.
    ["de", pytest.param("en", marks=pytest.mark.slow)],
)
def test_a_scharf_round_reads_on_the_page_as_the_half_lost(
    tmp_path: Path, browser: Browser, language: str
) -> None:
    """A real-dice game of an evening whose time box has run out: its rounds are scharf from
    the first. The page's history says the loser lost scharf (no "0 Deckel"), and its header
    says scharf where the pot was, as the device's turn screen does."""
    from datetime import timedelta

    from tests.firmware.test_scharf_device import begin_spieltag

    from .test_browser import paired_client

    state = tmp_path / "state"
    state.mkdir()
    begin_spieltag(state, minutes=60, ago=timedelta(minutes=90))
    device = WebDevice(
        setup=GameSetup(PLAYERS, load_preset("standard"), real_dice=True), state_dir=state
    )
    host = None
    try:
        open_page(browser, device)
        if language == "en":
            tap(browser, "#lang")
        host = paired_client(device)
        host.wait_for(lambda line: line.startswith("state ") and '"scharf":"on"' in line)
        host.command('rolloff {"dice": [[1, 1, 1], [6, 4, 2], [5, 3, 2]]}', "ok rolloff")
        for player, dice in (("Anna", "[4, 3, 1]"), ("Ben", "[6, 5, 3]"), ("Carla", "[6, 6, 2]")):
            host.command(
                f'report {{"player": "{player}", "dice": {dice}, "throws": 1}}', "ok report"
            )
        browser.wait("window.schock.page.state.game.section === 2")
        shown = texts(browser, "history", "pot")
        history = shown["history"]
        lost = {"de": "Anna verliert scharf", "en": "Anna loses, scharf"}[language]
        assert lost in history and "0 Deckel" not in history and "+0" not in history
        assert shown["pot"] == "scharf"
    finally:
        if host is not None:
            host.close()
        device.close()


@pytest.mark.slow  # its short form: tests/web/test_spieltag_socket.py's answer of such an evening
def test_a_game_the_scheme_cannot_score_is_said_in_the_setup_and_named_on_the_card(
    tmp_path: Path, browser: Browser
) -> None:
    """A Platzpunkte evening of a game at four taken out and one of two: the card names both
    (nothing counted yet), and the setup of two players says before it begins that the game
    does not count; in German, then in English."""
    from datetime import datetime

    from engine.scoring import load_scheme
    from engine.spieltag import Change, Spieltag
    from firmware.store.spieltagamend import amend_evening
    from firmware.store.spieltagfile import SpieltagFiles
    from hal.storage import StateDirectory
    from tests.durable.evening import play_games

    state = tmp_path / "state"
    storage = StateDirectory(state)
    SpieltagFiles(storage).begin(
        Spieltag("20261201-193000", "7. Spieltag", load_scheme("platzpunkte"), "2026-12-01")
    )
    play_games(state, ("Anna", "Ben", "Carla", "Dora"), 1, seed=2, deckel=3)
    play_games(state, ("Anna", "Ben"), 1, seed=3, deckel=3)
    amend_evening(storage, None, Change.TAKE_OUT, datetime.now().astimezone(), partie=1)
    rules = replace(load_preset("standard"), deckel=3)
    device = WebDevice(setup=GameSetup(("Anna", "Ben"), rules), state_dir=state)
    try:
        open_page(browser, device)
        pair_page(browser, device)
        browser.wait("window.schock.page.spieltag && window.schock.page.spieltag.spieltag")
        lines = browser.js(
            "return [...document.querySelectorAll('#sp-body > div')].map((d) => d.textContent)"
        )
        assert lines == [
            "Partie 1 gestrichen: zählt nicht",
            "Partie 2 zählt nicht: 2 Spieler, Platzpunkte zählt zu dritt oder zu viert",
        ]
        assert text(browser, "setup-uncounted") == (
            "Platzpunkte zählt zu dritt oder zu viert: dieses Spiel zählt nicht"
        )
        tap(browser, "#lang")
        browser.wait("document.getElementById('setup-uncounted').textContent.startsWith('Platz"
                     "punkte counts')")
        assert text(browser, "setup-uncounted") == (
            "Platzpunkte counts at tables of 3 or 4: this game does not count"
        )
        assert "Game 2 not counted: 2 players, Platzpunkte counts at tables of 3 or 4" in (
            text(browser, "sp-body")
        )
    finally:
        device.close()
