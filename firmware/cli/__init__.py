"""The `schocken` command line's machinery: one module per subcommand, imported only when it runs.

Each subcommand module defines ``add_arguments(parser)`` and ``run(args) -> int``
(:class:`SubcommandModule`). Which subcommands exist is not decided here: the top-level
:mod:`schockbesteck.cli` lists them (the firmware's and the simulator's) as :class:`Subcommand`
values and hands them to :func:`run_command_line`, so the firmware never names the simulator.
Only the subcommand that runs is imported, so ``schocken --help`` stays cheap and a subcommand
pulls in only the libraries it needs (the simulator's start-up time depends on it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn, Protocol


class CliError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


class SubcommandModule(Protocol):
    """A subcommand's module: its docstring is the description ``--help`` shows."""

    __doc__: str | None

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


@dataclass(frozen=True, slots=True)
class Subcommand:
    """A subcommand: its one line in ``schocken --help``, and how to import its module.

    ``load`` imports the module with a plain ``import`` statement inside a function, so that it
    happens only when the subcommand runs, and every import stays visible to tools (and to
    ``tests/architecture``).
    """

    help: str
    load: Callable[[], SubcommandModule]


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line on stderr and exit status 2.

    argparse prints the whole usage before the message; at a pub table, and for scripts that
    read stderr, one line naming the problem is better. ``--help`` shows the usage. Subparsers
    inherit the class (``add_subparsers`` uses the parent's type), so every subcommand agrees.
    """

    def error(self, message: str) -> NoReturn:
        hint = "" if "choose from" in message else f" (see '{self.prog} --help')"
        self.exit(2, f"{self.prog}: error: {message}{hint}\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """As argparse's, noting the innermost parser that left words over (see parse_args)."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and getattr(parsed, _LEFT_OVER_BY, None) is None:
            setattr(parsed, _LEFT_OVER_BY, self)
        return parsed, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse's, but words nobody knows are reported by the subcommand they follow:
        ``schocken sim: error: unrecognized arguments: --playres``, not ``schocken: ...``."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            owner = getattr(parsed, _LEFT_OVER_BY, None) or self
            owner.error(f"unrecognized arguments: {' '.join(extras)}")
        if hasattr(parsed, _LEFT_OVER_BY):
            delattr(parsed, _LEFT_OVER_BY)
        _refuse_empty_strings(self, parsed)
        return parsed

    def _check_unknown_options_first(self, args: Sequence[str]) -> None:
        """``schocken --frobnicate``: name the option, not the subcommand argparse misses."""
        known = {flag for action in self._actions for flag in action.option_strings}
        for word in args:
            if word == "--" or not word.startswith("-"):
                return  # the subcommand's parser judges what follows it
            if word.split("=", 1)[0] not in known:
                self.error(f"unrecognized arguments: {word}")

    def _check_version_alone(self, args: Sequence[str]) -> None:
        """``schocken --version x``: argparse's version would print and exit 0, ignoring what
        follows; the version is asked alone."""
        before_command = []
        for word in args:
            if word == "--" or not word.startswith("-"):
                break
            before_command.append(word)
        if "--version" in before_command and len(args) > 1:
            others = " ".join(word for word in args if word != "--version")
            self.error(
                f"--version takes nothing after it, got {others}: give schocken --version alone"
            )


#: What a value stands for, by the metavar of its option: for "the empty string is not ...".
_WHAT_A_VALUE_IS = {
    "DIR": "a folder",
    "FILE": "a file",
    "FILE.gif": "a file",
    "PATH": "a file",
    "NAME|FILE": "a preset or a rules file",
    "GAME": "a game's number or a journal file",
    "PORT|URL": "a serial port or URL",
    "URL": "a URL",
    "HOST:PORT": "an address HOST:PORT",
    "A,B,C": "a list of names",
    "STRATEGY,...": "a list of seats",
    "D": "a die",
    "N": "a number",
    "S": "a number",
    "L": "a number",
    "PIN": "a PIN",
}


def _refuse_empty_strings(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> None:
    """An option or argument given as ``''`` is refused by name, whatever it stands for:
    ``--state-dir ''`` is not the current folder, ``--rules ''`` not a folder, ``judge ''``
    not a file. Walks the parser and the subcommand chosen in ``parsed``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(parsed, action.dest or "", None)
            if isinstance(chosen, str) and chosen in action.choices:
                _refuse_empty_strings(action.choices[chosen], parsed)
            continue
        value = getattr(parsed, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if "" not in values:
            continue
        metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
        shown = action.option_strings[-1] if action.option_strings else metavar
        what = _WHAT_A_VALUE_IS.get(metavar, "a value")
        parser.error(f"{shown} '': the empty string is not {what}")


#: The optional libraries, by top-level module, and the extra of pyproject.toml that brings each.
_EXTRA_OF = {
    "gpiozero": "pi", "lgpio": "pi", "luma.oled": "pi", "luma.core": "pi", "sdnotify": "pi",
    "luma.emulator": "sim", "pygame": "sim", "serial": "sim", "aiohttp": "web",
    "selenium": "browser-test", "reportlab": "pi",
}  # fmt: skip


def _extra_of(module: str) -> str | None:
    """The extra that brings ``module`` (``luma.oled.device`` -> ``pi``), or None."""
    for name, extra in _EXTRA_OF.items():
        if module == name or module.startswith(f"{name}."):
            return extra
    return None

#: The attribute that names the parser that left words over.
_LEFT_OVER_BY = "_left_over_by"


class _VersionAction(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("schockbesteck")
        except PackageNotFoundError:
            number = "unknown (not installed: run `make` or `pip install -e .`)"
        print(f"schocken {number}")
        parser.exit(0)


def build_parser(
    subcommands: Mapping[str, Subcommand], argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the subcommand it names is imported (start-up time)."""
    parser = ArgumentParser(
        prog="schocken",
        description="Schockbesteck: the pub dice game Schocken on a Raspberry Pi and a laptop.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = _named_subcommand(subcommands, argv)
    for name, subcommand in subcommands.items():
        if argv is not None and name != chosen:
            sub.add_parser(name, help=subcommand.help)  # listed in --help, never imported
            continue
        module = subcommand.load()
        sub_parser = sub.add_parser(
            name,
            help=subcommand.help,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def _named_subcommand(
    subcommands: Mapping[str, Subcommand], argv: Sequence[str] | None
) -> str | None:
    """The subcommand ``argv`` asks for: its first word that is not an option."""
    for word in argv or ():
        if not word.startswith("-"):
            return word if word in subcommands else None
    return None


def run_command_line(
    subcommands: Mapping[str, Subcommand], argv: Sequence[str] | None = None
) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the subcommand it names.

    Returns the exit status: the subcommand's, 2 for bad input (one line on stderr naming the
    problem), 130 for Ctrl+C.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(subcommands, words)
    try:
        if isinstance(parser, ArgumentParser):
            parser._check_unknown_options_first(words)
            parser._check_version_alone(words)
        args = parser.parse_args(words)
    except SystemExit as stop:  # --help (0) or a usage error (2, already reported)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        return int(args._module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as missing:
        extra = _extra_of(missing.name or "")
        if extra is None:
            raise  # one of ours, or a library no extra brings: a bug, shown in full
        print(
            f"schocken {args.command}: error: {missing.name} is not installed: this needs the "
            f"'{extra}' extra (`make sim` installs only what playing needs); install it with "
            f"`make test`, which adds every extra, or .venv/bin/pip install -e '.[{extra}]'",
            file=sys.stderr,
        )
        return 2
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
