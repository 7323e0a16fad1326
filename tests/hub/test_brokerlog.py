"""Reading mosquitto's log for what it denied (firmware/hub/brokerlog.py), from lines as
Debian's mosquitto 2.0.11 writes them, and following the file through truncation and rotation."""

from __future__ import annotations

from pathlib import Path

from firmware.hub.brokerlog import BrokerLog, Denial, denials_in
from firmware.wire.broker import table_may_read

#: Lines of a real log (log_type debug and subscribe), the topics as a table may and may not.
LOG = """\
1796178872: New client connected from 127.0.0.1:39839 as table-1 (p5, c0, k60, u'table-1').
1796178872: Received SUBSCRIBE from table-1
1796178872: \tschock/# (QoS 1)
1796178872: table-1 1 schock/#
1796178872: table-1 1 schock/dm2026/ack/table-1
1796178872: table-1 1 schock/+/standings
1796178872: table-1 0 schock/dm2026/ack/table-2
1796178872: hub 1 schock/dm2026/table/+/result
1796178872: Sending SUBACK to table-1
1796178872: Denied PUBLISH from table-1 (d0, q1, r0, m3, 'schock/dm2026/table/table-2/result', \
... (10 bytes))
1796178872: Sending PUBACK to table-1 (m3, rc135)
1796178872: Received PUBLISH from table-2 (d0, q1, r0, m4, 'schock/dm2026/table/table-2/result', \
... (261 bytes))
"""


def test_denied_publishes_and_subscriptions_beyond_a_tables_rights_are_found() -> None:
    assert denials_in(LOG.splitlines()) == [
        Denial("table-1", "subscribe", "schock/#"),
        Denial("table-1", "subscribe", "schock/dm2026/ack/table-2"),
        Denial("table-1", "publish", "schock/dm2026/table/table-2/result"),
    ]


def test_a_tables_rights_as_the_acl_gives_them() -> None:
    assert table_may_read("table-3", "schock/dm2026/assign/table-3")
    assert table_may_read("table-3", "schock/+/round")
    assert table_may_read("table-3", "schock/dm2026/refill")  # every table subscribes to it
    assert not table_may_read("table-3", "schock/dm2026/assign/+")
    assert not table_may_read("table-3", "schock/dm2026/#")
    assert not table_may_read("table-3", "schock/#/standings")


def test_the_log_is_followed_from_its_end_through_truncation_and_rotation(tmp_path: Path) -> None:
    path = tmp_path / "mosquitto.log"
    lines = LOG.splitlines(keepends=True)
    path.write_text("".join(lines[:4]))
    log = BrokerLog(path)  # a first start: what was there before is not counted
    assert log.read() == []
    with path.open("a") as out:
        out.write(lines[9][:40])  # half a line: read when it is whole
    assert log.read() == []
    with path.open("a") as out:
        out.write(lines[9][40:])
    assert [d.kind for d in log.read()] == ["publish"]
    resumed = BrokerLog(path, log.position)  # a restart goes on where it stopped
    path.write_text(lines[3])  # truncated (as logrotate's copytruncate does): from its start
    assert [d.topic for d in resumed.read()] == ["schock/#"]
    path.rename(tmp_path / "mosquitto.log.1")
    path.write_text(lines[6])  # rotated: the new file from its start
    assert [d.topic for d in resumed.read()] == ["schock/dm2026/ack/table-2"]
    path.unlink()
    assert resumed.read() == []
