"""The game journal: one small, checksummed, fsync'd record per action, and its one reader.

A game is the list of its actions (:mod:`engine.events`), so the journal of a game is a header
(who plays, under which rules, where the game belongs) followed by one record per action.
Nothing is ever rewritten: each action is one append of about 60 bytes, fsync'd before the
screen confirms it. Replaying the records with :meth:`engine.Game.replay` rebuilds the game
exactly, down to the dice.

This module is the only one that knows the journal's bytes. What is in a journal is declared
here once, as frozen values:

- :class:`JournalHeader`: the setup (players, rules, real dice or the device's), the language
  the game began in, the computer players per seat, the Spieltag (evening) it belongs to, and
  its place in a tournament (:class:`TournamentGame`);
- the actions, the engine's own events;
- the notes (:data:`Note`): state of the screen that is not an action and holds until the next
  one: the KEEP marks a player has set but not yet thrown with (:class:`KeepMarks`), the
  result being entered for a turn or the roll-off thrown with real dice (:class:`EntryNote`).

:class:`Journal` writes them; :func:`read_journal` reads a whole journal into a
:class:`Recovery` and :func:`read_header` only its header. Everything that looks into a game's
journal (resuming a game, the evening's standings, the league sheet, the statistics, the
tournament's recount, ``schocken replay``) reads through these two, as python-chess's PGN
visitors all read through one parser.

Record format (version 1), one line per record, readable with ``less``::

    LENGTH CRC32 JSON\\n

``LENGTH`` is the decimal byte length of ``JSON``, ``CRC32`` its zlib CRC-32 as eight lowercase
hex digits, ``JSON`` one compact UTF-8 JSON object without newlines. The first record is the
header ``{"journal": "schockbesteck", "format": 1, "players": [...], "rules": {...}, ...}``
(``"real_dice": true`` for a game played with real dice at the table, then ``"language"``,
``"bots"``, ``"spieltag"`` and ``"tournament"`` where they apply); then come actions
``{"n": 0, "event": "roll_off", ...}`` numbered from 0 (the engine's :func:`engine.to_json`
form plus ``n``), and notes ``{"ui": {"marks": [...]}}`` or ``{"ui": {"entry": {...}}}``.
The outbox of a tournament's table (:mod:`firmware.tournament.outbox`) keeps its records in the
same framing, through :func:`encode_record` and :func:`decode_records`.

Reading stops at the first record that is torn (a pulled plug during an append), fails its
checksum, does not parse, or is not the next legal action of the game. Everything before it is
kept; the rest is reported in :attr:`Recovery.problem`, and the intact records found after the
damage are counted in :attr:`Recovery.intact_after` (the store keeps a copy of the whole file
before it cuts the damaged tail off). A note that does not fit the game where it stands (marks
the rules would not let lay out, an entry for a game of the device's dice) is left out, as a
screen that cannot be restored. A file without a usable header raises :class:`JournalError`
and nothing else: no content, however damaged, makes the reader raise any other exception.
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
from engine.game import Phase
from engine.limits import InputLimitError, json_loads
from engine.spieltag import SPIELTAG_ID
from engine.strategy_names import strategy_names
from hal.ports import Storage

__all__ = [
    "FORMAT_VERSION",
    "EntryNote",
    "Journal",
    "JournalError",
    "JournalHeader",
    "KeepMarks",
    "Note",
    "Recovery",
    "TournamentGame",
    "decode_records",
    "encode_record",
    "header_from_record",
    "header_to_record",
    "note_from_record",
    "note_to_record",
    "read_header",
    "read_journal",
    "recover",
]

#: The journal format written by this code; readers refuse newer formats by name.
FORMAT_VERSION = 1
_MAGIC = "schockbesteck"
#: The longest LENGTH field we accept: a record is never near 10 MB.
_MAX_LENGTH_DIGITS = 7
#: The header's fields of the game itself; the rest say where the game belongs.
_SETUP_FIELDS = ("journal", "format", "players", "rules", "real_dice")


class JournalError(ValueError):
    """A file is not a journal we can read at all (no valid header, a newer format)."""


# --- what a journal holds -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A game's place in a tournament: ``table`` is the table's broker user (``table-7``),
    ``game`` the game's number at that table in ``round`` (from 1)."""

    event: str
    table: str
    round: int
    game: int


