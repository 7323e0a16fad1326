"""The odds worker: tables and computer players' decisions off the main loop, with real threads.

The loop runs in the test's thread on a fake clock; the worker is a real thread. Nothing waits by
sleeping: the loop blocks on its own queue for the worker's answers (:class:`PatientClock`), and
a job that must not finish yet waits for an event the test sets.
"""

from __future__ import annotations

import dataclasses
import gc
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytest_mock import MockerFixture

from engine import GameSetup, load_preset
from engine.bots import OddsStrategy, clear_caches
from engine.rules import Rules
from firmware import work as work_module
from firmware.advice import best_hint
from firmware.app.stages.hint import hint_view
from firmware.config import DeviceConfig, GameConfig
from firmware.dice import SeededDice
from firmware.screen.oled_words import OledWords
from firmware.screen.views import BannerView, MenuView, TurnView
from firmware.wiring import Device
from firmware.work import BackgroundWork, InlineWork, settle_heap
from hal.ports import Button, InputEvent, InputKind
from sim.bench.whole_game import PatientClock
from sim.fakes import FakeClock
from tests.harness import as_json, build_test_device

from .conftest import ScriptedDice

GERMAN = OledWords("de")


@pytest.fixture(autouse=True)
def fresh_tables() -> None:
    """Every test starts as after a boot: no odds table built yet."""
    clear_caches()


def _device(
    clock: FakeClock,
    players: tuple[str, ...],
    bots: tuple[str, ...],
    dice: Any,
    *,
    worker: bool,
    rules: Rules | None = None,
    events: list[dict[str, Any]] | None = None,
) -> Device:
    config = DeviceConfig(game=GameConfig(players=players, bots=bots))
    setup = GameSetup(players, rules or load_preset("standard"))
    device = build_test_device(
        config,
        clock=clock,
        dice=dice,
        setup=setup,
        event_sink=as_json(events.append) if events is not None else None,
        odds_worker=worker,
    )
    device.loop.start()
    return device


def _patient(device_ref: list[Device]) -> PatientClock:
    """A fake clock that stands still while the app waits for the worker's answer."""
    return PatientClock(lambda: bool(device_ref) and device_ref[0].app.thinking)


def _blocked_preparation(mocker: MockerFixture) -> threading.Event:
    """Make the worker's table building wait for the returned event."""
    release = threading.Event()
    build = work_module.prepare_tables

    def waiting(rules: Rules, strategies: Any, players: int = 0) -> None:
        release.wait()
        build(rules, strategies, players)

    mocker.patch("firmware.work.prepare_tables", side_effect=waiting)
    return release


def _act(device: Device, kind: InputKind, button: Button | None = None) -> None:
    device.app.handle(InputEvent(kind, device.clock.now(), button))
    device.run(until=device.clock.now() + 0.01)


