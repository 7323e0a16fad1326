"""The hub's bench (sim/bench/hub_load.py): what the TV showed when, read off the hub's real event
stream; the processes' CPU and memory from /proc; and the rows skipped in one line where
mosquitto is missing. The whole run on a real broker is in tests/bench/test_bench.py (the
bench's quick run); no time is asserted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from sim.bench import hub_load
from sim.bench.cli import as_table
from sim.bench.hub_load import ShownCounts, delays
from sim.bench.phones import WatchedState
from sim.tournament import processes
from sim.tournament.demo import MOSQUITTO


def state(*tables: tuple[int, int, int]) -> dict[str, object]:
    """A hub state as /events sends it: (table, games, halves) per table."""
    return {"tables": [{"table": t, "games": g, "halves": h} for t, g, h in tables]}


def test_each_count_is_stamped_when_it_first_shows() -> None:
    shown = ShownCounts()
    shown.take(state((1, 0, 1), (2, 0, 0)), 10.0)
    shown.take(state((1, 0, 1), (2, 0, 2)), 11.0)  # table 2: two halves in one change
    shown.take(state((1, 1, 3), (2, 0, 2)), 12.5)
    shown.take(state((1, 1, 3), (2, 0, 1)), 13.0)  # never earlier than first shown
    assert shown.first == {
        (1, "half", 1): 10.0,
        (2, "half", 1): 11.0,
        (2, "half", 2): 11.0,
        (1, "game", 1): 12.5,
        (1, "half", 2): 12.5,
        (1, "half", 3): 12.5,
    }
    assert shown.events == 4


def test_a_delay_runs_from_the_journal_to_the_first_state_showing_it() -> None:
    shown = ShownCounts()
    shown.take(state((1, 0, 1)), 10.2)
    shown.take(state((1, 1, 2)), 20.9)
    results = [
        (1, "half", 1, 10.0),  # journalled at 10.0, on the TV at 10.2
        (1, "half", 2, 20.0),
        (1, "game", 1, 20.5),
        (1, "half", 3, 25.0),  # never shown: counted up to 30.0
        (1, "half", 4, 40.0),  # outside the window
    ]
    found, unseen = delays(results, shown, (5.0, 35.0), lost_at=30.0)
    assert found == pytest.approx([0.2, 0.9, 0.4, 5.0])
    assert unseen == 1


def test_the_watcher_reads_the_hubs_real_event_stream() -> None:
    """hal.hub_server's /events (aiohttp), read as the TV reads it: the state, then changes."""
    from firmware.hub.view_changes import ViewFeed
    from hal.hub_server import HubServer

    server = HubServer("127.0.0.1", 0, {})
    feed = ViewFeed()
    shown = ShownCounts()
    stop = threading.Event()
    kept = WatchedState()
    try:
        others = tuple((n, 0, 0) for n in range(5, 25))  # unchanged: the changes are smaller
        server.push(*feed.next(state((3, 0, 1), (4, 0, 0), *others)))
        host, port = server.address
        watcher = threading.Thread(target=hub_load._watch, args=(host, port, shown, stop, kept))
        watcher.start()
        deadline = time.monotonic() + 10
        while (3, "half", 1) not in shown.first and time.monotonic() < deadline:
            time.sleep(0.01)
        before = time.time()
        whole, changes = feed.next(state((3, 1, 2), (4, 0, 1), *others))
        assert changes is not None
        server.push(whole, changes)
        while (4, "half", 1) not in shown.first and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        server.close()
    watcher.join(timeout=5)
    assert set(shown.first) == {(3, "half", 1), (3, "game", 1), (3, "half", 2), (4, "half", 1)}
    assert shown.first[(4, "half", 1)] >= before
    assert kept.state == json.loads(whole) and kept.events == 2


def test_cpu_and_peak_memory_come_from_proc() -> None:
    pid = os.getpid()
    spent = hub_load.cpu_seconds(pid)
    started = time.process_time()
    while time.process_time() - started < 0.2:
        pass
    assert hub_load.cpu_seconds(pid) - spent >= 0.1
    ballast = bytearray(64 * 1024 * 1024)
    ballast[::4096] = b"x" * len(ballast[::4096])  # touched, so resident
    assert hub_load.peak_rss_mb(pid) >= 64
    del ballast


def test_without_mosquitto_the_hubs_rows_are_skipped_in_one_line(
    mocker: MockerFixture, tmp_path: Path
) -> None:
    mocker.patch("sim.tournament.demo.MOSQUITTO", tmp_path / "mosquitto")
    measure = mocker.patch.object(hub_load, "measure_hub")
    rows = hub_load.hub_figures(hub_load.HubBenchSettings.quick())
    measure.assert_not_called()
    assert len(rows) == 14 and all(row.value is None for row in rows)
    (note,) = {row.note for row in rows}
    assert note.startswith("skipped: mosquitto is not installed") and "apt-get" in note
    lines = as_table(rows).splitlines()
    assert [line for line in lines if "mosquitto" in line] == [lines[-1]]
    assert lines[-1].startswith(note)


def test_a_run_that_fails_skips_the_rows_with_its_one_line(mocker: MockerFixture) -> None:
    mocker.patch.object(hub_load, "_problem", return_value=None)
    mocker.patch.object(
        hub_load, "measure_hub", side_effect=RuntimeError("the hub bench: no line within 60 s")
    )
    rows = hub_load.hub_figures(hub_load.HubBenchSettings.quick())
    assert {row.note for row in rows} == {
        "skipped: the hub's run failed: the hub bench: no line within 60 s"
    }
    assert all(row.value is None for row in rows)


def _descendants(pid: int) -> dict[int, str]:
    """The running processes below ``pid`` (process id -> command name), from /proc."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        fields = rest.split()
        if fields[0] != "Z":
            parents[int(entry.name)] = (int(fields[1]), name)
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, name) in parents.items():
            if ppid == parent and child not in found:
                found[child] = name
                frontier.append(child)
    return found


def _running(pids: Iterable[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1]
        except OSError:
            continue
        if state.split()[0] != "Z":
            alive.append(pid)
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_no_child_outlives_a_bench_killed_with_sigkill() -> None:
    """The hub's bench, killed with SIGKILL (a timeout's kill) once its mosquitto, its hub and
    its tables run: the kernel ends every one of them (their parent-death signal)."""
    if not MOSQUITTO.exists():
        pytest.skip("mosquitto is not installed")
    bench = subprocess.Popen(
        [sys.executable, "-m", "schockbesteck", "bench", "--quick", "--only", "hub", "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and bench.poll() is None:
            seen.update(_descendants(bench.pid))
            names = set(seen.values())
            if "mosquitto" in names and len(seen) >= 3:  # the broker, the hub, the tables
                break
            time.sleep(0.05)
        assert "mosquitto" in set(seen.values()) and len(seen) >= 3, seen
        seen.update(_descendants(bench.pid))
        processes.kill(bench)  # SIGKILL: no clean-up of its own
        deadline = time.monotonic() + 10
        while _running(seen) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _running(seen) == [], {pid: seen[pid] for pid in _running(seen)}
    finally:
        processes.kill(bench)
        for pid in _running(seen):
            os.kill(pid, signal.SIGKILL)
