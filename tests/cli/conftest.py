"""Run `schocken` subcommands in-process through the real entry point."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from schockbesteck.cli import main


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
