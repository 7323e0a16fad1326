"""Run `schocken` subcommands in-process through the real entry point."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import firmware.cli as cli


@pytest.fixture
def schocken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, str, str]]:
    """Call ``schocken ARGS`` via firmware.cli.main; returns (exit status, stdout, stderr).

    Only subcommands whose modules exist are registered, so these tests do not depend on
    subcommands other branches are still writing.
    """
    import importlib.util

    present = {
        name: entry for name, entry in cli.SUBCOMMANDS.items()
        if importlib.util.find_spec(entry[0]) is not None
    }
    monkeypatch.setattr(cli, "SUBCOMMANDS", present)

    def run(*args: str) -> tuple[int, str, str]:
        try:
            status = cli.main(list(args))
        except SystemExit as exit_:  # argparse
            status = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def parse(text: str) -> Any:
    return json.loads(text)
