"""One way to begin a Spieltag: the command line, the page and the menu make the same ID for the
same moment and refuse the same values, each in its own words; the values the command line
used to take (a day that is not in the calendar, a home side without a guest) are one line and
exit status 2, and nothing is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from pytest_mock import MockerFixture

from engine.spieltag import SpieltagError
from firmware.app.session.evening_desk import begin_evening, end_evening
from firmware.link.evening_page import PageSpieltag
from firmware.link.pairing import Pairing
from firmware.link.remote import DeviceHooks, Remote
from firmware.store.gamestore import GameStore
from firmware.store.spieltagfile import SPIELTAG_FILE
from hal.storage import StateDirectory
from sim.fakes import FakeClock
from tests.link.conftest import RecordingLink, TinyApp

Run = Callable[..., tuple[int, str, str]]
#: The wall time every door begins at, with the machine's offset.
NOW = datetime(2026, 12, 1, 19, 30, 5).astimezone()


def command_line(schocken: Run, root: Path, *more: str) -> tuple[int, str, str]:
    return schocken("spieltag", "begin", "--state-dir", str(root), *more)


class Page:
    """A paired host on the device's remote, whose Spieltag is kept in ``root``."""

    def __init__(self, root: Path, now: datetime = NOW) -> None:
        self.link = RecordingLink()
        self.pending: list[Callable[[], None]] = []
        app = TinyApp(lambda event: None)
        desk = PageSpieltag(StateDirectory(root), lambda: now, lambda: False)
        hooks = DeviceHooks(app.handle, lambda: app.next, print, spieltag=desk)
        self.remote = Remote(self.link, app, hooks, clock=FakeClock(),
                             call_soon=self.pending.append, pairing=Pairing(), trust_serial=True)
        self.remote.start()

    def begin(self, **values: Any) -> str:
        assert self.link.on_line is not None
        self.link.on_line(f"spieltag-begin {json.dumps(values)}".encode())
        while self.pending:
            self.pending.pop(0)()
        return self.link.take()[0]


def kept(root: Path) -> dict[str, Any]:
    return dict(json.loads((root / SPIELTAG_FILE).read_text(encoding="utf-8")))


def test_the_three_doors_make_the_same_spieltag_for_the_same_moment(
    schocken: Run, tmp_path: Path, mocker: MockerFixture
) -> None:
    menu, page, typed = tmp_path / "menu", tmp_path / "page", tmp_path / "cli"
    for root in (menu, page, typed):
        root.mkdir()
    begin_evening(GameStore(StateDirectory(menu)), "platzpunkte", NOW, 70)
    answer = Page(page).begin(name="Spieltag 1", scheme="platzpunkte", time_box=70)
    assert answer == "ok spieltag-begin"
    wall = mocker.patch("firmware.cli.spieltag.datetime")
    wall.now.return_value = NOW
    status, _, err = command_line(
        schocken, typed, "--name", "Spieltag 1", "--scoring", "platzpunkte", "--time-box", "70"
    )
    assert (status, err) == (0, "")
    files = [kept(root) for root in (menu, page, typed)]
    assert files[0] == files[1] == files[2]
    assert files[0]["id"] == "20261201-193005" and files[0]["date"] == "2026-12-01"
    assert files[0]["began_at"] == NOW.isoformat(timespec="seconds")
    assert files[0]["time_box_minutes"] == 70 and files[0]["name"] == "Spieltag 1"


def test_the_three_doors_refuse_the_same_values_each_in_its_own_words(
    schocken: Run, tmp_path: Path
) -> None:
    reason = "601: must be a whole number of minutes from 1 to 600"
    store = GameStore(StateDirectory(tmp_path))
    with pytest.raises(SpieltagError, match=f"^time box {reason}"):
        begin_evening(store, "leben", NOW, 601)
    assert Page(tmp_path).begin(name="7", time_box=601).startswith(
        f"error spieltag-begin: time box {reason}"
    )
    status, _, err = command_line(schocken, tmp_path, "--name", "7", "--time-box", "601")
    assert status == 2 and f"error: --time-box {reason}" in err
    assert not (tmp_path / SPIELTAG_FILE).exists()
    # An evening begun at the same moment as one played already: the same ID, refused.
    begin_evening(store, "leben", NOW)
    end_evening(store)
    with pytest.raises(SpieltagError, match="ID 20261201-193005 was played already"):
        begin_evening(store, "leben", NOW)
    assert "ID 20261201-193005 was played already" in Page(tmp_path).begin(name="8")


@pytest.mark.parametrize(
    ("more", "words"),
    [
        (("--date", "2026-13-45"), "--date 2026-13-45: must be YYYY-MM-DD, a day of the calendar"),
        (("--date", "2026-02-30"), "--date 2026-02-30: must be YYYY-MM-DD, a day of the calendar"),
        (("--date", "2026-00-10"), "--date 2026-00-10: must be YYYY-MM-DD"),
        (("--home", "Schockfreunde Werl"),
         "--home Schockfreunde Werl without --guest: a league match has a home and a guest side"),
        (("--guest", "3. Kompanie"),
         "--guest 3. Kompanie without --home: a league match has a home and a guest side"),
        (("--name=  ",), "--name: give the Spieltag a name or number"),
        (("--name", "A\nB"), "--name A B: holds a line break or another control character"),
        (("--venue", "W" * 81), f"--venue {'W' * 39}…: 81 characters: at most 80"),
        (("--player", "H1=Anna"),
         "--player: a league match's seats and tables need its sides: give --home and --guest"),
        (("--table", "2"),
         "--table 2: a league match's seats and tables need its sides: give --home and --guest"),
        (("--home", "Werl", "--guest", "Kompanie", "--player", f"H1={'A' * 41}"),
         "--player H1: player name"),
    ],
)
def test_a_value_the_command_line_used_to_take_is_one_line_and_begins_nothing(
    schocken: Run, tmp_path: Path, more: tuple[str, ...], words: str
) -> None:
    argv = more if more[0].startswith("--name") else ("--name", "7", *more)
    status, out, err = command_line(schocken, tmp_path, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and f"schocken spieltag: error: {words}" in err, err
    assert not (tmp_path / SPIELTAG_FILE).exists()


def test_a_leap_day_and_a_league_match_with_both_sides_begin(
    schocken: Run, tmp_path: Path
) -> None:
    status, _, err = command_line(
        schocken, tmp_path, "--name", "7", "--date", "2028-02-29", "--home", "Werl",
        "--guest", "Kompanie",
    )
    assert (status, err) == (0, "")
    assert kept(tmp_path)["date"] == "2028-02-29" and kept(tmp_path)["guest"] == "Kompanie"


def test_the_page_refuses_a_day_that_is_not_in_the_calendar(tmp_path: Path) -> None:
    page = Page(tmp_path)
    for day in ("2026-02-30", "2026-13-45"):
        assert page.begin(name="7", date=day) == (
            f"error spieltag-begin: date '{day}': must be YYYY-MM-DD, a day of the calendar "
            "(e.g. 2026-12-01)"
        )
    assert not (tmp_path / SPIELTAG_FILE).exists()
