"""`schocken sim` in its window (SDL dummy driver): keys play the game through the firmware.

Held keys shake the cup; a tap of 5 ms (key down and up most likely in one tick of the window)
still counts as a press, on the edges and on gpiozero's mock pins alike. The cup settles sooner
than the device's default (the config ``timing_config`` writes), and each key waits for the
event it makes, not a fixed time.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

import schockbesteck.cli
from sim.window import WindowDisplay
from tests.sim.test_terminal_play import pending_events, timing_config

pygame = pytest.importorskip("pygame")


@pytest.mark.parametrize(
    "gpio_mock",
    # gpiozero's MockFactory under the window: its wiring alone is tests/sim/test_gpio_mock.py's
    [False, pytest.param(True, marks=pytest.mark.slow)],
)
def test_held_keys_play_through_the_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gpio_mock: bool
) -> None:
    commands = schockbesteck.cli.SUBCOMMANDS
    monkeypatch.setattr(schockbesteck.cli, "SUBCOMMANDS", {"sim": commands["sim"]})
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    events = tmp_path / "events.jsonl"
    # The device's first frame comes once its inputs listen (a key before it is lost).
    first_frame = threading.Event()
    show = WindowDisplay.display

    def display(self: WindowDisplay, image: Image.Image) -> None:
        show(self, image)
        first_frame.set()

    monkeypatch.setattr(WindowDisplay, "display", display)

    def until(event: str) -> None:
        deadline = time.monotonic() + 20
        while event not in pending_events(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.02)

    def player() -> None:  # pygame's event queue takes events from any thread
        first_frame.wait(timeout=20)
        for code, char, held, awaited in (
            # the roll-off: held 0.4 s, eight edges of the shaker's 50 ms (four make a shake)
            (pygame.K_SPACE, " ", 0.4, "roll_off"),
            (pygame.K_s, "s", 0.005, "round_started"),  # go on: a tap of 5 ms, under the debounce
            (pygame.K_SPACE, " ", 0.4, "roll"),  # the first turn's throw
        ):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, unicode=char, mod=0))
            time.sleep(held)
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, unicode=char, mod=0))
            until(awaited)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    threading.Thread(target=player, daemon=True).start()
    argv = ["sim", "--players", "2", "--seed", "1", "--events", str(events),
            "--config", str(timing_config(tmp_path))]
    assert schockbesteck.cli.main(argv + (["--gpio-mock"] if gpio_mock else [])) == 0
    played = [json.loads(line)["event"] for line in events.read_text(encoding="utf-8").splitlines()]
    assert played == ["game_started", "roll_off", "round_started", "roll"]
