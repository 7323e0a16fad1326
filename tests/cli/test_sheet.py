"""`schocken spieltag`, `stats --spieltag` and `sheet` through the real entry point: a league
match at two tables merged into one sheet, the CSV opened as columns, the PDF's text layer
(poppler's pdftotext) holding every name and number, every bad input as one line."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.scoring import game_result, load_scheme, standings
from schockbesteck.cli import main
from tests.durable.evening import play_games

Run = Callable[..., tuple[int, str, str]]

TABLE_1 = ("Anna", "Ben", "Cem", "Dora")
TABLE_2 = ("Emil", "Frieda", "Götz", "Hanne")
LEAGUE = (
    "--home", "Schockfreunde Werl", "--guest", "3. Kompanie",
    "--player", "H1=Anna:1201@1", "--player", "H2=Ben:1202@1",
    "--player", "G1=Cem:2301@1", "--player", "G2=Dora:2302@1",
    "--player", "H3=Emil:1203@2", "--player", "H4=Frieda:1204@2",
    "--player", "G3=Götz:2303@2", "--player", "G4=Hanne:2304@2",
)  # fmt: skip


def begin(schocken: Run, root: Path, *more: str, scoring: str = "verlustpunkte") -> None:
    status, out, err = schocken(
        "spieltag", "begin", "--name", "7. Spieltag", "--venue", "Zum Anker", "--date",
        "2026-12-01", "--scoring", scoring, "--state-dir", str(root), *more,
    )
    assert (status, err) == (0, ""), err
    assert "begonnen" in out


def _quiet_schocken(*args: str) -> tuple[int, str, str]:
    """``schocken ARGS`` through the real entry point, its output kept (for a module fixture,
    which the function-scoped ``schocken`` cannot serve)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def played_match(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, list[object]]:
    """A league match: five Partien at each table, each table on its own device; played once
    for this module, in the tests' locale and state home, with 3 Deckel (a Partie's halves,
    Finale and Durchmarsch are those of a long game at a fraction of the throws)."""
    folder = tmp_path_factory.mktemp("match")
    one, two = folder / "tisch1", folder / "tisch2"
    one.mkdir()
    two.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
        patch.delenv("LC_ALL", raising=False)
        patch.delenv("LC_MESSAGES", raising=False)
        patch.setenv("LANG", "C.UTF-8")
        begin(_quiet_schocken, one, *LEAGUE)
        begin(_quiet_schocken, two, *LEAGUE, "--table", "2")
    games = [
        *play_games(one, TABLE_1, 5, seed=1, deckel=3),
        *play_games(two, TABLE_2, 5, seed=2, deckel=3),
    ]
    return one, two, games


@pytest.fixture
def match(
    played_match: tuple[Path, Path, list[object]], tmp_path: Path
) -> tuple[Path, Path, list[object]]:
    """The league match's two state directories, copied for this test alone."""
    one, two, games = played_match
    copies = tmp_path / one.name, tmp_path / two.name
    for source, copy in zip((one, two), copies, strict=True):
        shutil.copytree(source, copy)
    return *copies, games


def test_the_merged_match_sheet_lists_all_ten_partien_with_their_losers(
    schocken: Run, match: tuple[Path, Path, list[object]]
) -> None:
    one, two, games = match
    status, out, err = schocken("sheet", "--json", str(two), str(one))
    assert status == 0, err
    sheet = json.loads(out)
    partien = sheet["partien"]
    assert [p["partie"] for p in partien] == list(range(1, 11))
    assert [p["table"] for p in partien] == [1] * 5 + [2] * 5
    for partie, game in zip(partien, games, strict=True):
        result = game_result(game.setup, game.actions)  # type: ignore[attr-defined]
        assert (partie["half_1"], partie["half_2"]) == result.half_losers
        assert partie["final"] == result.final_loser
        assert partie["durchmarsch"] == (result.loser if result.durchmarsch else None)
    assert [p["seat"] for p in sheet["players"]] == ["H1", "H2", "H3", "H4", "G1", "G2", "G3", "G4"]
    assert len(sheet["standings"]) == 8


