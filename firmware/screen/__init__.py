"""The screen wing: what the OLED shows and in which words.

Frozen views (:mod:`~firmware.screen.views`), their rendering to a 128x64 1-bit image
(:mod:`~firmware.screen.screens`) with the device's own bitmap fonts (:mod:`~firmware.screen.font`),
the screen's words in German and English (:mod:`~firmware.screen.oled_words`), the rules in
force as text (:mod:`~firmware.screen.rulestext`), a rules file's throw names measured
against the turn screen (:mod:`~firmware.screen.throwname`) and the screen shown when the device
cannot start (:mod:`~firmware.screen.error_screen`).
"""
