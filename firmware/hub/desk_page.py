"""The director's desk as a page on the hub: ``/desk``, behind the desk's password.

``GET /desk`` is the login form, or once logged in the desk: the round, each action's form
(one entry each of :data:`firmware.hub.desk_actions.ACTIONS`, drawn from its fields), and the
lists (the results of a round, the refusals, and what the desk did, to the results and to the
players and rounds, in one list by time). ``POST /desk/NAME`` runs the action NAME; one that
asks first (finishing a round while tables hold unreported results) shows its lines and a
button that sends the form again, confirmed.

What protects it (:mod:`firmware.hub.desk_login`): a POST must come from the desk's own page
(``Origin``), carry its session's CSRF token, and the session's cookie is ``SameSite=Strict``;
the page's policy allows forms to this hub only. A success answers with a redirect to the desk
(what was done and the standings' lines it changed shown once); a field or a refusal answers
with the desk again, the fields as typed and one line in the page's language (German, or
``?lang=en``). The TV and phone views stay as they are: read-only, no cookie, no form.
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from urllib.parse import urlencode

from engine.scoring import ScoringError
from firmware.hub.desk import changed_lines, history, refusal_reason, said, standings_lines
from firmware.hub.desk_actions import ACTIONS, BY_NAME, Confirm, DeskAction, Form, unreported_lines
from firmware.hub.desk_login import COOKIE, LONGEST_S, DeskLogin, DeskSession, from_own_page
from firmware.hub.hub import Hub, HubError
from firmware.hub.hub_words import HubWords
from firmware.names import MAX_NAME_LENGTH
from firmware.wire.messages import Result, WireError
from firmware.words import LANGUAGES
from hal.ports import HttpAnswer, HttpRequest

__all__ = ["DeskPage"]

PATH = "/desk"
#: The desk's own policy: forms post to this hub only; a POST's Origin is not "null".
HEADERS = (
    ("Content-Security-Policy",
     "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"),
    ("Referrer-Policy", "same-origin"),
)  # fmt: skip
#: Most results and refusals a list shows (the newest first).
MAX_LISTED = 300


_STATES = {"drawn": "hub_state_drawn", "running": "hub_state_running",
           "finished": "hub_state_finished"}  # fmt: skip


def _lang(query: Mapping[str, str]) -> str:
    lang = query.get("lang", "de")
    return lang if lang in LANGUAGES else "de"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


@dataclass(frozen=True, slots=True)
class _Shown:
    """What the desk shows besides its lists: one action's fields as typed, and its line (an
    error) or its question (:class:`Confirm`)."""

    action: str = ""
    values: Mapping[str, str] | None = None
    error: str = ""
    confirm: tuple[str, ...] = ()


class DeskPage:
    """The desk's GET and POST handler (:class:`hal.hub_server.HubServer`'s ``forms``): a hub
    of its own connection to the file, as the command line is; ``login`` None: no password was
    given, and the desk says so."""

    def __init__(self, hub: Hub, login: DeskLogin | None, clock: Callable[[], float]) -> None:
        self._hub = hub
        self._login = login
        self._clock = clock
        #: One action at a time: each reads the standings, acts, and reads them again.
        self._lock = threading.Lock()

    def __call__(self, request: HttpRequest) -> HttpAnswer:
        text = HubWords(_lang(request.query))
        if self._login is None:
            return self._line(text, 503, "desk_off")
        action = request.path.removeprefix(PATH).strip("/")
        token = request.cookies.get(COOKIE, "")
        if request.method != "POST":
            if action:
                return self._line(text, 404, "desk_unknown_action")
            desk_session = self._login.session(token)
            if desk_session is None:
                return self._login_page(text, 200, "")
            return self._desk(text, desk_session, request.query, _Shown(), 200)
        if not from_own_page(request.headers):
            return self._line(text, 403, "desk_foreign")
        if action == "login":
            return self._log_in(request, text)
        desk_session = self._login.session(token)
        if desk_session is None:
            return self._login_page(text, 401, text.t("desk_expired"))
        if not DeskLogin.csrf_ok(desk_session, request.form.get("csrf", "")):
            return self._line(text, 403, "desk_bad_token")
        if action == "logout":
            self._login.log_out(token)
            return self._redirect(text, (f"{COOKIE}=; Path={PATH}; HttpOnly; SameSite=Strict; "
                                         "Max-Age=0"))  # fmt: skip
        found = BY_NAME.get(action)
        if found is None:
            return self._line(text, 404, "desk_unknown_action")
        return self._act(found, request, desk_session, text)

    # -- logging in -----------------------------------------------------------------------------

    def _log_in(self, request: HttpRequest, text: HubWords) -> HttpAnswer:
        assert self._login is not None
        wait = self._login.wait_s(request.peer)
        if wait > 0:
            return self._login_page(text, 429, text.t("desk_wait", s=int(wait) + 1))
        who = request.form.get("who", "").strip()
        if not who or len(who) > MAX_NAME_LENGTH or not who.isprintable():
            return self._login_page(text, 400, text.t("desk_bad_name", n=MAX_NAME_LENGTH))
        made = self._login.log_in(request.peer, request.form.get("password", ""), who)
        if made is None:
            return self._login_page(text, 403, text.t("desk_wrong_password"))
        token = made[0]
        return self._redirect(text, (f"{COOKIE}={token}; Path={PATH}; HttpOnly; "
                                     f"SameSite=Strict; Max-Age={int(LONGEST_S)}"))  # fmt: skip

    def _login_page(self, text: HubWords, status: int, error: str) -> HttpAnswer:
        body = [f'<header class="top"><h1>{_e(text.t("desk_title", event=self._hub.event))}'
                f"</h1>{_other_language(text, {})}</header>",
                f'<form class="card login" method="post" action="{PATH}/login{_q(text)}">',
                f"<h2>{_e(text.t('desk_login_title'))}</h2>"]  # fmt: skip
        if error:
            body.append(f'<p class="error" role="alert">{_e(error)}</p>')
        body += [
            '<div class="fields">',
            _input("who", text.t("desk_name"), "", autocomplete="username"),
            _input("password", text.t("desk_password"), "", kind="password",
                   autocomplete="current-password"),
            f'</div><button type="submit">{_e(text.t("desk_log_in"))}</button></form>',
        ]  # fmt: skip
        return self._html(text, status, "".join(body))

    # -- acting ---------------------------------------------------------------------------------

    def _act(
        self, action: DeskAction, request: HttpRequest, desk_session: DeskSession, text: HubWords
    ) -> HttpAnswer:
        form = Form(request.form, action.fields, text)
        typed = {f.name: request.form.get(f.name, "") for f in action.fields}
        with self._lock:
            try:
                before = standings_lines(self._hub)
                done = action.run(self._hub, form, desk_session.who, self._clock())
                after = standings_lines(self._hub)
            except Confirm as ask:
                shown = _Shown(action.name, typed, confirm=tuple(ask.lines))
                return self._desk(text, desk_session, request.query, shown, 200)
            except HubError as error:  # in the page's words
                failed = _Shown(action.name, typed, error.said(text))
                return self._desk(text, desk_session, request.query, failed, 400)
            except (WireError, ScoringError) as error:
                failed = _Shown(action.name, typed, text.t("desk_refused", reason=str(error)))
                return self._desk(text, desk_session, request.query, failed, 400)
        desk_session.flash = [text.t(done.key, **done.values)]
        for moved in changed_lines(before, after):
            key = "desk_line" if moved.lives is None else "desk_line_lives"
            desk_session.flash.append(text.t(key, name=moved.name, points=moved.points,
                                             lives=moved.lives, lost=moved.games_lost))  # fmt: skip
        return self._redirect(text)

    # -- the desk -------------------------------------------------------------------------------

    def _desk(
        self, text: HubWords, desk_session: DeskSession, query: Mapping[str, str], shown: _Shown,
        status: int,
    ) -> HttpAnswer:  # fmt: skip
        hub = self._hub
        number = hub.current_round()
        row = hub.store.round(number)
        state = (f"{text.t('hub_round', n=number)} · {text.t(_STATES[row.state])}"
                 if row else text.t("hub_no_round"))  # fmt: skip
        body = [
            '<header class="top">',
            f"<h1>{_e(text.t('desk_title', event=hub.event))}</h1>",
            f'<p class="state" id="state">{_e(state)}</p>',
            f'<form method="post" action="{PATH}/logout{_q(text)}" class="who">',
            _e(text.t("desk_who", name=desk_session.who)), _csrf(desk_session),
            f'<button type="submit" class="quiet">{_e(text.t("desk_log_out"))}</button></form>',
            _other_language(text, query), "</header>",
        ]  # fmt: skip
        if desk_session.flash:
            lines = "".join(f"<li>{_e(line)}</li>" for line in desk_session.flash[1:])
            body.append(f'<div class="done" id="done" role="status"><p>{_e(desk_session.flash[0])}'
                        f"</p>{f'<ul>{lines}</ul>' if lines else ''}</div>")  # fmt: skip
            desk_session.flash = []
        prefill = query if query.get("do") else {}
        for action in ACTIONS:
            body.append(self._section(text, desk_session, action, shown, prefill, number))
        body.append(self._results(text, query, number))
        body.append(self._refusals(text))
        body.append(self._history(text))
        return self._html(text, status, "".join(body))

    def _section(
        self, text: HubWords, desk_session: DeskSession, action: DeskAction, shown: _Shown,
        prefill: Mapping[str, str], number: int,
    ) -> str:  # fmt: skip
        if shown.action == action.name and shown.values is not None:
            values: Mapping[str, str] = shown.values
        elif prefill.get("do") == action.name:
            values = prefill
        else:
            values = {"round": str(number)} if number else {}
        out = [f'<section class="card" id="{action.name}">'
               f"<h2>{_e(text.t(action.title))}</h2>"]  # fmt: skip
        asking = shown.action == action.name and bool(shown.confirm)
        if action.name == "finish" and not asking:
            out.append(self._waiting(text))
        if shown.action == action.name and shown.error:
            out.append(f'<p class="error" role="alert">{_e(shown.error)}</p>')
        form = f'<form method="post" action="{PATH}/{action.name}{_q(text)}">{_csrf(desk_session)}'
        fields = "".join(
            _input(f.name, text.t(f.label), values.get(f.name, ""), required=f.required,
                   numeric=f.number)
            for f in action.fields
        )  # fmt: skip
        button = text.t(action.button, n=number)
        if asking:
            first, *more = shown.confirm
            asked = "".join(f"<li>{_e(line)}</li>" for line in more)
            hidden = "".join(f'<input type="hidden" name="{_e(k)}" value="{_e(v)}">'
                             for k, v in values.items())  # fmt: skip
            out.append(f'<div class="ask" role="alert"><p>{_e(first)}</p><ul>{asked}</ul>'
                       f'{form}{hidden}<input type="hidden" name="confirm" value="yes">'
                       f'<button type="submit" class="danger">'
                       f"{_e(text.t('desk_confirm'))}</button></form>"
                       f'<p><a href="{PATH}{_q(text)}">{_e(text.t("desk_cancel"))}</a></p>'
                       "</div>")  # fmt: skip
        else:
            out.append(f'{form}<div class="fields">{fields}</div>'
                       f'<button type="submit">{_e(button)}</button></form>')  # fmt: skip
        out.append("</section>")
        return "".join(out)

    def _waiting(self, text: HubWords) -> str:
        """The finish's warning, shown before it is pressed."""
        if not self._hub.unreported():
            return f'<p class="ok">{_e(text.t("desk_nothing_waits"))}</p>'
        lines = unreported_lines(self._hub, text)
        items = "".join(f"<li>{_e(line)}</li>" for line in lines[1:])
        return f'<div class="warn"><p>{_e(lines[0])}</p><ul>{items}</ul></div>'

    def _results(self, text: HubWords, query: Mapping[str, str], number: int) -> str:
        chosen = _positive(query.get("round", "")) or number
        table = _positive(query.get("table", ""))
        listed = [
            r for r in self._hub.store.results(chosen)
            if (table and r.table_no == table) or (not table and r.kind == "game")
        ]  # fmt: skip
        out = [
            f'<section class="card wide" id="results"><h2>{_e(text.t("desk_results"))}</h2>',
            f'<form method="get" action="{PATH}" class="filter">'
            f'<input type="hidden" name="lang" value="{_e(text.language)}">',
            _input("round", text.t("desk_round"), str(chosen or ""), required=False,
                   numeric=True),
            _input("table", text.t("desk_table"), str(table or ""), required=False,
                   numeric=True),
            f'<button type="submit" class="quiet">{_e(text.t("desk_show"))}</button></form>',
        ]  # fmt: skip
        if not listed:
            out.append(f"<p>{_e(text.t('desk_no_results'))}</p>")
        rows = []
        for stored in reversed(listed[-MAX_LISTED:]):
            result = Result.from_json(stored.payload)
            origin = {"paper": "desk_origin_paper", "accepted": "desk_origin_accepted"}.get(
                stored.origin, "desk_origin_table"
            )
            links = [_link(text, "void", {"id": stored.id}, "desk_to_void")]
            if stored.kind == "game":
                links.insert(0, _link(text, "correct", _card_of(result), "desk_to_correct"))
            rows.append(
                f"<tr><td><code>{_e(stored.id)}</code></td>"
                f"<td>{_e(text.t('desk_lost_by', name=result.loser))}</td>"
                f"<td>{_e(text.t(origin))}</td><td>{''.join(links)}</td></tr>"
            )
        if rows:
            out.append(f"<table>{''.join(rows)}</table>")
        if len(listed) > MAX_LISTED:
            out.append(f"<p>{_e(text.t('desk_more', n=len(listed) - MAX_LISTED))}</p>")
        out.append("</section>")
        return "".join(out)

    def _refusals(self, text: HubWords) -> str:
        kept = self._hub.store.refusal_rows()
        out = [f'<section class="card wide" id="refusals"><h2>{_e(text.t("desk_refusals"))}</h2>']
        if not kept:
            out.append(f"<p>{_e(text.t('desk_no_refusals'))}</p>")
        rows = []
        for refusal in reversed(kept[-MAX_LISTED:]):
            take = (_link(text, "accept", {"number": str(refusal.seq)}, "desk_to_accept")
                    if _a_result(refusal.payload) else "")  # fmt: skip
            rows.append(
                f"<tr><td>{refusal.seq}</td><td>{_e(_clock_time(refusal.at))}</td>"
                f"<td><code>{_e(refusal.result_id or refusal.topic)}</code></td>"
                f"<td>{_e(refusal_reason(text, refusal))}</td><td>{take}</td></tr>"
            )
        if rows:
            out.append(f"<table>{''.join(rows)}</table>")
        out.append("</section>")
        return "".join(out)

    def _history(self, text: HubWords) -> str:
        """Both of the desk's histories in one list, the newest first: the results it changed
        (the file's ``desk``) and the players and rounds (``desk_log``)."""
        words = {"paper": "desk_action_paper", "correct": "desk_action_correct",
                 "void": "desk_action_void", "accept": "desk_action_accept"}  # fmt: skip
        done: list[tuple[float, int, str, str, str, str]] = [
            (row.at, 0, row.who,
             text.t(words[row.action]) if row.action in words else row.action,
             row.result_id, row.why)
            for row in self._hub.store.desk()
        ]  # fmt: skip
        done += [(entry.at, 1, entry.who, said(text, entry.action, entry.round, entry.detail), "",
                  entry.why) for entry in history(self._hub)]  # fmt: skip
        done.sort(key=lambda row: (row[0], row[1]))
        out = [f'<section class="card wide" id="history"><h2>{_e(text.t("desk_history"))}</h2>']
        if not done:
            out.append(f"<p>{_e(text.t('desk_no_history'))}</p>")
        rows = [
            f"<tr><td>{_e(_clock_time(at, day=True))}</td><td>{_e(who)}</td><td>{_e(what)}</td>"
            f"<td>{f'<code>{_e(which)}</code>' if which else ''}</td><td>{_e(why)}</td></tr>"
            for at, _, who, what, which, why in reversed(done[-MAX_LISTED:])
        ]
        if rows:
            out.append(f"<table>{''.join(rows)}</table>")
        out.append("</section>")
        return "".join(out)

    # -- answers --------------------------------------------------------------------------------

    def _html(self, text: HubWords, status: int, body: str) -> HttpAnswer:
        template = files("firmware.hub").joinpath("web/desk.html").read_text(encoding="utf-8")
        page = (
            template.replace("<!--LANG-->", text.language)
            .replace("<!--TITLE-->", _e(text.t("desk_title", event=self._hub.event)))
            .replace("<!--BODY-->", body)
        )
        return HttpAnswer(status, "text/html; charset=utf-8", page.encode("utf-8"),
                            headers=HEADERS)  # fmt: skip

    def _line(self, text: HubWords, status: int, key: str) -> HttpAnswer:
        """One line in the page's language, with the way back to the desk."""
        back = f'<p><a href="{PATH}{_q(text)}">{_e(text.t("desk_back"))}</a></p>'
        return self._html(text, status, f'<p class="error" role="alert">{_e(text.t(key))}</p>'
                                        + back)  # fmt: skip

    def _redirect(self, text: HubWords, cookie: str = "") -> HttpAnswer:
        headers: tuple[tuple[str, str], ...] = (*HEADERS, ("Location", PATH + _q(text)))
        if cookie:
            headers = (*headers, ("Set-Cookie", cookie))
        return HttpAnswer(303, "text/plain; charset=utf-8", b"", headers=headers)


