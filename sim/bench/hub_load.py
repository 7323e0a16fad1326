"""A tournament's hub, for ``schocken bench``: 100 tables live on a real mosquitto.

Everything runs as at a venue, on loopback: a private mosquitto with the tournament's own
configuration (:func:`sim.tournament.demo.make_broker`: persistence on every change, a user and
a password per table, the ACL), ``schocken hub serve`` as a subprocess started as the hub's
systemd unit starts it (the console script, ``--password-file``, ``PYTHONUNBUFFERED=1``) on a
tournament file of 400 players drawn onto 100 tables, and three measurements:

* **a result's way to the TV**: 100 :class:`~sim.tournament.simulated_table.SimulatedTable`-s (the
  device's real journal, outbox and reporter, each its own MQTT client, computer players) spread
  over :data:`TABLE_PROCESSES` child processes (``python -m sim.bench.hub_load``), playing at
  :data:`PACE` times a DM's pace. Each result is stamped when the table journalled the game's
  last event it reports (the journal's write returned, before the reporter recounts, keeps and
  publishes it). This process watches
  the hub's ``/events`` as the TV view does (a server-sent event per change, the whole state) and
  stamps each event as it arrives; the state names, per table, how many games and halves the hub
  holds, so the n-th half of table 7 is on the TV once table 7 shows n halves. p50 and p99 over
  the results journalled in the measuring window;
* **the hub's and the broker's memory and CPU** over that window: each process's peak resident
  memory (``VmHWM`` in ``/proc/PID/status``) and its CPU time (``/proc/PID/stat``) over the wall
  time, as a share of one core;
* **results a second**: afterwards every table sends a burst of new game results at once (its
  own MQTT client, QoS 1), from the first publish to the last Ack, then the same results again,
  answered "duplicate".

The tables' state directories are on ``/dev/shm`` where there is one: at a venue each table is
a device of its own, whose journal's fsync does not load the hub's machine. The hub's SQLite file
and the broker's persistence are on the disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sim.bench.figures import Measurement, percentile
from sim.bench.phones import EventStream, WatchedState, state_digest
from sim.tournament.processes import tied_to_this_process

__all__ = [
    "PACE",
    "TABLES",
    "HubBenchSettings",
    "ShownCounts",
    "delays",
    "hub_figures",
    "measure_hub",
]

#: Tables live in the run (400 players at tables of four).
TABLES = 100
#: How many times a DM's pace the tables play: at the DM a table plays at most ten games in 70
#: minutes, a game every 7 minutes; threshold bots under the standard rules take about 148
#: actions a game, so a simulated action takes :data:`ACTION_S` and the tables play
#: :data:`PACE` times faster than that in wall time (a game every 42 s at each table).
PACE = 10.0
#: The child processes the tables are spread over (each table is a device at a venue).
TABLE_PROCESSES = 8
#: Simulated seconds an action takes at the table: 148 actions in the DM's 7 minutes.
ACTION_S = 420.0 / 148
#: The event's slug in the topics.
EVENT = "bench"
#: The bursts' games are numbered from here on (a table plays far fewer in the window; the
#: wire allows up to 1,000).
FIRST_BURST_GAME = 500
#: The longest a result may take to show after the tables stopped before it counts as lost.
DRAIN_S = 10.0
#: A DM's hall, for the phones' rows: 600 players at 150 tables, a phone each.
HALL_TABLES = 150
HALL_PHONES = 600
#: Of the phones, those that also inflate and apply what they get (the others count bytes).
CHECKED_PHONES = 10


@dataclass(frozen=True, slots=True)
class HubBenchSettings:
    """How long the tables play, and how many results the bursts hold."""

    #: Seconds of play before the window, while the tables catch up with their head start.
    warm_up_s: float = 3.0
    #: Seconds the results are measured in.
    window_s: float = 60.0
    #: New results in the burst (spread over the tables), then the same again; 0: no bursts.
    burst: int = 1000
    seed: int = 7
    #: Tables live in the run (four players each).
    tables: int = TABLES
    #: Phones on the hub's event stream meanwhile (loopback clients, :mod:`sim.bench.phones`).
    phones: int = 0

    @classmethod
    def quick(cls) -> HubBenchSettings:
        return cls(warm_up_s=0.5, window_s=3.0, burst=TABLES)

    @classmethod
    def hall(cls, quick: bool = False) -> HubBenchSettings:
        """A DM's hall: :data:`HALL_TABLES` tables and :data:`HALL_PHONES` phones, no bursts."""
        window = (5.0 if quick else 60.0, 1.0 if quick else 3.0)
        return cls(warm_up_s=window[1], window_s=window[0], burst=0, tables=HALL_TABLES,
                   phones=HALL_PHONES)  # fmt: skip


