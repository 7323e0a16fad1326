"""The link protocol's grammar: parsing host lines, formatting device lines, encoding frames.

Pure functions and values, no I/O and no threads: the device side (:mod:`firmware.link.remote`) and
any host (the simulator's remote panel, a test, a script) share them. The protocol itself is
described for humans in docs/protocol.md; this module is its executable form.

Every line is UTF-8 text ending in LF (a CR before the LF is ignored). A line is a command word,
optionally followed by one space and an argument; JSON payloads are the rest of the line. A host
line holds no control, format (bidi overrides, zero-width), separator, private-use or unassigned
character, neither raw nor as a ``\\u`` escape in its JSON; words are ASCII and only ASCII
letters fold to lower case, so a look-alike (a Kelvin sign for the K of ``keep1``) matches nothing.
"""

from __future__ import annotations

import base64
import binascii
import enum
import json
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.limits import InputLimitError, ascii_whole_number, json_loads
from hal.ports import SCREEN_SIZE, Button

__all__ = [
    "BUTTON_NAMES",
    "CHANGING",
    "COMMAND_HELP",
    "DEVICE_WORDS",
    "FRAME_BYTES",
    "LOG_PAGE_BYTES",
    "MAX_LINE",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "Command",
    "CommandName",
    "DeviceLine",
    "ProtocolError",
    "decode_frame",
    "encode_frame",
    "format_line",
    "help_text",
    "log_page",
    "one_line",
    "parse_command",
    "parse_device_line",
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
#: separators (U+2028, U+2029), surrogates, private use and unassigned code points.
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


class CommandName(enum.Enum):
    """The host-to-device commands."""

    HELLO = "hello"
    HELP = "help"
    PING = "ping"
    PRESS = "press"
    HOLD = "hold"
    SHAKE = "shake"
    STATE = "state"
    LOG = "log"
    SETUP = "setup"
    FRAMES = "frames"
    PAIR = "pair"
    AUTH = "auth"
    STATS = "stats"


#: One line of help for each command, in the order ``help`` lists them.
COMMAND_HELP: dict[CommandName, str] = {
    CommandName.PRESS: "press BUTTON",
    CommandName.HOLD: "hold BUTTON",
    CommandName.SHAKE: "shake",
    CommandName.STATE: "state",
    CommandName.LOG: "log [FROM]",
    CommandName.SETUP: 'setup {"players": [...], "rules": "NAME" or {...}, "bots": [...]}',
    CommandName.FRAMES: "frames on|off",
    CommandName.PAIR: "pair PIN",
    CommandName.AUTH: "auth TOKEN",
    CommandName.STATS: "stats",
    CommandName.PING: "ping [TOKEN]",
    CommandName.HELLO: "hello",
    CommandName.HELP: "help",
}

#: Commands that answer questions and take no argument. With an argument the same words are the
#: device's answers (``hello schockbesteck 1 {...}``, ``state {...}``), i.e. an echo: ignored.
_ANSWERED_WORDS = {
    CommandName.HELLO, CommandName.HELP, CommandName.STATE, CommandName.LOG, CommandName.STATS,
}


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed host line. ``button`` for press/hold, ``flag`` for frames, ``token`` for ping,
    pair (the PIN) and auth, ``payload`` (decoded JSON) for setup, ``start`` (the first event)
    for log."""

    name: CommandName
    button: Button | None = None
    flag: bool | None = None
    token: str = ""
    payload: Any = None
    start: int = 0


_HEX = frozenset("0123456789abcdef")

#: Commands that change the device: only a paired host may send them (see firmware.link.pairing).
CHANGING = frozenset({CommandName.PRESS, CommandName.HOLD, CommandName.SHAKE, CommandName.SETUP})


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut for quoting in an error line, with control characters made visible."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


def parse_command(raw: bytes) -> Command | None:
    """Parse one received line (without its LF).

    Returns None for a line to ignore silently: an empty line (a terminal's Enter) or an echo of
    a device line (see :data:`DEVICE_WORDS`). Raises :class:`ProtocolError` with a one-line reason
    for anything else that is not a valid command.
    """
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"line too long: more than {MAX_LINE} bytes; send shorter lines")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError(f"line is not UTF-8 (bad byte at {error.start})") from None
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
    try:
        name = CommandName(word)
    except ValueError:
        allowed = ", ".join(c.value for c in COMMAND_HELP)
        raise ProtocolError(f"unknown command {_shorten(word)}; commands: {allowed}") from None
    if name is CommandName.LOG and rest:
        start = ascii_whole_number(rest)
        return None if start is None else Command(name, start=start)  # else: a log line echoed
    if name in _ANSWERED_WORDS:
        return None if rest else Command(name)
    if name in (CommandName.PRESS, CommandName.HOLD):
        return Command(name, button=_parse_button(name, rest))
    if name is CommandName.SHAKE:
        _no_argument(name, rest)
        return Command(name)
    if name is CommandName.PING:
        if len(rest) > MAX_PING_TOKEN or " " in rest:
            raise ProtocolError(f"ping takes one token of at most {MAX_PING_TOKEN} characters")
        return Command(name, token=rest)
    if name is CommandName.PAIR:
        if not (rest.isascii() and rest.isdigit() and len(rest) <= MAX_PING_TOKEN):
            raise ProtocolError("pair takes the PIN the device shows, e.g. pair 123456")
        return Command(name, token=rest)
    if name is CommandName.AUTH:
        if not rest or len(rest) > MAX_PING_TOKEN or not all(c in _HEX for c in rest):
            raise ProtocolError("auth takes the token a pair answered, e.g. auth 3f9c...")
        return Command(name, token=rest)
    if name is CommandName.FRAMES:
        flag = _ascii_lower(rest)
        if flag not in ("on", "off"):
            raise ProtocolError(f"frames {_shorten(rest)}: use frames on or frames off")
        return Command(name, flag=flag == "on")
    return Command(name, payload=_parse_json(name, rest))


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


def _check_strings(value: Any, name: CommandName) -> None:
    """Refuse forbidden characters that came into JSON strings as ``\\u`` escapes."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            for char in item:
                _check_char(char, f"in a JSON string of {name.value}")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def _parse_button(name: CommandName, rest: str) -> Button:
    button = BUTTON_NAMES.get(_ascii_lower(rest))
    if button is None:
        allowed = ", ".join(BUTTON_NAMES)
        what = f"unknown button {_shorten(rest)}" if rest else "no button given"
        raise ProtocolError(f"{name.value}: {what}; buttons: {allowed}")
    return button


def _no_argument(name: CommandName, rest: str) -> None:
    if rest:
        raise ProtocolError(f"{name.value} takes no argument, got {_shorten(rest)}")


def _parse_json(name: CommandName, rest: str) -> Any:
    if not rest:
        raise ProtocolError(f"{name.value} needs a JSON object: {COMMAND_HELP[name]}")
    try:
        payload = json_loads(rest)
    except json.JSONDecodeError as error:
        raise ProtocolError(
            f"{name.value}: not valid JSON at column {error.colno}: {error.msg}"
        ) from None
    except InputLimitError as error:
        raise ProtocolError(f"{name.value}: JSON {error}") from None
    if not isinstance(payload, dict):
        raise ProtocolError(f"{name.value} needs a JSON object, got {type(payload).__name__}")
    _check_strings(payload, name)
    return payload


def help_text() -> str:
    """The ``help`` answer: every command on one line."""
    return "commands: " + "; ".join(COMMAND_HELP.values()) + "; buttons: " + " ".join(BUTTON_NAMES)


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
