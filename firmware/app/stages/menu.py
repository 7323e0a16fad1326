"""The menu (a long press on STAND, from anywhere) and its dialogs.

Continue, a new game, the rules, a penalty or a dropped cup (as the rules ``dropped_cup`` say),
Blind, discarding a resumed game,
statistics, brightness, language and shutting down; each entry is offered only where it applies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.game import Phase
from engine.rules import DroppedCup, Rules
from firmware.app.session.moments import HalfLost, HandOverDue, Moment, RevealDue
from firmware.app.stages.base import (
    CLOSE,
    CLOSE_ALL,
    OK_BUTTONS,
    Goto,
    Overlay,
    PowerOff,
    Push,
    Stage,
    Step,
    Transition,
    close_all_step,
    close_step,
)
from firmware.app.stages.entry import EntryStage
from firmware.app.stages.overlays import Menu, Message, Picker
from firmware.app.stages.reveal import GoodbyeBanner
from firmware.app.stages.standings import spieltag_entries
from firmware.app.stages.table_card import tournament_entries
from firmware.screen.oled_words import OledWords
from firmware.screen.rulestext import rules_summary
from firmware.screen.shortnames import short_names
from firmware.screen.views import BannerView, RulesView
from firmware.store.stats import PlayerStats
from firmware.words import LANGUAGES
from hal.ports import Button, InputEvent, InputKind

if TYPE_CHECKING:
    from firmware.app.session.session import Session
    from firmware.link.pairing import Pairing

__all__ = [
    "BRIGHTNESS_LEVELS", "MainMenu", "RulesInForce", "language_picker", "player_confirmation",
    "player_picker",
]

#: Panel contrast of the five brightness steps in the menu.
BRIGHTNESS_LEVELS = (8, 40, 96, 170, 255)

#: What the confirming question after a player picker says, per picker: its title, its "yes".
_CONFIRMATIONS = {
    "menu_penalty": ("confirm_penalty", "yes_penalty"),
    "menu_dropped": ("confirm_dropped", "yes_dropped"),
}


def player_picker(
    title: str, players: tuple[str, ...], detail: str,
    on_ok: Callable[[str], Transition | None], shown: Mapping[str, str] | None = None,
) -> Picker:
    """A picker of ``players`` (each as ``shown`` says, :func:`~firmware.app.stages.players.
    short_name`) that starts on nobody ("Wer?"): OK there does nothing, so a penalty or a
    dropped cup is never given to whoever happens to be first."""
    def label(index: int) -> str:
        name = players[index - 1] if index else ""
        return shown.get(name, name) if shown is not None else name

    def choose(index: int) -> Transition | None:
        return on_ok(players[index - 1]) if index else None

    return Picker(title, len(players) + 1, 0, label, lambda i: detail, choose, nobody_first=True)


def player_confirmation(
    title: str, player: str, deckel: int, give: Callable[[str], Transition],
    shown: str | None = None,
) -> Menu:
    """ "Strafe geben?": "Nein" (chosen first) goes back to the picker, "Ja: Anna +2" gives
    it (the name as the screen shows it, ``shown``)."""
    question, yes = _CONFIRMATIONS[title]
    entries: list[tuple[str, Step]] = [("no", close_step), (yes, lambda: give(player))]
    return Menu(question, entries, values={"name": shown or player, "n": deckel})


@dataclass(eq=False)
class MainMenu:
    """The menu's entries and dialogs for the stage it was opened on."""

    session: Session
    stage: Stage

    def open(self) -> Menu:
        """The menu, with the entries that apply now."""
        session, stage = self.session, self.stage
        entries: list[tuple[str, Step]] = [("menu_continue", close_all_step)]
        if isinstance(stage, EntryStage) and stage.correcting is not None:
            entries.append(("menu_cancel_correction", stage.cancel_correction))
        entries += [("menu_new_game", self._ask_new_game), ("menu_rules", self._choose_rules)]
        game = session.table.game if session.table is not None and stage.in_game else None
        if game is not None and game.phase is Phase.TURN:
            if game.rules.dropped_cup is DroppedCup.ROUND:
                if not any(result.dropped for result in game.results):
                    entries.append(("menu_dropped", self._choose_dropper))
            elif game.rules.penalty_deckel:
                entries.append(("menu_penalty", self._choose_penalty))
        if game is not None and stage.allows_blind and (game.can_blind() or game.real_dice):
            entries.append(("menu_blind", self._announce_blind))
        if game is not None and game.real_dice and game.phase is Phase.TURN:
            reported = tuple(r.player for r in game.results if not r.dropped)
            if reported and stage.in_game:
                entries.append(("menu_correct", lambda: self._choose_correction(reported)))
        if not self._game_running():
            # Real dice at the table, or the device's dice: chosen for the next game.
            dice_key = "menu_real_dice_on" if session.real_dice else "menu_real_dice_off"
            entries.append((dice_key, self._switch_dice))
        if game is not None and session.resumed and self._game_running():
            entries.append(("menu_discard", self._ask_new_game))
        if session.keeps_games:
            entries.append(("menu_stats", self._show_stats))
            entries += spieltag_entries(session)
        entries += tournament_entries(session)
        if session.pairing is not None:
            entries.append(("menu_pair", self._show_pin))
            if session.pairing.paired_hosts:
                entries.append(("menu_unpair", self._forget_pairings))
        entries.append(("menu_brightness", self._choose_brightness))
        entries.append(("menu_language", self._choose_language))
        if session.shutdown is not None:
            entries.append(("menu_shutdown", self._ask_shutdown))
        return Menu("menu_title", entries)

    def _game_running(self) -> bool:
        table = self.session.table
        return table is not None and not table.game.is_over and self.stage.in_game

    def _ask_new_game(self) -> Transition:
        if not self._game_running():
            return Goto((self.session.new_setup(),))
        confirm = Menu("confirm_new_game", [("no", close_step), ("yes_new_game", self._abandon)])
        return Push(confirm)

    def _switch_dice(self) -> Transition:
        self.session.switch_dice()
        return CLOSE_ALL

    def _abandon(self) -> Transition:
        return Goto((self.session.abandon_game(),))

    def _choose_rules(self) -> Transition:
        session = self.session
        if self._game_running():
            return Push(RulesInForce(session.require_table().game.rules))
        setup = self.stage.rules_choice()
        current = (
            setup.rules
            if setup is not None
            else session.rules_index(session.plan.rules.name if session.plan else None)
        )

        def choose(index: int) -> Transition:
            if setup is not None:
                setup.choose_rules(index)
            session.choose_rules(session.rule_options[index], for_the_plan=setup is None)
            return CLOSE_ALL

        options = session.rule_options
        return Push(Picker("menu_rules", len(options), current, lambda i: options[i].name,
                           lambda i: options[i].description, choose))

    def _choose_penalty(self) -> Transition:
        session = self.session
        table = session.require_table()
        detail = session.t("penalty_detail", n=table.game.rules.penalty_deckel)
        return self._pick_player("menu_penalty", table.game.in_play(), detail, table.penalty)

    def _choose_correction(self, reported: tuple[str, ...]) -> Transition:
        """Real dice: whose result of this round to enter again, before the round settles."""
        session = self.session
        table = session.require_table()

        under = self.stage
        resumes = under if isinstance(under, EntryStage) else None
        if resumes is not None and resumes.correcting is not None:
            resumes = resumes.resumes  # a correction instead of another: the same way back

        def again(player: str) -> Transition:
            result = next(r for r in table.game.results if r.player == player)
            stage = EntryStage(session, table, list(result.dice), result.throws, result.hand,
                               correcting=player, resumes=resumes)
            return Goto((stage,), keep_queue=False)

        shown = short_names(table.game.players)
        return Push(
            player_picker("menu_correct", reported, session.t("correct_detail"), again, shown)
        )

    def _choose_dropper(self) -> Transition:
        """Who dropped the cup: they lose the round (``dropped_cup = "round"``)."""
        session = self.session
        table = session.require_table()
        return self._pick_player(
            "menu_dropped", table.game.round_players, session.t("dropped_detail"), table.drop
        )

    def _pick_player(
        self, title: str, players: tuple[str, ...], detail: str,
        act: Callable[[str], list[Moment]],
    ) -> Transition:
        """A picker of ``players`` with nobody chosen yet; OK on a player asks once more, and
        only "Ja" gives them ``act`` (the table's). The game goes on where it stood, unless what
        ``act`` calls for ends the round."""
        session, resume = self.session, self.stage
        table = session.require_table()
        game = table.game

        def give(player: str) -> Transition:
            resume_player = game.current_player
            moments = act(player)
            steps: list[Stage | Moment] = list(moments)
            if not any(isinstance(moment, HalfLost | RevealDue) for moment in moments):
                if game.current_player == resume_player:
                    steps.append(resume)
                else:
                    # The player at the cup is out (a penalty) or dropped it: the next one throws.
                    assert game.current_player is not None
                    steps.append(HandOverDue(game.current_player))
            return Goto(tuple(steps), keep_queue=True)

        deckel = game.rules.penalty_deckel
        shown = short_names(game.players)
        return Push(player_picker(
            title, players, detail,
            lambda player: Push(player_confirmation(title, player, deckel, give, shown[player])),
            shown,
        ))

    def _announce_blind(self) -> Transition | None:
        return self.stage.announce_blind()

    def _show_stats(self) -> Transition:
        session = self.session
        table = session.statistics()
        names = sorted(table, key=lambda name: (-table[name].games, name))
        if not names:
            return Push(Message("menu_stats", (session.t("stats_none"),)))

        def detail(index: int) -> str:
            figures: PlayerStats = table[names[index]]
            return session.t("stats_detail", games=figures.games, lost=figures.lost,
                         halves_lost=figures.halves_lost, blattschuss=figures.blattschuss,
                         schocks=figures.schocks, schock_aus=figures.schock_aus)

        shown = short_names(names)
        return Push(Picker("menu_stats", len(names), 0, lambda i: shown[names[i]], detail,
                           lambda i: CLOSE))

    def _show_pin(self) -> Transition:
        pairing = self.session.pairing
        assert pairing is not None
        return Push(PinOverlay(pairing, pairing.show_pin(self.session.now)))

    def _forget_pairings(self) -> Transition:
        session = self.session
        assert session.pairing is not None
        session.pairing.revoke_all()
        lines = (session.t("unpaired_lines"), session.t("unpaired_lines_2"))
        return Push(Message("menu_unpair", lines))

    def _choose_brightness(self) -> Transition:
        session = self.session
        levels = BRIGHTNESS_LEVELS
        before = session.contrast
        current = min(range(len(levels)), key=lambda i: abs(levels[i] - before))

        def preview(index: int) -> None:
            session.preview_brightness(levels[index])

        def restore() -> None:
            session.preview_brightness(before)

        def choose(index: int) -> Transition:
            session.set_brightness(levels[index])
            return CLOSE_ALL

        return Push(Picker(
            "menu_brightness", len(levels), current, lambda i: str(i + 1),
            lambda i: session.t("brightness_detail", n=i + 1, of=len(levels)), choose, preview,
            restore,
        ))

    def _choose_language(self) -> Transition:
        session = self.session

        def choose(index: int) -> Transition:
            session.choose_language(LANGUAGES[index])
            return CLOSE_ALL

        return Push(language_picker(LANGUAGES.index(session.catalogue.language), choose))

    def _ask_shutdown(self) -> Transition:
        confirm = Menu("confirm_shutdown", [("no", close_step), ("yes_shutdown", self._power_off)])
        return Push(confirm)

    def _power_off(self) -> Transition:
        return PowerOff(GoodbyeBanner(self.session))


