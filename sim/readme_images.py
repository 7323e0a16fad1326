"""Make the README's pictures: docs/img/demo.gif and docs/img/device.png.

    .venv/bin/python -m sim.readme_images

Both come from one headless run of ``sim/scripts/demo.txt`` (3 players, standard rules, seed 49)
on the simulated clock: the GIF is that run's recording, the PNG is the simulator's window
(drawn under SDL's dummy video driver, no display needed) showing the frame on the OLED just
after the FLIP.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.game import GameSetup
from firmware.config import load_config
from firmware.dice import SeededDice
from firmware.rulesfile import load_rules
from firmware.wiring import build_device
from hal.ports import Button
from sim.fakes import FakeClock
from sim.recorder import FrameRecorder
from sim.script import ScriptInput, load_script

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "sim" / "scripts" / "demo.txt"
IMAGES = ROOT / "docs" / "img"
SEED = 49


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    config = load_config(None)
    clock = FakeClock()
    moments: list[tuple[float, str]] = []
    script = ScriptInput(load_script(SCRIPT), clock, config.input)
    recorder = FrameRecorder(clock, gif_path=IMAGES / "demo.gif")
    device = build_device(
        config,
        clock=clock,
        inputs=[script],
        display=recorder,
        dice=SeededDice(SEED),
        setup=GameSetup(("Anna", "Ben", "Carla"), load_rules("standard")),
        event_sink=lambda event: moments.append((clock.now(), str(event["event"]))),
    )
    device.loop.start()
    script.play_until(script.end)
    device.run(until=script.end)
    device.close()
    recorder.close()
    flipped_at = next(at for at, kind in moments if kind == "flip")
    frame = next(f for f in reversed(recorder.frames) if f.at <= flipped_at + 0.001)
    window_png(frame.image, IMAGES / "device.png")
    for path in (IMAGES / "demo.gif", IMAGES / "device.png"):
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB)")


def window_png(image: Any, path: Path) -> None:
    """The window showing ``image``, with FLIP held down, saved as a PNG."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from sim.controls import EdgeHands
    from sim.window import SimWindow, WindowDisplay

    display = WindowDisplay()
    display.display(image)
    window = SimWindow(EdgeHands(FakeClock()), display)
    window._press(Button.FLIP)  # the button just pressed, drawn down
    window.step()
    window.save_png(str(path))
    window.close()


if __name__ == "__main__":
    main()
