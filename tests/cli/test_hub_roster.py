"""`schocken hub players import|add`: a club's roster as clubs keep it, on a real tournament file;
each player under a name the tables' screens show whole, unique at every table; a bad roster is
one line naming its line, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.hub.hub import Hub
from firmware.hub.registration import display_names, full_names
from firmware.hub.store import HubStore
from firmware.names import SHOWN_NAME_LENGTH, name_problem
from schockbesteck.cli import main
from tests.cli.test_hub_cli import hub

GIVEN = (
    "Jürgen", "Jörg", "Bärbel", "Günther", "Käthe", "Hans-Peter", "Anna-Lena", "Özlem", "Zoë",
    "Thomas", "Thorsten", "Maximilian", "Maximiliane", "Ursula", "Björn", "Søren", "Małgorzata",
    "Çağla", "Renée", "Jean-Luc", "Heinz", "Karl-Heinz", "Gisela", "Mareike", "Sven", "Sibylle",
    "Wolfgang", "Dörte", "Ümit", "Agnès", "Friedrich", "Elisabeth",
)  # fmt: skip
FAMILY = (
    "Müller", "Schäfer", "Groß-Bölting", "Köhler", "Neumann", "Wöhrle", "Bäcker", "van der Berg",
    "Schmidt", "Schmitz", "Schulze-Wüsthoff", "Öztürk", "Lüdenscheidt", "Meyer", "Maier",
    "Hoffmann", "Hofmann", "Kowalczyk", "Weiß",
)  # fmt: skip
#: A DM-sized field: 608 players, teams of five (the last one of three).
FIELD = [f"{given} {family}" for family in FAMILY for given in GIVEN]
assert len(FIELD) == 608 and all(" " in name for name in FIELD)


def roster_text(names: list[str], separator: str = ";") -> str:
    rows = [f"Vorname{separator}Nachname{separator}Verein{separator}Mannschaft{separator}Lizenz"]
    for index, name in enumerate(names):
        given, _, family = name.partition(" ")
        club = f"SC Kassel {index // 25}"
        rows.append(separator.join((given, family, club, f"{club}/{index // 5}", str(index))))
    return "\n".join(rows) + "\n"


def test_a_dm_sized_roster_with_spaces_and_umlauts_imports_and_draws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    roster = tmp_path / "verein.csv"
    roster.write_text("\ufeff" + roster_text(FIELD), encoding="utf-8")
    code, out, err = hub(capsys, "players", "import", "--db", db, str(roster))
    assert (code, out, err) == (0, "608 Spieler hinzugefügt, 608 angemeldet\n", "")
    store = HubStore(Path(db))
    entrants = store.players()
    names = [e.name for e in entrants]
    full = full_names(store)
    # Every full name kept as the roster has it, in its order; the teams from Mannschaft.
    assert [full.get(name, name) for name in names] == FIELD
    assert [e.team for e in entrants][:6] == ["SC Kassel 0/0"] * 5 + ["SC Kassel 0/1"]
    # Each plays under a name the rule takes and every table's screen shows whole, unique.
    assert len(set(names)) == 608
    assert all(name_problem(n) is None and len(n) <= SHOWN_NAME_LENGTH for n in names), names
    # As much of the family name as tells the Thomases apart (Müller, Meyer, Maier, Schmidt,
    # Schmitz, Schulze-Wüsthoff, ...), the given name cut where the screen needs it.
    shown = {full: name for full, name in zip(FIELD, names, strict=True)}
    assert [shown[f"Thomas {family}"] for family in ("Müller", "Meyer", "Maier", "Neumann")] == [
        "Thomas.Mü", "Thomas.Me", "Thomas.Ma", "Thomas.N",
    ]  # fmt: skip
    assert [shown[f"Thomas {family}"] for family in ("Schmidt", "Schmitz", "Schulze-Wüsthoff")] == [
        "Tho.Schmid", "Tho.Schmit", "Thoma.Schu",
    ]  # fmt: skip
    # The draw takes them: 152 tables of four, no team mates at one table.
    tables = Hub(store).draw_round(seed=7)
    team = {e.name: e.team for e in entrants}
    assert len(tables) == 152
    assert all(len({team[p] for p in t.players}) == len(t.players) for t in tables)


def test_a_comma_roster_without_bom_or_header_and_the_command_line_take_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    roster = tmp_path / "liste.csv"
    roster.write_text(
        '"Neumann, Vera",Rot\r\nHans-Peter  Müller-Lüdenscheidt,Blau\r\n\r\nÖzlem Kaya,\r\n',
        encoding="utf-8",
    )
    assert hub(capsys, "players", "import", "--db", db, str(roster))[0] == 0
    code, out, _ = hub(capsys, "players", "add", "--db", db, "Vera Schulz:Grün", "Bernd")
    assert (code, out) == (0, "2 Spieler hinzugefügt, 5 angemeldet\n")
    assert hub(capsys, "players", "list", "--db", db)[1].splitlines() == [
        "Vera:Rot  (Vera Neumann)",
        "Hans-Peter:Blau  (Hans-Peter Müller-Lüdenscheidt)",
        "Özlem  (Özlem Kaya)",
        "Vera.S:Grün  (Vera Schulz)",  # "Vera" is taken: the family name's initial
        "Bernd",
    ]


def test_the_club_column_is_the_team_unless_the_director_names_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "dm.db")
    hub(capsys, "init", "--event", "dm2026", "--db", db)
    roster = tmp_path / "r.csv"
    roster.write_text("Name;Verein;Bezirk;Anzeige\nAnna Berg;SV 1;Nord;\nBo Lind;SV 2;Nord;Bolle\n",
                      encoding="utf-8")  # fmt: skip
    code = hub(capsys, "players", "import", "--db", db, str(roster), "--team-column", "bezirk")[0]
    assert code == 0
    assert hub(capsys, "players", "list", "--db", db)[1].splitlines() == [
        "Anna:Nord  (Anna Berg)",
        "Bolle:Nord  (Bo Lind)",  # the director's own display name
    ]


@pytest.fixture(scope="module")
def one_player(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tournament file with Anna Berg, which every bad roster below leaves as it is."""
    db = str(tmp_path_factory.mktemp("roster") / "dm.db")
    assert main(["hub", "init", "--event", "dm2026", "--db", db]) == 0
    assert main(["hub", "players", "add", "--db", db, "Anna Berg:Rot"]) == 0
    return db


