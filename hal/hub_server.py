"""The hub's web server (aiohttp) on a thread of its own: the TV and phone views, the exports,
and the live state as server-sent events.

It serves fixed GET routes (path -> a function of the query that returns the media type, the
body and a download name) and ``/events``, an ``text/event-stream`` that sends the latest
state on connect and each new one :meth:`HubServer.push` is given (from any thread); a route
finds the request's checked ``Host`` in its query as :data:`HOST_KEY`. A watcher
that falls behind gets the newest state, never a backlog. As the table's page, it answers only
requests whose ``Host`` is its own address, localhost or one of the names it is given
(:func:`hal.web_server.host_allowed`), so a foreign name pointed at it gets nothing.

Given a ``forms`` handler (the director's desk), every GET and POST under ``forms_at`` goes to
it as an :class:`~hal.ports.HttpRequest` with its form's fields (a POST's urlencoded body, at
most :data:`MAX_FORM_BYTES`), its cookies and the client's address, and its
:class:`~hal.ports.HttpAnswer` comes back with the headers it sets (a cookie, a redirect, the
page's own policy). What a form may do, who is logged in, and whether a POST came from the
desk's own page are the handler's to decide; the other routes stay GET only.

This module and :mod:`hal.web_server` alone import aiohttp.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl

from aiohttp import web

from hal.listening import listen_problem
from hal.ports import HttpAnswer, HttpRequest
from hal.web_server import (
    SECURITY_HEADERS,
    host_allowed,
    start_server_thread,
    stop_server_thread,
)

__all__ = ["HOST_KEY", "MAX_FORM_BYTES", "MAX_WATCHERS", "FormHandler", "HubServer",
           "HubServerError", "Route"]

logger = logging.getLogger(__name__)

#: A route: the query's parameters -> (media type, body, download file name or "").
Route = Callable[[Mapping[str, str]], tuple[str, bytes, str]]
#: A form's handler: the request -> the answer (runs on a worker thread of the server's).
FormHandler = Callable[[HttpRequest], HttpAnswer]
#: The largest form body taken (a table card's fields are well under 2 kB).
MAX_FORM_BYTES = 16 * 1024
#: Most fields a form may have.
MAX_FORM_FIELDS = 64
#: Most event streams at once (TVs, phones).
MAX_WATCHERS = 200
#: A comment line every so often keeps proxies and the browser from closing a quiet stream.
KEEPALIVE_S = 15.0
EVENTS_PATH = "/events"
#: The key under which a route finds the request's ``Host`` among its query's parameters (one the
#: server checked, never one the query sent): the TV's QR code points phones to the same name.
HOST_KEY = "@host"


class HubServerError(OSError):
    """The server cannot listen where it was asked to: one line."""


class HubServer:
    """Serves ``routes`` and the event stream on ``host:port`` (0: any free port)."""

    def __init__(
        self,
        host: str,
        port: int,
        routes: Mapping[str, Route],
        *,
        names: Iterable[str] = (),
        on_error: Callable[[Exception], str] | None = None,
        forms: FormHandler | None = None,
        forms_at: str = "/desk",
    ) -> None:
        self._routes = dict(routes)
        self._forms = forms
        self._forms_at = forms_at
        self._names = frozenset(name.lower().rstrip(".") for name in names)
        #: Turns a route's exception into the one line the browser sees (400); others: 500.
        self._on_error = on_error
        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._socket = socket.create_server((host, port), family=family, backlog=128)
        except OSError as error:
            raise HubServerError(f"hub on {host}:{port}: {listen_problem(error)}") from None
        self._latest = b""
        self._version = 0
        self._changed: asyncio.Event | None = None
        self._watchers = 0
        self._runner: web.AppRunner | None = None
        self._closed = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hub-web", daemon=True)
        start_server_thread(self._thread, self._loop, self._serve, self.close)

    @property
    def address(self) -> tuple[str, int]:
        name = self._socket.getsockname()
        return str(name[0]), int(name[1])

    def push(self, state: bytes) -> None:
        """A new state for every event stream (any thread)."""
        with contextlib.suppress(RuntimeError):  # closed: nobody to tell
            self._loop.call_soon_threadsafe(self._set, state)

    def close(self) -> None:
        """Stop serving and end the thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        stop_server_thread(self._loop, self._thread, self._socket, self._shutdown, "hub web")

    # -- the server's thread -------------------------------------------------------------------

    def _set(self, state: bytes) -> None:
        self._latest = state
        self._version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def _serve(self) -> None:
        self._changed = asyncio.Event()
        app = web.Application(middlewares=[self._check_host], client_max_size=MAX_FORM_BYTES)
        app.router.add_get(EVENTS_PATH, self._events)
        for path in self._routes:
            app.router.add_get(path, self._page)
        if self._forms is not None:
            for path in (self._forms_at, self._forms_at + "/{action}"):
                app.router.add_get(path, self._form)
                app.router.add_post(path, self._form)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await runner.setup()
        await web.SockSite(runner, self._socket).start()
        self._runner = runner

    async def _shutdown(self) -> None:
        if self._changed is not None:
            self._changed.set()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        local = str(sockname[0]) if sockname else ""
        if not host_allowed(request.headers.get("Host"), local, self._names):
            return web.Response(status=421, text="this hub answers to its own address only\n")
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        route = self._routes[request.path]
        query = {key: value for key, value in request.query.items()}
        query[HOST_KEY] = request.host
        try:
            # Exports read the store and may draw a PDF: off the server's loop.
            media, body, name = await asyncio.get_running_loop().run_in_executor(None, route, query)
        except Exception as error:
            if self._on_error is not None:
                line = self._on_error(error)
                if line:
                    return web.Response(status=400, text=line + "\n")
            logger.exception("hub web: %s failed", request.path)
            return web.Response(status=500, text="the hub could not answer this\n")
        headers = dict(SECURITY_HEADERS)
        headers["Cache-Control"] = "no-store"
        if name:
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return web.Response(body=body, content_type=media.split(";")[0], headers=headers,
                            charset="utf-8" if "charset" in media else None)  # fmt: skip

    async def _form(self, request: web.Request) -> web.Response:
        """A GET or POST of the forms' handler, off the server's loop."""
        assert self._forms is not None
        fields: dict[str, str] = {}
        if request.method == "POST":
            try:
                body = await request.read()
                fields = dict(parse_qsl(body.decode("utf-8"), max_num_fields=MAX_FORM_FIELDS))
            except web.HTTPRequestEntityTooLarge:
                return web.Response(status=413, text="this form is too large\n")
            except (UnicodeDecodeError, ValueError):
                return web.Response(status=400, text="this form cannot be read\n")
        asked = HttpRequest(
            request.path, dict(request.query),
            {name.lower(): value for name, value in request.headers.items()},
            request.method, fields, _cookies(request.headers.get("Cookie", "")),
            request.remote or "",
        )  # fmt: skip
        try:
            answer = await asyncio.get_running_loop().run_in_executor(None, self._forms, asked)
        except Exception:
            logger.exception("hub web: the form %s failed", request.path)
            return web.Response(status=500, text="the hub could not answer this\n")
        headers = {**SECURITY_HEADERS, "Cache-Control": "no-store"}
        cookies = []
        for name, value in answer.headers:
            if name.lower() == "set-cookie":
                cookies.append(value)
            else:
                headers[name] = value
        media, _, charset = answer.content_type.partition("; charset=")
        response = web.Response(status=answer.status, body=answer.body, content_type=media,
                                charset=charset or None, headers=headers)  # fmt: skip
        for value in cookies:
            response.headers.add("Set-Cookie", value)
        return response

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if self._watchers >= MAX_WATCHERS:
            return web.Response(status=503, text="too many watchers\n")
        self._watchers += 1
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        try:
            await response.prepare(request)
            seen = -1
            while not self._closed:
                if self._version != seen and self._latest:
                    seen = self._version
                    await response.write(_event(self._latest))
                changed = self._changed
                assert changed is not None
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._watchers -= 1
        return response


def _cookies(header: str) -> dict[str, str]:
    """A request's cookies by name (none where the header cannot be read)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


def _event(data: bytes) -> bytes:
    """One server-sent event carrying ``data`` (JSON: one line)."""
    return b"data: " + data.replace(b"\n", b" ") + b"\n\n"
