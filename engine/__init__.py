"""The rules of Schocken: pure Python, standard library only.

No I/O, no clock, no random numbers, no threads: dice enter as chance events supplied by the
caller, so every game is a replayable list of actions. Start with :class:`Game`,
:class:`GameSetup`, :func:`load_preset` and :func:`evaluate`.

``import engine`` loads nothing else: each public name below is imported from its module the
first time it is asked for (``from engine import Game`` loads :mod:`engine.game` and what it
needs), so a tool that only ranks a throw does not pay for the game, its events and the odds.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.errors import IllegalActionError, Reason, Refusal, RulesError, SchockenError
    from engine.events import (
        Blind,
        Correct,
        Drop,
        DroppedTurn,
        Event,
        FinalStarts,
        Flip,
        GameOver,
        GoScharf,
        HalfOver,
        Penalty,
        PenaltyGiven,
        Report,
        Roll,
        RollOff,
        RoundOver,
        RoundStarted,
        Stand,
        TurnOver,
        from_json,
        to_json,
    )
    from engine.game import (
        Game,
        GameSetup,
        GameState,
        Phase,
        Scharf,
        SeenTurn,
        TableView,
        TurnState,
    )
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

#: Each public name's module.
_HOMES = {
    "errors": ("IllegalActionError", "Reason", "Refusal", "RulesError", "SchockenError"),
    "events": (
        "Blind", "Correct", "Drop", "DroppedTurn", "Event", "FinalStarts", "Flip", "GameOver",
        "GoScharf", "HalfOver", "Penalty", "PenaltyGiven", "Report", "Roll", "RollOff", "RoundOver",
        "RoundStarted", "Stand", "TurnOver", "from_json", "to_json",
    ),
    "game": (
        "Game", "GameSetup", "GameState", "Phase", "Scharf", "SeenTurn", "TableView", "TurnState",
    ),
    "notation": ("from_notation", "to_notation"),
    "rules": (
        "Rules", "StrasseOrder", "TieRule", "TwoTwoOne", "load_preset", "preset_names",
        "rules_from_mapping", "rules_from_toml",
    ),
    "settle": ("Settlement", "TurnResult", "settle"),
    "throws": ("Evaluation", "Kind", "RankTable", "evaluate", "rank_table"),
}  # fmt: skip
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "Blind", "Correct", "Drop", "DroppedTurn", "Evaluation", "Event", "FinalStarts", "Flip", "Game",
    "GameOver", "GameSetup", "GameState", "GoScharf", "HalfOver", "IllegalActionError", "Kind",
    "Penalty", "PenaltyGiven", "Phase",
    "RankTable", "Reason", "Refusal", "Report", "Roll", "RollOff", "RoundOver", "RoundStarted",
    "Rules",
    "RulesError", "Scharf", "SchockenError", "SeenTurn", "Settlement", "Stand", "StrasseOrder",
    "TableView", "TieRule", "TurnOver", "TurnResult",
    "TurnState", "TwoTwoOne", "evaluate", "from_json", "from_notation", "load_preset",
    "preset_names", "rank_table", "rules_from_mapping", "rules_from_toml", "settle", "to_json",
    "to_notation",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    module: types.ModuleType
    if home == "errors":
        from engine import errors as module
    elif home == "events":
        from engine import events as module
    elif home == "game":
        from engine import game as module
    elif home == "notation":
        from engine import notation as module
    elif home == "rules":
        from engine import rules as module
    elif home == "settle":
        # The package's attribute `settle` is the function (see _Package), not the module.
        from engine.settle import __name__ as settle_module

        module = sys.modules[settle_module]
    else:
        from engine import throws as module
    value = getattr(module, name)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """This package's type: importing :mod:`engine.settle` binds the submodule as an attribute of
    the package, which would hide the function :func:`settle`; the function stays."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "settle" and isinstance(value, types.ModuleType):
            value = value.settle
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