# --- what the TV showed, and when -----------------------------------------------------------


class ShownCounts:
    """When each table's n-th game and n-th half first showed in the hub's state (the TV's)."""

    def __init__(self) -> None:
        #: (table, "game" or "half", n) -> when the state first held n of them.
        self.first: dict[tuple[int, str, int], float] = {}
        self._counts: dict[tuple[int, str], int] = {}
        self.events = 0

    def take(self, state: Mapping[str, Any], at: float) -> None:
        """One state of the event stream, arrived at ``at``."""
        self.events += 1
        for table in state.get("tables", ()):
            number = int(table["table"])
            for kind, key in (("game", "games"), ("half", "halves")):
                now = int(table[key])
                before = self._counts.get((number, kind), 0)
                for n in range(before + 1, now + 1):
                    self.first[(number, kind, n)] = at
                self._counts[(number, kind)] = max(before, now)


def delays(
    results: Sequence[Sequence[Any]],
    shown: ShownCounts,
    window: tuple[float, float],
    lost_at: float,
) -> tuple[list[float], int]:
    """Seconds from each result's journal to the TV, for those journalled inside ``window``;
    a result the TV never showed counts as shown at ``lost_at`` (a lower bound). Also how many
    were never shown. ``results`` are ``(table, kind, n, journalled_at)``."""
    found: list[float] = []
    unseen = 0
    for table, kind, n, journalled in results:
        if not window[0] <= journalled < window[1]:
            continue
        at = shown.first.get((int(table), "game" if kind == "game" else "half", int(n)))
        if at is None:
            unseen += 1
            at = lost_at
        found.append(max(0.0, at - journalled))
    return found, unseen


def _watch(
    host: str,
    port: int,
    shown: ShownCounts,
    stop: threading.Event,
    kept: WatchedState | None = None,
) -> None:
    """Follow ``/events`` as the TV does (HTTP/1.0, so the stream is not chunked; the whole
    state, then its changes applied), stamping each event as its last byte arrives."""
    kept = kept if kept is not None else WatchedState()
    reader = EventStream()
    with socket.create_connection((host, port), timeout=30) as stream:
        stream.sendall(f"GET /events HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n".encode())
        stream.settimeout(0.5)
        buffer = b""
        header = True
        while not stop.is_set():
            try:
                chunk = stream.recv(1 << 16)
            except TimeoutError:
                continue
            if not chunk:
                return
            at = time.time()
            buffer += chunk
            if header:
                head, found, rest = buffer.partition(b"\r\n\r\n")
                if not found:
                    continue
                if b" 200 " not in head.split(b"\r\n", 1)[0]:
                    raise RuntimeError(f"the hub's /events answered {head[:60]!r}")
                buffer, header = rest, False
            for event in reader.feed(buffer):
                kept.take(event)
                assert kept.state is not None
                shown.take(kept.state, at)
            buffer = b""


