"""An evening forgives a stray game: a game at a table size the scheme cannot score (two
players under Platzpunkte) is named and not counted, and `schocken spieltag` takes a game out,
puts it back and changes the scheme, each kept in the evening's history, the journals
untouched. The standings are checked against a count by hand of the games' events, made here
without the evening's code; the Kasse against the Kassenwart's count (`tests/engine/
kassecount.py`): the stray game charges, one taken out does not."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Event, Game
from engine.events import GameOver, HalfOver, PenaltyGiven, RoundOver
from engine.kasse import Kasse, kasse_lines
from engine.scoring import GameResult, load_scheme
from engine.spieltag import NotCounted, Spieltag, Uncounted
from firmware.report.sheet import Partie, kasse_note, make_sheet
from firmware.report.sheet_words import SheetWords
from firmware.store.spieltagfile import SPIELTAG_FILE, SpieltagFiles
from hal.storage import StateDirectory
from tests.durable.evening import play_games
from tests.engine.kassecount import hand_count

Run = Callable[..., tuple[int, str, str]]
FOUR = ("Anna", "Ben", "Cem", "Dora")
#: Platzpunkte (3. Kompanie Werl) as a table of four plays it: points per place in a half.
PLACES = (3, 2, 1, 0)
#: A Stammtisch's prices, each its own so that a wrong count shows.
PRICES = Kasse(half_lost=50, final_lost=120, durchmarsch=230, schock_aus_against=70, stake=300)


def events_of(game: Game) -> list[Event]:
    """The game's events, replayed from its actions."""
    fresh = Game(game.setup)
    return [event for action in game.actions for event in fresh.apply(action)]


def by_hand_verlustpunkte(games: Iterable[Game]) -> dict[str, int]:
    """SV Gonzerath's count: 1 per half lost, 1 more per game lost."""
    points: dict[str, int] = {}
    for game in games:
        over = next(e for e in events_of(game) if isinstance(e, GameOver))
        for player in game.setup.players:
            points.setdefault(player, 0)
        for loser in over.half_losers[:2]:
            points[loser] += 1
        points[over.loser] += 1
    return points


def by_hand_platzpunkte(games: Iterable[Game]) -> dict[str, int]:
    """The 3. Kompanie Werl's count at tables of four: per half the first out 3, the second 2,
    the third 1 (going out together: the better place), the half's loser 0; the final lost and
    a Durchmarsch -1."""
    points: dict[str, int] = {}
    for game in games:
        players = game.setup.players
        for player in players:
            points.setdefault(player, 0)
        half, placed = 1, 0
        out: set[str] = set()
        for event in events_of(game):
            gone = event.out if isinstance(event, RoundOver | PenaltyGiven) else ()
            fresh = [p for p in gone if p not in out] if half <= 2 else []
            for player in fresh:
                points[player] += PLACES[placed]
            out.update(fresh)
            placed += len(fresh)
            if isinstance(event, HalfOver) and event.section <= 2:
                rest = [p for p in players if p not in out and p != event.loser]
                for player in rest:
                    points[player] += PLACES[placed]
                half, placed, out = half + 1, 0, set()
            elif isinstance(event, HalfOver):
                points[event.loser] -= 1  # the final lost
            elif isinstance(event, GameOver) and event.half_losers[0] == event.half_losers[1]:
                points[event.loser] -= 1  # Durchmarsch
    return points


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Game]]:
    """A Platzpunkte evening of ten games, played once for the module: nine at a table of
    four, the tenth of two players who stayed late."""
    root = tmp_path_factory.mktemp("evening")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
        SpieltagFiles(StateDirectory(root)).begin(
            Spieltag("20261201-193000", "7. Spieltag", load_scheme("platzpunkte"), "2026-12-01")
        )
        games = play_games(root, FOUR, 9, seed=5, deckel=3)
        games += play_games(root, FOUR[:2], 1, seed=6, deckel=3)
    return root, games


@pytest.fixture
def evening(played: tuple[Path, list[Game]], tmp_path: Path) -> tuple[str, list[Game]]:
    """A copy of the evening's state directory for one test (as --state-dir), and its games."""
    root = tmp_path / "state"
    shutil.copytree(played[0], root)
    return str(root), played[1]


def scores(out: str) -> dict[str, int]:
    return {line["player"]: line["score"] for line in json.loads(out)["standings"]}


def journals(root: str) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in Path(root).glob("game-*.journal")
    }


