"""The `schocken` command line: one module per subcommand, imported only when it runs.

Each subcommand module defines ``add_arguments(parser)`` and ``run(args) -> int``. Modules are
listed here by name so that ``schocken --help`` stays cheap and a subcommand pulls in only the
libraries it needs (the simulator's start-up time depends on it).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    args = parser.parse_args(argv)
    try:
        return int(args._module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except (CliError, ValueError, OSError) as error:
        # Engine errors (IllegalActionError, RulesError) are ValueErrors with a one-line message.
        print(f"schocken {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
