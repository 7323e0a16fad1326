"""The whole device on a real link: DeviceApp and MainLoop in their thread, a host at the other end.

The device is built by firmware.wiring with luma's dummy display and seeded dice, its link on
tcp-listen://, socket://, a pty (the device opening the slave's path through pyserial) or loop://.
The host plays a whole game with nothing but protocol lines, and checks that the state it is told
and the frames it decodes are the device's own.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import select
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

import pytest
from PIL import Image

from engine import GameSetup, from_json, load_preset, rules_from_mapping, to_notation
from engine.game import Game
from firmware.config import DeviceConfig, LinkConfig
from firmware.dice import SeededDice
from firmware.link.protocol import PROTOCOL_VERSION, decode_frame, parse_device_line
from firmware.wiring import Device
from hal.clock import MonotonicClock
from hal.serial_link import LineFramer, SerialLink
from tests.harness import build_test_device

TIMEOUT = 5.0


class LinkEnd(Protocol):
    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None: ...
    def send_line(self, line: str, *, droppable: bool = False) -> None: ...
    def close(self) -> None: ...


class PtyMaster:
    """The host's end of a pty pair, shaped like a link: a reader thread on the master fd."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        self.path = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
        framer = LineFramer(1 << 20)

        def read() -> None:
            while not self._stop.is_set():
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if ready:
                    for line in framer.feed(os.read(self.master, 65536)):
                        on_line(line)

        self._thread = threading.Thread(target=read, daemon=True)
        self._thread.start()
        on_connect()

    def send_line(self, line: str, *, droppable: bool = False) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(TIMEOUT)
        os.close(self.master)
        os.close(self._slave)


class Host:
    """A host on a link: sends commands, and follows the device's state and frames."""

    def __init__(self, end: LinkEnd) -> None:
        self.end = end
        self.lines: queue.Queue[str] = queue.Queue()
        self.state: dict[str, Any] | None = None
        self.frame: Image.Image | None = None
        self.greetings = 0
        self.hello: str | None = None
        self._tokens = itertools.count()

    def start(self) -> Host:
        """Start the link and wait until the device has greeted us.

        Like any host, say ``hello`` on connecting: the device greets every connection it can
        see, but pyserial's socket:// client discards what arrived while it was opening, and on a
        tty the device cannot see a host arrive. Whichever greeting comes first counts; a second
        one is drained by the ``state`` command after it.
        """
        connected = threading.Event()
        self.end.start(lambda raw: self.lines.put(raw.decode("utf-8")), connected.set)
        assert connected.wait(TIMEOUT), "the link did not connect"
        self.end.send_line("hello")
        self.wait_for("hello")
        self.wait_for("state")
        self.command("state")
        return self

    def next_line(self) -> str:
        line = self.lines.get(timeout=TIMEOUT)
        parsed = parse_device_line(line.encode())
        if parsed.word == "state":
            self.state = parsed.payload
        elif parsed.word == "frame":
            self.frame = decode_frame(parsed.text)
        elif parsed.word == "hello":
            self.greetings += 1
            self.hello = line
        return line

    def wait_for(self, word: str) -> list[str]:
        """Lines up to and including the first that starts with ``word``."""
        seen = []
        while True:
            line = self.next_line()
            seen.append(line)
            if line.split(" ", 1)[0] == word:
                return seen

    def command(self, text: str) -> list[str]:
        """Send a line, then a ping; everything the device said before the pong."""
        token = f"t{next(self._tokens)}"
        self.end.send_line(text)
        self.end.send_line(f"ping {token}")
        lines = []
        while (line := self.next_line()) != f"pong {token}":
            lines.append(line)
        return lines

    @property
    def game(self) -> dict[str, Any]:
        assert self.state is not None and self.state["game"] is not None
        game: dict[str, Any] = self.state["game"]
        return game


def setup_of_two() -> GameSetup:
    """Anna and Ben under ``standard`` with 3 Deckel: the whole games these tests play from the
    link have their halves and their end all the same, in a quarter of the commands."""
    return GameSetup(("Anna", "Ben"), replace(load_preset("standard"), deckel=3))


