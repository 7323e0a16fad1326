"""A league match's sheet through the real entry point: the merge refuses what is not one match
(a game twice, another scheme, another Spieltag, other players on the seats) and names a Partie
taken out of an export; the league's header, the team's result, the scharf Partien, substitutes
and unlisted players in the JSON, the CSV and the PDF, recounted from the games as played."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import random
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from engine import Game, GameSetup, load_preset
from engine.scoring import game_result, load_scheme, scheme_to_mapping, standings
from firmware.store.gamestore import GameStore
from firmware.store.journal import JournalHeader
from firmware.store.spieltagfile import SPIELTAG_FILE, open_spieltag_id
from hal.storage import StateDirectory
from schockbesteck.cli import main
from tests.durable.evening import play_games
from tests.engine.randomplay import play_step

Run = Callable[..., tuple[int, str, str]]

TABLE_1 = ("Anna", "Ben", "Cem", "Dora")
TABLE_2 = ("Emil", "Frieda", "Götz", "Hanne")
SEATS = {"Anna": "H1", "Ben": "H2", "Cem": "G1", "Dora": "G2",
         "Emil": "H3", "Frieda": "H4", "Götz": "G3", "Hanne": "G4"}  # fmt: skip
LEAGUE = (
    "--home", "Schockfreunde Werl", "--guest", "3. Kompanie", "--league", "Kreisliga Staffel B",
    "--match-number", "117", "--home-captain", "Anna", "--guest-captain", "Cem",
    "--time-box", "70", "--substitute", "G4=Jana:2399",
    *(f"--player={seat}={name}:{1200 + n}@{1 if n <= 4 else 2}"
      for n, (name, seat) in enumerate(SEATS.items(), 1)),
)  # fmt: skip


def _quiet_schocken(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def begin(schocken: Run, root: Path, *more: str) -> None:
    status, _, err = schocken(
        "spieltag", "begin", "--name", "7. Spieltag", "--venue", "Zum Anker", "--date",
        "2026-12-01", "--state-dir", str(root), *more,
    )
    assert (status, err) == (0, ""), err


def scharf_game(root: Path, players: tuple[str, ...], seed: int, *, after: int) -> Game:
    """A random game of 3 Deckel whose time box runs out after ``after`` actions."""
    store = GameStore(StateDirectory(root))
    store.open()
    setup = GameSetup(players, replace(load_preset("standard"), deckel=3))
    game = Game(setup)
    store.begin(JournalHeader(setup, spieltag=open_spieltag_id(store.storage)))
    rng = random.Random(seed)
    for step in range(20_000):
        if game.is_over:
            return game
        store.record(game.go_scharf(70) if step == after else play_step(game, rng))
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Game]]:
    """A league match with its header, a substitute on G4 who did not play, and a time box of
    70 minutes: five Partien at each table, table 1's third going scharf after 40 actions;
    played once for this module (and each table exported), and read only."""
    folder = tmp_path_factory.mktemp("match")
    one, two = folder / "tisch1", folder / "tisch2"
    one.mkdir()
    two.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
        patch.setenv("LANG", "C.UTF-8")
        patch.delenv("LC_ALL", raising=False)
        patch.delenv("LC_MESSAGES", raising=False)
        begin(_quiet_schocken, one, *LEAGUE, "--scoring", "platzpunkte")
        begin(_quiet_schocken, two, *LEAGUE, "--scoring", "platzpunkte", "--table", "2")
    games = [
        *play_games(one, TABLE_1, 2, seed=1, deckel=3),
        scharf_game(one, TABLE_1, 5, after=40),
        *play_games(one, TABLE_1, 2, seed=3, deckel=3),
        *play_games(two, TABLE_2, 5, seed=2, deckel=3),
    ]
    for root in (one, two):  # each table's export, beside its folder
        status, _, err = _quiet_schocken("sheet", "--export", "-o", f"{root}.json", str(root))
        assert (status, err) == (0, ""), err
    return one, two, games


def exported(played: tuple[Path, Path, list[Game]], table: int) -> dict[str, Any]:
    """Table ``table``'s export of the played match, as data to change."""
    data: dict[str, Any] = json.loads(Path(f"{played[table - 1]}.json").read_text("utf-8"))
    return data


