"""The page's layout at a table's screens, measured in the DOM of headless Chromium.

Four screens (a small phone upright, a phone upright and on its side, a laptop; `make test` the
small phone's, the slow selection all four), both languages, a watcher and a paired page:
nothing may stick out of its box or out of the screen's width (every element's ``scrollWidth``
within its ``clientWidth``, every box inside the viewport, no sideways scrolling, no choice that
cuts any of its options). The content is the widest the device allows: ten players of ten
letters, two-digit Deckel, every tag, a reveal of ten turns with a tie and a dropped cup. The
reveal comes through the device's own :class:`~firmware.link.webtable.WebTable` (and so through
``tablefeed``, which adds the tie); the board's worst case is handed to the page's own
``gotState``, as a ``state`` line would be.

One browser and one device serve the whole module: the screen size is switched with Chromium's
device metrics, the language with the page's button, pairing with ``auth``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import GameSetup, load_preset
from engine.events import DroppedTurn, RoundOver, TurnOver
from firmware.config import DeviceConfig, GameConfig
from firmware.link.webtable import page_texts
from sim.pictures.browser import Browser, browser_missing

from .conftest import SharedChromium, WebDevice, WsClient, tap

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing())),
]

#: The screens: a small phone and a usual one upright, the usual one on its side, a laptop.
#: `make test` measures the narrowest, where text runs out of room first (and the phone on its
#: side and the laptop in tests of their own); the slow selection every screen.
SIZES = [
    (360, 740),
    *(pytest.param(size, marks=pytest.mark.slow) for size in ((390, 844), (844, 390), (1366, 768))),
]
#: Ten players with the longest names the device takes (ten characters).
PLAYERS = (
    "Maximilian", "Ann-Katrin", "Bernadette", "Christophe", "Wilhelmine", "Friederike",
    "Konstantin", "Margarethe", "Jo", "Alexandros",
)  # fmt: skip


@pytest.fixture(scope="module")
def device() -> Iterator[WebDevice]:
    players = PLAYERS[:4]  # the device's own game; the board's ten come in a state
    config = DeviceConfig(game=GameConfig(players=players))
    opened = WebDevice(setup=GameSetup(players, load_preset("standard")), config=config)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="module")
def browser(device: WebDevice, chromium: SharedChromium) -> Iterator[Browser]:
    with chromium.window(1366, 768) as opened:
        opened.open(device.url)
        opened.wait("window.schock.connects >= 1 && window.schock.page.logWaiting === false")
        yield opened


def new_token(device: WebDevice) -> str:
    """A fresh pairing token for the browser's page, from a client paired with the menu's PIN
    (the page's Entkoppeln revokes the token it had, so each pairing needs its own)."""
    client = WsClient(device.ws_url)
    try:
        client.wait_for(lambda line: line.startswith("state "))
        answer = client.command(f"pair {device.show_pin()}", "ok pair")
        assert answer.startswith("ok pair "), answer
        return answer.split()[2]
    finally:
        client.close()


def worst_reveal() -> RoundOver:
    """A round of ten: a tie at the bottom (the same Hausnummer, one throw more), a dropped
    cup, and the Deckel going from the winner to the loser."""
    turns: list[TurnOver | DroppedTurn] = []
    for index, name in enumerate(PLAYERS):
        if index == 4:
            turns.append(DroppedTurn(name))
        elif index == 8:
            turns.append(TurnOver(name, (4, 2, 1), False, 3, "Hausnummer 421", 3))
        elif index == 2:
            turns.append(TurnOver(name, (4, 2, 1), False, 2, "Hausnummer 421", 3))
        else:
            turns.append(TurnOver(name, (1, 1, 1), True, 1, "Schock aus", 3))
    holdings = tuple((name, 13) for name in PLAYERS)
    return RoundOver(
        "Maximilian", "Jo", "Schock aus", "Hausnummer 421", 13, "winner", (), 0, holdings,
        tuple(turns),
    )  # fmt: skip


def worst_state() -> dict[str, Any]:
    """The board at its widest: ten players, two-digit Deckel, every tag, a turn under way."""
    holdings = {name: 10 + index for index, name in enumerate(PLAYERS)}
    game = {
        "players": list(PLAYERS), "rules": "standard", "rules_changed": {}, "phase": "turn",
        "section": 2, "round": 12, "pot": 0, "holdings": holdings, "out": [PLAYERS[7]],
        "in_play": list(PLAYERS[:7]), "limit": 3,
        "turn": {"player": PLAYERS[1], "dice": [6, None, 1], "laid_out": [True, False, True],
                 "throws": 2, "limit": 3, "hand": None, "flipped": False, "blind": False},
        "can": None, "half_losers": [PLAYERS[3], PLAYERS[3]], "loser": None, "notation": None,
    }  # fmt: skip
    bots = ["threshold" if index % 2 else "odds" for index in range(len(PLAYERS))]
    next_game = {"players": list(PLAYERS), "rules": "bvb", "rules_changed": {"jule": True},
                 "bots": bots}  # fmt: skip
    return {"game": game, "next": next_game}


def worst_spieltag() -> dict[str, Any]:
    """The Spieltag card at its widest: long name and venue, the longest time box, scharf, ten
    players with three-digit and negative points."""
    spieltag = {
        "id": "20261201-190000", "name": "Spieltag der Schockfreunde Werl-Büderich 2026",
        "venue": "Gaststätte Zum Alten Anker am Marktplatz", "date": "2026-12-01",
        "scheme": "platzpunkte", "lives": False, "time_box": 600,
        "began_at": "2026-12-01T19:00:00+01:00",
    }  # fmt: skip
    lines = [
        {"place": index + 1, "player": name, "score": 100 - 23 * index, "out": False}
        for index, name in enumerate(PLAYERS)
    ]
    return {"spieltag": spieltag, "scharf": True, "games": 10, "standings": lines}


def show_the_worst(device: WebDevice, browser: Browser) -> None:
    """The reveal from the device, then the board (the reveal's batch brings a state)."""
    table = device.device.web
    assert table is not None
    reveal = worst_reveal()
    device.on_loop(lambda: (table.publish_event(reveal), table.flush()))
    browser.wait("document.querySelectorAll('#reveal .rows li').length === 10")
    browser.wait("window.schock.page.state.game.players.length === 4")
    browser.js("gotState(arguments[0])", worst_state())
    # The statistics of the ten, three digits in every column (the device keeps none here).
    fields = ["games", "lost", "halves_lost", "blattschuss", "schocks", "schock_aus"]
    players = {name: {field: 100 for field in fields} for name in PLAYERS}
    browser.js(
        "window.schock.page.stats = {fields: arguments[0], players: arguments[1]}; renderStats();",
        fields, players,
    )  # fmt: skip
    browser.wait("window.schock.page.spieltagWaiting === false")  # the device's own answer
    browser.js("gotSpieltag(arguments[0])", worst_spieltag())  # as a spieltag line would


@pytest.fixture(scope="module")
def shown(device: WebDevice, browser: Browser) -> Browser:
    """The browser showing the worst case."""
    show_the_worst(device, browser)
    return browser


#: Every visible element that sticks out of its box or out of the screen's width.
MEASURE = """
const width = document.documentElement.clientWidth, problems = [];
const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
  + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '')
  + (e.textContent ? ' "' + e.textContent.trim().slice(0, 30) + '"' : '');
for (const e of document.body.querySelectorAll('*')) {
  if (!e.getClientRects().length) continue;  // not shown (hidden, or in a closed box)
  const box = e.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  if (box.left < -0.5 || box.right > width + 0.5)
    problems.push(name(e) + ' outside the screen: ' + box.left.toFixed(1) + '..'
      + box.right.toFixed(1));
  if (!(e instanceof SVGElement) && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
    problems.push(name(e) + ' overflows: ' + e.scrollWidth + ' > ' + e.clientWidth);
}
// A choice shows any of its options whole, each could be the one chosen (a select cuts its
// words without a scrollWidth): a copy of it as wide as it likes, the widest option and the
// arrow, must be no wider than the select.
for (const select of document.querySelectorAll('select')) {
  if (!select.getClientRects().length) continue;
  const whole = select.cloneNode(true);
  whole.removeAttribute('id');
  for (const [property, value] of [['width', 'auto'], ['min-width', '0'], ['max-width', 'none'],
    ['flex', 'none'], ['position', 'absolute'], ['visibility', 'hidden']])
    whole.style.setProperty(property, value, 'important');
  select.after(whole);
  const needs = whole.getBoundingClientRect().width, has = select.getBoundingClientRect().width;
  whole.remove();
  if (needs > has + 0.5) {
    const widest = [...select.options].map((o) => o.text).sort((a, b) => b.length - a.length)[0];
    problems.push(name(select) + ' cuts "' + widest + '": ' + needs.toFixed(0) + ' > '
      + has.toFixed(0));
  }
}
if (document.documentElement.scrollWidth > width)
  problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
return problems;
"""

#: Every shown control (button, field, choice) that is not the language button or pairing's.
CONTROLS = """
return [...document.querySelectorAll('button, input, select, details')]
  .filter((e) => e.getClientRects().length && !e.closest('#pairing') && e.id !== 'lang')
  .map((e) => e.id || e.textContent.trim() || e.tagName);
"""


def set_size(browser: Browser, size: tuple[int, int]) -> None:
    width, height = size
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900},
    )
    browser.wait(f"document.documentElement.clientWidth === {width}")


