"""What the table may see: the device's events, state and log as they may leave the device.

The app's event sink carries every die (the journal needs them to resume a game). A die under the
cup must not leave the device before the reveal, so whatever goes out over the link, or to any
later listener such as a web page, passes through here first. What is covered is the engine's
answer (:meth:`engine.game.Game.table_view`, :meth:`~engine.game.Game.last_turn` with no
observer), never a rule of our own:

* a ``roll`` under ``hidden_last_throw`` goes out without its dice (the laid-out positions are
  on the table and stay in ``keep``); so do a ``report`` and a ``correct`` (real dice at the
  table) under ``hidden_last_throw`` or for a Blind, without ``dice`` and ``hand``, as the
  engine covers a finished turn until the reveal;
* a ``turn_over`` carries the throw's canonical ``kind`` (``general``) next to its ``name``, which
  is the table's own under a ``[names]`` table ("Jenie 5") (a referee gets the engine's events
  unchanged, which replay as they are);
* a ``turn_over`` whose dice stay under the cup (``hidden_last_throw``, or a Blind turn) goes out
  without ``dice``, ``hand``, ``name`` and ``kind``, with the laid-out dice instead;
* a ``round_over`` is the reveal: it carries every turn of the round in full (the engine's
  ``turns``, each with its ``kind`` added), and ``ties``: where the highest or the lowest throw
  was as strong as the next one, whom it tied with and which rule put them apart;
* a ``state`` shows the current turn as the table sees it, and its one-line ``notation`` only
  while nothing is covered.

A referee (``[link] referee = true``) sees everything; the OLED says so while it is on.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field
from typing import Any

from engine.events import Correct, Event, Report, Roll, RoundOver, TurnOver
from engine.game import Game, Phase, SeenTurn
from engine.notation import to_notation
from engine.rules import Rules, load_preset, preset_names
from engine.settle import TurnResult, rank_key
from firmware.link.protocol import to_json_text
from firmware.sink import DeviceEvent, event_json

__all__ = [
    "TableFeed", "entry_snapshot", "reveal_ties", "rules_changed", "table_log",
    "table_log_entries", "table_log_lines", "table_snapshot",
]  # fmt: skip


class TableFeed:
    """Turns the device's events into what the table may see, one event at a time.

    ``game`` is the game as it stands after the action that caused the event (the app publishes
    an action's events right after applying it, and a replay for the log does the same). The
    feed keeps nothing between events: the reveal's turns come with the engine's ``round_over``.
    """

    def __init__(self, *, referee: bool = False) -> None:
        self.referee = referee

    def event(self, game: Game | None, event: DeviceEvent) -> dict[str, Any]:
        """``event`` as the JSON object of its line, as the table may see it."""
        line = event_json(event)
        if self.referee or game is None:
            return line
        match event:
            case Roll() if game.rules.hidden_last_throw:
                line["dice"] = None
            case Report() | Correct() if game.rules.hidden_last_throw or event.blind:
                line.update(dice=None, hand=None)
            case TurnOver():
                _add_kind(game, event, line)
                seen = _seen_turn(game, event.player)
                if seen is not None and seen.covered:
                    line.update(
                        dice=None, hand=None, name=None, kind=None,
                        laid_out=list(seen.laid_out_values),
                    )
            case RoundOver():
                # The reveal: every turn of the round in full (a dropped cup's row as it is).
                for turn, row in zip(event.turns, line["turns"], strict=True):
                    if isinstance(turn, TurnOver):
                        _add_kind(game, turn, row)
                line["ties"] = reveal_ties(game.rules, event)
        return line


def _seen_turn(game: Game, player: str) -> SeenTurn | None:
    """``player``'s finished turn of this round as the table sees it: the last one, or (a
    correction replays an earlier one: real dice) theirs among the round's finished turns."""
    seen = game.last_turn()
    if seen is not None and seen.player == player:
        return seen
    return next((turn for turn in game.table_view().finished if turn.player == player), None)


