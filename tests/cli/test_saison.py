"""`schocken saison` and the Kasse through the real entry point: a season of three league
Spieltage (two with a Kasse at different prices) recounted by hand from the games' events, its
CSV, PDF and JSON, and every bad input as one line with exit status 2 and nothing written."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from engine.kasse import Kasse
from schockbesteck.cli import main
from tests.durable.evening import play_games
from tests.engine.kassecount import hand_count, verlustpunkte

Run = Callable[..., tuple[int, str, str]]

CHEAP = Kasse(half_lost=50, final_lost=100, durchmarsch=200, schock_aus_against=50, stake=200)
DEAR = Kasse(half_lost=100, final_lost=150, durchmarsch=300, schock_aus_against=100, stake=300)
#: Three Spieltage of one league: (home, guest, seated players, the Kasse's prices or None).
SPIELTAGE = (
    ("Werl", "Kamen", ("H1=Anna", "H2=Ben", "G1=Cem", "G2=Dora"), CHEAP),
    ("Kamen", "Velen", ("H1=Cem", "H2=Dora", "G1=Emil", "G2=Frieda"), None),
    ("Velen", "Werl", ("H1=Emil", "H2=Frieda", "G1=Anna", "G2=Götz"), DEAR),
)
GAMES = 3


def _quiet(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


class _WallClock:
    """The wall clock `schocken spieltag begin` reads, at ``moment`` (each Spieltag's ID is
    the second it began: three begun in one second would be one)."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment


def scoring_file(folder: Path, kasse: Kasse | None, preset: str = "verlustpunkte") -> Path:
    path = folder / f"{preset}-{id(kasse)}.toml"
    text = f'[scoring]\npreset = "{preset}"\n'
    if kasse is not None:
        text += "\n[kasse]\n" + "".join(
            f"{key} = {getattr(kasse, key)}\n" for key in Kasse.__dataclass_fields__
        )
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[Game]]]:
    """Three Spieltage ended in one state directory, each of three random games."""
    folder = tmp_path_factory.mktemp("saison")
    root = folder / "state"
    root.mkdir()
    played = []
    for number, (home, guest, seats, kasse) in enumerate(SPIELTAGE, 1):
        players = [arg for seat in seats for arg in ("--player", seat)]
        with pytest.MonkeyPatch.context() as patch:
            began = datetime(2026, number, 9, 19, 30).astimezone()
            patch.setattr("firmware.cli.spieltag.datetime", _WallClock(began))
            status, _, err = _quiet(
                "spieltag", "begin", "--name", f"{number}. Spieltag", "--date",
                f"2026-0{number}-09", "--scoring", str(scoring_file(folder, kasse)), "--home",
                home, "--guest", guest, *players, "--state-dir", str(root),
            )
        assert status == 0, err
        names = tuple(seat.split("=")[1] for seat in seats)
        played.append(play_games(root, names, GAMES, seed=number, deckel=3))
        assert _quiet("spieltag", "end", "--state-dir", str(root))[0] == 0
    return root, played


@pytest.fixture(scope="module")
def season_json(season: tuple[Path, list[list[Game]]]) -> dict[str, Any]:
    """``schocken saison --json`` of the season, once for the module."""
    written = season[0].parent / "saison.json"
    status, _, err = _quiet("saison", "--json", "-o", str(written), str(season[0]))
    assert status == 0, err
    data: dict[str, Any] = json.loads(written.read_text(encoding="utf-8"))
    return data


def test_the_season_is_what_a_hand_count_of_its_games_gives(
    season: tuple[Path, list[list[Game]]], season_json: dict[str, Any]
) -> None:
    _, played = season
    data = season_json
    points: dict[str, int] = {}
    attended: dict[str, int] = {}
    for games in played:
        for player, value in verlustpunkte(games).items():
            points[player] = points.get(player, 0) + value
            attended[player] = attended.get(player, 0) + 1
    table = {line["player"]: line for line in data["players"]}
    assert {p: line["score"] for p, line in table.items()} == points
    assert {p: line["spieltage"] for p, line in table.items()} == attended
    assert attended["Anna"] == 2 and attended["Götz"] == 1  # attendance differs
    # Places: fewer Verlustpunkte first.
    assert [line["score"] for line in data["players"]] == sorted(points.values())
    # Teams: a side's points are its two players'; the side with fewer wins the match.
    teams: dict[str, list[int]] = {}
    for (home, guest, seats, _), games in zip(SPIELTAGE, played, strict=True):
        match = verlustpunkte(games)
        sides = {home: seats[:2], guest: seats[2:]}
        score = {team: sum(match[seat.split("=")[1]] for seat in sides[team]) for team in sides}
        for team, other in ((home, guest), (guest, home)):
            line = teams.setdefault(team, [0, 0, 0])
            line[0] += score[team]
            line[1] += score[other]
            line[2] += int(score[team] < score[other])
    assert {t["team"]: [t["score"], t["against"], t["won"]] for t in data["teams"]} == teams
    assert {t["team"]: t["matches"] for t in data["teams"]} == {"Werl": 2, "Kamen": 2, "Velen": 2}
    # The Kasse of the two Spieltage that keep one, each at its own prices.
    owed = hand_count(CHEAP, played[0])
    for player, cents in hand_count(DEAR, played[2]).items():
        owed[player] = owed.get(player, 0) + cents
    assert {line["player"]: line["cents"] for line in data["kasse"]} == owed
    assert [s["date"] for s in data["spieltage"]] == ["2026-01-09", "2026-02-09", "2026-03-09"]


