"""The tournament director's hub: the intake of results, the draw, the rounds, the standings.

:class:`Hub` is the logic over the store (:mod:`firmware.hub.store`), free of any network: the
MQTT service (:mod:`firmware.hub.service`) hands it each message and publishes what it returns;
the command line calls the director's commands. Every time is passed in (``now``).

A result is refused (logged and kept in the store's refusals, up to a bound per table, and
counted) when it is
malformed, when its ``table`` field is not the table whose topic it came on, when it is for
another event, for a round that is not running (not started, or finished), or for a table or
players not assigned in that round. A result whose id is stored already is answered
"duplicate", whatever the round's state is now, so a table that resends after the round ended
still empties its outbox; a result under a stored id that is not the stored result is refused.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.scoring import GameResult, Scheme, load_scheme, scheme_to_mapping
from engine.tournament import (
    FORMAT_PRESETS,
    Format,
    PhaseKind,
    PlacedLine,
    PlayedRound,
    Progress,
    Ranker,
    TournamentError,
    draw,
    progress,
    schock_aus_king,
)
from firmware.hub import refill
from firmware.hub.hub_words import SaidError
from firmware.hub.leavings import leavings
from firmware.hub.store import DenialRow, HubStore, SeatRow, StoredResult
from firmware.hub.tally import ResultTally, TableCounts
from firmware.hub.view import HubView, RoundView, TableView, board_row
from firmware.wire.messages import (
    Ack,
    Assignment,
    Result,
    RoundState,
    StandingsBoard,
    TableStatus,
    WireError,
    ack_topic,
    assign_topic,
    board_json,
    check_level,
    refill_topic,
    round_topic,
    standing_row_json,
    standings_topic,
    table_number,
    table_of_topic,
    table_user,
)

__all__ = ["Hub", "HubError", "Publication", "Unreported", "UnreportedResults", "init_tournament"]

logger = logging.getLogger(__name__)


class HubError(SaidError):
    """A director's command the tournament cannot take now: one line saying why, as one of the
    hub's words (:mod:`firmware.hub.hub_words`) and its values, which each door says in its
    user's language (:meth:`SaidError.said`)."""


@dataclass(frozen=True, slots=True)
class Unreported:
    """A table of the round whose device holds results the hub has not acknowledged (its last
    status says how many), and whether it is connected now."""

    table: int
    count: int
    online: bool


class UnreportedResults(HubError):
    """The round cannot be finished without a confirmation: tables still hold results."""

    def __init__(self, round_: int, tables: list[Unreported]) -> None:
        super().__init__("hub_unreported_many", n=round_, tables=len(tables))
        self.round = round_
        self.tables = tables


@dataclass(frozen=True, slots=True)
class Publication:
    """A message for the broker: topic, payload, retained or not."""

    topic: str
    payload: bytes
    retain: bool = False


def init_tournament(path: Path, event: str) -> Hub:
    """Make the tournament's file for ``event`` (a topic level: ``dm2026``); HubError if the
    event is not one, or the file holds a tournament already."""
    try:
        check_level(event, "event")
    except WireError:
        raise HubError("hub_bad_event", event=event) from None
    store = HubStore(path, create=True)
    if store.get("event"):
        raise HubError("hub_file_taken", path=str(path), event=store.get("event"))
    store.set("event", event)
    return Hub(store)


