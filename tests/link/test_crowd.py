"""The pages under a crowd (firmware/link/crowd.py), with the main loop run by hand: what an
unpaired page asks is answered without the loop, from one snapshot per change; answers are
bounded before they are made; the statistics are counted once for every page that asks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pytest_mock import MockerFixture

from engine import Game, GameSetup, load_preset
from firmware.link import crowd, protocol
from firmware.link.crowd import ANSWER_QUEUE_BYTES, CrowdBudget
from firmware.link.pairing import Pairing
from firmware.link.remote import DeviceHooks
from firmware.link.webtable import WebTable
from hal.web_server import WebSocketLink
from sim.fakes import FakeClock
from tests.link.conftest import HandLoop, RecordingLink, StubServer, TinyApp

SETUP = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))


def stats() -> dict[str, Any]:
    return {"fields": ["games"], "players": {}}


def table_with_pages(
    count: int, *, budget: CrowdBudget | None = None
) -> tuple[HandLoop, TinyApp, WebTable, list[RecordingLink], DeviceHooks]:
    loop = HandLoop()
    app = TinyApp(lambda event: table.publish_event(event))
    hooks = DeviceHooks(deliver=app.handle, next_setup=lambda: SETUP, apply_setup=print,
                        stats=stats)
    server = StubServer()
    table = WebTable(server, app, hooks, clock=FakeClock(), call_soon=loop.pending.append,
                     pairing=Pairing(), budget=budget)
    table.start()
    game = app.game = Game(SETUP)
    app._emit(game.roll_off([[2, 3, 5], [1, 1, 1], [4, 4, 5]]))
    pages = []
    for _ in range(count):
        page = RecordingLink()
        page.network = True
        assert server.accept is not None
        server.accept(page)
        pages.append(page)
    loop.run()
    table.show(app.screen())
    for page in pages:
        page.take()
    return loop, app, table, pages, hooks


def ask(page: RecordingLink, line: str) -> None:
    assert page.on_line is not None
    page.on_line(line.encode())  # on the server's thread


def test_unpaired_questions_need_no_main_loop_and_get_the_same_lines(
    mocker: MockerFixture,
) -> None:
    loop, app, table, pages, _ = table_with_pages(3)
    pages_made = mocker.spy(crowd, "log_page")
    states = mocker.spy(table._feed, "state_line")
    for page in pages:
        for line in ("log", "state", "hello", "frames on", "ping 1", "help", "pair 1234",
                     "press stand", 'setup {"players": ["A", "B"]}'):
            ask(page, line)
    assert loop.pending == [], "nothing of it went to the main loop"
    answers = [[line for line, _ in page.sent] for page in pages]
    assert answers[0][0].startswith("log {") and "end" in answers[0]
    assert answers[1] == answers[0] == answers[2]
    firsts = [page.sent[1][0] for page in pages]
    assert firsts[0] is firsts[1] is firsts[2], "the very same string, made once"
    assert pages_made.call_count == 1, "one log page made for every page that asked"
    assert states.call_count == 0, "the state was made when it changed, not when asked"
    app._emit(app.game.roll([6, 5, 2]))  # type: ignore[union-attr]
    loop.run()
    table.show(app.screen())
    ask(pages[0], "log")
    assert pages_made.call_count == 2, "a change makes a new snapshot"


def test_a_page_that_does_not_read_is_refused_before_its_answer_is_made(
    mocker: MockerFixture,
) -> None:
    _, _, _, (page,), _ = table_with_pages(1)
    pages_made = mocker.spy(crowd, "log_page")
    page.queued_bytes = ANSWER_QUEUE_BYTES + 1
    for _ in range(5):
        ask(page, "log")
    assert page.take() == ["error busy: many pages are asking; ask again in a moment"]
    assert pages_made.call_count == 0
    page.queued_bytes = 0
    ask(page, "state")
    assert page.take()[0].startswith("state "), "answered again once it has read"


def test_all_unpaired_pages_share_one_budget_of_answer_lines() -> None:
    _, _, _, pages, _ = table_with_pages(4, budget=CrowdBudget(answer_lines_per_s=0.001))
    for page in pages:
        for _ in range(3000):  # the burst of the budget, and more
            ask(page, "state")
    answered = sum(len([line for line in page.take() if line.startswith("state ")])
                   for page in pages)
    assert answered == int(crowd.ANSWER_LINES_BURST), "the crowd's burst, not each page's"


def test_the_statistics_are_counted_once_for_every_page_that_asks(
    mocker: MockerFixture,
) -> None:
    loop, _, _, pages, _ = table_with_pages(50)
    counted = mocker.patch("firmware.link.webtable.stats_text", side_effect=crowd.stats_text)
    for page in pages:
        ask(page, "stats")
    assert loop.run() == 1, "one call on the main loop for fifty pages"
    for page in pages:
        ask(page, "stats")  # asked again: the count just made
    assert counted.call_count == 1
    for page in pages:
        lines = page.take()
        assert len(lines) == 2 and all(line.startswith("stats {") for line in lines)
        assert json.loads(lines[0].split(" ", 1)[1]) == stats()


def test_a_right_pin_goes_to_the_main_loop_and_pairs_there() -> None:
    loop, _, table, (page, other), _ = table_with_pages(2)
    pin = table._pairing.show_pin(0.0)
    ask(other, "pair 999999" if pin != "999999" else "pair 888888")
    assert loop.pending == [], "a wrong PIN is refused without the main loop"
    ask(page, f"pair {pin}")
    ask(page, "state")  # waits behind the pair, in order
    assert loop.run() == 2
    lines = page.take()
    assert lines[0].startswith("ok pair ") and lines[1].startswith("state ")
    ask(page, "ping paired")
    assert page.sent == [] and loop.run() == 1, "a paired page is served by the main loop"
    assert page.take() == ["pong paired"]


def test_frames_to_a_watcher_are_the_latest_only() -> None:
    loop = asyncio.new_event_loop()
    try:
        link = WebSocketLink(loop, "192.0.2.1", notify=lambda link: None)
        frames = [f"frame {index:04d}" for index in range(100)]
        for frame in frames:
            link.send_line(frame, droppable=True)
        link.send_line("state {}")
        link.send_line(frames[-1], droppable=True)
        assert link.queued_bytes == len("state {}") + len(frames[-1]), "one frame waits"
    finally:
        loop.close()


def test_a_game_given_up_is_gone_from_the_state_but_not_from_the_log() -> None:
    _, app, table, (page,), _ = table_with_pages(1)
    app.game = None  # given up: the device is back at its setup, with no new frame yet
    table.flush()
    table.show(app.screen())
    ask(page, "state")
    ask(page, "log")
    lines = page.take()
    assert json.loads(lines[0].split(" ", 1)[1])["game"] is None
    assert lines[1].startswith("log {"), "the log is still the last game's"


def paired_page(loop: HandLoop, table: WebTable, page: RecordingLink) -> None:
    ask(page, f"pair {table._pairing.show_pin(0.0)}")
    loop.run()
    assert page.take()[0].startswith("ok pair ")


def test_a_line_is_parsed_once_by_the_gate_and_carried_out_as_parsed(
    mocker: MockerFixture,
) -> None:
    loop, _, table, (page, watcher), _ = table_with_pages(2)
    paired_page(loop, table, page)
    parsed = mocker.spy(protocol, "parse_command")
    lines = ["press stand", "state", "bogus", 'setup {"players": ["Anna"]}', "ping 1"]
    for line in lines:
        ask(page, line)
    ask(watcher, "state")
    ask(watcher, 'setup {"players": 7}')
    assert parsed.call_count == len(lines) + 2, "each line once, where it arrived"
    assert loop.run() == len(lines), "the paired page's lines on the loop, nothing parsed there"
    assert parsed.call_count == len(lines) + 2
    answers = page.take()
    assert answers[0] == "ok press" and answers[-1] == "pong 1", "in the page's order"
    assert answers[-3].startswith("error unknown command 'bogus'")
    assert answers[-2].startswith("error setup refused: a game is running"), "paired: then"
    watched = watcher.take()
    assert watched[-1].startswith("error setup needs pairing"), "pairing first, at the gate"


def test_a_pairing_revoked_from_the_menu_is_refused_at_the_gate_with_no_copy_to_update() -> None:
    loop, app, table, (page,), _ = table_with_pages(1)
    paired_page(loop, table, page)
    ask(page, "frames on")
    loop.run()
    assert page.take()[0] == "ok frames on"
    table._pairing.revoke_all()  # the menu's "Kopplungen löschen"
    ask(page, "press stand")
    assert loop.pending == [], "the gate reads the one connection: refused without the loop"
    assert page.take() == [
        "error press needs pairing: open Koppeln (pair) in the device's menu, then send "
        "pair PIN (or auth TOKEN from an earlier pairing)"
    ]
    app._emit(app.game.roll([6, 5, 2]))  # type: ignore[union-attr]
    loop.run()
    table.show(app.screen())
    assert any(line.startswith("frame ") for line in page.take()), "its frames stay on"


def test_a_line_that_trips_a_bug_is_one_error_line_and_one_log_line_a_minute(
    mocker: MockerFixture, caplog: Any
) -> None:
    loop, _, table, (page, paired), _ = table_with_pages(2)
    paired_page(loop, table, paired)
    mocker.patch.object(crowd, "QUIET", crowd.QuietLog(crowd.logger))
    mocker.patch.object(crowd, "read_line", side_effect=KeyError("a bug of ours"))
    with caplog.at_level("INFO"):
        for _ in range(50):
            ask(page, "setup {}")
            ask(paired, "setup {}")
        loop.run()
    for answers in (page.take(), paired.take()):
        assert answers == [f"error {protocol.INTERNAL_ERROR}"] * 50, "one line each, paired or not"
    assert [record.exc_info for record in caplog.records] == [None], "one line, no traceback"
    logged = caplog.records[0].getMessage()
    assert "a bug of ours" in logged and "mock.py:" in logged, "its words and where"
    assert "\n" not in logged and "KeyError" not in logged


BUSY = "error busy: many pages are asking; ask again in a moment"


def test_a_right_pin_and_a_paired_token_never_wait_for_the_crowds_budget() -> None:
    budget = CrowdBudget(loop_calls_per_s=0.001)
    loop, _, table, pages, _ = table_with_pages(4, budget=budget)
    crowd_pages, person, reloaded = pages[:2], pages[2], pages[3]
    reloaded.peer = "192.0.2.8"
    for page in crowd_pages:  # the crowd's questions that only the main loop answers
        for _ in range(60):
            ask(page, "spieltag")
    assert budget.loop_call() is False, "the crowd used up its budget"
    assert BUSY in crowd_pages[0].take()

    ask(person, f"pair {table._pairing.show_pin(0.0)}")
    for question in ("frames on", "log", "stats", "spieltag"):  # what a page asks next
        ask(person, question)
    loop.run()
    answers = person.take()
    assert answers[0].startswith("ok pair "), answers
    assert BUSY not in answers and answers[1] == "ok frames on", "its questions followed it"
    token = answers[0].split()[2]

    ask(reloaded, f"auth {token}")  # the same phone, reloaded
    ask(reloaded, "frames on")
    loop.run()
    assert reloaded.take()[:2] == ["ok auth", "ok frames on"]


def test_a_pair_refused_busy_is_always_told_and_the_crowds_budget_stays_apart() -> None:
    budget = CrowdBudget()
    loop, _, table, (page,), _ = table_with_pages(1, budget=budget)
    pin = table._pairing.show_pin(0.0)
    ask(page, "spieltag")  # one line on the loop: the pairs wait behind it, in order
    for _ in range(int(crowd.PAIRING_CALLS_BURST) + 2):
        ask(page, f"pair {pin}")
    lines = page.take()
    assert lines.count(BUSY) == 2, "each pair over its address's budget hears of it"
    assert budget.pairing_refused == 2 and budget.refused == 0, "not the crowd's budget"
    loop.run()
    answers = page.take()
    assert answers[0].startswith("error spieltag") and answers[1].startswith("ok pair "), (
        "the first pair, in order, after the line before it"
    )
