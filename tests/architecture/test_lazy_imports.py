"""Start-up loads only what it needs: checked on the modules a fresh interpreter has loaded.

The device's and the session's start need the firmware's own dependencies (Pillow, luma): on
an interpreter without them (``test_bare_interpreter.py`` runs this folder on one with nothing
but pytest) those two checks skip, naming what is missing; the engine's run everywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


def needs(*modules: str) -> pytest.MarkDecorator:
    """Skip where one of the third-party ``modules`` is not installed."""
    missing = [name for name in modules if not _installed(name)]
    return pytest.mark.skipif(bool(missing), reason=f"not installed here: {', '.join(missing)}")


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    report = "import sys; loaded = sorted(sys.modules); import json; print(json.dumps(loaded))"
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_import_engine_loads_nothing_else() -> None:
    assert {name for name in loaded_after("import engine") if name.startswith("engine.")} == set()


def test_a_public_name_loads_its_module_and_settle_stays_the_function() -> None:
    code = (
        "import engine.game\n"  # binds the submodule engine.settle on the package on the way
        "from engine import GameSetup, settle\n"
        "import engine\n"
        "assert callable(settle) and engine.settle is settle, engine.settle\n"
        "assert GameSetup is engine.game.GameSetup\n"
    )
    assert "engine.game" in loaded_after(code)


def test_ranking_a_throw_loads_neither_the_game_nor_the_odds() -> None:
    loaded = loaded_after(
        "import io, contextlib\n"
        "from schockbesteck.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['rank', '1', '1', '4'])\n"
    )
    assert "engine.throws" in loaded
    assert not loaded & {"engine.game", "engine.events", "engine.odds", "engine.bots", "json"}


@needs("PIL", "luma.oled")
def test_the_device_starts_without_the_odds_the_computer_players_and_the_link() -> None:
    loaded = loaded_after(
        "from firmware.config import DeviceConfig, GameConfig\n"
        "from firmware.wiring import build_device\n"
        "from hal.oled import open_dummy\n"
        "from sim.fakes import FakeClock\n"
        # Computer players are configured, the setup screen comes first: nothing of them yet.
        "config = DeviceConfig(game=GameConfig(bots=('', 'odds')))\n"
        "clock = FakeClock()\n"
        "display = open_dummy(clock)\n"
        "device = build_device(config, clock=clock, inputs=[], display=display, timers=[display])\n"
        "device.loop.start()\n"
        "device.close()\n"
    )
    assert "firmware.app.device" in loaded and "firmware.screen.screens" in loaded
    unwanted = {
        "engine.odds", "engine.bots", "engine.simulation", "fractions", "firmware.advice",
        "firmware.app.stages.bot_driver", "firmware.link.remote", "firmware.link.protocol",
        "secrets", "subprocess", "firmware.link.webtable", "hal.web_server", "aiohttp", "asyncio",
    }  # fmt: skip
    assert not loaded & unwanted


@needs("PIL")
def test_the_session_layer_loads_no_screen_of_the_app() -> None:
    """The layers hold at run time too: importing the session runs no stage, router or shell
    (a package's ``__init__`` that re-exported the shell would load them all)."""
    loaded = loaded_after(
        "import firmware.app.session.session, firmware.app.session.table, "
        "firmware.app.session.resume, firmware.app.session.moments"
    )
    shell = {"firmware.app.flow", "firmware.app.device"}
    above = {name for name in loaded if name.startswith("firmware.app.stages") or name in shell}
    assert "firmware.app.session.table" in loaded and above == set()
