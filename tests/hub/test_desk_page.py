"""The director's desk as a page (/desk: firmware/hub/desk_page.py) on the hub's real server
(hal/hub_server.py) on loopback, over real HTTP: the login, a wrong password and too many, the
session's cookie and its end, a POST without the form's token or from another origin refused,
and each action changing the tournament file exactly as the same `schocken hub` command does on
a copy of it; errors one line in the page's language. The TV and phone views stay read-only."""

from __future__ import annotations

import html
import http.client
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest

from firmware.hub.desk import history
from firmware.hub.desk_login import IDLE_S, TRIES_PER_ADDRESS, TRY_WINDOW_S, DeskLogin
from firmware.hub.desk_page import DeskPage
from firmware.hub.hub import Hub
from firmware.hub.pages import hub_routes
from firmware.hub.store import HubStore
from firmware.wire.messages import result_topic
from hal.hub_server import HubServer
from tests.cli.test_hub_cli import hub as run
from tests.hub.helpers import EVENT, game_result, running_round, tournament

PASSWORD = "richtig-geheim"


class Clock:
    """The desk's clock, moved by hand (sessions and wrong tries count on it)."""

    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k.lower() == name.lower()), "")

    def errors(self) -> list[str]:
        """The page's error lines, as the browser shows them (unescaped)."""
        found = re.findall(r'class="error" role="alert">([^<]*)<', self.body)
        return [html.unescape(line) for line in found]


@dataclass
class Desk:
    """The served desk on a tournament file, and a browser's side of it: its cookie."""

    db: Path
    server: HubServer
    clock: Clock
    cookie: str = ""
    csrf: str = ""
    origin: str = field(default="")

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, *,
        origin: str | None = None, cookie: str | None = None,
    ) -> Answer:  # fmt: skip
        host, port = self.server.address
        connection = http.client.HTTPConnection(host, port, timeout=5)
        headers = {"Host": f"{host}:{port}"}
        sent_origin = f"http://{host}:{port}" if origin is None else origin
        if method == "POST" and sent_origin:
            headers["Origin"] = sent_origin
        if cookie if cookie is not None else self.cookie:
            headers["Cookie"] = cookie if cookie is not None else self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        answer = Answer(response.status, response.getheaders(), response.read().decode())
        connection.close()
        return answer

    def log_in(self, who: str = "Vera", password: str = PASSWORD) -> Answer:
        answer = self.request("POST", "/desk/login", {"who": who, "password": password})
        if answer.status == 303:
            self.cookie = answer.header("Set-Cookie").split(";")[0]
            self.csrf = self.token()
        return answer

    def token(self) -> str:
        page = self.request("GET", "/desk").body
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        assert found, page[:400]
        return found.group(1)

    def act(self, action: str, lang: str = "", **fields: str) -> Answer:
        query = f"?lang={lang}" if lang else ""
        return self.request("POST", f"/desk/{action}{query}", {"csrf": self.csrf, **fields})


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    """Eight players at two tables, round 1 running, table 1's game 1 stored; the desk served
    beside the TV on its own connection to the file, as `serve` does."""
    db = tmp_path / "page.db"
    hub = tournament(db)
    seats = running_round(hub)
    hub.receive(result_topic(EVENT, "table-1"), game_result(seats[0], 1).to_json(), 1001.0)
    clock = Clock()
    page = DeskPage(Hub(HubStore(db)), DeskLogin(PASSWORD, clock), clock)
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time), forms=page)
    try:
        yield Desk(db, server, clock)
    finally:
        server.close()


def test_the_login_form_a_wrong_password_and_the_sessions_cookie(desk: Desk) -> None:
    first = desk.request("GET", "/desk")
    assert first.status == 200 and 'name="password"' in first.body and "Anmelden" in first.body
    assert "form-action 'self'" in first.header("Content-Security-Policy")
    assert desk.request("GET", "/desk?lang=en").body.count("Log in") >= 2
    wrong = desk.log_in(password="falsch")
    assert wrong.status == 403 and wrong.errors() == ["Falsches Passwort."]
    assert not wrong.header("Set-Cookie")
    assert desk.log_in(who="").errors() == ["Bitte Ihren Namen angeben, höchstens 40 Zeichen."]
    right = desk.log_in()
    assert right.status == 303 and right.header("Location") == "/desk"
    cookie = right.header("Set-Cookie")
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 40
    attributes = {part.strip().split("=")[0] for part in cookie.split(";")[1:]}
    assert {"HttpOnly", "SameSite", "Path", "Max-Age"} <= attributes
    assert "SameSite=Strict" in cookie and "Path=/desk" in cookie
    page = desk.request("GET", "/desk")
    assert "Angemeldet: Vera" in page.body and 'action="/desk/paper"' in page.body
    other = Desk(desk.db, desk.server, desk.clock)
    other.log_in()
    assert other.cookie != desk.cookie and other.csrf != desk.csrf  # random, per session
    # No cookie, a made-up one: the login form.
    assert 'name="password"' in desk.request("GET", "/desk", cookie="schocken_desk=x").body
    # The TV and the phone stay read-only: no form, no cookie.
    tv = desk.request("GET", "/")
    assert tv.status == 200 and not tv.header("Set-Cookie")
    assert desk.request("POST", "/", {"csrf": desk.csrf}).status == 405


