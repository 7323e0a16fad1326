"""The screen a crash loop ends on: ``schocken run --error-screen`` (docs/deploy.md).

systemd restarts the service after a failure; when the restarts hit the unit's start limit, or
the configuration is refused (exit status 2, which is not retried), the unit fails and its
``OnFailure=`` starts ``schockbesteck-error.service``. That service runs this once: it draws why
the device stopped on the OLED and leaves the picture there, instead of a dark panel.

Why, in this order: the configuration's own error when it does not load (the usual cause), else
the failed unit's result as systemd hands it to ``OnFailure=`` units (``$MONITOR_SERVICE_RESULT``,
``$MONITOR_EXIT_CODE``, ``$MONITOR_EXIT_STATUS``), else a plain "stopped".
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import LINE, TITLE_HEIGHT, WIDTH, render
from firmware.screen.views import BannerView
from hal.ports import SCREEN_SIZE

__all__ = ["MAX_LINES", "error_image", "error_lines", "failure_reason", "wrap"]

#: Text lines under the title bar.
MAX_LINES = (SCREEN_SIZE[1] - TITLE_HEIGHT - 4) // LINE


def failure_reason(environ: Mapping[str, str]) -> str | None:
    """The failed unit's result in a few words, e.g. ``"exit-code, status 1"``; None if unknown.

    Read from what systemd gives an ``OnFailure=`` unit: ``MONITOR_SERVICE_RESULT`` (such as
    ``exit-code``, ``signal``, ``watchdog``, ``start-limit-hit``), ``MONITOR_EXIT_CODE``
    (``exited``, ``killed``, ``dumped``) and ``MONITOR_EXIT_STATUS`` (a number or a signal name).
    """
    result = environ.get("MONITOR_SERVICE_RESULT", "").strip()
    status = environ.get("MONITOR_EXIT_STATUS", "").strip()
    code = environ.get("MONITOR_EXIT_CODE", "").strip()
    if not result:
        return None
    if status and code == "exited":
        return f"{result}, status {status}"
    if status:
        return f"{result}, {status}"
    return result


def wrap(text: str, width: int = WIDTH - 2) -> list[str]:
    """Words of ``text`` in lines no wider than ``width`` pixels; a too long word is cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if FONT.width(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = FONT.fit(word, width)
    if current:
        lines.append(current)
    return lines


def error_lines(catalogue: OledWords, config_problem: str | None, reason: str | None) -> list[str]:
    """The screen's text lines: why the device stopped (cut with "…"), then where the log is."""
    t = catalogue.t
    if config_problem is not None:
        cause = t("fault_config", problem=config_problem)
    elif reason is not None:
        cause = t("fault_result", result=reason)
    else:
        cause = t("fault_unknown")
    tail = wrap(t("fault_log"))
    head = wrap(cause)
    room = MAX_LINES - len(tail)
    if len(head) > room:  # the rest is in the journal; say that the text goes on
        head = [*head[: room - 1], FONT.fit(head[room - 1] + " …", WIDTH - 2)]
    return [*head, *tail]


def error_image(
    catalogue: OledWords, config_problem: str | None, reason: str | None
) -> Image.Image:
    """The error screen: a title bar over :func:`error_lines`."""
    lines = error_lines(catalogue, config_problem, reason)
    return render(BannerView(title=catalogue.t("fault_title"), headline="", lines=tuple(lines)))
