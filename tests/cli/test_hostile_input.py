"""Hostile command lines and input files: each gives one clear line and exit status 2.

Every case goes through the real entry point (:func:`firmware.cli.main`) with real files in a
temporary directory; nothing is mocked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run and check the failure contract: exit 2, nothing on stdout, one line on stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


def deep_toml(tmp_path: Path, name: str, prefix: str, levels: int = 5000) -> str:
    path = tmp_path / name
    path.write_text(prefix + "[" * levels + "]" * levels + "\n", encoding="utf-8")
    return str(path)


# -- deep nesting and long files -----------------------------------------------------------------


def test_deeply_nested_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = deep_toml(tmp_path, "deep.toml", "deckel = ")
    for argv in (("rank", "--rules", rules, "6", "6", "6"), ("rules", "show", rules),
                 ("simulate", "--rules", rules, "--games", "2")):
        line = fails(capsys, *argv)
        assert line.endswith(f"{rules}: nested deeper than 32 levels of tables and arrays"), line


@pytest.mark.parametrize("command", ["run", "sim"])
def test_deeply_nested_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    config = deep_toml(tmp_path, "config.toml", "[game]\nplayers = ")
    line = fails(capsys, command, "--config", config)
    assert line == (
        f"schocken {command}: error: {config}: nested deeper than 32 levels of tables and arrays"
    )


def test_endless_files_are_not_read_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert fails(capsys, "rank", "--rules", "/dev/zero", "1", "1", "1").endswith(
        "rules file /dev/zero is too long: at most 65536 bytes are allowed"
    )
    assert fails(capsys, "run", "--config", "/dev/zero").endswith(
        "config file /dev/zero is too long: at most 262144 bytes are allowed"
    )
    assert fails(capsys, "judge", "/dev/zero").endswith(
        "/dev/zero is too long: at most 1048576 bytes are allowed"
    )
    assert fails(capsys, "replay", "/dev/zero").endswith(
        "/dev/zero is too long for a game journal: at most 16777216 bytes"
    )


def test_deeply_nested_judge_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert fails(capsys, "judge", str(path)).endswith(
        "nested deeper than 32 levels of objects and arrays"
    )