def test_too_many_wrong_passwords_wait_and_a_session_ends(desk: Desk) -> None:
    for _ in range(TRIES_PER_ADDRESS):
        assert desk.log_in(password="falsch").status == 403
    waiting = desk.log_in()  # even the right one, now
    assert waiting.status == 429 and not waiting.header("Set-Cookie")
    assert waiting.errors() == [f"Zu viele falsche Passwörter: in {int(TRY_WINDOW_S) + 1} s "
                                "wieder versuchen."]  # fmt: skip
    desk.clock.now += TRY_WINDOW_S
    assert desk.log_in().status == 303
    desk.clock.now += IDLE_S + 1  # nothing asked for two hours: ended
    ended = desk.act("void", id=f"{EVENT}/table-1/r1/g1/game", why="x")
    assert ended.status == 401 and ended.errors() == ["Bitte anmelden: die Sitzung ist abgelaufen."]
    assert desk.log_in().status == 303
    out = desk.act("logout")
    assert out.status == 303 and "Max-Age=0" in out.header("Set-Cookie")
    assert 'name="password"' in desk.request("GET", "/desk").body
    assert len(HubStore(desk.db).results()) == 1  # nothing voided


def test_a_post_without_the_token_or_from_elsewhere_is_refused(desk: Desk) -> None:
    desk.log_in()
    voided = {"id": f"{EVENT}/table-1/r1/g1/game", "why": "a replay"}
    refused = [
        desk.request("POST", "/desk/void", voided),  # no token
        desk.request("POST", "/desk/void", {**voided, "csrf": desk.csrf[:-2] + "xx"}),
        desk.request("POST", "/desk/void", {**voided, "csrf": desk.csrf},
                     origin="http://evil.example"),
        desk.request("POST", "/desk/void", {**voided, "csrf": desk.csrf}, origin="null"),
        desk.request("POST", "/desk/void", {**voided, "csrf": desk.csrf}, origin=""),
    ]
    assert [answer.status for answer in refused] == [403] * 5
    assert refused[0].errors() == ["Abgelehnt: das Formular ist veraltet, bitte die Seite neu "
                                   "laden."]  # fmt: skip
    assert refused[2].errors() == ["Abgelehnt: dieses Formular kam nicht von der Seite der "
                                   "Turnierleitung."]  # fmt: skip
    # A login from another site is refused too, before the password is looked at.
    assert desk.request("POST", "/desk/login", {"who": "V", "password": PASSWORD},
                        origin="http://evil.example").status == 403  # fmt: skip
    store = HubStore(desk.db)
    assert len(store.results()) == 1 and store.desk() == []
    assert desk.act("void", **voided).status == 303
    assert store.results() == []


def lines(db: Path) -> list[tuple[str, int, int | None, int]]:
    return [(x.name, x.points, x.lives, x.games_lost) for x in Hub(HubStore(db)).progress().lines]


def kept(db: Path) -> list[tuple[str, str, str, str, str, str]]:
    """What the desk kept: who, what, which, why, the result before and after."""
    return [(r.who, r.action, r.result_id, r.why, r.before, r.after) for r in HubStore(db).desk()]


