"""Turn raw edges into input events: debounce, long press and shake detection.

The decoder is pure timing logic. It has no threads and imports no hardware library: backends
report :class:`~hal.ports.Edge` values stamped with the :class:`~hal.ports.Clock`, the main loop
feeds them in with :meth:`InputDecoder.feed`, and collects events with
:meth:`InputDecoder.advance`. Between edges the loop sleeps until
:meth:`InputDecoder.next_deadline`, so nothing polls busily.

Why not let gpiozero do this? gpiozero offers ``bounce_time`` and ``when_held``, but its
``MockPin`` ignores ``bounce_time`` and ``when_held`` fires from a hold thread on the wall clock.
Neither could be tested deterministically, and lgpio's debounce is a stability filter that would
swallow the tilt switch's rattle, which is exactly what shake detection counts. So the GPIO backend
reports every edge undebounced and all timing lives here, measured on the main loop's clock: on a
fake clock in tests and scripts, on ``time.monotonic`` on the device.

Rules, with the thresholds of :class:`InputTiming`:

* Buttons, each one independently: a level change counts once the new level has been stable for
  ``debounce_ms``; shorter contact chatter produces nothing. A release before ``hold_ms`` is a
  PRESS (stamped with the release). Held for ``hold_ms`` is a LONG_PRESS, fired at that moment,
  once; the release after it produces nothing.
* Tilt switch: ``shake_edges`` edges within ``shake_window_ms`` are SHAKE_START (once per shake);
  then no edge for ``settle_ms`` is THROW. A shake that pauses and resumes within ``settle_ms``
  is one shake. Fewer edges (a bump on the table) produce nothing.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from hal.ports import Button, Edge, EdgeSource, InputEvent, InputKind

__all__ = ["InputDecoder", "InputTiming"]


@dataclass(frozen=True, slots=True)
class InputTiming:
    """Input thresholds in milliseconds (defaults as in deploy/config.toml, section [input])."""

    debounce_ms: int = 30
    hold_ms: int = 800
    shake_edges: int = 4
    shake_window_ms: int = 600
    settle_ms: int = 400

    def __post_init__(self) -> None:
        for key in ("debounce_ms", "hold_ms", "shake_edges", "shake_window_ms", "settle_ms"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"input.{key} must be a whole number, not {value!r}")
        if self.debounce_ms < 0:
            raise ValueError(f"input.debounce_ms must be 0 or more, not {self.debounce_ms}")
        if self.hold_ms <= self.debounce_ms:
            raise ValueError(
                f"input.hold_ms must be greater than debounce_ms ({self.debounce_ms}), "
                f"not {self.hold_ms}"
            )
        if self.shake_edges < 2:
            raise ValueError(f"input.shake_edges must be 2 or more, not {self.shake_edges}")
        if self.shake_window_ms <= 0:
            raise ValueError(
                f"input.shake_window_ms must be greater than 0, not {self.shake_window_ms}"
            )
        if self.settle_ms <= 0:
            raise ValueError(f"input.settle_ms must be greater than 0, not {self.settle_ms}")

    @property
    def debounce_s(self) -> float:
        """The debounce time in seconds."""
        return self.debounce_ms / 1000

    @property
    def hold_s(self) -> float:
        """The long-press hold time in seconds."""
        return self.hold_ms / 1000

    @property
    def shake_window_s(self) -> float:
        """The window in which ``shake_edges`` tilt edges mean shaking, in seconds."""
        return self.shake_window_ms / 1000

    @property
    def settle_s(self) -> float:
        """The quiet time after which a shake ends in a throw, in seconds."""
        return self.settle_ms / 1000


class _ButtonTracker:
    """One button's debounce and hold state machine."""

    def __init__(self, button: Button, timing: InputTiming) -> None:
        self._button = button
        self._timing = timing
        self._raw_down = False
        self._raw_since = 0.0
        self._stable_down = False
        self._pressed_at = 0.0
        self._long_fired = False

    def on_edge(self, down: bool, at: float) -> None:
        """Record a raw level change; repeated reports of the same level change nothing."""
        if down != self._raw_down:
            self._raw_down = down
            self._raw_since = at

    def deadline(self) -> float | None:
        """When this button next needs attention, or None."""
        if self._raw_down != self._stable_down:
            return self._raw_since + self._timing.debounce_s
        if self._stable_down and not self._long_fired:
            return self._pressed_at + self._timing.hold_s
        return None

    def fire(self, at: float) -> InputEvent | None:
        """Handle the deadline that is due at ``at``; return the event it produced, if any."""
        if self._raw_down != self._stable_down:
            self._stable_down = self._raw_down
            if self._stable_down:
                # The press counts from the moment the contact settled, not from the debounce.
                self._pressed_at = self._raw_since
                self._long_fired = False
                return None
            if self._long_fired:
                return None
            return InputEvent(InputKind.PRESS, self._raw_since, self._button)
        if self._stable_down and not self._long_fired:
            self._long_fired = True
            return InputEvent(InputKind.LONG_PRESS, at, self._button)
        return None


