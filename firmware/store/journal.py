"""The game journal: one small, checksummed, fsync'd record per action.

A game is the list of its actions (:mod:`engine.events`), so the journal of a game is a header
(who plays, under which rules) followed by one record per action. Nothing is ever rewritten:
each action is one append of about 60 bytes, fsync'd before the screen confirms it. Replaying
the records with :meth:`engine.Game.replay` rebuilds the game exactly, down to the dice.

Record format (version 1), one line per record, readable with ``less``::

    LENGTH CRC32 JSON\\n

``LENGTH`` is the decimal byte length of ``JSON``, ``CRC32`` its zlib CRC-32 as eight lowercase
hex digits, ``JSON`` one compact UTF-8 JSON object without newlines. The first record is the
header ``{"journal": "schockbesteck", "format": 1, "players": [...], "rules": {...}, ...}``
(with ``"real_dice": true`` for a game played with real dice at the table);
then come actions ``{"n": 0, "event": "roll_off", ...}`` numbered from 0 (the engine's
:func:`engine.to_json` form plus ``n``), and UI notes ``{"ui": {...}}`` for state that is not
an action (the KEEP marks a player has set but not yet thrown with, or the result being entered
for a turn thrown with real dice).

Reading (:func:`recover`) stops at the first record that is torn (a pulled plug during an append),
fails its checksum, does not parse, or is not the next legal action of the game. Everything
before it is kept; the rest is reported in :attr:`Recovery.problem`, and the intact records
found after the damage are counted in :attr:`Recovery.intact_after` (the store keeps a copy of
the whole file before it cuts the damaged tail off). A file without a usable header raises
:class:`JournalError` and nothing else: no content, however damaged, makes the reader raise any
other exception.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Event, Game, GameSetup, from_json, rules_from_mapping, to_json
from engine.errors import SchockenError
from engine.events import GoScharf
from engine.limits import InputLimitError, json_loads
from engine.strategy_names import strategy_names
from hal.ports import Storage

__all__ = [
    "FORMAT_VERSION",
    "JournalError",
    "Recovery",
    "decode_records",
    "encode_record",
    "header_record",
    "read_journal",
    "recover",
]

#: The journal format written by this code; readers refuse newer formats by name.
FORMAT_VERSION = 1
_MAGIC = "schockbesteck"
#: The longest LENGTH field we accept: a record is never near 10 MB.
_MAX_LENGTH_DIGITS = 7


class JournalError(ValueError):
    """A file is not a journal we can read at all (no valid header, a newer format)."""


def encode_record(payload: Mapping[str, Any]) -> bytes:
    """One journal record: ``LENGTH CRC32 JSON`` and a newline."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"%d %08x %s\n" % (len(body), zlib.crc32(body), body)