def test_a_two_player_game_never_blocks_a_platzpunkte_evening(
    schocken: Run, evening: tuple[str, list[Game]]
) -> None:
    root, games = evening
    status, out, err = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert (status, err) == (0, "")
    assert scores(out) == by_hand_platzpunkte(games[:9])
    assert json.loads(out)["not_counted"] == [
        {"partie": 10, "players": 2, "why": "table_size"}
    ]
    status, out, _ = schocken("stats", "--spieltag", "--state-dir", root)
    assert status == 0
    assert out.splitlines()[:2] == [
        "7. Spieltag (2026-12-01), Platzpunkte, nach 9 Spielen",
        "Partie 10 zählt nicht: 2 Spieler, Platzpunkte zählt zu dritt oder zu viert",
    ]
    status, out, err = schocken("sheet", "--state-dir", root, "--lang", "en")
    assert status == 0
    assert "Game 10 not counted: 2 players, Platzpunkte counts at tables of 3 or 4" in out
    assert "Game 10 not counted" in err  # on stderr too, whatever is printed
    rows = [line.split(";") for line in out.splitlines()]
    assert [row[0] for row in rows if row and row[0].isdigit()].count("10") == 0


def test_taking_out_putting_back_and_another_scheme_recount_exactly(
    schocken: Run, evening: tuple[str, list[Game]]
) -> None:
    root, games = evening
    untouched = journals(root)
    _, nine, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)

    status, out, err = schocken("spieltag", "take-out", "3", "--state-dir", root)
    assert (status, err) == (0, "")
    assert out == "Partie 3 gestrichen: der Stand zählt 8 von 10 Spielen.\n"
    _, taken, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert scores(taken) == by_hand_platzpunkte(games[:2] + games[3:9])
    assert {"partie": 3, "players": 4, "why": "taken_out"} in json.loads(taken)["not_counted"]

    assert schocken("spieltag", "put-back", "3", "--state-dir", root)[0] == 0
    _, back, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert back == nine

    status, out, _ = schocken("spieltag", "scoring", "verlustpunkte", "--state-dir", root,
                              "--lang", "en")
    assert out == ("Scoring changed from Platzpunkte to Verlustpunkte: the standings count 10 "
                   "of 10 games.\n")
    _, all_ten, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert scores(all_ten) == by_hand_verlustpunkte(games)  # the two-player game counts now

    status, out, _ = schocken("spieltag", "history", "--state-dir", root)
    lines = out.splitlines()
    assert [line.split("  ", 1)[1] for line in lines] == [
        "Partie 3 gestrichen", "Partie 3 zählt wieder", "Wertung Platzpunkte → Verlustpunkte",
    ]
    recorded = json.loads((Path(root) / SPIELTAG_FILE).read_text())["history"]
    assert [entry["what"] for entry in recorded] == ["take_out", "put_back", "scheme"]
    assert all(entry["at"][:4].isdigit() and entry["at"][-6] in "+-" for entry in recorded)
    assert journals(root) == untouched


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("put-back", "3"), "Partie 3 is not taken out: it counts already"),
        (("take-out", "drei"), "PARTIE 'drei': must be a whole number 1 to 10000"),
        (("scoring", "nix"), "scoring nix: not a scheme"),
        # Each recounts the evening first: in the slow selection.
        pytest.param(("take-out", "12"), "no Partie 12 in the Spieltag '7. Spieltag': its "
                     "Partien are 1-10", marks=pytest.mark.slow),
        pytest.param(("scoring", "platzpunkte"), "is scored so already (platzpunkte): nothing "
                     "changed", marks=pytest.mark.slow),
    ],
)
def test_a_refused_change_is_one_line_and_writes_nothing(
    schocken: Run, evening: tuple[str, list[Game]], args: tuple[str, ...], message: str
) -> None:
    root, _ = evening
    before = (Path(root) / SPIELTAG_FILE).read_bytes()
    status, out, err = schocken("spieltag", *args, "--state-dir", root)
    assert (status, out) == (2, "")
    assert err.startswith("schocken spieltag: error: ") and message in err
    assert err.count("\n") == 1
    assert (Path(root) / SPIELTAG_FILE).read_bytes() == before