def _q(text: HubWords) -> str:
    return "" if text.language == "de" else f"?lang={text.language}"


def _csrf(desk_session: DeskSession) -> str:
    return f'<input type="hidden" name="csrf" value="{_e(desk_session.csrf)}">'


def _input(
    name: str, label: str, value: str, *, kind: str = "text", required: bool = True,
    numeric: bool = False, autocomplete: str = "off",
) -> str:  # fmt: skip
    mode = ' inputmode="numeric"' if numeric else ""
    need = " required" if required else ""
    return (f'<label>{_e(label)}<input type="{kind}" name="{name}" value="{_e(value)}"'
            f' autocomplete="{autocomplete}"{mode}{need}></label>')  # fmt: skip


def _link(text: HubWords, action: str, values: Mapping[str, str], key: str) -> str:
    query = urlencode({**({"lang": text.language} if text.language != "de" else {}), "do": action,
                       **values})  # fmt: skip
    return f'<a class="act" href="{PATH}?{_e(query)}#{action}">{_e(text.t(key))}</a>'


def _other_language(text: HubWords, query: Mapping[str, str]) -> str:
    other = "en" if text.language == "de" else "de"
    kept = {k: v for k, v in query.items() if k != "lang"}
    query_text = urlencode({**kept, **({"lang": other} if other != "de" else {})})
    return (f'<a class="lang" href="{PATH}{"?" + _e(query_text) if query_text else ""}">'
            f"{_e(text.t('desk_other_language'))}</a>")  # fmt: skip


def _card_of(result: Result) -> dict[str, str]:
    """A stored game's fields as the correct form takes them."""
    counts: dict[str, int] = {}
    for name, count in (*result.schock_aus_hand, *result.schock_aus_built):
        counts[name] = counts.get(name, 0) + count
    halves = result.half_losers or (result.loser, result.loser)
    orders = [",".join("+".join(group) for group in half) for half in result.out_order]
    return {
        "id": result.id, "halves": ",".join(halves), "final": result.final_loser or "",
        "out1": orders[0] if orders else "", "out2": orders[1] if len(orders) > 1 else "",
        "schock_aus": ", ".join(f"{name}:{count}" for name, count in counts.items()),
    }  # fmt: skip


def _a_result(payload: str) -> bool:
    """Whether a refusal's payload is a well-formed result (one the desk may accept)."""
    try:
        Result.from_json(payload.encode())
    except WireError:
        return False
    return bool(payload)


def _positive(value: str) -> int:
    return int(value) if value.isascii() and value.isdigit() and 0 < int(value) < 10000 else 0


def _clock_time(at: float, *, day: bool = False) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S" if day else "%H:%M:%S", time.localtime(at))
