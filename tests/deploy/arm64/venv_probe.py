"""make test-deploy: what install.sh put into the venv on arm64 (run with the venv's Python).

Prints one line per finding and exits non-zero at the first thing that is wrong.
"""

from __future__ import annotations

import importlib.metadata
import platform
import sys


def check(condition: bool, message: str) -> None:
    print(("ok: " if condition else "WRONG: ") + message)
    if not condition:
        sys.exit(1)


def main() -> None:
    check(platform.machine() == "aarch64", f"machine {platform.machine()}")
    check(sys.version_info[:2] >= (3, 11), f"Python {platform.python_version()}")

    import lgpio

    version = importlib.metadata.version("lgpio")
    # PyPI's lgpio 0.0.0.2 is an empty package: the real one has the chip functions.
    check(version != "0.0.0.2" and hasattr(lgpio, "gpiochip_open"), f"lgpio {version} from PyPI")

    from systemd import daemon

    check(
        daemon.__file__ is not None and "/usr/lib/python3/dist-packages/" in daemon.__file__,
        f"python3-systemd from Debian, seen through --system-site-packages ({daemon.__file__})",
    )
    from hal.watchdog import open_notifier

    opened = open_notifier({"NOTIFY_SOCKET": "@schockbesteck-probe"})
    check(opened is not None and opened[1] == "python-systemd", "hal.watchdog prefers it")

    for dist in ("schockbesteck", "gpiozero", "luma.oled", "pyserial", "pillow", "sdnotify"):
        print(f"    {dist} {importlib.metadata.version(dist)}")


if __name__ == "__main__":
    main()
