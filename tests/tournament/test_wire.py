"""The tournament's messages (firmware/wire/messages.py) and the MQTT link (hal/mqtt.py)
against Debian's mosquitto, configured as the product configures it."""

from __future__ import annotations

import json
import queue
import socket
import subprocess

import pytest

from engine import GameSetup, Rules
from engine.scoring import game_result
from engine.tournament import PhaseKind
from firmware.wire.messages import (
    Ack,
    Assignment,
    RefillRequest,
    Result,
    TableStatus,
    WireError,
    ack_topic,
    refill_answer_topic,
    refill_topic,
    result_topic,
    seat_topic,
    status_topic,
    table_number,
    table_of_topic,
    table_user,
)
from hal.mqtt import MqttError, MqttLink, MqttSettings, Will
from tests.broker import Broker
from tests.engine.randomplay import play_random_game


def finished_result(seed: int = 3) -> Result:
    rules = Rules()
    game = play_random_game(4, rules, seed)
    result = game_result(GameSetup(game.players, rules), game.actions)
    return Result.from_game("cup26", table_user(7), 2, 1, result)


def test_a_game_result_goes_over_the_wire_and_back_unchanged() -> None:
    result = finished_result()
    again = Result.from_json(result.to_json())
    assert again == result
    assert again.id == "cup26/table-7/r2/g1/game"
    assert again.game_result() == result.game_result()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"v": 2}, "version"),
        ({"loser": "Nobody"}, "not at the table"),
        ({"round": 0}, "round must be"),
        ({"table": "Table 7"}, "lower-case"),
        ({"id": "cup26/table-8/r2/g1/game"}, "does not match"),
        ({"kind": "set"}, "kind must be"),
        ({"half_losers": ["P0"]}, "half_losers"),
        ({"players": ["P0", "P0"]}, "twice"),
    ],
)
def test_a_malformed_result_is_refused_in_one_line(change: dict[str, object], words: str) -> None:
    payload = json.loads(finished_result().to_json())
    payload.update(change)
    with pytest.raises(WireError, match=words) as caught:
        Result.from_json(json.dumps(payload))
    assert "\n" not in str(caught.value)


def test_losers_that_no_game_could_have_are_refused() -> None:
    payload = json.loads(finished_result().to_json())
    first, second = payload["half_losers"]
    payload["final_loser"] = next(p for p in payload["players"] if p not in (first, second))
    payload["loser"] = payload["final_loser"]
    with pytest.raises(WireError, match="final"):
        Result.from_json(json.dumps(payload))


def test_not_json_and_not_an_object_are_refused() -> None:
    for raw in (b"\xff\xfe", b"[1]", b"{", b""):
        with pytest.raises(WireError):
            Result.from_json(raw)


def test_topics_name_the_table_as_a_whole_level() -> None:
    assert table_of_topic(result_topic("cup26", "table-7")) == ("cup26", "table-7", "result")
    assert table_of_topic(ack_topic("cup26", "table-7")) is None
    assert table_of_topic("schock/cup26/table/table-7/result/x") is None


def test_a_refill_request_goes_and_comes_back_and_its_answers_stay_below_the_table() -> None:
    asked = RefillRequest("cup26", 1_800_000_000.5)
    assert RefillRequest.from_json(asked.to_json()) == asked
    for bad, words in ((b'{"v": 1, "event": "cup26"}', "asked_at must be a time"),
                       (b'{"v": 1, "event": "Cup 26", "asked_at": 1}', "event")):
        with pytest.raises(WireError, match=words) as refused:
            RefillRequest.from_json(bad)
        assert "\n" not in str(refused.value)
    assert refill_topic("cup26") == "schock/cup26/refill"
    # A table answers on topics of its own, which the ACL lets only it write.
    for topic in (refill_answer_topic("cup26", "table-7"), seat_topic("cup26", "table-7")):
        where = table_of_topic(topic)
        assert where is not None and where[:2] == ("cup26", "table-7")


def test_an_assignment_checks_its_clock() -> None:
    assignment = Assignment(
        "cup26", 1, "table-7", 7, ("Anna", "Ben", "Cem", "Dora"), 100.0, 4300.0,
        {"preset": "platzpunkte"},
    )  # fmt: skip
    assert Assignment.from_json(assignment.to_json()) == assignment
    payload = json.loads(assignment.to_json())
    payload["ends_at"] = 50.0
    with pytest.raises(WireError, match="after starts_at"):
        Assignment.from_json(json.dumps(payload))


