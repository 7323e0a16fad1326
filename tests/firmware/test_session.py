"""The session on its own: closed to assignment, changed through methods that say what they do,
and ``setup.json`` written once for each change the menu or the setup makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from engine.game import GameSetup
from engine.rules import load_preset
from firmware.app.session.session import Session
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.store.setupfile import SETUP_FILE
from firmware.store.stores import open_stores
from hal.storage import StateDirectory
from sim.fakes import FakeClock

SETUP = GameSetup(("Anna", "Ben"), load_preset("standard"))


def session_on(storage: StateDirectory | None) -> Session:
    return Session(
        DeviceConfig(), clock=FakeClock(100.0), dice=SeededDice(1), stores=open_stores(storage),
        plan=None, event_sink=None, shutdown=None,
    )


def test_nothing_of_a_session_is_assigned_from_outside() -> None:
    """What tests/architecture/test_session_state.py forbids fails at run time too (the session
    is called ``closed`` here, a name that rule does not look for, to try it)."""
    closed = session_on(None)
    with pytest.raises(AttributeError):
        closed.seat_bots = ("odds",)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        closed.contrast = 8  # type: ignore[misc]
    with pytest.raises(AttributeError):
        closed.something_new = 1  # type: ignore[attr-defined]
    assert closed.seat_bots == () and closed.contrast == DeviceConfig().display.contrast


def test_each_change_is_remembered_with_one_write(tmp_path: Path, mocker: MockerFixture) -> None:
    storage = StateDirectory(tmp_path)
    session = session_on(storage)
    writes = mocker.spy(storage, "write_atomic")
    session.preview_brightness(40)
    assert session.contrast == 40 and writes.call_count == 0, "a preview remembers nothing"
    session.set_brightness(96)
    session.choose_language("en")
    session.switch_dice()
    session.choose_rules(load_preset("dsm"))
    assert [call.args[0] for call in writes.call_args_list] == [SETUP_FILE] * 4
    assert json.loads((tmp_path / SETUP_FILE).read_text()) == {
        "brightness": 96, "language": "en", "real_dice": True, "rules": "dsm",
        "deckel": load_preset("dsm").deckel,
    }
    assert (session.contrast, session.catalogue.language, session.real_dice) == (96, "en", True)


def test_the_set_up_game_is_remembered_once_then_started(
    tmp_path: Path, mocker: MockerFixture
) -> None:
    storage = StateDirectory(tmp_path)
    session = session_on(storage)
    writes = mocker.spy(storage, "write_atomic")
    session.start_set_up_game(SETUP, bots=("", "odds"), names=("Anna", ""))
    assert [call.args[0] for call in writes.call_args_list].count(SETUP_FILE) == 1
    assert json.loads((tmp_path / SETUP_FILE).read_text()) == {
        "players": 2, "rules": "standard", "deckel": SETUP.rules.deckel, "bots": ["", "odds"],
        "names": ["Anna", ""], "real_dice": False,
    }
    table = session.require_table()
    assert session.seat_bots == ("", "odds") and set(table.bots) == {"Ben"}


def test_a_game_starts_with_its_computer_players_and_its_round_in_one_call() -> None:
    session = session_on(None)
    session.plan_bots(("odds", "odds"))
    session.start_game(SETUP, bots=(), round_ends_at=5000.0)
    assert session.seat_bots == () and session.require_table().bots == {}
    assert session.time_box_ends_at == 5000.0
    session.start_game(SETUP)  # the round's next game keeps both
    assert session.seat_bots == () and session.time_box_ends_at == 5000.0
    session.start_game(SETUP, round_ends_at=None)  # a round without a time box
    assert session.time_box_ends_at is None and session.game_number == 3
