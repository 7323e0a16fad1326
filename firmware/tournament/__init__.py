"""The device as a table of a tournament: its reporter, its outbox, the recount of its journals.

It speaks to the hub over an MQTT broker in the messages of :mod:`firmware.wire`, the contract
below both programs (docs/tournament.md).
"""