def set_language(browser: Browser, language: str) -> None:
    if browser.js("return window.schock.page.lang") != language:
        tap(browser, "#lang")  # Selenium's own click on it is tests/web/test_browser.py's
    assert browser.js("return document.documentElement.lang") == language


def set_paired(browser: Browser, paired: bool, device: WebDevice) -> None:
    if paired and not browser.js("return window.schock.page.paired"):
        browser.js("window.schock.page.ws.send('auth ' + arguments[0])", new_token(device))
        browser.wait("window.schock.page.paired === true")
        browser.js("document.getElementById('house').open = true;"
                   "document.getElementById('abandon').click();"
                   "document.getElementById('sp-end').click()")  # the confirmations show
        browser.wait("!document.getElementById('confirm').hidden")
        browser.wait("!document.getElementById('sp-confirm').hidden")
    elif not paired and browser.js("return window.schock.page.paired"):
        connects = browser.js("return window.schock.connects")
        tap(browser, "#forget")  # a fresh greeting: the page reads the log again
        browser.wait(f"window.schock.connects > {connects}")
        browser.wait("!window.schock.page.paired && !window.schock.page.logWaiting")
        show_the_worst(device, browser)  # the greeting's log has the device's game only


def german_only_words() -> set[str]:
    """Pieces of the page's German texts that no English text holds (e.g. " ist dran")."""
    texts = page_texts()
    english = " ".join(texts["en"].values())
    pieces = set()
    for key, german in texts["de"].items():
        if german == texts["en"][key] or key == "web_language":  # the button names the other
            continue
        for piece in re.split(r"{\w+}", german):
            piece = piece.strip(" :,.()")
            if len(piece) >= 5 and piece not in english:
                pieces.add(piece)
    return pieces


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("paired", [False, True], ids=["watcher", "paired"])
def test_nothing_sticks_out_at_any_screen(
    shown: Browser,
    device: WebDevice,
    size: tuple[int, int],
    language: str,
    paired: bool,
) -> None:
    set_paired(shown, paired, device)
    set_language(shown, language)
    set_size(shown, size)
    assert shown.js("return document.querySelectorAll('#players tbody tr').length") == 10
    problems = shown.js(MEASURE)
    assert problems == [], "\n".join(problems)
    controls = shown.js(CONTROLS)
    if paired:
        assert {"abandon", "apply", "preset", "abandon-yes"} <= set(controls)
        assert {"sp-csv", "sp-pdf", "sp-end", "sp-end-yes"} <= set(controls), "the Spieltag's"
    else:
        assert controls == [], f"a watcher sees controls it cannot use: {controls}"
    if language == "en":
        text = shown.js("return document.body.innerText")
        # The device speaks German here: its menu's word, quoted as its OLED shows it, is the one
        # German word the English page may hold ("PIN from the device (menu: Koppeln)").
        quoted = {page_texts()["de"]["menu_pair"]}
        german = sorted(p for p in german_only_words() - quoted if p in text)
        assert german == [], f"German on the English page: {german}"


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_spieltag_form_fits_at_any_screen(
    shown: Browser, device: WebDevice, size: tuple[int, int], language: str
) -> None:
    """A paired page with no Spieltag going on: the form to begin one, filled as a league fills
    it (a longer text scrolls inside its field, as any field's does)."""
    set_paired(shown, True, device)
    set_language(shown, language)
    set_size(shown, size)
    shown.js(
        "gotSpieltag({spieltag: null});"
        "document.getElementById('sp-name').value = '12. Spieltag, Kreisliga Süd';"
        "document.getElementById('sp-venue').value = 'Zum Alten Anker, Markt 3';"
        "document.getElementById('sp-time-box').value = '600';"
        "document.getElementById('sp-scheme').value = 'verlustpunkte';"
    )
    try:
        assert {"sp-name", "sp-venue", "sp-date", "sp-scheme", "sp-time-box", "sp-begin-go"} <= set(
            shown.js(CONTROLS)
        )
        problems = shown.js(MEASURE)
        assert problems == [], "\n".join(problems)
    finally:
        shown.js("gotSpieltag(arguments[0]); document.getElementById('sp-end').click()",
                 worst_spieltag())