def start_device(url: str, *, setup: GameSetup | None = None, referee: bool = True) -> Device:
    """A device with its link on ``url``. These tests replay whole games from the link, so they
    run it as a referee sees it (every die); tests/link/test_table_view.py covers the table's
    view."""
    config = replace(DeviceConfig(), link=LinkConfig(referee=referee, url=url))
    clock = MonotonicClock()
    device = build_test_device(
        config,
        clock=clock,
        link=SerialLink(url, baudrate=config.link.baudrate),
        dice=SeededDice(2024),
        setup=setup if setup is not None else setup_of_two(),
        power=False,
    )
    thread = threading.Thread(target=device.run, name="device-loop", daemon=True)
    thread.start()
    device.closers.insert(0, lambda: (device.loop.stop(), thread.join(TIMEOUT)))
    return device


def device_link(device: Device) -> SerialLink:
    assert device.remote is not None
    link = device.remote.link
    assert isinstance(link, SerialLink)
    return link


def device_frame(device: Device) -> Image.Image:
    return device.display.device.image  # type: ignore[attr-defined, no-any-return]


def play_to_the_end(host: Host, *, limit: int = 3000) -> int:
    """Shake and stand (or press on) until the game is over; the number of commands sent."""
    for sent in range(limit):
        if host.game["phase"] == "over":
            return sent
        lines = host.command("shake" if sent % 2 == 0 else "press stand")
        assert not [line for line in lines if line.startswith("error")], lines
    raise AssertionError(f"no end after {limit} commands: {host.game['notation']}")


def check_log_replays(host: Host, device: Device) -> None:
    lines = host.command("log")
    header = json.loads(lines[0].split(" ", 1)[1])
    assert lines[-1] == "end" and header["events"] == len(lines) - 2
    setup = GameSetup(tuple(header["players"]), rules_from_mapping(header["rules"]))
    replayed = Game.replay(setup, [from_json(json.loads(line)) for line in lines[1:-1]])
    game = device.app.game
    assert game is not None
    assert to_notation(replayed) == to_notation(game) == host.game["notation"]


def pair(host: Host, device: Device) -> str:
    """Pair ``host`` with the PIN the device shows (as its menu's Koppeln would); the token."""
    shown: list[str] = []
    ready = threading.Event()

    def show_pin() -> None:
        assert device.pairing is not None
        shown.append(device.pairing.show_pin(device.clock.now()))
        ready.set()

    device.loop.call_soon(show_pin)
    assert ready.wait(TIMEOUT)
    lines = host.command(f"pair {shown[0]}")
    assert lines and lines[0].startswith("ok pair "), lines
    return lines[0].split()[2]


def connect(transport: str, devices: list[Device], ends: list[LinkEnd]) -> tuple[Device, Host]:
    """A device with its link on ``transport`` and a greeted host at the other end."""
    end: LinkEnd
    if transport == "tcp-listen":  # the device listens, the host dials with pyserial's socket://
        device = start_device("tcp-listen://127.0.0.1:0")
        address = device_link(device).address
        assert address is not None
        end = SerialLink(f"socket://{address[0]}:{address[1]}")
    elif transport == "socket":  # the host listens, the device dials
        end = SerialLink("tcp-listen://127.0.0.1:0")
        address = end.address
        assert address is not None
        device = start_device(f"socket://127.0.0.1:{address[1]}")
    else:  # a tty: the device opens the pty's slave path through pyserial
        pty = PtyMaster()
        end = pty
        device = start_device(pty.path)
    devices.append(device)
    ends.append(end)
    host = Host(end).start()
    pair(host, device)
    return device, host


@pytest.mark.parametrize("transport", ["tcp-listen", "socket", "pty"])
def test_a_whole_game_driven_from_the_host(
    transport: str, devices: list[Device], ends: list[LinkEnd]
) -> None:
    device, host = connect(transport, devices, ends)
    assert host.game["phase"] == "roll_off" and host.game["players"] == ["Anna", "Ben"]
    lines = host.command("frames on")
    assert lines[0] == "ok frames on"
    assert host.frame is not None

    commands = play_to_the_end(host)
    assert commands > 10
    assert host.game["loser"] in ("Anna", "Ben")
    game = device.app.game
    assert game is not None and game.is_over
    assert host.game["notation"] == to_notation(game)
    # The frame the host decoded is the one on the device's display, pixel for pixel.
    assert host.frame is not None
    assert host.frame.tobytes() == device_frame(device).convert("1").tobytes()
    check_log_replays(host, device)


