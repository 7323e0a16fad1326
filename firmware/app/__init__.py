"""The device application: decoded inputs in, engine actions and screens out.

The app runs one way, through four layers, each importing only those below it:

=====================================  =========================================================
where                                  what it holds
=====================================  =========================================================
:mod:`~firmware.app.session`           below the screens: the game and its computer players
                                       (:mod:`~.session.table`), settings, language, storage and
                                       starting games (:mod:`~.session.session`), going on after
                                       a power cut (:mod:`~.session.resume`), and the moments
                                       that say what comes next (:mod:`~.session.moments`)
:mod:`~firmware.app.stages`            the screens, one module a step: the setup
                                       (:mod:`~.stages.setup`), names (:mod:`~.stages.naming`),
                                       the roll-off (:mod:`~.stages.rolloff`), a turn and its
                                       hand-over (:mod:`~.stages.turn`, computer players in
                                       :mod:`~.stages.bot_driver`), the reveal and banners
                                       (:mod:`~.stages.reveal`), the menu (:mod:`~.stages.menu`),
                                       the hint (:mod:`~.stages.hint`), "Weiterspielen?"
                                       (:mod:`~.stages.resume_question`), the overlays
                                       (:mod:`~.stages.overlays`), the protocol and transitions
                                       (:mod:`~.stages.base`) and the timings
                                       (:mod:`~.stages.timing`)
:mod:`~firmware.app.flow`              the router: the one place a moment becomes a stage
:mod:`~firmware.app.device`            the shell, :class:`DeviceApp`: routes inputs and timers
                                       to the current stage or the top overlay
=====================================  =========================================================

The session imports no stage and no router; a stage imports neither the router nor the shell.
This package imports none of them itself, so that loading the session loads no screen: import
:class:`~firmware.app.device.DeviceApp` from :mod:`firmware.app.device`.

A long press on STAND opens the menu from anywhere; a long press on FLIP during a turn shows a hint
(:mod:`firmware.advice`), unless the rules switch hints off. Buttons in menus: KEEP_1/KEEP_2 are
up/down (or - and +), KEEP_3 and STAND are OK, FLIP goes back.
"""

