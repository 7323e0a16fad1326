"""A one-line text notation for a game's position, like chess's FEN.

During play, six fields separated by single spaces::

    1 9 Anna=0,Ben=4,Carla=0 3 Ben:641b3,Carla:114b2 Anna:6*65/2h

1. the section: ``1`` or ``2`` (the halves) or ``F`` (the final);
2. the Deckel left in the pot;
3. the players of the section in seat order, ``NAME=DECKEL``, with ``x`` after a player who is
   out for the rest of the half and ``^`` after the first half's loser (who holds the marker);
4. the round's throw limit, or ``-`` while the first player has not finished;
5. the finished turns of this round in throw order, ``NAME:DICE`` + ``h`` (hand) or ``b``
   (built) + throws, ``!`` after a Blind; ``NAME:~`` for a dropped cup (``dropped_cup =
   "round"``: the dropper's place in the throw order is where it fell); ``-`` if none;
6. the current turn: ``NAME:`` then one character per die position (the value, or ``-`` before
   the first throw), ``*`` after a laid-out die, ``/THROWS``, then flags: ``h`` the dice fell in
   one throw, ``f`` flipped since the last throw, ``+N`` extra throws earned (Bördeschock).

A game played with real dice (``GameSetup.real_dice``) has the same notation: each reported
turn is a finished turn of field 5, and the current turn waits for its report as ``NAME:---/0``.

Outside play the notation is ``rolloff NAME,NAME,...`` (who still rolls off for the first round)
or ``over LOSER FIRST_HALF_LOSER,SECOND_HALF_LOSER``.

A game gone "scharf" (the Spieltag's time box ran out, :class:`~engine.events.GoScharf`) has one
more field at the end, during play and in the roll-off: ``S`` if this round's loser loses the
half, ``s`` if the round under way is settled as ever and the next one is scharf.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.errors import IllegalActionError
from engine.game import FINAL, Game, GameSetup, GameState, Phase, Scharf, TurnState
from engine.settle import TurnResult

_SECTION_NAMES = {1: "1", 2: "2", FINAL: "F"}
_RESULT = re.compile(
    r"^(?P<name>[^:,=]+):(?P<dice>[1-6]{2,3})(?P<how>[hb])(?P<throws>[1-9])(?P<blind>!?)$"
)
_TURN = re.compile(
    r"^(?P<name>[^:,=]+):(?P<dice>(?:[1-6]\*?|-){2,3})/(?P<throws>[0-9])"
    r"(?P<hand>h?)(?P<flipped>f?)(?:\+(?P<bonus>[0-9]))?$"
)
_DROPPED = re.compile(r"^(?P<name>[^:,=]+):~$")
_HOLDING = re.compile(r"^(?P<name>[^:,=]+)=(?P<deckel>[0-9]+)(?P<marks>[x^]*)$")
_SCHARF_MARKS = {Scharf.ON: "S", Scharf.NEXT_ROUND: "s"}


def _scharf_mark(game: Game) -> str:
    """The notation's last field for a game gone scharf (with its space), else nothing."""
    mark = _SCHARF_MARKS.get(game.scharf)
    return "" if mark is None else " " + mark


def to_notation(game: Game) -> str:
    """The game's position as one line."""
    if game.phase is Phase.ROLL_OFF:
        return "rolloff " + ",".join(game.contenders) + _scharf_mark(game)
    if game.phase is Phase.OVER:
        return f"over {game.loser} " + ",".join(game.half_losers)
    first_loser = game.half_losers[0] if game.half_losers else None
    holdings = ",".join(
        f"{p}={game.holdings[p]}"
        + ("x" if p in game.out else "")
        + ("^" if p == first_loser else "")
        for p in game.participants
    )
    results = ",".join(
        f"{r.player}:~" if r.dropped
        else f"{r.player}:{''.join(map(str, r.dice))}{'h' if r.hand else 'b'}{r.throws}"
        + ("!" if r.blind else "")
        for r in game.results
    ) or "-"
    t = game.turn
    assert t is not None
    dice = "".join(
        ("-" if v is None else str(v)) + ("*" if out else "")
        for v, out in zip(t.values, t.laid_out, strict=True)
    )
    flags = (
        ("h" if t.hand else "") + ("f" if t.flipped else "") + (f"+{t.bonus}" if t.bonus else "")
    )
    limit = "-" if game.limit is None else str(game.limit)
    section = _SECTION_NAMES[game.section]
    turn = f"{t.player}:{dice}/{t.throws}{flags}"
    return f"{section} {game.pot} {holdings} {limit} {results} {turn}{_scharf_mark(game)}"