def test_each_action_changes_the_file_as_the_command_line_does(
    desk: Desk, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = tmp_path / "cli.db"
    with closing(sqlite3.connect(desk.db)) as source, closing(sqlite3.connect(twin)) as copy:
        source.backup(copy)  # the file with what its WAL holds
    cli = str(twin)
    desk.log_in()
    seats = HubStore(desk.db).seats(1)
    a, b, c, d = seats[1].players
    first = f"{EVENT}/table-1/r1/g1/game"
    x, y = seats[0].players[:2]

    def same() -> None:
        assert lines(desk.db) == lines(twin)
        assert kept(desk.db) == kept(twin)

    # A paper table card, with the order of going out and a Schock aus.
    done = desk.act("paper", round="1", table="2", game="1", halves=f"{a},{b}", final=b,
                    out1=f"{c}+{d},{b},{a}", schock_aus=f"{c}:1", why="Karte")  # fmt: skip
    assert done.status == 303, done.errors()
    assert run(capsys, "paper", "--db", cli, "--round", "1", "--table", "2", "--game", "1",
               "--halves", f"{a},{b}", "--final", b, "--out1", f"{c}+{d},{b},{a}",
               "--schock-aus", f"{c}:1", "--who", "Vera", "--why", "Karte")[0] == 0  # fmt: skip
    same()
    shown = desk.request("GET", "/desk").body
    assert f"{EVENT}/table-2/r1/g1/game: von der Papierkarte gespeichert" in shown
    assert f"{b}: " in shown.split('id="done"')[1].split("</div>")[0]  # the lines it changed
    # A correction (a Durchmarsch), then a void.
    assert desk.act("correct", id=first, halves=f"{y},{y}", why="Durchmarsch").status == 303
    assert run(capsys, "correct", "--db", cli, first, "--halves", f"{y},{y}", "--who", "Vera",
               "--why", "Durchmarsch")[0] == 0  # fmt: skip
    same()
    assert next(line for line in lines(desk.db) if line[0] == x)[3] == 0
    assert desk.act("void", id=first, why="ein Wiederholungsspiel").status == 303
    assert run(capsys, "void", "--db", cli, first, "--who", "Vera",
               "--why", "ein Wiederholungsspiel")[0] == 0  # fmt: skip
    same()
    # Finishing: the tables' unreported results first, the round finished only when confirmed.
    for path in (desk.db, twin):
        HubStore(path).set_table_status(1, False, 3, 1002.0)
    asked = desk.act("finish")
    assert asked.status == 200 and HubStore(desk.db).round(1).state == "running"  # type: ignore[union-attr]
    assert "Tisch 1: 3 noch nicht gemeldet (nicht verbunden)" in asked.body
    assert 'name="confirm" value="yes"' in asked.body
    assert desk.act("finish", confirm="yes").status == 303
    assert run(capsys, "finish", "--db", cli, "--yes")[0] == 0
    assert HubStore(desk.db).round(1) == HubStore(twin).round(1)
    assert "Runde 1 beendet" in desk.request("GET", "/desk").body
    # A late result, refused, then accepted.
    late = game_result(seats[0], 5).to_json()
    for path in (desk.db, twin):
        Hub(HubStore(path)).receive(result_topic(EVENT, "table-1"), late, 1003.0)
    (refusal,) = HubStore(desk.db).refusal_rows()
    listed = desk.request("GET", "/desk").body
    assert f"do=accept&amp;number={refusal.seq}" in listed and "Runde 1 ist beendet" in listed
    assert "round 1 is finished" in desk.request("GET", "/desk?lang=en").body
    assert desk.act("accept", number=str(refusal.seq), why="zu spät gemeldet").status == 303
    assert run(capsys, "accept", "--db", cli, str(refusal.seq), "--who", "Vera",
               "--why", "zu spät gemeldet")[0] == 0  # fmt: skip
    same()
    assert [r.action for r in HubStore(desk.db).desk()] == ["paper", "correct", "void", "accept"]
    history = desk.request("GET", "/desk?lang=en").body.split('id="history"')[1]
    assert "Vera" in history and "zu spät gemeldet" in history and "paper card" in history


def after_the_draw(db: Path) -> tuple[object, ...]:
    """What the desk after the draw changes: the standings recounted (with who left), every
    round's seats, the rounds, the players, who left, and its history but for the time."""
    store = HubStore(db)
    recounted = [(x.name, x.points, x.lives, x.games_lost, x.left)
                 for x in Hub(store).progress().lines]  # fmt: skip
    rounds = store.rounds()
    return (recounted, [store.seats(r.number) for r in rounds], rounds, store.players(),
            store.select("SELECT name, round, how, after, substitute FROM leavers ORDER BY seq"),
            [(e.who, e.action, e.round, e.detail, e.why) for e in history(Hub(store))])  # fmt: skip


def copied(db: Path, twin: Path) -> str:
    with closing(sqlite3.connect(db)) as source, closing(sqlite3.connect(twin)) as copy:
        source.backup(copy)  # the file with what its WAL holds
    return str(twin)


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ("withdraw", "{p} zurückgezogen (ab Runde 1) · Tisch 1"),
        ("disqualify", "{p} disqualifiziert (ab Runde 1) · Tisch 1"),
        ("replace", "{p} ersetzt durch Jan (ab Runde 1) · Tisch 1"),
        ("redraw", "Runde 2 neu ausgelost: 2 Tische"),
        ("reopen", "Runde 1 wieder geöffnet"),
    ],
)
def test_each_action_after_the_draw_changes_the_file_as_the_command_line_does(
    desk: Desk, tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str, said: str
) -> None:
    hub = Hub(HubStore(desk.db))
    if action in ("redraw", "reopen"):
        hub.finish_round(confirmed=True)
    if action == "redraw":
        hub.draw_round(seed=1)
    cli = copied(desk.db, tmp_path / "cli.db")
    before = after_the_draw(desk.db)
    leaver = HubStore(desk.db).seats(1)[0].players[1]  # who has a game at table 1 stored
    page_form = {"why": "krank"}
    command = [action, "--db", cli, "--who", "Vera", "--why", "krank"]
    if action in ("withdraw", "disqualify", "replace"):
        page_form["player"] = leaver
        command.append(leaver)
    if action == "replace":
        page_form["substitute"] = "Jan Springer"
        command.append("Jan Springer")
    if action == "redraw":
        page_form["seed"] = "5"
        command += ["--seed", "5"]
    desk.log_in()
    done = desk.act(action, **page_form)
    assert done.status == 303, done.errors()
    code, out, err = run(capsys, *command)
    assert code == 0, err
    after = after_the_draw(desk.db)
    assert after == after_the_draw(Path(cli)) and after != before
    shown = desk.request("GET", "/desk").body
    line = said.format(p=leaver)
    assert line.split(" · ")[0] in shown.split('id="done"')[1].split("</div>")[0]
    assert out.startswith(line.split(" · ")[0])  # the command says the same
    assert line in shown.split('id="history"')[1]  # the history, in the page's words
    recounted, seats = after[0], after[1]
    assert isinstance(recounted, list) and isinstance(seats, list)
    if action != "redraw" and action != "reopen":
        gone = {"withdraw": "withdrawn", "disqualify": "disqualified"}.get(action, "replaced")
        assert next(x for x in recounted if x[0] == leaver)[4] == gone
        assert leaver not in seats[0][0].players
    if action == "replace":
        assert seats[0][0].players[1] == "Jan"
    if action == "redraw":
        assert seats[1] != before[1][1]  # type: ignore[index]
    if action == "reopen":
        assert HubStore(desk.db).round(1).state == "running"  # type: ignore[union-attr]