# --- the processes' CPU and memory --------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int, field: str = "VmHWM") -> float:
    """The peak resident memory of process ``pid`` (``VmHWM``; ``VmRSS``: now), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for process {pid}")


# --- the run -----------------------------------------------------------------------------------


def _problem() -> str | None:
    """Why the hub cannot be measured here (one line), or None."""
    from sim.tournament.demo import MOSQUITTO, MOSQUITTO_PASSWD

    for tool in (MOSQUITTO, MOSQUITTO_PASSWD):
        if not os.access(tool, os.X_OK):
            return f"skipped: mosquitto is not installed ({tool}; sudo apt-get install mosquitto)"
    try:
        from hal.mqtt import MqttLink  # noqa: F401  (paho-mqtt, the mqtt extra)
    except ImportError:
        return "skipped: the mqtt extra is not installed (pip install -e '.[mqtt]')"
    try:
        from hal.hub_server import HubServer  # noqa: F401  (aiohttp, the web extra)
    except ImportError:
        return "skipped: the web extra is not installed (pip install -e '.[web]')"
    return None


def _keys(settings: HubBenchSettings) -> list[tuple[str, str, str, float | None]]:
    if settings.phones:
        return _hall_keys(settings)
    pace = f"{TABLES} tables at {PACE:g}× a DM's pace"
    return [
        ("hub_results_per_s", f"hub: new results stored a second ({TABLES} tables at once, "
         "through mosquitto into SQLite)", "1/s", None),
        ("hub_duplicates_per_s", "hub: the same results again, answered duplicate, a second",
         "1/s", None),
        ("hub_burst_cpu_pct", "hub: CPU during the burst (of one core)", "%", None),
        ("broker_burst_cpu_pct", "broker: CPU during the burst (of one core)", "%", None),
        ("hub_burst_states_per_100", "hub: states sent to the TV in the burst, per 100 results",
         "states", None),
        ("hub_tv_p50_ms", f"hub: a result from the table's journal to the TV, p50 ({pace})",
         "ms", None),
        ("hub_tv_p99_ms", "hub: ... to the TV, p99", "ms", 1000.0),
        ("hub_tv_results", f"hub: results measured ({settings.window_s:g} s)", "results", None),
        ("hub_tv_unseen", "hub: ... of them never on the TV", "results", None),
        ("hub_load_per_s", "hub: results the tables journalled a second meanwhile", "1/s", None),
        ("hub_cpu_pct", "hub: CPU while the tables play (of one core)", "%", None),
        ("hub_peak_rss_mb", "hub: peak memory (`schocken hub serve`)", "MB", None),
        ("broker_cpu_pct", "broker: CPU while the tables play (of one core)", "%", None),
        ("broker_peak_rss_mb", "broker: peak memory (mosquitto)", "MB", None),
    ]  # fmt: skip


def _hall_keys(settings: HubBenchSettings) -> list[tuple[str, str, str, float | None]]:
    hall = f"{settings.tables} tables at {PACE:g}× a DM's pace, {settings.phones} phones"
    return [
        ("hall_phone_bytes_per_result", f"phones: bytes a phone gets per result ({hall}; gzip, "
         "chunks included)", "bytes", 10_000.0),
        ("hall_phone_bytes_per_result_max", "phones: ... the phone that got most", "bytes", None),
        ("hall_phone_kb_per_s", "phones: what one phone gets a second", "kB/s", None),
        ("hall_phones_kb_per_s", f"phones: what all {settings.phones} get a second (the hall's "
         "Wi-Fi)", "kB/s", None),
        ("hall_snapshot_kb", "phones: the whole state on connect (gzip)", "kB", None),
        ("hall_states_per_result", "hub: states sent per result", "states", None),
        ("hall_tv_p50_ms", f"hub: a result from the table's journal to the TV, p50 ({hall})",
         "ms", None),
        ("hall_tv_p99_ms", "hub: ... to the TV, p99", "ms", 250.0),
        ("hall_tv_results", f"hub: results measured ({settings.window_s:g} s)", "results", None),
        ("hall_tv_unseen", "hub: ... of them never on the TV", "results", None),
        ("hall_load_per_s", "hub: results the tables journalled a second meanwhile", "1/s", None),
        ("hall_phones_open", "phones: streams open at the end", "phones", None),
        ("hall_phones_equal", f"phones: of {CHECKED_PHONES} that apply the changes, those whose "
         "state equals the TV's", "phones", None),
        ("hall_hub_cpu_pct", f"hub: CPU with {settings.phones} phones watching (of one core)", "%",
         None),
        ("hall_hub_cpu_per_result_ms", "hub: CPU per result (its intake, the recount, the "
         "changes, every stream)", "ms", None),
        ("hall_hub_peak_rss_mb", "hub: peak memory (`schocken hub serve`)", "MB", None),
        ("hall_hub_kb_per_phone", "hub: memory a phone's stream takes", "kB", None),
        ("hall_broker_cpu_pct", "broker: CPU meanwhile (of one core)", "%", None),
        ("hall_phones_cpu_pct", f"phones: the {settings.phones} loopback clients' CPU (niced; at "
         "a venue, the phones')", "%", None),
    ]  # fmt: skip


def hub_figures(settings: HubBenchSettings | None = None) -> list[Measurement]:
    """The bench's rows of the hub, or the same rows skipped naming why in one line (no
    mosquitto, no paho or aiohttp, or a run that failed)."""
    from sim.tournament.demo import DemoError

    settings = settings if settings is not None else HubBenchSettings()
    keys = _keys(settings)
    problem = _problem()
    if problem is None:
        try:
            figures = measure_hub(settings)
        except (RuntimeError, OSError, DemoError) as error:
            problem = f"skipped: the hub's run failed: {error}"
    if problem is not None:
        return [Measurement(key, label, None, unit, note=problem) for key, label, unit, _ in keys]
    return [
        Measurement(key, label, figures[key], unit, target=target)
        for key, label, unit, target in keys
    ]


def _players(count: int) -> list[tuple[str, str]]:
    """``count`` players in teams of five, as at the DM."""
    return [(f"Spieler{index:03}", f"Team{index // 5:02}") for index in range(count)]


def _serve_argv() -> list[str]:
    """``schocken`` as the hub's unit runs it: the venv's console script."""
    script = Path(sys.executable).with_name("schocken")
    if script.exists():
        return [str(script)]
    return [
        sys.executable,
        "-c",
        "import sys; from schockbesteck.cli import main; sys.exit(main())",
    ]


@contextmanager
def _process(argv: list[str], **options: Any) -> Iterator[subprocess.Popen[str]]:
    # The bench's children end with it, whatever ends it (a timeout's SIGKILL included).
    process = subprocess.Popen(argv, text=True, **tied_to_this_process(), **options)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _line(stream: IO[str] | None, what: str, timeout_s: float = 60.0) -> str:
    """The next line of ``stream`` within ``timeout_s``, or RuntimeError naming ``what``."""
    assert stream is not None
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    reader = threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True)
    reader.start()
    try:
        line = lines.get(timeout=timeout_s)
    except queue.Empty:
        raise RuntimeError(f"the hub bench: no {what} within {timeout_s:.0f} s") from None
    if not line:
        raise RuntimeError(f"the hub bench: {what} never came (the process ended)")
    return line


def measure_hub(settings: HubBenchSettings) -> dict[str, float]:
    """Run the broker, the hub and the tables; every figure of :func:`hub_figures` by key."""
    from engine.tournament import Entrant
    from firmware.hub.hub import init_tournament
    from firmware.wire.broker import HUB_USER
    from firmware.wire.messages import table_user
    from sim.tournament.demo import MOSQUITTO, MOSQUITTO_PASSWD, make_broker

    folder = Path(tempfile.mkdtemp(prefix="schock-bench-hub-"))
    shm = Path("/dev/shm")
    tables_dir = Path(tempfile.mkdtemp(prefix="schock-bench-tables-", dir=shm if shm.is_dir()
                                       else None))  # fmt: skip
    broker = make_broker(MOSQUITTO, MOSQUITTO_PASSWD, folder, settings.tables, tied=True)
    try:
        broker.start()
        db = folder / "hub.db"
        hub = init_tournament(db, EVENT)
        hub.store.set("format", "dm")
        hub.store.add_players([Entrant(name, team) for name, team in _players(4 * settings.tables)])
        seats = hub.draw_round(seed=settings.seed)
        hub.start_round(time.time(), 70)
        hub.store.close()
        secret = folder / "hub-password"
        secret.write_text(broker.passwords[HUB_USER])
        secret.chmod(0o600)
        argv = [*_serve_argv(), "hub", "serve", "--db", str(db), "--broker", broker.url,
                "--listen", "127.0.0.1:0", "--password-file", str(secret)]  # fmt: skip
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        hub_log = (folder / "hub.log").open("w")
        with hub_log, _process(argv, env=env, stdout=subprocess.PIPE, stderr=hub_log) as serve:
            passwords = {str(n): broker.passwords[table_user(n)]
                         for n in range(1, settings.tables + 1)}  # fmt: skip
            assert broker.pid is not None
            figures, tv = _play(settings, serve, broker.url, passwords, tables_dir, broker.pid)
            if settings.burst:
                figures.update(
                    _bursts(settings, broker.url, passwords, seats, (serve.pid, broker.pid), tv)
                )
        return figures
    finally:
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(tables_dir, ignore_errors=True)


def _play(
    settings: HubBenchSettings,
    serve: subprocess.Popen[str],
    url: str,
    passwords: dict[str, str],
    tables_dir: Path,
    broker_pid: int,
) -> tuple[dict[str, float], tuple[str, int]]:
    """The tables' children play while this process watches the TV's event stream; the
    figures, and where the TV's stream is."""
    with _TableChildren(settings, url, passwords, tables_dir) as children:
        line = _line(serve.stdout, "line from `schocken hub serve`")
        found = re.search(r"http://([0-9.]+):(\d+)/", line)
        if found is None:
            raise RuntimeError(f"the hub bench: `schocken hub serve` said {line.strip()!r}")
        try:
            tv = found.group(1), int(found.group(2))
            return _watched(settings, children, *tv, serve.pid, broker_pid), tv
        except RuntimeError as error:
            raise RuntimeError(f"{error}; the tables said: {children.said()}") from None


