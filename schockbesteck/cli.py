"""The `schocken` command: the list of its subcommands, from the firmware and from the simulator.

This module sits above both, so that the firmware never names the simulator: the firmware's
subcommands (``firmware/cli/``) and the simulator's (``sim/cli.py``, ``sim/bench/cli.py``) are
listed here, and :func:`firmware.cli.run_command_line` runs them. Each module is imported by a
plain ``import`` inside its loader, only when its subcommand runs; so ``schocken --help`` imports
none of them, and ``tests/architecture`` sees every import.

A table here rather than an entry-point group in ``pyproject.toml``: reading entry points costs
every start of the command the import of :mod:`importlib.metadata` and a scan of the installed
packages, a subcommand's one-line help would need its module imported for ``--help``, and the
command would only work once installed.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.cli import Subcommand, SubcommandModule, run_command_line

__all__ = ["SUBCOMMANDS", "main"]


def _rank() -> SubcommandModule:
    from firmware.cli import rank

    return rank


def _rules() -> SubcommandModule:
    from firmware.cli import rules

    return rules


def _judge() -> SubcommandModule:
    from firmware.cli import judge

    return judge


def _odds() -> SubcommandModule:
    from firmware.cli import odds

    return odds


def _simulate() -> SubcommandModule:
    from firmware.cli import simulate

    return simulate


def _run() -> SubcommandModule:
    from firmware.cli import run

    return run


def _sim() -> SubcommandModule:
    from sim import cli

    return cli


def _bench() -> SubcommandModule:
    from sim.bench import cli

    return cli


def _stats() -> SubcommandModule:
    from firmware.cli import stats

    return stats


def _replay() -> SubcommandModule:
    from firmware.cli import replay

    return replay


def _spieltag() -> SubcommandModule:
    from firmware.cli import spieltag

    return spieltag


def _sheet() -> SubcommandModule:
    from firmware.cli import sheet

    return sheet


def _saison() -> SubcommandModule:
    from firmware.cli import saison

    return saison


def _hub() -> SubcommandModule:
    from firmware.cli import hub

    return hub


#: The subcommands, in the order ``schocken --help`` lists them.
SUBCOMMANDS: dict[str, Subcommand] = {
    "rank": Subcommand("name, kind, Deckel and strength of a throw", _rank),
    "rules": Subcommand("list and show the house-rule presets", _rules),
    "judge": Subcommand("settle a round given as JSON on stdin", _judge),
    "odds": Subcommand("exact odds of every action, or the table of kinds", _odds),
    "simulate": Subcommand("play many games between computer players, headless", _simulate),
    "run": Subcommand("run the device on a Raspberry Pi (--check: self-test)", _run),
    "sim": Subcommand("play on a laptop: in a window, in the terminal or from a script", _sim),
    "bench": Subcommand("measure speed, memory and I2C traffic of this build", _bench),
    "stats": Subcommand("statistics per player over the finished games", _stats),
    "replay": Subcommand("print a game from its journal, round by round", _replay),
    "spieltag": Subcommand("begin or end a Spieltag, an evening of games with points", _spieltag),
    "sheet": Subcommand("the Spielberichtsbogen of a Spieltag: CSV, PDF or JSON", _sheet),
    "saison": Subcommand("a season over many Spieltage: players, teams, Kasse", _saison),
    "hub": Subcommand("a tournament across tables: players, draw, rounds, standings, TV", _hub),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `schocken` console script."""
    return run_command_line(SUBCOMMANDS, argv)
