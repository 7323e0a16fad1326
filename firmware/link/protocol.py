"""The link protocol's grammar: parsing host lines, formatting device lines, encoding frames.

Pure functions and values, no I/O and no threads: the device side (:mod:`firmware.link.remote`) and
any host (the simulator's remote panel, a test, a script) share them. The protocol itself is
described for humans in docs/protocol.md; this module is its executable form.

Every line is UTF-8 text ending in LF (a CR before the LF is ignored). A line is a command word,
optionally followed by one space and an argument; JSON payloads are the rest of the line. A host
line holds no control, format (bidi overrides, zero-width), separator, private-use or unassigned
character, neither raw nor as a ``\\u`` escape in its JSON; words are ASCII and only ASCII
letters fold to lower case, so a look-alike (a Kelvin sign for the K of ``keep1``) matches nothing.

:func:`parse_command` makes one frozen dataclass of each host line (:class:`Press`,
:class:`Setup`, ...); a ``setup``'s JSON is checked here into typed values, and
:meth:`Setup.on` adds what only the device knows (the players and rules set up now).
:func:`read_line` gives the same answer as a value (:data:`Parsed`), for a line parsed on one
thread and carried out on another.
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from PIL import Image

from engine.errors import IllegalActionError, RulesError
from engine.game import GameSetup
from engine.limits import InputLimitError, ascii_whole_number, json_loads, json_problem
from engine.rules import Rules, load_preset, preset_names, rules_from_mapping
from engine.strategy_names import STRATEGY_NAMES
from firmware.names import PlayerNameError, check_player_names
from firmware.screen.rulestext import describe_changes
from firmware.screen.throwname import check_throw_names
from hal.ports import SCREEN_SIZE, Button

__all__ = [
    "BUTTON_NAMES",
    "COMMANDS",
    "DEVICE_WORDS",
    "FRAME_BYTES",
    "LOG_PAGE_BYTES",
    "MAX_LINE",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "Abandon",
    "Auth",
    "Command",
    "CorrectTurn",
    "DeviceLine",
    "EntryError",
    "Frames",
    "Hello",
    "Help",
    "Hold",
    "Log",
    "Pair",
    "Parsed",
    "Ping",
    "Press",
    "ProtocolError",
    "ReportRollOff",
    "ReportTurn",
    "RulesChange",
    "Setup",
    "SetupError",
    "Shake",
    "SpieltagAsk",
    "SpieltagBegin",
    "SpieltagEnd",
    "State",
    "Stats",
    "Unpair",
    "decode_frame",
    "encode_frame",
    "format_line",
    "help_text",
    "log_page",
    "one_line",
    "parse_command",
    "parse_device_line",
    "read_line",
    "to_json_text",
]

#: The first word after ``hello``: tells a host it is talking to a Schockbesteck.
PROTOCOL_NAME = "schockbesteck"
#: Raised on incompatible changes; a host should refuse a version it does not know.
PROTOCOL_VERSION = 2
#: The longest host-to-device line in bytes, without its line ending.
MAX_LINE = 1024
#: Longest token ``ping`` echoes back.
MAX_PING_TOKEN = 64
#: The most bytes of event lines in one ``log`` answer: an eighth of the link's send queue
#: (256 KiB), so that no answer can overrun it. A longer log comes in pages (``log FROM``).
LOG_PAGE_BYTES = 32 * 1024

#: Unicode categories no host line may hold: controls (C0, DEL, C1 such as U+0085), format
#: characters (bidi overrides such as U+202E, zero-width characters), line and paragraph
#: separators (U+2028, U+2029), surrogates, private use and unassigned code points. Python's
#: ``str.isprintable`` refuses each of them, so a printable line needs no look at each character.
_FORBIDDEN = {
    "Cc": "control", "Cf": "format", "Zl": "line separator", "Zp": "paragraph separator",
    "Cs": "surrogate", "Co": "private-use", "Cn": "unassigned",
}

#: The protocol's names of the buttons (the :class:`~hal.ports.Button` values).
BUTTON_NAMES: dict[str, Button] = {button.value: button for button in Button}

#: Words that begin device-to-host lines only. A device that receives one (its own output echoed
#: back by a terminal or a tty in cooked mode, or a second device on the line) ignores the line
#: instead of answering it with an error, so an echo can never start an endless exchange.
DEVICE_WORDS = frozenset({"event", "frame", "ok", "error", "pong", "overrun", "end"})


class ProtocolError(ValueError):
    """A line that breaks the protocol; its message is the one-line reason sent after ``error``."""


#: The answer to a line that tripped a bug of the device's own: the details go to its log (once,
#: :class:`hal.quietlog.QuietLog`), never to the host.
INTERNAL_ERROR = "internal error: the device could not carry out this line; its log says where"


# -- host commands -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed host line: each command is a class of its own, told apart with ``match``."""

    #: The command word.
    word: ClassVar[str] = ""
    #: How ``help`` shows the command, where its word alone does not.
    usage: ClassVar[str] = ""
    #: Whether the command changes the device: only a paired host may send it (see
    #: :mod:`firmware.link.pairing`).
    changing: ClassVar[bool] = False

    @classmethod
    def parse(cls, rest: str) -> Command | None:
        """The command of a line with this word and the argument ``rest``.

        This one is a question without an argument; with one, the line is the device's own
        answer of the same word (``state {...}``) echoed back: None, ignored.
        """
        return None if rest else cls()


