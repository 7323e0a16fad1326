"""The stored results as the hub counts them, kept up to date a result at a time.

:class:`ResultTally` holds the standings (an :class:`engine.tournament.Recount`) and what each
table of the current round has reported. After a commit it reads only the results stored
since it last looked (:meth:`HubStore.results_after`) and takes each new approved game into
the standings (:meth:`Recount.add <engine.tournament.Recount.add>`), each new result into its
table's counts. Everything else the standings rest on is the store's :meth:`basis
<firmware.hub.store.HubStore.basis>`: where it changed (a correction, a void, an accepted or
paper result, an approval, a player who left or came in, a draw or redraw, a round started,
finished or reopened, a refill, another format or scheme), or a new game cannot be taken (a
game of an earlier round; a round with a leaving still to take effect), it counts every stored
result again, as :func:`engine.tournament.progress` does. The cost of a result is then that
of its own game, not of every game stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.scoring import GameResult
from engine.tournament import (
    Format,
    Leaving,
    PlayedRound,
    Progress,
    Recount,
    TournamentError,
)
from firmware.hub.store import HubStore, StoredResult
from firmware.wire.messages import Result

__all__ = ["ResultTally", "TableCounts"]


@dataclass(slots=True)
class TableCounts:
    """What one table has reported in the current round (voided results aside)."""

    games: int = 0
    halves: int = 0
    #: Stored but not approved yet (approval on).
    waiting: int = 0
    last_loser: str | None = None


class ResultTally:
    """The standings and the current round's tables, counted from ``store`` (see the module)."""

    def __init__(
        self,
        store: HubStore,
        fmt: Callable[[], Format],
        leavings: Callable[[], Sequence[Leaving]],
    ) -> None:
        self._store = store
        self._format = fmt
        self._leavings = leavings
        #: Games by their payload, parsed once (a correction stores another payload).
        self._games: dict[str, GameResult] = {}
        self._basis: tuple[Any, ...] | None = None
        self._seen = 0
        self._round = 0
        self._recount: Recount | None = None
        self._error: TournamentError | None = None
        self._progress: Progress | None = None
        self._tables: dict[int, TableCounts] = {}
        self._waiting = 0
        #: Full recounts made, and games taken one by one (for the tests and the bench).
        self.recounts = 0
        self.taken = 0

    @property
    def round(self) -> int:
        """The current round as counted (0 before the first draw)."""
        return self._round

    def update(self) -> bool:
        """Read what was stored since the last look; whether everything was counted again
        (anything but new results changed, or a new game could not be taken)."""
        rows, basis, basis_after = self._store.results_after(self._seen)
        if self._recount is None or self._basis is None or basis != self._basis:
            self._count_all()
            return True
        taken = 0
        for _rowid, stored, voided in rows:
            if voided:  # stored and voided since the last look
                self._count_all()
                return True
            if stored.kind != "game" or not stored.approved:
                continue
            try:
                fits = self._recount.add(stored.round, self._game(stored.payload))
            except TournamentError:
                fits = False  # the recount says what does not fit
            if not fits:
                self._count_all()
                return True
            taken += 1
        for rowid, stored, _voided in rows:
            self._seen = rowid
            self._count(stored)
        self._basis = basis_after
        if taken:
            self._progress = None
            self.taken += taken
        return False

    def progress(self) -> Progress:
        """The standings (TournamentError if the stored results do not fit the format). The
        same object as long as no game was taken or recounted."""
        if self._error is not None:
            raise self._error
        if self._progress is None:
            assert self._recount is not None
            self._progress = self._recount.progress()
        return self._progress

    def tables(self) -> dict[int, TableCounts]:
        """The current round's tables that reported, by number."""
        return self._tables

    @property
    def waiting(self) -> int:
        """Results stored and not approved yet, all rounds (voided ones aside)."""
        return self._waiting

    def _count_all(self) -> None:
        """Everything counted again from the store."""
        store = self._store
        self.recounts += 1
        # Nothing held until the count is done: a count that fails is made again next time.
        self._recount, self._progress, self._error, self._basis = None, None, None, None
        rows, _, basis = store.results_after(0)
        rounds = store.rounds()
        self._round = rounds[-1].number if rounds else 0
        by_round: dict[int, list[GameResult]] = {r.number: [] for r in rounds}
        self._tables, self._waiting = {}, 0
        self._seen = rows[-1][0] if rows else 0
        for _rowid, stored, voided in rows:
            if voided:
                continue
            if stored.kind == "game" and stored.approved:
                by_round.setdefault(stored.round, []).append(self._game(stored.payload))
            self._count(stored)
        played = [PlayedRound(n, tuple(games)) for n, games in sorted(by_round.items())]
        try:
            self._recount = Recount(self._format(), store.players(), played, self._leavings())
        except TournamentError as error:
            self._error = error
        self._basis = basis

    def _count(self, stored: StoredResult) -> None:
        """One more result that counts (not voided): waiting or not, and its table's."""
        self._waiting += not stored.approved
        if stored.round != self._round:
            return
        counts = self._tables.setdefault(stored.table_no, TableCounts())
        counts.waiting += not stored.approved
        if stored.kind == "game":
            counts.games += 1
            counts.last_loser = str(json.loads(stored.payload)["loser"])
        else:
            counts.halves += 1

    def _game(self, payload: str) -> GameResult:
        game = self._games.get(payload)
        if game is None:
            game = Result.from_json(payload).game_result()
            self._games[payload] = game
        return game
