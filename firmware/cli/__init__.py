"""The `schocken` command line: one module per subcommand, imported only when it runs.

Each subcommand module defines ``add_arguments(parser)`` and ``run(args) -> int``. Modules are
listed here by name so that ``schocken --help`` stays cheap and a subcommand pulls in only the
libraries it needs (the simulator's start-up time depends on it).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

#: subcommand name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "rank": ("firmware.cli.rank", "name, kind, Deckel and strength of a throw"),
    "rules": ("firmware.cli.rules", "list and show the house-rule presets"),
    "judge": ("firmware.cli.judge", "settle a round given as JSON on stdin"),
    "run": ("firmware.cli.run", "run the device on a Raspberry Pi (--check: self-test)"),
    "sim": ("sim.cli", "play on a laptop: in a window, in the terminal or from a script"),
    "stats": ("firmware.cli.stats", "statistics per player over the finished games"),
    "replay": ("firmware.cli.replay", "print a game from its journal, round by round"),
}


class CliError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line on stderr and exit status 2.

    argparse prints the whole usage before the message; at a pub table, and for scripts that
    read stderr, one line naming the problem is better. ``--help`` shows the usage. Subparsers
    inherit the class (``add_subparsers`` uses the parent's type), so every subcommand agrees.
    """

    def error(self, message: str) -> NoReturn:
        hint = "" if "choose from" in message else f" (see '{self.prog} --help')"
        self.exit(2, f"{self.prog}: error: {message}{hint}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="schocken",
        description="Schockbesteck: the pub dice game Schocken on a Raspberry Pi and a laptop.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        sub_parser = sub.add_parser(name, help=help_text, description=module.__doc__)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `schocken` console script."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2, already reported)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        return int(args._module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`schocken rank --all | head`): nothing to report. Point stdout
        # at /dev/null so the interpreter's final flush does not complain either.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (CliError, ValueError, OSError) as error:
        # Engine errors (IllegalActionError, RulesError) are ValueErrors with a one-line message.
        message = " ".join(str(error).split())  # one line, whatever the error carried
        print(f"schocken {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
