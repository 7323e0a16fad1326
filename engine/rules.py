"""House rules: one frozen :class:`Rules` value with every option the sources leave open.

The sources disagree in places (see docs/rules.md, which quotes them and lists them under
"Sources"); each disagreement is an option here. Presets ship as TOML files in
``engine/presets/`` and each cites its source. A user's
own rules are a preset plus overrides::

    preset = "bvb"
    deckel = 15
    jule = true

The engine parses TOML *text* and mappings; reading a user's file from disk is the caller's job
(see :mod:`firmware.rulesfile`), so the engine stays free of I/O. Presets are package data,
read with :func:`pkgutil.get_data` (which loads faster than :mod:`importlib.resources`; every
command-line start reads one); :data:`PRESET_NAMES` lists them.
"""

from __future__ import annotations

import enum
import pkgutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from engine.errors import RulesError
from engine.limits import InputLimitError, toml_loads

#: The longest rules TOML text we read (a complete rules file is about 1 kB).
MAX_RULES_BYTES = 64 * 1024


class StrasseOrder(enum.Enum):
    """How Straßen (straights) rank among each other: the four ways Wikipedia lists."""

    #: "aufsteigend sortiert": 6-5-4 beats 5-4-3 beats 4-3-2 beats 3-2-1 (Regeln und
    #: Varianten, "Was ist Schocken?"; BVB).
    ASCENDING = "ascending"
    #: "alle gleich": every Straße is equally strong; the tie rule decides.
    EQUAL = "equal"
    #: "die zuerst gewürfelte Straße höher": of two Straßen, the earlier thrower's wins.
    FIRST_THROWN = "first_thrown"
    #: "eine Straße aus dem ersten Wurf höher als eine aus dem zweiten": fewer throws wins.
    FEWER_THROWS = "fewer_throws"


class TieRule(enum.Enum):
    """Who is ahead when two throws are equally strong."""

    #: Fewer throws wins; equal throws: the earlier thrower (Regeln und Varianten; Wikipedia, DSM).
    FEWER_THROWS = "fewer_throws"
    #: The later throw is "nachgelegt", always lower: the earlier thrower wins ("Was ist
    #: Schocken?"; BVB: "Bei gleichem Wurf gewinnt, wer ihn zuerst geworfen hat").
    NACHGELEGT = "nachgelegt"


