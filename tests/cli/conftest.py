"""Run `schocken` subcommands in-process through the real entry point."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

import firmware.cli
from firmware.cli import Subcommand
from schockbesteck.cli import main


@pytest.fixture(autouse=True, scope="package")
def parser_made_once_per_subcommand() -> Iterator[None]:
    """`schocken`'s parser for each subcommand built once for this folder, as a process builds
    it once: these tests call ``main`` some 700 times, and a parser (the subcommand's options
    and the others' entries in the list) costs milliseconds, the hub's more than ten. Every
    call still parses its own words with the parser :func:`firmware.cli.build_parser` built."""
    build = firmware.cli.build_parser
    built: dict[tuple[int, str | None, bool], tuple[Mapping[str, Subcommand], Any]] = {}

    def build_once(
        subcommands: Mapping[str, Subcommand], argv: Sequence[str] | None = None
    ) -> argparse.ArgumentParser:
        key = (id(subcommands), firmware.cli._named_subcommand(subcommands, argv), argv is None)
        found = built.get(key)
        if found is None or found[0] is not subcommands:  # held: its id is not reused
            found = built[key] = (subcommands, build(subcommands, argv))
        parser: argparse.ArgumentParser = found[1]
        return parser

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(firmware.cli, "build_parser", build_once)
        yield


@pytest.fixture
def schocken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, str, str]]:
    """Call ``schocken ARGS`` via schockbesteck.cli.main; returns (exit status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse
            status = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def parse(text: str) -> Any:
    return json.loads(text)