@dataclass(frozen=True, slots=True)
class _ButtonCommand(Command):
    """A command that names a button."""

    button: Button

    @classmethod
    def parse(cls, rest: str) -> Command:
        button = BUTTON_NAMES.get(_ascii_lower(rest))
        if button is None:
            allowed = ", ".join(BUTTON_NAMES)
            what = f"unknown button {_shorten(rest)}" if rest else "no button given"
            raise ProtocolError(f"{cls.word}: {what}; buttons: {allowed}")
        return cls(button)


@dataclass(frozen=True, slots=True)
class Press(_ButtonCommand):
    """``press BUTTON``: a short press of the button."""

    word = "press"
    usage = "press BUTTON"
    changing = True


@dataclass(frozen=True, slots=True)
class Hold(_ButtonCommand):
    """``hold BUTTON``: a long press of the button."""

    word = "hold"
    usage = "hold BUTTON"
    changing = True


@dataclass(frozen=True, slots=True)
class _ActionWithoutArgument(Command):
    """A command that changes the device and takes no argument: one is an error line, never an
    echo to ignore, since the host meant to act."""

    changing = True

    @classmethod
    def parse(cls, rest: str) -> Command:
        if rest:
            raise ProtocolError(f"{cls.word} takes no argument, got {_shorten(rest)}")
        return cls()


@dataclass(frozen=True, slots=True)
class Shake(_ActionWithoutArgument):
    """``shake``: a whole shake of the cup, then the throw."""

    word = "shake"


@dataclass(frozen=True, slots=True)
class Abandon(_ActionWithoutArgument):
    """``abandon``: give up the game under way, as the menu's "Neues Spiel" does once confirmed.

    The game counts for nobody and its journal is dropped; the device goes to its setup. The host
    asks the person first (the page does): there is no undo.
    """

    word = "abandon"


@dataclass(frozen=True, slots=True)
class State(Command):
    """``state``: the state snapshot."""

    word = "state"


@dataclass(frozen=True, slots=True)
class Log(Command):
    """``log [FROM]``: a page of the game's log from event ``start`` on."""

    word = "log"
    usage = "log [FROM]"
    start: int = 0

    @classmethod
    def parse(cls, rest: str) -> Command | None:
        if not rest:
            return cls()
        start = ascii_whole_number(rest)
        return None if start is None else cls(start)  # else: a log line echoed


@dataclass(frozen=True, slots=True)
class RulesChange:
    """``setup``'s rules as an object of rules keys without a preset: a change of the rules
    set up now (which only the device knows)."""

    keys: Mapping[str, Any]

    def on(self, rules: Rules) -> Rules:
        """``rules`` changed by these keys; :class:`SetupError` if they do not make rules."""
        try:
            changed = rules_from_mapping(self.keys, base=rules, describe=describe_changes)
            return check_throw_names(changed)
        except RulesError as error:
            raise SetupError(f"setup: {error}") from None