@dataclass(frozen=True, slots=True)
class JournalHeader:
    """The first record of a game's journal: the game, and where it belongs.

    ``bots`` is a strategy name per seat ("" for a person), or None where the writer did not
    say (a game recorded by a tool, not by the device's setup); ``spieltag`` the ID of the
    evening the game is part of; ``tournament`` its place in a tournament.
    """

    setup: GameSetup
    language: str | None = None
    bots: tuple[str, ...] | None = None
    spieltag: str | None = None
    tournament: TournamentGame | None = None


@dataclass(frozen=True, slots=True)
class KeepMarks:
    """The dice a player has marked to lay out and not yet thrown with, per die."""

    marks: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class EntryNote:
    """A result being entered on the device's buttons for a game of real dice: the dice, the
    throws and "from the hand" as they stand, whose earlier result is being corrected (None:
    the current turn's), the roll-off's throws entered so far, and whether the round's last
    result waits for its second STAND (``settling``)."""

    dice: tuple[int, ...]
    throws: int
    hand: bool
    correcting: str | None = None
    roll_off: tuple[tuple[int, ...], ...] = ()
    settling: bool = False


#: A note of the screen's state that is not an action.
Note = KeepMarks | EntryNote


# --- the framing --------------------------------------------------------------------------------


def encode_record(payload: Mapping[str, Any]) -> bytes:
    """One journal record: ``LENGTH CRC32 JSON`` and a newline."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"%d %08x %s\n" % (len(body), zlib.crc32(body), body)


def decode_records(data: bytes) -> tuple[list[dict[str, Any]], int, str | None]:
    """Split a file of records into its intact records.

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


# --- the codec of the header and the notes ------------------------------------------------------


def header_to_record(header: JournalHeader) -> dict[str, Any]:
    """The header's record: format, players in seat order, the full rules, where it belongs."""
    setup = header.setup
    record: dict[str, Any] = {
        "journal": _MAGIC,
        "format": FORMAT_VERSION,
        "players": list(setup.players),
        "rules": setup.rules.to_mapping(),
    }
    if setup.real_dice:
        # Played with real dice at the table: the actions are reported turns.
        record["real_dice"] = True
    if header.language is not None:
        record["language"] = header.language
    if header.bots is not None:
        record["bots"] = list(header.bots)
    if header.spieltag is not None:
        record["spieltag"] = header.spieltag
    place = header.tournament
    if place is not None:
        record["tournament"] = {
            "event": place.event, "table": place.table, "round": place.round, "game": place.game,
        }
    return record


def header_from_record(record: Mapping[str, Any], origin: str = "journal") -> JournalHeader:
    """The header a record holds; :class:`JournalError` naming the field for anything else."""
    if record.get("journal") != _MAGIC:
        raise JournalError(f"{origin} is not a Schockbesteck journal: no header record")
    version = record.get("format")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise JournalError(
            f"{origin} has journal format {_clip(version)}; "
            f"this version reads format {FORMAT_VERSION}"
        )
    players, rules = record.get("players"), record.get("rules")
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
    real_dice = record.get("real_dice", False)
    if not isinstance(real_dice, bool):
        raise JournalError(f"{origin}: header field 'real_dice' is {_clip(real_dice)}, not true")
    try:
        setup = GameSetup(tuple(players), game_rules, real_dice)
    except (TypeError, ValueError) as error:
        raise JournalError(f"{origin}: header field 'players': {_clip(error)}") from None
    language = record.get("language")
    if language is not None and not isinstance(language, str):
        raise JournalError(f"{origin}: header field 'language' is {_clip(language)}, not a name")
    bots = record.get("bots")
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
    spieltag = record.get("spieltag")
    if spieltag is not None and not (isinstance(spieltag, str) and SPIELTAG_ID.match(spieltag)):
        raise JournalError(
            f"{origin}: header field 'spieltag' is {_clip(spieltag)}, not a Spieltag's ID "
            "(1-40 letters, digits or '-')"
        )
    return JournalHeader(
        setup, language, None if bots is None else tuple(bots), spieltag,
        _tournament(record.get("tournament"), origin),
    )


