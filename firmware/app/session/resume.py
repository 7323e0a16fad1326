"""Resuming the game a power cut interrupted, at the moment its last action led to.

Every action but the last is replayed into the game through the table; the last one goes
through the same table code as when it was played, so the moment (hand-over, reveal, banners)
is the one the players saw. UI state after the last action that is not an action (which dice
were marked to lay out) comes from the journal's UI note. Nothing replayed is written or
announced again.
"""

from __future__ import annotations

from engine.events import (
    Blind,
    Correct,
    Drop,
    Event,
    Flip,
    GoScharf,
    HalfOver,
    Penalty,
    Report,
    Roll,
    RollOff,
    Stand,
)
from firmware.app.session.moments import (
    EntryGoesOn,
    HandOverDue,
    Moment,
    RevealDue,
    RollOffDue,
    RollOffThrown,
    TurnEnded,
    TurnGoesOn,
)
from firmware.app.session.session import Session
from firmware.app.session.table import Table
from firmware.screen.oled_words import OledWords
from firmware.sink import GameResumed
from firmware.store.journal import Recovery
from firmware.store.spieltagfile import META_SPIELTAG
from firmware.words import LANGUAGES

__all__ = ["resume", "whose_screen"]


def resume(session: Session, recovery: Recovery) -> list[Moment]:
    """Rebuild the interrupted game in ``session``; return the moments it stands at."""
    assert session.store is not None
    seat_bots = recovery.meta.get("bots")
    if isinstance(seat_bots, list) and all(isinstance(b, str) for b in seat_bots):
        session.seat_bots = tuple(seat_bots)
    table = session.open_table(recovery.setup)
    game = table.game
    moments: list[Moment] = [RollOffDue()]
    table.recording = False
    # The time box changes no screen: the moment is the one of the last action before it.
    actions = list(recovery.actions)
    scharf = [actions.pop()] if actions and isinstance(actions[-1], GoScharf) else []
    try:
        for action in actions[:-1]:
            table.follow(game.apply(action))
        if actions:
            marks = (recovery.ui or {}).get("marks")
            moments = _replay_last(table, actions[-1], marks)
        for action in scharf:
            table.follow(game.apply(action))
        entry = entry_from_note(table, recovery.ui)
        if entry is not None:
            # The table had gone past these screens and was entering a result: back to it.
            moments = [entry]
    finally:
        table.recording = True
    # The language the game started in, unless the menu has chosen one since (remembered).
    language = recovery.meta.get("language")
    if session.settings.remembered.language is None and language in LANGUAGES:
        session.catalogue = OledWords(str(language))
    session.store.resume(recovery)
    spieltag = recovery.meta.get(META_SPIELTAG)
    session.arm_time_box(spieltag if isinstance(spieltag, str) else None)
    session.resumed = True
    session.emit(GameResumed(session.game_number, len(recovery.actions)))
    return moments


def whose_screen(moments: list[Moment], table: Table) -> str | None:
    """The player whose screen the first of ``moments`` brings back: the one who threw last on
    their last-throw screen, the one the cup goes to, or the one whose turn goes on; None for
    the roll-off and the reveal, which are nobody's."""
    game = table.game
    match moments[0] if moments else None:
        case TurnEnded(player=player) | HandOverDue(player=player):
            return player
        case RollOffDue() | RollOffThrown() | RevealDue():
            return None
        case _:
            return game.current_player


def _replay_last(table: Table, action: Event, marks: object) -> list[Moment]:
    """The moments after the last action; a turn that goes on gets its marks from the UI note."""
    game = table.game
    turn = game.turn
    match action:
        case RollOff(dice=dice):
            contenders = game.contenders
            table.roll_off(dice)
            return [RollOffThrown(contenders, dice)]
        case Roll(keep=keep, dice=dice):
            shows_dice = not table.is_bot(game.current_player)
            moments = table.roll(keep, dice, shows_dice=shows_dice)
            if moments is not None:
                return moments
            after = game.turn
            assert after is not None
            return [TurnGoesOn(_restored(table, list(after.laid_out), marks))]
        case Flip():
            assert turn is not None
            flipped = table.flip(turn.laid_out)
            return [TurnGoesOn(_restored(table, list(flipped), marks))]
        case Stand() | Blind():
            return table.stand(blind=isinstance(action, Blind))
        case Report(dice=dice, throws=throws, hand=hand, blind=blind):
            return table.report(dice, throws, hand, blind=blind)
        case Correct(player=player, dice=dice, throws=throws, hand=hand, blind=blind):
            return table.correct(player, dice, throws, hand, blind=blind)
        case Penalty() | Drop():
            events = game.apply(action)
            moments = table.follow(events)
            after = game.turn
            if after is not None and not any(isinstance(event, HalfOver) for event in events):
                moments.append(
                    TurnGoesOn(tuple(after.laid_out)) if after.throws
                    else HandOverDue(after.player)
                )
            return moments
    raise ValueError(f"not an action a journal keeps: {action!r}")


def entry_from_note(table: Table, note: dict[str, object] | None) -> EntryGoesOn | None:
    """The result a real-dice table was entering when the power went, from the journal's UI
    note (``{"entry": {"dice": [...], "throws": N, "hand": B, "correcting": NAME|null,
    "roll_off": [[...], ...], "settling": B}}``); None without one, or if it no longer fits the
    game."""
    game = table.game
    entry = (note or {}).get("entry")
    if not game.real_dice or game.is_over or not isinstance(entry, dict):
        return None
    dice, throws, hand = entry.get("dice"), entry.get("throws"), entry.get("hand")
    correcting, roll_off = entry.get("correcting"), entry.get("roll_off", [])
    count = game.rules.dice_count
    def is_dice(value: object) -> bool:
        return (
            isinstance(value, list) and len(value) == count
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value)
        )
    if (
        not is_dice(dice) or isinstance(throws, bool) or not isinstance(throws, int)
        or not 1 <= throws <= 5 or not isinstance(hand, bool)
        or not (correcting is None or correcting in game.players)
        or not isinstance(roll_off, list) or not all(is_dice(d) for d in roll_off)
    ):
        return None
    assert isinstance(dice, list) and isinstance(roll_off, list)
    return EntryGoesOn(
        tuple(dice), throws, hand, correcting if isinstance(correcting, str) else None,
        tuple(tuple(d) for d in roll_off), settling=entry.get("settling") is True,
    )


def _restored(table: Table, marks: list[bool], noted: object) -> tuple[bool, ...]:
    """The dice the journal's UI note marks, if they may be laid out; else ``marks``."""
    if not isinstance(noted, list) or len(noted) != len(marks):
        return tuple(marks)
    keep = tuple(i for i, marked in enumerate(noted) if marked is True)
    if keep in set(table.game.legal_keeps()):
        return tuple(marked is True for marked in noted)
    return tuple(marks)
