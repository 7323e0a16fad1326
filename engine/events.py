"""Game events: the actions players take (dice included) and what the rules decide from them.

A game is the list of its *actions*: :class:`RollOff`, :class:`Roll`, :class:`Flip`,
:class:`Stand`, :class:`Blind`, :class:`Penalty` and :class:`Drop`; a game played with real
dice at the table (``GameSetup.real_dice``) has :class:`Report` and :class:`Correct` in place
of the throws, flips, stands and Blinds. Dice values are part of the
actions that throw (chance events supplied by the caller), so replaying the actions reproduces
the game exactly. Applying an action also yields *outcomes* (:class:`TurnOver`, :class:`RoundOver`,
:class:`HalfOver`, :class:`GameOver`, ...), which a log may carry for its readers; replay
recomputes them.

Every event serialises to one JSON object with a field ``event`` (see :func:`to_json`).
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, ClassVar

from engine.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; ``kind`` is the JSON ``event`` field."""

    kind: ClassVar[str] = "event"
    #: True for the actions a replay feeds back; False for outcomes derived from them.
    is_action: ClassVar[bool] = False


# -- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOff(Event):
    """Auswürfeln: each contender's throw, in seat order, to find who opens the first round."""

    kind: ClassVar[str] = "roll_off"
    is_action: ClassVar[bool] = True
    players: tuple[str, ...]
    dice: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Roll(Event):
    """A throw: lay out the dice at positions ``keep`` (0-2), throw the rest, which show ``dice``.

    ``keep`` lists every position that is out after this decision; ``dice`` gives the new values
    of the other positions in ascending position order.
    """

    kind: ClassVar[str] = "roll"
    is_action: ClassVar[bool] = True
    player: str
    keep: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Flip(Event):
    """Turn two sixes into a one (three sixes into two ones); the one is laid out."""

    kind: ClassVar[str] = "flip"
    is_action: ClassVar[bool] = True
    player: str


@dataclass(frozen=True, slots=True)
class Stand(Event):
    """End the turn with the dice as they lie."""

    kind: ClassVar[str] = "stand"
    is_action: ClassVar[bool] = True
    player: str


@dataclass(frozen=True, slots=True)
class Blind(Event):
    """Announce "blind" after the first throw: no more throws, the round's Deckel count double."""

    kind: ClassVar[str] = "blind"
    is_action: ClassVar[bool] = True
    player: str


@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """A manual penalty (a dropped cup, say): ``deckel`` go to ``player``."""

    kind: ClassVar[str] = "penalty"
    is_action: ClassVar[bool] = True
    player: str
    deckel: int


@dataclass(frozen=True, slots=True)
class Drop(Event):
    """``player`` dropped their cup: under ``dropped_cup = "round"`` they lose this round, whatever
    they throw, and take the Deckel of the best throw among the others."""

    kind: ClassVar[str] = "drop"
    is_action: ClassVar[bool] = True
    player: str


@dataclass(frozen=True, slots=True)
class Report(Event):
    """A turn thrown with real dice at the table, reported once it ended (``real_dice`` games).

    ``dice`` are the dice it stood with (any order), ``throws`` the throws it took, ``hand``
    whether they fell in one throw (aus der Hand: nothing laid out), ``blind`` a Blind announced
    after the first throw. The first report of a round sets the throw limit, as a thrown turn does.
    """

    kind: ClassVar[str] = "report"
    is_action: ClassVar[bool] = True
    player: str
    dice: tuple[int, ...]
    throws: int
    hand: bool
    blind: bool = False


@dataclass(frozen=True, slots=True)
class Correct(Event):
    """A wrong entry put right before the round is settled: ``player``'s report in this round
    is replaced by this one (the journal keeps both; replay applies the correction again)."""

    kind: ClassVar[str] = "correct"
    is_action: ClassVar[bool] = True
    player: str
    dice: tuple[int, ...]
    throws: int
    hand: bool
    blind: bool = False

    def as_report(self) -> Report:
        """The report that takes the old one's place."""
        return Report(self.player, self.dice, self.throws, self.hand, self.blind)


@dataclass(frozen=True, slots=True)
class GoScharf(Event):
    """The Spieltag's time box ran out: the game goes on "scharf" (sharp), and from the first
    round nobody has thrown in yet, a round's loser loses the Hälfte (half), or the Finale,
    at once; no Deckel move in that round. ``minutes``: the time box that ran out (for the
    record; the rule is the same for any)."""

    kind: ClassVar[str] = "scharf"
    is_action: ClassVar[bool] = True
    minutes: int = 0


# -- outcomes ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round begins: who throws, in order; ``section`` is 1, 2 (the halves) or 3 (the final)."""

    kind: ClassVar[str] = "round_started"
    section: int
    number: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnOver(Event):
    """A player's turn ended with these dice."""

    kind: ClassVar[str] = "turn_over"
    player: str
    dice: tuple[int, ...]
    hand: bool
    throws: int
    name: str
    limit: int


