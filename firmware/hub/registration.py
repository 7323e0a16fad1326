"""A club's roster into the tournament: full names as clubs keep them, and for each player a
name the tables' screens show whole.

A roster is CSV as a club's spreadsheet saves it: UTF-8 with or without a BOM, ``;``, ``,`` or
a tab between the cells (the first line's says which), a header line or none. With a header,
the columns are found by their titles (any order, other columns ignored): the name (``Name``,
``Spieler``, ``Player``, ``Teilnehmer``) or ``Vorname`` and ``Nachname``; the team the draw
keeps apart (``Mannschaft``, ``Team``; else ``Verein``, ``Club``; or the column the director
names); a display name of the director's choice (``Anzeige``, ``Kurzname``, ``Display``).
Without one, each line is ``name;team``. ``Neumann, Vera`` is read as ``Vera Neumann``.

A full name is words of the one name rule's characters (:func:`firmware.names.name_problem`)
between single spaces, at most :data:`~firmware.names.MAX_NAME_LENGTH` characters. The name a
player plays under (on the wire, at the table, in the draw) passes the rule and is at most
:data:`~firmware.names.SHOWN_NAME_LENGTH` characters, so every table's screen shows it whole,
and it is unique in the tournament, so unique at every table (:func:`display_names`): the
given name where no other player of the roster has it (``Vera``), else the given name, a dot
and as much of the family name as tells the players apart (``Thomas.M``, ``Thomas.Mü``), else
a number (``Thomas.M1``, ``Thomas.M2``). A name is fixed once registered: the results carry it.

Everything is checked before anything is written: a mistake is one line naming the file's line,
and the roster goes in whole (players and full names in one transaction) or not at all.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.tournament import Entrant
from firmware.hub.store import HubStore
from firmware.names import MAX_NAME_LENGTH, SHOWN_NAME_LENGTH, name_problem

__all__ = [
    "Roster",
    "RosterError",
    "RosterLine",
    "decode_roster",
    "display_names",
    "full_name_problem",
    "full_names",
    "parse_item",
    "parse_roster",
    "register",
]

#: A column's titles, lower case, by what it holds.
_TITLES: dict[str, frozenset[str]] = {
    "name": frozenset({"name", "spieler", "spielerin", "player", "teilnehmer", "teilnehmerin"}),
    "given": frozenset({"vorname", "first name", "firstname", "given name"}),
    "family": frozenset({"nachname", "familienname", "last name", "lastname", "surname"}),
    "team": frozenset({"mannschaft", "team"}),
    "club": frozenset({"verein", "club", "klub"}),
    "display": frozenset({"anzeige", "anzeigename", "kurzname", "display", "display name"}),
}
#: What joins a given name and the beginning of a family name in a shown name.
_JOIN = "."


class RosterError(ValueError):
    """A roster (or a player given on the command line) that cannot be registered: one line,
    naming the file's line."""


@dataclass(frozen=True, slots=True)
class RosterLine:
    """One player of a roster: the full name, the team ("" for none), the display name the
    director chose ("" to make one), and where it came from (``players.csv:12``)."""

    full_name: str
    team: str
    display: str
    where: str


@dataclass(frozen=True, slots=True)
class Roster:
    """The players as registered: each one's entrant (under the name they play as) and full
    name."""

    entrants: tuple[Entrant, ...]
    full_names: tuple[str, ...]


def full_name_problem(full_name: str) -> str | None:
    """Why ``full_name`` is no player's full name (one line), or None."""
    if not full_name:
        return "no name"
    if len(full_name) > MAX_NAME_LENGTH:
        return (
            f"player {full_name[:12]!r}… has {len(full_name)} characters: at most "
            f"{MAX_NAME_LENGTH}"
        )
    for word in full_name.split(" "):
        problem = name_problem(word)
        if problem is not None:
            return problem
    return None


def _team_problem(team: str) -> str | None:
    if len(team) > MAX_NAME_LENGTH or not team.isprintable():
        return f"team {team[:12]!r}: at most {MAX_NAME_LENGTH} printable characters"
    return None


