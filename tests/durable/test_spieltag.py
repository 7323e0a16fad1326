"""The Spieltag in a real state directory: its games tagged by their journals, the standings
recounted from them, a pulled plug mid-evening, damaged evening files refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Game, GameSetup, load_preset
from engine.scoring import game_result, load_scheme, standings
from engine.spieltag import Spieltag, SpieltagError
from firmware.store.evening import evening_from_export, evening_to_export, load_evening
from firmware.store.gamestore import CURRENT, GameStore
from firmware.store.journal import JournalHeader, read_journal
from firmware.store.spieltagfile import (
    SPIELTAG_FILE,
    SpieltagFiles,
    ended_name,
    open_evening,
    open_spieltag_id,
)
from hal.storage import StateDirectory
from tests.durable.evening import play_games
from tests.durable.killharness import harness
from tests.engine.randomplay import play_random_game

FOUR = ("Anna", "Ben", "Cem", "Dora")
#: Two players for the games whose table size no check depends on (their games are shorter).
#: Every game here has 3 Deckel: an evening counts a short game as it counts a long one.
TWO = FOUR[:2]


def evening(name: str = "7. Spieltag", scheme: str = "verlustpunkte") -> Spieltag:
    return Spieltag(f"20261201-{len(name):06d}", name, load_scheme(scheme), "2026-12-01")


def test_games_belong_to_the_evening_until_it_is_ended(tmp_path: Path) -> None:
    play_games(tmp_path, TWO, 1, seed=1, deckel=3)  # before the evening: not its
    files = SpieltagFiles(StateDirectory(tmp_path))
    spieltag = files.begin(evening())
    played = play_games(tmp_path, TWO, 2, seed=2, deckel=3)
    files.end()
    play_games(tmp_path, TWO, 1, seed=3, deckel=3)  # after it: not its either
    loaded = load_evening(StateDirectory(tmp_path), spieltag.id)
    assert [g.actions for g in loaded.games] == [tuple(g.actions) for g in played]
    assert [g.partie for g in loaded.games] == [1, 2]
    assert (tmp_path / ended_name(spieltag.id)).is_file()
    assert not (tmp_path / SPIELTAG_FILE).exists()
    assert loaded.spieltag.ended


@pytest.mark.parametrize("games", [3, pytest.param(10, marks=pytest.mark.slow)])
def test_the_standings_are_those_of_the_games_recounted(tmp_path: Path, games: int) -> None:
    files = SpieltagFiles(StateDirectory(tmp_path))
    files.begin(evening(scheme="siegpunkte"))
    played = play_games(tmp_path, FOUR, games, deckel=3)
    loaded = load_evening(StateDirectory(tmp_path))
    expected = standings(
        load_scheme("siegpunkte"), [game_result(g.setup, g.actions) for g in played]
    )
    assert loaded.standings() == expected


def test_a_pulled_plug_mid_evening_loses_no_game_and_no_point(tmp_path: Path) -> None:
    """The plug is pulled in the middle of game 3 (half a record torn off the journal): the
    device resumes it from its journal, it still belongs to the evening, and the standings
    are those of all games, each counted once."""
    rules = replace(load_preset("standard"), deckel=3)
    files = SpieltagFiles(StateDirectory(tmp_path))
    spieltag = files.begin(evening(scheme="platzpunkte"))
    played = play_games(tmp_path, FOUR, 1, seed=5, deckel=3)
    model = play_random_game(4, rules, 99)
    setup = GameSetup(model.players, rules)
    store = GameStore(StateDirectory(tmp_path))
    store.begin(JournalHeader(setup, spieltag=spieltag.id))
    game = Game(setup)
    half = len(model.actions) // 2
    for action in model.actions[:half]:
        store.record(game.apply(action))
    with (tmp_path / CURRENT).open("ab") as journal:
        journal.write(b"57 0badc0de {\"n\": ")  # an append the power cut tore
    # The device starts again.
    store = GameStore(StateDirectory(tmp_path))
    recovery = store.open()
    assert recovery is not None and len(recovery.actions) == half
    assert recovery.header.spieltag == spieltag.id
    assert store.resume(recovery)
    for action in model.actions[half:]:
        store.record(recovery.game.apply(action))
    loaded = load_evening(StateDirectory(tmp_path))
    assert len(loaded.games) == 2
    results = [game_result(g.setup, g.actions) for g in [*played, model]]
    assert loaded.standings() == standings(load_scheme("platzpunkte"), results)


def test_a_finished_game_left_in_the_current_journal_counts_once(tmp_path: Path) -> None:
    """A power cut between the game's last record and its archiving."""
    SpieltagFiles(StateDirectory(tmp_path)).begin(evening())
    play_games(tmp_path, TWO, 1, seed=7, deckel=3)
    archived = sorted(tmp_path.glob("game-*.journal"))[-1]
    archived.rename(tmp_path / CURRENT)
    assert len(load_evening(StateDirectory(tmp_path)).games) == 1  # read before the tidy-up
    GameStore(StateDirectory(tmp_path)).open()
    assert len(load_evening(StateDirectory(tmp_path)).games) == 1