def test_the_reveal_shows_dice_throws_marks_and_the_tie(
    shown: Browser, device: WebDevice
) -> None:
    set_paired(shown, False, device)
    set_language(shown, "de")
    set_size(shown, (390, 844))
    rows = shown.js("""return [...document.querySelectorAll('#reveal .rows li')].map((li) => ({
        player: li.dataset.player, mark: li.querySelector('.mark').textContent,
        dice: [...li.querySelectorAll('.die')].map((d) => d.dataset.value).join(''),
        what: li.querySelector('.what').textContent,
        tie: li.querySelector('.tie') ? li.querySelector('.tie').textContent : null }))""")
    by_player = {row["player"]: row for row in rows}
    assert by_player["Jo"] == {
        "player": "Jo", "mark": "▼", "dice": "421", "what": "Hausnummer 421 · 3 Würfe",
        "tie": "gleich mit Bernadette: weniger Würfe liegen vorn",
    }  # fmt: skip
    assert by_player["Maximilian"]["mark"] == "▲" and by_player["Maximilian"]["dice"] == "111"
    assert by_player["Wilhelmine"]["what"] == "Becher gefallen"
    assert by_player["Wilhelmine"]["dice"] == ""
    moves = shown.js(
        "return [...document.querySelectorAll('#reveal .move')].map((m) => m.textContent)"
    )
    assert moves == ["Maximilian gibt Jo 13 Deckel"]
    assert shown.js("return document.getElementById('reveal').classList.contains('fresh')")


