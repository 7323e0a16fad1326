"""The store wing: what the device keeps in its state directory, through the Storage port.

The journal of the game under way (:mod:`~firmware.store.journal`) and the finished games
(:mod:`~firmware.store.gamestore`), their statistics (:mod:`~firmware.store.stats`), the
remembered names (:mod:`~firmware.store.roster`), the last setup (:mod:`~firmware.store.setupfile`),
and the bounded reading of a user's own files (:mod:`~firmware.userfile`,
:mod:`~firmware.store.rulesfile`).
"""
