"""The reveal (Aufdecken) after every round, and the banners: a penalty, a lost half, the end.

Every one of them goes on with a press, short or long, and all but the end with a shake too
(the reveal says so, "Drücken oder schütteln", as the hand-over does). When only computer
players are left to play, the reveal and the banners go on by themselves after a pause; the
end of the game never does (the next game waits for a person).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import DroppedTurn, HalfOver, PenaltyGiven, RoundOver, TurnOver
from engine.game import FINAL
from engine.settle import DeckelSource
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.app.stages.base import CONTINUE, Goto, Stage, Transition
from firmware.app.stages.players import short_name, shown_name
from firmware.app.stages.timing import BOT_PAUSE_S
from firmware.screen.font import FONT, SMALL
from firmware.screen.oled_words import section_name
from firmware.screen.screens import REVEAL_LINES
from firmware.screen.views import BannerView, RevealMark, RevealRow, RevealView
from hal.ports import SCREEN_SIZE, InputEvent, InputKind

__all__ = [
    "REVEAL_ROWS", "GameOverBanner", "GoodbyeBanner", "HalfOverBanner", "PenaltyBanner",
    "RevealStage",
]

#: Rows on one page of the reveal (the screen's layout: four turns, two lines of outcome).
REVEAL_ROWS = REVEAL_LINES


class _GoesOn(Stage):
    """A screen that a press or a shake moves on from (as the hand-over: the cup may already be
    in the next player's hand), and that goes on by itself for a table of bots."""

    session: Session
    table: Table

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind in (InputKind.PRESS, InputKind.LONG_PRESS, InputKind.SHAKE_START):
            return self.auto_step()
        return None

    def auto_at(self, now: float) -> float | None:
        return now + BOT_PAUSE_S if self.table.only_bots() else None

    def auto_step(self) -> Transition | None:
        return CONTINUE


@dataclass(eq=False)
class RevealStage(_GoesOn):
    """Every throw of the round in order, then where the Deckel went; pages of
    :data:`REVEAL_ROWS` rows."""


    session: Session
    table: Table
    result: RoundOver
    round_number: int
    page: int = 0

    @property
    def turns(self) -> tuple[TurnOver | DroppedTurn, ...]:
        """The round's turns as the reveal shows them (the engine's round log)."""
        return self.result.turns

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.turns) // REVEAL_ROWS))

    def auto_step(self) -> Transition | None:
        if self.page + 1 < self.pages:
            self.page += 1
            return None
        return CONTINUE

    def view(self) -> RevealView:
        table, result = self.table, self.result
        t = self.session.t
        start = self.page * REVEAL_ROWS
        rows = tuple(
            RevealRow(
                shown_name(table, turn.player),
                t("dropped_row") if isinstance(turn, DroppedTurn) else turn.name,
                _mark(turn.player, result),
                turn.player in result.out,
            )
            for turn in self.turns[start : start + REVEAL_ROWS]
        )
        pages = self.pages
        page_text = f"{self.page + 1}/{pages}" if pages > 1 else t("round_n", n=self.round_number)
        loser = short_name(table, result.loser)
        if result.scharf:
            outcome = t("outcome_scharf", loser=loser)
        elif result.source == DeckelSource.ALL:
            outcome = t("outcome_all", loser=loser)
        elif result.source == DeckelSource.POT:
            outcome = t("outcome_pot", loser=loser, n=result.deckel)
        else:
            winner = short_name(table, result.winner)
            outcome = t("outcome_winner", winner=winner, loser=loser, n=result.deckel)
        if result.out:
            out = t("outcome_out", names=", ".join(short_name(table, n) for n in result.out))
            # Many out, or names too wide for a line: the rows strike them through.
            if len(result.out) > 3 or SMALL.width(out) > SCREEN_SIZE[0] - 2:
                out = t("outcome_out_many", n=len(result.out))
            outcome += " · " + out
        return RevealView(t("reveal_title"), page_text, rows, outcome, t("hint_hand_over"))


def _mark(player: str, result: RoundOver) -> RevealMark:
    if player == result.winner:
        return RevealMark.HIGHEST
    return RevealMark.LOWEST if player == result.loser else RevealMark.NONE


@dataclass(eq=False)
class PenaltyBanner(_GoesOn):
    """A player was given penalty Deckel (a dropped cup)."""


    session: Session
    table: Table
    event: PenaltyGiven

    def view(self) -> BannerView:
        t = self.session.t
        return BannerView(
            t("penalty_title"), shown_name(self.table, self.event.player),
            (t("penalty_given", n=self.event.deckel),),
            ("", "", "OK"),
        )


@dataclass(eq=False)
class HalfOverBanner(_GoesOn):
    """A Hälfte (half), or the Finale, is lost; and who plays the final, if it comes."""


    session: Session
    table: Table
    event: HalfOver
    #: The two finalists, if this half called for a final.
    final: tuple[str, ...] = ()

    def view(self) -> BannerView:
        event = self.event
        texts = self.session.catalogue
        t = texts.t
        if event.section == FINAL:
            lines = [t("loses_final")]
        else:
            lines = [t("loses_section", section=section_name(texts, event.section))]
        if self.final:
            a, b = (shown_name(self.table, name) for name in self.final)
            between = t("final_between", a=a, b=b)
            if FONT.width(between) <= SCREEN_SIZE[0] - 2:
                lines.append(between)
            else:  # long names: each finalist on a line of their own
                lines += [t("final_first", a=a), t("final_second", b=b)]
        elif event.section == 1:
            lines.append(t("next_section", section=section_name(texts, 2)))
        return BannerView(section_name(texts, event.section), shown_name(self.table, event.loser),
                          tuple(lines), ("", "", "OK"))


@dataclass(eq=False)
class GameOverBanner(Stage):
    """The game is over: who lost it (by a Blattschuss, both halves), and who buys the round."""

    ends_game = True

    session: Session
    table: Table

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind not in (InputKind.PRESS, InputKind.LONG_PRESS):
            return None
        return Goto((self.session.after_game(),))

    def view(self) -> BannerView:
        t = self.session.t
        over = self.table.game.state()
        blattschuss = len(over.half_losers) == 2 and over.half_losers[0] == over.half_losers[1]
        lines = (t("blattschuss" if blattschuss else "loses_game"), t("buys_round"))
        loser = shown_name(self.table, over.loser) if over.loser else ""
        return BannerView(t("game_over_title"), loser, lines,
                          ("", "", t("key_new_game")))


@dataclass(eq=False)
class GoodbyeBanner(Stage):
    """The device is shutting down: the last screen, kept by the panel."""


    session: Session

    def view(self) -> BannerView:
        t = self.session.t
        return BannerView(t("goodbye_title"), t("goodbye"), (t("goodbye_hint"),))
