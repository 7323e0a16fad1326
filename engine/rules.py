"""House rules: one frozen :class:`Rules` value with every option the sources leave open.

The sources disagree in places (see docs/rules.md, which quotes them and lists them under
"Sources"); each disagreement is an option here. Presets ship as TOML files in
``engine/presets/`` and each cites its source; ``standard.toml`` sets every option and every
other preset file only what differs from it. A user's own rules are a preset plus overrides::

    preset = "bvb"
    deckel = 15
    jule = true

The engine parses TOML *text* and mappings; reading a user's file from disk is the caller's job
(see :mod:`firmware.store.rulesfile`), so the engine stays free of I/O. Presets are package data,
read with :func:`pkgutil.get_data` (which loads faster than :mod:`importlib.resources`; every
command-line start reads one); :data:`PRESET_NAMES` lists them.
"""

from __future__ import annotations

import enum
import pkgutil
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from engine.errors import RulesError
from engine.limits import toml_document

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


class DroppedCup(enum.Enum):
    """What a dropped cup costs. Wikipedia: "Wer seine Würfel fallen lässt, verliert meist eine
    Spielrunde. In manchen Regionen kostet das eine vereinbarte Zahl von Steinen, meist zwei"."""

    #: The dropper loses the round, whatever they throw, and takes the Deckel of the best throw
    #: among the others.
    ROUND = "round"
    #: The dropper takes ``penalty_deckel`` Deckel at once; the round goes on.
    DECKEL = "deckel"


#: The special throws a rule set may count only from the hand (``hand_only``), in this order.
#: Schock and Schock aus are not among them: a Schock is built by laying out ones, the game's
#: own way, and Schock aus from the hand has ``naturschock_above_built``.
HAND_ONLY_KINDS = ("general", "strasse", "jule", "neuner", "siebener", "achter")

#: The kinds of throw a ``[names]`` table may rename, in this order: the kinds, plus Schock 2 and
#: Schock aus from the hand (Naturschock), which the sources name on their own.
NAME_KEYS = (
    "schock_aus", "naturschock", "schock", "schock_2", "general", "strasse", "hausnummer",
    "jule", "neuner", "siebener", "achter",
)

#: The usual (canonical) name of each kind of throw that ``[names]`` may rename.
USUAL_NAMES = {
    "schock_aus": "Schock aus", "naturschock": "Schock aus", "schock": "Schock",
    "schock_2": "Schock 2", "general": "General", "strasse": "Straße",
    "hausnummer": "Hausnummer", "jule": "Jule", "neuner": "Neuner", "siebener": "Siebener",
    "achter": "Achter",
}

#: What a rules text calls each ``[names]`` key: its usual name, and "Naturschock" for the
#: Schock aus from the hand, which the sources name on their own.
NAME_KEY_LABELS = {**USUAL_NAMES, "naturschock": "Naturschock"}


#: The longest name a ``[names]`` table may give (the device checks the pixels, see
#: :mod:`firmware.screen.throwname`).
MAX_NAME_CHARS = 16


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
    #: The special throws that count only from the hand (all dice in one throw); built up, they
    #: count as a plain Hausnummer. Names from :data:`HAND_ONLY_KINDS`, in that order. Files may
    #: still write the older ``general_hand_only`` and ``strasse_hand_only`` (see
    #: :func:`rules_from_mapping`).
    hand_only: tuple[str, ...] = ()
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
    #: What a dropped cup costs: ``round`` loses the round, ``deckel`` costs ``penalty_deckel``.
    dropped_cup: DroppedCup = DroppedCup.DECKEL
    #: Deckel a manual penalty costs, for example for a dropped cup (Wikipedia: "meist zwei").
    penalty_deckel: int = 2
    #: The last throw stays under the cup until the reveal; others see only laid-out dice.
    hidden_last_throw: bool = True
    #: The device may show odds hints (off under tournament rules).
    hints: bool = True
    #: The table's own names for kinds of throw, for display only: (key, name) pairs with keys
    #: from :data:`NAME_KEYS`, in that order (a TOML table ``[names]``, say ``general = "Jenie"``).
    names: tuple[tuple[str, str], ...] = ()

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
        """The rules as plain TOML-compatible values (enums as their names, ``hand_only`` as a
        list, ``names`` as a table)."""
        return {f.name: plain_value(f.name, getattr(self, f.name)) for f in fields(self)}

    def name_of(self, key: str) -> str | None:
        """The table's own name for the kind of throw ``key`` (see :data:`NAME_KEYS`), or None."""
        for name_key, name in self.names:
            if name_key == key:
                return name
        return None