class TwoTwoOne(enum.Enum):
    """What the throw 2-2-1 is worth (Wikipedia's regional rules)."""

    #: The lowest Hausnummer, the worst throw of all (standard; the table of
    #: "Was ist Schocken?" ends with it).
    LOWEST = "lowest"
    #: "Neuner": the second-highest throw, just below Schock aus, nine Deckel.
    NEUNER = "neuner"
    #: "Siebener" (parts of Westphalia): seven Deckel, ranked with the Jule.
    SIEBENER = "siebener"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house-rule option, with the defaults of the ``standard`` preset."""

    name: str = "standard"
    description: str = ""
    #: Where the preset's choices come from (source and section).
    source: str = ""
    #: Deckel (beer mats, the penalty points) in the pot at the start of a half (Wikipedia: 13-17).
    deckel: int = 13
    #: Throws a turn may use; the round's first player may set a lower limit for everyone.
    max_throws: int = 3
    #: True: General beats Schock 2 (BVB, DSM); False: Schock 2 beats every General
    #: ("Was ist Schocken?").
    general_above_schock2: bool = False
    strasse_order: StrasseOrder = StrasseOrder.ASCENDING
    #: A General counts only from the hand (all three dice in one throw), else as a Hausnummer.
    general_hand_only: bool = False
    #: A Straße counts only from the hand, "nur, wenn sie in einem Wurf fällt" (DSM), else as a
    #: Hausnummer.
    strasse_hand_only: bool = False
    #: A Schock aus from the hand (Naturschock) beats one that was built up.
    naturschock_above_built: bool = False
    ties: TieRule = TieRule.FEWER_THROWS
    #: Jule or "scharfe Sieben": 4-2-1 between Schock 6 and Schock aus, seven Deckel.
    jule: bool = False
    two_two_one: TwoTwoOne = TwoTwoOne.LOWEST
    #: 3-3-1 as "Achter": eight Deckel, between the sevens and the Neuner.
    achter: bool = False
    #: Two sixes in one throw may be flipped: one becomes a 1 and is laid out.
    flip_sixes: bool = True
    #: "Blind" after the first throw: no more throws; the round's highest throw counts double.
    blind: bool = False
    #: Bördeschock (Soest): sixes may be collected and flipped later; each flip earns one more
    #: throw, so a turn can have up to five throws.
    boerdeschock: bool = False
    #: Dortmund's two-dice variant: two dice are thrown, the third is imagined to fit best.
    two_dice: bool = False
    #: Only ones may be laid out ("In manchen Runden dürfen nur Einsen herausgelegt werden").
    keep_only_ones: bool = False
    #: Comfort: laid-out dice may be taken back into the cup (the app of
    #: "Schocken: Regeln und Varianten" allows it).
    take_back: bool = False
    #: Deckel a manual penalty costs, for example for a dropped cup (Wikipedia: "meist zwei").
    penalty_deckel: int = 2
    #: The last throw stays under the cup until the reveal; others see only laid-out dice.
    hidden_last_throw: bool = True
    #: The device may show odds hints (off under tournament rules).
    hints: bool = True

    def __post_init__(self) -> None:
        if not 2 <= self.deckel <= 99:
            raise RulesError(f"deckel = {self.deckel}: allowed are 2 to 99 Deckel")
        if not 1 <= self.max_throws <= 5:
            raise RulesError(f"max_throws = {self.max_throws}: allowed are 1 to 5 throws")
        if not 0 <= self.penalty_deckel <= self.deckel:
            raise RulesError(
                f"penalty_deckel = {self.penalty_deckel}: allowed are 0 to deckel ({self.deckel})"
            )

    @property
    def dice_count(self) -> int:
        """Dice in the cup: three, or two in the two-dice variant."""
        return 2 if self.two_dice else 3

    def to_mapping(self) -> dict[str, Any]:
        """The rules as plain TOML-compatible values (enums as their names)."""
        result: dict[str, Any] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            result[field.name] = value.value if isinstance(value, enum.Enum) else value
        return result

    def to_toml(self) -> str:
        """The rules as a TOML document that :func:`rules_from_toml` reads back."""
        lines = []
        for key, value in self.to_mapping().items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, int):
                text = str(value)
            else:
                text = '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
            lines.append(f"{key} = {text}")
        return "\n".join(lines) + "\n"


_FIELD_TYPES: dict[str, type] = {
    "name": str,
    "description": str,
    "source": str,
    "deckel": int,
    "max_throws": int,
    "general_above_schock2": bool,
    "strasse_order": StrasseOrder,
    "general_hand_only": bool,
    "strasse_hand_only": bool,
    "naturschock_above_built": bool,
    "ties": TieRule,
    "jule": bool,
    "two_two_one": TwoTwoOne,
    "achter": bool,
    "flip_sixes": bool,
    "blind": bool,
    "boerdeschock": bool,
    "two_dice": bool,
    "keep_only_ones": bool,
    "take_back": bool,
    "penalty_deckel": int,
    "hidden_last_throw": bool,
    "hints": bool,
}
assert set(_FIELD_TYPES) == {f.name for f in fields(Rules)}, "every Rules field needs a type"

#: Other spellings accepted in TOML values, mapped to the canonical value.
_ALIASES = {"earlier_wins": "nachgelegt", "later_is_lower": "nachgelegt"}


def _convert(key: str, value: object) -> object:
    expected = _FIELD_TYPES[key]
    if isinstance(expected, type) and issubclass(expected, enum.Enum):
        allowed = [member.value for member in expected]
        if isinstance(value, str) and _ALIASES.get(value, value) in allowed:
            return expected(_ALIASES.get(value, value))
        raise RulesError(f"{key} = {value!r}: allowed are {', '.join(map(repr, allowed))}")
    # bool is a subclass of int: refuse `deckel = true` and `jule = 1` alike.
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"{key} = {value!r}: must be a whole number")
    if expected is bool and not isinstance(value, bool):
        raise RulesError(f"{key} = {value!r}: must be true or false")
    if expected is str and not isinstance(value, str):
        raise RulesError(f"{key} = {value!r}: must be a string")
    return value


def rules_from_mapping(mapping: Mapping[str, object], *, base: Rules | None = None) -> Rules:
    """Rules from parsed TOML: ``preset = NAME`` (optional) plus overrides of any field.

    Unknown keys and ill-typed values raise :class:`RulesError` naming the key and what is
    allowed.

    Without ``preset`` and without ``base`` the mapping overrides the ``standard`` preset. Rules
    that differ from their preset are named after it with a ``+`` (``standard+``) and described
    by what differs, in the words of :func:`describe_option` ("wie standard, aber 15 Deckel"),
    unless the mapping names and describes them itself.
    """
    values = dict(mapping)
    preset = values.pop("preset", None)
    if preset is not None:
        if not isinstance(preset, str):
            raise RulesError(f"preset = {preset!r}: must be a preset name")
        base = load_preset(preset)
    elif base is None:
        preset, base = "standard", load_preset("standard")
    unknown = sorted(set(values) - set(_FIELD_TYPES))
    if unknown:
        raise RulesError(
            f"unknown rules key {unknown[0]!r}; allowed keys: preset, {', '.join(_FIELD_TYPES)}"
        )
    converted = {key: _convert(key, value) for key, value in values.items()}
    rules = replace(base, **converted)  # type: ignore[arg-type]
    changed = differences(base, rules)
    if preset is not None and "name" not in converted:
        rules = replace(rules, name=f"{base.name}+" if changed else base.name)
    if preset is not None and changed and "description" not in converted:
        wording = ", ".join(describe_option(key, getattr(rules, key)) for key in changed)
        rules = replace(rules, description=f"wie {base.name}, aber {wording}")
    return rules


#: The fields that say what rules are called, not how the game goes.
_LABELS = ("name", "description", "source")


def differences(base: Rules, rules: Rules) -> list[str]:
    """The options (field names, in field order) in which ``rules`` differ from ``base``."""
    return [
        field.name
        for field in fields(Rules)
        if field.name not in _LABELS and getattr(base, field.name) != getattr(rules, field.name)
    ]


#: How each yes/no option reads in a description, for true and for false (German, as the
#: presets' descriptions and the device's menus).
_SWITCH_WORDS: dict[str, tuple[str, str]] = {
    "general_above_schock2": ("General über Schock 2", "Schock 2 über dem General"),
    "general_hand_only": ("General nur aus der Hand", "General auch zusammengewürfelt"),
    "strasse_hand_only": ("Straße nur aus der Hand", "Straße auch zusammengewürfelt"),
    "naturschock_above_built": (
        "Naturschock über gebautem Schock aus", "jeder Schock aus gleich"
    ),
    "jule": ("Jule 4-2-1 (7 Deckel)", "keine Jule"),
    "achter": ("3-3-1 als Achter (8 Deckel)", "kein Achter"),
    "flip_sixes": ("Sechsen drehen", "kein Sechsen-Drehen"),
    "blind": ("Blind ansagen", "kein Blind"),
    "boerdeschock": ("Bördeschock: Sechsen sammeln", "kein Bördeschock"),
    "two_dice": ("zwei Würfel", "drei Würfel"),
    "keep_only_ones": ("nur Einsen rauslegen", "jeder Würfel darf raus"),
    "take_back": ("Zurücknehmen erlaubt", "was liegt, liegt"),
    "hidden_last_throw": ("letzter Wurf verdeckt", "letzter Wurf offen"),
    "hints": ("Tipps an", "keine Tipps"),
}
_CHOICE_WORDS: dict[enum.Enum, str] = {
    StrasseOrder.ASCENDING: "höhere Straße gewinnt",
    StrasseOrder.EQUAL: "alle Straßen gleich",
    StrasseOrder.FIRST_THROWN: "zuerst gewürfelte Straße gewinnt",
    StrasseOrder.FEWER_THROWS: "Straße aus weniger Würfen gewinnt",
    TieRule.FEWER_THROWS: "Gleichstand: weniger Würfe gewinnt",
    TieRule.NACHGELEGT: "Gleichstand: wer zuerst warf, gewinnt",
    TwoTwoOne.LOWEST: "2-2-1 niedrigster Wurf",
    TwoTwoOne.NEUNER: "2-2-1 als Neuner (9 Deckel)",
    TwoTwoOne.SIEBENER: "2-2-1 als Siebener (7 Deckel)",
}


def describe_option(key: str, value: object) -> str:
    """One option's value in a few German words, as a rules description says it."""
    if key in _SWITCH_WORDS:
        return _SWITCH_WORDS[key][0 if value else 1]
    if isinstance(value, enum.Enum):
        return _CHOICE_WORDS[value]
    if key == "deckel":
        return f"{value} Deckel"
    if key == "max_throws":
        return f"höchstens {value} {'Wurf' if value == 1 else 'Würfe'}"
    if key == "penalty_deckel":
        return f"Strafe {value} Deckel" if value else "keine Strafen"
    raise KeyError(f"no words for the rules option {key!r}")


