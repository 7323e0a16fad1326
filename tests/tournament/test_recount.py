"""A game's results from its journal (firmware/tournament/recount.py): one per half and Finale
as each ends, then the game, with the ids the wire's contract fixes, equal to the engine's
scoring of the same game; a game cut short gives the halves it finished."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from engine import GameSetup, Rules
from engine.events import Event, HalfOver
from engine.scoring import game_result
from firmware.store.journal import TournamentGame
from firmware.tournament.recount import results_of_game
from firmware.wire.messages import Result
from tests.engine.randomplay import play_random_game

PLACE = TournamentGame("cup26", "table-7", 2, 3)


@pytest.mark.parametrize("seed", range(12))
def test_a_games_results_are_its_halves_and_the_game_with_fixed_ids(seed: int) -> None:
    rules = Rules()
    game = play_random_game(3 + seed % 2, rules, seed)
    setup = GameSetup(game.players, rules)
    results = results_of_game(PLACE, setup, game.actions)
    scored = game_result(setup, game.actions)
    halves = [r for r in results if r.kind == "half"]
    sections = [r.section for r in halves]
    assert sections == ([1, 2] if scored.durchmarsch else [1, 2, 3])
    assert [r.id for r in halves] == [f"cup26/table-7/r2/g3/half{n}" for n in sections]
    assert tuple(r.loser for r in halves[:2]) == scored.half_losers
    assert results[-1].id == "cup26/table-7/r2/g3/game"
    # what a tournament counts: the wire carries no Schock aus against (the Kasse's, not its)
    assert results[-1].game_result() == replace(scored, schock_aus_against=())
    # the out order of each half is the engine's, the half's loser left out
    for half in halves[:2]:
        groups = scored.out_order[half.section - 1]  # type: ignore[operator]
        assert half.out[: len(groups) - 2] == groups[: len(groups) - 2]
    # every result survives the wire, and counting again gives the same
    assert [Result.from_json(r.to_json()) for r in results] == results
    assert results_of_game(PLACE, setup, game.actions) == results


def test_a_game_cut_short_gives_the_halves_it_finished() -> None:
    rules = Rules()
    game = play_random_game(4, rules, 5)
    setup = GameSetup(game.players, rules)
    replay = type(game)(setup)
    count = next(
        number for number, action in enumerate(game.actions, start=1)
        if any(isinstance(event, HalfOver) for event in replay.apply(action))
    )
    results = results_of_game(PLACE, setup, game.actions[:count])
    assert [r.id for r in results] == ["cup26/table-7/r2/g3/half1"]


def test_a_tournament_game_that_cannot_be_read_whole_is_named_not_dropped(
    tmp_path: Path,
) -> None:
    """A table's journal damaged in the middle: its results are recounted up to the damage,
    the journal is named in one line, and the table's card says so."""
    import shutil

    from firmware.app.stages.table_card import report_line
    from firmware.screen.oled_words import OledWords
    from firmware.tournament.recount import recount
    from firmware.tournament.reporter import Reporter, TableIdentity
    from hal.storage import StateDirectory
    from sim.fakes import FakeClock

    legacy = Path(__file__).parents[1] / "durable" / "legacy" / "tournament-table"
    folder = tmp_path / "table"
    shutil.copytree(legacy, folder, ignore=shutil.ignore_patterns("expected.json"))
    whole = recount(StateDirectory(folder), "cup26")
    assert whole.unreadable == {} and len(whole.results) == 6
    journal = folder / "game-000001.journal"
    data = bytearray(journal.read_bytes())
    data[len(data) // 2] ^= 0x04
    journal.write_bytes(bytes(data))
    damaged = recount(StateDirectory(folder), "cup26")
    (line,) = damaged.unreadable.values()
    assert list(damaged.unreadable) == ["game-000001.journal"]
    assert "game-000001.journal" in line and "\n" not in line
    assert [r.id for r in damaged.results][-3:] == [r.id for r in whole.results][-3:]
    reporter = Reporter(TableIdentity("cup26", 7), StateDirectory(folder), clock=FakeClock(0.0),
                        wall=lambda: 1_800_000_000.0)
    assert reporter.state().unreadable == 1
    assert report_line(OledWords("de"), reporter) == "Protokoll beschädigt (1)"
    assert report_line(OledWords("en"), reporter) == "Journal damaged (1)"
    # The next game's recount reads only its own journal: the damaged one is still named.
    reporter.sync()
    assert reporter.state().unreadable == 1


@pytest.mark.parametrize(("seed", "preset"), [(1, "standard"), (3, "dsm"), (4, "westfalen")])
def test_the_journals_events_give_what_replaying_its_actions_gives(
    seed: int, preset: str
) -> None:
    """The journal's one replay keeps its events: the results, the scoring and the statistics
    taken from them equal those of replaying the actions, for a game cut short and a whole
    one."""
    from engine import Game, load_preset, to_json
    from engine.scoring import game_result_from_events
    from firmware.store.journal import (
        JournalHeader,
        encode_record,
        header_to_record,
        read_journal,
    )
    from firmware.store.stats import count_events, count_game
    from firmware.tournament.recount import results_of_events

    played = play_random_game(3 + seed % 2, load_preset(preset), seed)
    setup = GameSetup(played.players, played.rules)
    replay = Game(setup)
    events: list[Event] = []
    cut_events: tuple[Event, ...] = ()
    halfway = len(played.actions) // 2
    records = [encode_record(header_to_record(JournalHeader(setup, tournament=PLACE)))]
    for number, action in enumerate(played.actions):  # as the journal's writer writes them
        records.append(encode_record({"n": number, **to_json(action)}))
        events += replay.apply(action)
        if number + 1 == halfway:
            cut_events = read_journal(b"".join(records)).events
    recovery = read_journal(b"".join(records))
    assert recovery.events == tuple(events) and recovery.actions == tuple(played.actions)
    cut = played.actions[:halfway]
    assert cut_events == tuple(events[: len(cut_events)]) and 0 < len(cut_events) < len(events)
    for actions, taken in ((cut, cut_events), (played.actions, recovery.events)):
        assert results_of_events(PLACE, setup, taken) == results_of_game(PLACE, setup, actions)
        assert count_events(setup, taken) == count_game(setup, actions)
    assert count_game(setup, cut) == {} != count_events(setup, recovery.events)
    assert game_result_from_events(setup, recovery.events) == game_result(setup, played.actions)


def test_a_sync_reads_only_the_journals_it_reports_once_each(
    tmp_path: Path, mocker: MockerFixture
) -> None:
    """With 30 archived games, a sync reads the newest archived journal and the current one,
    each once (no other journal, not even for its header), and still reports what is new."""
    import shutil

    from firmware.store.gamestore import CURRENT, archive_name
    from firmware.store.journal import encode_record, header_to_record, read_header, read_journal
    from firmware.tournament.reporter import Reporter, TableIdentity
    from hal.storage import StateDirectory
    from sim.fakes import FakeClock

    legacy = Path(__file__).parents[1] / "durable" / "legacy" / "tournament-table"
    folder = tmp_path / "table"
    shutil.copytree(legacy, folder, ignore=shutil.ignore_patterns("expected.json"))
    data = (folder / archive_name(2)).read_bytes()
    header = read_header(data)
    assert header.tournament is not None
    place = replace(header.tournament, game=header.tournament.game + 20)
    lines = data.splitlines(keepends=True)
    begun = encode_record(header_to_record(replace(header, tournament=place)))
    (folder / CURRENT).write_bytes(begun + b"".join(lines[1:4]))
    storage = StateDirectory(folder)
    reporter = Reporter(TableIdentity(place.event, 7), storage, clock=FakeClock(0.0),
                        wall=lambda: 1_800_000_000.0)
    for number in range(3, 31):  # more of the same game (its results are known already)
        (folder / archive_name(number)).write_bytes(data)
    (folder / CURRENT).write_bytes(begun + b"".join(lines[1:]))  # the game went on and ended
    whole = read_journal(data)
    ours = results_of_game(place, whole.setup, whole.actions)
    assert ours and not any(reporter.outbox.knows(result.id) for result in ours)
    read = mocker.spy(storage, "read_bytes")
    fresh = reporter.sync()
    assert sorted(call.args[0] for call in read.call_args_list) == [CURRENT, archive_name(30)]
    assert fresh == len(ours) and set(reporter.outbox.pending) >= {r.id for r in ours}
    read.reset_mock()
    reporter.sync(current=False)
    assert [call.args[0] for call in read.call_args_list] == [archive_name(30)]
    read.reset_mock()
    reporter.sync(archived=False)
    assert [call.args[0] for call in read.call_args_list] == [CURRENT]