@dataclass(frozen=True, slots=True)
class Setup(Command):
    """``setup {...}``: players, rules and computer players of the next game, checked.

    None leaves a part as it is set up. ``rules`` are a preset's (an object with a ``preset``
    starts from it), or a :class:`RulesChange`; ``bots`` has an entry per seat from the first,
    a strategy or "" for a person. What only the device knows (the current players and rules)
    is added by :meth:`on`.
    """

    word = "setup"
    usage = (
        'setup {"players": [...], "rules": "NAME" or {...}, "bots": [...], "real_dice": BOOL}'
    )
    changing = True
    players: tuple[str, ...] | None = None
    rules: Rules | RulesChange | None = None
    bots: tuple[str, ...] | None = None
    #: Real dice at the table ("Echte Würfel") or the device's; None: as set up now.
    real_dice: bool | None = None

    @classmethod
    def parse(cls, rest: str) -> Command:
        return _setup(_parse_json(cls, rest))

    def on(self, current: GameSetup | None) -> tuple[GameSetup, tuple[str, ...] | None]:
        """The next game's setup, this command on top of ``current`` (as it is set up now), and
        its computer players per seat (None: as they are; people at the end left out).

        Raises :class:`SetupError` for what only ``current`` tells: a rules change that makes no
        rules, no players set up yet, more seats in ``bots`` than players.
        """
        rules = current.rules if current is not None else Rules()
        if isinstance(self.rules, RulesChange):
            rules = self.rules.on(rules)
        elif self.rules is not None:
            rules = self.rules
        players = self.players if self.players is not None else _current_players(current)
        bots = self.bots
        if bots is not None and len(bots) > len(players):
            raise SetupError(_bots_problem(len(players)))
        if bots is not None:
            bots = bots[: max((seat + 1 for seat, bot in enumerate(bots) if bot), default=0)]
        real_dice = current.real_dice if current is not None else False
        if self.real_dice is not None:
            real_dice = self.real_dice
        return GameSetup(players, rules, real_dice), bots


class SetupError(ProtocolError):
    """A ``setup`` payload the device refuses.

    The device reads a payload only once the host may set up (paired, and no game running), so
    :class:`~firmware.link.remote.Remote` checks that first, then asks :meth:`on`: the problem
    as the device answers it with the next setup as it stands, after the checks that come
    before it (a rules change, which only the current rules tell; the seats of a ``bots`` list
    when the payload names no players).
    """

    def __init__(
        self, reason: str, *, rules: RulesChange | None = None, seats_unknown: bool = False
    ) -> None:
        super().__init__(reason)
        self.rules = rules
        self.seats_unknown = seats_unknown

    def on(self, current: GameSetup | None) -> SetupError:
        """The refusal with ``current`` as the next setup: this one, or one that comes first."""
        if self.rules is not None:
            self.rules.on(current.rules if current is not None else Rules())
        if self.seats_unknown:
            return SetupError(_bots_problem(len(_current_players(current))))
        return self


_SETUP_KEYS = (
    'keys: "players" (2 to 10 names), "rules" (a preset name or an object of rules), '
    '"bots" (a strategy or "" per seat), "real_dice" (true or false)'
)
#: What ``setup``'s ``bots`` may name for a seat: a strategy, or a person.
_SEAT_WORDS = (*STRATEGY_NAMES, "", "human")


def _setup(payload: dict[str, Any]) -> Setup:
    """``setup``'s payload checked, in the order the device answers its problems."""
    unknown = sorted(set(payload) - {"players", "rules", "bots", "real_dice"})
    if unknown or not payload:
        what = "unknown key " + repr(unknown[0]) if unknown else "nothing to set"
        raise SetupError(f"setup: {what}; {_SETUP_KEYS}")
    rules = _setup_rules(payload["rules"]) if "rules" in payload else None
    try:
        given = payload.get("players")
        players = None if given is None else _setup_players(given)
        bots = None
        if "bots" in payload:
            bots = _setup_bots(payload["bots"], None if players is None else len(players))
    except SetupError as error:
        # A rules change is checked on the current rules: its problem would come first.
        error.rules = rules if isinstance(rules, RulesChange) else None
        raise
    real_dice = payload.get("real_dice")
    if real_dice is not None and not isinstance(real_dice, bool):
        raise SetupError('setup: "real_dice" must be true (real dice at the table) or false')
    return Setup(players, rules, bots, real_dice)