def test_a_phone_on_its_side_has_the_board_and_the_reveal_side_by_side(
    shown: Browser, device: WebDevice
) -> None:
    set_paired(shown, False, device)
    set_size(shown, (844, 390))
    board, reveal = (
        shown.js(f"return document.getElementById('{name}').getBoundingClientRect().toJSON()")
        for name in ("board", "reveal")
    )
    assert abs(board["top"] - reveal["top"]) < 1 and board["right"] <= reveal["left"]
    assert reveal["top"] < 390 / 3, "both begin in the upper third of the screen"


def test_the_turn_bar_stays_in_sight(shown: Browser, device: WebDevice) -> None:
    set_paired(shown, False, device)
    set_language(shown, "en")
    set_size(shown, (360, 740))
    shown.js("window.scrollTo(0, document.body.scrollHeight)")
    shown.wait("window.scrollY > 1000")
    bar = shown.js("return document.getElementById('bar').getBoundingClientRect().toJSON()")
    assert bar["top"] == 0 and bar["height"] > 0
    assert shown.by_id("turn").text == "Ann-Katrin to play"
    assert shown.by_id("throws").text == "Throw 2/3"
    dice = shown.js(
        "return [...document.querySelectorAll('#dice .die')].map((d) => d.dataset.value)"
    )
    assert dice == ["6", "?", "1"], "the die in the cup stays a ?"
    shown.js("window.scrollTo(0, 0)")