@pytest.mark.parametrize(
    ("content", "args", "error"),
    [
        (b"Name;Team\nCem Ak;Rot\nJ\xf6rg Lind;Blau\n", (), "r.csv:3: not UTF-8 text"),
        ("Cem Ak;Rot\n\nBo 😀 Lind;Blau\n".encode(), (), "r.csv:3: player name '😀'"),
        (b"Bo Lind;Blau\nCem Ak;Rot\nbo  lind;blau\n", (),
         "r.csv:3: bo lind (blau) is on "),
        (b"Cem Ak;Rot\nAnna  Berg;Rot\n", (), "r.csv:2: Anna Berg (Rot) is registered"),
        (b"Name;Anzeige\nCem Ak;Annabelle-B\n", (),
         "r.csv:2: display name 'Annabelle-B' has 11 characters"),
        (b"Name;Anzeige\nCem Ak;Bo\nBo Lind;Bo\n", (),
         "r.csv:3: the display name 'Bo' is taken"),
        (b"Name;Anzeige\nCem Ak;Anna\n", (), "r.csv:2: the display name 'Anna' is taken"),
        (b"Name;Verein\nCem Ak;SV\n", ("--team-column", "Land"),
         "r.csv:1: no column 'Land'; the columns are Name, Verein"),
        (("Cem Ak;Rot\n" + "x" * 41 + ";Blau\n").encode(), (),
         "r.csv:2: player 'xxxxxxxxxxxx'… has 41 characters"),
        (b'Cem Ak;Rot\n"Bo Lind;Blau\n', (), "r.csv:2: cannot be read as CSV"),
        (b"Name;Team\n\n", (), "r.csv: no players in it"),
    ],
)  # fmt: skip
def test_a_bad_roster_is_one_line_naming_its_line_and_nothing_is_written(
    one_player: str, capsys: pytest.CaptureFixture[str], content: bytes, args: tuple[str, ...],
    error: str,
) -> None:  # fmt: skip
    db = one_player
    roster = Path(db).with_name("r.csv")
    roster.write_bytes(content)
    code, out, err = hub(capsys, "players", "import", "--db", db, str(roster), *args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert error in err and "Error" not in err and "Traceback" not in err, err
    assert hub(capsys, "players", "list", "--db", db)[1] == "Anna:Rot  (Anna Berg)\n"


def test_shown_names_tell_players_apart_by_as_little_as_needed() -> None:
    names = display_names(
        ["Thomas Müller", "Thomas Meyer", "Thomas Müller", "Vera Neumann", "Anna",
         "Maximilian-Schmidt", "Maximilian-Schulz", "Alexandra Friedrichsen",
         "Alexandra Friedrichshafen"],
        taken=["Anna"],
    )  # fmt: skip
    assert names == [
        "Thomas.M1", "Thomas.Me", "Thomas.M2", "Vera", "Anna1", "Maxim.Schm", "Maxim.Schu",
        "Alexandr1", "Alexandr2",
    ]  # fmt: skip
    assert len(set(names)) == len(names) and "Anna" not in names
