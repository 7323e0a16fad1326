"""The pieces of `make test-deploy` that run on the host (the emulated run itself is not here).

tests/deploy/arm64/nosys.py must make exactly the system calls proot 5.1 cannot translate fail
with ENOSYS, and every mount with EPERM, for the command it runs and that command's children.
"""

from __future__ import annotations

import errno
import platform
import subprocess
import sys
from pathlib import Path

import pytest

NOSYS = Path(__file__).resolve().parent / "arm64" / "nosys.py"

pytestmark = pytest.mark.skipif(
    platform.machine() != "x86_64" or sys.platform != "linux", reason="x86-64 Linux only"
)

# Calls a raw system call and prints the errno it failed with (0: it worked).
PROBE = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
args = [ctypes.c_long(int(a)) if a.lstrip("-").isdigit() else ctypes.c_char_p(a.encode())
        for a in sys.argv[2:]]
result = libc.syscall(int(sys.argv[1]), *args)
print(0 if result >= 0 else ctypes.get_errno())
"""


def errno_of(*call: str, wrapped: bool = True) -> int:
    command = [sys.executable, "-c", PROBE, *call]
    if wrapped:
        command = [sys.executable, str(NOSYS), *command]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return int(proc.stdout)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("faccessat2", ("439", "-100", "/", "0", "0")),
        ("statx", ("332", "-100", "/", "0", "0", "0")),
        ("openat2", ("437", "-100", "/", "0", "0")),
        ("execveat", ("322", "-100", "/nonexistent", "0", "0", "0")),
    ],
)
def test_calls_proot_does_not_know_fail_with_enosys(name: str, call: tuple[str, ...]) -> None:
    assert errno_of(*call) == errno.ENOSYS, name


def test_mounting_is_refused(tmp_path: Path) -> None:
    # mount("none", tmp_path, "tmpfs", 0, NULL): EPERM even for root, before the kernel sees it.
    assert errno_of("165", "none", str(tmp_path), "tmpfs", "0", "0") == errno.EPERM
    assert errno_of("166", str(tmp_path), "0") == errno.EPERM  # umount2
    assert not any(tmp_path.iterdir())


def test_other_calls_pass() -> None:
    assert errno_of("39") == 0  # getpid
    # faccessat (269) is the call glibc falls back to, and proot translates it.
    assert errno_of("269", "-100", "/", "0") == 0


def test_without_the_wrapper_the_kernel_knows_statx() -> None:
    """The probe itself is sound: outside the filter, statx is not ENOSYS on this kernel."""
    assert errno_of("332", "-100", "/", "0", "0", "0", wrapped=False) != errno.ENOSYS