#: The rounds' lines that the bottom edge of their scrolling box cuts through, and whether it
#: scrolls at all.
CUT_LINES = """
const list = document.querySelector('#history .list'), box = list.getBoundingClientRect();
const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
const range = document.createRange();
const cut = [];
while (walker.nextNode()) {
  range.selectNodeContents(walker.currentNode);
  for (const line of range.getClientRects())
    if (line.top < box.bottom - 0.5 && line.bottom > box.bottom + 0.5)
      cut.push(walker.currentNode.textContent);
}
return [list.scrollHeight > list.clientHeight, cut];
"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_rounds_card_ends_between_two_lines(
    shown: Browser, device: WebDevice, language: str
) -> None:
    """Twelve rounds of ten turns scroll in their card; its edge cuts no line in half."""
    set_paired(shown, False, device)
    set_language(shown, language)
    set_size(shown, (360, 740))
    shown.js("document.querySelector('#history .list').scrollTop = 0;"
             "page.kept = page.rounds; const r = page.rounds[0]; page.rounds = [];"
             "for (let i = 1; i <= 12; i++) page.rounds.push(Object.assign({}, r, {number: i}));"
             "renderHistory();")  # fmt: skip
    try:
        for size in ((360, 740), (390, 844)):
            set_size(shown, size)
            shown.wait("document.getElementById('history').clientWidth === page.historyWidth")
            scrolls, cut = shown.js(CUT_LINES)
            assert scrolls and cut == [], f"at {size}: {cut}"
    finally:
        shown.js("page.rounds = page.kept; renderHistory();")


@pytest.mark.parametrize("language", ["de", "en"])
def test_statistics_of_a_device_that_keeps_no_games_say_so(
    shown: Browser, device: WebDevice, language: str
) -> None:
    """The module's device keeps no games (as ``schocken run --no-save``): its answer to
    ``stats`` is a refusal, and the card says why there are none, not that none were played."""
    set_language(shown, language)
    shown.js("window.schock.page.stats = null; page.statsWaiting = true; send('stats')")
    shown.wait("page.statsWaiting === false")
    try:
        text = shown.js("return document.querySelector('#stats .body').innerText")
        assert text == page_texts()[language]["web_stats_not_kept"]
    finally:
        show_the_worst(device, shown)


def test_the_bar_draws_the_cup_as_the_mirror_shows_it(shown: Browser, device: WebDevice) -> None:
    """While the cup shakes the bar shows what the mirror shows: the marked die out, the others in
    the cup (a state's ``cup``); without one, the throw as it lies."""
    set_paired(shown, False, device)
    set_size(shown, (360, 740))
    state = worst_state()
    state["game"]["turn"]["cup"] = {"dice": [6, None, None], "marked": [True, False, False],
                                    "shaking": True}  # fmt: skip
    drawn = """return [...document.querySelectorAll('#dice .die')]
        .map((d) => d.dataset.value + (d.classList.contains('laid') ? '*' : ''))"""
    try:
        shown.js("gotState(arguments[0])", state)
        assert shown.js(drawn) == ["6*", "?", "?"]
    finally:
        shown.js("gotState(arguments[0])", worst_state())
    assert shown.js(drawn) == ["6*", "?", "1*"]


def test_a_paired_phone_sees_the_mirror_with_its_buttons(
    shown: Browser, device: WebDevice
) -> None:
    set_paired(shown, True, device)
    set_language(shown, "en")
    set_size(shown, (390, 844))
    shown.js("document.getElementById('device').scrollIntoView()")
    mirror, buttons, bar = (
        shown.js(f"return document.getElementById('{name}').getBoundingClientRect().toJSON()")
        for name in ("oled", "buttons", "bar")
    )
    assert mirror["top"] >= bar["bottom"] - 1, "the mirror is not under the bar"
    assert buttons["bottom"] <= 844, "the buttons are on the same screen as the mirror"
    language = shown.by_id("mirror-language").text
    assert language == "The device shows its screen in German (its own menu setting)"


# -- real dice: the scorekeeper's entry card ------------------------------------------------------


def worst_entry_state() -> dict[str, Any]:
    """A real-dice game at its widest for the entry card: a ten-letter name, five throws to
    choose from, hand or built to say, Blind to announce, nine results of the round to
    correct."""
    state = worst_state()
    game = state["game"]
    game["turn"] = {"player": PLAYERS[9], "dice": [None, None, None], "laid_out": [False] * 3,
                    "throws": 0, "limit": 5, "hand": None, "flipped": False, "blind": False}
    game.update(real_dice=True, limit=None, entry={
        "due": "turn", "player": PLAYERS[9], "most": 5, "limit": 5, "opener": PLAYERS[0],
        "opener_most": 5, "reported": list(PLAYERS[:9]), "last": True, "dice": 3,
        "blind": True, "covered": True, "hand_matters": ["6-5-4"],
    })  # fmt: skip
    return state


#: The entry card's dice chosen (6-5-4 in three throws, so that hand or built shows).
CHOOSE = """
const tap = (selector) => document.querySelector(selector).click();
[6, 5, 4].forEach((v, i) => tap(`#entry-dice [data-die="${i + 1}"] [data-face="${v}"]`));
tap('#entry-throws [data-throws="3"]');
document.getElementById('entry-note').textContent = arguments[0];
"""


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_entry_card_fits_at_every_screen(
    shown: Browser, device: WebDevice, size: tuple[int, int], language: str
) -> None:
    set_paired(shown, True, device)
    set_language(shown, language)
    set_size(shown, size)
    shown.js("page.entryForm = null; gotState(arguments[0])", worst_entry_state())
    try:
        assert not shown.js("return document.getElementById('entry').hidden")
        longest = max(
            (page_texts()[language][key] for key in page_texts()[language]
             if key.startswith("web_entry_") and key != "web_entry_covered"), key=len,
        )  # fmt: skip
        shown.js(CHOOSE, longest)
        assert not shown.js("return document.getElementById('entry-hand').hidden")
        assert len(shown.js("return document.querySelectorAll('#entry-fix button')")) == 9
        shown.js("document.getElementById('entry').scrollIntoView()")
        problems = shown.js(MEASURE)
        assert problems == [], "\n".join(problems)
        shown.js("document.getElementById('entry-ok').click()")  # the round's last: review
        assert not shown.js("return document.getElementById('entry-review').hidden")
        problems = shown.js(MEASURE)
        assert problems == [], "\n".join(problems)
        card = shown.js("return document.getElementById('entry').getBoundingClientRect().toJSON()")
        assert card["width"] <= size[0]
    finally:
        shown.js("page.entryForm = null; gotState(arguments[0])", worst_state())
    assert shown.js("return document.getElementById('entry').hidden"), "no real dice: no card"