def test_the_match_merges_from_exported_files_too(
    schocken: Run, match: tuple[Path, Path, list[object]], tmp_path: Path
) -> None:
    """One table's export merges with the other's state directory as the directory itself."""
    one, two, _ = match
    status, _, err = schocken("sheet", "--export", "-o", str(tmp_path / "t2.json"), str(two))
    assert status == 0, err
    from_file = schocken("sheet", "--json", str(one), str(tmp_path / "t2.json"))
    from_dirs = schocken("sheet", "--json", str(one), str(two))
    assert from_file == from_dirs


def test_the_csv_opens_as_columns(schocken: Run, match: tuple[Path, Path, list[object]]) -> None:
    one, two, _ = match
    status, out, _ = schocken("sheet", str(one), str(two))
    assert status == 0
    assert out.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(out[1:]), delimiter=";"))
    assert rows[0] == ["Spielberichtsbogen"]
    assert ["Spielort", "Zum Anker"] in rows and ["Heim", "Schockfreunde Werl"] in rows
    heading = rows.index(
        ["Partie", "Tisch", "Verlierer 1. Hälfte", "Verlierer 2. Hälfte", "Verlierer Finale",
         "Durchmarsch"]
    )  # fmt: skip
    partien = rows[heading + 1:heading + 11]
    assert [row[0] for row in partien] == [str(n) for n in range(1, 11)]
    assert all(len(row) == 6 for row in partien)
    assert ["Sitz", "Name", "Spielernummer", "Tisch"] in rows
    assert ["G3", "Götz", "2303", "2"] in rows
    assert rows[-1] == ["Unterschrift Heim", "", "Unterschrift Gast"]


def test_the_csv_in_english(schocken: Run, match: tuple[Path, Path, list[object]]) -> None:
    one, _, _ = match
    status, out, _ = schocken("sheet", "--lang", "en", str(one))
    assert status == 0 and "Venue;Zum Anker" in out and "Signature guest" in out


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils (pdftotext)")
@pytest.mark.parametrize(
    "lang", ["de", pytest.param("en", marks=pytest.mark.slow)]  # English words: the CSV's test
)
def test_the_pdf_is_one_a4_page_whose_text_holds_every_name_and_number(
    schocken: Run, match: tuple[Path, Path, list[object]], tmp_path: Path, lang: str
) -> None:
    one, two, _ = match
    pdf = tmp_path / "bogen.pdf"
    status, _, err = schocken("sheet", "--pdf", "--lang", lang, "-o", str(pdf), str(one), str(two))
    assert status == 0, err
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    fields = dict(line.split(":", 1) for line in info.stdout.splitlines() if ":" in line)
    assert fields["Pages"].strip() == "1"
    assert fields["Page size"].strip().endswith("(A4)")
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    sheet = json.loads(schocken("sheet", "--json", str(one), str(two))[1])
    words = ["7. Spieltag", "2026-12-01", "Zum Anker", "Schockfreunde Werl", "3. Kompanie"]
    for player in sheet["players"]:
        words += [player["name"], player["seat"], player["number"]]
    for line in sheet["standings"]:
        words += [line["player"], str(line["score"])]
    for partie in sheet["partien"]:
        words += [str(points) for points in partie["points"].values()]
    labels = {"de": ("Unterschrift Heim", "Unterschrift Gast", "Verlierer 1. Hälfte"),
              "en": ("Signature home", "Signature guest", "Lost half 1")}[lang]  # fmt: skip
    missing = [word for word in [*words, *labels] if word not in text]
    assert missing == []
    rows = [line.split() for line in text.splitlines()]
    assert sum(1 for row in rows if row[:1] and row[0] in {str(n) for n in range(1, 11)}) >= 10


def test_stats_spieltag_shows_the_standings(
    schocken: Run, match: tuple[Path, Path, list[object]]
) -> None:
    one, _, games = match
    status, out, _ = schocken("stats", "--spieltag", "--json", "--state-dir", str(one))
    assert status == 0
    expected = standings(
        load_scheme("verlustpunkte"),
        [game_result(g.setup, g.actions) for g in games[:5]],  # type: ignore[attr-defined]
    )
    got = json.loads(out)["standings"]
    assert [(s["player"], s["score"], s["place"]) for s in got] == [
        (s.player, s.score, s.place) for s in expected
    ]
    status, out, _ = schocken("stats", "--spieltag", "--state-dir", str(one))
    lines = out.splitlines()
    assert lines[0] == "7. Spieltag (2026-12-01), Verlustpunkte, nach 5 Spielen"
    assert lines[1].split()[:3] == ["Platz", "Spieler", "Punkte"]
    seats = {"Anna": "H1", "Ben": "H2", "Cem": "G1", "Dora": "G2"}  # a league's seat first
    assert [line.split()[1:3] for line in lines[2:]] == [[seats[s.player], s.player]
                                                         for s in expected]