def reveal_ties(rules: Rules, event: RoundOver) -> dict[str, dict[str, str]]:
    """Where a tie decided the reveal: for ``winner`` and ``loser``, if their throw was as strong
    as the one ranked next to it, that player (``with``) and what put them apart (``rule``):
    ``fewer_throws`` (the fewer throws are ahead) or ``earlier`` (the earlier thrower is ahead:
    equal throws, or the later throw "nachgelegt"). The engine's own ranking
    (:func:`engine.settle.rank_key`) decides, so this never disagrees with the Deckel."""
    keys = [
        (rank_key(TurnResult(turn.player, turn.dice, turn.hand, turn.throws), position, rules),
         turn.player)
        for position, turn in enumerate(event.turns)
        if isinstance(turn, TurnOver)
    ]  # fmt: skip
    keys.sort()
    ties: dict[str, dict[str, str]] = {}
    if len(keys) < 2:
        return ties
    for place, (own, player), (next_key, other) in (
        ("loser", keys[0], keys[1]),
        ("winner", keys[-1], keys[-2]),
    ):
        if player == getattr(event, place) and own[0] == next_key[0]:
            rule = "fewer_throws" if own[1] != next_key[1] else "earlier"
            ties[place] = {"with": other, "rule": rule}
    return ties


def _add_kind(game: Game, turn: TurnOver, line: dict[str, Any]) -> None:
    """The throw's canonical kind next to its name, which may be the table's own ("Jenie 5")."""
    if turn.dice:
        line["kind"] = game.evaluate(turn.dice, turn.hand).kind.value


def rules_changed(rules: Rules) -> dict[str, Any]:
    """What ``rules`` play differently from the preset they are named after (all their keys if
    the name is no preset): with ``state``'s rule name, the rules in force. A rules file's
    changes are named after its preset with a ``+`` (``standard+``): they are compared with it."""
    mapping = rules.to_mapping()
    preset = rules.name.removesuffix("+")
    base = load_preset(preset).to_mapping() if preset in preset_names() else {}
    return {
        key: value
        for key, value in mapping.items()
        if key not in ("name", "description", "source") and base.get(key, _NOTHING) != value
    }


_NOTHING = object()


def table_snapshot(game: Game, *, referee: bool = False) -> dict[str, Any]:
    """A game's state as the JSON object of a ``state`` line (see docs/protocol.md)."""
    turn = game.turn
    view = game.table_view()
    seen = view.current
    turn_covered = not referee and seen is not None and seen.covered
    covered = turn_covered or (not referee and any(result.covered for result in view.finished))
    values = list(turn.values) if turn is not None else []
    if seen is not None and not referee:
        values = list(seen.values)
    return {
        "players": list(game.players),
        "rules": game.rules.name,
        "rules_changed": rules_changed(game.rules),
        "phase": game.phase.value,
        "section": game.section,
        "round": game.round_number,
        "pot": game.pot,
        "holdings": dict(game.holdings),
        "out": [player for player in game.participants if player in game.out],
        "in_play": list(game.in_play()),
        "limit": game.limit,
        "turn": None
        if turn is None
        else {
            "player": turn.player,
            "dice": values,
            "laid_out": list(turn.laid_out),
            "throws": turn.throws,
            "limit": turn.limit,
            "hand": None if turn_covered else turn.hand,
            "flipped": turn.flipped,
            "blind": turn.blind,
        },
        # What the player may do next tells about the dice (a flip needs two sixes): covered too.
        "can": None
        if turn_covered
        else {
            "roll": game.can_roll(),
            "flip": game.can_flip(),
            "stand": game.can_stand(),
            "blind": game.can_blind(),
        },
        "half_losers": list(game.half_losers),
        "loser": game.loser,
        "notation": None if covered else to_notation(game),
        "real_dice": game.real_dice,
        "entry": entry_snapshot(game),
        # The Spieltag's time box: "off", "next_round" (after the round under way) or "on".
        "scharf": game.scharf.value,
    }


def table_log(game: Game, *, referee: bool = False) -> list[dict[str, Any]]:
    """Every event of ``game`` so far as the table saw it, actions and outcomes, in order.

    The outcomes are recomputed by replaying the actions on a fresh game, so the log is complete
    however the game was stored; each event is filtered as it was when it happened. The replay
    is kept while ``game`` lives and goes on from where it stopped: a ``log`` costs the actions
    since the last one, not the whole game, however often a page asks.
    """
    return list(_log(game, referee).events)