def language_picker(index: int, choose: Callable[[int], Transition | None]) -> Picker:
    """The languages, each in its own name ("English" even on German screens), and below them
    all of them, so that someone who reads neither the title nor the value finds theirs."""
    names = [OledWords(language).t("language_name") for language in LANGUAGES]
    every = " / ".join(names)
    return Picker("menu_language", len(LANGUAGES), index, lambda i: names[i], lambda i: every,
                  choose)


@dataclass(eq=False)
class PinOverlay(Overlay):
    """The pairing PIN: valid while shown; any press closes it and withdraws the PIN.

    Once a page or host has paired with it, or wrong tries used it up, the screen says so
    instead of showing a PIN that no longer works. Private: the link's table view never mirrors
    it, or any host could read it.
    """

    pairing: Pairing
    pin: str
    private: bool = True
    #: Paired hosts when the PIN was shown: one more means the PIN paired someone.
    hosts_before: int = field(init=False)

    def __post_init__(self) -> None:
        self.hosts_before = self.pairing.paired_hosts

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        self.pairing.withdraw_pin()
        return CLOSE

    def view(self, texts: OledWords) -> BannerView:
        if not self.pairing.is_shown(self.pin):
            paired = self.pairing.paired_hosts > self.hosts_before
            done = texts.t("pair_done" if paired else "pair_gone")
            return BannerView(texts.t("pair_title"), done, (), ("", "", "OK"))
        # The PIN big, as the page's field and `--pin` take it; a serial host sends `pair PIN`.
        lines = (texts.t("pair_send"), texts.t("pair_valid"))
        return BannerView(texts.t("pair_title"), self.pin, lines, ("", "", "OK"))


@dataclass(eq=False)
class RulesInForce(Overlay):
    """The rules of the game under way, read only: the menu's "Regeln" during a game.

    KEEP_1 and KEEP_2 scroll up and down; KEEP_3, STAND and FLIP go back to the menu. Nothing
    here changes the rules: they change between games (the setup, or this entry after the game).
    """

    rules: Rules
    #: The entry shown at the top.
    first: int = 0

    def on_input(self, event: InputEvent) -> Transition | None:
        if event.kind is not InputKind.PRESS:
            return None
        if event.button is Button.FLIP or event.button in OK_BUTTONS:
            return CLOSE
        last = len(self._entries(OledWords())) - 1
        step = -1 if event.button is Button.KEEP_1 else 1
        self.first = min(max(self.first + step, 0), last)
        return None

    def view(self, texts: OledWords) -> RulesView:
        return RulesView(texts.t("menu_rules"), self._entries(texts), self.first, ("▲", "▼", "OK"))

    def _entries(self, texts: OledWords) -> tuple[str, ...]:
        """The summary of the rules, and that changes wait for the next game."""
        return (*rules_summary(self.rules, texts), texts.t("rules_wait"))
