"""The tournament's wire contract, below the device and the hub: the topic tree and its messages
(:mod:`~firmware.wire.messages`), and the broker's configuration and ACL as text
(:mod:`~firmware.wire.broker`). Both programs import it; it imports neither (docs/tournament.md).
"""
