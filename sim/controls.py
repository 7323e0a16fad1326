"""The simulator's hands: what a key, a click or a shake does to the device's inputs.

Every front end (window, terminal) turns what the user does into calls on a :class:`Hands`
object: press or release a button, close or open the tilt switch. Two implementations exist:

* :class:`EdgeHands` reports :class:`~hal.ports.Edge` values straight to the main loop, as a
  hal input backend would;
* :class:`sim.gpio_mock.MockPinHands` drives gpiozero's mock pins instead, so the device's own
  GPIO backend (:class:`hal.gpio.GpioInput`) reports the edges.

Either way the edges go through the same :class:`~hal.inputs.InputDecoder` as on the device:
a long press is a button held for ``hold_ms``, a shake is a train of tilt edges
(:class:`Shaker`), the throw comes when the train stops for ``settle_ms``.
"""

from __future__ import annotations

from typing import Protocol

from hal.ports import Button, Clock, Edge, EdgeSink, EdgeSource, InputBackend

__all__ = [
    "BUTTON_KEYS",
    "BUTTON_LABELS",
    "SHAKE_INTERVAL_S",
    "EdgeHands",
    "Hands",
    "HandsInput",
    "Say",
    "Shaker",
    "key_help",
]

#: The keyboard keys of the five buttons (the same in the window and the terminal).
BUTTON_KEYS: dict[str, Button] = {
    "1": Button.KEEP_1,
    "2": Button.KEEP_2,
    "3": Button.KEEP_3,
    "f": Button.FLIP,
    "s": Button.STAND,
}

#: The labels printed on the buttons of the drawn device.
BUTTON_LABELS: dict[Button, str] = {
    Button.KEEP_1: "1",
    Button.KEEP_2: "2",
    Button.KEEP_3: "3",
    Button.FLIP: "FLIP",
    Button.STAND: "STAND",
}

class Say(Protocol):
    """The simulator's words in the device's language now: a key of :mod:`sim.sim_words` (and
    its placeholders' values) to its text. The simulator's command line hands the front ends
    words that follow the device's menu, so that their help and captions speak the language of
    the screens."""

    def __call__(self, key: str, **values: object) -> str: ...


def key_help(t: Say) -> tuple[tuple[str, str], ...]:
    """Key help of the window's overlay, in ``t``'s language (the terminal has its own: it
    cannot tell a key held)."""
    return (
        ("1 2 3", t("sim_help_keep")),
        ("F", t("sim_help_flip")),
        ("S", t("sim_help_stand")),
        (t("sim_key_space"), t("sim_help_shake_window")),
        (t("sim_key_hold"), t("sim_help_hold")),
        (t("sim_key_help_window"), t("sim_help_help_window")),
        ("Esc", t("sim_help_quit")),
    )


#: Time between two tilt edges while the cup is shaken (a ball tilt switch rattles about as fast).
SHAKE_INTERVAL_S = 0.05


class Hands(Protocol):
    """What the user can do to the device: the front ends call this, never the decoder."""

    def press(self, button: Button) -> None:
        """Push ``button`` down (and keep it down)."""

    def release(self, button: Button) -> None:
        """Let ``button`` go."""

    def tilt(self, closed: bool) -> None:
        """Move the tilt switch's ball: closed (True) or open (False)."""


class HandsInput(Hands, InputBackend, Protocol):
    """Hands that are also the input backend the device's main loop reads: what the simulator
    builds for a front end (:class:`EdgeHands` or :class:`sim.gpio_mock.MockPinHands`)."""


class EdgeHands:
    """:class:`Hands` that are also an :class:`~hal.ports.InputBackend`: edges on the clock.

    Thread-safe as far as the sink is (the main loop's ``post`` is).
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._sink: EdgeSink | None = None

    def start(self, sink: EdgeSink) -> None:
        """Report edges to ``sink`` from now on."""
        self._sink = sink

    def close(self) -> None:
        """Report nothing more. Idempotent."""
        self._sink = None

    def press(self, button: Button) -> None:
        self._report(Edge(EdgeSource.BUTTON, True, self._clock.now(), button))

    def release(self, button: Button) -> None:
        self._report(Edge(EdgeSource.BUTTON, False, self._clock.now(), button))

    def tilt(self, closed: bool) -> None:
        self._report(Edge(EdgeSource.TILT, closed, self._clock.now()))

    def _report(self, edge: Edge) -> None:
        sink = self._sink
        if sink is not None:
            sink(edge)


class Shaker:
    """Shakes the cup: while it is on, the tilt switch changes every :data:`SHAKE_INTERVAL_S`.

    The front end calls :meth:`tick` from its own loop (it owns no thread); :meth:`next_due` says
    when the next edge is due, so a loop can sleep until then.
    """

    def __init__(self, hands: Hands, interval_s: float = SHAKE_INTERVAL_S) -> None:
        self._hands = hands
        self._interval_s = interval_s
        self._closed = False
        self._next_at: float | None = None

    @property
    def shaking(self) -> bool:
        """Whether the cup is being shaken."""
        return self._next_at is not None

    def start(self, now: float) -> None:
        """Begin shaking (the first edge comes at once); already shaking changes nothing."""
        if self._next_at is None:
            self._next_at = now
            self.tick(now)

    def stop(self) -> None:
        """Put the cup down: the edges stop, and the decoder turns the silence into a throw.

        The ball comes to rest open, so the switch's last edge is the one that opened it.
        """
        self._next_at = None
        if self._closed:
            self._closed = False
            self._hands.tilt(False)

    def next_due(self) -> float | None:
        """When the next tilt edge is due, or None when not shaking."""
        return self._next_at

    def tick(self, now: float) -> None:
        """Report the tilt edges due by ``now`` (at most one: a late loop does not burst)."""
        if self._next_at is None or now < self._next_at:
            return
        self._closed = not self._closed
        self._hands.tilt(self._closed)
        due = self._next_at + self._interval_s
        self._next_at = due if due > now else now + self._interval_s