def _display_problem(display: str) -> str | None:
    problem = name_problem(display)
    if problem is None and len(display) > SHOWN_NAME_LENGTH:
        problem = (
            f"display name {display!r} has {len(display)} characters: the tables' screens "
            f"show {SHOWN_NAME_LENGTH}"
        )
    return problem


def _tidy(cell: str) -> str:
    """A name cell as one full name: single spaces, ``Neumann, Vera`` turned round."""
    words = " ".join(cell.split())
    family, comma, given = words.partition(",")
    if comma and "," not in given and family.strip() and given.strip():
        words = f"{given.strip()} {family.strip()}"
    return words


def _line(full: str, team: str, display: str, where: str) -> RosterLine:
    full, team, display = _tidy(full), " ".join(team.split()), display.strip()
    problem = full_name_problem(full) or _team_problem(team)
    if problem is None and display:
        problem = _display_problem(display)
    if problem is not None:
        raise RosterError(f"{where}: {problem}")
    return RosterLine(full, team, display, where)


def parse_item(item: str) -> RosterLine:
    """A player given on the command line: ``NAME`` or ``NAME:TEAM`` (spaces allowed)."""
    name, _, team = item.partition(":")
    return _line(name, team, "", repr(item))


def decode_roster(data: bytes, where: str) -> str:
    """A roster file's bytes as text: UTF-8, a BOM allowed; RosterError naming the line of the
    first byte that is not (a spreadsheet's "CSV" in Windows-1252, say)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RosterError(
            f"{where}:{line}: not UTF-8 text; save the roster as \"CSV UTF-8\""
        ) from None


def parse_roster(text: str, where: str, team_column: str | None = None) -> list[RosterLine]:
    """The players of a roster's text (see the module); RosterError for the first bad line,
    naming it (``where:12``)."""
    text = text.removeprefix("\ufeff")
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = next((d for d in (";", "\t", ",") if d in first), ";")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    lines: list[RosterLine] = []
    columns: dict[str, int] | None = None
    try:
        for row in reader:
            at = f"{where}:{reader.line_num}"
            if not "".join(row).strip():
                continue
            if columns is None:
                columns = _columns(row, at, team_column)
                if columns:
                    continue
            lines.append(_row_line(row, columns, at))
    except csv.Error:
        raise RosterError(
            f"{where}:{reader.line_num}: cannot be read as CSV (an open quote, or a cell too "
            "long)"
        ) from None
    if not lines:
        raise RosterError(f"{where}: no players in it (one name;team per line)")
    return lines


def _columns(row: Sequence[str], at: str, team_column: str | None) -> dict[str, int]:
    """The columns a header line names ({} if the line is no header: a player)."""
    titles = [cell.strip().lower() for cell in row]
    found = {
        what: index
        for index, title in reversed(list(enumerate(titles)))
        for what, known in _TITLES.items()
        if title in known
    }
    header = "name" in found or {"given", "family"} <= found.keys()
    if team_column is not None:
        if not header:
            raise RosterError(f"{at}: --team-column {team_column!r} needs a header line")
        if team_column.strip().lower() not in titles:
            raise RosterError(
                f"{at}: no column {team_column!r}; the columns are {', '.join(row)}"
            )
        found["team"] = titles.index(team_column.strip().lower())
    elif header and "team" not in found and "club" in found:
        found["team"] = found["club"]
    return found if header else {}


def _row_line(row: Sequence[str], columns: dict[str, int], at: str) -> RosterLine:
    def cell(what: str) -> str:
        index = columns.get(what)
        return row[index] if index is not None and index < len(row) else ""

    if not columns:
        return _line(row[0], row[1] if len(row) > 1 else "", "", at)
    full = cell("name") if "name" in columns else f"{cell('given')} {cell('family')}"
    return _line(full, cell("team"), cell("display"), at)


# -- the names players play under --------------------------------------------------------------


def _parts(full_name: str) -> tuple[str, str]:
    """A full name's given name and family name ("" for a single word); a single word that is
    too long is cut at its hyphens (``Maximilian-Schmidt``)."""
    words = full_name.split(" ")
    if len(words) == 1 and len(full_name) > SHOWN_NAME_LENGTH and "-" in full_name.strip("-"):
        given, _, family = full_name.strip("-").partition("-")
        return given, family
    return words[0], (words[-1] if len(words) > 1 else "")


def _candidate(given: str, family: str, letters: int) -> str:
    """The given name and ``letters`` letters of the family name, cut to fit the screens."""
    tail = family[:letters]
    if not tail:
        return given[:SHOWN_NAME_LENGTH]
    head = given[: SHOWN_NAME_LENGTH - len(_JOIN) - len(tail)].rstrip("-'.")
    return f"{head}{_JOIN}{tail}" if head else tail[:SHOWN_NAME_LENGTH]


def display_names(full_names: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """For each full name (one roster, in its order) the name its player plays under: at most
    :data:`SHOWN_NAME_LENGTH` characters, none of ``taken`` (the players registered already)
    and none another's (see the module)."""
    parts = [_parts(name) for name in full_names]
    given_count = Counter(given for given, _ in parts)
    used = set(taken)
    shown: list[str] = []
    for index, (given, family) in enumerate(parts):
        others = [p for i, p in enumerate(parts) if i != index and p[0] == given]
        name = ""
        most = max(1, min(len(family), SHOWN_NAME_LENGTH - 1))
        for letters in range(0 if given_count[given] == 1 or not family else 1, most + 1):
            tried = _candidate(given, family, letters)
            clash = any(_candidate(g, f, letters) == tried for g, f in others)
            if not clash and tried not in used and name_problem(tried) is None:
                name = tried
                break
        if not name:
            name = _numbered(_candidate(given, family, 1), used)
        used.add(name)
        shown.append(name)
    return shown


