"""Random hands on the device: decoded inputs that mostly play the game, sometimes fool around.

Used by the resume tests and the kill harness's victim process. The mix keeps games moving
(shakes that end in throws, KEEP presses, STAND) and now and then opens the menu, pages through
it, gives a penalty or presses a button that does nothing right now.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hal.ports import Button, InputEvent, InputKind

_BUTTONS = list(Button)
_KEEPS = [Button.KEEP_1, Button.KEEP_2, Button.KEEP_3]


def random_inputs(
    rng: random.Random, start: float = 0.0, menus: bool = True
) -> Iterator[InputEvent]:
    """An endless stream of plausible inputs with rising time stamps."""
    now = start
    while True:
        now += rng.uniform(0.05, 2.0)
        roll = rng.random()
        if roll < 0.35:
            yield InputEvent(InputKind.SHAKE_START, now)
            now += rng.uniform(0.3, 3.0)
            yield InputEvent(InputKind.THROW, now)
        elif roll < 0.55:
            yield InputEvent(InputKind.PRESS, now, rng.choice(_KEEPS))
        elif roll < 0.75:
            yield InputEvent(InputKind.PRESS, now, Button.STAND)
        elif roll < 0.9:
            yield InputEvent(InputKind.PRESS, now, rng.choice(_BUTTONS))
        elif menus and roll < 0.93:
            yield InputEvent(InputKind.LONG_PRESS, now, Button.STAND)
            for _ in range(rng.randint(0, 3)):
                now += 0.3
                yield InputEvent(InputKind.PRESS, now, rng.choice([Button.KEEP_1, Button.KEEP_2]))
            now += 0.3
            # Mostly leave the menu again (FLIP is "back"); sometimes choose the entry.
            choice = Button.FLIP if rng.random() < 0.8 else Button.STAND
            yield InputEvent(InputKind.PRESS, now, choice)
            now += 0.3
            yield InputEvent(InputKind.PRESS, now, Button.FLIP)
        else:
            yield InputEvent(InputKind.PRESS, now, rng.choice([Button.STAND, Button.KEEP_3]))
