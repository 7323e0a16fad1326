"""Output files of a simulator run, written under temporary names and published only on success.

``schocken sim --script bad.txt --events out.jsonl`` must not leave an empty ``out.jsonl``
behind, nor replace yesterday's ``--frames`` or ``--record`` with half a run. Each output is
written to a temporary name next to its target (``.out.jsonl.k3j2.tmp.jsonl``; a directory
``.frames.k3j2.tmp``); :func:`pending_outputs` renames them to their targets when the run ends
normally (or is interrupted with Ctrl-C: what was played up to then is still a true record) and
removes them when it fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
            raise OutputError(f"{option} {target}: is a directory; give a file name")
        try:
            fd, temporary = tempfile.mkstemp(
                dir=path.parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}"
            )
        except OSError as error:
            raise OutputError(
                f"{option} {target}: cannot write there: {error.strerror or error}"
            ) from None
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
            raise OutputError(f"{option} {target}: is a file; give a directory")
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent  # the nearest existing ancestor; the rest is made on success
        try:
            temporary = tempfile.mkdtemp(dir=parent, prefix=f".{path.name}.", suffix=".tmp")
        except OSError as error:
            raise OutputError(
                f"{option} {target}: cannot write there: {error.strerror or error}"
            ) from None
        self._folders[path] = (Path(temporary), replaces)
        return Path(temporary)

    def commit(self) -> None:
        """Give every output its real name (replacing older output of the same name)."""
        for target, temporary in self._files.items():
            os.replace(temporary, target)
        for target, (temporary, replaces) in self._folders.items():
            target.mkdir(parents=True, exist_ok=True)
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