class _ShakeTracker:
    """Counts tilt edges: a burst of them starts a shake, silence afterwards is the throw."""

    def __init__(self, timing: InputTiming) -> None:
        self._timing = timing
        self._recent: deque[float] = deque()
        self._shaking = False
        self._last_edge = 0.0

    def on_edge(self, at: float) -> InputEvent | None:
        """Count one tilt edge; return SHAKE_START when it completes the threshold."""
        self._last_edge = at
        if self._shaking:
            return None
        self._recent.append(at)
        while at - self._recent[0] > self._timing.shake_window_s:
            self._recent.popleft()
        if len(self._recent) >= self._timing.shake_edges:
            self._shaking = True
            self._recent.clear()
            return InputEvent(InputKind.SHAKE_START, at)
        return None

    def deadline(self) -> float | None:
        """When the current shake settles into a throw, or None when not shaking."""
        if self._shaking:
            return self._last_edge + self._timing.settle_s
        return None

    def fire(self, at: float) -> InputEvent | None:
        """The cup has been still for ``settle_ms``: the dice are thrown."""
        if not self._shaking:
            return None
        self._shaking = False
        return InputEvent(InputKind.THROW, at)


class InputDecoder:
    """Decodes edges into :class:`~hal.ports.InputEvent` values on the caller's clock.

    Usage on the main loop::

        edge = clock.wait(decoder.next_deadline(), poll)
        if edge is not None:
            decoder.feed(edge)
        for event in decoder.advance(clock.now()):
            handle(event)

    Events come out in time order; each is stamped with the moment it happened (a PRESS with
    its release, a LONG_PRESS with ``press + hold_ms``, a THROW with ``last edge + settle_ms``).
    Edges stamped earlier than what the decoder has already processed (two callback threads
    racing for the queue) are treated as happening at the decoder's current time.
    """

    def __init__(self, timing: InputTiming | None = None) -> None:
        self.timing = timing if timing is not None else InputTiming()
        self._buttons = {button: _ButtonTracker(button, self.timing) for button in Button}
        self._shake = _ShakeTracker(self.timing)
        self._trackers: tuple[_ButtonTracker | _ShakeTracker, ...] = (
            *self._buttons.values(),
            self._shake,
        )
        self._time = float("-inf")
        self._ready: list[InputEvent] = []

    def feed(self, edge: Edge) -> None:
        """Take one edge. Timers due before it fire first; collect events with :meth:`advance`."""
        at = max(edge.at, self._time)
        self._run_timers(at)
        self._time = at
        if edge.source is EdgeSource.TILT:
            event = self._shake.on_edge(at)
            if event is not None:
                self._ready.append(event)
        else:
            if edge.button is None:
                raise ValueError(f"a button edge needs its button: {edge!r}")
            self._buttons[edge.button].on_edge(edge.active, at)

    def advance(self, now: float) -> list[InputEvent]:
        """Fire every timer due at or before ``now`` and return all events decoded so far."""
        # ">=": an edge can bring back a deadline already passed (a release shorter than the
        # debounce puts a held button's hold deadline back); it must fire now, not never.
        if now >= self._time:
            self._run_timers(now)
            self._time = now
        ready, self._ready = self._ready, []
        return ready

    def next_deadline(self) -> float | None:
        """The earliest time :meth:`advance` has something to do, or None if nothing is pending.

        With events waiting to be collected this is the current time, so the loop does not sleep.
        """
        if self._ready:
            return self._time
        deadlines = [d for d in (t.deadline() for t in self._trackers) if d is not None]
        return min(deadlines, default=None)

    def _run_timers(self, until: float) -> None:
        """Fire due timers one at a time, earliest first, so events stay in time order."""
        while True:
            due: tuple[float, _ButtonTracker | _ShakeTracker] | None = None
            for tracker in self._trackers:
                deadline = tracker.deadline()
                if deadline is None or deadline > until:
                    continue
                if due is None or deadline < due[0]:
                    due = (deadline, tracker)
            if due is None:
                return
            event = due[1].fire(due[0])
            if event is not None:
                self._ready.append(event)