def rules_from_toml(text: str, *, origin: str = "rules") -> Rules:
    """Rules from TOML text (a preset plus overrides); ``origin`` names it in errors."""
    try:
        data = toml_loads(text, max_bytes=MAX_RULES_BYTES)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{origin}: not valid TOML: {error}") from None
    except InputLimitError as error:
        raise RulesError(f"{origin}: {error}") from None
    try:
        return rules_from_mapping(data)
    except RulesError as error:
        raise RulesError(f"{origin}: {error}") from None


#: The presets shipped in ``engine/presets/`` (one ``NAME.toml`` each), sorted.
PRESET_NAMES = ("boerde", "bvb", "dsm", "standard", "westfalen")


def preset_names() -> list[str]:
    """The names of the presets shipped with the engine, sorted."""
    return list(PRESET_NAMES)


@cache
def load_preset(name: str) -> Rules:
    """The preset called ``name``; unknown names raise :class:`RulesError` listing the presets."""
    names = preset_names()
    if name not in names:
        raise RulesError(f"unknown rules preset {name!r}; presets: {', '.join(names)}")
    data = tomllib.loads(_preset_text(name))
    if "preset" in data:
        raise RulesError(f"preset {name!r} must not extend another preset")
    rules = rules_from_mapping(data, base=Rules())
    if rules.name != name:
        raise RulesError(f"preset file {name}.toml names itself {rules.name!r}")
    return rules


def _preset_text(name: str) -> str:
    data = pkgutil.get_data("engine", f"presets/{name}.toml")
    if data is None:  # a loader that cannot read package data
        raise RulesError(f"preset {name!r} cannot be read from the engine's package")
    return data.decode("utf-8")
