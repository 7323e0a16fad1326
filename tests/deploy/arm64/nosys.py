"""Run a command under a seccomp filter that proot 5.1 needs (x86-64 hosts only).

    python3 nosys.py proot -0 -q qemu-aarch64-static -r ROOT ...

Debian 12's proot 5.1.0 does not know the system calls faccessat2, statx, openat2 and execveat:
it lets them through with the host's paths, so a file test inside the emulated root silently
looks at the host's files. Made to fail with ENOSYS, they send glibc and qemu back to the older
calls (faccessat, newfstatat, openat, execve), which proot translates.

The same filter refuses mount, umount2 and the new mount API with EPERM: proot -0 runs as the
real root, and nothing in the emulated root may mount over, or unmount, anything of the host
(debootstrap's second stage tries /proc, /sys and /dev/pts and goes on without them).

The filter is inherited by proot, qemu and every process in the root. Only the standard library
is used (ctypes for prctl), so no compiler and no package is needed.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys

AUDIT_ARCH_X86_64 = 0xC000003E
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

# Classic BPF opcodes.
LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
RET_K = 0x06  # BPF_RET | BPF_K

# x86-64 system call numbers (arch/x86/entry/syscalls/syscall_64.tbl).
UNKNOWN_TO_PROOT = {"execveat": 322, "statx": 332, "openat2": 437, "faccessat2": 439}
MOUNTING = {
    "mount": 165,
    "umount2": 166,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
}


class SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_char_p))


def instruction(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program() -> bytes:
    """Other architectures pass; listed calls return their errno; everything else is allowed."""
    rules = [(nr, errno.ENOSYS) for nr in UNKNOWN_TO_PROOT.values()]
    rules += [(nr, errno.EPERM) for nr in MOUNTING.values()]
    code = [
        instruction(LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        instruction(JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
        instruction(RET_K, 0, 0, SECCOMP_RET_ALLOW),
        instruction(LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
    ]
    for nr, _ in rules:
        # Taken: skip the remaining comparisons and the ALLOW, land on this rule's RET.
        code.append(instruction(JEQ_K, len(rules), 0, nr))
    code.append(instruction(RET_K, 0, 0, SECCOMP_RET_ALLOW))
    code += [instruction(RET_K, 0, 0, SECCOMP_RET_ERRNO | err) for _, err in rules]
    return b"".join(code)


def install_filter() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    filt = program()
    prog = SockFprog(len(filt) // 8, filt)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: nosys.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    if platform.machine() != "x86_64":
        print(f"nosys.py: error: only x86-64 hosts, not {platform.machine()}", file=sys.stderr)
        return 2
    install_filter()
    os.execvp(argv[1], argv[1:])
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv))