def test_an_interrupted_end_is_finished_by_the_next_begin(tmp_path: Path) -> None:
    storage = StateDirectory(tmp_path)
    files = SpieltagFiles(storage)
    first = files.begin(evening("erster"))
    text = (tmp_path / SPIELTAG_FILE).read_text().replace('"ended": false', '"ended": true')
    (tmp_path / SPIELTAG_FILE).write_text(text)  # written, not yet renamed
    assert files.current() is None
    files.begin(evening("zweiter Abend"))
    assert files.ids() == [first.id]


def test_a_second_evening_while_one_is_open_is_refused(tmp_path: Path) -> None:
    files = SpieltagFiles(StateDirectory(tmp_path))
    files.begin(evening())
    with pytest.raises(SpieltagError, match="still going on: end it first"):
        files.begin(evening("noch einer"))


def test_ending_without_an_evening_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SpieltagError, match="no Spieltag is going on"):
        SpieltagFiles(StateDirectory(tmp_path)).end()


@pytest.mark.parametrize(
    ("content", "words", "tag"),
    [
        ("{", "is damaged (cut off: the JSON ends too soon, after line 1); it is left", None),
        ("", "is damaged (empty: no JSON in it)", None),
        ('{"format": 1 "id"}', "is damaged (not valid JSON at line 1, column 14)", None),
        ('{"format": 9}', "is damaged (format 9 is not 1)", None),
        ('{"format": 1, "id": "../x"}', "id = '../x'", None),
        ('{"format": 1, "id": "a", "scoring": {"preset": "liga"}}', "unknown scoring preset",
         "a"),
        ('{"format": 1, "id": "a", "scoring": {}, "date": "heute", "name": "x"}', "YYYY-MM-DD",
         "a"),
        ('{"format": 1, "id": "a", "ended": true, "scoring": {}}', "date", None),
    ],
)
def test_a_damaged_evening_file_is_refused_in_one_line_and_kept(
    tmp_path: Path, content: str, words: str, tag: str | None
) -> None:
    """The file is refused in one line and left as it is; a game begun meanwhile still gets
    the evening the file names (none where no ID is left in it, or the evening ended)."""
    (tmp_path / SPIELTAG_FILE).write_text(content)
    with pytest.raises(SpieltagError) as caught:
        load_evening(StateDirectory(tmp_path))
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert (tmp_path / SPIELTAG_FILE).read_text() == content
    evening = open_evening(StateDirectory(tmp_path))
    assert evening.id == tag and evening.problem is not None and words in evening.problem
    store = GameStore(StateDirectory(tmp_path))
    store.open()
    store.begin(JournalHeader(GameSetup(TWO), spieltag=open_spieltag_id(store.storage)))
    begun = read_journal((tmp_path / CURRENT).read_bytes(), origin="x")
    assert begun.header.spieltag == tag


