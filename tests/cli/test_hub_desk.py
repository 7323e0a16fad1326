"""The director's desk on the command line (`schocken hub paper|correct|void|accept|results|desk`)
on a real tournament file: each action checked as a table's report is, who, when and why kept,
and the standings recounted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.hub.desk import DeskError, TableCard
from firmware.hub.hub import Hub
from firmware.hub.hub_words import HubWords
from firmware.hub.store import HubStore
from firmware.wire.messages import Result, result_topic
from tests.cli.test_hub_cli import hub as run
from tests.hub.helpers import EVENT, game_result, running_round, tournament


def lost(db: Path) -> dict[str, int]:
    """Games lost per player, recounted from the file as another process would."""
    return {line.name: line.games_lost for line in Hub(HubStore(db)).progress().lines}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "dm.db"
    running_round(tournament(path))
    return path


def test_a_paper_table_card_is_stored_as_the_tables_own_report(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = HubStore(db).seats(1)[1]
    a, b = seat.players[0], seat.players[1]
    code, out, err = run(capsys, "paper", "--db", str(db), "--round", "1", "--table", "2",
                         "--game", "1", "--halves", f"{a},{b}", "--final", b, "--who", "Vera",
                         "--schock-aus", f"{a}:1")  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0] == f"{EVENT}/table-2/r1/g1/game: von der Papierkarte gespeichert"
    assert f"  {b}: " in out and " Punkte, 1 verloren" in out  # the line it changed, recounted
    assert lost(db)[b] == 1 and sum(lost(db).values()) == 1
    (stored,) = HubStore(db).results()
    assert stored.origin == "paper"
    report = Result.from_json(stored.payload)  # what a table would have sent
    assert (report.table, report.loser, report.schock_aus_hand) == ("table-2", b, ((a, 1),))
    (row,) = HubStore(db).desk()
    assert (row.who, row.action, row.why) == ("Vera", "paper", "Papier-Tischkarte")
    assert row.before == ""
    # The table's own checks: a loser not at the table is one line, nothing stored.
    code, _out, err = run(capsys, "paper", "--db", str(db), "--round", "1", "--table", "2",
                          "--game", "2", "--halves", f"{a},Nobody", "--final", a,
                          "--who", "V")  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and "»Nobody« spielt nicht an diesem Tisch" in err
    assert len(HubStore(db).results()) == 1


A, B, C, D = "Anna", "Bernd", "Cem", "Dora"
#: Cards against the rules: (the card, German line, English line), said by the desk itself
#: (the wire's checks would say the same in English, "result: ...").
WRONG_CARDS = [
    (TableCard(f"{A},{B}", C), f"Das Finale spielen die Verlierer der Hälften ({A}, {B}), "
     f"nicht »{C}«", f"the final is played by the halves' losers ({A}, {B}), not '{C}'"),
    (TableCard(f"{A},{B}"), f"Die Hälften verloren {A} und {B}: wer hat das Finale verloren?",
     f"{A} and {B} lost the halves: who lost the final?"),
    (TableCard(f"{A},{A}", B), f"{A} hat beide Hälften verloren (Durchmarsch): kein Finale, "
     f"»{B}« beim Finale weglassen",
     f"{A} lost both halves (Durchmarsch): there is no final, leave out '{B}'"),
    (TableCard(f"{A},{B}", A, out2=f"{C}+{B},{B}"),
     f"Hälfte 2: »{B}« ist zweimal als raus genannt", f"half 2: '{B}' is named twice as out"),
]  # fmt: skip


@pytest.mark.parametrize(("card", "german", "english"), WRONG_CARDS)
def test_a_card_against_the_rules_is_refused_in_the_desks_own_words(
    card: TableCard, german: str, english: str
) -> None:
    with pytest.raises(DeskError) as refused:
        card.game((A, B, C, D))
    assert refused.value.said(HubWords("de")) == german
    assert refused.value.said(HubWords("en")) == english


def test_a_paper_card_naming_a_player_twice_is_one_german_line_nothing_stored(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = HubStore(db).seats(1)[0].players[:2]
    for players, line in ((f"{a},{b},{a}", f"Spieler: »{a}« ist zweimal genannt"),
                          (a, f"Spieler {a}: mindestens zwei nennen, A,B,C")):  # fmt: skip
        code, out, err = run(capsys, "paper", "--db", str(db), "--round", "1", "--table", "1",
                             "--game", "1", "--halves", f"{a},{a}", "--players", players,
                             "--who", "V")  # fmt: skip
        assert (code, out, err) == (2, "", f"schocken hub: error: {line}\n")
    code, _out, err = run(capsys, "paper", "--db", str(db), "--round", "1", "--table", "1",
                          "--game", "1", "--halves", f"{a},{b}", "--who", "V", "--lang", "en")
    assert err == f"schocken hub: error: {a} and {b} lost the halves: who lost the final?\n"
    assert HubStore(db).results() == []


def test_a_stored_result_corrected_and_voided_recounts_and_keeps_who_when_why(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub = Hub(HubStore(db))
    seat = hub.store.seats(1)[0]
    sent = game_result(seat, 1)  # lost by players[0]
    hub.receive(result_topic(EVENT, "table-1"), sent.to_json(), 1001.0)
    first, second = seat.players[0], seat.players[1]
    assert lost(db)[first] == 1
    code, out, err = run(capsys, "correct", "--db", str(db), sent.id, "--halves",
                         f"{second},{first}", "--final", second, "--who", "Vera",
                         "--why", "the card says Bernd lost the final")  # fmt: skip
    assert code == 0, err
    assert lost(db)[first] == 0 and lost(db)[second] == 1
    assert out.splitlines()[0] == f"{sent.id}: korrigiert"
    (row,) = HubStore(db).desk()
    assert (row.action, row.who) == ("correct", "Vera")
    assert row.why == "the card says Bernd lost the final"
    assert json.loads(row.before)["loser"] == first and json.loads(row.after)["loser"] == second
    # The table's own copy sent again is a duplicate now: the director's word stands.
    again = hub.receive(result_topic(EVENT, "table-1"), sent.to_json(), 1002.0)
    assert json.loads(again[0].payload)["status"] == "duplicate"
    code, out, _ = run(capsys, "void", "--db", str(db), sent.id, "--who", "Vera",
                       "--why", "replayed")  # fmt: skip
    assert code == 0 and sum(lost(db).values()) == 0
    assert run(capsys, "results", "--db", str(db))[1] == "Keine Ergebnisse in dieser Auswahl.\n"
    assert [r.action for r in HubStore(db).desk()] == ["correct", "void"]
    desk = run(capsys, "desk", "--db", str(db))[1].splitlines()
    assert desk[-1].endswith(f"Vera: gestrichen {sent.id}: replayed")
    code, _out, err = run(capsys, "void", "--db", str(db), sent.id, "--who", "V", "--why", "x")
    assert code == 2 and "nichts zu streichen" in err


def test_a_refused_late_result_is_accepted_and_counted(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hub = Hub(HubStore(db))
    seat = hub.store.seats(1)[0]
    hub.finish_round(confirmed=True)
    late = game_result(seat, 4)
    answer = hub.receive(result_topic(EVENT, "table-1"), late.to_json(), 1001.0)
    assert json.loads(answer[0].payload)["status"] == "refused"
    listed = run(capsys, "refusals", "--db", str(db))[1].splitlines()
    number = listed[0].split()[0]
    assert listed[0].endswith(": Runde 1 ist beendet")
    code, out, err = run(capsys, "accept", "--db", str(db), number, "--who", "Vera",
                         "--why", "the table was offline at the bell")  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0] == f"{late.id}: angenommen"
    assert lost(db)[seat.players[0]] == 1
    assert [(r.origin, r.id) for r in HubStore(db).results()] == [("accepted", late.id)]
    assert HubStore(db).desk()[0].action == "accept"
    # Once more: stored already; junk cannot be accepted; each one line.
    assert "ist schon gespeichert" in run(capsys, "accept", "--db", str(db), number, "--who", "V",
                                   "--why", "x")[2]  # fmt: skip
    hub.receive(result_topic(EVENT, "table-1"), b"junk", 1002.0)
    junk = run(capsys, "refusals", "--db", str(db))[1].splitlines()[1].split()[0]
    code, _out, err = run(capsys, "accept", "--db", str(db), junk, "--who", "V", "--why", "x")
    assert code == 2 and err.count("\n") == 1 and "lässt sich nicht annehmen" in err
