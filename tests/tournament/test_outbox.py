"""The table's outbox (firmware/tournament/outbox.py) on a real state directory, and the
``[tournament]`` section of config.toml: durable before publishing, torn tails cut back and
kept, acks once, compaction that forgets nothing; every config mistake one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from firmware.config import ConfigError, TournamentConfig, config_from_toml
from firmware.tournament.outbox import OUTBOX, Outbox
from firmware.tournament.reporter import Reporter, TableIdentity
from hal.ports import StorageError
from hal.storage import StateDirectory
from sim.fakes import FakeClock


def test_a_result_is_on_the_medium_before_put_returns(tmp_path: Path) -> None:
    box = Outbox(StateDirectory(tmp_path))
    assert box.put("e/table-1/r1/g1/half1", '{"v":1}')
    # a second process reading the folder now sees it
    assert list(Outbox(StateDirectory(tmp_path)).pending) == ["e/table-1/r1/g1/half1"]
    assert not box.put("e/table-1/r1/g1/half1", '{"v":1}')  # known: not twice


def test_a_failed_write_raises_and_keeps_nothing(tmp_path: Path, mocker: MockerFixture) -> None:
    storage = StateDirectory(tmp_path)
    box = Outbox(storage)
    mocker.patch.object(storage, "append_durable", side_effect=StorageError("disk full"))
    with pytest.raises(StorageError):
        box.put("a", "{}")
    assert not box.knows("a")


def test_acks_take_results_out_once_and_refusals_stay(tmp_path: Path) -> None:
    storage = StateDirectory(tmp_path)
    box = Outbox(storage)
    for ident in ("a", "b", "c"):
        box.put(ident, "{}")
    assert box.acknowledge("a", "stored")
    assert box.acknowledge("b", "refused", "round over")
    assert not box.acknowledge("a", "duplicate")  # an ack again writes nothing
    assert not box.acknowledge("zzz", "stored")
    again = Outbox(storage)
    assert list(again.pending) == ["c"]
    assert again.done == {"a"} and again.refused["b"].reason == "round over"
    assert not again.put("a", "{}") and not again.put("b", "{}")


def test_a_torn_last_append_is_cut_back_and_the_whole_file_kept(tmp_path: Path) -> None:
    storage = StateDirectory(tmp_path)
    box = Outbox(storage)
    box.put("a", "{}")
    box.put("b", '{"x": "' + "y" * 40 + '"}')
    data = storage.read_bytes(OUTBOX) or b""
    storage.truncate(OUTBOX, len(data) - 10)
    again = Outbox(storage)
    assert list(again.pending) == ["a"]
    assert again.problem is not None and "torn" in again.problem
    kept = list((tmp_path / "damaged").iterdir())
    assert len(kept) == 1 and kept[0].read_bytes() == data[:-10]
    assert again.put("b", "{}")  # the file goes on after the cut
    assert list(Outbox(storage).pending) == ["a", "b"]


def test_compaction_rewrites_the_file_without_forgetting(tmp_path: Path) -> None:
    storage = StateDirectory(tmp_path)
    box = Outbox(storage)
    for number in range(300):
        box.put(f"id{number}", '{"long": "' + "x" * 200 + '"}')
    box.put("wait", "{}")
    box.put("no", "{}")
    box.acknowledge("no", "refused", "why")
    before = storage.size(OUTBOX) or 0
    for number in range(300):
        box.acknowledge(f"id{number}", "duplicate" if number % 2 else "stored")
    assert (storage.size(OUTBOX) or 0) < before  # compacted on the way
    again = Outbox(storage)
    assert list(again.pending) == ["wait"]
    assert again.done == {f"id{number}" for number in range(300)}
    assert set(again.refused) == {"no"}


GOOD = """
[tournament]
broker = "mqtt://hub.local:1883"
event = "dm2026"
table = 7
password = "s3cret"
"""


def test_a_tournament_section_switches_the_table_on(tmp_path: Path) -> None:
    assert config_from_toml("").tournament == TournamentConfig()
    settings = config_from_toml(GOOD).tournament
    assert settings.enabled and settings.table == 7 and settings.resend_s == 30.0
    assert not config_from_toml(GOOD + "enabled = false\n").tournament.enabled
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    text = GOOD.replace("mqtt://hub.local:1883", "mqtts://hub.local:8883") + 'ca_file = "ca.pem"\n'
    assert config_from_toml(text, base_dir=tmp_path).tournament.ca_file == str(ca)


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (("mqtt://hub.local:1883", "http://hub.local"), "tournament.broker"),
        (("mqtt://hub.local:1883", "mqtt://:1883"), "tournament.broker"),
        (('"dm2026"', '"DM 2026"'), "tournament.event"),
        (("table = 7", "table = 0"), "tournament.table"),
        (("table = 7", "table = '7'"), "tournament.table"),
        (('"s3cret"', '""'), "tournament.password"),
        (('"s3cret"', '"two words"'), "tournament.password"),
        (("table = 7", 'table = 7\nca_file = "missing.pem"'), "tournament.ca_file"),
        (("table = 7", "table = 7\nresend_s = 0"), "tournament.resend_s"),
        (("table = 7", "table = 7\ncolour = 1"), "tournament.colour"),
    ],
)
def test_a_bad_tournament_key_is_named_in_one_line(change: tuple[str, str], names: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_toml(GOOD.replace(*change), origin="config.toml")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("config.toml: ") and names in message


def test_a_reporter_leaves_another_tournaments_results_alone(tmp_path: Path) -> None:
    storage = StateDirectory(tmp_path)
    Outbox(storage).put("cup25/table-7/r1/g1/game", "{}")
    reporter = Reporter(TableIdentity("cup26", 7), storage, clock=FakeClock(0.0),
                        wall=lambda: 0.0)
    assert reporter.waiting() == {} and reporter.state().pending == 0
    assert reporter.outbox.knows("cup25/table-7/r1/g1/game")  # kept, never deleted


def test_an_unreadable_outbox_never_stops_the_device_nor_is_overwritten(
    tmp_path: Path, mocker: MockerFixture,
) -> None:
    storage = StateDirectory(tmp_path)
    Outbox(storage).put("cup26/table-7/r1/g1/game", "{}")
    before = storage.read_bytes(OUTBOX)
    read = storage.read_bytes

    def failing(name: str) -> bytes | None:
        if name == OUTBOX:
            raise StorageError(f"cannot read {tmp_path / OUTBOX}: input/output error (EIO)")
        return read(name)

    mocker.patch.object(storage, "read_bytes", side_effect=failing)
    reporter = Reporter(TableIdentity("cup26", 7), storage, clock=FakeClock(0.0),
                        wall=lambda: 0.0)
    assert reporter.outbox.broken and "input/output error" in (reporter.state().failure or "")
    with pytest.raises(StorageError):
        reporter.outbox.put("cup26/table-7/r1/g2/game", "{}")
    reporter.outbox.compact()
    assert read(OUTBOX) == before
