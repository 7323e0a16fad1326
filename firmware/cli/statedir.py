"""The ``--state-dir`` option of the commands that read the games (stats, replay), and where
the games are when it is not given: the device's state directory on a Schockbesteck, else the
one `schocken sim` keeps on this computer. An edge module: it names the hal's storage backend.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from firmware.cli import CliError
from hal.storage import user_state_dir

__all__ = ["DEVICE_STATE_DIR", "add_state_dir_argument", "state_dir_from_args"]

#: The device's state directory (deploy/config.toml, [storage] state_dir).
DEVICE_STATE_DIR = "/var/lib/schockbesteck"


def add_state_dir_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--state-dir DIR``: where the games are (default: see :func:`state_dir_from_args`)."""
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help=f"the folder with the games (default: the device's {DEVICE_STATE_DIR} if it "
        "exists, else ~/.local/state/schockbesteck, where `schocken sim` keeps them)",
    )


def state_dir_from_args(args: argparse.Namespace) -> Path | None:
    """The folder with the games: ``--state-dir``, else the device's, else the user's (the
    simulator's); None when no games were ever kept here. CliError for a folder that cannot be
    read."""
    given = args.state_dir
    if given == "":
        raise CliError(
            "--state-dir '': the empty string is not a folder; give the folder the games are "
            f"kept in (the device's {DEVICE_STATE_DIR}, or {user_state_dir()} for `schocken sim`)"
        )
    if given is not None:
        path = Path(given).expanduser()
        if not path.is_dir():
            what = "is a file, not a folder" if path.exists() else "does not exist"
            raise CliError(
                f"--state-dir {given}: {what}; give the folder the games are kept in (the "
                f"device's {DEVICE_STATE_DIR}, or {user_state_dir()} for `schocken sim`)"
            )
        candidates = [path]
    else:
        candidates = [p for p in (Path(DEVICE_STATE_DIR), user_state_dir()) if p.is_dir()]
    if not candidates:
        return None
    root = candidates[0]
    if not os.access(root, os.R_OK | os.X_OK):
        raise CliError(
            f"the state directory {root} cannot be read by you: run the command with sudo, "
            "or give another folder with --state-dir DIR"
        )
    return root