def _numbered(base: str, used: set[str]) -> str:
    for number in range(1, 10**SHOWN_NAME_LENGTH):
        mark = str(number)
        name = base[: SHOWN_NAME_LENGTH - len(mark)].rstrip("-'.") + mark
        if name not in used:
            return name
    raise RosterError(f"no name left for {base!r}")  # not reached: 10**9 numbers


# -- into the store ----------------------------------------------------------------------------


def full_names(store: HubStore) -> dict[str, str]:
    """Each registered player's full name by the name they play under (where the roster gave
    one that differs)."""
    return {
        str(name): str(full)
        for name, full in store.select("SELECT name, full_name FROM roster")
        if name != full
    }


def register(store: HubStore, lines: Sequence[RosterLine]) -> Roster:
    """Register the roster's players in one transaction, each under a name of its own
    (:func:`display_names`); RosterError, naming the line, for a player twice or a chosen
    display name already taken, and nothing is written."""
    registered = store.players()
    known = full_names(store)
    seen: dict[tuple[str, str], str] = {
        (known.get(e.name, e.name).casefold(), e.team.casefold()): "registered already"
        for e in registered
    }
    taken = {e.name for e in registered}
    for line in lines:
        key = (line.full_name.casefold(), line.team.casefold())
        if key in seen:
            team = f" ({line.team})" if line.team else ""
            raise RosterError(f"{line.where}: {line.full_name}{team} is {seen[key]}")
        seen[key] = f"on {line.where} already"
        if line.display and line.display in taken:
            raise RosterError(f"{line.where}: the display name {line.display!r} is taken")
        if line.display:
            taken.add(line.display)
    chosen = [line for line in lines if not line.display]
    made = iter(display_names([line.full_name for line in chosen], taken))
    names = [line.display or next(made) for line in lines]
    roster = Roster(
        tuple(Entrant(name, line.team) for name, line in zip(names, lines, strict=True)),
        tuple(line.full_name for line in lines),
    )
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO players (name, team) VALUES (?, ?)",
            [(e.name, e.team) for e in roster.entrants],
        )
        db.executemany(
            "INSERT INTO roster (name, full_name) VALUES (?, ?)",
            [(e.name, full) for e, full in zip(roster.entrants, roster.full_names, strict=True)],
        )
    return roster
