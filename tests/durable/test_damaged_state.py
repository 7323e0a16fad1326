"""Damaged state never stops the device and is never deleted: a fuzz over a real journal.

A real :class:`DeviceApp` plays a few actions into a real temporary state directory; its journal
is then damaged in two ways, and a fresh device is started on each damaged copy:

* every field of the header (the top-level fields and every rules key) is replaced by values of
  the wrong type or range, or removed, and the header re-encoded with a *valid* checksum, so
  only the reader's checks stand between the damage and the device;
* every byte of the journal is changed (several replacement values per byte).

Each start must succeed; every byte of the damaged file must still be on the disk (in
``current.journal`` or in ``damaged/``); and where the device did not resume the whole game, the
store's report must name the damage (the header field, or the record and its offset).
``make test`` runs a seeded sample; ``make test-long`` every case.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware.app.device import DeviceApp
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.store.gamestore import CURRENT
from firmware.store.journal import encode_record
from hal.ports import Button, InputEvent, InputKind
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.harness import make_app

#: Values that a header field may be damaged to (wrong types, ranges, sizes, depth).
_DEEP: object = 0
for _ in range(200):
    _DEEP = [_DEEP]
BAD_VALUES: tuple[object, ...] = (
    "standard", "", "x" * 2000, 0, -1, 7, 10**30, 1.5, True, None, [], ["x"], {}, {"a": 1},
    _DEEP,
)
#: Replacement values for every byte (xor 0x01 is "one bit flipped").
BYTE_CHANGES: tuple[str, ...] = ("xor01", "zero", "newline", "space", "ff")
_REMOVED = object()


@dataclass(frozen=True)
class Journal:
    data: bytes
    header: dict[str, object]
    #: Start offsets of the records, and the file length at the end.
    starts: tuple[int, ...]
    actions: int


def start_device(root: Path) -> DeviceApp:
    return make_app(
        DeviceConfig(), clock=FakeClock(), dice=SeededDice(3), storage=StateDirectory(root)
    )


def short_journal(tmp_root: Path) -> Journal:
    """The journal of a real device after a roll-off and a few throws (with KEEP marks)."""
    app = make_app(
        DeviceConfig(), clock=FakeClock(), dice=SeededDice(3),
        storage=StateDirectory(tmp_root), setup=None,
    )
    now = 0.0
    for kind, button in [
        (InputKind.PRESS, Button.STAND), (InputKind.PRESS, Button.STAND),
        (InputKind.PRESS, Button.STAND), (InputKind.PRESS, Button.STAND),  # through the setup
        (InputKind.THROW, None), (InputKind.PRESS, Button.STAND),  # roll-off, who opens
        (InputKind.PRESS, Button.STAND), (InputKind.THROW, None),  # take the cup, throw
        (InputKind.PRESS, Button.KEEP_1), (InputKind.THROW, None),  # keep one, throw again
        (InputKind.PRESS, Button.STAND), (InputKind.PRESS, Button.STAND),  # stand, hand over
        (InputKind.THROW, None), (InputKind.PRESS, Button.KEEP_2),
    ]:
        now += 1.0
        if kind is InputKind.THROW:
            app.handle(InputEvent(InputKind.SHAKE_START, now))
        app.handle(InputEvent(kind, now, button))
    game = app.game
    assert game is not None and len(game.actions) >= 4, "the journal holds several actions"
    data = (tmp_root / CURRENT).read_bytes()
    starts = [0]
    while starts[-1] < len(data):
        starts.append(data.index(b"\n", starts[-1]) + 1)
    header = json.loads(data[: starts[1] - 1].split(b" ", 2)[2])
    return Journal(data, header, tuple(starts), len(game.actions))


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Journal:
    return short_journal(tmp_path_factory.mktemp("source"))


# -- the cases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    label: str
    #: The field ("rules.deckel") or None for byte damage.
    field: str | None
    offset: int | None
    value: object


def header_cases(journal: Journal) -> list[Case]:
    cases = []
    rules = journal.header["rules"]
    assert isinstance(rules, dict)
    fields = [*journal.header, *(f"rules.{key}" for key in rules)]
    for field in fields:
        for value in (*BAD_VALUES, _REMOVED):
            shown = "removed" if value is _REMOVED else repr(value)[:20]
            cases.append(Case(f"{field}={shown}", field, None, value))
    return cases


def changed_byte(old: int, change: object) -> int:
    return {"xor01": old ^ 0x01, "zero": 0x00, "newline": 0x0A, "space": 0x20, "ff": 0xFF}[
        str(change)
    ]


def byte_cases(journal: Journal) -> list[Case]:
    """Every byte with every change that alters it."""
    return [
        Case(f"byte {offset} {change}", None, offset, change)
        for offset in range(len(journal.data))
        for change in BYTE_CHANGES
        if changed_byte(journal.data[offset], change) != journal.data[offset]
    ]


def damaged_bytes(journal: Journal, case: Case) -> bytes:
    if case.field is None:
        assert case.offset is not None
        new = changed_byte(journal.data[case.offset], case.value)
        return journal.data[: case.offset] + bytes([new]) + journal.data[case.offset + 1:]
    header = json.loads(json.dumps(journal.header))
    target = header
    key = case.field
    if key.startswith("rules."):
        target, key = header["rules"], key.removeprefix("rules.")
    if case.value is _REMOVED:
        del target[key]
    else:
        target[key] = case.value
    return encode_record(header) + journal.data[journal.starts[1]:]


def expected_names(journal: Journal, case: Case) -> list[str]:
    """Words of which the report must contain one: the field, or the damaged record.

    A header that is valid but describes another game (other rules, other players) shows as
    the first action that does not fit it.
    """
    if case.field is not None:
        key = case.field.removeprefix("rules.")
        own = {"journal": ["no header record"], "format": ["journal format"]}.get(
            case.field, [repr(key), f"{key} ="]
        )
        return [*own, "nested deeper than", "not a legal next action"]
    assert case.offset is not None
    record = max(i for i, start in enumerate(journal.starts) if start <= case.offset)
    return [f"record {record + 1} at byte {journal.starts[record]}"]


# -- the check -----------------------------------------------------------------------------------


@dataclass
class Outcome:
    resumed_whole: bool


def contents(root: Path) -> list[bytes]:
    return [path.read_bytes() for path in root.rglob("*") if path.is_file()]


def check(journal: Journal, case: Case, root: Path) -> Outcome:
    damaged = damaged_bytes(journal, case)
    root.mkdir(parents=True)
    (root / CURRENT).write_bytes(damaged)
    app = start_device(root)  # must not raise
    assert app.screen().size == (128, 64)
    store = app.store
    assert store is not None
    assert damaged in contents(root), f"{case.label}: the damaged file is on disk whole"
    game = app.game
    resumed_whole = (
        app.resumed and game is not None and len(game.actions) == journal.actions
        and not store.damage
    )
    if resumed_whole:
        assert (root / CURRENT).read_bytes() == damaged, f"{case.label}: untouched"
    else:
        assert store.damage, f"{case.label}: the device did not resume all, and says why"
        reasons = " | ".join(report.reason for report in store.damage)
        names = expected_names(journal, case)
        assert any(name in reasons for name in names), f"{case.label}: {reasons!r} names {names}"
        assert all(report.kept_in for report in store.damage)
        assert all(len(report.reason) < 400 for report in store.damage), "one short line"
    again = start_device(root)
    assert again.store is not None and not again.store.damage, "repaired once, not every start"
    return Outcome(resumed_whole)


def run_cases(journal: Journal, cases: list[Case], tmp_path: Path) -> tuple[int, int]:
    """(cases started, cases where the damage was refused and reported)."""
    started = reported = 0
    for index, case in enumerate(cases):
        outcome = check(journal, case, tmp_path / f"case-{index}")
        started += 1
        reported += not outcome.resumed_whole
    return started, reported


def sample(cases: list[Case], count: int, seed: int) -> list[Case]:
    return random.Random(seed).sample(cases, min(count, len(cases)))


# -- tests ---------------------------------------------------------------------------------------


def test_a_sample_of_damaged_headers_starts_and_keeps_everything(
    journal: Journal, tmp_path: Path
) -> None:
    cases = header_cases(journal)
    chosen = [c for c in cases if c.field == "rules" and c.value == "standard"]
    chosen += sample(cases, 60, seed=17)
    started, reported = run_cases(journal, chosen, tmp_path)
    assert started == len(chosen)
    assert reported > len(chosen) // 2, "most of these values are refused"


def test_a_sample_of_damaged_bytes_starts_and_keeps_everything(
    journal: Journal, tmp_path: Path
) -> None:
    cases = byte_cases(journal)
    chosen = sample(cases, 80, seed=18)
    started, reported = run_cases(journal, chosen, tmp_path)
    assert started == reported == len(chosen), "a changed byte is always found"


@pytest.mark.slow
def test_every_damaged_header_field_starts_and_keeps_everything(
    journal: Journal, tmp_path: Path
) -> None:
    cases = header_cases(journal)
    started, reported = run_cases(journal, cases, tmp_path)
    print(f"damaged headers: {len(cases)} tried, {started} started, {reported} refused")
    assert started == len(cases)


@pytest.mark.slow
def test_every_damaged_byte_starts_and_keeps_everything(journal: Journal, tmp_path: Path) -> None:
    cases = byte_cases(journal)
    started, reported = run_cases(journal, cases, tmp_path)
    print(f"damaged journals: {len(cases)} tried, {started} started, {reported} reported")
    assert started == reported == len(cases)


def test_a_deeply_nested_setup_file_does_not_stop_the_device(tmp_path: Path) -> None:
    (tmp_path / "setup.json").write_text("[" * 100_000, encoding="utf-8")
    app = start_device(tmp_path)
    assert app.store is not None and [report.name for report in app.store.damage] == ["setup.json"]
    assert [p.read_text(encoding="utf-8") for p in (tmp_path / "damaged").iterdir()] == [
        "[" * 100_000
    ]