def _tournament(value: object, origin: str) -> TournamentGame | None:
    """The header's ``tournament`` field read back (None where there is none)."""
    if value is None:
        return None
    problem = f"{origin}: header field 'tournament' is {_clip(value)}, not a tournament game"
    if not isinstance(value, dict):
        raise JournalError(problem)
    event, table = value.get("event"), value.get("table")
    number, game = value.get("round"), value.get("game")
    if not (isinstance(event, str) and isinstance(table, str) and event and table):
        raise JournalError(problem)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise JournalError(problem)
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise JournalError(problem)
    return TournamentGame(event, table, number, game)


def note_to_record(note: Note) -> dict[str, Any]:
    """The note's record: ``{"ui": {"marks": [...]}}`` or ``{"ui": {"entry": {...}}}``."""
    match note:
        case KeepMarks(marks=marks):
            return {"ui": {"marks": list(marks)}}
        case EntryNote():
            return {"ui": {"entry": {
                "dice": list(note.dice), "throws": note.throws, "hand": note.hand,
                "correcting": note.correcting, "roll_off": [list(d) for d in note.roll_off],
                "settling": note.settling,
            }}}


def note_from_record(value: object) -> Note | None:
    """A note's ``ui`` object read back; None for anything that is not one of ours."""
    if not isinstance(value, dict):
        return None
    marks, entry = value.get("marks"), value.get("entry")
    if isinstance(marks, list) and all(isinstance(mark, bool) for mark in marks):
        return KeepMarks(tuple(marks))
    if not isinstance(entry, dict):
        return None
    dice, throws, hand = entry.get("dice"), entry.get("throws"), entry.get("hand")
    correcting, roll_off = entry.get("correcting"), entry.get("roll_off", [])
    settling = entry.get("settling", False)
    if (
        not _is_dice(dice) or isinstance(throws, bool) or not isinstance(throws, int)
        or not 1 <= throws <= 5 or not isinstance(hand, bool)
        or not (correcting is None or isinstance(correcting, str))
        or not isinstance(roll_off, list) or not all(_is_dice(d) for d in roll_off)
        or not isinstance(settling, bool)
    ):
        return None
    assert isinstance(dice, list)
    return EntryNote(
        tuple(dice), throws, hand, correcting, tuple(tuple(d) for d in roll_off), settling
    )


def _is_dice(value: object) -> bool:
    return isinstance(value, list) and 1 <= len(value) <= 3 and all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value
    )


def _note_fits(note: Note, game: Game) -> bool:
    """Whether ``note`` can stand where ``game`` stands: marks of a turn under way that the
    rules let lay out; an entry of a game with real dice, of its dice count, correcting one of
    its players, with no more roll-off throws than there are contenders."""
    count = game.rules.dice_count
    match note:
        case KeepMarks(marks=marks):
            if game.turn is None or len(marks) != count:
                return False
            keep = tuple(index for index, marked in enumerate(marks) if marked)
            return keep in set(game.legal_keeps())
        case EntryNote():
            if not game.real_dice or game.is_over or len(note.dice) != count:
                return False
            if note.correcting is not None and note.correcting not in game.players:
                return False
            if note.roll_off and (
                game.phase is not Phase.ROLL_OFF or len(note.roll_off) >= len(game.contenders)
            ):
                return False
            return all(len(throw) == count for throw in note.roll_off)


def _clip(value: object, limit: int = 60) -> str:
    """``value`` (its repr, or the text of an exception) cut short for a one-line report."""
    text = str(value) if isinstance(value, BaseException) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the reader ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recovery:
    """What a journal holds: its header, the game rebuilt from its intact prefix, the note the
    screen stood at, and what was dropped."""

    header: JournalHeader
    actions: tuple[Event, ...]
    #: The game after replaying ``actions``.
    game: Game
    #: The last note written after the last action (a time box's :class:`GoScharf` aside,
    #: which changes no screen), if it still fits the game; else None.
    note: Note | None
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
    #: Every event the replay of ``actions`` gave (what :meth:`Game.apply` returned for each,
    #: actions among them, in order): the readers of results and statistics take these
    #: instead of replaying the game again.
    events: tuple[Event, ...] = ()

    @property
    def setup(self) -> GameSetup:
        return self.header.setup

    @property
    def damaged(self) -> bool:
        """True if the file ends in something other than intact records."""
        return self.problem is not None

    @property
    def unplayed(self) -> bool:
        """True if nothing was played or entered yet: no action, and no roll-off's throw
        entered on the buttons (a game with real dice keeps those in its note)."""
        return not self.actions and not (isinstance(self.note, EntryNote) and self.note.roll_off)


