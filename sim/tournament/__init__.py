"""A tournament on one machine: simulated tables, a whole tournament with faults, the demo.

:mod:`sim.tournament.simulated_table` is one table's device headless (its real journal, outbox
and reporter), :mod:`sim.tournament.whole_tournament` plays a tournament on many of them with the
hub and a real broker (:mod:`sim.tournament.cutoff` cuts a table off silently),
:mod:`sim.tournament.demo` is ``make tournament-demo``, and :mod:`sim.tournament.processes`
starts, waits for and stops the child processes they need (a private mosquitto, ``schocken hub
serve``). All but ``processes`` put the firmware together.
"""