@pytest.fixture
def match(played: tuple[Path, Path, list[Game]], tmp_path: Path) -> tuple[Path, Path, list[Game]]:
    """The match's two state directories, copied (their times kept) for this test alone."""
    one, two, games = played
    copies = tmp_path / one.name, tmp_path / two.name
    for source, copy in zip((one, two), copies, strict=True):
        shutil.copytree(source, copy)
    return *copies, games


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def refused(schocken: Run, *args: str) -> str:
    """``schocken sheet ARGS``, refused: exit 2, one line, nothing on stdout; that line."""
    status, out, err = schocken("sheet", *args)
    assert (status, out, err.count("\n")) == (2, "", 1), err
    return err


# -- the four bad exports ---------------------------------------------------------------------


def test_a_game_twice_in_one_tables_export_is_refused(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path
) -> None:
    data = exported(played, 2)
    data["games"].append({**data["games"][2], "partie": 6})
    data["partien"] = 6
    bad = write(tmp_path / "t2-doppelt.json", data)
    output = tmp_path / "bogen.csv"
    err = refused(schocken, "-o", str(output), f"{played[0]}.json", str(bad))
    assert f"{bad}: Partie 6 is Partie 3 again (the same players and every throw)" in err
    assert not output.exists()


@pytest.mark.slow  # the same check as a game twice in one export
def test_a_journal_kept_twice_in_a_state_directory_is_refused(
    schocken: Run, match: tuple[Path, Path, list[Game]]
) -> None:
    one = match[0]
    shutil.copy2(one / "game-000002.journal", one / "game-000006.journal")
    err = refused(schocken, "--state-dir", str(one))
    assert f"{one}: Partie 6 is Partie 2 again" in err and "kept twice" in err


@pytest.mark.slow  # the same check as a game twice in one export, across the tables
def test_one_game_in_both_tables_is_refused(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path
) -> None:
    """A game of table 1 copied into table 2's export: it cannot count at both tables."""
    data = exported(played, 2)
    data["games"].append({**exported(played, 1)["games"][0], "partie": 6, "table": 2})
    data["partien"] = 6
    err = refused(schocken, f"{played[0]}.json", str(write(tmp_path / "t2.json", data)))
    assert "Partie 11 is Partie 1 again" in err and "cannot count at both tables" in err


@pytest.mark.parametrize(
    "taken", [1, pytest.param(4, marks=pytest.mark.slow)], ids=["inside", "the-last"]
)
def test_a_game_taken_out_of_an_export_is_named_on_the_sheet(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path, taken: int
) -> None:
    one, games = Path(f"{played[0]}.json"), played[2]
    data = exported(played, 2)
    del data["games"][taken]
    status, out, err = schocken("sheet", "--json", str(one), str(write(tmp_path / "t2.json", data)))
    assert status == 0
    partie = 5 + taken + 1
    assert err == f"schocken sheet: Partie {partie} nicht gewertet: fehlt in t2.json\n"
    sheet = json.loads(out)
    assert [p["partie"] for p in sheet["partien"]] == [n for n in range(1, 11) if n != partie]
    assert sheet["lost"] == [
        {"partie": partie, "journal": "t2.json", "loss": "absent", "detail": ""}
    ]
    counted = [g for n, g in enumerate(games, 1) if n != partie]
    expected = standings(load_scheme("platzpunkte"),
                         [game_result(g.setup, g.actions) for g in counted])  # fmt: skip
    assert [(s["player"], s["score"]) for s in sheet["standings"]] == [
        (s.player, s.score) for s in expected
    ]
    if taken != 4:
        return
    csv_out = schocken("sheet", str(one), str(tmp_path / "t2.json"))[1]
    assert f"Partie {partie} nicht gewertet: fehlt in t2.json" in csv_out
    # Exported again, the merged match keeps the Partie named, and reads back as it was.
    status, _, _ = schocken("sheet", "--export", "-o", str(tmp_path / "match.json"), str(one),
                            str(tmp_path / "t2.json"))  # fmt: skip
    again = json.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    assert (status, again["partien"], len(again["games"])) == (0, 10, 9)
    assert schocken("sheet", "--json", str(tmp_path / "match.json"))[1] == out