class Hub:
    """One tournament: its store, and what each message or command changes."""

    def __init__(self, store: HubStore) -> None:
        self.store = store
        #: Stored games by their payload, parsed once (a correction stores another payload).
        self._games: dict[str, GameResult] = {}
        #: What follows is kept up to date by whichever thread asks first (the worker, the
        #: server's pages, serve's main loop): one at a time.
        self._lock = threading.RLock()
        #: The standings and the round's tables, counted as of a revision of the store.
        self.tally = ResultTally(store, self.format, lambda: leavings(store))
        self._counted_at: tuple[int, int] | None = None
        #: The view as of a revision of the store (its ``now`` aside), the standings' part of
        #: it as of the progress it was made from, and the standings' publication.
        self._view: tuple[tuple[int, int], HubView] | None = None
        self._ranked: tuple[Progress, HubView] | None = None
        self._ranker: Ranker | None = None
        self._published: tuple[HubView, Publication] | None = None
        #: Each player's row of the standings' publication, by name: the placed line it was
        #: made from, its JSON, and its JSON after the place.
        self._board_rows: dict[str, tuple[PlacedLine, str, str]] = {}
        #: Each round's tables by number, as of the store's data version (the director's desk
        #: changes a draw in another process, or calls :meth:`seats_changed`; a refill may
        #: seat a table it lacked: read again for a table not in it).
        self._drawn: dict[int, dict[int, SeatRow]] = {}
        self._drawn_version = -1
        #: Sources past the bound of kept refusals, said once in the log.
        self._quiet: set[str] = set()
        self.event = store.get("event")
        if not self.event:
            raise HubError("hub_no_event", path=str(store.path))

    # -- the format -----------------------------------------------------------------------------

    def format(self) -> Format:
        """The tournament's format, with the points scheme the director chose."""
        name = self.store.get("format", "dm")
        if name not in FORMAT_PRESETS:
            raise HubError("hub_bad_format", name=name, names=", ".join(FORMAT_PRESETS))
        fmt = FORMAT_PRESETS[name]
        scheme = load_scheme(self.store.get("scheme", "verlustpunkte"))
        steps = tuple(
            tuple(
                replace(phase, scheme=scheme) if phase.kind is PhaseKind.POINTS else phase
                for phase in step
            )
            for step in fmt.steps
        )
        return replace(fmt, steps=steps, team_score=self.store.get("team_score", fmt.team_score))

    def played(self) -> list[PlayedRound]:
        """The rounds drawn so far with the games that count (approved ones, if approval is on),
        read whole from the store (the standings take each new game as it comes instead:
        :mod:`firmware.hub.tally`)."""
        by_round: dict[int, list[GameResult]] = {r.number: [] for r in self.store.rounds()}
        for stored in self.store.results():
            if stored.kind == "game" and stored.approved:
                game = self._games.get(stored.payload)
                if game is None:
                    game = Result.from_json(stored.payload).game_result()
                    self._games[stored.payload] = game
                by_round.setdefault(stored.round, []).append(game)
        return [PlayedRound(n, tuple(games)) for n, games in sorted(by_round.items())]

    def progress(self) -> Progress:
        """Where the tournament stands (brought up to date only after a commit: each new game
        taken into the standings, everything counted again after any other change)."""
        with self._lock:
            try:
                return self._counted().progress()
            except TournamentError as error:
                raise HubError("hub_not_counted", reason=str(error)) from None

    def recounted(self) -> Progress:
        """Where the tournament stands, replayed from every stored game (what
        :meth:`progress` keeps up to date game by game)."""
        try:
            return progress(self.format(), self.store.players(), self.played(),
                            leavings(self.store))  # fmt: skip
        except TournamentError as error:
            raise HubError("hub_not_counted", reason=str(error)) from None

    def _counted(self) -> ResultTally:
        key = self.store.revision()  # before the tally's reads: a later commit changes it
        if key != self._counted_at:
            if self.tally.update():
                self._drawn.clear()  # a desk's or a refill's change: the seats may be new
            self._counted_at = key
        return self.tally

    # -- the director's commands --------------------------------------------------------------

    def current_round(self) -> int:
        rounds = self.store.rounds()
        return rounds[-1].number if rounds else 0

    def draw_round(self, seed: int | None = None) -> list[SeatRow]:
        """Draw the next round: each group of the format onto tables, numbered on from 1.

        The order each group is seated in comes from ``seed`` (a fresh one if None), stored
        with the round, so the draw can be repeated from the file."""
        rounds = self.store.rounds()
        if rounds and rounds[-1].state != "finished":
            last = rounds[-1]
            raise HubError("hub_draw_running" if last.state == "running" else "hub_draw_drawn",
                           n=last.number)  # fmt: skip
        if not self.store.players():
            raise HubError("hub_no_players")
        state = self.progress()
        if state.over:
            raise HubError("hub_over_already")
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        rng = random.Random(seed)
        history = [s.players for r in rounds for s in self.store.seats(r.number)]
        teams = {e.name: e for e in self.store.players()}
        tables: list[SeatRow] = []
        number = (rounds[-1].number + 1) if rounds else 1
        for group in state.groups:
            order = list(group.players)
            rng.shuffle(order)
            try:
                drawn = draw([teams[n] for n in group.players], order, history, len(tables) + 1)
            except TournamentError as error:
                raise HubError("hub_draw_failed", n=number, reason=str(error)) from None
            for table in drawn:
                lives = tuple((p, group.lives[p]) for p in table.players if p in group.lives)
                tables.append(SeatRow(number, table.number, group.phase.kind, table.players, lives))
        self.store.save_draw(number, seed, tables)
        return tables

    def start_round(self, now: float, minutes: float | None = None) -> RoundState:
        """Start the drawn round now, with a time box of ``minutes`` (the format's default if
        None, none if 0)."""
        rounds = self.store.rounds()
        if not rounds or rounds[-1].state != "drawn":
            raise HubError("hub_not_drawn")
        if minutes is None:
            minutes = float(self.store.get("minutes", "0") or 0)
        ends_at = now + minutes * 60 if minutes else None
        self.store.set_round(rounds[-1].number, "running", now, ends_at)
        return RoundState(self.event, rounds[-1].number, "running", now, ends_at)

    def unreported(self) -> list[Unreported]:
        """The current round's tables that still hold results the hub has not acknowledged, by
        their last status (kept while they are offline)."""
        seats = {seat.table_no for seat in self.store.seats(self.current_round())}
        return [
            Unreported(table_no, outbox, online)
            for table_no, (online, outbox, _at) in sorted(self.store.table_status().items())
            if table_no in seats and outbox > 0
        ]

    def finish_round(self, *, confirmed: bool = False) -> RoundState:
        """End the running round: results for it are refused from now on. While a table of it
        still holds unreported results, only ``confirmed`` (UnreportedResults, listing them,
        otherwise)."""
        rounds = self.store.rounds()
        if not rounds or rounds[-1].state != "running":
            raise HubError("desk_no_round_running")
        last = rounds[-1]
        waiting = self.unreported()
        if waiting and not confirmed:
            raise UnreportedResults(last.number, waiting)
        self.store.set_round(last.number, "finished", last.starts_at, last.ends_at)
        return RoundState(self.event, last.number, "finished", last.starts_at, last.ends_at)

    # -- the director's desk ---------------------------------------------------------------------

    def paper_result(
        self, round_: int, table_no: int, game: int, result: GameResult, who: str, why: str,
        now: float,
    ) -> Result:
        """Store a game from a paper table card (a table whose device died): the same id and
        the same checks as the table's own report, marked as paper; HubError if it fails one
        or its id is stored already."""  # fmt: skip
        report = self._checked(Result.from_game(self.event, table_user(table_no), round_, game,
                                                result), table_no)  # fmt: skip
        if self.store.has_result(report.id):
            raise HubError("desk_stored_already", id=report.id)
        self.store.store_result(
            report.id, report.round, table_no, report.game, report.kind,
            report.to_json().decode(), now, True, desk=(who, "paper", why),
        )  # fmt: skip
        return report

    def correct_result(
        self, result_id: str, result: GameResult, who: str, why: str, now: float
    ) -> Result:
        """Replace a stored game's result (its id, round, table and number stay), the old one
        kept with who, when and why; HubError if it is none or fails the table's checks."""
        stored = self._stored_game(result_id)
        report = self._checked(Result.from_game(self.event, table_user(stored.table_no),
                                                stored.round, stored.game, result),
                               stored.table_no)  # fmt: skip
        self.store.correct_result(result_id, report.to_json().decode(), now, who, why)
        return report

    def void_result(self, result_id: str, who: str, why: str, now: float) -> None:
        """Let a stored result count no more, kept with who, when and why."""
        if not self.store.has_result(result_id) or self.store.is_voided(result_id):
            raise HubError("desk_nothing_to_void", id=result_id)
        self.store.void_result(result_id, now, who, why)

    def accept_refused(self, seq: int, who: str, why: str, now: float) -> Result:
        """Store a refused result after all (a late one of a finished round, say): it must
        still be a well-formed result of the table whose topic it came on, for a started
        round and that table's players."""
        refusal = self.store.refusal(seq)
        if refusal is None:
            raise HubError("desk_no_refusal", n=seq)
        where = table_of_topic(refusal.topic)
        number = table_number(where[1]) if where is not None else None
        if not refusal.payload or where is None or number is None:
            raise HubError("desk_refusal_no_result", n=seq)
        try:
            result = Result.from_json(refusal.payload)
        except WireError as error:
            raise HubError("desk_refusal_unreadable", n=seq, reason=str(error)) from None
        if result.table != where[1]:
            raise HubError("desk_refusal_other_table", n=seq, table=result.table, topic=where[1])
        if self.store.has_result(result.id):
            raise HubError("desk_accepted_already", id=result.id)
        self._checked(result, number)
        self.store.store_result(
            result.id, result.round, number, result.game, result.kind,
            result.to_json().decode(), now, True, desk=(who, "accept", why),
        )  # fmt: skip
        return result

    def _stored_game(self, result_id: str) -> StoredResult:
        stored = next((r for r in self.store.results() if r.id == result_id), None)
        if stored is None:
            raise HubError("desk_no_result", id=result_id)
        if stored.kind != "game":
            raise HubError("desk_half_result", id=result_id)
        return stored

    def _checked(self, report: Result, table_no: int) -> Result:
        """``report`` through the wire's checks and the table's (a finished round allowed)."""
        try:
            report = Result.from_json(report.to_json())
        except WireError as error:
            raise HubError("desk_not_a_result", reason=str(error)) from None
        problem = self._problem(report, table_no, director=True)
        if problem is not None:
            raise problem
        return report

    # -- the intake -----------------------------------------------------------------------------

    def receive(
        self, topic: str, payload: bytes, now: float, *, standings: bool = True
    ) -> list[Publication]:
        """Take one message from the broker; what to publish in answer (after the commit).

        A table's status is noted; a result is stored, answered "duplicate", or refused and
        logged. Anything else is ignored. The answer to a stored result is its Ack and (with
        ``standings``) the new standings; the service leaves them out and publishes them once
        for a burst of results."""
        where = table_of_topic(topic)
        if where is None or where[0] != self.event:
            return []
        _event, user, leaf = where
        number = table_number(user)
        if number is None:
            self._refuse(user, topic, "", HubError("hub_not_a_table", user=user), now, payload)
            return []
        if leaf == "status":
            try:
                status = TableStatus.from_json(payload)
            except WireError as error:
                self._refuse(user, topic, "", str(error), now, payload)
                return []
            self.store.set_table_status(number, status.online, status.outbox, now)
            return []
        if leaf in (refill.RESULT_LEAF, refill.SEAT_LEAF):
            problem = refill.stage(self.store, user, leaf, payload, now)
            if problem is not None:
                self._refuse(user, topic, "", problem, now, payload)
            return []
        if leaf != "result":
            return []
        ack = self._result(topic, user, number, payload, now)
        if ack is None:
            return []
        answer = [Publication(ack_topic(self.event, user), ack.to_json())]
        if ack.status == "stored" and standings:
            answer.append(self.standings_publication())
        return answer

    def _result(self, topic: str, user: str, number: int, payload: bytes, now: float) -> Ack | None:
        try:
            result = Result.from_json(payload)
        except WireError as error:
            given = _raw_id(payload)
            self._refuse(user, topic, given, str(error), now, payload)
            return Ack(given, "refused", str(error)[:200]) if given else None
        if result.table != user:
            wrong = HubError("hub_other_topic", table=result.table, topic=user)
            self._refuse(user, topic, result.id, wrong, now, payload)
            return Ack(result.id, "refused", str(wrong))
        known = self.store.result_payload(result.id)
        if known is not None:
            if Result.from_json(known) != result and not self.store.overruled(result.id):
                # Not a copy: the same id for another game would drop that game unseen.
                other = HubError("hub_stored_other", id=result.id)
                self._refuse(user, topic, result.id, other, now, payload)
                return Ack(result.id, "refused", str(other)[:200])
            return Ack(result.id, "duplicate")
        if result.event == self.event and refill.holds_back(self.store, result.round, number):
            return None  # its round or seat comes with a refill: the table sends it again then
        problem = self._problem(result, number)
        if problem is not None:
            self._refuse(user, topic, result.id, problem, now, payload)
            return Ack(result.id, "refused", str(problem)[:200])
        approved = self.store.get("approval", "off") != "on"
        stored = self.store.store_result(
            result.id,
            result.round,
            number,
            result.game,
            result.kind,
            result.to_json().decode(),
            now,
            approved,
        )
        return Ack(result.id, "stored" if stored else "duplicate")

    def _problem(
        self, result: Result, number: int, *, director: bool = False
    ) -> HubError | None:
        """Why a well-formed result of this table cannot be stored, or None (for the
        ``director``, a finished round is no reason)."""
        if result.event != self.event:
            return HubError("hub_other_event", event=result.event, ours=self.event)
        row = self.store.round(result.round)
        if row is None or row.state == "drawn":
            return HubError("hub_round_not_started", n=result.round)
        if row.state == "finished" and not director:
            return HubError("hub_round_finished", n=result.round)
        seat = self._seats(result.round).get(number)
        if seat is None:  # a refill may have seated it since (firmware/hub/refill.py)
            self._drawn.pop(result.round, None)
            seat = self._seats(result.round).get(number)
        if seat is None:
            return HubError("desk_no_table", table=number, n=result.round)
        if seat.kind is PhaseKind.POINTS and set(result.players) != set(seat.players):
            return HubError("hub_not_the_players", names=", ".join(result.players), table=number)
        if not set(result.players) <= set(seat.players):
            return HubError("hub_not_the_players", names=", ".join(result.players), table=number)
        if seat.kind is not PhaseKind.POINTS and result.kind == "game":
            # A player out plays no more game: a game of theirs would not fit the standings.
            lives = {line.name: line.lives for line in self.progress().lines}
            out = [p for p in result.players if not lives.get(p)]
            if out:
                return HubError("hub_no_life", names=", ".join(out), n=result.round)
        return None

    def seats_changed(self) -> None:
        """Forget the tables of every round: the desk changed a draw on this connection."""
        self._drawn.clear()

    def _seats(self, round_: int) -> dict[int, SeatRow]:
        """The round's tables by number (none yet: not cached, the round may be drawn next)."""
        version = self.store.data_version()
        if version != self._drawn_version:
            self._drawn.clear()
            self._drawn_version = version
        tables = self._drawn.get(round_)
        if tables is None:
            tables = {seat.table_no: seat for seat in self.store.seats(round_)}
            if tables:
                self._drawn[round_] = tables
        return tables

    def _refuse(
        self, source: str, topic: str, result_id: str, why: str | HubError, now: float,
        payload: bytes,
    ) -> None:
        """Count and (up to the store's bound per source) keep and log a refusal: a table that
        floods junk costs the disk and the log a bounded amount. ``why``: the hub's own words,
        or the wire's reason."""  # fmt: skip
        reason = str(why)
        said = "" if isinstance(why, str) else json.dumps(
            {"key": why.key, "values": why.values}, ensure_ascii=False
        )  # fmt: skip
        if self.store.refuse(source, topic, result_id, reason, now, payload, said):
            logger.warning("refused %s on %s: %s", result_id or "a message", topic, reason[:300])
        elif source not in self._quiet:
            self._quiet.add(source)
            logger.warning("%s: more refusals than %d; counted from now on, not kept or logged",
                           source, self.store.kept_refusals)  # fmt: skip

    # -- what the hub publishes ----------------------------------------------------------------

    def board(self) -> StandingsBoard:
        """The standings as the wire's board, best first (HubError if the stored results do
        not fit the format)."""
        self.progress()
        return self.view(0.0).board()

    def standings_publication(self) -> Publication:
        """The retained standings (made again only when the standings or the round changed)."""
        with self._lock:
            return self._publication()

    def _publication(self) -> Publication:
        self.progress()
        view = self.view(0.0)
        last = self._published
        if last is not None:
            shown = last[0]
            if (shown.standings, shown.teams, shown.round) == (view.standings, view.teams,
                                                               view.round):  # fmt: skip
                return last[1]
        rows: dict[str, tuple[PlacedLine, str, str]] = {}
        texts = []
        for placed in view.standings:
            held = self._board_rows.get(placed.line.name)
            if held is None or held[0] is not placed:
                if held is None or held[0].line is not placed.line:
                    text = standing_row_json(board_row(placed))
                    tail = text[text.index(",") + 1 :]  # what follows its place
                else:
                    tail = held[2]
                held = (placed, f'{{"place":{placed.place},{tail}', tail)
            rows[placed.line.name] = held
            texts.append(held[1])
        payload = board_json(self.event, view.round.number, texts, view.board_teams())
        self._board_rows = rows
        published = Publication(standings_topic(self.event), payload, retain=True)
        self._published = (view, published)
        return published

    def assignments(self) -> list[Assignment]:
        """The current round's assignment of every table."""
        row = self.store.round(self.current_round())
        if row is None:
            return []
        points = scheme_to_mapping(load_scheme(self.store.get("scheme", "verlustpunkte")))
        return [
            Assignment(
                self.event,
                row.number,
                table_user(seat.table_no),
                seat.table_no,
                seat.players,
                row.starts_at or 0.0,
                row.ends_at,
                points if seat.kind is PhaseKind.POINTS else self._lives_scheme(seat.kind),
                seat.kind,
                seat.lives,
            )
            for seat in self.store.seats(row.number)
        ]

    def _lives_scheme(self, kind: PhaseKind) -> dict[str, Any]:
        """What a KO or Trostrunde table counts: lives, and what costs one (the format's
        first phase of that kind says), so that a table knows who is out."""
        phases = [phase for step in self.format().steps for phase in step]
        phase = next((p for p in phases if p.kind is kind), None)
        lives = phase.lives if phase is not None else 3
        cost = phase.life_cost if phase is not None else load_scheme("leben").life_cost
        return scheme_to_mapping(Scheme("leben", lives=lives, life_cost=cost))

    def publications(self) -> list[Publication]:
        """Everything retained the tables and TVs should see now: the round, each table's
        assignment (an empty payload clears a table not playing this round), the standings."""
        row = self.store.round(self.current_round())
        out: list[Publication] = []
        if row is not None:
            state = RoundState(self.event, row.number, row.state, row.starts_at, row.ends_at)
            out.append(Publication(round_topic(self.event), state.to_json(), retain=True))
            playing = set()
            if row.state != "drawn":
                for assignment in self.assignments():
                    playing.add(assignment.table)
                    topic = assign_topic(self.event, assignment.table)
                    out.append(Publication(topic, assignment.to_json(), retain=True))
            earlier = {
                table_user(s.table_no)
                for r in self.store.rounds()
                for s in self.store.seats(r.number)
            }
            for user in sorted(earlier - playing):
                out.append(Publication(assign_topic(self.event, user), b"", retain=True))
        if self.store.players():
            out.append(self.standings_publication())
        asked = refill.request(self.store)
        out.append(Publication(refill_topic(self.event), asked.to_json() if asked else b"",
                               retain=True))
        return out

    def view(self, now: float) -> HubView:
        """What the TV, the phone, the board and the exports show at ``now`` (made again only
        after a commit: a table's status and a refusal are commits too)."""
        with self._lock:
            key = self.store.revision()
            if self._view is None or self._view[0] != key:
                self._view = (key, self._made_view())
            return replace(self._view[1], now=now)

    def _made_view(self) -> HubView:
        tally = self._counted()
        number = tally.round
        row = self.store.round(number)
        try:
            state: Progress | None = self.progress()
        except HubError:
            state = None
        fmt = self.format()
        ranked = self._ranked_view(state, fmt)
        denials = self.store.denials()
        return replace(
            ranked,
            event=self.event,
            round=RoundView(number, row.state, row.starts_at, row.ends_at) if row else RoundView(),
            tables=self._tables(number, state, denials),
            refused=sum(self.store.refusal_counts().values()),
            denied=sum(row.count for row in denials),
            broker=self.store.broker_link(),
            waiting=tally.waiting,
            over=bool(state and state.over and number),
            scheme=self.store.get("scheme", "verlustpunkte"),
        )

    def _ranked_view(self, state: Progress | None, fmt: Format) -> HubView:
        """The view's standings, teams and king: sorted again only for new standings."""
        if state is not None and self._ranked is not None and self._ranked[0] is state:
            return self._ranked[1]
        lines = state.lines if state is not None else ()
        higher = state.higher_is_better if state is not None else True
        ranker = self._ranker
        if ranker is None or (ranker.higher_is_better, ranker.by) != (higher, fmt.team_score):
            ranker = self._ranker = Ranker(higher, fmt.team_score)
        ranked = HubView(
            event=self.event,
            now=0.0,
            format=fmt.name,
            points=any(p.kind is PhaseKind.POINTS for step in fmt.steps for p in step),
            round=RoundView(),
            standings=ranker.placed(lines),
            teams=ranker.team_scores(lines),
            king=schock_aus_king(lines),
            tables=(),
            refused=0,
            waiting=0,
            over=False,
        )
        self._ranked = (state, ranked) if state is not None else None
        return ranked

    def _tables(
        self, number: int, state: Progress | None, denials: list[DenialRow]
    ) -> tuple[TableView, ...]:
        """The round's tables as the TV shows them: lives as the standings have them now."""
        if not number:
            return ()
        now_lives = {
            line.name: line.lives
            for line in (state.lines if state else ())
            if line.lives is not None
        }
        reported = self.tally.tables()
        status = self.store.table_status()
        denied: dict[int, int] = {}
        for row in denials:
            if (table_no := table_number(row.user)) is not None:
                denied[table_no] = denied.get(table_no, 0) + row.count
        tables = []
        nothing = TableCounts()
        for seat in self._seats(number).values():
            counts = reported.get(seat.table_no, nothing)
            online, outbox, _at = status.get(seat.table_no, (False, 0, 0.0))
            tables.append(
                TableView(
                    table=seat.table_no,
                    kind=seat.kind,
                    players=seat.players,
                    lives=tuple((p, now_lives.get(p, left)) for p, left in seat.lives),
                    games=counts.games,
                    halves=counts.halves,
                    last_loser=counts.last_loser,
                    online=online,
                    outbox=outbox,
                    waiting=counts.waiting,
                    denied=denied.get(seat.table_no, 0),
                )
            )
        return tuple(tables)


def _raw_id(payload: bytes) -> str:
    """The ``id`` of a message that failed its check, if it names one we can answer."""
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return ""
    value = data.get("id") if isinstance(data, dict) else None
    ok = isinstance(value, str) and 0 < len(value) <= 160 and value.isprintable()
    return value if ok and isinstance(value, str) else ""
