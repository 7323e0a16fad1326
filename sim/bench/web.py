"""The table's page under load, for ``schocken bench``: twenty pages watching a game.

The device runs in a child process of its own (``python -m sim.bench.web``), so that its peak
memory is its own: built as ``schocken run`` builds it, with the web server on a free port of
127.0.0.1, its main loop on the real clock on a thread, luma's dummy display, and inputs posted
to the main loop's queue the way gpiozero's callback thread posts them (``MainLoop.post``).
The pages are a second child process (aiohttp's WebSocket client), so that reading them costs the
device nothing it would not pay with phones at the table.

The child plays the same inputs twice, first with no page connected, then with twenty pages
that asked for frames, the log and the statistics: the main loop's input latency is the time
from the edge that completes a button press to the end of the loop step that handled it (the
events and the ``state`` for every page queued, the frame drawn and sent). Then the process's
CPU over an idle window with the twenty pages still connected, and its peak resident memory
(VmHWM). The pages note when each ``state`` arrives: the latency from the press to the board.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from sim.bench.figures import Measurement, percentile
from sim.tournament.processes import tied_to_this_process

__all__ = ["CROWD_PAGES", "PAGES", "crowd_figures", "flood_figures", "measure_crowd",
           "measure_pages", "measure_pairing", "page_figures", "pairing_figures"]

#: Pages watching in the loaded run.
PAGES = 20
#: Button presses per run (each with a shake before it).
PRESSES = 60

#: The end of each pages' script: ``count`` pages (``page(session, index, ready)``) connect, then
#: "ready"; once stdin closes they are cancelled and RESULT is printed as JSON. Each page
#: connects from an address of its own (127.0.N.M: Linux routes all of 127.0.0.0/8 to the
#: loopback), as the phones at a table do: the server takes a few pages per address only.
_RUN_PAGES_CODE = """
async def main():
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(
            limit=0, local_addr=(f"127.0.{1 + i // 250}.{1 + i % 250}", 0)))
        for i in range(count)
    ]
    flags = [asyncio.Event() for _ in range(count)]
    tasks = [asyncio.create_task(page(sessions[i], i, flags[i])) for i in range(count)]
    for flag in flags:
        await flag.wait()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for session in sessions:
        await session.close()
asyncio.run(main())
print(json.dumps(RESULT), flush=True)
"""

#: The pages: connect, ask for frames, the log and the statistics, send ``ping`` every 4 s (as
#: the page does), read everything; print the arrival times (time.time()) of page 0's states
#: once stdin closes.
_PAGES_CODE = """
import asyncio, json, sys, time
import aiohttp
url, count = sys.argv[1], int(sys.argv[2])
arrivals = []
async def keep_pinging(socket):  # as the page does, to notice a dead link
    while True:
        await asyncio.sleep(4)
        await socket.send_str("ping")
async def page(session, index, ready):
    async with session.ws_connect(url) as socket:
        for line in ("frames on", "log", "stats"):
            await socket.send_str(line)
        ready.set()
        asyncio.get_running_loop().create_task(keep_pinging(socket))
        async for message in socket:
            text = message.data if message.type == aiohttp.WSMsgType.TEXT else ""
            if index == 0 and text.startswith("state "):
                arrivals.append(time.time())
""" + _RUN_PAGES_CODE.replace("RESULT", "arrivals")


def measure_pages(idle_s: float, presses: int = PRESSES) -> dict[str, Any]:
    """Run the device's side in a child process; its figures as a dict (see :func:`_child`)."""
    result = subprocess.run(
        [sys.executable, "-m", "sim.bench.web", str(idle_s), str(presses)],
        capture_output=True, text=True, timeout=600, check=False, **tied_to_this_process(),
    )
    if result.returncode != 0:
        raise RuntimeError(f"the web bench failed: {result.stderr.strip()[-400:]}")
    return dict(json.loads(result.stdout.splitlines()[-1]))


def _skipped_without_web(keys: list[tuple[str, str, str]]) -> list[Measurement]:
    """The rows ``keys`` as skipped, naming why, if the web extra (aiohttp) is missing; else []."""
    try:
        from hal.web_server import WebServer  # noqa: F401  (aiohttp, the web extra)
    except ImportError:
        note = "skipped: the web extra is not installed (pip install -e '.[web]')"
        return [Measurement(key, label, None, unit, note=note) for key, label, unit in keys]
    return []


