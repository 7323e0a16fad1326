"""The rules of Schocken: pure Python, standard library only.

No I/O, no clock, no random numbers, no threads: dice enter as chance events supplied by the
caller, so every game is a replayable list of actions. Start with :class:`Game`,
:class:`GameSetup`, :func:`load_preset` and :func:`evaluate`.
"""

from engine.errors import IllegalActionError, Reason, Refusal, RulesError, SchockenError
from engine.events import (
    Blind,
    Event,
    FinalStarts,
    Flip,
    GameOver,
    HalfOver,
    Penalty,
    PenaltyGiven,
    Roll,
    RollOff,
    RoundOver,
    RoundStarted,
    Stand,
    TurnOver,
    from_json,
    to_json,
)
from engine.game import Game, GameSetup, GameState, Phase, SeenTurn, TableView, TurnState
from engine.notation import from_notation, to_notation
from engine.rules import (
    Rules,
    StrasseOrder,
    TieRule,
    TwoTwoOne,
    load_preset,
    preset_names,
    rules_from_mapping,
    rules_from_toml,
)
from engine.settle import Settlement, TurnResult, settle
from engine.throws import Evaluation, Kind, RankTable, evaluate, rank_table

__all__ = [
    "Blind", "Evaluation", "Event", "FinalStarts", "Flip", "Game", "GameOver", "GameSetup",
    "GameState", "HalfOver", "IllegalActionError", "Kind", "Penalty", "PenaltyGiven", "Phase",
    "RankTable", "Reason", "Refusal", "Roll", "RollOff", "RoundOver", "RoundStarted", "Rules",
    "RulesError", "SchockenError", "SeenTurn", "Settlement", "Stand", "StrasseOrder",
    "TableView", "TieRule", "TurnOver", "TurnResult",
    "TurnState", "TwoTwoOne", "evaluate", "from_json", "from_notation", "load_preset",
    "preset_names", "rank_table", "rules_from_mapping", "rules_from_toml", "settle", "to_json",
    "to_notation",
]
