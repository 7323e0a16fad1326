"""`schocken hub seating`: a round's seating list as an A4 PDF in large type, by table and by
name, in both languages, read back with poppler's pdftotext (its text layer and its boxes)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from firmware.hub.hub import init_tournament
from firmware.hub.registration import parse_roster, register
from firmware.hub.store import HubStore
from tests.cli.test_hub_cli import hub as run_hub

#: 72 players with full names (one with a letter beyond the PDF fonts' own), 18 tables of four.
NAMES = [f"Spieler{i:02} Familie{i % 9}" for i in range(70)] + ["Vera Neumann", "Małgorzata Nowak"]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament whose round 1 is drawn (seed 5), its players from a roster."""
    path = tmp_path_factory.mktemp("seating") / "dm.db"
    hub = init_tournament(path, "dm2026")
    text = "Name;Verein\n" + "".join(f"{n};Club{i % 18}\n" for i, n in enumerate(NAMES))
    register(hub.store, parse_roster(text, "r.csv"))
    hub.draw_round(seed=5)
    return path


def pdf_text(path: Path, *args: str) -> str:
    done = subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_by_table_every_table_and_player_in_large_type_on_a4(
    drawn: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = drawn.with_name("sitzplan.pdf")
    assert run_hub(capsys, "seating", "--db", str(drawn), "-o", str(out))[0] == 0
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
    assert "x 841.89 pts (A4)" in info and "Sitzplan dm2026 · Runde 1" in info
    pages = pdf_text(out, "-layout").split("\f")
    assert pages[0].lstrip().startswith("Sitzplan dm2026 · Runde 1")
    text = "\n".join(pages)
    for seat in HubStore(drawn).seats(1):  # each table's number begins a row with its players
        first = next(x for x in text.splitlines() if re.match(rf"\s*{seat.table_no}\s", x))
        assert first.split()[1] in {name.split()[0] for name in NAMES}
    for name in NAMES:
        assert name.replace("ł", "l") in text, name  # ł in the fonts' own letters, no black box
    # A table's second row goes on to a new page under its number: every page's first row does.
    for page in pages[1:]:
        rows = [x for x in page.splitlines()[1:] if x.strip()]
        if rows:
            assert re.match(r"\s*\d+\s", rows[0]), rows[0]
    # Large type: a name in 13.8 pt type, its box about 12.8 points high (the standings: 8.8 pt).
    boxes = pdf_text(out, "-bbox")
    word = re.search(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">Neumann<', boxes)
    assert word and float(word[2]) - float(word[1]) > 12, word


def test_by_name_in_english_sorted_by_family_name_with_the_name_shown_at_the_table(
    drawn: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = drawn.with_name("names.pdf")
    code, _, err = run_hub(capsys, "seating", "--db", str(drawn), "--by", "name", "--lang", "en",
                           "-o", str(out))  # fmt: skip
    assert code == 0, err
    rows = [x.split() for x in pdf_text(out, "-layout").splitlines() if "," in x]
    assert rows[0][:2] == ["Familie0,", "Spieler00"] and len(rows) == 72
    assert rows[[r[0] for r in rows].index("Neumann,")][:3] == ["Neumann,", "Vera", "Vera"]
    families = [r[0] for r in rows]
    assert families == sorted(families, key=str.casefold)
    assert "Seating list dm2026 · round 1" in pdf_text(out)


def test_a_ko_table_shows_its_kind_and_no_draw_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "ko.db")
    run_hub(capsys, "init", "--event", "dm2026", "--db", db)
    out = str(tmp_path / "s.pdf")
    code, _, err = run_hub(capsys, "seating", "--db", db, "-o", out)
    assert code == 2 and "Noch keine Runde ausgelost" in err and err.count("\n") == 1
    run_hub(capsys, "players", "add", "--db", db, *(f"Ko Spieler{i}" for i in range(8)))
    run_hub(capsys, "format", "--db", db, "velen")
    run_hub(capsys, "draw", "--db", db, "--seed", "1")
    code, _, err = run_hub(capsys, "seating", "--db", db, "--round", "4", "-o", out)
    assert code == 2 and "Runde 4 ist nicht ausgelost" in err and not Path(out).exists()
    assert run_hub(capsys, "seating", "--db", db, "--lang", "en", "-o", out)[0] == 0
    assert re.search(r"^\s*1 KO\s+Ko Spieler", pdf_text(Path(out), "-layout"), re.M)
