"""The hardware abstraction: the ports the firmware needs, and the backends that fill them.

Two kinds of module live here.

Port level, which the firmware may import (no hardware library, nothing platform-specific):

* :mod:`hal.ports`: the protocols (input edges, display, clock, storage, link) and their values;
* :mod:`hal.inputs`: the decoder every input backend's edges pass through (debounce, long
  press, shake detection on the main loop's clock);
* :mod:`hal.power`: dimming and sleeping any display when nobody touches the device;
* :mod:`hal.settings`: pins and display settings as checked values.

Backends, which only the wiring (:mod:`firmware.wiring`, ``schocken run``) imports, by name:

* :mod:`hal.gpio` (gpiozero), :mod:`hal.oled` and :mod:`hal.redraw` (luma.oled),
  :mod:`hal.serial_link` (pyserial), :mod:`hal.clock` (the monotonic clock),
  :mod:`hal.storage` (the state directory on a real filesystem).

Each hardware library is imported inside its own backend module only, and only when a backend is
built, so a laptop without gpiozero or luma can still load everything else.
"""