def test_spieltag_end_and_the_last_evening_stays_readable(
    schocken: Run, match: tuple[Path, Path, list[object]]
) -> None:
    one, _, _ = match
    status, out, _ = schocken("spieltag", "end", "--state-dir", str(one))
    assert status == 0 and "beendet, 5 Spiele" in out
    play_games(one, TABLE_1[:2], 1, seed=9, deckel=3)  # outside the evening
    sheet = json.loads(schocken("sheet", "--json", "--state-dir", str(one))[1])
    assert len(sheet["partien"]) == 5
    status, _, err = schocken("sheet", "--game", "6", "--state-dir", str(one))
    assert status == 2
    assert err == (
        "schocken sheet: error: game 6 was played outside any Spieltag: it has no sheet; "
        "begin a Spieltag (schocken spieltag begin) before the games that belong to it\n"
    )
    status, out, _ = schocken("sheet", "--json", "--game", "1", "--state-dir", str(one))
    assert status == 0 and len(json.loads(out)["partien"]) == 5


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("spieltag", "begin", "--name", "x", "--scoring", "liga"), "--scoring liga: not a scheme"),
        (("spieltag", "begin", "--name", "x", "--scoring", "{tmp}/none.toml"),
         "scoring file {tmp}/none.toml: "),
        (("spieltag", "begin", "--name", "x", "--player", "X1=Anna"), "--player X1=Anna: expected"),
        (("spieltag", "begin", "--name", "x", "--date", "1.12.2026"), "must be YYYY-MM-DD"),
        (("spieltag", "begin", "--name", "x", "--scoring", "platzpunkte", "--home", "H",
          "--guest", "G", *(f"--player=H{n}=P{n}" for n in range(1, 8))),
         "at tables of 3 and 4 players only, not 7"),
        (("spieltag", "end"), "no Spieltag is going on"),
        (("sheet",), "holds no Spieltag: begin one"),
        (("sheet", "--game", "x"), "--game x: not a game's number"),
        (("sheet", "--game", "5"), "no readable finished game 5 here; games kept: none"),
        (("stats", "--spieltag"), "holds no Spieltag"),
        (("sheet", "{tmp}/a", "{tmp}/b", "{tmp}/c"), "3 SOURCEs"),
        (("sheet", "{tmp}/missing.json"), "SOURCE {tmp}/missing.json: "),
    ],
)
def test_bad_input_is_one_line(
    schocken: Run, tmp_path: Path, args: tuple[str, ...], words: str
) -> None:
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    if argv[0] != "sheet" or "--state-dir" not in argv:
        argv += ["--state-dir", str(tmp_path)]
    status, out, err = schocken(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words.replace("{tmp}", str(tmp_path)) in err, err


def test_an_evening_without_games_is_one_line(schocken: Run, tmp_path: Path) -> None:
    begin(schocken, tmp_path)
    status, out, err = schocken("sheet", "--state-dir", str(tmp_path))
    assert status == 2 and "has no finished games yet: play one first" in err
    status, out, _ = schocken("stats", "--spieltag", "--state-dir", str(tmp_path))
    assert status == 0 and out.splitlines()[1] == "Noch kein beendetes Spiel an diesem Spieltag."


def test_two_evenings_of_different_matches_do_not_merge(
    schocken: Run, match: tuple[Path, Path, list[object]], tmp_path: Path
) -> None:
    one, two = match[0], tmp_path / "b"
    two.mkdir()
    begin(schocken, two, "--home", "Andere", "--guest", "3. Kompanie", "--table", "2")
    play_games(two, TABLE_2[:2], 1, deckel=3)
    status, _, err = schocken("sheet", str(one), str(two))
    assert status == 2 and "not one league match: home and guest differ" in err
