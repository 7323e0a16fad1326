"""A whole simulated tournament: the hub, a real broker and many simulated tables, with faults.

:class:`TournamentRun` plays a tournament the way a hall would: the director's commands on the
hub's SQLite file (draw, start, finish), ``schocken hub serve`` as a process of its own (as its
systemd unit runs it), and every table a
:class:`~sim.tournament.simulated_table.SimulatedTable`: the device's real journal, outbox and
reporter, computer players, a simulated clock of its own. The tables play one after another in
this process; the broker and the hub run beside them.

Faults (:class:`Faults`) strike while a round is being played: the broker is killed with
SIGKILL and started again, the hub too, and some tables lose the network for their whole round
(their clocks run on through its time box) and come back after the others: either leaving
cleanly, or cut off silently (:class:`~sim.tournament.cutoff.CutOffProxy` drops their bytes
without a FIN or RST, so the broker's keepalive notices and publishes their Last Will, and what
they publish meanwhile is lost on the way). A table's device can die in the middle of a game
and a spare take its place, with the dead one's state folder (its SD card moved over). At the
end,
:meth:`TournamentRun.check` recounts every result from every table's own journals and holds
them against what the hub stored and the standings it published: nothing lost, nothing counted
twice, the same standings.

``make tournament-demo`` runs the same thing paced for a TV to watch, the tests a small one, and
``make test-long`` one of 100 tables and one the size of the Deutsche Meisterschaft (152 tables,
608 players, :meth:`Faults.dm`).
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from engine.scoring import GameResult
from engine.tournament import Entrant, PhaseKind, PlayedRound, PlayerLine, progress
from firmware.hub.hub import Hub, init_tournament
from firmware.hub.store import HubStore, SeatRow, StoredResult
from firmware.store.gamestore import GameStore
from firmware.wire.broker import HUB_USER, WATCH_USER
from firmware.wire.messages import (
    Assignment,
    Result,
    StandingsBoard,
    standings_topic,
    table_number,
    table_user,
)
from hal.mqtt import MqttLink, MqttSettings
from sim.fakes import FakeClock
from sim.tournament import processes
from sim.tournament.cutoff import CutOffProxy
from sim.tournament.simulated_table import (
    MAX_GAMES,
    DeviceDied,
    SimulatedTable,
    TableSettings,
    recount_from_journal,
)

__all__ = ["Faults", "Outcome", "TournamentRun"]

#: Where the checkout is: the hub's process runs the command line from it.
ROOT = Path(__file__).resolve().parents[2]
#: Told of the run's progress: a key of the simulator's words (``sim_run_*``) and its fields.
Report = Callable[..., None]


class Broker(Protocol):
    """The broker the run uses: its address, its users' passwords, and a way to kill it."""

    @property
    def url(self) -> str: ...

    @property
    def passwords(self) -> dict[str, str]: ...

    @property
    def log_file(self) -> Path:
        """Its log, with the publishes and subscriptions it denied (the hub counts them)."""

    def kill(self) -> None: ...

    def start(self, timeout_s: float = 10.0) -> None: ...


