"""The pictures of the README and docs/, made by ``make docs-images``.

:mod:`sim.pictures.docs` holds the list of every picture and makes them (the demo GIF and the
window itself); :mod:`sim.pictures.browser` takes the table's pages in headless Chromium (the
board, the entry page, the Spieltag card), and :mod:`sim.pictures.league_match` draws a seeded
league match's Spielberichtsbogen and the device's Spieltag and scharf screens. They sit at the
simulator's edge: they put the firmware together.
"""
