"""The simulator's question over a game a power cut interrupted: "Weiterspielen?".

The device goes on by itself after a pulled plug (the players are still at the table). The
simulator asks first: :class:`ResumeQuestion` lies over the resumed game and says whose game it
is and where it stands; OK goes on, "Neu" (after a confirmation) drops it for a new game.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import GameSetup
from firmware.app.session.session import Session
from firmware.app.stages.base import (
    CLOSE_ALL,
    OK_BUTTONS,
    Goto,
    Overlay,
    Push,
    Step,
    Transition,
    close_step,
)
from firmware.app.stages.overlays import Menu
from firmware.app.stages.players import shown_name
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords, section_name
from firmware.screen.views import BannerView
from hal.ports import SCREEN_SIZE, Button, InputEvent, InputKind

__all__ = ["ResumeQuestion"]


@dataclass(eq=False)
class ResumeQuestion(Overlay):
    """"Weiterspielen?" over a resumed game: its players, its half and round, who throws.

    KEEP_3 or STAND (OK) and FLIP (back) go on with the game; KEEP_1 ("Neu") asks once more,
    then drops the game and starts ``instead`` (the game the command line asked for) or, without
    one, the setup; the seats' computer players are ``instead_bots`` again (the resumed game
    brought its own). ``whose`` is the player whose screen comes back on OK (the question says
    so: after someone's last throw that is they, not the next to throw), None for the roll-off
    and the reveal.
    """

    session: Session
    instead: GameSetup | None = None
    instead_bots: tuple[str, ...] = ()
    whose: str | None = None

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if event.button in (*OK_BUTTONS, Button.FLIP):
            return CLOSE_ALL
        if event.button is Button.KEEP_1:
            entries: list[tuple[str, Step]] = [("no", close_step), ("yes_new_game", self._new_game)]
            return Push(Menu("confirm_new_game", entries))
        return None

    def _new_game(self) -> Transition:
        return Goto((self.session.abandon_game(self.instead, bots=self.instead_bots),))

    def view(self, texts: OledWords) -> BannerView:
        table = self.session.require_table()
        game = table.game
        names = ", ".join(shown_name(table, name) for name in game.players)
        # The players' names if they fit on two lines, else how many they are.
        if FONT.width(names) > 2 * (SCREEN_SIZE[0] - 2) - FONT.width("WWWWWWWWWW"):
            names = texts.t("resume_players", n=len(game.players))
        lines = [names]
        if game.round_number == 0:
            lines.append(texts.t("rolloff_title"))
        else:
            section = section_name(texts, game.section)
            lines.append(f"{section}, {texts.t('round_n', n=game.round_number)}")
        if self.whose is not None:
            lines.append(texts.t("resume_turn", name=shown_name(table, self.whose)))
        keys = (texts.t("key_new_game"), "", texts.t("key_resume"))
        return BannerView(texts.t("resume_title"), "", tuple(lines), keys)