def test_a_table_begun_under_another_scheme_is_refused(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path
) -> None:
    one = f"{played[0]}.json"
    data = exported(played, 2)
    data["spieltag"]["scoring"] = scheme_to_mapping(load_scheme("verlustpunkte"))
    err = refused(schocken, str(one), str(write(tmp_path / "t2.json", data)))
    assert "the scoring differs (platzpunkte at table 1, verlustpunkte at table 2)" in err
    data["spieltag"]["scoring"] = {**scheme_to_mapping(load_scheme("platzpunkte")),
                                   "final_lost": -2}  # fmt: skip
    err = refused(schocken, str(one), str(write(tmp_path / "t2.json", data)))
    assert "the scoring differs (platzpunkte with other parameters at each table)" in err


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("date", "2026-12-08", "not one evening: the dates differ (2026-12-01 and 2026-12-08)"),
        pytest.param("name", "8. Spieltag", "the Spieltag's name differs ('7. Spieltag' at "
                     "table 1", marks=pytest.mark.slow),
        pytest.param("match_number", "118", "the match number differs ('117' at table 1, '118'",
                     marks=pytest.mark.slow),
        ("time_box_minutes", 60, "the time box differs (70 and 60 minutes)"),
    ],
)
def test_a_table_of_another_spieltag_is_refused(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path,
    field: str, value: object, words: str,
) -> None:  # fmt: skip
    data = exported(played, 2)
    data["spieltag"][field] = value
    err = refused(schocken, f"{played[0]}.json", str(write(tmp_path / "t2.json", data)))
    assert words in err


def test_a_table_of_other_players_on_the_same_seats_is_refused(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path
) -> None:
    """Table 2 of another Spieltag of the same sides and date, its own players on H3-G4."""
    one, other = f"{played[0]}.json", tmp_path / "andere"
    other.mkdir()
    players = ("Ida", "Jan", "Kai", "Lea")
    begin(schocken, other, *LEAGUE[:-8], "--scoring", "platzpunkte", "--table", "2",
          *(f"--player={seat}={name}@2" for seat, name in zip(("H3", "H4", "G3", "G4"), players,
                                                               strict=True)))  # fmt: skip
    play_games(other, players, 1, seed=4, deckel=3)
    err = refused(schocken, one, str(other))
    assert "not one league match: H3 is Emil at table 1 but Ida at table 2" in err


# -- the league's sheet ---------------------------------------------------------------------


def _clock(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime).astimezone().strftime("%H:%M")


def test_the_sheet_has_the_leagues_header_and_the_teams_result(
    schocken: Run, played: tuple[Path, Path, list[Game]]
) -> None:
    one, two, games = played
    status, out, err = schocken("sheet", "--json", str(one), str(two))
    assert (status, err) == (0, "")
    sheet = json.loads(out)
    began = json.loads((one / SPIELTAG_FILE).read_text())["began_at"]
    last = max((*one.glob("game-*.journal"), *two.glob("game-*.journal")),
               key=lambda path: path.stat().st_mtime)  # fmt: skip
    lines = standings(load_scheme("platzpunkte"), [game_result(g.setup, g.actions) for g in games])
    home = sum(line.score for line in lines if SEATS[line.player][0] == "H")
    guest = sum(line.score for line in lines if SEATS[line.player][0] == "G")
    assert sheet["match"] == {
        "league": "Kreisliga Staffel B", "match_number": "117", "start": began[11:16],
        "end": _clock(last), "time_box": 70, "home_captain": "Anna",
        "guest_captain": "Cem", "remarks": "",
        "team": {"home_total": home, "guest_total": guest,
                 "winner": None if home == guest else "home" if home > guest else "guest",
                 "home_points": None, "guest_points": None},
    }  # fmt: skip
    scharf = [p["scharf"] for p in sheet["partien"]]
    assert scharf[2] in (1, 2, 3) and scharf[:2] + scharf[3:] == [None] * 9
    rows = list(csv.reader(io.StringIO(schocken("sheet", str(one), str(two))[1][1:]),
                           delimiter=";"))  # fmt: skip
    assert ["Liga/Staffel", "Kreisliga Staffel B"] in rows and ["Spielnummer", "117"] in rows
    assert ["Beginn", began[11:16]] in rows and ["Ende", _clock(last)] in rows
    assert ["Zeitlimit", "70 Minuten"] in rows
    assert ["Ergebnis (H : G)", str(home), str(guest)] in rows
    assert ["Bemerkungen / Protest", ""] in rows
    assert rows[-2:] == [["Unterschrift Heim", "", "Unterschrift Gast"],
                         ["Kapitän Heim: Anna", "", "Kapitän Gast: Cem"]]  # fmt: skip
    heading = next(row for row in rows if row[:1] == ["Partie"] and len(row) == 7)
    assert heading[-1] == "scharf ab"
    partien = rows[rows.index(heading) + 1:rows.index(heading) + 11]
    went = {1: "1. Hälfte", 2: "2. Hälfte", 3: "Finale"}[scharf[2]]
    assert [row[-1] for row in partien] == ["", "", went, *[""] * 7]