def plain_value(key: str, value: object) -> Any:
    """One option's value as :meth:`Rules.to_mapping` gives it: an enum as its name,
    ``hand_only`` as a list, ``names`` as a table."""
    if key == "names":
        return dict(value)  # type: ignore[call-overload]
    if key == "hand_only":
        return list(value)  # type: ignore[call-overload]
    return value.value if isinstance(value, enum.Enum) else value


#: How a TOML basic string writes the characters it may not hold as they are (TOML 1.0).
_TOML_ESCAPES = {
    '"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
    "\r": "\\r",
}


def toml_value(value: object) -> str:
    """``value`` (a bool, number, string, list or table of them) as TOML writes it, on one line:
    a string in double quotes with its control characters escaped, a table inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        pairs = (f"{_toml_key(str(key))} = {toml_value(item)}" for key, item in value.items())
        return "{" + ", ".join(pairs) + "}"
    text = str(value)
    escaped = "".join(
        _TOML_ESCAPES.get(char)
        or (f"\\u{ord(char):04x}" if ord(char) < 0x20 or ord(char) == 0x7F else char)
        for char in text
    )
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    """A key as TOML writes it: bare if it may be, else quoted."""
    bare = key and all(char.isascii() and (char.isalnum() or char in "-_") for char in key)
    return key if bare else toml_value(key)


_FIELD_TYPES: dict[str, type] = {
    "name": str,
    "description": str,
    "source": str,
    "deckel": int,
    "max_throws": int,
    "general_above_schock2": bool,
    "strasse_order": StrasseOrder,
    "hand_only": tuple,
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
    "dropped_cup": DroppedCup,
    "penalty_deckel": int,
    "hidden_last_throw": bool,
    "hints": bool,
    "names": dict,
}
assert set(_FIELD_TYPES) == {f.name for f in fields(Rules)}, "every Rules field needs a type"

#: Other spellings accepted in TOML values, mapped to the canonical value.
_ALIASES = {"earlier_wins": "nachgelegt", "later_is_lower": "nachgelegt"}


#: The older yes/no keys that ``hand_only`` replaced, still read from files: key -> throw.
HAND_ONLY_ALIASES = {"general_hand_only": "general", "strasse_hand_only": "strasse"}


def _hand_only(value: object) -> tuple[str, ...]:
    allowed = ", ".join(map(repr, HAND_ONLY_KINDS))
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"hand_only = {value!r}: must be a list of throws out of {allowed}")
    unknown = [v for v in value if v not in HAND_ONLY_KINDS]
    if unknown:
        raise RulesError(
            f"hand_only = {list(value)!r}: unknown throw {unknown[0]!r}; allowed are {allowed}"
        )
    return tuple(kind for kind in HAND_ONLY_KINDS if kind in value)


def _names(value: object, base: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """A ``[names]`` table merged onto ``base``; a name equal to the usual one drops it."""
    if not isinstance(value, Mapping):
        raise RulesError(f"names = {value!r}: must be a table such as [names] general = \"Jenie\"")
    merged = dict(base)
    for key, name in value.items():
        if key not in NAME_KEYS:
            raise RulesError(
                f"names = {dict(value)!r}: unknown kind of throw {key!r}; "
                f"allowed are {', '.join(NAME_KEYS)}"
            )
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise RulesError(f"names.{key} = {name!r}: must be a name, no outer spaces")
        if len(name) > MAX_NAME_CHARS or not name.isprintable():
            raise RulesError(
                f"names.{key} = {name!r}: at most {MAX_NAME_CHARS} printable characters"
            )
        merged[key] = name
    usual = {key: USUAL_NAMES[key] for key in NAME_KEYS}
    return tuple(
        (key, merged[key]) for key in NAME_KEYS if key in merged and merged[key] != usual[key]
    )


def _convert(key: str, value: object) -> object:
    expected = _FIELD_TYPES[key]
    if key == "hand_only":
        return _hand_only(value)
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


#: Words for rules that differ from their preset: ``describe(preset, rules, changed)``, with the
#: changed options' names in field order (see :func:`describe_changes`).
Describe = Callable[["Rules", "Rules", Sequence[str]], str]


def describe_option(key: str, value: object) -> str:
    """One option as a rules file writes it, ``key = value``: the engine's plain words for it
    (the device has words of its own, in its catalogue)."""
    return f"{key} = {toml_value(plain_value(key, value))}"


def describe_changes(base: Rules, rules: Rules, changed: Sequence[str]) -> str:
    """What ``rules`` change of their preset ``base``, plainly: ``as standard, but deckel = 15``."""
    wording = ", ".join(describe_option(key, getattr(rules, key)) for key in changed)
    return f"as {base.name}, but {wording}"


def rules_from_mapping(
    mapping: Mapping[str, object],
    *,
    base: Rules | None = None,
    describe: Describe = describe_changes,
) -> Rules:
    """Rules from parsed TOML: ``preset = NAME`` (optional) plus overrides of any field.

    Unknown keys and ill-typed values raise :class:`RulesError` naming the key and what is
    allowed.

    Without ``preset`` and without ``base`` the mapping overrides the ``standard`` preset. Rules
    that differ from their preset are named after it with a ``+`` (``standard+``) and described
    by ``describe`` (by default :func:`describe_changes`: "as standard, but deckel = 15"),
    unless the mapping names and describes them itself.
    """
    values = dict(mapping)
    preset = values.pop("preset", None)
    aliases = {key: values.pop(key) for key in HAND_ONLY_ALIASES if key in values}
    if preset is not None:
        if not isinstance(preset, str):
            raise RulesError(f"preset = {preset!r}: must be a preset name")
        base = load_preset(preset)
    elif base is None:
        preset, base = "standard", load_preset("standard")
    unknown = sorted(set(values) - set(_FIELD_TYPES))
    if unknown:
        raise RulesError(
            f"unknown rules key {unknown[0]!r}; allowed keys: preset, {', '.join(_FIELD_TYPES)} "
            f"(older: {', '.join(HAND_ONLY_ALIASES)})"
        )
    names = values.pop("names", None)
    converted = {key: _convert(key, value) for key, value in values.items()}
    if names is not None:
        converted["names"] = _names(names, base.names)
    if aliases:
        hand_only = set(converted.get("hand_only", base.hand_only))  # type: ignore[call-overload]
        for key, flag in aliases.items():
            if not isinstance(flag, bool):
                raise RulesError(f"{key} = {flag!r}: must be true or false")
            kind = HAND_ONLY_ALIASES[key]
            if "hand_only" in converted and kind in hand_only and not flag:
                raise RulesError(
                    f"{key} = false contradicts hand_only, which lists {kind!r}; "
                    "write only hand_only"
                )
            hand_only = hand_only | {kind} if flag else hand_only - {kind}
        converted["hand_only"] = tuple(k for k in HAND_ONLY_KINDS if k in hand_only)
    rules = replace(base, **converted)  # type: ignore[arg-type]
    changed = differences(base, rules)
    if preset is not None and "name" not in converted:
        rules = replace(rules, name=f"{base.name}+" if changed else base.name)
    if preset is not None and changed and "description" not in converted:
        rules = replace(rules, description=describe(base, rules, changed))
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


def rules_from_toml(
    text: str, *, origin: str = "rules", describe: Describe = describe_changes
) -> Rules:
    """Rules from TOML text (a preset plus overrides); ``origin`` names it in errors, and
    ``describe`` words what differs from the preset (see :func:`rules_from_mapping`)."""
    data = toml_document(text, origin=origin, error=RulesError, max_bytes=MAX_RULES_BYTES)
    try:
        return rules_from_mapping(data, describe=describe)
    except RulesError as error:
        raise RulesError(f"{origin}: {error}") from None


#: The presets shipped in ``engine/presets/`` (one ``NAME.toml`` each), sorted.
PRESET_NAMES = ("boerde", "bvb", "dsm", "standard", "westfalen")


def preset_names() -> list[str]:
    """The names of the presets shipped with the engine, sorted."""
    return list(PRESET_NAMES)


#: The preset every other one extends: its file sets every option, the others only what differs.
BASE_PRESET = "standard"


@cache
def load_preset(name: str) -> Rules:
    """The preset called ``name``; unknown names raise :class:`RulesError` listing the presets."""
    names = preset_names()
    if name not in names:
        raise RulesError(f"unknown rules preset {name!r}; presets: {', '.join(names)}")
    return _preset_from_text(name, _preset_text(name))


def _preset_from_text(name: str, text: str) -> Rules:
    """The preset ``name`` from its file's text: :data:`BASE_PRESET`'s file sets every option,
    every other file its own name, description and source plus what differs from it."""
    origin = f"preset file {name}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{origin}: not valid TOML: {error}") from None
    if "preset" in data:
        raise RulesError(f"{origin}: must not name a preset; every preset extends {BASE_PRESET}")
    missing = [key for key in _LABELS if key not in data]
    if missing:
        raise RulesError(f"{origin}: must give its own {', '.join(missing)}")
    base = Rules() if name == BASE_PRESET else load_preset(BASE_PRESET)
    try:
        rules = rules_from_mapping(data, base=base)
    except RulesError as error:
        raise RulesError(f"{origin}: {error}") from None
    if rules.name != name:
        raise RulesError(f"{origin} names itself {rules.name!r}")
    return rules


def _preset_text(name: str) -> str:
    data = pkgutil.get_data("engine", f"presets/{name}.toml")
    if data is None:  # a loader that cannot read package data
        raise RulesError(f"preset {name!r} cannot be read from the engine's package")
    return data.decode("utf-8")
