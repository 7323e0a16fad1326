"""The main loop: the one thread that runs the device.

Input backends call :meth:`MainLoop.post` from their own threads (gpiozero's callback thread, a
window's event thread, a serial reader); everything else happens here, in order::

    wait until an edge arrives or the earliest deadline (the decoder's or a timer's) passes
    feed the edge to the input decoder
    for each decoded input: wake the display (a press that only woke it is swallowed), app.handle
    run the timers: the app, the power manager, then the other timers the loop was given
    push app.screen() to the display if it changed, and show it to the frame listeners

Timers (:class:`~hal.ports.Timed`) are an explicit list: the app and the power manager, plus
whatever backends were handed over as ``timers`` (the OLED's reconnection). A wrapper in front
of the display could hide the display's timers if the loop looked for them on the display; so
the loop never looks, and whoever else wants to see the frames (the serial link's host) is a
frame listener beside the display, not a wrapper around it.

The loop sleeps in :meth:`~hal.ports.Clock.wait`; with nothing pending the real clock blocks on
the queue without a timeout, so an idle device does not wake up at all. On a fake clock
(:class:`sim.fakes.FakeClock`) the same loop runs as fast as the code allows, jumping from
deadline to deadline, and :meth:`MainLoop.run` returns once nothing is pending.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PIL import Image

from hal.inputs import InputDecoder
from hal.ports import Clock, Display, Edge, EdgeSource, InputBackend, InputEvent, Timed
from hal.power import PowerManager, PowerState

__all__ = ["App", "FrameListener", "MainLoop"]

logger = logging.getLogger(__name__)

#: Returned by the queue poll when the loop must look at its call queue or stop flag.
_WAKE = Edge(EdgeSource.TILT, False, float("-inf"))


class App(Timed, Protocol):
    """What the loop needs from the device app (:class:`firmware.app.device.DeviceApp`): its timers,
    and these."""

    @property
    def contrast(self) -> int:
        """The panel contrast the app wants (0-255)."""

    def handle(self, event: InputEvent) -> None: ...

    def screen(self) -> Image.Image: ...


#: Sees every frame the loop gives the display, right after the display (the serial link's host).
FrameListener = Callable[[Image.Image], None]


class MainLoop:
    """Runs ``app`` against input backends, a decoder, a display and an optional power manager.

    ``timers`` are further objects with timers the loop drives after the app and the power
    manager (a :class:`~hal.oled.ResilientDisplay` retrying an unplugged panel);
    ``frame_listeners`` see every frame the display is given.
    """

    def __init__(
        self,
        app: App,
        *,
        clock: Clock,
        inputs: Sequence[InputBackend],
        decoder: InputDecoder,
        display: Display,
        power: PowerManager | None = None,
        timers: Sequence[Timed] = (),
        frame_listeners: Sequence[FrameListener] = (),
    ) -> None:
        self.app = app
        self.clock = clock
        self.inputs = list(inputs)
        self.decoder = decoder
        self.display = display
        self.power = power
        #: Everything with timers, advanced in this order once the inputs are handled.
        self.timers: list[Timed] = [app, *([power] if power is not None else []), *timers]
        self.frame_listeners = list(frame_listeners)
        self._queue: queue.SimpleQueue[Edge | Callable[[], Any] | None] = queue.SimpleQueue()
        self._calls: list[Callable[[], Any]] = []
        self._stopping = False
        self._started = False
        self._shown: Image.Image | None = None
        self._contrast: int | None = None
        #: Decoded inputs swallowed because they only woke the display.
        self.swallowed = 0

    # --- thread-safe entry points ---------------------------------------------------------------

    def post(self, edge: Edge) -> None:
        """Queue an edge for the loop. Safe from any thread (the backends' sink)."""
        self._queue.put(edge)

    def call_soon(self, function: Callable[[], Any]) -> None:
        """Run ``function`` on the loop's thread at its next step. Safe from any thread."""
        self._queue.put(function)

    def stop(self) -> None:
        """Make :meth:`run` return after the current step. Safe from any thread."""
        self._queue.put(None)

    def add_frame_listener(self, listener: FrameListener) -> None:
        """Show ``listener`` every frame from now on (a host of the link, the table's page)."""
        self.frame_listeners.append(listener)

    def add_timer(self, timer: Timed) -> None:
        """Drive ``timer`` too, after the others (a part built once the loop was: the
        tournament's reporter, which calls into the loop)."""
        self.timers.append(timer)

    def add_input(self, backend: InputBackend) -> None:
        """Read ``backend`` too, from now on if the loop has started (``schocken run`` shows its
        first frame before it loads the GPIO library)."""
        self.inputs.append(backend)
        if self._started:
            backend.start(self.post)

    # --- running --------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the input backends (done by the first :meth:`run`) and show the first frame."""
        if self._started:
            return
        self._started = True
        for backend in self.inputs:
            backend.start(self.post)
        self._present()

    def run(self, until: float | None = None) -> None:
        """Run until :meth:`stop`, until the clock reaches ``until``, or (on a fake clock) idle."""
        self.start()
        self._stopping = False
        while not self._stopping:
            now = self.clock.now()
            if until is not None and now >= until:
                return
            deadline = self.next_deadline()
            if until is not None:
                deadline = until if deadline is None else min(deadline, until)
            edge = self.clock.wait(deadline, self._poll)
            self.step(edge)
            if edge is None and deadline is None:
                return  # only a fake clock comes back without an edge and without a deadline

    def next_deadline(self) -> float | None:
        """The earliest time something is due: input timing, app timers, dimming, reconnecting."""
        candidates = [self.decoder.next_deadline(), *(t.next_deadline() for t in self.timers)]
        return min((c for c in candidates if c is not None), default=None)

    def step(self, edge: Edge | None = None) -> None:
        """One turn of the loop: feed ``edge``, hand decoded inputs on, run timers, redraw."""
        if edge is _WAKE:
            calls, self._calls = self._calls, []
            for call in calls:
                call()
        elif edge is not None:
            self.decoder.feed(edge)
        now = self.clock.now()
        for event in self.decoder.advance(now):
            if self._wakes_only(event):
                self.swallowed += 1
                logger.debug("%s woke the display and was swallowed", event.kind.value)
                continue
            logger.debug("input %s %s", event.kind.value, event.button or "")
            self.app.handle(event)
        for timer in self.timers:
            timer.advance(now)
        self._present()

    def deliver(self, event: InputEvent) -> None:
        """A host's input (the link's, a page's), on the loop's thread, as the buttons' go: it
        counts as activity and wakes the panel, but it is never swallowed, since the host acted
        on the frame it saw, not on a dark panel."""
        self._wakes_only(event)
        logger.debug("remote input %s %s", event.kind.value, event.button or "")
        self.app.handle(event)

    def close(self) -> None:
        """Close the input backends. Idempotent."""
        for backend in self.inputs:
            backend.close()

    # --- internals ------------------------------------------------------------------------------

    def _poll(self, timeout: float | None) -> Edge | None:
        try:
            item = self._queue.get(block=timeout != 0, timeout=timeout or None)
        except queue.Empty:
            return None
        if item is None:
            self._stopping = True
            return _WAKE
        if isinstance(item, Edge):
            return item
        self._calls.append(item)
        return _WAKE

    def _wakes_only(self, event: InputEvent) -> bool:
        """Tell the power manager; True if the panel was asleep, so the input only woke it.

        A dimmed panel is still readable, so an input while dimmed brightens it and acts.
        """
        if self.power is None:
            return False
        asleep = self.power.state is PowerState.ASLEEP
        self.power.activity(event.at)
        return asleep

    def _present(self) -> None:
        contrast = self.app.contrast
        if contrast != self._contrast:
            self._contrast = contrast
            if self.power is not None:
                self.power.set_contrast(contrast)
            else:
                self.display.contrast(contrast)
        image = self.app.screen()
        if image is not self._shown:
            self._shown = image
            self.display.display(image)
            for listener in self.frame_listeners:
                listener(image)