@dataclass(frozen=True, slots=True)
class Faults:
    """What goes wrong during the run, each at a share of a round's tables played."""

    #: Broker kills: (round, share of its tables played when it dies, share when it is back).
    broker_kills: tuple[tuple[int, float, float], ...] = ((1, 0.3, 0.45), (2, 0.6, 0.7))
    #: Hub kills, the same way.
    hub_kills: tuple[tuple[int, float, float], ...] = ((2, 0.2, 0.5),)
    #: (round, how many tables) that play that round without a network, leaving cleanly.
    offline: tuple[tuple[int, int], ...] = ((1, 10),)
    #: (round, how many tables) whose network vanishes silently while they play that round
    #: (the round's last tables, the highest numbers): back once the hub has their Will.
    cut: tuple[tuple[int, int], ...] = ()
    #: (round, how many tables) whose device dies in the middle of a game of that round (the
    #: round's first tables), replaced by a spare that carries on from its state folder.
    replaced: tuple[tuple[int, int], ...] = ()
    #: Actions into its round after which a replaced table's device dies (mid-game).
    dies_after: int = 40
    #: (round, share of its tables played): the hub is killed and its SQLite file deleted; the
    #: director makes a new one (init, format, players) and refills it from the tables
    #: (``schocken hub refill``, :mod:`firmware.hub.refill`).
    hub_lost: tuple[tuple[int, float], ...] = ()

    @classmethod
    def none(cls) -> Faults:
        return cls((), (), ())

    @classmethod
    def dm(cls) -> Faults:
        """The DM-sized run's: the broker killed twice, the hub once, ten tables cut off
        silently, one table's device dead mid-game and replaced."""
        return cls(
            broker_kills=((1, 0.3, 0.45), (3, 0.6, 0.7)), hub_kills=((2, 0.2, 0.5),),
            offline=(), cut=((2, 10),), replaced=((3, 1),),
        )  # fmt: skip

    @property
    def planned(self) -> int:
        """How many faults :attr:`TournamentRun.faults_done` names once all struck (a kill and
        its return, an offline or cut group's going and coming back, a replacement)."""
        groups = len(self.broker_kills) + len(self.hub_kills) + len(self.offline) + len(self.cut)
        return 2 * groups + sum(count for _round, count in self.replaced) + len(self.hub_lost)


@dataclass(slots=True)
class Outcome:
    """What :meth:`TournamentRun.check` found."""

    journalled: int
    stored: int
    lost: list[str]
    unexpected: list[str]
    refused: int
    standings_equal: bool
    board_equal: bool
    rounds: int
    games: int
    seconds: float
    #: Games the tables played that are no tournament game (no place in their journal's
    #: header): never reported, so the recount cannot miss them; there must be none.
    untagged: int = 0
    #: The hub's lines and the recount's, for a report when they differ.
    hub_lines: tuple[PlayerLine, ...] = ()
    recounted_lines: tuple[PlayerLine, ...] = ()
    faults_done: list[str] = field(default_factory=list)
    #: What the broker denied the tables' logins (the hub counted it from the broker's log):
    #: honest tables ask for nothing beyond their rights, so there must be none.
    denied: int = 0
    #: Results the hub stored twice over: a stored row beyond one per id, or a table's games
    #: of a round stored beyond what its journals hold.
    doubled: int = 0
    #: Tables cut off silently, and of them those whose Last Will reached the hub (its store
    #: had them offline before they came back).
    cut: int = 0
    wills: int = 0
    #: Devices that died mid-game and were replaced by a spare.
    replaced: int = 0
    #: Bytes the cut-off tables' proxies dropped.
    dropped_bytes: int = 0
    #: Players in the standings, and the winner (the best line) of the recount.
    players: int = 0
    winner: str | None = None
    #: What each refill of a lost hub database said it did.
    refills: tuple[str, ...] = ()
    #: The table devices that played (the hall's, and a spare a draw wanted beyond them).
    devices: int = 0

    @property
    def ok(self) -> bool:
        return (
            not self.lost and not self.unexpected and not self.untagged and not self.denied
            and not self.doubled and self.standings_equal and self.board_equal
            and self.wills == self.cut
        )

    def summary(self) -> str:
        return (
            f"{self.rounds} rounds, {self.games} games at {self.devices} tables, "
            f"{self.journalled} results in the "
            f"tables' journals, {self.stored} stored by the hub: {len(self.lost)} lost, "
            f"{len(self.unexpected)} not in any journal, {self.refused} refused, "
            f"{self.untagged} games no tournament game, {self.denied} denied by the broker, "
            f"{self.doubled} doubled; {self.cut} tables "
            f"cut off silently ({self.wills} Last Wills at the hub, {self.dropped_bytes} bytes "
            f"dropped), {self.replaced} devices replaced mid-game, {len(self.refills)} hub "
            f"databases refilled; standings "
            f"{'equal' if self.standings_equal else 'DIFFERENT'}, published board "
            f"{'equal' if self.board_equal else 'DIFFERENT'}; winner {self.winner or 'none yet'}"
            f"; {self.seconds:.1f} s"
        )


