"""Schockbesteck's composition root: the `schocken` command, above the firmware and the simulator.

Nothing in ``engine``, ``hal``, ``firmware`` or ``sim`` imports this package.
"""