def from_notation(text: str, setup: GameSetup) -> Game:
    """A game in the position ``text`` describes (without history: ``actions`` is empty)."""
    fields = text.split()

    def bad(problem: str) -> IllegalActionError:
        return IllegalActionError(f"bad notation {text!r}: {problem}")

    if not fields:
        raise bad("empty")
    scharf = Scharf.OFF
    marks = {mark: value for value, mark in _SCHARF_MARKS.items()}
    if fields[0] != "over" and len(fields) in (3, 7) and fields[-1] in marks:
        scharf = marks[fields.pop()]
    if fields[0] == "rolloff" and len(fields) == 2:
        contenders = tuple(fields[1].split(","))
        if not set(contenders) <= set(setup.players) or len(contenders) < 2:
            raise bad("roll-off contenders must be two or more of the players")
        return Game.from_state(
            setup, replace(Game(setup).state(), contenders=contenders, scharf=scharf)
        )
    if fields[0] == "over" and len(fields) == 3:
        losers = fields[2].split(",")
        known = set(setup.players)
        if fields[1] not in known or len(losers) != 2 or not set(losers) <= known:
            raise bad("expected: over LOSER HALF1_LOSER,HALF2_LOSER")
        over = replace(
            Game(setup).state(), phase=Phase.OVER, loser=fields[1], half_losers=tuple(losers),
            contenders=(),
        )
        return Game.from_state(setup, over)
    if len(fields) != 6:
        raise bad("expected six fields: section pot players limit results turn [S|s]")
    section_text, pot_text, holdings_text, limit_text, results_text, turn_text = fields
    sections = {v: k for k, v in _SECTION_NAMES.items()}
    if section_text not in sections:
        raise bad("section must be 1, 2 or F")
    section = sections[section_text]
    if not pot_text.isascii() or not pot_text.isdigit():
        raise bad("pot must be a number")
    pot = int(pot_text)
    participants, holdings, out, first_loser = [], {}, set(), None
    for item in holdings_text.split(","):
        match = _HOLDING.match(item)
        if not match or match["name"] not in setup.players:
            raise bad(f"player entry {item!r}; expected NAME=DECKEL with a known name")
        name = match["name"]
        participants.append(name)
        holdings[name] = int(match["deckel"])
        if "x" in match["marks"]:
            out.add(name)
        if "^" in match["marks"]:
            first_loser = name
    if tuple(participants) != tuple(p for p in setup.players if p in participants):
        raise bad("players must be listed in seat order")
    if pot + sum(holdings.values()) != setup.rules.deckel:
        raise bad(f"pot and players' Deckel must add up to {setup.rules.deckel}")
    if section != FINAL:
        holdings = {p: holdings.get(p, 0) for p in setup.players} | holdings
    half_losers: tuple[str, ...]
    if section == 1:
        half_losers = ()
    elif first_loser is None:
        raise bad("after the first half, one player carries the marker ^")
    elif section == 2:
        half_losers = (first_loser,)
    else:
        others = [p for p in participants if p != first_loser]
        half_losers = (first_loser, *others[:1])
    limit = None if limit_text == "-" else int(limit_text)
    results = []
    if results_text != "-":
        for item in results_text.split(","):
            dropped = _DROPPED.match(item)
            if dropped and dropped["name"] in participants:
                results.append(TurnResult(dropped["name"], (), False, 0, dropped=True))
                continue
            match = _RESULT.match(item)
            if not match or match["name"] not in participants:
                raise bad(f"result {item!r}; expected NAME:DICE(h|b)THROWS[!] or NAME:~")
            results.append(
                TurnResult(match["name"], tuple(int(d) for d in match["dice"]), match["how"] == "h",
                           int(match["throws"]), bool(match["blind"]))
            )
    match = _TURN.match(turn_text)
    if not match or match["name"] not in participants:
        raise bad(f"turn {turn_text!r}; expected NAME:DICE/THROWS[h][f][+N]")
    dice_chars = re.findall(r"[1-6]\*?|-", match["dice"])
    if len(dice_chars) != setup.rules.dice_count:
        raise bad(f"the turn needs {setup.rules.dice_count} dice positions")
    values = tuple(None if d == "-" else int(d[0]) for d in dice_chars)
    laid_out = tuple(d.endswith("*") for d in dice_chars)
    throws = int(match["throws"])
    turn = TurnState(
        match["name"], values, laid_out, throws, throws, bool(match["hand"]),
        bool(match["flipped"]), int(match["bonus"] or 0), False,
    )
    # A dropped cup takes its place where it fell; the others keep the seat order.
    dropper = next((r.player for r in results if r.dropped), None)
    starter = next((r.player for r in results if not r.dropped), match["name"])
    start = participants.index(starter)
    order = [participants[(start + k) % len(participants)] for k in range(len(participants))]
    seated = [p for p in order if p not in out and p != dropper]
    if dropper is not None:
        seated.insert([r.player for r in results].index(dropper), dropper)
    round_players = tuple(seated)
    expected = [*[r.player for r in results], match["name"]]
    if list(round_players[: len(expected)]) != expected:
        raise bad(
            "the finished turns and the current player must follow seat order from the starter"
        )
    state = GameState(
        phase=Phase.TURN, section=section, round_number=1, pot=pot,
        holdings=tuple(holdings.items()), out=tuple(p for p in participants if p in out),
        round_players=round_players, results=tuple(results), limit=limit, turn=turn,
        contenders=(), half_losers=half_losers, loser=None, scharf=scharf,
    )
    return Game.from_state(setup, state, participants)