def test_the_desks_history_lists_results_players_and_rounds_by_time(desk: Desk) -> None:
    desk.log_in()
    first = f"{EVENT}/table-1/r1/g1/game"
    players = HubStore(desk.db).seats(1)[1].players
    desk.clock.now += 60  # one after the other
    assert desk.act("withdraw", player=players[0], why="krank").status == 303
    desk.clock.now += 60  # one after the other
    assert desk.act("void", id=first, why="Wiederholung").status == 303
    desk.clock.now += 60  # one after the other
    assert desk.act("withdraw", player=players[1], why="Zug").status == 303
    listed = desk.request("GET", "/desk?lang=en").body.split('id="history"')[1]
    rows = re.findall(r"<tr><td>[^<]*</td><td>Vera</td><td>([^<]*)</td>", listed)
    assert rows == [f"{players[1]} withdrawn (from round 1) · Table 2", "voided",
                    f"{players[0]} withdrawn (from round 1) · Table 2"]  # newest first


def test_a_refusal_after_the_draw_is_said_in_the_pages_language(desk: Desk) -> None:
    desk.log_in()
    before = after_the_draw(desk.db)
    player = HubStore(desk.db).seats(1)[0].players[0]
    cases = [
        (desk.act("withdraw", player="Niemand", why="x"),
         "»Niemand« ist kein angemeldeter Spieler (der Name an den Tischen oder der volle Name)"),
        (desk.act("redraw", why="x"),
         "Nur eine ausgeloste Runde, die noch nicht läuft, kann neu ausgelost werden"),
        (desk.act("reopen", why="x", minutes="2000"),
         "Neue Spielzeit in Minuten ab jetzt (0: keine; leer: die der Runde): Minuten von 0 "
         "bis 1440."),
        (desk.act("replace", player=player, substitute=player, why="x"),
         f"{player} kann nicht für sich selbst einspringen"),
    ]  # fmt: skip
    for answer, said in cases:
        assert answer.status == 400 and answer.errors() == [said]
    english = desk.act("reopen", lang="en", why="x")
    assert english.errors() == [
        "only the last round, finished and with no round drawn after it, reopens"
    ]
    assert after_the_draw(desk.db) == before  # nothing written