def test_games_played_while_the_evening_file_is_damaged_count_once_it_is_repaired(
    tmp_path: Path,
) -> None:
    """A damaged ``spieltag.json`` with no ID left in it: the evening is the newest game's, and
    the games played meanwhile are counted once the file is put right."""
    files = SpieltagFiles(StateDirectory(tmp_path))
    spieltag = files.begin(evening())
    kept = (tmp_path / SPIELTAG_FILE).read_bytes()
    play_games(tmp_path, TWO, 1, seed=1, deckel=3)
    (tmp_path / SPIELTAG_FILE).write_bytes(b"\x00" * len(kept))  # a card that lost a block
    assert open_evening(StateDirectory(tmp_path)).id == spieltag.id
    play_games(tmp_path, TWO, 2, seed=2, deckel=3)
    (tmp_path / SPIELTAG_FILE).write_bytes(kept)  # repaired from a copy
    loaded = load_evening(StateDirectory(tmp_path))
    assert [game.partie for game in loaded.games] == [1, 2, 3] and loaded.lost == ()


def test_an_export_reads_back_and_a_changed_result_cannot_pass(tmp_path: Path) -> None:
    SpieltagFiles(StateDirectory(tmp_path)).begin(evening(scheme="leben"))
    play_games(tmp_path, TWO, 2, deckel=3)
    loaded = load_evening(StateDirectory(tmp_path))
    data = evening_to_export(loaded)
    again = evening_from_export(json.dumps(data), "abend.json")
    assert again.standings() == loaded.standings()
    data["games"][0]["actions"] = data["games"][0]["actions"][:-1]
    with pytest.raises(SpieltagError, match=r"^abend.json: game 1: the game is not finished"):
        evening_from_export(json.dumps(data), "abend.json")
    with pytest.raises(SpieltagError, match="not an exported Spieltag"):
        evening_from_export("{}", "abend.json")


def test_an_evening_with_no_games_has_no_standings(tmp_path: Path) -> None:
    SpieltagFiles(StateDirectory(tmp_path)).begin(evening())
    with pytest.raises(SpieltagError, match="has no finished games yet"):
        load_evening(StateDirectory(tmp_path)).standings()


def _evening_after_kills(tmp_path: Path, kills: int, seed: int, max_delay: float) -> int:
    """The real firmware SIGKILLed ``kills`` times mid-evening (the kill harness, which checks
    every game's actions itself): every game it finished is the evening's, once, and every
    game it left half-played still belongs to the evening when it resumes."""
    root = tmp_path / "state"
    spieltag = SpieltagFiles(StateDirectory(root)).begin(evening(scheme="verlustpunkte"))
    tally = harness(kills=kills, seed=seed, state_dir=root, players=2, max_delay=max_delay)
    store = GameStore(StateDirectory(root))
    recovery = store.open()
    if recovery is not None:
        assert recovery.header.spieltag == spieltag.id
    loaded = load_evening(StateDirectory(root))
    finished = tally.finished_games + tally.finished_unreported
    assert len(loaded.games) == finished == len(store.archived())
    if finished:
        results = [game_result(g.setup, g.actions) for g in loaded.games]
        assert loaded.standings() == standings(spieltag.scheme, results)
    return finished


@pytest.mark.slow
def test_kills_mid_evening_lose_no_game_of_it(tmp_path: Path) -> None:
    """`make test` kills the firmware in tests/durable/test_kill.py and tears a journal
    mid-evening above; the two together, twice, in the slow selection."""
    _evening_after_kills(tmp_path, kills=2, seed=26, max_delay=0.4)


@pytest.mark.slow
def test_a_hundred_kills_mid_evening(tmp_path: Path) -> None:
    assert _evening_after_kills(tmp_path, kills=100, seed=2626, max_delay=1.5) >= 1
