"""The bench, ``schocken bench``: every measurement of this build and the figures it reports.

Its command line (:mod:`sim.bench.cli`) runs :mod:`sim.bench.measure`, which takes each
measurement in turn: two whole games on the device's wiring (:mod:`sim.bench.whole_game`), the
table's page under load (:mod:`sim.bench.web`), a real-dice table's entries
(:mod:`sim.bench.dice_entry`), a tournament's hub with 100 tables (:mod:`sim.bench.hub_load`) and
an evening's sheet (:mod:`sim.bench.evening_sheet`); :mod:`sim.bench.figures` is the one
measurement they all return. The bench sits at the simulator's edge: it puts the firmware together.
"""