@pytest.mark.slow
def test_an_ended_evening_is_amended_in_its_own_file(
    schocken: Run, evening: tuple[str, list[Game]]
) -> None:
    root, games = evening
    assert schocken("spieltag", "end", "--state-dir", root)[0] == 0
    status, _, err = schocken("spieltag", "take-out", "1", "--spieltag", "20261201-193000",
                              "--state-dir", root)
    assert (status, err) == (0, "")
    ended = json.loads((Path(root) / "spieltag-20261201-193000.json").read_text())
    assert ended["taken_out"] == [1] and ended["ended"] is True
    _, out, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert scores(out) == by_hand_platzpunkte(games[1:9])
    # An export carries the Partie taken out: the sheet made from it counts the same.
    export = str(Path(root) / "abend.json")
    assert schocken("sheet", "--export", "-o", export, "--state-dir", root)[0] == 0
    status, sheet, _ = schocken("sheet", export, "--json")
    assert status == 0 and scores(sheet) == scores(out)
    assert json.loads(sheet)["not_counted"] == [
        {"partie": 1, "players": 4, "why": "taken_out"},
        {"partie": 10, "players": 2, "why": "table_size"},
    ]


def _with_kasse(root: str, taken_out: tuple[int, ...] = ()) -> None:
    """The evening in ``root`` with the Kasse :data:`PRICES` (and ``taken_out``), written as
    the begin and take-out commands write it."""
    files = SpieltagFiles(StateDirectory(Path(root)))
    files.rewrite(replace(files.find(None), kasse=PRICES, taken_out=taken_out))


def _owed(lines: list[dict[str, int]]) -> dict[str, int]:
    return {str(line["player"]): line["cents"] for line in lines}


def test_a_game_taken_out_charges_the_kasse_nothing_and_a_stray_game_charges(
    schocken: Run, evening: tuple[str, list[Game]]
) -> None:
    root, games = evening
    _with_kasse(root, taken_out=(3,))  # as `spieltag take-out 3` leaves it (tested above)
    status, out, _ = schocken("stats", "--spieltag", "--json", "--state-dir", root)
    assert status == 0
    data = json.loads(out)
    # Game 10 (two players) is not in the standings, but it was played and lost: it charges.
    left = games[:2] + games[3:]
    assert hand_count(PRICES, left) != hand_count(PRICES, games)
    assert _owed(data["kasse"]["players"]) == hand_count(PRICES, left)
    assert data["kasse_season_cents"] == hand_count(PRICES, left)


@pytest.mark.slow
def test_the_sheets_kasse_leaves_a_game_out_and_charges_it_put_back(
    schocken: Run, evening: tuple[str, list[Game]]
) -> None:
    root, games = evening
    _with_kasse(root)
    assert schocken("spieltag", "take-out", "3", "--state-dir", root)[0] == 0
    status, sheet, _ = schocken("sheet", "--json", "--state-dir", root)
    assert status == 0
    assert _owed(json.loads(sheet)["kasse"]["players"]) == hand_count(
        PRICES, games[:2] + games[3:]
    )
    # The sheet says why its Kasse and its standings differ: game 10 charges, not counted.
    status, csv_sheet, _ = schocken("sheet", "--state-dir", root, "--lang", "en")
    assert status == 0
    assert "\r\nThe Kasse charges game 10 too: played, but not counted.\r\n" in csv_sheet
    assert schocken("spieltag", "put-back", "3", "--state-dir", root)[0] == 0
    status, sheet, _ = schocken("sheet", "--json", "--state-dir", root)
    assert _owed(json.loads(sheet)["kasse"]["players"]) == hand_count(PRICES, games)


def test_the_kasse_names_the_games_it_charges_that_do_not_count() -> None:
    four = GameResult(FOUR, ("Ben", "Ben"), None, "Ben", ((("Anna",), ("Ben",)),) * 2)
    two = GameResult(FOUR[:2], ("Ben", "Ben"), None, "Ben", ((("Anna",), ("Ben",)),) * 2)
    uncounted = (Uncounted(2, 4, NotCounted.TAKEN_OUT), Uncounted(3, 2, NotCounted.TABLE_SIZE),
                 Uncounted(5, 2, NotCounted.TABLE_SIZE))
    sheet = make_sheet("7. Spieltag", "2026-12-01", load_scheme("platzpunkte"),
                       [Partie(1, 1, four)], kasse=PRICES, uncounted=uncounted,
                       owed=kasse_lines(PRICES, [four, two, two]))
    assert kasse_note(sheet, SheetWords("de")) == (
        "Die Kasse zählt auch die Partien 3, 5: gespielt, aber nicht gewertet."
    )
    one = replace(sheet, uncounted=uncounted[:2])
    assert kasse_note(one, SheetWords("en")) == (
        "The Kasse charges game 3 too: played, but not counted."
    )
    assert kasse_note(replace(sheet, uncounted=uncounted[:1]), SheetWords("de")) == ""
    assert kasse_note(replace(sheet, kasse=None), SheetWords("de")) == ""
