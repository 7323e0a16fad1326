"""The screen a crash loop ends on: `schocken run --error-screen` (schockbesteck-error.service)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware.screen.error_screen import MAX_LINES, error_image, error_lines, failure_reason
from firmware.screen.font import FONT
from firmware.screen.oled_words import OledWords
from firmware.screen.screens import WIDTH
from hal.oled import show_and_keep
from hal.ports import SCREEN_SIZE
from hal.settings import OledSettings
from tests.hal.test_oled import DISPLAYOFF, FakeI2CBus

LOG_HINT = ["Log: journalctl -u", "schockbesteck"]
SCHOCKEN = [
    sys.executable, "-c", "import sys; from schockbesteck.cli import main; sys.exit(main())"
]


@pytest.mark.parametrize(
    ("environ", "reason"),
    [
        ({}, None),
        ({"MONITOR_SERVICE_RESULT": "exit-code", "MONITOR_EXIT_CODE": "exited",
          "MONITOR_EXIT_STATUS": "1"}, "exit-code, status 1"),
        ({"MONITOR_SERVICE_RESULT": "watchdog", "MONITOR_EXIT_CODE": "killed",
          "MONITOR_EXIT_STATUS": "ABRT"}, "watchdog, ABRT"),
        ({"MONITOR_SERVICE_RESULT": "start-limit-hit"}, "start-limit-hit"),
    ],
)  # fmt: skip
def test_failure_reason_from_systemd(environ: dict[str, str], reason: str | None) -> None:
    assert failure_reason(environ) == reason


def test_config_problem_comes_first_and_fits() -> None:
    problem = 'game.language = "fr": use "de" or "en"'

    lines = error_lines(OledWords("en"), problem, "exit-code, status 2")

    assert lines[-2:] == LOG_HINT
    assert " ".join(lines[:-2]) == f"Configuration: {problem}"
    assert all(FONT.width(line) <= WIDTH - 2 for line in lines)
    assert len(lines) <= MAX_LINES


def test_a_long_problem_is_cut_visibly_and_the_log_hint_stays() -> None:
    lines = error_lines(OledWords("de"), "word " * 80, None)

    assert len(lines) == MAX_LINES
    assert lines[-2:] == LOG_HINT
    assert lines[-3].endswith("…")


def test_systemd_result_in_german() -> None:
    lines = error_lines(OledWords("de"), None, "watchdog, ABRT")

    assert lines == ["Dienst gestoppt:", "watchdog, ABRT", *LOG_HINT]


def test_error_image_stays_on_the_panel_after_exit() -> None:
    """luma's real SSD1306 driver: the frame is sent whole, and its exit hook does not blank it."""
    bus = FakeI2CBus()
    image = error_image(OledWords("de"), None, "exit-code, status 1")
    assert image.size == SCREEN_SIZE and image.getbbox() is not None

    device = show_and_keep(OledSettings(), image, bus=bus)
    commands_before_exit = len(bus.commands)
    device.cleanup()  # what luma's atexit hook does when the process ends

    # luma clears the panel while it initialises it, then the picture goes out whole.
    assert bus.data_bytes == 2 * SCREEN_SIZE[0] * SCREEN_SIZE[1] // 8
    assert bus.commands[-1] != [DISPLAYOFF]
    assert all(command != [DISPLAYOFF] for command in bus.commands[commands_before_exit:])


def test_cli_names_the_config_problem_when_no_panel_answers(tmp_path: Path) -> None:
    """On this machine there is no /dev/i2c-1: the reason is logged, and exit 1 says "dark"."""
    if Path("/dev/i2c-1").exists():
        pytest.skip("this machine has an I2C bus; the test wants none")
    config = tmp_path / "config.toml"
    config.write_text('[game]\nplayers = "x"\n')

    proc = subprocess.run(
        [*SCHOCKEN, "run", "--error-screen", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert proc.returncode == 1
    assert 'service stopped: game.players = "x"' in proc.stderr
    assert "the error screen stays dark" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_error_screen_and_check_exclude_each_other() -> None:
    proc = subprocess.run(
        [*SCHOCKEN, "run", "--error-screen", "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "schocken run: error: --error-screen and --check exclude each other"
    )
