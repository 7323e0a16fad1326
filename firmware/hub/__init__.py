"""The tournament director's hub: its SQLite store, the intake of results, its commands, its view.

A program of its own beside the device: it imports nothing of the device's app, link, screen,
store, wiring or tournament side, and they import nothing of it
(``tests/architecture/test_two_programs.py``); what both need lives below both (the engine,
:mod:`firmware.wire`, :mod:`firmware.report`, :mod:`firmware.names`, the words).
"""
