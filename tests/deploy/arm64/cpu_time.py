"""Run a command; print its CPU seconds (user + system, children included) and wall seconds.

    python3 cpu_time.py COMMAND [ARGS...]      ->  "12.34 cpu 15.60 wall" on stdout

The command's own output goes to stderr. Used by make test-deploy to compare `schocken
simulate` under qemu-user with the same command on the host: CPU time, because wall time on a
shared machine says more about the neighbours than about the code.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: cpu_time.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    start = time.monotonic()
    proc = subprocess.run(argv[1:], stdout=sys.stderr, check=False)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(f"cpu_time.py: {argv[1]} exited with {proc.returncode}", file=sys.stderr)
        return proc.returncode
    print(f"{usage.ru_utime + usage.ru_stime:.2f} cpu {wall:.2f} wall")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
