"""One feed for the hosts of a view: the events as the table sees them, then the batch's state."""

from __future__ import annotations

import json

from engine import Game, GameSetup, load_preset
from firmware.link.feed import HostFeed
from firmware.link.pairing import Pairing
from firmware.link.remote import DeviceHooks
from firmware.link.webtable import WebTable
from firmware.sink import GameAbandoned
from sim.fakes import FakeClock
from tests.link.conftest import HandLoop, RecordingLink, StubServer, TinyApp

SETUP = GameSetup(("Anna", "Ben", "Carla"), load_preset("standard"))


def hooks_of(app: TinyApp) -> DeviceHooks:
    return DeviceHooks(deliver=app.handle, next_setup=lambda: SETUP, apply_setup=print)


def fed(
    *, batched: bool, hosts: int = 1
) -> tuple[HandLoop, TinyApp, HostFeed, list[RecordingLink]]:
    """A stand-in app under way with a game, its feed, and the feed's hosts."""
    loop = HandLoop()
    app = TinyApp(lambda event: feed.publish(event))
    feed = HostFeed(app, hooks_of(app), call_soon=loop.pending.append, batched=batched)
    links = [RecordingLink() for _ in range(hosts)]
    for link in links:
        feed.add(link)
    app.game = Game(SETUP)
    app._emit(app.game.roll_off([[2, 3, 5], [1, 1, 1], [4, 4, 5]]))
    return loop, app, feed, links


def kinds(lines: list[str]) -> list[str]:
    return [line.split(" ", 1)[0] for line in lines]


def test_at_once_an_event_goes_out_as_it_happens_and_a_state_after_the_batch() -> None:
    loop, app, feed, (link,) = fed(batched=False)
    assert kinds(link.take()) == ["event", "event"], "at once, no state yet"
    loop.run()
    assert kinds(link.take()) == ["state"]
    app._emit(app.game.roll([6, 5, 2]))
    link.send_line(feed.state_line())  # the host asked for the state meanwhile: that is the one
    loop.run()
    assert kinds(link.take()) == ["event", "state"]


def test_in_batches_every_page_gets_the_same_lines_once_the_loop_is_free() -> None:
    loop, app, feed, pages = fed(batched=True, hosts=3)
    pages[0].send_line(feed.state_line())  # one page's own answer leaves the batch due
    pages[0].take()
    assert all(page.sent == [] for page in pages), "the events wait for their state"
    loop.run()
    first = pages[0].take()
    assert kinds(first) == ["event", "event", "state"]
    assert all(page.take() == first for page in pages[1:])
    feed.remove(pages[1])
    app._emit(app.game.roll([6, 5, 2]))
    loop.run()
    assert pages[1].sent == [] and kinds(pages[2].take()) == ["event", "state"]


def test_the_last_game_is_the_feeds_for_every_host_after_the_game_is_gone() -> None:
    loop, app, feed, (page,) = fed(batched=True)
    game = app.game
    app.game = None  # given up: the device is back at the setup
    feed.publish(GameAbandoned(1))
    loop.run()
    state = json.loads(page.take()[-1].split(" ", 1)[1])
    assert state["game"]["players"] == ["Anna", "Ben", "Carla"], "the batch's game"
    assert feed.game() is game
    assert json.loads(feed.state_line().split(" ", 1)[1])["game"] is None, "an answer: none now"


def test_a_page_that_comes_after_a_game_was_given_up_still_gets_its_log() -> None:
    # As the serial link's host does: the pages share the feed's last game, not each their own.
    loop = HandLoop()
    app = TinyApp(lambda event: table.publish_event(event))
    server = StubServer()
    table = WebTable(
        server, app, hooks_of(app), clock=FakeClock(), call_soon=loop.pending.append,
        pairing=Pairing(),
    )
    table.start()
    game = app.game = Game(SETUP)
    app._emit(game.roll_off([[2, 3, 5], [1, 1, 1], [4, 4, 5]]))
    app.game = None
    table.publish_event(GameAbandoned(1))
    loop.run()
    page = RecordingLink()
    page.network = True
    assert server.accept is not None
    server.accept(page)
    loop.run()
    assert page.on_line is not None
    page.on_line(b"log")
    loop.run()
    lines = page.take()
    assert lines[0].startswith("log {") and lines[-1] == "end", lines