def _setup_rules(value: object) -> Rules | RulesChange:
    """A preset name, or an object of rules keys (on its own ``preset``, or a change)."""
    if isinstance(value, str):
        if value not in preset_names():
            # Only presets: the link never makes the device read a file.
            presets = ", ".join(preset_names())
            raise SetupError(f"setup: unknown rules {value!r}; presets: {presets}")
        return load_preset(value)
    if isinstance(value, dict):
        change = RulesChange(value)
        # With a preset the object makes rules of its own; without one it changes the current.
        return change if value.get("preset") is None else change.on(Rules())
    raise SetupError('setup: "rules" must be a preset name or an object of rules keys')


def _setup_players(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise SetupError('setup: "players" must be a list of names, e.g. ["Anna", "Ben"]')
    return _checked_players(tuple(value))


def _checked_players(players: tuple[str, ...]) -> tuple[str, ...]:
    """``players`` if the engine and the screen take them (2 to 10, distinct, short)."""
    try:
        GameSetup(players)
        check_player_names(players)
    except (IllegalActionError, PlayerNameError) as error:
        raise SetupError(f"setup: {error}") from None
    return players


def _current_players(current: GameSetup | None) -> tuple[str, ...]:
    """The players set up now, for a ``setup`` that names none."""
    if current is None:
        raise SetupError('setup: give "players" too (no players are set up yet)')
    return _checked_players(current.players)


def _setup_bots(value: object, seats: int | None) -> tuple[str, ...]:
    """``bots``: per seat a strategy, or "" (or "human") for a person; ``seats`` None when the
    payload names no players (the device then counts the players set up)."""
    if not isinstance(value, list) or not all(item in _SEAT_WORDS for item in value):
        raise SetupError(_bots_problem(seats or 0), seats_unknown=seats is None)
    if seats is not None and len(value) > seats:
        raise SetupError(_bots_problem(seats))
    return tuple("" if item == "human" else item for item in value)


def _bots_problem(seats: int) -> str:
    allowed = ", ".join(f'"{name}"' for name in STRATEGY_NAMES)
    return (
        f'setup: "bots" must be a list of at most {seats} entries, one per seat: '
        f'"" (a person) or a strategy: {allowed}'
    )


@dataclass(frozen=True, slots=True)
class Frames(Command):
    """``frames on|off``: send the OLED's frames, or stop."""

    word = "frames"
    usage = "frames on|off"
    on: bool

    @classmethod
    def parse(cls, rest: str) -> Command:
        flag = _ascii_lower(rest)
        if flag not in ("on", "off"):
            raise ProtocolError(f"frames {_shorten(rest)}: use frames on or frames off")
        return cls(flag == "on")


@dataclass(frozen=True, slots=True)
class Pair(Command):
    """``pair PIN``: pair this connection with the PIN the device shows."""

    word = "pair"
    usage = "pair PIN"
    pin: str

    @classmethod
    def parse(cls, rest: str) -> Command:
        if not (rest.isascii() and rest.isdigit() and len(rest) <= MAX_PING_TOKEN):
            raise ProtocolError("pair takes the PIN the device shows, e.g. pair 123456")
        return cls(rest)


@dataclass(frozen=True, slots=True)
class Auth(Command):
    """``auth TOKEN``: pair this connection with the token of an earlier ``pair``."""

    word = "auth"
    usage = "auth TOKEN"
    token: str

    @classmethod
    def parse(cls, rest: str) -> Command:
        if not rest or len(rest) > MAX_PING_TOKEN or not all(c in _HEX for c in rest):
            raise ProtocolError("auth takes the token a pair answered, e.g. auth 3f9c...")
        return cls(rest)


@dataclass(frozen=True, slots=True)
class Unpair(_ActionWithoutArgument):
    """``unpair``: forget this connection's pairing on the device (its token pairs no more)."""

    word = "unpair"


@dataclass(frozen=True, slots=True)
class Stats(Command):
    """``stats``: the statistics of the finished games the device keeps."""

    word = "stats"


@dataclass(frozen=True, slots=True)
class Ping(Command):
    """``ping [TOKEN]``: answered by ``pong [TOKEN]``."""

    word = "ping"
    usage = "ping [TOKEN]"
    token: str = ""

    @classmethod
    def parse(cls, rest: str) -> Command:
        if len(rest) > MAX_PING_TOKEN or " " in rest:
            raise ProtocolError(f"ping takes one token of at most {MAX_PING_TOKEN} characters")
        return cls(rest)


@dataclass(frozen=True, slots=True)
class Hello(Command):
    """``hello``: a fresh greeting (and the connection's settings reset)."""

    word = "hello"


@dataclass(frozen=True, slots=True)
class Help(Command):
    """``help``: every command on one line."""

    word = "help"


# -- real dice at the table: a result entered from a paired host ---------------------------


class EntryError(ProtocolError):
    """A ``report``, ``correct``, ``rolloff`` or ``spieltag-begin`` (``word``) whose JSON the
    device cannot read. A host that may not send it (not paired) hears that first, as for a
    ``setup``."""

    def __init__(self, word: str, reason: str) -> None:
        super().__init__(f"{word}: {reason}")
        self.word = word


#: What a turn's result carries, for the error lines.
_TURN_KEYS = (
    '{"player": NAME, "dice": [6, 5, 4], "throws": 1-5, "hand": true|false, '
    '"blind": true|false} ("hand" and "blind" may be left out)'
)


@dataclass(frozen=True, slots=True)
class _TurnEntry(Command):
    """A turn's result thrown with real dice: whose, the dice, the throws, from the hand or not
    (None: from the hand exactly when it took one throw), and a Blind. Only the types are checked
    here; the engine decides what the rules allow (:meth:`engine.game.Game.why_not`)."""

    changing = True
    player: str
    dice: tuple[int, ...]
    throws: int
    hand: bool | None = None
    blind: bool = False

    @classmethod
    def parse(cls, rest: str) -> Command:
        payload = _entry_json(cls, rest)
        unknown = sorted(set(payload) - {"player", "dice", "throws", "hand", "blind"})
        if unknown:
            raise EntryError(cls.word, f"unknown key {unknown[0]!r}; {_TURN_KEYS}")
        player, throws = payload.get("player"), payload.get("throws")
        hand, blind = payload.get("hand"), payload.get("blind", False)
        if not isinstance(player, str):
            raise EntryError(cls.word, '"player" must be the name whose result it is')
        dice = _entry_dice(cls.word, payload.get("dice"))
        if not isinstance(throws, int) or isinstance(throws, bool):
            raise EntryError(cls.word, '"throws" must be a whole number (1 to 5)')
        if hand is not None and not isinstance(hand, bool):
            raise EntryError(cls.word, '"hand" must be true (from the hand) or false (built)')
        if not isinstance(blind, bool):
            raise EntryError(cls.word, '"blind" must be true or false')
        return cls(player, dice, throws, hand, blind)

    @property
    def from_hand(self) -> bool:
        """From the hand: as given, else exactly when the turn took one throw."""
        return self.throws == 1 if self.hand is None else self.hand


@dataclass(frozen=True, slots=True)
class ReportTurn(_TurnEntry):
    """``report {...}``: the current turn's result (``player`` must be the one whose turn it
    is, so that a host behind by one entry is refused rather than entering the wrong turn)."""

    word = "report"
    usage = "report {...}"


@dataclass(frozen=True, slots=True)
class CorrectTurn(_TurnEntry):
    """``correct {...}``: ``player``'s result of this round entered again, before the round is
    settled."""

    word = "correct"
    usage = "correct {...}"


@dataclass(frozen=True, slots=True)
class ReportRollOff(Command):
    """``rolloff {"dice": [[...], ...]}``: the roll-off's throws (auswürfeln), one per contender
    in seat order."""

    word = "rolloff"
    usage = 'rolloff {"dice": [[1, 1, 1], [6, 4, 2], ...]}'
    changing = True
    dice: tuple[tuple[int, ...], ...]

    @classmethod
    def parse(cls, rest: str) -> Command:
        payload = _entry_json(cls, rest)
        throws = payload.get("dice")
        if set(payload) != {"dice"} or not isinstance(throws, list):
            raise EntryError(cls.word, f'give only "dice", one throw per contender: {cls.usage}')
        return cls(tuple(_entry_dice(cls.word, throw) for throw in throws))


def _entry_json(command: type[Command], rest: str) -> dict[str, Any]:
    try:
        return _parse_json(command, rest)
    except EntryError:
        raise
    except ProtocolError as error:
        raise EntryError(command.word, str(error).removeprefix(f"{command.word}: ")) from None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry_dice(word: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or len(value) > 6 or not all(
        _whole(die) for die in value
    ):
        raise EntryError(word, "dice must be a list of whole numbers, e.g. [6, 5, 4]")
    return tuple(value)


# -- the Spieltag from a page ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpieltagAsk(Command):
    """``spieltag``: the Spieltag going on and its standings (``spieltag {...}``, or
    ``spieltag {"spieltag": null}``). Standings are public: any page may ask."""

    word = "spieltag"


@dataclass(frozen=True, slots=True)
class SpieltagBegin(Command):
    """``spieltag-begin {...}``: begin a Spieltag, as the menu and ``schocken spieltag begin``
    do: its ``name`` (or number), ``venue``, ``date`` (YYYY-MM-DD, default today), ``scheme``
    (a scoring preset) and ``time_box`` (minutes, or null for none). The device checks the
    values as the command line does."""

    word = "spieltag-begin"
    usage = 'spieltag-begin {"name": ..., "venue": ..., "date": ..., "scheme": ..., "time_box": N}'
    changing = True
    name: str = ""
    venue: str = ""
    date: str = ""
    scheme: str = "verlustpunkte"
    time_box: int | None = None

    @classmethod
    def parse(cls, rest: str) -> Command:
        # Its payload's problems are said after the pairing's, as for a result (EntryError).
        payload = _entry_json(cls, rest)
        unknown = sorted(set(payload) - {"name", "venue", "date", "scheme", "time_box"})
        if unknown:
            raise EntryError(
                cls.word,
                f"unknown key {unknown[0]!r}; keys: name, venue, date, scheme, time_box",
            )
        texts = {}
        defaults = {"name": "", "venue": "", "date": "", "scheme": "verlustpunkte"}
        for key, default in defaults.items():
            value = payload.get(key, default)
            if not isinstance(value, str):
                raise EntryError(cls.word, f"{key} must be a text")
            texts[key] = value
        time_box = payload.get("time_box")
        if time_box is not None and (isinstance(time_box, bool) or not isinstance(time_box, int)):
            raise EntryError(
                cls.word, f"time_box {_shorten(str(time_box))} must be whole minutes or null"
            )
        return cls(texts["name"], texts["venue"], texts["date"], texts["scheme"], time_box)


@dataclass(frozen=True, slots=True)
class SpieltagEnd(_ActionWithoutArgument):
    """``spieltag-end``: end the Spieltag going on (the page asks first)."""

    word = "spieltag-end"


#: Every command, in the order ``help`` lists them.
COMMANDS: tuple[type[Command], ...] = (
    Press, Hold, Shake, State, Log, Setup, Abandon, Frames, Pair, Auth, Unpair, Stats, Ping,
    Hello, Help, ReportTurn, CorrectTurn, ReportRollOff, SpieltagAsk, SpieltagBegin, SpieltagEnd,
)  # fmt: skip
_BY_WORD = {command.word: command for command in COMMANDS}

_HEX = frozenset("0123456789abcdef")


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut for quoting in an error line, with control characters made visible."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


def parse_command(raw: bytes) -> Command | None:
    """Parse one received line (without its LF).

    Returns None for a line to ignore silently: an empty line (a terminal's Enter) or an echo of
    a device line (see :data:`DEVICE_WORDS`). Raises :class:`ProtocolError` with a one-line reason
    for anything else that is not a valid command (:class:`SetupError` for a ``setup`` payload
    the device refuses).
    """
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"line too long: more than {MAX_LINE} bytes; send shorter lines")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError(f"line is not UTF-8 (bad byte at {error.start})") from None
    if not text.replace("\t", " ").isprintable():  # else no forbidden character: all printable
        for index, char in enumerate(text):
            if char != "\t":
                _check_char(char, f"at {index}")
    text = text.strip(" \t")
    if not text:
        return None
    if text.startswith("{"):
        return None  # a log entry echoed back
    word, _, rest = text.replace("\t", " ").partition(" ")
    word = _ascii_lower(word)
    rest = rest.strip(" ")
    if word in DEVICE_WORDS:
        return None
    command = _BY_WORD.get(word)
    if command is None:
        allowed = ", ".join(command.word for command in COMMANDS)
        raise ProtocolError(f"unknown command {_shorten(word)}; commands: {allowed}")
    return command.parse(rest)


#: A host line as parsed: its command, or why it is no command (what :func:`parse_command`
#: raised), for the side that carries it out or refuses it.
Parsed: TypeAlias = Command | ProtocolError


def read_line(raw: bytes) -> Parsed | None:
    """:func:`parse_command` with its refusal as a value: a line is parsed once where it
    arrives (a page's gate, on the web server's thread) and answered where it is carried out,
    in order with the host's other lines. None: a line to ignore."""
    try:
        return parse_command(raw)
    except ProtocolError as error:
        return error


def _check_char(char: str, where: str) -> None:
    """Refuse a character the protocol forbids (see :data:`_FORBIDDEN`), naming it."""
    kind = _FORBIDDEN.get(unicodedata.category(char))
    if kind is None:
        return
    code = f"{ord(char):#04x}" if ord(char) < 0x100 else f"U+{ord(char):04X}"
    raise ProtocolError(f"line contains {kind} character {code} {where}; send plain text lines")


def _ascii_lower(word: str) -> str:
    """``word`` in lower case if it is ASCII; other words stay as they are and match nothing
    (``str.lower`` would turn a Kelvin sign into a k)."""
    return word.lower() if word.isascii() else word


def _check_strings(value: Any, word: str) -> None:
    """Refuse forbidden characters that came into JSON strings as ``\\u`` escapes."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            for char in item:
                _check_char(char, f"in a JSON string of {word}")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def _parse_json(command: type[Command], rest: str) -> dict[str, Any]:
    """The JSON object that is ``command``'s argument."""
    word = command.word
    if not rest:
        raise ProtocolError(f"{word} needs a JSON object: {command.usage}")
    try:
        payload = json_loads(rest)
    except json.JSONDecodeError as error:
        raise ProtocolError(f"{word}: {json_problem(error)}") from None
    except InputLimitError as error:
        raise ProtocolError(f"{word}: JSON {error}") from None
    if not isinstance(payload, dict):
        raise ProtocolError(f"{word} needs a JSON object, got {_json_kind(payload)}")
    _check_strings(payload, word)
    return payload


def _json_kind(value: object) -> str:
    """A JSON value's kind in JSON's own words (never Python's type name)."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    return "null" if value is None else "a number"


def help_text() -> str:
    """The ``help`` answer: every command on one line."""
    usages = "; ".join(command.usage or command.word for command in COMMANDS)
    return f"commands: {usages}; buttons: " + " ".join(BUTTON_NAMES)


# -- device lines --------------------------------------------------------------------------------


def to_json_text(value: Any) -> str:
    """Compact JSON on one line, non-ASCII kept (the line is UTF-8)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def format_line(word: str, payload: Any = None) -> str:
    """A device line: ``word``, then the payload (a string as is, anything else as JSON)."""
    if payload is None:
        return word
    text = payload if isinstance(payload, str) else to_json_text(payload)
    return f"{word} {text}"


def one_line(reason: str) -> str:
    """``reason`` with line breaks and control characters replaced, for an ``error`` line."""
    return "".join(" " if ch < " " or ch == "\x7f" else ch for ch in reason).strip()


@dataclass(frozen=True, slots=True)
class DeviceLine:
    """A line a host received: its first word and the rest (``payload`` decoded where JSON)."""

    word: str
    text: str
    payload: Any = None


def parse_device_line(raw: bytes) -> DeviceLine:
    """Split a device line for a host; JSON payloads (hello, state, event, log) are decoded.

    Raises :class:`ProtocolError` for a line that is not UTF-8 or whose JSON is broken.
    """
    try:
        text = raw.decode("utf-8").rstrip("\r")
    except UnicodeDecodeError:
        raise ProtocolError("device line is not UTF-8") from None
    if text.startswith("{"):
        return DeviceLine("", text, _loads(text))
    word, _, rest = text.partition(" ")
    payload: Any = None
    if word in ("state", "event", "log", "stats") and rest:
        payload = _loads(rest)
    elif word == "hello" and rest:
        parts = rest.split(" ", 2)
        payload = {"name": parts[0], "version": parts[1] if len(parts) > 1 else None}
        if len(parts) > 2:
            payload["info"] = _loads(parts[2])
    return DeviceLine(word, rest, payload)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(f"device line carries broken JSON: {_shorten(text)}") from None


# -- frames --------------------------------------------------------------------------------------

#: Bytes in one packed frame: 64 rows of 128 pixels, 8 pixels a byte.
FRAME_BYTES = SCREEN_SIZE[0] * SCREEN_SIZE[1] // 8


def encode_frame(image: Image.Image) -> str:
    """The ``frame`` payload of a screen: base64 of the zlib-compressed packed bitmap.

    The bitmap is 1024 bytes: rows top to bottom, 16 bytes a row, each byte eight pixels left to
    right with the leftmost pixel in the most significant bit; a 1 bit is a lit pixel. (This is
    exactly Pillow's packing of a mode "1" image, ``Image.tobytes()``.)
    """
    if image.size != SCREEN_SIZE:
        raise ValueError(f"a frame must be {SCREEN_SIZE[0]}x{SCREEN_SIZE[1]}, not {image.size}")
    packed = image.convert("1").tobytes()
    return base64.b64encode(zlib.compress(packed, 9)).decode("ascii")


def decode_frame(payload: str) -> Image.Image:
    """The screen a ``frame`` payload carries, as a mode "1" image of :data:`SCREEN_SIZE`.

    Raises :class:`ProtocolError` if the payload is not base64 of a zlib stream of 1024 bytes.
    """
    try:
        packed = zlib.decompress(base64.b64decode(payload.strip(), validate=True))
    except (binascii.Error, zlib.error, ValueError) as error:
        raise ProtocolError(f"frame payload cannot be decoded: {error}") from None
    if len(packed) != FRAME_BYTES:
        raise ProtocolError(f"frame holds {len(packed)} bytes, expected {FRAME_BYTES}")
    return Image.frombytes("1", SCREEN_SIZE, packed)


# -- state ---------------------------------------------------------------------------------------


def log_page(
    entries: Sequence[str], start: int, max_bytes: int = LOG_PAGE_BYTES
) -> tuple[list[str], int | None]:
    """The event lines of one ``log`` page from event ``start`` on, and where the next begins.

    ``entries`` are the events as JSON lines (:func:`to_json_text`). A page holds whole events of
    at most ``max_bytes`` (UTF-8, line ends included), and at least one event while any are
    left; the next start is None after the last event.
    """
    lines: list[str] = []
    size = 0
    index = start
    while index < len(entries):
        line = entries[index]
        length = len(line.encode("utf-8")) + 1
        if lines and size + length > max_bytes:
            break
        lines.append(line)
        size += length
        index += 1
    return lines, (index if index < len(entries) else None)