class HubProcess(processes.ChildProcess):
    """``schocken hub serve`` as a process of its own, started and killed at will."""

    def __init__(self, db: Path, broker: Broker, listen: str, log: Path) -> None:
        self.db, self.broker, self.listen, self.log = db, broker, listen, log
        self._process: subprocess.Popen[bytes] | None = None
        self.address: str | None = None

    def start(self, timeout_s: float = 20.0) -> None:
        env = dict(os.environ, SCHOCKEN_HUB_PASSWORD=self.broker.passwords[HUB_USER])
        env.setdefault("LANG", "de_DE.UTF-8")
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "schockbesteck", "hub", "serve", "--db", str(self.db),
                 "--broker", self.broker.url, "--listen", self.listen,
                 "--broker-log", str(self.broker.log_file)],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log,
            )  # fmt: skip
        assert self._process.stdout is not None
        deadline = time.monotonic() + timeout_s
        line = b""
        while time.monotonic() < deadline and b"http://" not in line:
            line = self._process.stdout.readline()
            if not line and self._process.poll() is not None:
                raise RuntimeError(f"the hub stopped at once; see {self.log}")
        words = line.decode(errors="replace").split()
        self.address = next((w.rstrip("/,") for w in words if w.startswith("http://")), None)
        if self.address is None:
            raise RuntimeError(f"the hub did not say where its TV page is; see {self.log}")