@pytest.mark.parametrize(
    ("players", "bots"),
    [
        pytest.param(("Ben", "Carla"), ("odds", "odds"), id="two"),
        # Three seats: the odds bots' tables take seconds to build, twice.
        pytest.param(
            ("Ben", "Carla", "Dieter"), ("odds", "odds", "threshold"), id="three",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_game_of_computer_players_goes_the_same_way_with_the_worker(
    mocker: MockerFixture, players: tuple[str, ...], bots: tuple[str, ...]
) -> None:
    rules = dataclasses.replace(load_preset("standard"), deckel=3)
    inline_events: list[dict[str, Any]] = []
    inline = _device(
        FakeClock(), players, bots, SeededDice(4), worker=False, rules=rules, events=inline_events
    )
    inline.run()
    inline.close()
    assert inline_events[-1]["event"] == "game_over"

    clear_caches()
    threads: list[str] = []
    choose = OddsStrategy.choose

    def noted(self: OddsStrategy, *args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return choose(self, *args)

    mocker.patch.object(OddsStrategy, "choose", autospec=True, side_effect=noted)
    ref: list[Device] = []
    worker_events: list[dict[str, Any]] = []
    device = _device(
        _patient(ref), players, bots, SeededDice(4), worker=True, rules=rules, events=worker_events
    )
    ref.append(device)
    device.run()
    device.close()
    assert worker_events == inline_events
    assert threads and set(threads) == {"odds-worker"}


def test_the_loop_serves_the_player_while_the_tables_are_built_and_the_hint_waits_for_them(
    mocker: MockerFixture,
) -> None:
    release = _blocked_preparation(mocker)
    # Anna wins the roll-off with a Schock, then throws 6-3-1.
    dice = ScriptedDice([(1, 1, 2), (6, 5, 4), (6, 3, 1)])
    patient = [False]
    ref: list[Device] = []
    clock = PatientClock(lambda: patient[0] and ref[0].app.thinking)
    device = _device(clock, ("Anna", "Ben"), ("", "odds"), dice, worker=True)
    ref.append(device)
    try:
        _act(device, InputKind.SHAKE_START)
        _act(device, InputKind.THROW)  # the roll-off
        _act(device, InputKind.PRESS, Button.KEEP_3)  # on to the hand-over
        _act(device, InputKind.SHAKE_START)  # Anna takes the cup
        _act(device, InputKind.THROW)
        game = device.app.game
        assert game is not None and game.turn is not None and game.turn.throws == 1
        _act(device, InputKind.LONG_PRESS, Button.FLIP)  # the hint, before any table is built
        view = device.app.view
        assert isinstance(view, BannerView) and view.lines == ("Einen Moment …",)
        assert device.app.thinking and not release.is_set()

        release.set()
        patient[0] = True
        device.run(until=device.clock.now() + 0.01)  # waits on the loop's queue for the answer
        expected = hint_view(best_hint(game), GERMAN)
        assert device.app.view == expected and expected.title == "Tipp"
        assert not device.app.thinking
        # Now the tables are built: the next hint is computed at once on the loop.
        _act(device, InputKind.PRESS, Button.KEEP_3)
        _act(device, InputKind.LONG_PRESS, Button.FLIP)
        assert device.app.view == expected
    finally:
        release.set()
        device.close()


def test_a_computer_player_keeps_thinking_while_the_menu_still_opens(
    mocker: MockerFixture,
) -> None:
    release = _blocked_preparation(mocker)
    # Ben wins the roll-off and opens; his first throw needs no thought, the next one does.
    dice = ScriptedDice([(3, 5, 4), (1, 1, 2), (6, 3, 1)])
    patient = [False]
    ref: list[Device] = []
    clock = PatientClock(lambda: patient[0] and ref[0].app.thinking)
    device = _device(clock, ("Anna", "Ben"), ("", "odds"), dice, worker=True)
    ref.append(device)
    try:
        _act(device, InputKind.SHAKE_START)
        _act(device, InputKind.THROW)
        _act(device, InputKind.PRESS, Button.KEEP_3)
        device.run(until=clock.now() + 30)  # the hand-over, Ben's first throw, then he thinks
        game = device.app.game
        assert game is not None and game.turn is not None
        assert game.current_player == "Ben" and game.turn.throws == 1
        assert device.app.thinking
        view = device.app.view
        assert isinstance(view, TurnView) and view.status == "überlegt…"
        _act(device, InputKind.LONG_PRESS, Button.STAND)  # the menu opens meanwhile
        assert isinstance(device.app.view, MenuView)
        _act(device, InputKind.PRESS, Button.FLIP)  # and closes
        assert game.turn.throws == 1  # Ben has not moved: the answer is not in

        release.set()
        patient[0] = True
        device.run(until=clock.now() + 0.01)  # the answer arrives; Ben acts on it at once
        assert not device.app.thinking
        view = device.app.view
        assert isinstance(view, TurnView) and view.dice[2].out  # he lays out the 1
        device.run(until=clock.now() + 2)  # and throws again
        assert game.turn is not None and game.turn.throws == 2
    finally:
        release.set()
        device.close()


def _loop_queue() -> tuple[queue.SimpleQueue[Callable[[], None]], Callable[[], None]]:
    calls: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def run_next() -> None:
        calls.get(timeout=30)()

    return calls, run_next


def test_jobs_wait_for_the_start_and_answers_come_through_the_call_queue() -> None:
    calls, run_next = _loop_queue()
    work = BackgroundWork()
    answers: list[tuple[str, int]] = []
    after: list[str] = []
    work.submit(lambda: threading.current_thread().name, lambda name: answers.append((name, 1)))
    work.start(calls.put, lambda: after.append(threading.current_thread().name))
    work.submit(lambda: threading.current_thread().name, lambda name: answers.append((name, 2)))
    run_next()
    run_next()
    assert answers == [("odds-worker", 1), ("odds-worker", 2)]
    assert after == [threading.current_thread().name] * 2  # on the "loop", after each answer
    thread = work._thread
    work.close()
    assert thread is not None and not thread.is_alive()


def test_closing_does_not_wait_for_a_long_job_to_end() -> None:
    calls, _run_next = _loop_queue()
    work = BackgroundWork()
    work.start(calls.put)
    started, release = threading.Event(), threading.Event()
    answers: list[int] = []
    work.submit(lambda: started.set() or release.wait(10) or 1, answers.append)
    assert started.wait(5)
    thread = work._thread
    began = time.monotonic()
    work.close()  # as Ctrl+C or a service's stop does, while a rule set's tables are built
    assert time.monotonic() - began < 5, "closing waited for the job"
    assert thread is not None and thread.daemon and thread.is_alive()
    release.set()
    thread.join(5)
    while not calls.empty():  # what the loop would still run: the answer is not handed over
        calls.get()()
    assert not thread.is_alive() and answers == []


def test_a_job_that_fails_raises_on_the_loop() -> None:
    calls, run_next = _loop_queue()
    work = BackgroundWork()
    work.start(calls.put)
    work.submit(lambda: 1 // 0, lambda _: None)
    with pytest.raises(ZeroDivisionError):
        run_next()
    work.close()


def test_the_worker_prepares_each_rule_set_once(mocker: MockerFixture) -> None:
    calls, run_next = _loop_queue()
    built = mocker.patch("firmware.work.prepare_tables")
    work = BackgroundWork()
    work.start(calls.put)
    rules = load_preset("bvb")
    assert not work.ready(rules)
    work.prepare(rules, {"odds"})
    work.prepare(rules, {"odds"})  # asked again: nothing more to build
    run_next()
    assert work.ready(rules)
    work.prepare(rules, {"odds", "threshold"})
    run_next()
    work.prepare(rules, {"odds"}, 3)  # the opener's objective at a table of three
    work.prepare(rules, {"odds"}, 3)
    run_next()
    asked = [call.args for call in built.call_args_list]
    assert asked == [(rules, ["odds"], 0), (rules, ["threshold"], 0), (rules, [], 3)]
    work.close()


@pytest.fixture
def unfreeze() -> Iterator[None]:
    """The test process's heap as it was: nothing frozen after the test."""
    yield
    gc.unfreeze()


def test_the_tables_a_prepare_built_are_left_out_of_the_collectors_passes(
    unfreeze: None,
) -> None:
    from engine.odds import _model

    calls, run_next = _loop_queue()
    work = BackgroundWork()
    work.start(calls.put)
    rules = load_preset("standard")
    work.prepare(rules, set())
    run_next()
    assert work.ready(rules)
    work.close()
    model = _model(rules)  # the position graph, built by the prepare
    assert gc.is_tracked(model) and gc.get_freeze_count() > 0
    walked = (found for generation in range(3) for found in gc.get_objects(generation))
    assert all(found is not model for found in walked), "frozen: no pass walks it"


class _Node:
    """An object in a reference cycle (only the collector frees it)."""

    def __init__(self) -> None:
        self.itself = self


def test_settling_frees_the_young_garbage_and_keeps_the_rest_out_of_full_passes(
    unfreeze: None,
) -> None:
    young, kept = _Node(), _Node()
    young_gone, kept_gone = weakref.ref(young), weakref.ref(kept)
    del young
    settle_heap()
    assert young_gone() is None, "garbage is not frozen"
    del kept
    gc.collect()
    assert kept_gone() is not None, "frozen: a full pass leaves it"
    gc.unfreeze()
    gc.collect()
    assert kept_gone() is None


def test_inline_work_answers_at_once_and_builds_nothing_ahead(mocker: MockerFixture) -> None:
    built = mocker.patch("firmware.work.prepare_tables")
    work = InlineWork()
    work.prepare(load_preset("standard"), {"odds"})
    answers: list[int] = []
    work.submit(lambda: 6 * 7, answers.append)
    assert answers == [42] and work.ready(load_preset("standard"))
    built.assert_not_called()
