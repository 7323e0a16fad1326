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
    "odds": ("firmware.cli.odds", "exact odds of every action, or the table of kinds"),
    "simulate": ("firmware.cli.simulate", "play many games between computer players, headless"),
    "run": ("firmware.cli.run", "run the device on a Raspberry Pi (--check: self-test)"),
    "sim": ("sim.cli", "play on a laptop: in a window, in the terminal or from a script"),
    "bench": ("sim.bench_cli", "measure speed, memory and I2C traffic of this build"),
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


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the subcommand it names is imported (start-up time)."""
    parser = ArgumentParser(
        prog="schocken",
        description="Schockbesteck: the pub dice game Schocken on a Raspberry Pi and a laptop.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = _named_subcommand(argv)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if argv is not None and name != chosen:
            sub.add_parser(name, help=help_text)  # listed in --help, never imported
            continue
        module = importlib.import_module(module_name)
        sub_parser = sub.add_parser(
            name,
            help=help_text,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def _named_subcommand(argv: Sequence[str] | None) -> str | None:
    """The subcommand ``argv`` asks for: its first word that is not an option."""
    for word in argv or ():
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `schocken` console script."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    try:
        args = parser.parse_args(words)
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