def header_record(setup: GameSetup, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The header of a game's journal: format, players in seat order, the full rules, ``meta``.

    ``meta`` holds what the device wants back on resume but the engine does not know (the UI
    language, the wall-clock start time); its keys must not clash with the header's own.
    """
    header: dict[str, Any] = {
        "journal": _MAGIC,
        "format": FORMAT_VERSION,
        "players": list(setup.players),
        "rules": setup.rules.to_mapping(),
    }
    if setup.real_dice:
        # Played with real dice at the table: the actions are reported turns.
        header["real_dice"] = True
    for key, value in (meta or {}).items():
        if key in header:
            raise ValueError(f"journal meta key {key!r} clashes with the header's own field")
        header[key] = value
    return header


def action_record(index: int, action: Event) -> dict[str, Any]:
    """The record of the game's action number ``index`` (from 0)."""
    return {"n": index, **to_json(action)}


def decode_records(data: bytes) -> tuple[list[dict[str, Any]], int, str | None]:
    """Split a journal into its intact records.

    Returns (records, length of the intact prefix in bytes, problem). ``problem`` is None when
    the whole of ``data`` is intact, else one line saying where and why reading stopped.
    """
    records: list[dict[str, Any]] = []
    position = 0
    while position < len(data):
        record, end, problem = _decode_one(data, position)
        if problem is not None:
            dropped = len(data) - position
            where = f"record {len(records) + 1} at byte {position}"
            return records, position, f"{where}: {problem} ({dropped} bytes dropped)"
        assert record is not None
        records.append(record)
        position = end
    return records, position, None


def _decode_one(data: bytes, start: int) -> tuple[dict[str, Any] | None, int, str | None]:
    """The record starting at ``start``: (record, end offset, None) or (None, start, problem)."""
    first_space = data.find(b" ", start, start + _MAX_LENGTH_DIGITS + 1)
    length_field = data[start:first_space] if first_space >= 0 else b""
    if first_space < 0 or not length_field.isdigit():
        return None, start, "torn or corrupt length field"
    length = int(length_field)
    crc_start = first_space + 1
    crc_field = data[crc_start:crc_start + 8]
    body_start = crc_start + 9
    body_end = body_start + length
    if len(data) < body_end + 1:
        return None, start, f"torn: {len(data) - start} of {body_end + 1 - start} bytes written"
    if data[crc_start + 8:body_start] != b" " or not _is_hex(crc_field):
        return None, start, "corrupt checksum field"
    if data[body_end:body_end + 1] != b"\n":
        return None, start, "record does not end where its length says"
    body = data[body_start:body_end]
    if zlib.crc32(body) != int(crc_field, 16):
        return None, start, "checksum mismatch"
    try:
        record = json_loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, start, "checksum matches but the content is not JSON"
    except InputLimitError as error:
        return None, start, f"checksum matches but the content is {error}"
    if not isinstance(record, dict):
        return None, start, "record is not a JSON object"
    return record, body_end + 1, None


def _is_hex(field: bytes) -> bool:
    return len(field) == 8 and all(c in b"0123456789abcdef" for c in field)


@dataclass
class Recovery:
    """What a journal holds: the game rebuilt from its intact prefix, and what was dropped."""

    setup: GameSetup
    #: The header's extra fields (UI language, start time, ...).
    meta: dict[str, Any]
    actions: list[Event]
    #: The game after replaying ``actions``.
    game: Game
    #: The last UI note written after the last action (a time box's :class:`GoScharf` aside,
    #: which changes no screen), or None.
    ui: dict[str, Any] | None
    #: Length in bytes of the intact prefix; a repair cuts the file back to it.
    intact_length: int
    #: Length of the file as found.
    file_length: int
    #: One line about the dropped tail, or None if the journal was intact.
    problem: str | None = None
    #: Records read, header included (for log lines).
    records: int = field(default=0)
    #: Intact records (checksum and JSON fine) found after the damage, which the game could not
    #: use; a copy of the file keeps them.
    intact_after: int = 0

    @property
    def damaged(self) -> bool:
        """True if the file ends in something other than intact records."""
        return self.problem is not None


def read_journal(data: bytes, *, origin: str = "journal") -> Recovery:
    """Rebuild a game from a journal's bytes, keeping the longest intact, legal prefix.

    Raises :class:`JournalError` only if not even a header can be read (an empty or foreign
    file, or a format newer than this code knows).
    """
    records, intact, problem = decode_records(data)
    if not records:
        reason = problem or "the file is empty"
        raise JournalError(f"{origin} is not a Schockbesteck journal: {reason}")
    setup, meta = _read_header(records[0], origin)
    game = Game(setup)
    actions: list[Event] = []
    ui: dict[str, Any] | None = None
    offsets = _record_offsets(data, len(records))
    for index, record in enumerate(records[1:], start=1):
        why = _apply_record(record, game, actions)
        if isinstance(why, dict):
            ui = why
            continue
        if why is not None:
            position = offsets[index]
            dropped = len(data) - position
            problem = f"record {index + 1} at byte {position}: {why} ({dropped} bytes dropped)"
            intact = position
            records = records[:index]
            break
        if not isinstance(actions[-1], GoScharf):
            # The time box changes no screen: the note before it (a turn's marks, a result
            # half entered) still tells how the screen stood.
            ui = None
    return Recovery(
        setup=setup, meta=meta, actions=actions, game=game, ui=ui, intact_length=intact,
        file_length=len(data), problem=problem, records=len(records),
        intact_after=count_intact_after(data, intact),
    )


def count_intact_after(data: bytes, position: int) -> int:
    """How many intact records start at line starts after the damaged record at ``position``.

    Records never contain a raw newline, so after damage the next record can only begin after
    one: each line start is tried in turn.
    """
    count = 0
    start = data.find(b"\n", position) + 1
    while 0 < start < len(data):
        _, end, problem = _decode_one(data, start)
        if problem is None:
            count += 1
            start = end
        else:
            start = data.find(b"\n", start) + 1
    return count


#: Header fields of the device's own (``meta``), and what each must hold.
_META_LANGUAGE = "language"
_META_BOTS = "bots"


def _read_header(header: dict[str, Any], origin: str) -> tuple[GameSetup, dict[str, Any]]:
    """The game a header describes; :class:`JournalError` naming the field for anything else."""
    if header.get("journal") != _MAGIC:
        raise JournalError(f"{origin} is not a Schockbesteck journal: no header record")
    version = header.get("format")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise JournalError(
            f"{origin} has journal format {_clip(version)}; "
            f"this version reads format {FORMAT_VERSION}"
        )
    players, rules = header.get("players"), header.get("rules")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise JournalError(
            f"{origin}: header field 'players' is {_clip(players)}, not a list of names"
        )
    if not isinstance(rules, dict):
        raise JournalError(
            f"{origin}: header field 'rules' is {_clip(rules)}, not an object of rules keys"
        )
    # SchockenError is a ValueError; a value of the wrong type may also raise TypeError.
    try:
        game_rules = rules_from_mapping(rules)
    except (TypeError, ValueError) as error:
        raise JournalError(f"{origin}: header field 'rules': {_clip(error)}") from None
    real_dice = header.get("real_dice", False)
    if not isinstance(real_dice, bool):
        raise JournalError(f"{origin}: header field 'real_dice' is {_clip(real_dice)}, not true")
    try:
        setup = GameSetup(tuple(players), game_rules, real_dice)
    except (TypeError, ValueError) as error:
        raise JournalError(f"{origin}: header field 'players': {_clip(error)}") from None
    own = ("journal", "format", "players", "rules", "real_dice")
    meta = {k: v for k, v in header.items() if k not in own}
    language = meta.get(_META_LANGUAGE)
    if language is not None and not isinstance(language, str):
        raise JournalError(f"{origin}: header field 'language' is {_clip(language)}, not a name")
    bots = meta.get(_META_BOTS)
    known = {"", *strategy_names()}
    if bots is not None and (
        not isinstance(bots, list)
        or len(bots) > len(players)
        or not all(isinstance(bot, str) and bot in known for bot in bots)
    ):
        raise JournalError(
            f"{origin}: header field 'bots' is {_clip(bots)}, not one strategy per seat "
            f"(\"\" or {', '.join(sorted(known - {''}))})"
        )
    return setup, meta


def _clip(value: object, limit: int = 60) -> str:
    """``value`` (its repr, or the text of an exception) cut short for a one-line report."""
    text = str(value) if isinstance(value, BaseException) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _apply_record(
    record: dict[str, Any], game: Game, actions: list[Event]
) -> str | dict[str, Any] | None:
    """Apply one record: None when an action applied, the UI note's dict, or a problem."""
    if set(record) == {"ui"}:
        note = record["ui"]
        return note if isinstance(note, dict) else "UI note is not a JSON object"
    body = dict(record)
    number = body.pop("n", None)
    if number != len(actions) or isinstance(number, bool):
        return f"expected action number {len(actions)}, found {_clip(number)}"
    try:
        action = from_json(body)
        if not action.is_action:
            return f"{action.kind!r} is an outcome, not an action"
        game.apply(action)
    except (SchockenError, TypeError, ValueError, KeyError, AttributeError) as error:
        return f"not a legal next action: {_clip(error, 120)}"
    actions.append(action)
    return None


def _record_offsets(data: bytes, count: int) -> list[int]:
    """Start offsets of the first ``count`` records (which are known to be intact)."""
    offsets = []
    position = 0
    for _ in range(count):
        offsets.append(position)
        _, position, _ = _decode_one(data, position)
    return offsets


def recover(storage: Storage, name: str) -> Recovery | None:
    """The game in journal ``name`` of ``storage``, or None if there is no such file.

    Raises :class:`JournalError` for a file without a readable header and
    :class:`~hal.ports.StorageError` if the file cannot be read.
    """
    data = storage.read_bytes(name)
    if data is None:
        return None
    return read_journal(data, origin=str(storage.root / name))


class Journal:
    """An open journal of the game in progress: appends one fsync'd record per action."""

    def __init__(self, storage: Storage, name: str, next_index: int) -> None:
        self.storage = storage
        self.name = name
        self.next_index = next_index

    @classmethod
    def create(
        cls, storage: Storage, name: str, setup: GameSetup,
        meta: Mapping[str, Any] | None = None,
    ) -> Journal:
        """Start a new journal (replacing any file called ``name``) with the game's header.

        The header goes in with the file in one step: a pulled plug (or a full card) while it is
        written leaves the old file or none, never an empty journal that the next start would
        have to set aside as damaged.
        """
        header = encode_record(header_record(setup, meta))
        storage.write_atomic(name, header.decode("utf-8"))
        return cls(storage, name, 0)

    @classmethod
    def resume(cls, storage: Storage, name: str, recovery: Recovery) -> Journal:
        """Continue a recovered journal, first cutting off any damaged tail."""
        if recovery.file_length != recovery.intact_length:
            storage.truncate(name, recovery.intact_length)
        return cls(storage, name, len(recovery.actions))

    def append(self, action: Event) -> None:
        """Write the next action durably; returns once it is on the medium."""
        record = encode_record(action_record(self.next_index, action))
        self.storage.append_durable(self.name, record)
        self.next_index += 1

    def note_ui(self, state: Mapping[str, Any]) -> None:
        """Write UI state that is not an action (it holds until the next action)."""
        self.storage.append_durable(self.name, encode_record({"ui": dict(state)}))
