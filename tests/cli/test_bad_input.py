"""Every subcommand's bad input, as a user types it: one sentence naming the file or option and
what to do, exit status 2, nothing on stdout, no errno or codec text, and nothing created."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from pytest_mock import MockerFixture

from schockbesteck.cli import SUBCOMMANDS, main

#: (argv with {tmp} for the test's folder, what the one line must say). The folder holds
#: ``folder/``, ``picture.png`` (binary), ``empty.txt``, ``broken.json`` and ``play.txt``.
CASES: list[tuple[tuple[str, ...], str]] = [
    # rank
    (("rank", "7", "1", "1"), "die '7': allowed are the numbers 1 to 6"),
    (("rank", "1", "1", "1", "--rules", "{tmp}/folder"),
     "rules file {tmp}/folder: is a folder, not a file; give a preset"),
    (("rank", "--bogus"), "schocken rank: error: unrecognized arguments: --bogus"),
    # rules
    (("rules", "show", "{tmp}/picture.png"),
     "rules file {tmp}/picture.png is not UTF-8 text (at byte 0); give a preset"),
    (("rules", "show", "{tmp}/gone.toml"), "rules file {tmp}/gone.toml: does not exist; give a"),
    (("rules", "show", "{tmp}/nowhere/mine.toml"),
     "rules file {tmp}/nowhere/mine.toml: its folder {tmp}/nowhere does not exist; give a"),
    (("rules", "show", "kneipe"), "unknown rules 'kneipe': give a preset"),
    (("rules", "drop"), "schocken rules: error: argument ACTION: invalid choice: 'drop'"),
    (("rules", "show", "bvb", "--bogus"), "schocken rules show: error: unrecognized arguments"),
    # judge
    (("judge", "{tmp}/gone.json"), "{tmp}/gone.json: does not exist; give the round as one JSON"),
    (("judge", "{tmp}/folder"), "{tmp}/folder: is a folder, not a file; give the round"),
    (("judge", "{tmp}/picture.png"), "{tmp}/picture.png is not UTF-8 text (at byte 0); give"),
    (("judge", "{tmp}/broken.json"),
     "{tmp}/broken.json: cut off: the JSON ends too soon, after line 1; give the round"),
    (("judge", "{tmp}/empty.txt"), "{tmp}/empty.txt is empty: expected the round as a JSON"),
    # odds
    (("odds", "--thrown", "7"), "give the throw to beat with --beat D D D, or --table"),
    (("odds", "--table", "--rules", "{tmp}/picture.png"), "rules file {tmp}/picture.png is not"),
    # simulate
    (("simulate", "--games", "0"), "--games 0: allowed are 1 to"),
    (("simulate", "--players", "11"), "--players 11: allowed are 2 to 10"),
    (("simulate", "--rules", "{tmp}/gone.toml"), "rules file {tmp}/gone.toml: does not exist"),
    # run (the configuration is checked before any hardware is looked for)
    (("run", "--config", "{tmp}/folder"),
     "config file {tmp}/folder: is a folder, not a file; give a config.toml"),
    (("run", "--config", "{tmp}/picture.png"), "config file {tmp}/picture.png is not UTF-8 text"),
    (("run", "--config", "{tmp}/gone.toml"), "config file {tmp}/gone.toml: does not exist; give"),
    # sim
    (("sim", "--playres", "3"), "schocken sim: error: unrecognized arguments: --playres 3"),
    (("sim", "--web", "localhost"), "--web 'localhost': give HOST:PORT, e.g. 0.0.0.0:8080"),
    (("sim", "--web", "127.0.0.1:99999"), "port must be a number from 0 to 65535"),
    (("sim", "--attach", "loop://", "--web"), "--web serves this simulator's own game: not with"),
    (("sim", "--script", "{tmp}/folder"),
     "--script {tmp}/folder: is a folder, not a file; give a text file with one action per line"),
    (("sim", "--script", "{tmp}/gone.txt"), "--script {tmp}/gone.txt: does not exist; give a"),
    (("sim", "--script", "{tmp}/picture.png"),
     "{tmp}/picture.png is not a script: not UTF-8 text (byte 0 is 0x89); give a text file"),
    (("sim", "--script", "{tmp}/play.txt", "--record", "{tmp}/nowhere/game.gif"),
     "--record {tmp}/nowhere/game.gif: its folder {tmp}/nowhere does not exist; create it first"),
    (("sim", "--script", "{tmp}/play.txt", "--record", "{tmp}/game.png"),
     "--record {tmp}/game.png: the file name must end in .gif"),
    (("sim", "--script", "{tmp}/play.txt", "--frames", "{tmp}/nowhere/frames"),
     "--frames {tmp}/nowhere/frames: its folder {tmp}/nowhere does not exist; create it first"),
    (("sim", "--script", "{tmp}/play.txt", "--frames", "{tmp}/play.txt"),
     "--frames {tmp}/play.txt: is a file; give a folder"),
    (("sim", "--script", "{tmp}/play.txt", "--events", "{tmp}/nowhere/events.jsonl"),
     "--events {tmp}/nowhere/events.jsonl: its folder {tmp}/nowhere does not exist"),
    (("sim", "--script", "{tmp}/play.txt", "--events", "{tmp}/folder"),
     "--events {tmp}/folder: is a folder; give a file name"),
    (("sim", "--script", "{tmp}/play.txt", "--state-dir", "{tmp}/nowhere/games"),
     "--state-dir {tmp}/nowhere/games: its folder {tmp}/nowhere does not exist"),
    (("sim", "--script", "{tmp}/play.txt", "--state-dir", "{tmp}/play.txt"),
     "--state-dir {tmp}/play.txt: is a file, not a folder"),
    (("sim", "--script", "{tmp}/play.txt", "--config", "{tmp}/broken.json"),
     "{tmp}/broken.json: not valid TOML"),
    (("sim", "--script", "{tmp}/play.txt", "--players", "1"), "--players 1: allowed are 2 to 10"),
    (("sim", "--attach", "carrier-pigeon://loft"), "link url 'carrier-pigeon://loft': "),
    (("sim", "--pin", "1234"), "--pin pairs a remote panel: give --attach PORT|URL too"),
    # bench
    (("bench", "--bogus"), "schocken bench: error: unrecognized arguments: --bogus"),
    # stats
    (("stats", "--state-dir", "{tmp}/gone"), "--state-dir {tmp}/gone: does not exist; give the"),
    (("stats", "--state-dir", "{tmp}/play.txt"), "--state-dir {tmp}/play.txt: is a file, not a"),
    (("stats", "--json", "--csv"), "argument --csv: not allowed with argument --json"),
    # spieltag and sheet (more in tests/cli/test_sheet.py)
    (("spieltag", "end", "--state-dir", "{tmp}/gone"), "--state-dir {tmp}/gone: does not exist"),
    (("sheet", "--pdf", "--json"), "argument --json: not allowed with argument --pdf"),
    (("sheet", "{tmp}/picture.png"), "SOURCE {tmp}/picture.png is not UTF-8 text (at byte 0)"),
    (("sheet", "{tmp}/play.txt"), "{tmp}/play.txt: not valid JSON at line 1, column 1"),
    (("saison", "--pdf", "--json"), "argument --json: not allowed with argument --pdf"),
    (("saison", "{tmp}/nowhere"), "SOURCE {tmp}/nowhere: does not exist"),
    # replay
    (("replay", "{tmp}/picture.png"),
     "{tmp}/picture.png is not a Schockbesteck journal: record 1 at byte 0"),
    (("replay", "{tmp}/folder"), "{tmp}/folder: is a folder, not a file; give a game journal"),
    (("replay", "{tmp}/gone.journal"), "{tmp}/gone.journal: does not exist; give a game journal"),
    (("replay", "--state-dir", "{tmp}/gone"), "--state-dir {tmp}/gone: does not exist"),
    (("replay", "4", "--state-dir", "{tmp}/folder"),
     "game 4 is not in {tmp}/folder: `schocken replay --list` shows the games there"),
    (("replay", "--list", "4"), "--list lists every game: give no GAME with it"),
    # the empty string is named as such, never read as the current folder
    (("rank", "1", "1", "1", "--rules", ""),
     "--rules '': the empty string is not a preset or a rules file"),
    (("rank", "", "1", "1"), "D '': the empty string is not a die"),
    (("rules", "show", ""), "NAME|FILE '': the empty string is not a preset or a rules file"),
    (("judge", ""), "FILE '': the empty string is not a file"),
    (("judge", "--rules", ""), "--rules '': the empty string is not a preset or a rules file"),
    (("odds", "--table", "--rules", ""), "--rules '': the empty string is not a preset"),
    (("simulate", "--rules", ""), "--rules '': the empty string is not a preset"),
    (("run", "--config", ""), "--config '': the empty string is not a file"),
    (("sim", "--script", ""), "--script '': the empty string is not a file"),
    (("sim", "--script", "{tmp}/play.txt", "--state-dir", ""),
     "--state-dir '': the empty string is not a folder"),
    (("sim", "--state-dir", ""), "--state-dir '': the empty string is not a folder"),
    (("sim", "--script", "{tmp}/play.txt", "--rules", ""), "--rules '': the empty string is not"),
    (("sim", "--script", "{tmp}/play.txt", "--events", ""),
     "--events '': the empty string is not a file"),
    (("sim", "--script", "{tmp}/play.txt", "--frames", ""),
     "--frames '': the empty string is not a folder"),
    (("sim", "--attach", ""), "--attach '': the empty string is not a serial port or URL"),
    (("sim", "--web", ""), "--web '': the empty string is not an address HOST:PORT"),
    (("stats", "--state-dir", ""), "--state-dir '': the empty string is not a folder"),
    (("replay", ""), "GAME '': the empty string is not a game's number or a journal file"),
    (("replay", "--state-dir", ""), "--state-dir '': the empty string is not a folder"),
    # sim --seed is checked as simulate's
    (("sim", "--script", "{tmp}/play.txt", "--seed", "abc"),
     "--seed 'abc': must be a whole number 0 to"),
    (("sim", "--script", "{tmp}/play.txt", "--seed", "-1"), "--seed '-1': must be a whole number"),
    (("sim", "--script", "{tmp}/play.txt", "--seed", "１０"), "--seed '１０': must be a whole"),
    (("sim", "--script", "{tmp}/play.txt", "--seed", " 10"), "--seed ' 10': must be a whole"),
    (("simulate", "--seed", "abc"), "--seed 'abc': must be a whole number 0 to"),
    # The hub speaks German unless told otherwise.
    (("hub", "draw", "--db", "{tmp}/none.db"), "{tmp}/none.db: diese Turnierdatei gibt es nicht"),
    (("hub", "draw", "--db", "{tmp}/picture.png"),
     "{tmp}/picture.png: keine Turnierdatei (keine SQLite"),
    (("hub", "init", "--event", "DM 2026", "--db", "{tmp}/x.db"),
     "Turnier »DM 2026«: 1 bis 32 Kleinbuchstaben"),
    (("hub", "standings", "--db", "{tmp}/folder"),
     "{tmp}/folder: diese Turnierdatei gibt es nicht"),
]


def tree(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*")}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "folder").mkdir()
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "broken.json").write_text('{"pot": 13,\n')
    (tmp_path / "play.txt").write_text("shake\nstand\n")
    return tmp_path


@pytest.mark.parametrize(("argv", "expected"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_sentence_and_exit_2(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
    expected: str,
) -> None:
    monkeypatch.chdir(folder)
    words = [word.format(tmp=folder) for word in argv]
    before = tree(folder)
    status = main(words)
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith((f"schocken {words[0]}: error: ", f"schocken {words[0]} show: error:"))
    assert expected.format(tmp=folder) in err
    for raw in ("Errno", "codec", "Traceback", "No such file or directory", "Is a directory"):
        assert raw not in err
    assert tree(folder) == before, "nothing created, nothing left behind"


def test_every_subcommand_is_in_the_table() -> None:
    assert {argv[0] for argv, _ in CASES} == set(SUBCOMMANDS)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.EACCES, "no permission to read it"),
        (errno.EIO, "cannot read it (input/output error)"),
        (errno.ELOOP, "is a loop of symbolic links"),
    ],
)
def test_a_file_that_cannot_be_read(
    folder: Path, capsys: pytest.CaptureFixture[str], mocker: MockerFixture, code: int,
    words: str,
) -> None:
    secret = folder / "secret.toml"
    secret.write_text("deckel = 15\n")
    failure = OSError(code, os.strerror(code), str(secret))
    mocker.patch("firmware.userfile.read_text_limited", side_effect=failure)
    assert main(["rules", "show", str(secret)]) == 2
    err = capsys.readouterr().err
    assert f"rules file {secret}: {words}; give a preset" in err
    assert "Errno" not in err
