"""`schocken hub`: the director's commands on a real tournament file, and their one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from schockbesteck.cli import main


def hub(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = 0
    try:
        code = main(["hub", *args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tournament_from_init_to_the_second_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "dm.db")
    assert hub(capsys, "init", "--event", "dm2026", "--db", db)[0] == 0
    names = [f"S{i}:T{i % 3}" for i in range(9)]
    assert hub(capsys, "players", "add", "--db", db, *names[:6])[1] == (
        "6 Spieler hinzugefügt, 6 angemeldet\n"
    )
    csv_file = tmp_path / "p.csv"
    csv_file.write_text("\ufeffname;team\nS6;T0\nS7;T1\r\nS8;T2\n", encoding="utf-8")
    assert hub(capsys, "players", "import", "--db", db, str(csv_file))[0] == 0
    assert hub(capsys, "players", "list", "--db", db)[1].splitlines()[6:] == names[6:]
    code, out, _ = hub(capsys, "format", "--db", db, "dm", "--minutes", "70", "--scheme",
                       "siegpunkte")  # fmt: skip
    assert code == 0 and "Wertung siegpunkte; Spielzeit 70 min" in out
    code, out, _ = hub(capsys, "draw", "--db", db, "--seed", "3")
    assert out.splitlines()[0] == "Runde 1 ausgelost: 3 Tische"  # 9 players: three Springer
    assert hub(capsys, "start", "--db", db)[1] == "Runde 1 läuft\n"
    code, out, _ = hub(capsys, "standings", "--db", db, "--lang", "en")
    assert code == 0 and "Place  Player  Team  Points" in out
    assert hub(capsys, "finish", "--db", db)[1] == "Runde 1 beendet\n"
    assert hub(capsys, "draw", "--db", db)[0] == 0
    out_csv = tmp_path / "s.csv"
    assert hub(capsys, "export", "--db", db, "csv", "-o", str(out_csv))[0] == 0
    assert out_csv.read_bytes().startswith("\ufeffTurnier dm2026".encode())


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["draw"], "Keine Spieler angemeldet"),
        (["draw", "--lang", "en"], "no players registered"),
        (["start"], "Keine Runde ist ausgelost und wartet"),
        (["players", "add", "Jo|hann"], "must not contain spaces or any of"),
        (["export", "sheet", "-o", "x.pdf"], "export sheet: bitte --round N und --table N"),
        (["export", "sheet", "-o", "x.pdf", "--lang", "en"], "give --round N and --table N"),
        (["serve", "--broker", "mqtt://127.0.0.1:1883"], "der Broker braucht das Passwort"),
        (["serve", "--broker", "http://x"], "the scheme must be mqtt:// or mqtts://"),
    ],
)
def test_a_mistake_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], error: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.delenv("SCHOCKEN_HUB_PASSWORD", raising=False)
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    where = 2 if args[0] == "players" else 1
    code, _out, err = hub(capsys, *args[:where], "--db", db, *args[where:])
    assert code == 2 and error in err and err.count("\n") == 1, err


def test_a_missing_file_and_a_bad_csv_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = hub(capsys, "draw", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "diese Turnierdatei gibt es nicht" in err
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    bad = tmp_path / "p.csv"
    bad.write_text("Ida;Rot\nJo|hann;Blau\n", encoding="utf-8")
    code, _out, err = hub(capsys, "players", "import", "--db", db, str(bad))
    assert code == 2 and f"{bad}:2: player name 'Jo|hann'" in err
    assert hub(capsys, "players", "list", "--db", db)[1] == (  # nothing half imported
        "Noch keine Spieler angemeldet: mit `schocken hub players add` anmelden\n"
    )


def test_status_shows_the_tables_links_the_refusals_and_the_broker_denials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.wire.messages import TableStatus, result_topic, status_topic
    from tests.hub.helpers import EVENT, running_round, tournament

    db = tmp_path / "dm.db"
    hub_ = tournament(db)
    running_round(hub_)
    hub_.store.kept_refusals = 2
    for n in range(3):
        hub_.receive(result_topic(EVENT, "table-1"), b"junk %d" % n, 1001.0)
    away = TableStatus("table-2", online=False, outbox=4, round=1, at=1001.0)
    hub_.receive(status_topic(EVENT, "table-2"), away.to_json(), 1001.0)
    hub_.store.count_denials([("table-1", "publish", result_topic(EVENT, "table-2"))], 1002.0,
                             "1:10")  # fmt: skip
    code, out, _ = hub(capsys, "status", "--db", str(db), "--lang", "en")
    assert code == 0
    lines = out.splitlines()
    assert lines[:5] == [
        f"Event {EVENT}; round 1 running",
        "The hub's broker link: no `schocken hub serve` has run",
        "Tables: 0 of 2 online when the hub last heard from its broker",
        "  Table 1: offline",
        "  Table 2: 4 not yet reported (offline)",
    ]
    assert "Refused: 3 (`schocken hub refusals`)" in lines
    assert "Denied by the broker: 1" in lines
    assert any(line.startswith("  table-1: 1 publishes") for line in lines)
    code, out, _ = hub(capsys, "refusals", "--db", str(db), "--lang", "en")
    assert out.splitlines()[-1] == "table-1: 3 refused, the first 2 kept"
    code, out, _ = hub(capsys, "refusals", "--db", str(db))
    assert out.splitlines()[-1] == "table-1: 3 abgewiesen, die ersten 2 aufbewahrt"


def test_finish_warns_of_tables_with_unreported_results_and_needs_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.wire.messages import TableStatus, status_topic
    from tests.hub.helpers import EVENT, running_round, tournament

    db = tmp_path / "dm.db"
    hub_ = tournament(db)
    running_round(hub_)
    for user, online, outbox in (("table-1", True, 2), ("table-2", False, 5)):
        status = TableStatus(user, online, outbox, 1, 1001.0)
        hub_.receive(status_topic(EVENT, user), status.to_json(), 1001.0)
    code, out, err = hub(capsys, "finish", "--db", str(db))
    assert code == 2 and out.splitlines() == [
        "Runde 1: an diesen Tischen ist noch nicht alles gemeldet:",
        "  Tisch 1: 2 noch nicht gemeldet (verbunden)",
        "  Tisch 2: 5 noch nicht gemeldet (nicht verbunden)",
    ]
    assert err.count("\n") == 1 and "--yes" in err
    row = hub_.store.round(1)
    assert row is not None and row.state == "running"
    code, out, _ = hub(capsys, "finish", "--db", str(db), "--yes", "--lang", "en")
    assert code == 0 and out.splitlines()[-1] == "Round 1 finished"
    assert "  Table 2: 5 not yet reported (offline)" in out.splitlines()


def test_status_lists_a_connected_table_that_holds_results_as_finish_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.wire.messages import TableStatus, status_topic
    from tests.hub.helpers import EVENT, running_round, tournament

    db = tmp_path / "dm.db"
    hub_ = tournament(db)
    running_round(hub_)
    for user, outbox in (("table-1", 1), ("table-2", 0)):
        status = TableStatus(user, True, outbox, 1, 1001.0)
        hub_.receive(status_topic(EVENT, user), status.to_json(), 1001.0)
    lines = hub(capsys, "status", "--db", str(db))[1].splitlines()
    assert [line for line in lines if line.startswith("  ")] == [
        "  Tisch 1: 1 noch nicht gemeldet (verbunden)"  # table 2 holds nothing: not listed
    ]


def test_empty_lists_say_so_in_the_runs_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    assert hub(capsys, "results", "--db", db)[1] == "Keine Ergebnisse in dieser Auswahl.\n"
    assert hub(capsys, "desk", "--db", db, "--lang", "en")[1] == (
        "No result changed at the desk yet\n"
    )


def test_finish_without_unreported_results_needs_no_yes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.hub.helpers import running_round, tournament

    db = tmp_path / "dm.db"
    running_round(tournament(db))
    assert hub(capsys, "finish", "--db", str(db)) == (0, "Runde 1 beendet\n", "")


#: Words only the hub's English lines have (a topic's "table" level and an id's "game" aside).
ENGLISH = ("event ", "round ", "running", "finished", "online", "offline", "refused", "denied",
           "broker link", " since ", " kept", " the ", "publishes", "not reported", " is ")


def test_status_and_refusals_in_german_have_no_english_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.wire.messages import TableStatus, result_topic, status_topic
    from tests.hub.helpers import EVENT, game_result, running_round, tournament

    db = tmp_path / "dm.db"
    hub_ = tournament(db)
    seats = running_round(hub_)
    away = TableStatus("table-2", online=False, outbox=4, round=1, at=1001.0)
    hub_.receive(status_topic(EVENT, "table-2"), away.to_json(), 1001.0)
    hub_.store.count_denials([("table-1", "publish", result_topic(EVENT, "table-2"))], 1002.0,
                             "1:10")  # fmt: skip
    hub_.finish_round(confirmed=True)
    hub_.receive(result_topic(EVENT, "table-1"), game_result(seats[0], 1).to_json(), 1003.0)
    code, status, _ = hub(capsys, "status", "--db", str(db))
    assert code == 0 and status.splitlines()[:2] == [
        f"Turnier {EVENT}; Runde 1 beendet",
        "Verbindung des Hubs zum Broker: noch kein `schocken hub serve` gelaufen",
    ]
    assert "  Tisch 2: 4 noch nicht gemeldet (nicht verbunden)" in status.splitlines()
    code, refusals, _ = hub(capsys, "refusals", "--db", str(db))
    assert code == 0 and refusals.splitlines()[0].endswith(": Runde 1 ist beendet")
    for out in (status, refusals):
        assert not [word for word in ENGLISH if word in out], out
    english = hub(capsys, "refusals", "--db", str(db), "--lang", "en")[1]
    assert english.splitlines()[0].endswith(": round 1 is finished")


@pytest.mark.parametrize(
    ("lang", "refill", "draw"),
    [
        ("de", "refill: zuerst die Spieler anmelden (dieselbe Liste wie zuvor)",
         "Runde 1 läuft: erst beenden, dann die nächste auslosen"),
        ("en", "refill: register the players first (the same roster as before)",
         "round 1 is running: finish it before the next draw"),
    ],
)  # fmt: skip
def test_refill_without_players_and_a_draw_while_a_round_runs_refuse_in_the_runs_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    lang: str, refill: str, draw: str,
) -> None:  # fmt: skip
    from tests.hub.helpers import running_round, tournament

    monkeypatch.setenv("LANG", "en_GB.UTF-8" if lang == "en" else "de_DE.UTF-8")
    empty = str(tmp_path / "empty.db")
    hub(capsys, "init", "--event", "dm2026", "--db", empty)
    assert hub(capsys, "refill", "--db", empty) == (2, "", f"schocken hub: error: {refill}\n")
    db = tmp_path / "dm.db"
    running_round(tournament(db))
    assert hub(capsys, "draw", "--db", str(db)) == (2, "", f"schocken hub: error: {draw}\n")
    code, out, _ = hub(capsys, "status", "--db", str(db))
    first = {"de": "Turnier dm2026; Runde 1 läuft", "en": "Event dm2026; round 1 running"}
    assert code == 0 and out.splitlines()[0] == first[lang]


def test_every_format_is_described_in_both_languages_the_english_its_own() -> None:
    from engine.tournament import FORMAT_PRESETS
    from firmware.cli.hub import FORMAT_DESCRIPTIONS
    from firmware.hub.hub_words import HubWords

    assert set(FORMAT_DESCRIPTIONS) == set(FORMAT_PRESETS)
    for name, key in FORMAT_DESCRIPTIONS.items():
        assert HubWords("en").t(key) == FORMAT_PRESETS[name].source
