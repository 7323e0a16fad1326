"""Leben on the Spielberichtsbogen as players know it: the card starts with each player's
lives, a player out loses no more, so every column adds up to the lives left ("Summe
(Leben)"), and players out are placed by when they went out, the later the better."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.scoring import load_scheme
from engine.spieltag import Spieltag
from firmware.report.sheet import evening_sheet, sheet_document, sheet_rows
from firmware.store.evening import load_evening
from firmware.store.spieltagfile import SpieltagFiles
from hal.storage import StateDirectory
from tests.durable.evening import play_games

THREE = ("Anna", "Ben", "Carla")


@pytest.fixture(scope="module")
def evening_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight games of three under Leben with 2 lives: players go out and play on."""
    root = tmp_path_factory.mktemp("leben")
    scheme = replace(load_scheme("leben"), lives=2)
    SpieltagFiles(StateDirectory(root)).begin(Spieltag("20261201-193000", "Leben", scheme,
                                                       "2026-12-01"))
    play_games(root, THREE, 8, seed=9, deckel=3)
    return root


def number(cell: str) -> int:
    """A card's cell: ``-1``, or ``-1 (1 SA)`` with its Schock aus."""
    return int(cell.split(" ")[0])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_under_leben_every_column_of_the_sheet_adds_up(evening_root: Path, lang: str) -> None:
    sheet = evening_sheet(load_evening(StateDirectory(evening_root)))
    rows = sheet_rows(sheet, lang)
    start = rows.index(next(row for row in rows if row[:1] == [
        "Leben zu Beginn" if lang == "de" else "Lives at the start"
    ]))
    total = next(index for index in range(start, len(rows)) if rows[index][0].startswith(
        "Summe" if lang == "de" else "Total"
    ))
    names = [player.name for player in sheet.players]
    assert rows[start - 1][1:] == names
    assert rows[start][1:] == ["2"] * len(names)  # the starting lives, printed
    partien = rows[start + 1: total]
    assert len(partien) == 8
    for column, name in enumerate(names, start=1):
        lives = 2 + sum(number(row[column]) for row in partien if row[column])
        assert str(lives) == rows[total][column], name
    out = [line for line in sheet.standings if line.out]
    assert len(out) >= 2, "the seed's: two players out"
    # The PDF's card is the same table: it adds up too.
    document = sheet_document(sheet, lang)
    card = next(table for table in document.tables if table.title == rows[start - 1][0])
    assert [list(row) for row in card.rows] == [rows[start], *partien, rows[total][:len(names) + 1]]


def test_players_out_are_placed_by_when_they_went_out(evening_root: Path) -> None:
    lines = evening_sheet(load_evening(StateDirectory(evening_root))).standings
    out = [line for line in lines if line.out]
    assert [line.out_after for line in out] == sorted((line.out_after for line in out),
                                                      reverse=True)
    assert len({line.place for line in out}) == len(out)  # no shared place for them
    assert all(line.place > max(still.place for still in lines if not still.out) for line in out)
