"""The device application: decoded inputs in, engine actions and screens out.

The app is a shell (:class:`DeviceApp`, in :mod:`firmware.app.device`) around small stages, one
per step of the game flow, each in its own module with its buttons and its screen:

=====================================  =========================================================
module                                 what it holds
=====================================  =========================================================
:mod:`~firmware.app.setup`             the setup: players, names, computer seats, rules, Deckel,
                                       start
:mod:`~firmware.app.naming`            a seat's name: the remembered names and the letter wheel
:mod:`~firmware.app.rolloff`           the roll-off (auswürfeln) that decides who opens
:mod:`~firmware.app.turn`              the hand-over, a turn (KEEP, FLIP, STAND, the hint), the
                                       dice after a last throw
:mod:`~firmware.app.reveal`            the reveal after a round, and the banners (penalty, lost
                                       half, end of the game, goodbye)
:mod:`~firmware.app.hint`              the hint overlay (long press on FLIP), private to the holder
:mod:`~firmware.app.menu`              the menu (long press on STAND) and its dialogs, and the
                                       rules in force during a game
:mod:`~firmware.app.overlays`          menu, picker and message overlays: their buttons
:mod:`~firmware.app.bots`              computer players' turns, one visible step at a time
:mod:`~firmware.app.table`             the game, its computer players, journal-then-sink
                                       ``apply``, and the round log that picks the next stages
:mod:`~firmware.app.context`           the session: settings, language, brightness, storage
:mod:`~firmware.app.resume`            going on after a power cut
:mod:`~firmware.store.setupfile`          ``setup.json``
:mod:`~firmware.app.stage`             the stage protocol and the transitions
:mod:`~firmware.app.timing`            the app's timer constants
=====================================  =========================================================

A long press on STAND opens the menu from anywhere; a long press on FLIP during a turn shows a hint
(:mod:`firmware.advice`), unless the rules switch hints off. Buttons in menus: KEEP_1/KEEP_2 are
up/down (or - and +), KEEP_3 and STAND are OK, FLIP goes back.
"""

from firmware.app.context import EventSink
from firmware.app.device import DeviceApp
from firmware.app.menu import BRIGHTNESS_LEVELS
from firmware.app.timing import BOT_PAUSE_S, BOT_STEP_S
from firmware.store.setupfile import SETUP_FILE

__all__ = ["BOT_PAUSE_S", "BOT_STEP_S", "BRIGHTNESS_LEVELS", "SETUP_FILE", "DeviceApp", "EventSink"]