def test_mannschaftspunkte_by_the_scoring_files_rule(schocken: Run, tmp_path: Path) -> None:
    """An evening of one table scored by a league's file: 2 points for a won match, 1 drawn, 0
    lost; the side with fewer Verlustpunkte wins."""
    rule = tmp_path / "liga.toml"
    rule.write_text('[scoring]\npreset = "verlustpunkte"\n'
                    "team_points = { won = 2, drawn = 1, lost = 0 }\n")  # fmt: skip
    begin(schocken, tmp_path, "--scoring", str(rule), "--home", "Heim", "--guest", "Gast",
          "--player", "H1=Anna", "--player", "G1=Ben", "--player", "H2=Cem",
          "--player", "G2=Dora")  # fmt: skip
    games = play_games(tmp_path, TABLE_1, 2, seed=7, deckel=3)
    team = json.loads(schocken("sheet", "--json", "--state-dir", str(tmp_path))[1])["match"]["team"]
    results = [game_result(g.setup, g.actions) for g in games]
    lines = standings(load_scheme("verlustpunkte"), results)
    home = sum(line.score for line in lines if line.player in ("Anna", "Cem"))
    guest = sum(line.score for line in lines if line.player in ("Ben", "Dora"))
    points = (1, 1) if home == guest else (2, 0) if home < guest else (0, 2)
    assert (team["home_total"], team["guest_total"]) == (home, guest)
    assert (team["home_points"], team["guest_points"]) == points
    out = schocken("sheet", "--lang", "en", "--state-dir", str(tmp_path))[1]
    assert f"Team points;{points[0]};{points[1]}" in out


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("team_points = { won = 2 }", "team_points = {'won': 2}: must give the Mannschaftspunkte"),
        ("team_points = { won = 2, drawn = 1, lost = -1 }",
         "team_points.lost = -1: must be a whole number from 0 to 100"),
    ],
)
def test_a_bad_team_points_rule_is_one_line(
    schocken: Run, tmp_path: Path, rule: str, words: str
) -> None:
    path = tmp_path / "liga.toml"
    path.write_text(f"[scoring]\n{rule}\n")
    status, out, err = schocken("spieltag", "begin", "--name", "x", "--scoring", str(path),
                                "--state-dir", str(tmp_path))  # fmt: skip
    assert (status, out, err.count("\n")) == (2, "", 1) and f"{path}: {words}" in err
    assert not (tmp_path / SPIELTAG_FILE).exists()


# -- substitutes and players nobody listed ----------------------------------------------------


