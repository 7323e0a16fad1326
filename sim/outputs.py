"""Output files of a simulator run, written under temporary names and published only on success.

``schocken sim --script bad.txt --events out.jsonl`` must not leave an empty ``out.jsonl``
behind, nor replace yesterday's ``--frames`` or ``--record`` with half a run. Each output is
written to a temporary name next to its target (``.out.jsonl.k3j2.tmp.jsonl``; a directory
``.frames.k3j2.tmp``); :func:`pending_outputs` renames them to their targets when the run ends
normally (or is interrupted with Ctrl-C: what was played up to then is still a true record) and
removes them when it fails.

Nothing is created that the user did not name: ``--frames out`` makes the folder ``out`` (in a
folder that exists), never the folders above it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from firmware.userfile import missing_folder, path_problem

__all__ = ["OutputError", "PendingOutputs", "pending_outputs"]


class OutputError(ValueError):
    """An output cannot be written where it was asked for; one line naming the option."""


class PendingOutputs:
    """The temporary files and directories of one run, with their targets."""

    def __init__(self) -> None:
        self._files: dict[Path, Path] = {}
        #: target -> (temporary directory, glob of the target's old files to replace)
        self._folders: dict[Path, tuple[Path, str]] = {}

    def file(self, target: str | Path, option: str) -> Path:
        """A temporary file in ``target``'s directory that becomes ``target`` on success.

        The temporary name ends in ``target``'s suffix, so writers that choose the format by
        the name (Pillow) still do.
        """
        path = Path(target)
        if path.is_dir():
            raise OutputError(f"{option} {target}: is a folder; give a file name")
        try:
            fd, temporary = tempfile.mkstemp(
                dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}"
            )
        except OSError as error:
            raise OutputError(_cannot_write(option, target, error)) from None
        os.close(fd)
        self._files[path] = Path(temporary)
        return Path(temporary)

    def folder(self, target: str | Path, option: str, replaces: str) -> Path:
        """A temporary directory whose files go into ``target`` on success.

        Files in ``target`` that match the glob ``replaces`` (an earlier run's output) are
        removed then, and only then; other files there are left alone.
        """
        path = Path(target)
        if path.exists() and not path.is_dir():
            raise OutputError(f"{option} {target}: is a file; give a folder")
        missing = missing_folder(path)
        if missing is not None:
            raise OutputError(
                f"{option} {target}: its folder {missing} does not exist; create it first, "
                "or give another folder"
            )
        try:
            temporary = tempfile.mkdtemp(
                dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
            )
        except OSError as error:
            raise OutputError(_cannot_write(option, target, error)) from None
        self._folders[path] = (Path(temporary), replaces)
        return Path(temporary)

    def commit(self) -> None:
        """Give every output its real name (replacing older output of the same name)."""
        for target, temporary in self._files.items():
            os.replace(temporary, target)
        for target, (temporary, replaces) in self._folders.items():
            target.mkdir(exist_ok=True)  # its folder exists: checked in folder()
            for old in target.glob(replaces):
                old.unlink()
            for new in sorted(temporary.iterdir()):
                shutil.move(str(new), str(target / new.name))
            temporary.rmdir()
        self._files.clear()
        self._folders.clear()

    def discard(self) -> None:
        """Remove every temporary output; the targets stay as they were."""
        for temporary in self._files.values():
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        for temporary, _ in self._folders.values():
            shutil.rmtree(temporary, ignore_errors=True)
        self._files.clear()
        self._folders.clear()


def _cannot_write(option: str, target: str | Path, error: OSError) -> str:
    """One line: the option, its path, what is wrong and what to do."""
    problem = path_problem(Path(target), error, "write")
    if error.errno == errno.ENOENT:
        return f"{option} {target}: {problem}; create it first, or give another path"
    return f"{option} {target}: {problem}; give another path"


@contextlib.contextmanager
def pending_outputs() -> Iterator[PendingOutputs]:
    """Outputs published when the block ends normally or by Ctrl-C, removed if it fails."""
    outputs = PendingOutputs()
    try:
        yield outputs
    except KeyboardInterrupt:
        outputs.commit()
        raise
    except BaseException:
        outputs.discard()
        raise
    outputs.commit()