def test_a_whole_game_through_loop_url(devices: list[Device]) -> None:
    """On loop:// the device reads back everything it writes: its own lines are ignored as
    echoes, and host commands written into the loop are carried out."""
    device = start_device("loop://")
    devices.append(device)
    link = device_link(device)
    written: queue.Queue[str] = queue.Queue()
    send = link.send_line

    def spy(line: str, *, droppable: bool = False) -> None:
        written.put(line)
        send(line, droppable=droppable)

    link.send_line = spy  # type: ignore[method-assign]

    class LoopEnd:
        """Host lines go into the loop as if written by a host; device lines are the spy's."""

        def start(self, on_line: Callable[[bytes], None], on_connect: Callable[[], None]) -> None:
            def pump() -> None:
                while (line := written.get()) is not None:
                    on_line(line.encode())

            threading.Thread(target=pump, daemon=True).start()
            on_connect()

        def send_line(self, line: str, *, droppable: bool = False) -> None:
            send(line)

        def close(self) -> None:
            written.put(None)  # type: ignore[arg-type]

    end = LoopEnd()
    host = Host(end).start()
    pair(host, device)
    try:
        play_to_the_end(host)
        game = device.app.game
        assert game is not None and game.is_over
        everything = host.command("state")
        errors = [line for line in everything if line.startswith("error")]
        assert errors == []  # no echo was ever answered
    finally:
        end.close()


def test_reconnect_mid_game_gets_a_fresh_hello_and_the_state(
    devices: list[Device], ends: list[LinkEnd]
) -> None:
    device, host = connect("tcp-listen", devices, ends)
    token = pair(host, device)
    for command in ("shake", "press stand", "shake", "press stand", "shake"):
        host.command(command)
    position = host.game["notation"]
    assert host.game["phase"] == "turn"
    host.end.close()
    ends.remove(host.end)

    address = device_link(device).address
    assert address is not None
    again = Host(SerialLink(f"socket://{address[0]}:{address[1]}"))
    ends.append(again.end)
    again.start()
    assert again.hello is not None
    assert again.hello.startswith(f"hello schockbesteck {PROTOCOL_VERSION} {{")
    assert again.command("shake")[0].startswith("error shake needs pairing")  # a new connection
    assert again.command(f"auth {token}") == ["ok auth"]
    assert again.game["notation"] == position
    game = device.app.game
    assert game is not None and to_notation(game) == position
    assert again.command("frames on")[0] == "ok frames on"  # frames start off again
    play_to_the_end(again)  # and the game goes on


def test_hello_resyncs_a_tty_host(devices: list[Device], ends: list[LinkEnd]) -> None:
    device, host = connect("pty", devices, ends)
    host.command("shake")
    before = host.greetings
    lines = host.command("hello")
    assert [line.split(" ", 1)[0] for line in lines] == ["hello", "state"]
    assert host.greetings == before + 1
    game = device.app.game
    assert game is not None and host.game["notation"] == to_notation(game)


def test_garbage_over_a_socket_is_answered_line_by_line(
    devices: list[Device], ends: list[LinkEnd]
) -> None:
    device, host = connect("tcp-listen", devices, ends)
    host.command("shake")
    game = device.app.game
    assert game is not None
    position = to_notation(game)
    address = device_link(device).address
    assert address is not None
    import socket

    raw = socket.create_connection(address, timeout=TIMEOUT)  # replaces the host's connection
    ends.remove(host.end)
    host.end.close()
    garbage = [
        b"\xff\xfe\xfd",
        b"press keep9",
        b"x" * 5000,
        b"setup {",
        b"setup " + json.dumps({"players": ["A", "B"]}).encode(),  # refused: a game is running
        b"frames sideways",
        b"\x00\x01\x02",
        "drücken stand".encode(),
    ]
    raw.sendall(b"\n".join(garbage) + b"\nping done\n")
    received = b""
    while b"pong done\n" not in received:
        chunk = raw.recv(65536)
        assert chunk, "the device hung up"
        received += chunk
    lines = received.decode().splitlines()
    errors = [line for line in lines if line.startswith("error ")]
    assert len(errors) == len(garbage)
    assert lines[-1] == "pong done"
    assert to_notation(game) == position
    raw.close()