def page_figures(idle_s: float, presses: int) -> list[Measurement]:
    """The bench's figures of the page, or skipped ones naming why (no aiohttp)."""
    keys = [
        ("web_latency_p99_delta_ms", f"input latency p99 with {PAGES} pages, more than none", "ms"),
        ("web_cpu_p99_delta_ms", f"main loop CPU per press p99 with {PAGES} pages, more", "ms"),
        ("web_latency_p99_ms", f"input latency p99 with {PAGES} pages", "ms"),
        ("web_board_p99_ms", f"press to the board of {PAGES} pages, p99", "ms"),
        ("web_idle_cpu_pct", f"idle CPU, server on, {PAGES} pages connected", "%"),
        ("web_peak_rss_mb", f"peak memory, device with {PAGES} pages", "MB"),
    ]
    skipped = _skipped_without_web(keys)
    if skipped:
        return skipped
    figures = measure_pages(idle_s, presses)
    values = [
        figures["p99_pages_ms"] - figures["p99_alone_ms"],
        figures["cpu_p99_pages_ms"] - figures["cpu_p99_alone_ms"],
        figures["p99_pages_ms"],
        figures["board_p99_ms"],
        figures["idle_cpu_pct"],
        figures["peak_rss_mb"],
    ]
    targets: list[float | None] = [5, 5, None, 200, 1, MEMORY_TARGET_MB]
    return [
        Measurement(key, label, value, unit, target=target)
        for (key, label, unit), value, target in zip(keys, values, targets, strict=True)
    ]


