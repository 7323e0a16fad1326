"""How quickly a real-dice table enters its results on the five buttons.

Typical results (any dice, mostly three throws, from the hand after one throw and now and then
after more) are entered on the device's own wiring: gpiozero's ``MockFactory`` pins read by the
device's GPIO backend, the input decoder and the main loop on a fake clock, at a practised hand's
press timing (:data:`ENTRY_PACING`). Per four-player round: the presses and the seconds from the
first entry's first press to the last entry's confirmation. The figures are deterministic (the
fake clock), so the machine's load does not change them.

:func:`entry_steps` is the quickest way to enter one result, the one the tests use too.
"""

from __future__ import annotations

import random
import statistics
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hal.ports import Button
from sim.bench.figures import Measurement

if TYPE_CHECKING:
    from engine.game import Game
    from engine.rules import Rules

__all__ = [
    "ENTRY_PACING",
    "EntryPacing",
    "Reported",
    "Step",
    "entry_figures",
    "entry_steps",
    "typical_result",
]


@dataclass(frozen=True, slots=True)
class EntryPacing:
    """A press is down ``press_s``, a hold the decoder's hold time plus ``hold_extra_s``; then
    ``gap_s`` to the next."""

    press_s: float = 0.1
    hold_extra_s: float = 0.1
    gap_s: float = 0.15


#: A practised hand stepping a counter: four presses a second.
ENTRY_PACING = EntryPacing()


@dataclass(frozen=True, slots=True)
class Reported:
    """One turn's result as the table reports it."""

    player: str
    dice: tuple[int, ...]
    throws: int
    hand: bool


def typical_result(rng: random.Random, player: str, rules: Rules, limit: int | None) -> Reported:
    """A result as real cups give it: any dice, the throws up to the limit (the opener up to the
    rules' maximum; three twice as often as one or two), from the hand after one throw and a
    quarter of the time after more."""
    top = rules.max_throws if limit is None else limit
    throws = rng.choice([t for t in (1, 2, 3, 3) if t <= top] or [1])
    dice = tuple(rng.randint(1, 6) for _ in range(rules.dice_count))
    hand = throws == 1 or rng.random() < 0.25
    return Reported(player, dice, throws, hand)


@dataclass(frozen=True, slots=True)
class Step:
    """One press (or, with ``hold``, a long press) of ``button`` on the entry screen."""

    button: Button
    hold: bool = False


_DIE_BUTTONS = (Button.KEEP_1, Button.KEEP_2, Button.KEEP_3)
#: The roll-off's throws: the first player's Schock aus opens.
ROLL_OFF = ((1, 1, 1), (6, 4, 2), (5, 3, 2), (6, 5, 3))


def die_steps(position: int, shown: int, wanted: int) -> list[Step]:
    """Step die ``position`` from ``shown`` to ``wanted``: presses step up, a hold steps down.
    A hold takes about four presses' time, so only a six is a hold away from a one."""
    up = (wanted - shown) % 6
    down = (shown - wanted) % 6
    button = _DIE_BUTTONS[position]
    return [Step(button, hold=True)] * down if down * 4 < up else [Step(button)] * up


def entry_steps(game: Game, shown: tuple[int | None, ...],
                turn: Reported | tuple[int, ...]) -> list[Step]:
    """The presses that enter ``turn`` (a reported turn, or a roll-off throw) on an entry screen
    that shows the dice ``shown`` and the throws a fresh entry starts on (the round's limit);
    the round's last entry takes a second STAND, which settles the round."""
    dice = turn.dice if isinstance(turn, Reported) else turn
    steps = [
        step for i, (now, wanted) in enumerate(zip(shown, dice, strict=True))
        for step in die_steps(i, now or 1, wanted)
    ]
    if isinstance(turn, Reported):
        most = game.reported_throws_allowed()
        start = game.rules.max_throws if game.limit is None else game.limit
        steps += [Step(Button.FLIP)] * ((turn.throws - start) % most)
        if game.hand_matters(turn.dice) and turn.hand != (turn.throws == 1):
            steps.append(Step(Button.FLIP, hold=True))
    steps.append(Step(Button.STAND))
    if isinstance(turn, Reported) and len(game.results) + 1 >= len(game.round_players):
        steps.append(Step(Button.STAND))  # the round's last entry: STAND once more settles it
    return steps


def entry_figures(rounds: int = 200, seed: int = 7) -> list[Measurement]:
    """The median and 90th percentile presses and seconds of a four-player round's entries."""
    presses, seconds = play_rounds(rounds, seed)
    ordered = sorted(seconds)
    return [
        Measurement("entry_round_presses_median", "real dice: presses to enter a round of 4",
                    statistics.median(presses), "presses"),
        Measurement("entry_round_s_median", "real dice: time to enter a round of 4 (median)",
                    statistics.median(seconds), "s", target=20),
        Measurement("entry_round_s_p90", "real dice: time to enter a round of 4 (p90)",
                    ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], "s"),
    ]


def play_rounds(rounds: int, seed: int, pacing: EntryPacing = ENTRY_PACING,
                ) -> tuple[list[int], list[float]]:
    """Enter typical results on the device (standard rules, game after game) until ``rounds``
    rounds with all four players have been entered; per such round, the presses and the seconds
    from its first press to its last release (rounds with a player out are entered, not counted)."""
    from engine.game import GameSetup, Phase
    from engine.rules import load_preset
    from firmware.config import DeviceConfig, GameConfig
    from firmware.screen.views import TurnView
    from firmware.wiring import build_device
    from hal.oled import open_dummy
    from hal.storage import StateDirectory
    from sim.fakes import FakeClock
    from sim.gpio_mock import MockPinHands

    players = ("Anna", "Ben", "Carla", "Dora")
    rules = load_preset("standard")
    config = DeviceConfig(game=GameConfig(players=players, rule_set=rules, real_dice=True))
    clock = FakeClock(1000.0)
    rng = random.Random(seed)
    presses: list[int] = []
    seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="schocken-entry-") as state:
        hands = MockPinHands(clock, config.pins)
        display = open_dummy(clock)
        device = build_device(
            config, clock=clock, inputs=[hands], display=display, timers=[display],
            storage=StateDirectory(state),
            setup=GameSetup(players, rules, real_dice=True),
        )
        app: Any = device.app

        def step(what: Step) -> None:
            held = config.input.hold_s + pacing.hold_extra_s if what.hold else pacing.press_s
            hands.press(what.button)
            device.run(until=clock.now() + held)
            hands.release(what.button)
            device.run(until=clock.now() + pacing.gap_s)

        def enter(turn: Reported | tuple[int, ...]) -> int:
            shown = tuple(die.value for die in app.view.dice)
            steps = entry_steps(app.game, shown, turn)
            for what in steps:
                step(what)
            return len(steps)

        try:
            device.loop.start()
            while len(presses) < rounds:
                game = app.game
                if not isinstance(app.view, TurnView):
                    step(Step(Button.STAND))  # the roll-off's result, a reveal, a banner
                    continue
                if game.phase is Phase.ROLL_OFF:
                    for throw in ROLL_OFF[: len(game.contenders)]:
                        enter(throw)
                    continue
                started, count, limit = clock.now(), 0, None
                for name in game.round_players:
                    turn = typical_result(rng, name, rules, limit)
                    limit = min(turn.throws, rules.max_throws) if limit is None else limit
                    count += enter(turn)
                if len(game.round_players) == len(players):  # only whole tables of four
                    presses.append(count)
                    seconds.append(clock.now() - started - pacing.gap_s)
        finally:
            device.close()
    return presses, seconds
