"""Scripted play: a text file of actions turned into the edges a player's hands would make.

One action per line; blank lines and ``#`` comments are ignored::

    # Anna throws twice and stands
    shake
    keep1
    shake
    stand
    hold flip        # a long press
    wait 2.5         # seconds of simulated time

``keep1``, ``keep2``, ``keep3``, ``flip`` and ``stand`` are short presses, ``hold BUTTON`` a long
press, ``shake`` a whole shake (the tilt switch rattles, then the cup is put down), ``wait
SECONDS`` lets time pass. :func:`parse_script` checks a script and names the line of the first
problem; :class:`ScriptInput` is an input backend that reports every edge of the script at
once, each stamped with its moment on the clock. On :class:`~sim.fakes.FakeClock` the main loop
jumps from one moment to the next, so a script plays much faster than it describes.
"""

from __future__ import annotations

import bisect
import enum
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hal.inputs import InputTiming
from hal.ports import Button, Clock, Edge, EdgeSink, EdgeSource

__all__ = [
    "MAX_SCRIPT_BYTES",
    "MAX_SCRIPT_S",
    "MAX_WAIT_S",
    "ActionKind",
    "ScriptAction",
    "ScriptError",
    "ScriptInput",
    "ScriptPacing",
    "load_script",
    "parse_script",
    "script_edges",
]

#: The longest script file read (a whole game is a few kilobytes).
MAX_SCRIPT_BYTES = 1024 * 1024
#: The longest ``wait``: an hour of simulated time, longer than any of the device's timers'
#: defaults (the display sleeps after 10 minutes).
MAX_WAIT_S = 3600
#: The whole script's simulated time: a day.
MAX_SCRIPT_S = 24 * 3600
_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]+)?", re.ASCII)
_BUTTON_WORDS = {button.value: button for button in Button}
_ALLOWED = "keep1, keep2, keep3, flip, stand, hold BUTTON, shake, wait SECONDS"


class ScriptError(ValueError):
    """A script line that is not an action; the message names the line and what is allowed."""


class ActionKind(enum.Enum):
    """What one script line does."""

    PRESS = "press"
    HOLD = "hold"
    SHAKE = "shake"
    WAIT = "wait"


@dataclass(frozen=True, slots=True)
class ScriptAction:
    """One parsed line: its kind, the button (press, hold), the seconds (wait), its line number."""

    kind: ActionKind
    line: int
    button: Button | None = None
    seconds: float = 0.0


def parse_script(text: str, source: str = "script") -> list[ScriptAction]:
    """The actions of ``text``; a :class:`ScriptError` names ``source`` and the bad line."""
    actions: list[ScriptAction] = []
    waited = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        action = _parse_line(words, number, source, raw.strip())
        waited += action.seconds
        if waited > MAX_SCRIPT_S:
            raise ScriptError(
                f"{source} line {number}: the waits add up to more than {MAX_SCRIPT_S} seconds "
                "(a day of simulated time); split the script"
            )
        actions.append(action)
    return actions