@dataclass(frozen=True, slots=True)
class DroppedTurn:
    """A dropped cup's row in the reveal (``dropped_cup = "round"``): the player lost the round,
    whatever they threw. In JSON: ``{"event": "turn_over", "player": ..., "dropped": true}``."""

    player: str


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """The reveal: highest and lowest throw, Deckel moved and from where, who is out.

    ``turns``: the round's turns as the reveal shows them, in the order they ended; a dropped
    cup's row stands where the dropper's turn was (or where the cup fell), and the turns of
    players a penalty put out are gone.
    """

    kind: ClassVar[str] = "round_over"
    winner: str
    loser: str
    winning: str
    losing: str
    deckel: int
    source: str
    out: tuple[str, ...]
    pot: int
    holdings: tuple[tuple[str, int], ...]
    turns: tuple[TurnOver | DroppedTurn, ...] = ()
    #: A round played "scharf" (the time box ran out): no Deckel moved, and its loser lost the
    #: half (or the Finale) with it.
    scharf: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyGiven(Event):
    """A penalty's Deckel moved: from the pot, and from ``taken_from`` once the pot ran out.

    ``out``: players the penalty left without Deckel once the pot is empty; they leave the
    round at once and are out for the rest of the half.
    """

    kind: ClassVar[str] = "penalty_given"
    player: str
    deckel: int
    from_pot: int
    taken_from: tuple[tuple[str, int], ...]
    out: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HalfOver(Event):
    """A half (section 1 or 2) or the final (section 3) is lost by ``loser``."""

    kind: ClassVar[str] = "half_over"
    section: int
    loser: str


@dataclass(frozen=True, slots=True)
class FinalStarts(Event):
    """Two different players lost the halves: they play the final."""

    kind: ClassVar[str] = "final_starts"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is decided. ``blattschuss``: one player lost both halves."""

    kind: ClassVar[str] = "game_over"
    loser: str
    blattschuss: bool
    half_losers: tuple[str, ...]


ACTION_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (
        RollOff, Roll, Flip, Stand, Blind, Penalty, Drop, Report, Correct, GoScharf
    )
}
OUTCOME_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (RoundStarted, TurnOver, RoundOver, PenaltyGiven, HalfOver, FinalStarts, GameOver)
}


def to_json(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict whose first key is ``event``."""
    body = asdict(event)
    if isinstance(event, RoundOver):
        # ``scharf`` only where it is true (a line of every other round is as it always was),
        # and ``turns`` last, the long part.
        del body["scharf"], body["turns"]
        if event.scharf:
            body["scharf"] = True
        body["turns"] = [_turn_to_json(turn) for turn in event.turns]
    return {"event": event.kind, **body}


def _turn_to_json(turn: TurnOver | DroppedTurn) -> dict[str, Any]:
    if isinstance(turn, DroppedTurn):
        return {"event": TurnOver.kind, "player": turn.player, "dropped": True}
    return to_json(turn)


def _turn_from_json(data: object) -> TurnOver | DroppedTurn:
    """A row of ``round_over``'s ``turns``: a ``turn_over``, or a dropped cup's row."""
    if not isinstance(data, dict):
        raise IllegalActionError(
            f"event 'round_over': each turn must be a JSON object, got {type(data).__name__}"
        )
    if data.get("dropped") is True:
        if set(data) != {"event", "player", "dropped"} or data["event"] != TurnOver.kind:
            raise IllegalActionError(
                "event 'round_over': a dropped turn is "
                '{"event": "turn_over", "player": NAME, "dropped": true}, '
                f"got {sorted(data)}"
            )
        return DroppedTurn(data["player"])
    turn = from_json(data)
    if not isinstance(turn, TurnOver):
        raise IllegalActionError(
            f"event 'round_over': turns holds turn_over events only, got {turn.kind!r}"
        )
    return turn


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(item) for item in value)
    return value


def from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`to_json`'s form. Raises IllegalActionError if malformed."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"an event must be a JSON object, got {type(data).__name__}")
    name = data.get("event")
    cls = ACTION_TYPES.get(str(name)) or OUTCOME_TYPES.get(str(name))
    if cls is None:
        allowed = ", ".join([*ACTION_TYPES, *OUTCOME_TYPES])
        raise IllegalActionError(f"unknown event {name!r}; events: {allowed}")
    names = {f.name for f in fields(cls)}
    required = {f.name for f in fields(cls) if f.default is MISSING}
    given = {key for key in data if key != "event"}
    if not required <= given <= names:
        problem = sorted(required - given) or sorted(given - names)
        raise IllegalActionError(
            f"event {name!r}: expected fields {sorted(names)}, problem: {problem}"
        )
    values = {key: _tuplify(data[key]) for key in given}
    if cls is RoundOver and "turns" in values:
        turns = data["turns"]
        if not isinstance(turns, list):
            raise IllegalActionError(
                f"event 'round_over': turns must be a list, got {type(turns).__name__}"
            )
        values["turns"] = tuple(_turn_from_json(turn) for turn in turns)
    try:
        return cls(**values)
    except TypeError as error:
        raise IllegalActionError(f"event {name!r}: {error}") from None
