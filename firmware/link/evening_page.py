"""The page's part of the Spieltag: what the ``spieltag`` line tells, beginning and ending an
evening from a paired page, and the sheet's downloads for a paired phone.

Standings are public (every sheet of a league is signed by both sides, and the table sees
them on the device after every game): any page may ask ``spieltag``. Beginning and ending an
evening change the device: only a paired page may (the protocol's ``changing`` commands). The
sheet (CSV and PDF, :mod:`firmware.report`) is a download at ``/spieltag.csv`` and
``/spieltag.pdf`` for a request that carries a pairing token (``Authorization: Bearer
TOKEN``); without one it gets 403 and no file. The file is named after the Spieltag.

The season's (every Spieltag the device keeps, :mod:`firmware.report.season_sheet`) is at
``/saison.csv`` and ``/saison.pdf`` alike.

The downloads are made on a worker thread of the web server (:class:`hal.ports.Routed`): they
only read the state directory, as ``schocken sheet`` does next to the running device.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from engine.saison import evening_kasse, make_season, season_kasse
from engine.scoring import ScoringError
from engine.spieltag import Evening, Spieltag, SpieltagError
from firmware.link.pairing import Pairing
from firmware.link.protocol import SpieltagBegin
from firmware.store.evening import load_evening
from firmware.store.gamestore import CURRENT
from firmware.store.kept_evenings import kept_evenings
from firmware.store.spieltagbegin import SpieltagRequest, begin_spieltag
from firmware.store.spieltagfile import SPIELTAG_FILE, SpieltagFiles
from firmware.words import LANGUAGES
from hal.ports import HttpAnswer, HttpRequest, Storage, StorageError

__all__ = [
    "SEASON_ROUTES",
    "SHEET_ROUTES",
    "PageSpieltag",
    "SpieltagAnswers",
    "season_route",
    "sheet_filename",
    "sheet_route",
    "spieltag_answer",
]

#: The download routes: path -> the sheet's kind.
SHEET_ROUTES = {"/spieltag.csv": "csv", "/spieltag.pdf": "pdf"}
#: The season's download routes (every Spieltag the device keeps): path -> its kind.
SEASON_ROUTES = {"/saison.csv": "csv", "/saison.pdf": "pdf"}
_MEDIA = {"csv": "text/csv; charset=utf-8", "pdf": "application/pdf"}


def spieltag_answer(storage: Storage, *, scharf: bool = False) -> dict[str, Any]:
    """The ``spieltag`` line's JSON: the evening going on (or null), its time box and the table
    sizes its scheme scores (``places``; empty: any), whether the game in play goes on scharf,
    its standings recounted from the games that count (``games``: how many; under Leben each
    player out with the Partie after which), the Partien that cannot be counted (``lost``:
    their number and whether the journal is missing or damaged) and the finished ones not
    counted (``not_counted``: taken out, or of a table size the scheme cannot score)."""
    try:
        current = SpieltagFiles(storage).current()
    except (SpieltagError, StorageError) as error:
        return {"spieltag": None, "problem": " ".join(str(error).split())}
    if current is None:
        return {"spieltag": None}
    answer: dict[str, Any] = {
        "spieltag": {
            "id": current.id, "name": current.name, "venue": current.venue,
            "date": current.date, "scheme": current.scheme.name, "lives": current.scheme.lives > 0,
            "time_box": current.time_box or None, "began_at": current.began_at or None,
            "places": list(current.scheme.table_sizes),
        },
        "scharf": scharf,
        "games": 0,
        "standings": [],
        "lost": [],
        "not_counted": [],
    }  # fmt: skip
    try:
        evening = load_evening(storage, current.id)
        counted = evening.counted
        answer["games"] = len(counted)
        # A Partie whose journal is gone or damaged is named, by its number and why.
        answer["lost"] = [
            {"partie": game.partie, "loss": game.loss.value} for game in evening.lost
        ]
        answer["not_counted"] = [
            {"partie": game.partie, "players": game.players, "why": game.why.value}
            for game in evening.uncounted
        ]
        if counted:
            answer["standings"] = [
                {"place": line.place, "player": line.player, "score": line.score,
                 "out": line.out,
                 "out_after": counted[line.out_after - 1].partie if line.out_after else None}
                for line in evening.standings()
            ]  # fmt: skip
            _add_kasse(answer, storage, evening)
    except (SpieltagError, ScoringError, StorageError) as error:
        answer["problem"] = " ".join(str(error).split())
    return answer


def _add_kasse(answer: dict[str, Any], storage: Storage, evening: Evening) -> None:
    """With a Kasse: each standings line's ``kasse`` (the evening's, in cents) and
    ``kasse_season`` (every Spieltag the device keeps), and the Spieltag's ``kasse`` true."""
    owed = {line.player: line.cents for line in evening_kasse(evening)}
    if not owed:
        return
    kept = kept_evenings(storage, with_kasse=True, known=evening)
    season = {line.player: line.cents for line in season_kasse(kept)}
    answer["spieltag"]["kasse"] = True
    for line in answer["standings"]:
        line["kasse"] = owed.get(line["player"], 0)
        line["kasse_season"] = season.get(line["player"], 0)