def read_header(data: bytes, *, origin: str = "journal") -> JournalHeader:
    """The header of a journal, reading its first record only (to tell which games to read
    whole). :class:`JournalError` if there is no readable header."""
    end = data.find(b"\n")
    records, _, problem = decode_records(data if end < 0 else data[: end + 1])
    if not records:
        reason = problem or "the file is empty"
        raise JournalError(f"{origin} is not a Schockbesteck journal: {reason}")
    return header_from_record(records[0], origin)


def read_journal(data: bytes, *, origin: str = "journal") -> Recovery:
    """Rebuild a game from a journal's bytes, keeping the longest intact, legal prefix.

    Raises :class:`JournalError` only if not even a header can be read (an empty or foreign
    file, or a format newer than this code knows).
    """
    records, intact, problem = decode_records(data)
    if not records:
        reason = problem or "the file is empty"
        raise JournalError(f"{origin} is not a Schockbesteck journal: {reason}")
    header = header_from_record(records[0], origin)
    game = Game(header.setup)
    actions: list[Event] = []
    events: list[Event] = []
    note: Note | None = None
    for index, record in enumerate(records[1:], start=1):
        if set(record) == {"ui"}:
            read = note_from_record(record["ui"])
            note = read if read is not None and _note_fits(read, game) else None
            continue
        why = _apply_action(record, game, actions, events)
        if why is not None:
            position = _record_offsets(data, index + 1)[index]
            dropped = len(data) - position
            problem = f"record {index + 1} at byte {position}: {why} ({dropped} bytes dropped)"
            intact = position
            records = records[:index]
            break
        if not isinstance(actions[-1], GoScharf):
            # The time box changes no screen: the note before it (a turn's marks, a result
            # half entered) still tells how the screen stood.
            note = None
    return Recovery(
        header=header, actions=tuple(actions), game=game, note=note, intact_length=intact,
        file_length=len(data), problem=problem, records=len(records),
        intact_after=count_intact_after(data, intact), events=tuple(events),
    )


def _apply_action(
    record: dict[str, Any], game: Game, actions: list[Event], events: list[Event]
) -> str | None:
    """Apply one action's record (appending it to ``actions``, what it caused to ``events``):
    None when it applied, else the problem."""
    body = dict(record)
    number = body.pop("n", None)
    if number != len(actions) or isinstance(number, bool):
        return f"expected action number {len(actions)}, found {_clip(number)}"
    try:
        action = from_json(body)
        if not action.is_action:
            return f"{action.kind!r} is an outcome, not an action"
        caused = game.apply(action)
    except (SchockenError, TypeError, ValueError, KeyError, AttributeError) as error:
        return f"not a legal next action: {_clip(error, 120)}"
    actions.append(action)
    events += caused
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


# --- the writer ---------------------------------------------------------------------------------


class Journal:
    """An open journal of the game in progress: appends one fsync'd record per action."""

    def __init__(self, storage: Storage, name: str, next_index: int) -> None:
        self.storage = storage
        self.name = name
        self.next_index = next_index

    @classmethod
    def create(cls, storage: Storage, name: str, header: JournalHeader) -> Journal:
        """Start a new journal (replacing any file called ``name``) with the game's header.

        The header goes in with the file in one step: a pulled plug (or a full card) while it is
        written leaves the old file or none, never an empty journal that the next start would
        have to set aside as damaged.
        """
        record = encode_record(header_to_record(header))
        storage.write_atomic(name, record.decode("utf-8"))
        return cls(storage, name, 0)

    @classmethod
    def resume(cls, storage: Storage, name: str, recovery: Recovery) -> Journal:
        """Continue a recovered journal, first cutting off any damaged tail."""
        if recovery.file_length != recovery.intact_length:
            storage.truncate(name, recovery.intact_length)
        return cls(storage, name, len(recovery.actions))

    def append(self, action: Event) -> None:
        """Write the next action durably; returns once it is on the medium."""
        record = encode_record({"n": self.next_index, **to_json(action)})
        self.storage.append_durable(self.name, record)
        self.next_index += 1

    def note(self, note: Note) -> None:
        """Write a note of the screen's state (it holds until the next action)."""
        self.storage.append_durable(self.name, encode_record(note_to_record(note)))