def test_errors_are_one_line_in_the_pages_language_and_keep_the_fields(desk: Desk) -> None:
    desk.log_in()
    seat = HubStore(desk.db).seats(1)[1]
    typed = {"round": "1", "table": "2", "game": "1", "halves": f"{seat.players[0]},Niemand",
             "final": seat.players[0]}  # fmt: skip
    german = desk.act("paper", **typed)
    assert german.status == 400 and len(german.errors()) == 1
    at_table = ", ".join(seat.players)
    assert german.errors() == [f"»Niemand« spielt nicht an diesem Tisch ({at_table})"]
    assert 'value="' + typed["halves"] + '"' in german.body  # kept as typed
    english = desk.act("paper", lang="en", **{**typed, "game": "x"})
    assert english.errors() == ["Game no.: a number from 1 to 9999."]
    assert desk.act("void", lang="en", id="nothing", why="").errors() == ["Reason: fill it in."]
    assert desk.act("correct", id="nothing", halves="A,B", why="x").errors() == [
        "Kein zählendes Ergebnis nothing: die Liste der Ergebnisse zeigt die zählenden"
    ]
    # The hub's own refusals, in the page's words where the hub names them.
    assert desk.act("void", id="nothing", why="x").errors() == [
        "Kein zählendes Ergebnis nothing: nichts zu streichen"
    ]
    assert desk.act("accept", number="99", why="x").errors() == ["Keine Abweisung Nr. 99"]
    assert desk.act("finish", confirm="yes").status == 303
    assert desk.act("finish", lang="en").errors() == ["no round is running"]
    assert desk.act("nonsense").status == 404
    for answer in (german, english):
        assert "Traceback" not in answer.body and "Error" not in answer.body
    assert len(HubStore(desk.db).results()) == 1  # nothing stored, nothing voided


def test_a_refusal_of_the_hub_is_said_in_the_pages_language_throughout(desk: Desk) -> None:
    """What the hub itself refuses (the players of a paper card, a round not started) reads in
    the page's language, every word of it, never the hub's English behind a German prefix."""
    desk.log_in()
    seat = HubStore(desk.db).seats(1)[1]
    strangers = "Xaver,Yvonne"
    typed = {"round": "1", "table": "2", "game": "1", "halves": "Xaver,Yvonne",
             "final": "Xaver", "players": strangers}  # fmt: skip
    assert desk.act("paper", **typed).errors() == [
        "Spieler Xaver, Yvonne sind nicht die von Tisch 2 in dieser Runde"
    ]
    assert desk.act("paper", lang="en", **typed).errors() == [
        "players Xaver, Yvonne are not table 2's of the round"
    ]
    card = {"halves": f"{seat.players[0]},{seat.players[1]}", "final": seat.players[0]}
    late = {"round": "2", "table": "1", "game": "1", **card}
    assert desk.act("paper", **late).errors() == ["Tisch 1 spielt in Runde 2 nicht"]
    assert desk.act("paper", lang="en", **late).errors() == ["table 1 plays no game in round 2"]
    assert len(HubStore(desk.db).results()) == 1  # nothing stored


def test_without_a_password_the_desk_is_off(tmp_path: Path) -> None:
    db = tmp_path / "off.db"
    hub = tournament(db)
    page = DeskPage(Hub(HubStore(db)), None, time.time)
    server = HubServer("127.0.0.1", 0, hub_routes(hub, time.time), forms=page)
    try:
        off = Desk(db, server, Clock())
        answer = off.request("GET", "/desk?lang=en")
        assert answer.status == 503 and answer.errors() == [
            "The desk is off: the hub runs without its password (--desk-password-file)."
        ]
        assert off.log_in().status == 503
    finally:
        server.close()


def test_serve_says_in_one_line_what_is_wrong_with_the_desks_password_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "serve.db"
    tournament(db)
    broker = tmp_path / "mqtt-password"
    broker.write_text("broker-secret\n")
    empty = tmp_path / "empty"
    empty.write_text("\n")
    missing = tmp_path / "missing"
    for given, said in ((missing, "does not exist"), (empty, "die Datei ist leer")):
        code, out, err = run(capsys, "serve", "--db", str(db), "--broker", "mqtt://127.0.0.1:1",
                             "--password-file", str(broker), "--desk-password-file",
                             str(given))  # fmt: skip
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert f"--desk-password-file {given}: {said}" in err and "broker-secret" not in err