def test_an_assignment_carries_the_tables_number_and_the_engines_round_kind() -> None:
    """No German word on the wire: the table's number, and the round's kind as the engine's
    PhaseKind; an earlier hub's assignment with its German label still reads."""
    assignment = Assignment(
        "cup26", 2, "table-7", 7, ("Anna", "Ben"), 100.0, None, {"preset": "leben"},
        PhaseKind.KO, (("Anna", 2), ("Ben", 1)),
    )  # fmt: skip
    payload = json.loads(assignment.to_json())
    assert (payload["number"], payload["kind"]) == (7, "ko") and "label" not in payload
    assert Assignment.from_json(assignment.to_json()) == assignment
    earlier = {key: value for key, value in payload.items() if key != "number"}
    earlier["label"] = "Tisch 7"
    assert Assignment.from_json(json.dumps(earlier)) == assignment
    for bad, reason in (
        ({**payload, "kind": "knockout"}, "kind must be points, ko or trost"),
        ({**payload, "number": 0}, "number must be a whole number 1-9999"),
        ({**earlier, "table": "hub-7"}, "table 'hub-7' is not a table's name"),
    ):
        with pytest.raises(WireError, match=reason):
            Assignment.from_json(json.dumps(bad))
    with pytest.raises(WireError, match="number must be a whole number"):
        Assignment.from_json(json.dumps({k: v for k, v in payload.items() if k != "number"}))


def test_table_names() -> None:
    assert table_user(7) == "table-7" and table_number("table-7") == 7
    assert [table_number(n) for n in ("table-07", "table-0", "hub", "table-x")] == [None] * 4


def test_a_bad_broker_url_is_one_line() -> None:
    for url in ("http://hub", "mqtt://", "mqtt://hub:99999", "mqtt://hub:x"):
        with pytest.raises(MqttError):
            MqttSettings(url=url, client_id="t")


def link(broker: Broker, user: str, client_id: str, inbox: queue.Queue[tuple[str, bytes]],
         will: Will | None = None) -> MqttLink:  # fmt: skip
    return MqttLink(
        MqttSettings(
            url=broker.url,
            client_id=client_id,
            username=user,
            password=broker.passwords[user],
            will=will,
        ),
        on_message=lambda topic, payload: inbox.put((topic, payload)),
    )


def saved_database(broker: Broker) -> bytes:
    """The broker's saved database as it is on disk now (a message's payload is in it as sent)."""
    try:
        return (broker.data / "mosquitto.db").read_bytes()
    except FileNotFoundError:
        return b""


def test_a_result_queued_for_an_absent_hub_survives_a_kill_9_of_the_broker(broker: Broker) -> None:
    """The broker's persistence as configured: a QoS 1 message for a persistent session that is
    away is on disk when the broker dies, and reaches the session when both are back."""
    table, _ = broker.add_table(7)
    hub_inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    hub = link(broker, "hub", "hub", hub_inbox)
    hub.subscribe("schock/+/table/+/result")
    hub.start()
    assert hub.wait_connected(5)
    hub.stop()  # away, its session kept by the broker

    sender = link(broker, table, table, queue.Queue())
    sender.start()
    assert sender.wait_connected(5)
    result = finished_result()
    delivery = sender.publish(result_topic("cup26", table), result.to_json())
    for _ in range(100):
        if delivery.done():
            break
        subprocess.run(["sleep", "0.05"], check=True)
    assert delivery.done()
    sender.stop()
    for _ in range(250):  # saved on the change, at most one autosave_interval (1 s) later
        if result.to_json() in saved_database(broker):
            break
        subprocess.run(["sleep", "0.02"], check=True)
    assert result.to_json() in saved_database(broker), "the result is not on disk"
    broker.kill()
    broker.start()

    hub.start()
    topic, payload = hub_inbox.get(timeout=10)
    hub.stop()
    assert topic == result_topic("cup26", table)
    assert Result.from_json(payload) == result


def test_the_last_will_marks_a_vanished_table_offline(broker: Broker) -> None:
    table, _ = broker.add_table(3)
    offline = TableStatus(table, online=False)
    table_link = link(
        broker, table, table, queue.Queue(),
        will=Will(status_topic("cup26", table), offline.to_json()),
    )  # fmt: skip
    # paho waits out its reconnect delay (1 s) in the stop below: a short one, as the check is
    # what the broker says of the vanished table, not when the table would try again.
    table_link._client.reconnect_delay_set(min_delay=0.05, max_delay=0.1)  # type: ignore[arg-type]
    table_link.start()
    assert table_link.wait_connected(5)
    hub_inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    hub = link(broker, "hub", "hub-watch", hub_inbox)
    hub.subscribe(status_topic("cup26", table))
    hub.start()
    assert hub.wait_connected(5)
    # The table's network goes without a goodbye: paho's socket is shut and closed under it
    # (closed alone, the broker would learn of it only from paho's reconnect, a second later).
    gone = table_link._client.socket()
    assert gone is not None
    gone.shutdown(socket.SHUT_RDWR)  # the connection ends at once: no DISCONNECT, only a FIN
    gone.close()
    _topic, payload = hub_inbox.get(timeout=30)
    assert TableStatus.from_json(payload).online is False
    table_link.stop()
    hub.stop()

    assert Ack.from_json(Ack("x", "stored").to_json()).status == "stored"
