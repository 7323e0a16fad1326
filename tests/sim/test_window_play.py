"""`schocken sim` in its window (SDL dummy driver): keys play the game through the firmware.

Held keys shake the cup; a tap of 5 ms (key down and up most likely in one tick of the window)
still counts as a press, on the edges and on gpiozero's mock pins alike.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

import schockbesteck.cli

pygame = pytest.importorskip("pygame")


@pytest.mark.parametrize("gpio_mock", [False, True])
def test_held_keys_play_through_the_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gpio_mock: bool
) -> None:
    commands = schockbesteck.cli.SUBCOMMANDS
    monkeypatch.setattr(schockbesteck.cli, "SUBCOMMANDS", {"sim": commands["sim"]})
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    events = tmp_path / "events.jsonl"

    def player() -> None:  # pygame's event queue takes events from any thread
        time.sleep(0.6)
        for code, char, held, pause in (
            (pygame.K_SPACE, " ", 0.7, 0.6),  # the roll-off
            (pygame.K_s, "s", 0.005, 0.3),  # go on: a tap of 5 ms, shorter than the debounce
            (pygame.K_SPACE, " ", 0.7, 0.6),  # the first turn's throw
        ):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, unicode=char, mod=0))
            time.sleep(held)
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, unicode=char, mod=0))
            time.sleep(pause)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    threading.Thread(target=player, daemon=True).start()
    argv = ["sim", "--players", "2", "--seed", "1", "--events", str(events)]
    assert schockbesteck.cli.main(argv + (["--gpio-mock"] if gpio_mock else [])) == 0
    played = [json.loads(line)["event"] for line in events.read_text(encoding="utf-8").splitlines()]
    assert played == ["game_started", "roll_off", "round_started", "roll"]
