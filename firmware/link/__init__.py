"""The link wing: everything that leaves the device as a line, and every line that comes in.

The protocol's syntax and its commands (:mod:`~firmware.link.protocol`), the device's end of a
connection (:mod:`~firmware.link.remote`), the event and state lines made once for the link and
every page (:mod:`~firmware.link.feed`), what the table may see of the events, the state and the
log (:mod:`~firmware.link.tablefeed`), who may change the game from outside
(:mod:`~firmware.link.pairing`, decided per host by :mod:`~firmware.link.connection`), how a
host acts on the app (:mod:`~firmware.link.hooks`) and the table's web page
(:mod:`~firmware.link.webtable`, the page itself in ``web/table.html``; its gate under a crowd
:mod:`~firmware.link.crowd`, its Spieltag :mod:`~firmware.link.evening_page`).
"""