class TournamentRun:
    """A tournament of ``tables`` tables of four on ``broker``, kept in ``folder``; each round
    ``minutes`` long (one time box for all, or one for each round in turn)."""

    def __init__(
        self,
        folder: Path,
        broker: Broker,
        *,
        tables: int,
        event: str = "sim",
        fmt: str = "points-then-ko",
        rounds: int = 3,
        minutes: float | Sequence[float] = 70.0,
        faults: Faults | None = None,
        listen: str = "127.0.0.1:0",
        action_s: float = 6.0,
        pace_s: float = 0.0,
        report: Report | None = None,
    ) -> None:
        self.folder = folder
        self.broker = broker
        self.event = event
        self.rounds = rounds
        #: Each round's time box (the last one for any round beyond the list).
        self.minutes = (minutes,) if isinstance(minutes, int | float) else tuple(minutes)
        self.faults = faults if faults is not None else Faults()
        self.pace_s = pace_s
        self.report: Report = report or (lambda key, **fields: None)
        #: Set to end the run after the table at play (the demo's Ctrl+C).
        self.stopping = threading.Event()
        self.started_at = time.monotonic()
        self.faults_done: list[str] = []
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "tournament.db"
        self.fmt = fmt
        # Teams of five, as at the DM: their members are spread over the tables by the draw.
        self.entrants = [Entrant(f"S{i + 1:03}", f"Team {i // 5 + 1}") for i in range(tables * 4)]
        self.hub = self._new_hub(db)
        self.hub_process = HubProcess(db, broker, listen, folder / "hub.log")
        self.clock_start = time.time()
        # The tables a fault may cut off or kill reach the broker through a proxy of their own.
        port = urlsplit(broker.url).port or 1883
        cut = max((count for _round, count in self.faults.cut), default=0)
        dying = max((count for _round, count in self.faults.replaced), default=0)
        self.proxies = {
            number: CutOffProxy(port)
            for number in {*range(1, min(dying, tables) + 1),
                           *range(max(1, tables - cut + 1), tables + 1)}
        }  # fmt: skip
        self.action_s = action_s
        self.tables = [self._device(number) for number in range(1, tables + 1)]
        #: Devices that died mid-game (their spares are in :attr:`tables`).
        self.dead: list[SimulatedTable] = []
        self.games = 0
        self.cut_count = 0
        self.wills = 0
        #: What each ``schocken hub refill`` said it did.
        self.refills: list[str] = []

    # -- running --------------------------------------------------------------------------------

    def __enter__(self) -> TournamentRun:
        for proxy in self.proxies.values():
            proxy.start()
        self.hub_process.start()
        for table in self.tables:
            table.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        for table in [*self.tables, *self.dead]:
            table.close()
        for proxy in self.proxies.values():
            proxy.close()
        self.hub_process.stop()
        self.hub.store.close()

    @property
    def tv(self) -> str | None:
        """The TV page's address."""
        return self.hub_process.address

    def play(self) -> None:
        """Every round: drawn, started, played at every table, all results acknowledged,
        finished."""
        for number in range(1, self.rounds + 1):
            if self.hub.progress().over or self.stopping.is_set():
                break
            self.play_round(number)

    def play_round(self, number: int) -> None:
        seats = self.hub.draw_round(seed=number)
        self._extra_devices(seats)
        now = max(table.clock.now() for table in self.tables)
        self.hub.start_round(now, self.minutes[min(number, len(self.minutes)) - 1])
        self.report("sim_run_round_one" if len(seats) == 1 else "sim_run_round", round=number,
                    tables=len(seats))
        self._wait_for_assignments(number, seats)
        count = max((n for round_, n in self.faults.offline if round_ == number), default=0)
        # The last tables of the round lose the network: they play it through offline.
        away = [self._table(seat) for seat in seats[len(seats) - min(count, len(seats)) :]]
        for table in away:
            table.stop()
        if away:
            self._done("sim_run_offline_one" if len(away) == 1 else "sim_run_offline", number,
                       count=len(away))
        cut = self._chosen(self.faults.cut, number, reversed(seats))
        cut_at = time.time()
        for table in cut:
            self.proxies[table.number].cut()
        if cut:
            self._done("sim_run_cut_one" if len(cut) == 1 else "sim_run_cut", number,
                       count=len(cut))
        dying = self._chosen(self.faults.replaced, number, seats)
        due = self._schedule(number)
        for index, seat in enumerate(seats):
            if self.stopping.is_set():
                return
            self._strike(number, due, index / len(seats))
            table = self._table(seat)
            if table.clock.now() < now:
                table.clock.set(now)
            if table in dying:
                self.games += self._die_and_replace(table, number)
            else:
                self.games += self._play_at(table)
            if self.pace_s:
                time.sleep(self.pace_s)
        self._strike(number, due, 1.0)
        for table in away:
            table.start()
        if away:
            self._done("sim_run_online_one" if len(away) == 1 else "sim_run_online", number,
                       count=len(away))
        if cut:
            self._wait_for_wills(cut, cut_at)
            for table in cut:
                self.proxies[table.number].restore()
            self._done("sim_run_cut_back_one" if len(cut) == 1 else "sim_run_cut_back", number,
                       count=len(cut))
        self._wait_for_acks()
        self.hub.finish_round(confirmed=True)  # every outbox is empty: acknowledged above
        self.report("sim_run_round_done", round=number)

    def _table(self, seat: SeatRow) -> SimulatedTable:
        return self.tables[seat.table_no - 1]

    def _device(self, number: int) -> SimulatedTable:
        """Table ``number``'s device, on its proxy if a fault may cut it off."""
        proxy = self.proxies.get(number)
        settings = TableSettings(
            proxy.url if proxy is not None else self.broker.url, self.event,
            self.broker.passwords[table_user(number)], action_s=self.action_s,
        )  # fmt: skip
        return SimulatedTable(number, settings, self.folder / table_user(number),
                              FakeClock(self.clock_start), seed=number)  # fmt: skip

    def _extra_devices(self, seats: Sequence[SeatRow]) -> None:
        """A draw may want a table more than the hall has devices (dm-ko's Trostrunde of
        everyone out beside a KO final of three seats 608 players at 153 tables): a spare
        device is set up for it, as a director would (the broker must know its user)."""
        for number in range(len(self.tables) + 1, max(s.table_no for s in seats) + 1):
            device = self._device(number)
            self.tables.append(device)
            device.start()

    def _new_hub(self, db: Path) -> Hub:
        """The director's setup of a tournament file: the event, the format, the roster."""
        hub = init_tournament(db, self.event)
        hub.store.set("format", self.fmt)
        hub.store.add_players(self.entrants)
        hub.store.close()
        return Hub(HubStore(db))

    def _lose_hub_database(self) -> None:
        """The hub dies with its file; the director sets up a new file with the same event,
        format and roster, starts the hub and runs ``schocken hub refill`` beside it, while
        the tables answer (they are stepped here, as their devices' loops would)."""
        self.hub_process.kill()
        db = self.hub.store.path
        self.hub.store.close()
        for lost in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            lost.unlink(missing_ok=True)
        self.hub = self._new_hub(db)
        self.hub_process.start()
        with (self.folder / "refill.log").open("ab") as log:
            refill = subprocess.Popen(
                [sys.executable, "-m", "schockbesteck", "hub", "refill", "--db", str(db),
                 "--quiet", "3", "--wait", "60", "--lang", "en"],  # the line read below
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            while refill.poll() is None:
                for table in self.tables:
                    table.step()
                time.sleep(0.05)
        said = (self.folder / "refill.log").read_text(errors="replace").splitlines()
        if refill.returncode != 0:
            raise RuntimeError(f"schocken hub refill failed: {said[-1] if said else '?'}")
        self.refills += [line for line in said if line.startswith("refilled from")][-1:]

    def _chosen(self, faults: Sequence[tuple[int, int]], number: int,
                seats: Iterable[SeatRow]) -> list[SimulatedTable]:  # fmt: skip
        """The tables of round ``number`` a fault of ``faults`` strikes: as many as it says,
        taken in the order of ``seats`` among those with a proxy."""
        count = max((n for round_, n in faults if round_ == number), default=0)
        tables = [self._table(seat) for seat in seats if seat.table_no in self.proxies]
        return tables[:count]

    def _wait_for_wills(
        self, cut: Sequence[SimulatedTable], since: float, timeout_s: float = 120
    ) -> None:
        """Wait until the hub has every cut-off table offline, as it heard after ``since``:
        the broker's keepalive gave up on it and published its Last Will."""
        self.cut_count += len(cut)
        deadline = time.monotonic() + timeout_s
        while True:
            status = self.hub.store.table_status()
            missing = [
                t.number for t in cut
                if t.number not in status or status[t.number][0] or status[t.number][2] < since
            ]  # fmt: skip
            if not missing or self.stopping.is_set():
                self.wills += len(cut) - len(missing)
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"no Last Will of the cut-off tables {missing} at the hub after {timeout_s} s"
                )
            time.sleep(0.2)

    def _die_and_replace(self, table: SimulatedTable, number: int) -> int:
        """Play ``table``'s round until its device dies mid-game; then a spare with the dead
        one's state folder copied (the SD card moved over, as docs/tournament.md tells the
        director), the same table login and a network of its own, takes its place and plays
        the round on, the interrupted game first. The games finished."""
        table.die_after(self.faults.dies_after)
        try:
            return self._play_at(table)  # a round too short for the death to come
        except DeviceDied:
            pass
        self.proxies[table.number].cut()  # its network dies with it, silently
        self.dead.append(table)
        card = table.storage.root.with_name(f"{table.identity.user}-spare{len(self.dead)}")
        shutil.copytree(table.storage.root, card)
        spare = SimulatedTable(
            table.number, replace(table.settings, broker=self.broker.url), card, table.clock,
            seed=table.number + 1000 * len(self.dead),
        )  # fmt: skip
        if spare.interrupted is None or spare.interrupted.game.is_over:
            raise RuntimeError(f"table {table.number}'s spare found no game to go on with")
        self.tables[table.number - 1] = spare
        spare.start()
        self._done("sim_run_replaced", number, table=table.number)
        self._wait_for_assignments(number, [s for s in self.hub.store.seats(number)
                                            if s.table_no == table.number])  # fmt: skip
        return self._play_at(spare)

    def _play_at(self, table: SimulatedTable) -> int:
        assignment = table.reporter.assignment
        assert assignment is not None
        if assignment.kind is PhaseKind.POINTS:
            return table.play_round()
        return self._play_lives(table, assignment)

    def _play_lives(self, table: SimulatedTable, assignment: Assignment) -> int:
        """A KO round at ``table``: games among those with a life left (as the device counts
        them, :meth:`~firmware.tournament.reporter.Reporter.players_in`), until one is left or
        the time box ends; a game a dead device left is finished first."""
        played = table.finish_interrupted()
        while played < MAX_GAMES:
            alive = table.reporter.players_in()
            if len(alive) < 2:
                break
            ends = assignment.ends_at
            if played and ends is not None and table.clock.now() >= ends:
                break
            table.play_game(alive)
            played += 1
        return played

    def _schedule(self, number: int) -> list[tuple[float, str, Callable[[], None]]]:
        """Round ``number``'s faults: (share of its tables played, what, how), in order."""
        due: list[tuple[float, str, Callable[[], None]]] = []  # (share, report key, action)
        for round_, dies, back in self.faults.broker_kills:
            if round_ == number:
                due.append((dies, "sim_run_broker_killed", self.broker.kill))
                due.append((back, "sim_run_broker_back", self.broker.start))
        for round_, dies, back in self.faults.hub_kills:
            if round_ == number:
                due.append((dies, "sim_run_hub_killed", self.hub_process.kill))
                due.append((back, "sim_run_hub_back", self.hub_process.start))
        for round_, at in self.faults.hub_lost:
            if round_ == number:
                due.append((at, "sim_run_hub_lost", self._lose_hub_database))
        return sorted(due, key=lambda fault: fault[0])

    def _strike(self, number: int, due: list[tuple[float, str, Callable[[], None]]],
                share: float) -> None:  # fmt: skip
        """Carry out (and take off ``due``) the faults due once ``share`` of the round's tables
        have played."""
        while due and due[0][0] <= share:
            _at, key, how = due.pop(0)
            how()
            self._done(key, number)

    def _done(self, key: str, number: int, **fields: object) -> None:
        self.faults_done.append(f"round {number}: {key}")
        self.report(key, round=number, **fields)

    def _wait_for_assignments(
        self, number: int, seats: Sequence[SeatRow], timeout_s: float = 60
    ) -> None:
        deadline = time.monotonic() + timeout_s
        waiting = [self._table(seat) for seat in seats]
        while waiting:
            for table in waiting:
                table.step()
            waiting = [
                t for t in waiting
                if t.reporter.assignment is None or t.reporter.assignment.round != number
            ]  # fmt: skip
            if not waiting or self.stopping.is_set():
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"round {number}: {len(waiting)} tables got no assignment in {timeout_s} s"
                )
            time.sleep(0.02)

    def _wait_for_acks(self, timeout_s: float = 180) -> None:
        """Until every table's outbox is empty: each resends on its simulated clock."""
        deadline = time.monotonic() + timeout_s
        while True:
            pending = 0
            for table in self.tables:
                table.clock.advance(table.settings.resend_s)
                table.step()
                pending += table.pending
            if not pending or self.stopping.is_set():
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{pending} results still unacknowledged after {timeout_s} s")
            time.sleep(0.02)

    # -- checking -------------------------------------------------------------------------------

    def check(self) -> Outcome:
        """Every table's journals against the hub's store and its published standings."""
        journalled: dict[str, Result] = {}
        untagged = 0
        for table in self.tables:
            for result in recount_from_journal(table.storage.root, self.event):
                journalled[result.id] = result
            untagged += sum(game.header is None or game.header.tournament is None
                            for game in GameStore(table.storage).kept())
        rows = self.hub.store.results()
        stored = {row.id: row for row in rows}
        games: dict[int, list[GameResult]] = {}
        for result in journalled.values():
            if result.kind == "game":
                games.setdefault(result.round, []).append(result.game_result())
        rounds = [r.number for r in self.hub.store.rounds()]
        recounted = progress(
            self.hub.format(), self.hub.store.players(),
            [PlayedRound(n, tuple(games.get(n, ()))) for n in rounds],
        )  # fmt: skip
        hub_lines = self.hub.progress().lines
        board = self._published_board()
        return Outcome(
            journalled=len(journalled),
            stored=len(stored),
            lost=sorted(set(journalled) - set(stored)),
            unexpected=sorted(set(stored) - set(journalled)),
            refused=sum(self.hub.store.refusal_counts().values()),
            denied=sum(row.count for row in self.hub.store.denials()),
            standings_equal=hub_lines == recounted.lines,
            board_equal=board is not None and _board_rows(board) == _lines_rows(recounted.lines),
            rounds=len(rounds),
            games=sum(len(g) for g in games.values()),
            seconds=time.monotonic() - self.started_at,
            hub_lines=hub_lines,
            recounted_lines=recounted.lines,
            faults_done=list(self.faults_done),
            untagged=untagged,
            doubled=len(rows) - len(stored) + _games_beyond(rows, journalled.values()),
            cut=self.cut_count,
            wills=self.wills,
            replaced=len(self.dead),
            dropped_bytes=sum(proxy.dropped for proxy in self.proxies.values()),
            players=len(recounted.lines),
            winner=recounted.ranked()[0].name if recounted.over and recounted.lines else None,
            refills=tuple(self.refills),
            devices=len(self.tables),
        )

    def _published_board(self, timeout_s: float = 15) -> StandingsBoard | None:
        """The standings the hub keeps retained on the broker, once they show the last round."""
        boards: queue.Queue[bytes] = queue.Queue()
        link = MqttLink(
            # Not the hub's login: that is the hub's one client, and this one would close it.
            MqttSettings(self.broker.url, f"{self.event}-check", WATCH_USER,
                         self.broker.passwords[WATCH_USER]),
            on_message=lambda _topic, payload: boards.put(payload),
        )  # fmt: skip
        link.subscribe(standings_topic(self.event))
        with _running(link):
            deadline = time.monotonic() + timeout_s
            latest: StandingsBoard | None = None
            want = _lines_rows(self.hub.progress().lines)
            while time.monotonic() < deadline:
                try:
                    latest = StandingsBoard.from_json(boards.get(timeout=0.5))
                except queue.Empty:
                    continue
                if _board_rows(latest) == want:
                    return latest
            return latest


@contextmanager
def _running(link: MqttLink) -> Iterator[MqttLink]:
    link.start()
    try:
        yield link
    finally:
        link.stop()


def _games_beyond(rows: Iterable[StoredResult], journalled: Iterable[Result]) -> int:
    """The games the hub stored for a table in a round beyond those its journals hold."""
    held: Counter[tuple[int, int]] = Counter(
        (result.round, table_number(result.table) or 0)
        for result in journalled if result.kind == "game"
    )  # fmt: skip
    stored = Counter((row.round, row.table_no) for row in rows if row.kind == "game")
    return sum(max(0, count - held[place]) for place, count in stored.items())


def _lines_rows(lines: Sequence[PlayerLine]) -> dict[str, tuple[int, int | None, int]]:
    return {line.name: (line.points, line.lives, line.games_lost) for line in lines}


def _board_rows(board: StandingsBoard) -> dict[str, tuple[int, int | None, int]]:
    return {row.name: (row.points, row.lives, row.games_lost) for row in board.rows}