def table_log_lines(game: Game, *, referee: bool = False) -> list[str]:
    """:func:`table_log` as the ``log`` answer's JSON lines, each written once."""
    return list(_log(game, referee).lines)


def table_log_entries(game: Game) -> list[str]:
    """:func:`table_log_lines` without a copy: the table's list itself, which only grows while
    ``game`` goes on (read it, never change it; its first N lines stay as they are)."""
    return _log(game, False).lines


def _log(game: Game, referee: bool) -> _Log:
    logs = _LOGS.setdefault(game, {})
    log = logs.get(referee)
    if log is None or game.actions[: len(log.actions)] != log.actions:
        log = logs[referee] = _Log(Game(game.setup), TableFeed(referee=referee))
    for action in game.actions[len(log.actions) :]:
        for event in log.replay.apply(action):
            seen = log.feed.event(log.replay, event)
            log.events.append(seen)
            log.lines.append(to_json_text(seen))
        log.actions.append(action)
    return log


@dataclass
class _Log:
    """A game's table log so far: the replay it comes from and what it has replayed."""

    replay: Game
    feed: TableFeed
    actions: list[Event] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


#: The table logs of the games alive, by referee view (a game that is gone takes its log along).
_LOGS: weakref.WeakKeyDictionary[Game, dict[bool, _Log]] = weakref.WeakKeyDictionary()


# -- real dice at the table: what a page needs to enter a result -----------------------


def entry_snapshot(game: Game) -> dict[str, Any] | None:
    """What a scorekeeper's page needs to enter the result now due in a real-dice game (the
    ``state``'s ``entry``), or None when none is due (the device's dice, the game over).

    Names and the rules' numbers only: nothing of a die under a cup. ``due`` is ``roll_off``
    (one throw per ``contenders``) or ``turn`` (``player``'s result); ``most`` the throws a
    report may give, ``limit`` the limit as the table states it ("max. 2 Würfe"; the opener's
    once known), ``opener_most`` what a correction of the opener may give; ``covered``: the
    cups stay down until the reveal (``hidden_last_throw``), so the table enters its results
    then, in its order; ``hand_matters``
    the dice (highest first, joined by "-") whose worth differs from the hand and built up under
    these rules, where a report must say which; ``reported`` whose results of this round may
    still be corrected, in the order they were entered; ``last``: this report settles the round.
    """
    if not game.real_dice or game.is_over:
        return None
    rules = game.rules
    common = {
        "dice": rules.dice_count,
        "blind": rules.blind,
        "covered": rules.hidden_last_throw,
        "hand_matters": list(_hand_matters(game)),
    }
    if game.phase is Phase.ROLL_OFF:
        return {"due": "roll_off", "contenders": list(game.contenders), **common}
    player = game.current_player
    if player is None:
        return None
    reported = [r.player for r in game.results if not r.dropped]
    return {
        "due": "turn",
        "player": player,
        "most": game.reported_throws_allowed(),
        "limit": rules.max_throws if game.limit is None else game.limit,
        "opener": game.round_players[0] if game.round_players else player,
        "opener_most": rules.max_throws,
        "reported": reported,
        "last": len(game.results) + 1 >= len(game.round_players),
        **common,
    }


def _hand_matters(game: Game) -> tuple[str, ...]:
    """Every throw (highest die first) that the rules count differently from the hand."""
    key = (game.rules, game.rules.dice_count)
    known = _HAND_MATTERS.get(key)
    if known is None:
        throws = itertools.combinations_with_replacement(range(6, 0, -1), game.rules.dice_count)
        known = tuple("-".join(map(str, dice)) for dice in throws if game.hand_matters(dice))
        if len(_HAND_MATTERS) > 32:
            _HAND_MATTERS.clear()
        _HAND_MATTERS[key] = known
    return known


#: :func:`_hand_matters` by rules: the state after every batch asks again.
_HAND_MATTERS: dict[tuple[Rules, int], tuple[str, ...]] = {}