def test_a_substitute_is_flagged_and_a_player_nobody_listed_is_named_in_one_line(
    schocken: Run, match: tuple[Path, Path, list[Game]]
) -> None:
    one, two, _ = match
    status, out, err = schocken("spieltag", "substitute", "H2=Ida:1299", "--state-dir", str(one))
    assert (status, err) == (0, "") and out == "Ida ist Auswechselspieler auf H2 (7. Spieltag).\n"
    play_games(one, ("Anna", "Ida", "Xaver", "Dora"), 1, seed=8, deckel=3)
    status, out, err = schocken("sheet", "--json", str(one), str(two))
    assert status == 0
    assert err == ("schocken sheet: Xaver spielte Partie 6, steht aber auf keinem Sitz der "
                   "Liste: als Auswechselspieler melden (schocken spieltag substitute "
                   "SITZ=Xaver)\n")  # fmt: skip
    sheet = json.loads(out)
    flags = {p["name"]: (p["seat"], p["number"], p["table"], p["substitute"], p["unlisted"])
             for p in sheet["players"]}  # fmt: skip
    assert flags["Ida"] == ("H2", "1299", 1, True, False)
    assert flags["Jana"] == ("G4", "2399", 2, True, False)
    assert flags["Xaver"] == ("", "", 1, False, True)
    assert flags["Ben"] == ("H2", "1202", 1, False, False)
    assert [p["name"] for p in sheet["players"][:3]] == ["Anna", "Ben", "Ida"]
    lines = {line["player"]: line["score"] for line in sheet["standings"]}
    home = sum(lines[name] for name in lines if SEATS.get(name, "G")[0] == "H" or name == "Ida")
    assert sheet["match"]["team"]["home_total"] == home  # Ida counts for home, Xaver for none
    english = schocken("sheet", "--lang", "en", str(one), str(two))[1]
    rows = list(csv.reader(io.StringIO(english[1:]), delimiter=";"))
    assert ["H2", "Ida", "1299", "1", "Substitute (Auswechselspieler)"] in rows
    assert ["", "Xaver", "", "1", "not listed"] in rows
    assert ["H2", "Ben", "1202", "1", ""] in rows
    assert any("H2* Ida" in row for row in rows)  # the card's column, and where Ida lost


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("H9=Ida",), "substitute on H9: no player is listed on H9"),
        (("H1=Ben",), "substitute Ben: is listed on H2 already"),
        (("H1=Ida", "H1=Jan"), "substitute on H1: Ida came in on H1 already"),
        (("H1",), "substitute H1: expected SEAT=NAME[:NUMBER][@TABLE]"),
    ],
)
def test_a_substitute_that_cannot_be_is_one_line_and_changes_nothing(
    schocken: Run, tmp_path: Path, args: tuple[str, ...], words: str
) -> None:
    one = tmp_path
    begin(schocken, one, *LEAGUE)
    for value in args[:-1]:
        assert schocken("spieltag", "substitute", value, "--state-dir", str(one))[0] == 0
    kept = (one / SPIELTAG_FILE).read_bytes()
    status, out, err = schocken("spieltag", "substitute", args[-1], "--state-dir", str(one))
    assert (status, out, err.count("\n")) == (2, "", 1) and words in err, err
    assert (one / SPIELTAG_FILE).read_bytes() == kept


def test_no_substitute_without_a_league_match(schocken: Run, tmp_path: Path) -> None:
    status, _, err = schocken("spieltag", "begin", "--name", "x", "--substitute", "H1=Ida",
                              "--state-dir", str(tmp_path))  # fmt: skip
    assert status == 2 and "--substitute: a league match's seats and tables need its sides" in err
    begin(schocken, tmp_path)
    status, _, err = schocken("spieltag", "substitute", "H1=Ida", "--state-dir", str(tmp_path))
    assert status == 2 and "only a league match has seats" in err


def test_a_substitute_after_the_evening_ended_goes_into_its_file(
    schocken: Run, tmp_path: Path
) -> None:
    """The secretary finds the substitute when printing: the ended evening takes them too."""
    one = tmp_path
    begin(schocken, one, *LEAGUE)
    assert schocken("spieltag", "end", "--state-dir", str(one))[0] == 0
    assert schocken("spieltag", "substitute", "G2=Ida@2", "--state-dir", str(one))[0] == 0
    (ended,) = one.glob("spieltag-*.json")
    players = json.loads(ended.read_text())["players"]
    assert {"name": "Ida", "seat": "G2", "number": "", "table": 2, "substitute": True} in players


# -- the PDF ----------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils (pdftotext)")
def test_the_pdf_holds_the_leagues_header_the_result_and_the_captains(
    schocken: Run, played: tuple[Path, Path, list[Game]], tmp_path: Path
) -> None:
    one, two, _ = played
    pdf = tmp_path / "bogen.pdf"
    status, _, err = schocken("sheet", "--pdf", "-o", str(pdf), str(one), str(two))
    assert (status, err) == (0, ""), err
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "Pages:           1" in info.stdout
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    text = " ".join(text.split())  # the layout's columns as single spaces
    team = json.loads(schocken("sheet", "--json", str(one), str(two))[1])["match"]["team"]
    words = ["Liga/Staffel: Kreisliga Staffel B", "Spielnummer: 117", "Zeitlimit: 70 Minuten",
             f"Ergebnis (H : G): {team['home_total']} : {team['guest_total']}",
             "Kapitän Heim: Anna", "Kapitän Gast: Cem", "Bemerkungen / Protest", "scharf ab",
             "Auswechselspieler", "Unterschrift Heim"]  # fmt: skip
    assert [word for word in words if word not in text] == []