def load_script(path: str | Path) -> list[ScriptAction]:
    """Read and parse a script file (UTF-8, at most :data:`MAX_SCRIPT_BYTES`).

    An unreadable file is an OSError; one that is too long or not UTF-8 text, or a bad line, a
    :class:`ScriptError`.
    """
    path = Path(path)
    with open(path, "rb") as stream:  # bounded: a mistaken --script /dev/zero ends at once
        data = stream.read(MAX_SCRIPT_BYTES + 1)
    advice = "give a text file with one action per line"
    if len(data) > MAX_SCRIPT_BYTES:
        raise ScriptError(
            f"{path} is longer than {MAX_SCRIPT_BYTES} bytes, too long for a script; {advice}"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = f"byte {error.start} is 0x{data[error.start]:02x}"
        raise ScriptError(f"{path} is not a script: not UTF-8 text ({bad}); {advice}") from None
    return parse_script(text, str(path))


def _parse_line(words: list[str], number: int, source: str, shown: str) -> ScriptAction:
    def problem(what: str) -> ScriptError:
        return ScriptError(f"{source} line {number}: {what} in {shown!r}; use {_ALLOWED}")

    # Only ASCII letters fold to lower case: "\u212aeep1" (a Kelvin sign) is no "keep1".
    verb, arguments = _ascii_lower(words[0]), words[1:]
    if verb in _BUTTON_WORDS:
        if arguments:
            raise problem(f"{verb} takes nothing after it")
        return ScriptAction(ActionKind.PRESS, number, button=_BUTTON_WORDS[verb])
    if verb == "hold":
        button = _ascii_lower(arguments[0]) if len(arguments) == 1 else ""
        if button not in _BUTTON_WORDS:
            raise problem("hold needs one button (keep1, keep2, keep3, flip or stand)")
        return ScriptAction(ActionKind.HOLD, number, button=_BUTTON_WORDS[button])
    if verb == "shake":
        if arguments:
            raise problem("shake takes nothing after it")
        return ScriptAction(ActionKind.SHAKE, number)
    if verb == "wait":
        seconds = _seconds(arguments)
        if seconds is None:
            raise problem(f"wait needs seconds from 0 to {MAX_WAIT_S}, in digits 0-9 (e.g. 2.5)")
        return ScriptAction(ActionKind.WAIT, number, seconds=seconds)
    raise problem(f"unknown action {words[0]!r}")


def _ascii_lower(word: str) -> str:
    """``word`` in lower case if it is ASCII; other words stay as they are (and match nothing)."""
    return word.lower() if word.isascii() else word


def _seconds(arguments: list[str]) -> float | None:
    """``wait``'s seconds: ASCII digits with an optional fraction, at most :data:`MAX_WAIT_S`."""
    if len(arguments) != 1 or not _SECONDS.fullmatch(arguments[0]):
        return None
    seconds = float(arguments[0])
    return seconds if seconds <= MAX_WAIT_S else None


@dataclass(frozen=True, slots=True)
class ScriptPacing:
    """How a scripted player moves, in seconds.

    ``press_s`` is how long a short press stays down, ``hold_extra_s`` how much longer than the
    decoder's ``hold_ms`` a long press is held, ``shake_s`` how long the cup is shaken (the tilt
    switch changes every ``rattle_s``). After every action the player pauses ``pause_s``; after a
    shake, ``throw_pause_s`` from the throw on, so the dice are seen before the next move.
    """

    press_s: float = 0.12
    hold_extra_s: float = 0.2
    shake_s: float = 0.7
    rattle_s: float = 0.05
    pause_s: float = 0.6
    throw_pause_s: float = 1.5


def script_edges(
    actions: Iterable[ScriptAction],
    start: float,
    timing: InputTiming | None = None,
    pacing: ScriptPacing | None = None,
) -> tuple[list[Edge], float]:
    """The edges of ``actions`` from ``start`` on, in time order, and the moment the script ends.

    The shake is built from the decoder's ``timing`` so that it is long enough to be detected
    (``shake_edges`` within ``shake_window_ms``) whatever the configuration says.
    """
    edges, _, end = _script_timeline(actions, start, timing, pacing)
    return edges, end


def _script_timeline(
    actions: Iterable[ScriptAction],
    start: float,
    timing: InputTiming | None,
    pacing: ScriptPacing | None,
) -> tuple[list[Edge], list[float], float]:
    """:func:`script_edges`' edges, when each action begins, and the moment the script ends, in
    one pass over the actions."""
    timing = timing if timing is not None else InputTiming()
    pacing = pacing if pacing is not None else ScriptPacing()
    rattle = min(pacing.rattle_s, timing.shake_window_s / (timing.shake_edges + 1))
    rattles = max(math.ceil(pacing.shake_s / rattle), timing.shake_edges + 2)
    rattles += rattles % 2  # an even count: the ball comes to rest open
    edges: list[Edge] = []
    starts: list[float] = []
    at = start
    for action in actions:
        starts.append(at)
        if action.kind is ActionKind.WAIT:
            at += action.seconds
        elif action.kind is ActionKind.SHAKE:
            for index in range(rattles):
                edges.append(Edge(EdgeSource.TILT, index % 2 == 0, at + index * rattle))
            last = at + (rattles - 1) * rattle
            at = last + timing.settle_s + pacing.throw_pause_s
        else:
            held = (
                pacing.press_s
                if action.kind is ActionKind.PRESS
                else timing.hold_s + pacing.hold_extra_s
            )
            edges.append(Edge(EdgeSource.BUTTON, True, at, action.button))
            edges.append(Edge(EdgeSource.BUTTON, False, at + held, action.button))
            at += held + pacing.pause_s
    return edges, starts, at


class ScriptInput:
    """An :class:`~hal.ports.InputBackend` that plays a script on the clock.

    The script starts at the clock's time when the backend is made; :attr:`end` is the moment it
    is over. Edges are reported, each stamped with its moment, when the runner calls
    :meth:`play_until` (a loop on :class:`~sim.fakes.FakeClock` then jumps from one to the next);
    so the runner can stop feeding the script, for example when the game is over.
    """

    def __init__(
        self,
        actions: Iterable[ScriptAction],
        clock: Clock,
        timing: InputTiming | None = None,
        pacing: ScriptPacing | None = None,
    ) -> None:
        self.actions = list(actions)
        #: The edges, when each action begins (its first edge; a wait, when it starts waiting),
        #: and when the script is over.
        self.edges, self.starts, self.end = _script_timeline(
            self.actions, clock.now(), timing, pacing
        )
        self._fed_until = clock.now()
        self._next = 0
        self._sink: EdgeSink | None = None

    @property
    def played(self) -> int:
        """How many actions have begun: those the runner has fed (see :meth:`play_until`)."""
        return bisect.bisect_left(self.starts, self._fed_until)

    def start(self, sink: EdgeSink) -> None:
        """Report edges to ``sink`` from now on (see :meth:`play_until`)."""
        self._sink = sink

    def play_until(self, until: float) -> None:
        """Report the edges stamped before ``until`` that have not been reported yet."""
        sink = self._sink
        if sink is None:
            raise RuntimeError("the script input is not started")
        while self._next < len(self.edges) and self.edges[self._next].at < until:
            sink(self.edges[self._next])
            self._next += 1
        self._fed_until = max(self._fed_until, until)

    def close(self) -> None:
        """Nothing to release."""