class SpieltagAnswers:
    """:func:`spieltag_answer`, recounted only when the state directory changed: a new or
    ended evening, a game archived or written on. Twenty pages asking after a game's end cost
    the main loop one recount, not twenty."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._kept: tuple[object, dict[str, Any]] | None = None

    def answer(self, *, scharf: bool = False) -> dict[str, Any]:
        """The ``spieltag`` line's JSON, with the game in play's ``scharf``."""
        storage = self.storage
        try:
            key: object = (
                storage.read_text(SPIELTAG_FILE), tuple(storage.names()), storage.size(CURRENT)
            )
        except StorageError:
            key = None  # unreadable: counted afresh, and the answer says why
        kept = self._kept
        if kept is None or key is None or kept[0] != key:
            kept = (key, spieltag_answer(storage))
            self._kept = kept
        answer = dict(kept[1])
        if answer.get("spieltag") is not None:
            answer["scharf"] = scharf
        return answer


class PageSpieltag:
    """The Spieltag's lines on a device that keeps its games (the remote's ``spieltag`` hook,
    on the main loop): the ``spieltag`` answer with the game in play's ``scharf``, and
    beginning and ending an evening from a paired page. ``wall_time`` dates a new evening."""

    def __init__(
        self, storage: Storage, wall_time: Callable[[], datetime], scharf: Callable[[], bool]
    ) -> None:
        self.storage = storage
        self._wall_time = wall_time
        self._scharf = scharf
        self._answers = SpieltagAnswers(storage)

    def answer(self) -> dict[str, Any]:
        """The ``spieltag`` line's JSON."""
        return self._answers.answer(scharf=self._scharf())

    def begin(self, asked: SpieltagBegin) -> None:
        """Begin the Spieltag a page asked for, as every door does
        (:func:`~firmware.store.spieltagbegin.begin_spieltag`); ValueError (one line) for a bad
        value, while one is going on, or if it cannot be written."""
        request = SpieltagRequest(
            asked.name, asked.scheme, asked.date, asked.venue, time_box=asked.time_box
        )
        try:
            begin_spieltag(self.storage, request, self._wall_time())
        except StorageError as error:
            raise ValueError(f"not saved: {error}") from None

    def end(self) -> None:
        """End the Spieltag going on; ValueError (one line) if none is or it cannot be
        written."""
        try:
            SpieltagFiles(self.storage).end()
        except StorageError as error:
            raise ValueError(f"not saved: {error}") from None


def sheet_filename(spieltag: Spieltag, kind: str) -> str:
    """``Spielberichtsbogen-7-Spieltag-2026-12-01.csv``: the sheet's file, named by its
    Spieltag (letters and digits of any script kept, the rest a dash)."""
    name = re.sub(r"[^\w]+", "-", spieltag.name, flags=re.UNICODE).strip("-_") or spieltag.id
    return f"Spielberichtsbogen-{name}-{spieltag.date}.{kind}"


def _token(request: HttpRequest) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _refusal(status: int, text: str) -> HttpAnswer:
    return HttpAnswer(status, "text/plain; charset=utf-8", (text + "\n").encode())


def _paired_language(request: HttpRequest, pairing: Pairing) -> str | HttpAnswer:
    """A download's language (``?lang=``, German by default), or the refusal of a request
    without a pairing token or with a language the page does not speak."""
    token = _token(request)
    if not token or not pairing.knows(token):
        return _refusal(403, "pair this phone first (the PIN from the device's menu)")
    lang = request.query.get("lang", "de")
    if lang not in LANGUAGES:
        return _refusal(400, f"lang {lang[:8]!r}: one of {', '.join(LANGUAGES)}")
    return lang


def sheet_route(
    storage: Storage, pairing: Pairing, kind: str
) -> Callable[[HttpRequest], HttpAnswer]:
    """The handler of the ``kind`` (csv or pdf) download: the Spieltag going on (else the
    last one ended), for a request with a pairing token; ``?lang=en`` for English."""

    def answer(request: HttpRequest) -> HttpAnswer:
        lang = _paired_language(request, pairing)
        if isinstance(lang, HttpAnswer):
            return lang
        try:
            evening = load_evening(storage)
            evening.standings()  # no games yet: one line, no empty sheet
        except (SpieltagError, StorageError) as error:
            return _refusal(404, " ".join(str(error).split()))
        if kind == "pdf":
            from firmware.report.pdf import sheet_pdf
            from firmware.report.sheet import evening_sheet

            body = sheet_pdf(evening_sheet(evening), lang)
        else:
            from firmware.report.document import csv_text
            from firmware.report.sheet import evening_sheet, sheet_rows

            body = csv_text(sheet_rows(evening_sheet(evening), lang)).encode("utf-8")
        return HttpAnswer(200, _MEDIA[kind], body, sheet_filename(evening.spieltag, kind))

    return answer


def season_route(
    storage: Storage, pairing: Pairing, kind: str
) -> Callable[[HttpRequest], HttpAnswer]:
    """The handler of the season's ``kind`` (csv or pdf) download: every Spieltag the device
    keeps (as ``schocken saison`` reads a state directory), for a request with a pairing
    token; ``?lang=en`` for English."""

    def answer(request: HttpRequest) -> HttpAnswer:
        lang = _paired_language(request, pairing)
        if isinstance(lang, HttpAnswer):
            return lang
        try:
            season = make_season(kept_evenings(storage))
        except (SpieltagError, ScoringError, StorageError) as error:
            return _refusal(404, " ".join(str(error).split()))
        from firmware.report.season_sheet import season_csv, season_pdf

        body = season_pdf(season, lang) if kind == "pdf" else season_csv(season, lang)
        name = f"Saison-{season.first_date}-{season.last_date}.{kind}"
        return HttpAnswer(200, _MEDIA[kind], body, name)

    return answer