def _child(idle_s: float, presses: int) -> dict[str, Any]:
    """The device's side: latencies without and with pages, idle CPU, peak memory."""
    from engine import GameSetup, load_preset
    from firmware.config import DeviceConfig, GameConfig
    from firmware.dice import SeededDice
    from firmware.link.webtable import page_files
    from firmware.sink import DeviceEvent
    from firmware.wiring import build_device
    from hal.clock import MonotonicClock
    from hal.inputs import InputTiming
    from hal.oled import open_dummy
    from hal.ports import Button, Edge, EdgeSource, InputEvent, InputKind
    from hal.web_server import WebServer

    timing = InputTiming(debounce_ms=5, hold_ms=800, shake_edges=4, shake_window_ms=600,
                         settle_ms=30)
    config = DeviceConfig(game=GameConfig(players=("Anna", "Ben", "Carla", "Dora")), input=timing)
    clock = MonotonicClock()
    display = open_dummy(clock)
    server = WebServer("127.0.0.1", 0, page_files())
    rules = load_preset("standard")
    emitted: list[DeviceEvent] = []
    device = build_device(
        config, clock=clock, inputs=[], display=display, timers=[display], web=server,
        dice=SeededDice(7), setup=GameSetup(config.game.players, rules), power=False,
        event_sink=emitted.append, odds_worker=True,  # as `schocken run` builds it
    )
    loop, app = device.loop, device.app
    handled: list[float] = []
    handled_cpu: list[float] = []
    waiting = threading.Event()
    original_handle: Callable[[InputEvent], None] = app.handle
    original_step = loop.step

    def handle(event: InputEvent) -> None:
        original_handle(event)
        if event.kind is InputKind.PRESS:
            waiting.set()

    def step(edge: Edge | None = None) -> None:
        cpu = time.thread_time()
        original_step(edge)
        if waiting.is_set():
            handled.append(time.perf_counter())
            handled_cpu.append(time.thread_time() - cpu)
            waiting.clear()

    app.handle = handle  # type: ignore[method-assign]
    loop.step = step  # type: ignore[method-assign]
    thread = threading.Thread(target=device.run, name="firmware", daemon=True)
    thread.start()

    def post(source: EdgeSource, active: bool, button: Button | None = None) -> None:
        loop.post(Edge(source, active, clock.now(), button))

    def play(count: int) -> tuple[list[float], list[float]]:
        """``count`` rounds of a shake and a STAND press; the latencies (s), and the times
        (epoch) of the presses that changed the game (the others send the pages no state)."""
        latencies: list[float] = []
        pressed_at: list[float] = []
        for _ in range(count):
            for level in (True, False, True, False):  # the cup is shaken ...
                post(EdgeSource.TILT, level)
                time.sleep(0.01)
            time.sleep(0.06)  # ... and put down: the throw
            post(EdgeSource.BUTTON, True, Button.STAND)
            time.sleep(0.015)
            before, events = len(handled), len(emitted)
            released, released_epoch = time.perf_counter(), time.time()
            post(EdgeSource.BUTTON, False, Button.STAND)
            deadline = released + 2.0
            while len(handled) == before and time.perf_counter() < deadline:
                time.sleep(0.0005)
            if len(handled) > before:
                latencies.append(handled[before] - released)
                if len(emitted) > events:
                    pressed_at.append(released_epoch)
            time.sleep(0.03)
            game = app.game
            if game is not None and game.is_over:
                loop.call_soon(lambda: app.plan_next_game(GameSetup(config.game.players, rules)))
        return latencies, pressed_at

    alone, _ = play(presses)
    alone_cpu = list(handled_cpu)
    host, port = server.address
    pages = subprocess.Popen(
        [sys.executable, "-c", _PAGES_CODE, f"ws://{host}:{port}/ws", str(PAGES)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, **tied_to_this_process(),
    )
    assert pages.stdout is not None and pages.stdin is not None
    if pages.stdout.readline().strip() != "ready":
        raise RuntimeError("the pages did not connect")
    time.sleep(0.5)
    watched, pressed_at = play(presses)
    watched_cpu = handled_cpu[len(alone_cpu):]
    time.sleep(0.5)
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(idle_s)
    idle_cpu = (time.process_time() - cpu) / (time.monotonic() - wall)
    connected = device.web.pages if device.web is not None else 0
    pages.stdin.close()
    arrivals = json.loads(pages.stdout.read().splitlines()[-1])
    pages.wait(timeout=10)
    loop.stop()
    thread.join(timeout=5)
    device.close()
    board = []
    for at in pressed_at:
        later = [arrival for arrival in arrivals if arrival >= at]
        if later:
            board.append(min(later) - at)
    with open("/proc/self/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    return {
        "pages": connected,
        "presses": len(watched),
        "p99_alone_ms": 1e3 * percentile(alone, 0.99),
        "p99_pages_ms": 1e3 * percentile(watched, 0.99),
        "cpu_p99_alone_ms": 1e3 * percentile(alone_cpu, 0.99),
        "cpu_p99_pages_ms": 1e3 * percentile(watched_cpu, 0.99),
        "median_alone_ms": 1e3 * percentile(alone, 0.5),
        "median_pages_ms": 1e3 * percentile(watched, 0.5),
        "board_p99_ms": 1e3 * percentile(board, 0.99) if board else None,
        "idle_cpu_pct": 100 * idle_cpu,
        "peak_rss_mb": peak_kb / 1024,
    }


# -- a crowd of unpaired pages ---------------------------------------------------------------

#: Pages in the crowd run: all but one unpaired, at their limits; one paired page measures.
CROWD_PAGES = 200
#: Computer players (odds) in the crowd's second run: the device's heaviest game.
CROWD_BOTS = 4
#: The device's peak resident memory targets (docs/performance.md, "Memory"): with its page, a
#: table's twenty phones and its computer players; and under a crowd of two hundred pages.
MEMORY_TARGET_MB = 60
CROWD_MEMORY_TARGET_MB = 75
#: The crowd's pages send this many lines a second each (the server's RATE_PER_S).
CROWD_RATE = 20.0

#: The crowd: ``count`` pages, each sending its command (``frames on``, ``log``, ``hello`` in
#: turn by page, or the commands given, comma-separated) at ``rate`` a second and reading
#: everything, until stdin closes; then the lines and bytes they got, and how many were ``error
#: busy`` or closed by the server. It runs niced: on a real table the crowd's work is done by
#: the phones, and the device's process should come first.
_CROWD_CODE = """
import asyncio, json, os, sys
import aiohttp
os.nice(10)  # at the table the phones do this work, not the device: it gets the CPU first
url, count, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
COMMANDS = tuple(sys.argv[4].split(",")) if len(sys.argv) > 4 else ("frames on", "log", "hello")
got = {"lines": 0, "bytes": 0, "busy": 0, "closed": 0, "sent": 0}
async def page(session, index, ready):
    async with session.ws_connect(url, autoping=True) as socket:
        ready.set()
        async def send():
            command = COMMANDS[index % len(COMMANDS)]
            while not socket.closed:
                await socket.send_str(command)
                got["sent"] += 1
                await asyncio.sleep(1 / rate)
        sender = asyncio.get_running_loop().create_task(send())
        try:
            async for message in socket:
                if message.type == aiohttp.WSMsgType.TEXT:
                    got["lines"] += 1
                    got["bytes"] += len(message.data)
                    if message.data.startswith("error busy"):
                        got["busy"] += 1
            got["closed"] += 1  # by the server (the end of the run cancels this instead)
        finally:
            sender.cancel()
""" + _RUN_PAGES_CODE.replace("RESULT", "got")

#: The paired page: pairs with the PIN, asks for frames, then for ``seconds`` pings every
#: 0.1 s and plays (``shake``, ``press stand`` in turn) every 0.25 s; prints each ping's round
#: trip and each command's time to the first OLED frame after it (ms), and the pongs lost.
_PROBE_CODE = """
import asyncio, json, sys, time
import aiohttp
url, pin, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
pings, frames = {}, []
rtts = []
waiting = []
async def main():
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url) as socket:
            async for message in socket:
                if message.data.startswith("state "):
                    break
            await socket.send_str("pair " + pin)
            async for message in socket:
                if message.data.startswith(("ok pair", "error")):
                    if not message.data.startswith("ok pair"):
                        raise SystemExit("pairing failed: " + message.data)
                    break
            await socket.send_str("frames on")
            async def read():
                async for message in socket:
                    text = message.data
                    now = time.perf_counter()
                    if text.startswith("pong "):
                        sent = pings.pop(text[5:], None)
                        if sent is not None:
                            rtts.append(1e3 * (now - sent))
                    elif text.startswith("frame ") and waiting:
                        frames.append(1e3 * (now - waiting.pop()))
            reader = asyncio.get_running_loop().create_task(read())
            await asyncio.sleep(0.5)
            end = time.perf_counter() + seconds
            index = 0
            while time.perf_counter() < end:
                token = f"p{index}"
                pings[token] = time.perf_counter()
                await socket.send_str("ping " + token)
                if index % 5 == 2 and not waiting:
                    waiting.append(time.perf_counter())
                    await socket.send_str("shake" if (index // 5) % 2 == 0 else "press stand")
                index += 1
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)
            reader.cancel()
asyncio.run(main())
print(json.dumps({"ping_ms": rtts, "oled_ms": frames, "lost": len(pings)}), flush=True)
"""


#: A person pairing under a crowd, once per PIN read from stdin: a fresh page connects, sends
#: ``pair PIN`` (a tap; ``error busy`` makes it tap again after 1.5 s, as the page does), then
#: reloads (a new connection, ``auth TOKEN``); prints per PIN the taps, the time from the first
#: tap to ``ok pair`` and from the reload's connection to ``ok auth`` (ms).
_PAIR_PROBE_CODE = """
import asyncio, json, sys, time
import aiohttp
url = sys.argv[1]
async def answer(socket, starts):
    async for message in socket:
        if message.type == aiohttp.WSMsgType.TEXT and message.data.startswith(starts):
            return message.data
    raise SystemExit("closed while waiting for " + repr(starts))
async def run(session, pin):
    async with session.ws_connect(url) as socket:
        await answer(socket, "state ")
        start, taps = time.perf_counter(), 0
        while True:
            taps += 1
            await socket.send_str("pair " + pin)
            got = await answer(socket, ("ok pair", "error"))
            if not got.startswith("error busy"):
                break
            await asyncio.sleep(1.5)
        paired = time.perf_counter()
    if not got.startswith("ok pair"):
        return {"taps": taps, "paired": False, "answer": got}
    start_reload = time.perf_counter()
    async with session.ws_connect(url) as socket:
        await socket.send_str("auth " + got.split()[2])
        auth = await answer(socket, ("ok auth", "error auth", "error busy"))
        reloaded = time.perf_counter()
    return {"taps": taps, "paired": True, "pair_ms": 1e3 * (paired - start),
            "auth_ok": auth == "ok auth", "reload_ms": 1e3 * (reloaded - start_reload)}
async def main():
    async with aiohttp.ClientSession() as session:
        for pin in sys.stdin:
            print(json.dumps(await run(session, pin.strip())), flush=True)
asyncio.run(main())
"""
#: The pairing run's crowd: unpaired pages asking what only the main loop answers.
PAIRING_CROWD = 100
#: Times a person pairs (and reloads) under it.
PAIRING_RUNS = 10


def measure_pairing(runs: int = PAIRING_RUNS, pages: int = PAIRING_CROWD) -> dict[str, Any]:
    """Run a person pairing under a crowd in a child process (see :func:`_pairing_child`)."""
    result = subprocess.run(
        [sys.executable, "-m", "sim.bench.web", "pairing", str(runs), str(pages)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"the pairing bench failed: {result.stderr.strip()[-400:]}")
    return dict(json.loads(result.stdout.splitlines()[-1]))


def pairing_figures(runs: int = PAIRING_RUNS, pages: int = PAIRING_CROWD) -> list[Measurement]:
    """The bench's figures of pairing under a crowd, or skipped ones (no aiohttp)."""
    keys = [
        ("pairing_first_tap", f"runs paired on the first tap of {runs}, {pages} unpaired pages "
         "asking spieltag at their limit", "runs"),
        ("pairing_pair_max_ms", "... the slowest pairing, tap to ok", "ms"),
        ("pairing_reload_max_ms", "... the slowest reload paired again, connection to ok", "ms"),
    ]
    skipped = _skipped_without_web(keys)
    if skipped:
        return skipped
    figures = measure_pairing(runs, pages)
    values = [figures["first_tap"], figures["pair_max_ms"], figures["reload_max_ms"]]
    targets: list[float | None] = [None, None, 1000]
    return [
        Measurement(key, label, value, unit, target=target)
        for (key, label, unit), value, target in zip(keys, values, targets, strict=True)
    ]


#: The flood run: this many pages, each sending ``ping`` this many times a second (as fast as
#: the server lets it), beside the paired page.
FLOOD_PAGES = 100
FLOOD_RATE = 1000.0


def measure_crowd(
    seconds: float, pages: int = CROWD_PAGES, rate: float = CROWD_RATE, commands: str = "",
    bots: int = 0,
) -> dict[str, Any]:
    """Run the crowd in a child process (see :func:`_crowd_child`); its figures as a dict."""
    result = subprocess.run(
        [sys.executable, "-m", "sim.bench.web", "crowd", str(seconds), str(pages), str(rate),
         commands, str(bots)],
        capture_output=True, text=True, timeout=600, check=False, **tied_to_this_process(),
    )
    if result.returncode != 0:
        raise RuntimeError(f"the crowd bench failed: {result.stderr.strip()[-400:]}")
    return dict(json.loads(result.stdout.splitlines()[-1]))


def crowd_figures(seconds: float, pages: int = CROWD_PAGES) -> list[Measurement]:
    """The bench's figures of a crowd of unpaired pages, or skipped ones (no aiohttp)."""
    crowd = pages - 1
    keys = [
        ("crowd_ping_p99_ms", f"paired page's ping p99, {crowd} unpaired pages at their limits",
         "ms"),
        ("crowd_ping_p50_ms", "... its median", "ms"),
        ("crowd_oled_p99_ms", "paired page's press to its OLED frame p99, under the crowd", "ms"),
        ("crowd_peak_rss_mb", f"peak memory, device with {pages} pages", "MB"),
        ("crowd_answer_mb_s", "answers to the crowd", "MB/s"),
        ("crowd_bots_ping_p99_ms", f"... the same with {CROWD_BOTS} odds players playing", "ms"),
        ("crowd_bots_peak_rss_mb", f"peak memory, device with {pages} pages and {CROWD_BOTS} "
         "odds players", "MB"),
    ]
    skipped = _skipped_without_web(keys)
    if skipped:
        return skipped
    figures = measure_crowd(seconds, pages)
    playing = measure_crowd(seconds, pages, bots=CROWD_BOTS)
    values = [
        figures["ping_p99_ms"], figures["ping_p50_ms"], figures["oled_p99_ms"],
        figures["peak_rss_mb"], figures["crowd_bytes"] / 1e6 / figures["seconds"],
        playing["ping_p99_ms"], playing["peak_rss_mb"],
    ]
    targets: list[float | None] = [100, None, None, CROWD_MEMORY_TARGET_MB, None, 100,
                                   CROWD_MEMORY_TARGET_MB]
    return [
        Measurement(key, label, value, unit, target=target)
        for (key, label, unit), value, target in zip(keys, values, targets, strict=True)
    ]


def _pairing_child(runs: int, pages: int) -> dict[str, Any]:
    """The device's side of pairing under a crowd: ``pages`` unpaired pages ask ``spieltag``
    (which only the main loop answers) at their limit, and a person pairs ``runs`` times."""
    device, clock, thread, url = _device_on_a_page()
    crowd = subprocess.Popen(
        [sys.executable, "-c", _CROWD_CODE, url, str(pages), str(CROWD_RATE), "spieltag"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    probe = subprocess.Popen(
        [sys.executable, "-c", _PAIR_PROBE_CODE, url],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert crowd.stdout is not None and crowd.stdin is not None
    assert probe.stdout is not None and probe.stdin is not None
    if crowd.stdout.readline().strip() != "ready":
        raise RuntimeError("the crowd did not connect")
    time.sleep(2.0)  # the crowd has used its budget by now
    pairing = device.pairing
    assert pairing is not None
    results = []
    pins: queue.Queue[str] = queue.Queue()
    for _ in range(runs):
        time.sleep(1.0)  # a person, not a script: the next phone pairs a second later
        device.loop.call_soon(lambda: pins.put(pairing.show_pin(clock.now())))
        probe.stdin.write(pins.get(timeout=10) + "\n")
        probe.stdin.flush()
        results.append(json.loads(probe.stdout.readline()))
    probe.stdin.close()
    probe.wait(timeout=30)
    crowd.stdin.close()
    got = json.loads(crowd.stdout.read().splitlines()[-1])
    crowd.wait(timeout=30)
    refused = device.web.budget.refused if device.web is not None else 0
    device.loop.stop()
    thread.join(timeout=5)
    device.close()
    paired = [result for result in results if result["paired"]]
    return {
        "runs": runs,
        "first_tap": sum(1 for result in paired if result["taps"] == 1),
        "paired": len(paired),
        "reloads_paired": sum(1 for result in paired if result["auth_ok"]),
        "pair_max_ms": max((result["pair_ms"] for result in paired), default=None),
        "reload_max_ms": max((result["reload_ms"] for result in paired), default=None),
        "crowd_sent": got["sent"],
        "crowd_busy": got["busy"],
        "budget_refused": refused,
    }


def _device_on_a_page(bots: int = 0) -> tuple[Any, Any, threading.Thread, str]:
    """The device as ``schocken run`` builds it (its odds worker and the tables on it) with its
    page on a free port, a game of three under way (with ``bots``, a game of that many odds
    players, which plays itself), its main loop on a thread: the device, its clock, the thread,
    the page's URL."""
    from engine import GameSetup, load_preset
    from firmware.config import DeviceConfig, GameConfig
    from firmware.dice import SeededDice
    from firmware.link.webtable import page_files
    from firmware.wiring import build_device
    from hal.clock import MonotonicClock
    from hal.oled import open_dummy
    from hal.web_server import WebServer

    players = ("Anna", "Ben", "Carla", "Dora")[:bots] if bots else ("Anna", "Ben", "Carla")
    config = DeviceConfig(game=GameConfig(players=players, bots=("odds",) * bots))
    clock = MonotonicClock()
    display = open_dummy(clock)
    server = WebServer("127.0.0.1", 0, page_files())
    device = build_device(
        config, clock=clock, inputs=[], display=display, timers=[display], web=server,
        dice=SeededDice(7), setup=GameSetup(config.game.players, load_preset("standard")),
        power=False, odds_worker=True,  # as `schocken run` builds it
    )
    thread = threading.Thread(target=device.run, name="firmware", daemon=True)
    thread.start()
    host, port = server.address
    return device, clock, thread, f"ws://{host}:{port}/ws"


def flood_figures(seconds: float, pages: int = FLOOD_PAGES) -> list[Measurement]:
    """The bench's figures of a flood (each page far over its rate), or skipped ones."""
    keys = [
        ("flood_ping_p99_ms", f"paired page's ping p99, {pages} pages sending "
         f"{FLOOD_RATE:g} lines a second each", "ms"),
        ("flood_cpu_pct", "... the device's CPU meanwhile", "% of a core"),
        ("flood_closed", "... flooding pages closed", "pages"),
    ]
    skipped = _skipped_without_web(keys)
    if skipped:
        return skipped
    figures = measure_crowd(seconds, pages + 1, FLOOD_RATE, "ping")
    values = [figures["ping_p99_ms"], figures["cpu_pct"], figures["crowd_closed"]]
    targets: list[float | None] = [25, None, None]
    return [
        Measurement(key, label, value, unit, target=target)
        for (key, label, unit), value, target in zip(keys, values, targets, strict=True)
    ]


def _crowd_child(
    seconds: float, pages: int, rate: float = CROWD_RATE, commands: str = "", bots: int = 0
) -> dict[str, Any]:
    """The device's side of the crowd: a game of three on the web server (with ``bots``, a game
    of that many odds players, which plays itself), ``pages - 1`` unpaired pages sending their
    commands at ``rate`` a second each (their limit) and one paired page that pings and plays
    (its presses move a game of people; the computer players' game goes on by itself)."""
    device, clock, thread, url = _device_on_a_page(bots)
    crowd = subprocess.Popen(
        [sys.executable, "-c", _CROWD_CODE, url, str(pages - 1), str(rate),
         *([commands] if commands else [])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, **tied_to_this_process(),
    )
    assert crowd.stdout is not None and crowd.stdin is not None
    if crowd.stdout.readline().strip() != "ready":
        raise RuntimeError("the crowd did not connect")
    pins: list[str] = []
    pairing = device.pairing
    assert pairing is not None
    shown = threading.Event()

    def show_pin() -> None:
        pins.append(pairing.show_pin(clock.now()))
        shown.set()

    device.loop.call_soon(show_pin)
    shown.wait(10)
    connected = device.web.pages if device.web is not None else 0
    start, cpu = time.monotonic(), time.process_time()
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE_CODE, url, pins[0], str(seconds)],
        capture_output=True, text=True, timeout=seconds + 120, check=False,
        **tied_to_this_process(),
    )
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu
    crowd.stdin.close()
    got = json.loads(crowd.stdout.read().splitlines()[-1])
    crowd.wait(timeout=30)
    if probe.returncode != 0:
        raise RuntimeError(f"the paired page failed: {probe.stderr.strip()[-300:]}")
    measured = json.loads(probe.stdout.splitlines()[-1])
    refused = device.web.budget.refused if device.web is not None else 0
    device.loop.stop()
    thread.join(timeout=5)
    device.close()
    with open("/proc/self/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    pings, oled = measured["ping_ms"], measured["oled_ms"]
    return {
        "pages": connected + 1,
        "seconds": elapsed,
        "cpu_pct": 100 * cpu / elapsed,
        "pings": len(pings),
        "lost_pongs": measured["lost"],
        "ping_p50_ms": percentile(pings, 0.5) if pings else None,
        "ping_p99_ms": percentile(pings, 0.99) if pings else None,
        "oled_p99_ms": percentile(oled, 0.99) if oled else None,
        "oled_samples": len(oled),
        "crowd_lines": got["lines"],
        "crowd_bytes": got["bytes"],
        "crowd_sent": got["sent"],
        "crowd_busy": got["busy"],
        "crowd_closed": got["closed"],
        "budget_refused": refused,
        "peak_rss_mb": peak_kb / 1024,
    }


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    if sys.argv[1] == "crowd":
        figures = _crowd_child(float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]),
                               sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 0)
        print(json.dumps(figures), flush=True)
    elif sys.argv[1] == "pairing":
        print(json.dumps(_pairing_child(int(sys.argv[2]), int(sys.argv[3]))), flush=True)
    else:
        print(json.dumps(_child(float(sys.argv[1]), int(sys.argv[2]))), flush=True)
