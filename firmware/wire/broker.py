"""Mosquitto's configuration for a tournament: its settings, users and ACL, as text.

The installer (``deploy/install.sh --hub``), ``make tournament-demo`` and the tests write the
broker's files from these functions, so the three run the same broker.

Persistence is what keeps a result the broker has accepted through a ``kill -9``: mosquitto
saves its in-memory database only every ``autosave_interval`` seconds (1800 by default), and a
crash loses what came since. Checked on Debian 12's mosquitto 2.0.11: with the default, a
``kill -9`` lost all of 1,000 queued QoS 1 results; with ``autosave_interval 1`` and
``autosave_on_changes true`` it lost none.

Identity: ``use_username_as_clientid true`` makes every login its own client id, whatever id
the client sends, so a table's password can only ever be that table's client and session, never
the hub's nor another table's (docs/tournament.md, "Who a login is", says why this and not a
listener of the hub's own or ACL patterns on ``%c``).

Denials: mosquitto 2.0 logs a publish its ACL refuses ("Denied PUBLISH from table-1 (...)") only
at its ``debug`` level, and grants every subscription, checking the read ACL on each delivery; a
broker that writes its log to a file (``log_file``) logs at ``debug`` and its subscriptions too,
so that the hub can count both from that file (:mod:`firmware.hub.brokerlog`).
"""

from __future__ import annotations

from pathlib import Path

from firmware.wire.messages import ROOT

__all__ = ["HUB_USER", "WATCH_USER", "acl_text", "mosquitto_conf", "table_may_read"]

#: The hub's broker user: the one that reads and writes the whole tree. A login is its client
#: (``use_username_as_clientid``): only one client at a time may use it, the hub's ``serve``.
HUB_USER = "hub"
#: A login that only reads what the hall sees (the round and the standings): for a check or a
#: second screen beside the hub, which must not log in as the hub and so close its session.
WATCH_USER = "watch"
#: Messages the broker queues per client that is away. The hub's session takes every table's
#: results while the hub is down: 150 tables with 10 games of 4 results each would be 6,000, and
#: mosquitto's default of 1,000 drops the rest silently.
MAX_QUEUED_MESSAGES = 100_000


def mosquitto_conf(
    *,
    port: int,
    persistence_dir: Path | None,
    password_file: Path,
    acl_file: Path,
    bind: str | None = "127.0.0.1",
    log_file: Path | None = None,
    log_denials: bool | None = None,
) -> str:
    """A whole mosquitto.conf: one listener, saved to disk on every change, no anonymous users.

    ``persistence_dir`` None leaves the folder to the including file: Debian's
    /etc/mosquitto/mosquitto.conf sets ``persistence_location /var/lib/mosquitto/`` and
    includes /etc/mosquitto/conf.d/, and mosquitto refuses a second value. ``bind`` None
    listens on every address (a hub that the tables reach over the venue's network).

    ``log_file`` is the broker's log (stderr if None). ``log_denials`` (by default: with a
    ``log_file``) adds the log types the hub counts denials from; with no ``log_file`` it leaves
    the destination to the including file, whose ``log_dest file`` mosquitto takes only once
    (Debian's logs to /var/log/mosquitto/mosquitto.log).
    """
    if log_denials is None:
        log_denials = log_file is not None
    lines = [
        "# Written by Schockbesteck (firmware/wire/broker.py): the tournament's broker.",
        f"listener {port}" if bind is None else f"listener {port} {bind}",
        "# A login is its client: a table's password never takes the hub's or another table's",
        "# session (whatever client id it sends, the broker uses its user name).",
        "use_username_as_clientid true",
        "allow_anonymous false",
        f"password_file {password_file}",
        f"acl_file {acl_file}",
        "# Saved on every change, at most a second late: a kill -9 keeps what was accepted.",
        "persistence true",
    ]
    if persistence_dir is not None:
        # mosquitto joins the folder and the file name as they are: the slash matters.
        lines.append(f"persistence_location {persistence_dir}/")
    lines += [
        "autosave_interval 1",
        "autosave_on_changes true",
        "# While the hub is away its session queues every table's results: 150 tables with 10",
        "# games of 4 results are 6,000, and the default of 1,000 drops the rest silently.",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        "max_inflight_messages 100",
        "persistent_client_expiration 2d",
    ]
    if log_file is not None:
        lines.append(f"log_dest file {log_file}")
    elif not log_denials:
        lines.append("log_dest stderr")
    lines.append("log_type error")
    lines.append("log_type warning")
    lines.append("log_type notice")
    if log_denials:
        lines += [
            "# For the hub's count of denials (schocken hub serve --broker-log): mosquitto logs a",
            "# publish its ACL refuses only at debug, and each subscription as its own type.",
            "log_type debug",
            "log_type subscribe",
        ]
    return "\n".join(lines) + "\n"


#: What a table reads, as ACL patterns (``%u``: the table's user): the one list the ACL and
#: :func:`table_may_read` are made from.
_TABLE_READS = (
    f"{ROOT}/+/ack/%u",
    f"{ROOT}/+/assign/%u",
    f"{ROOT}/+/round",
    f"{ROOT}/+/standings",
    f"{ROOT}/+/refill",
)


def table_may_read(user: str, topic_filter: str) -> bool:
    """Whether every topic ``topic_filter`` can match is one the ACL lets table ``user`` read.

    mosquitto 2.0 grants any subscription and checks the ACL on each delivery: a subscription
    beyond this (``schock/#``, another table's acks) gets nothing it may not read, and the hub
    counts it as denied."""
    levels = topic_filter.split("/")
    for pattern in _TABLE_READS:
        want = pattern.replace("%u", user).split("/")
        if len(want) == len(levels) and all(
            level == mine or (mine == "+" and level != "#")
            for level, mine in zip(levels, want, strict=True)
        ):
            return True
    return False


def acl_text() -> str:
    """The ACL: the hub reads and writes the tree; a table only its own corner of it.

    ``%u`` stands for the connecting user and must be a whole topic level, so a table's user
    name is its topic level (:func:`firmware.wire.messages.table_user`).
    """
    return "\n".join(
        [
            "# Written by Schockbesteck (firmware/wire/broker.py).",
            f"user {HUB_USER}",
            f"topic readwrite {ROOT}/#",
            "",
            f"user {WATCH_USER}",
            f"topic read {ROOT}/+/round",
            f"topic read {ROOT}/+/standings",
            "",
            "# Every other user is a table: it writes below its own table/USER level and reads",
            "# its own acknowledgements and assignment, the round, the standings and a refill.",
            f"pattern write {ROOT}/+/table/%u/#",
            *(f"pattern read {pattern}" for pattern in _TABLE_READS),
            "",
        ]
    )
