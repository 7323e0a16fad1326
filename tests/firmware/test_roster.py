"""The remembered names (``names.json``): order, limits, and nothing lost to a crash or damage.

Everything runs on a real state directory (:class:`hal.storage.StateDirectory`); failures are
injected into the library calls it makes (``os.replace``, ``os.fsync``) with pytest-mock.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from firmware.config import config_from_toml
from firmware.names import name_problem
from firmware.screen.views import BannerView, MenuView, SeatsView
from firmware.store.roster import MAX_ROSTER, ROSTER_FILE, RosterFile
from hal.ports import Button
from hal.storage import StateDirectory
from tests.harness import make_app

from .conftest import Inputs


@pytest.fixture
def state(tmp_path: Path) -> StateDirectory:
    return StateDirectory(tmp_path / "state")


def stored(state: StateDirectory) -> list[str]:
    names: list[str] = json.loads((state.root / ROSTER_FILE).read_text())["names"]
    return names


def test_played_names_go_first_and_known_ones_last(state: StateDirectory) -> None:
    roster = RosterFile(state, known=("Wolfgang", "Özlem"))
    assert roster.names == ["Wolfgang", "Özlem"] == stored(state)
    roster.use(["Jo", "Lu"])
    roster.use(["Özlem", "Jo"])
    assert roster.names == ["Özlem", "Jo", "Lu", "Wolfgang"] == stored(state)
    roster.learn(["Lu", "Kim"])  # known already: stays where it is
    assert RosterFile(state).names == ["Özlem", "Jo", "Lu", "Wolfgang", "Kim"]


def test_the_roster_is_bounded_and_forgets_the_least_recently_used(state: StateDirectory) -> None:
    roster = RosterFile(state)
    for number in range(MAX_ROSTER + 5):
        roster.use([f"P{number}"])
    assert len(roster.names) == MAX_ROSTER
    assert roster.names[0] == f"P{MAX_ROSTER + 4}" and roster.names[-1] == "P5"
    roster.learn(["Late"])  # no room left for a name nobody played
    assert "Late" not in RosterFile(state).names


def test_names_the_device_cannot_take_are_dropped_one_by_one(state: StateDirectory) -> None:
    document = {
        "names": ["Anna", "Anna", "Jo Lu", "x" * 41, "Be\u202en", 7, "", "Ben"],
        "version_note": "kept",
    }
    (state.root).mkdir(parents=True)
    (state.root / ROSTER_FILE).write_text(json.dumps(document))
    roster = RosterFile(state)
    assert roster.names == ["Anna", "Ben"] and roster.damage is None
    roster.use(["Carla"])
    assert json.loads((state.root / ROSTER_FILE).read_text()) == {
        "names": ["Carla", "Anna", "Ben"], "version_note": "kept"
    }
    assert name_problem("Jo Lu") is not None
    assert name_problem(7) == "player name 7: must be a string"


def test_a_crash_while_writing_leaves_the_old_list_whole(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    roster = RosterFile(state)
    roster.use(["Anna", "Ben"])
    before = (state.root / ROSTER_FILE).read_bytes()
    # The plug is pulled between writing the new file and renaming it over the old one.
    replace = mocker.patch("hal.storage.os.replace", side_effect=OSError(errno.EIO, "I/O error"))
    roster.use(["Carla"])  # the failure is logged, not raised
    assert replace.call_count == 1
    mocker.stopall()
    assert (state.root / ROSTER_FILE).read_bytes() == before
    assert sorted(path.name for path in state.root.iterdir()) == [ROSTER_FILE]  # no temporary
    assert roster.names == ["Carla", "Anna", "Ben"], "the names stay in memory"
    assert RosterFile(state).names == ["Anna", "Ben"], "after a restart: the old list"
    roster.use(["Dirk"])  # the next change writes everything again
    assert stored(state) == ["Dirk", "Carla", "Anna", "Ben"]


def test_a_full_disk_on_fsync_keeps_the_old_list(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    RosterFile(state).use(["Anna"])
    fsync = mocker.patch("hal.storage.os.fsync", side_effect=OSError(errno.ENOSPC, "full"))
    RosterFile(state).use(["Ben"])
    assert fsync.called
    mocker.stopall()
    assert stored(state) == ["Anna"]


@pytest.mark.parametrize(
    "damage",
    [b"{not json", b"\xff\xfe names", b'["Anna"]', b'{"names": "Anna"}', b"[" * 5000],
    ids=["not-json", "not-utf8", "a-list", "not-a-list", "too-deep"],
)
def test_a_damaged_file_is_set_aside_and_the_names_start_from_the_configuration(
    state: StateDirectory, inputs: Inputs, damage: bytes
) -> None:
    state.root.mkdir(parents=True)
    (state.root / ROSTER_FILE).write_bytes(damage)
    config = config_from_toml('[game]\nnames = ["Wolfgang"]\n')
    app = make_app(config, storage=state)
    view = app.view
    assert isinstance(view, BannerView) and view.title == "Daten beschädigt"
    assert view.lines == (ROSTER_FILE, "Namen zurückgesetzt", "Kopie in damaged/")
    kept = list((state.root / "damaged").iterdir())
    assert [path.read_bytes() for path in kept] == [damage]
    assert kept[0].name.endswith(f"-{ROSTER_FILE}")
    assert stored(state) == ["Anna", "Ben", "Carla", "Wolfgang"]
    app.handle(inputs.press(Button.STAND))  # the message goes; the setup runs as ever
    app.handle(inputs.press(Button.KEEP_3))
    assert isinstance(app.view, SeatsView)
    app.handle(inputs.press(Button.KEEP_2))
    assert isinstance(app.view, MenuView)
    assert app.view.items == ("Neuer Name…", "Anna", "Wolfgang")


def test_an_oversized_file_is_damage_too(state: StateDirectory) -> None:
    state.root.mkdir(parents=True)
    (state.root / ROSTER_FILE).write_text(json.dumps({"names": ["A"] * 10_000}))
    roster = RosterFile(state)
    assert roster.names == [] and roster.damage is not None and "16384" in roster.damage


def test_without_a_state_directory_the_roster_lives_in_memory() -> None:
    roster = RosterFile(None, known=["Anna"])
    roster.use(["Ben"])
    assert roster.names == ["Ben", "Anna"]


def test_a_file_that_cannot_be_read_is_no_damage_and_is_not_overwritten(
    state: StateDirectory, mocker: MockerFixture
) -> None:
    state.write_atomic(ROSTER_FILE, '{"names": ["Anna"]}')
    mocker.patch.object(state, "read_text", side_effect=OSError(errno.EACCES, "denied"))
    roster = RosterFile(state)
    assert roster.names == [] and roster.damage is None
    mocker.stopall()
    roster.use(["Ben"])  # played, but the file it could not read is not overwritten
    assert roster.names == ["Ben"] and stored(state) == ["Anna"]
    assert os.path.exists(state.root / ROSTER_FILE)