def test_an_evenings_kasse_in_stats_and_on_its_sheet(
    schocken: Run, season: tuple[Path, list[list[Game]]], season_json: dict[str, Any]
) -> None:
    root, played = season
    first = json.loads(schocken("sheet", "--json", str(root))[1])  # the last one ended
    assert first["kasse"]["prices"]["stake"] == DEAR.stake
    assert {line["player"]: line["cents"] for line in first["kasse"]["players"]} == hand_count(
        DEAR, played[2]
    )
    ids = [spieltag["id"] for spieltag in season_json["spieltage"]]
    status, out, err = schocken("stats", "--spieltag", ids[0], "--csv", "--state-dir", str(root))
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {row["player"]: int(row["kasse_cents"]) for row in rows} == hand_count(
        CHEAP, played[0]
    )
    season_owed = {line["player"]: line["cents"] for line in season_json["kasse"]}
    assert {row["player"]: int(row["kasse_season_cents"]) for row in rows} == {
        row["player"]: season_owed[row["player"]] for row in rows
    }
    status, out, _ = schocken("stats", "--spieltag", ids[0], "--lang", "en", "--state-dir",
                              str(root))  # fmt: skip
    anna = next(line for line in out.splitlines() if " Anna " in line)
    cents = hand_count(CHEAP, played[0])["Anna"]
    assert f"€{cents // 100}.{cents % 100:02d}" in anna


def test_the_season_csv_opens_as_columns_in_both_languages(
    schocken: Run, season: tuple[Path, list[list[Game]]]
) -> None:
    root, _ = season
    for lang, words in (("de", ("Saison", "Mannschaften", "Spieltage", " €")),
                        ("en", ("Season (Saison)", "Teams", "Lives left", "€"))):  # fmt: skip
        status, out, err = schocken("saison", "--lang", lang, str(root))
        assert status == 0, err
        assert out.startswith("\ufeff")
        rows = list(csv.reader(io.StringIO(out.lstrip("\ufeff")), delimiter=";"))
        heading = next(row for row in rows if row and row[0] in ("Platz", "Place"))
        assert len(heading) == 10
        if lang == "en":
            words = words[:2] + words[3:]  # points, not lives
        assert all(word in out for word in words), lang


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils (pdftotext)")
def test_the_season_pdf_holds_every_player_team_and_amount(
    schocken: Run, season: tuple[Path, list[list[Game]]], season_json: dict[str, Any],
    tmp_path: Path,
) -> None:
    root, _ = season
    pdf = tmp_path / "saison.pdf"
    status, _, err = schocken("saison", "--pdf", "-o", str(pdf), str(root))
    assert status == 0, err
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    data = season_json
    for line in data["players"]:
        assert line["player"] in text
    for team in data["teams"]:
        assert team["team"] in text
    for line in data["kasse"]:
        cents = line["cents"]
        assert f"{cents // 100},{cents % 100:02d} €" in text


def test_spieltage_under_different_schemes_are_refused_in_one_line(
    schocken: Run, season: tuple[Path, list[list[Game]]], tmp_path: Path
) -> None:
    root, _ = season
    other = tmp_path / "other"
    other.mkdir()
    status, _, err = schocken("spieltag", "begin", "--name", "Siege", "--scoring", "siegpunkte",
                              "--state-dir", str(other))  # fmt: skip
    assert status == 0, err
    play_games(other, ("Anna", "Ben", "Cem"), 1, seed=4, deckel=3)
    out_file = tmp_path / "saison.csv"
    status, out, err = schocken("saison", "-o", str(out_file), str(root), str(other))
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert "under 'siegpunkte'" in err and "one scheme only" in err
    assert not out_file.exists()


def test_a_spieltag_given_twice_is_refused_in_one_line(
    schocken: Run, season: tuple[Path, list[list[Game]]], season_json: dict[str, Any],
    tmp_path: Path,
) -> None:
    root, _ = season
    export = tmp_path / "erster.json"
    ids = [spieltag["id"] for spieltag in season_json["spieltage"]]
    status, _, err = schocken(
        "sheet", "--export", "--spieltag", ids[0], "-o", str(export), str(root)
    )
    assert status == 0, err
    status, out, err = schocken("saison", str(root), str(export))
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "given twice" in err


@pytest.mark.parametrize(
    ("kasse", "said"),
    [
        ("stake = -200", "[kasse] stake = -200: must be a whole number of cents from 0"),
        ("half_lost = 0.5", "[kasse] half_lost = 0.5: must be a whole number of cents"),
        ('final_lost = "1,50"', '[kasse] final_lost = "1,50": must be a whole number'),
        ("strafe = 50", "unknown [kasse] key 'strafe'; keys: half_lost, final_lost"),
    ],
)
def test_a_bad_kasse_is_one_line_and_begins_nothing(
    schocken: Run, tmp_path: Path, kasse: str, said: str
) -> None:
    scoring = tmp_path / "abend.toml"
    scoring.write_text(f'[scoring]\npreset = "verlustpunkte"\n\n[kasse]\n{kasse}\n')
    root = tmp_path / "state"
    root.mkdir()
    status, out, err = schocken("spieltag", "begin", "--name", "1", "--scoring", str(scoring),
                                "--state-dir", str(root))  # fmt: skip
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and said in err, err
    assert not (root / "spieltag.json").exists()