class _TableChildren:
    """The tables, spread over :data:`TABLE_PROCESSES` child processes (``python -m
    sim.bench.hub_load``), told the same words at once. At a venue every table is a device of
    its own; in one process 150 tables would wait for one interpreter lock, and the queue
    there would count as the hub's delay."""

    def __init__(
        self, settings: HubBenchSettings, url: str, passwords: dict[str, str], tables_dir: Path
    ) -> None:
        self._stack = contextlib.ExitStack()
        self._logs: list[Path] = []
        self._children: list[subprocess.Popen[str]] = []
        numbers = sorted(passwords, key=int)
        argv = [sys.executable, "-m", "sim.bench.hub_load"]
        for index in range(min(TABLE_PROCESSES, len(numbers))):
            mine = numbers[index::TABLE_PROCESSES]
            log_path = tables_dir / f"tables-{index + 1}.log"
            log = self._stack.enter_context(log_path.open("w"))
            child = self._stack.enter_context(
                _process(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
            )
            config = {"url": url, "passwords": {n: passwords[n] for n in mine},
                      "folder": str(tables_dir), "seed": settings.seed}  # fmt: skip
            assert child.stdin is not None
            child.stdin.write(json.dumps(config) + "\n")  # they start while the hub does
            child.stdin.flush()
            self._logs.append(log_path)
            self._children.append(child)

    def __enter__(self) -> _TableChildren:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stack.close()

    def tell(self, word: str) -> None:
        """One line to every child."""
        for child in self._children:
            assert child.stdin is not None
            child.stdin.write(word + "\n")
            child.stdin.flush()

    def lines(self, what: str, timeout_s: float) -> list[str]:
        """The next line of every child."""
        return [_line(child.stdout, what, timeout_s) for child in self._children]

    def wait(self, timeout_s: float) -> None:
        for child in self._children:
            child.wait(timeout=timeout_s)

    def said(self) -> str:
        """The end of what the children wrote to their logs."""
        last = " | ".join(
            text[-300:] for path in self._logs
            if (text := path.read_text(errors="replace").strip())
        )  # fmt: skip
        return last or "nothing"


def _watched(
    settings: HubBenchSettings,
    children: _TableChildren,
    host: str,
    port: int,
    hub_pid: int,
    broker_pid: int,
) -> dict[str, float]:
    """The window: the tables play, the TV's stream is stamped, the two processes measured;
    with phones, their child counts their bytes over the window."""
    shown = ShownCounts()
    kept = WatchedState()
    stop = threading.Event()
    failed: list[BaseException] = []

    def watch() -> None:
        try:
            _watch(host, port, shown, stop, kept)
        except BaseException as error:  # reported below
            failed.append(error)

    watcher = threading.Thread(target=watch, name="tv", daemon=True)
    watcher.start()
    with contextlib.ExitStack() as stack:
        try:
            words = children.lines("word from the tables (connected and assigned)", 180)
            if any(word != "ready\n" for word in words):
                raise RuntimeError("the hub bench: the tables did not get ready")
            phones = _Phones(stack, settings, host, port, hub_pid) if settings.phones else None
            origin = time.time() + 0.2
            start = origin + settings.warm_up_s
            end = start + settings.window_s
            children.tell(f"go {origin} {end}")
            time.sleep(max(0.0, start - time.time()))
            cpu = {pid: cpu_seconds(pid) for pid in (hub_pid, broker_pid)}
            if phones is not None:
                phones.mark()
            measured_from = time.time()
            time.sleep(max(0.0, end - time.time()))
            wall = time.time() - measured_from
            spent = {pid: cpu_seconds(pid) - before for pid, before in cpu.items()}
            got = phones.report() if phones is not None else {}
            results: list[list[Any]] = [
                result for line in children.lines("the tables' results", 120)
                for result in json.loads(line)["results"]
            ]  # fmt: skip
            inside = [r for r in results if start <= r[3] < end]
            deadline = time.time() + DRAIN_S
            while time.time() < deadline and not failed:
                _found, unseen = delays(inside, shown, (start, end), time.time())
                if not unseen:
                    break
                time.sleep(0.05)
            equal = phones.equal(kept) if phones is not None else 0
            children.tell("quit")
            children.wait(30)
        finally:
            stop.set()
            watcher.join(timeout=5)
    if failed:
        raise RuntimeError(f"the hub bench: the TV's stream failed: {failed[0]}")
    found, unseen = delays(inside, shown, (start, end), time.time())
    if not found:
        raise RuntimeError("the hub bench: no result was journalled in the window")
    figures = {
        "hub_tv_p50_ms": percentile(found, 0.5) * 1e3,
        "hub_tv_p99_ms": percentile(found, 0.99) * 1e3,
        "hub_tv_results": float(len(found)),
        "hub_tv_unseen": float(unseen),
        "hub_load_per_s": len(inside) / settings.window_s,
        "hub_cpu_pct": 100 * spent[hub_pid] / wall,
        "hub_peak_rss_mb": peak_rss_mb(hub_pid),
        "broker_cpu_pct": 100 * spent[broker_pid] / wall,
        "broker_peak_rss_mb": peak_rss_mb(broker_pid),
    }
    if phones is None:
        return figures
    bytes_ = got["bytes"]
    return {
        "hall_phone_bytes_per_result": sum(bytes_) / len(bytes_) / len(inside),
        "hall_phone_bytes_per_result_max": max(bytes_) / len(inside),
        "hall_phone_kb_per_s": sum(bytes_) / len(bytes_) / wall / 1e3,
        "hall_phones_kb_per_s": sum(bytes_) / wall / 1e3,
        "hall_snapshot_kb": phones.snapshot_kb,
        "hall_states_per_result": got["events"] / len(inside),
        "hall_tv_p50_ms": figures["hub_tv_p50_ms"],
        "hall_tv_p99_ms": figures["hub_tv_p99_ms"],
        "hall_tv_results": figures["hub_tv_results"],
        "hall_tv_unseen": figures["hub_tv_unseen"],
        "hall_load_per_s": figures["hub_load_per_s"],
        "hall_phones_open": float(got["open"]),
        "hall_phones_equal": float(equal),
        "hall_hub_cpu_pct": figures["hub_cpu_pct"],
        "hall_hub_cpu_per_result_ms": 1e3 * spent[hub_pid] / len(inside),
        "hall_hub_peak_rss_mb": figures["hub_peak_rss_mb"],
        "hall_hub_kb_per_phone": phones.kb_per_phone,
        "hall_broker_cpu_pct": figures["broker_cpu_pct"],
        "hall_phones_cpu_pct": got["cpu_pct"],
    }


class _Phones:
    """The phones' child (``python -m sim.bench.phones``) on the hub's stream, from now until
    ``stack`` closes: the hub's memory before and after they connected, their bytes."""

    def __init__(
        self, stack: contextlib.ExitStack, settings: HubBenchSettings, host: str, port: int,
        hub_pid: int,
    ) -> None:  # fmt: skip
        before = peak_rss_mb(hub_pid, "VmRSS")
        # Niced: at a venue the phones are 600 other machines; here their reading must not take
        # the hub's share of the CPU.
        argv = ["nice", "-n", "10", sys.executable, "-m", "sim.bench.phones", host, str(port),
                str(settings.phones), str(CHECKED_PHONES)]  # fmt: skip
        self.child = stack.enter_context(
            _process(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        )
        ready = json.loads(_line(self.child.stdout, "word from the phones", 180))
        if ready["ready"] != settings.phones:
            raise RuntimeError(f"the hub bench: {ready['ready']} of {settings.phones} phones got "
                               f"the stream ({'; '.join(ready['failed'])})")  # fmt: skip
        self.kb_per_phone = (peak_rss_mb(hub_pid, "VmRSS") - before) * 1024 / settings.phones
        self.snapshot_kb = self._ask("report")["first"] / 1e3
        self._cpu = (0.0, 0.0)

    def _ask(self, word: str) -> dict[str, Any]:
        assert self.child.stdin is not None
        self.child.stdin.write(word + "\n")
        self.child.stdin.flush()
        found: dict[str, Any] = json.loads(_line(self.child.stdout, "the phones' report", 60))
        return found

    def mark(self) -> None:
        self._ask("mark")
        self._cpu = cpu_seconds(self.child.pid), time.time()

    def report(self) -> dict[str, Any]:
        """The phones' report since :meth:`mark`, and their own CPU as a share of one core."""
        found = self._ask("report")
        found["cpu_pct"] = 100 * (cpu_seconds(self.child.pid) - self._cpu[0]) / (
            time.time() - self._cpu[1]
        )
        return found

    def equal(self, tv: WatchedState) -> int:
        """How many checked phones hold the TV's state (waiting a little for the last)."""
        deadline = time.time() + 5
        while True:
            digests = self._ask("report")["samples"]
            count = sum(1 for digest in digests if digest == state_digest(tv.state))
            if count == len(digests) or time.time() > deadline:
                return count
            time.sleep(0.1)


def _bursts(
    settings: HubBenchSettings,
    url: str,
    passwords: dict[str, str],
    seats: Sequence[Any],
    pids: tuple[int, int],
    tv: tuple[str, int],
) -> dict[str, float]:
    """Every table sends its share of ``settings.burst`` new game results at once; then the
    same again. Results a second from the first publish to the last Ack, each time; over the
    first burst the hub's and the broker's CPU (``pids``) and how many states the hub sent the
    TV."""
    from engine.scoring import GameResult
    from firmware.wire.messages import Ack, Result, ack_topic, result_topic, table_user
    from hal.mqtt import MqttLink, MqttSettings

    acks: dict[str, int] = {"stored": 0, "duplicate": 0, "refused": 0}
    arrived = threading.Condition()

    def take(_topic: str, payload: bytes) -> None:
        ack = Ack.from_json(payload)
        with arrived:
            acks[ack.status] += 1
            arrived.notify_all()

    links: dict[int, MqttLink] = {}
    each = min(max(1, settings.burst // len(seats)), 1000 - FIRST_BURST_GAME)
    bursts: dict[int, list[bytes]] = {}
    for seat in seats:
        user = table_user(seat.table_no)
        players = tuple(seat.players)
        payloads = []
        for game in range(FIRST_BURST_GAME, FIRST_BURST_GAME + each):
            loser, other = players[game % len(players)], players[(game + 1) % len(players)]
            order = (*((p,) for p in players if p != loser), (loser,))
            order2 = (*((p,) for p in players if p != other), (other,))
            result = GameResult(players, (loser, other), loser, loser, (order, order2))
            payloads.append(Result.from_game(EVENT, user, seat.round, game, result).to_json())
        bursts[seat.table_no] = payloads
        link = MqttLink(MqttSettings(url, f"burst-{user}", user, passwords[str(seat.table_no)]),
                        take)  # fmt: skip
        link.subscribe(ack_topic(EVENT, user))
        links[seat.table_no] = link
        link.start()
    total = each * len(seats)
    try:
        for link in links.values():
            if not link.wait_connected(20):
                raise RuntimeError("the hub bench: a table's client did not connect")
        rates, states, busy = {}, 0, [0.0, 0.0]
        shown, stop = ShownCounts(), threading.Event()
        watcher = threading.Thread(target=_watch, args=(*tv, shown, stop), daemon=True)
        watcher.start()
        time.sleep(0.3)  # its first state (on connect) is in
        for status in ("stored", "duplicate"):
            started, before = time.perf_counter(), shown.events
            spent = [cpu_seconds(pid) for pid in pids]
            for number, link in links.items():
                topic = result_topic(EVENT, table_user(number))
                for payload in bursts[number]:
                    link.publish(topic, payload)
            with arrived:
                answered = arrived.wait_for(_all_answered(acks, status, total), 60 + total / 20)
            if not answered or acks["refused"]:
                raise RuntimeError(
                    f"the hub bench: {acks[status]} of {total} {status}, "
                    f"{acks['refused']} refused (the hub's log says why)"
                )
            rates[status] = total / (time.perf_counter() - started)
            if status == "stored":
                wall = time.perf_counter() - started
                busy = [
                    100 * (cpu_seconds(pid) - s) / wall for pid, s in zip(pids, spent, strict=True)
                ]
                time.sleep(0.3)  # the last state is pushed after the last Ack
                states = shown.events - before
    finally:
        stop.set()
        for link in links.values():
            link.stop()
    return {
        "hub_burst_states_per_100": 100 * states / total,
        "hub_results_per_s": rates["stored"],
        "hub_duplicates_per_s": rates["duplicate"],
        "hub_burst_cpu_pct": busy[0],
        "broker_burst_cpu_pct": busy[1],
    }


def _all_answered(acks: dict[str, int], status: str, total: int) -> Callable[[], bool]:
    """Whether ``total`` acks of ``status`` came, or any refusal."""
    return lambda: acks[status] >= total or acks["refused"] > 0


# --- the tables' child process -----------------------------------------------------------------


class _Stopped(Exception):
    """The window is over: a table ends its game where it stands."""


def _tables_child() -> int:
    """``python -m sim.bench.hub_load``: the tables, told what to do on stdin (see :func:`_play`).

    Each table plays on a thread of its own. It first plays a head start at once (a random
    part of a game, so that the tables are spread over their games, as in a hall), then waits
    for "go", then plays at :data:`PACE` times a DM's pace until the window ends."""
    from firmware.store.gamestore import GameStore
    from sim.fakes import FakeClock
    from sim.tournament.simulated_table import SimulatedTable, TableSettings

    config = json.loads(sys.stdin.readline())
    go, stop = threading.Event(), threading.Event()
    timeline: dict[str, float] = {}
    results: list[tuple[int, str, int, float]] = []
    lock = threading.Condition()
    arrived = [0]

    class PacedClock(FakeClock):
        """A table's simulated clock, which also keeps the table at its pace in wall time:
        after each action it waits for the action's place on the wall clock."""

        def __init__(self, head_start_s: float) -> None:
            super().__init__(start=time.time())
            self.played_s = 0.0
            self.head_start_s = head_start_s
            self.table: Table | None = None

        def advance(self, seconds: float) -> float:
            now = super().advance(seconds)
            self.played_s += seconds
            if self.table is not None:
                self.table.note_results()
            if not go.is_set():
                if self.played_s < self.head_start_s:
                    return now
                with lock:
                    arrived[0] += 1
                    lock.notify_all()
                go.wait()
                self.head_start_s = self.played_s
            due = timeline["origin"] + (self.played_s - self.head_start_s) / PACE
            if stop.wait(max(0.0, due - time.time())):
                raise _Stopped
            return now

    class TimedStore(GameStore):
        """The table's game store, noting when each action's write returned."""

        journalled = 0.0

        def record(self, events: Any) -> None:
            super().record(events)
            self.journalled = time.time()

    class Table(SimulatedTable):
        """A simulated table that notes when each result's last event was journalled."""

        def __init__(self, number: int, clock: PacedClock) -> None:
            settings = TableSettings(config["url"], EVENT, config["passwords"][str(number)],
                                     action_s=ACTION_S)  # fmt: skip
            super().__init__(number, settings, Path(config["folder"]) / str(number), clock)
            self.store = self.timed = TimedStore(self.storage)
            self.counts = {"game": 0, "half": 0}
            self.seen: set[str] = set()
            clock.table = self

        def note_results(self) -> None:
            """Each result the reporter took in the last action, with its journal's time
            (its Ack cannot have come yet: acks are handled after the clock moved)."""
            for ident in self.reporter.outbox.pending:
                if ident in self.seen:
                    continue
                self.seen.add(ident)
                kind = "game" if ident.endswith("/game") else "half"
                self.counts[kind] += 1
                with lock:
                    results.append((self.number, kind, self.counts[kind], self.timed.journalled))

        def play(self) -> None:
            with suppress(_Stopped):
                while not stop.is_set():
                    self.play_round(None, games=1)

    tables = []
    for number in sorted(map(int, config["passwords"])):
        # Each table its own draw: the same head start however the tables are spread.
        head_start = random.Random(f"{config['seed']}-{number}").uniform(0, 148 * ACTION_S)
        tables.append(Table(number, PacedClock(head_start)))
    for table in tables:
        table.start()
    deadline = time.monotonic() + 60
    while any(t.reporter.assignment is None or not t.reporter.online for t in tables):
        if time.monotonic() > deadline:
            print("the tables got no assignment from the hub within 60 s", file=sys.stderr)
            return 1
        for table in tables:
            table.step()
        time.sleep(0.05)
    threads = [threading.Thread(target=t.play, daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    with lock:
        lock.wait_for(lambda: arrived[0] == len(tables), 120)
    print("ready", flush=True)
    _go, origin, end = sys.stdin.readline().split()
    timeline.update(origin=float(origin), end=float(end))
    go.set()
    time.sleep(max(0.0, timeline["end"] - time.time()))
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    with lock:
        print(json.dumps({"results": results}), flush=True)
    sys.stdin.readline()  # "quit": the last results are on the TV, or given up on
    for table in tables:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(_tables_child())
