"""The suite's bytecode, written once before pytest-xdist's workers start.

On a fresh clone each worker compiles the project's modules and rewrites the asserts of every
test module itself, all of them at the same moment, so none finds the others' files: about 11 s
of CPU per worker (15 s to collect the suite against 4 s once ``__pycache__`` is filled), three
times over on a two-core machine. :func:`warm` writes those files first, in one process per
core: the project's modules through :mod:`compileall`, each test module and ``conftest.py`` as
pytest's assertion rewriting caches it (``__pycache__/NAME.<PYTEST_TAG>.pyc``, a hash-based pyc
of the rewritten code), and hypothesis's Unicode tables (``.hypothesis/unicode_data``). The
workers then read them as on any later run.

It is only a shortcut and changes nothing a test sees: a file already up to date is left as it
is, and if pytest's assertion-rewriting internals are not what this expects (another pytest),
it rewrites nothing and each worker does the work itself, as before.
"""

from __future__ import annotations

import compileall
import multiprocessing
import os
import re
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: The project's packages whose modules every worker imports, besides the tests.
PACKAGES = ("engine", "hal", "firmware", "sim", "schockbesteck", "tests")

#: What pytest rewrites (its ``python_files`` default and conftest files), which plain
#: bytecode would not serve.
_REWRITTEN = re.compile(r"(^|/)(test_[^/]*|conftest)\.py$")


def rewritten_modules(root: Path) -> list[Path]:
    """The files under ``root/tests`` that pytest imports through its assertion rewriting."""
    return sorted(p for p in (root / "tests").rglob("*.py") if _REWRITTEN.search(p.as_posix()))


def warm(root: Path, processes: int) -> int:
    """Compile the project, rewrite the test modules under ``root`` and build hypothesis's
    Unicode tables, in ``processes`` processes, skipping what is up to date; the number of test
    modules rewritten."""
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    plain = [
        str(path)
        for package in PACKAGES
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
        if not _REWRITTEN.search(path.as_posix()) and "__pycache__" not in path.parts
    ]
    stale = [str(path) for path in rewritten_modules(root) if not _rewritten_is_current(path)]
    with ProcessPoolExecutor(processes, mp_context=context) as pool:
        unicode = pool.submit(_hypothesis_tables)
        rewritten = sum(pool.map(_rewrite, stale, chunksize=8))
        list(pool.map(_compile, plain, chunksize=16))
        unicode.result()
    return rewritten


def _compile(name: str) -> bool:
    """One module's plain bytecode, as Python's import writes it (unless it is up to date)."""
    return bool(compileall.compile_file(name, quiet=2))


def _hypothesis_tables() -> None:
    """Hypothesis's Unicode tables, which it keeps in ``.hypothesis/unicode_data`` (about 2.5 s
    of CPU to build in every worker whose first text strategy finds none). Without hypothesis's
    warning that building them from a conftest is slow: here that is the point."""
    try:
        from hypothesis.internal.charmap import charmap, intervals_from_codec

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            charmap()
            intervals_from_codec("utf-8")
    except Exception:  # another hypothesis: each worker builds its tables itself, as before
        return


def _rewritten_is_current(path: Path) -> bool:
    """Whether pytest's cached rewrite of ``path`` matches the source as it is now."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir
    except ImportError:
        return True  # another pytest: leave the rewriting to it
    return _read_pyc(path, get_cache_dir(path) / (path.stem + PYC_TAIL)) is not None


def _rewrite(name: str) -> int:
    """Rewrite one test module's asserts as pytest does and write pytest's pyc of it (1), or
    nothing (0) where this pytest keeps its cache otherwise."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _rewrite_test,
            _write_pyc_fp,
            get_cache_dir,
        )
    except ImportError:
        return 0
    path = Path(name)
    source_hash, code = _rewrite_test(path, None)  # type: ignore[arg-type]  # no pass hook
    folder = get_cache_dir(path)
    pyc = folder / (path.stem + PYC_TAIL)
    partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
    try:
        folder.mkdir(exist_ok=True)
        with open(partial, "wb") as file:
            _write_pyc_fp(file, source_hash, code)
        os.replace(partial, pyc)
    except OSError:  # a read-only checkout: the workers rewrite in memory, as pytest does
        partial.unlink(missing_ok=True)
        return 0
    return 1
