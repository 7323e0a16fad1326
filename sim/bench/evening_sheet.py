"""The bench's figures of an evening: the PDF library's import, the Spielberichtsbogen of a
league match as PDF and CSV, and an evening's standings recounted from a state directory."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hal.storage import StateDirectory
from sim.bench.figures import Measurement

__all__ = ["sheet_figures"]


def _fastest(runs: int, argv: list[str]) -> float:
    """The least wall time of ``runs`` runs of ``python argv``, in seconds."""
    fastest = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, *argv], stdout=subprocess.DEVNULL, check=True)
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


def _per_call(runs: int, function: Callable[[], object]) -> float:
    """The least wall time of ``runs`` calls of ``function``, in seconds."""
    fastest = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        function()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


def _scratch_directory(root: Path) -> StateDirectory:
    """A state directory whose journals are appended without fsync: the 50 games the standings
    are read from are the measurement's scenery, written once and never at risk (thousands of
    fsyncs, seconds on a slow disk, that no figure counts)."""

    class Scratch(StateDirectory):
        def append_durable(self, name: str, data: bytes) -> None:
            with self.path(name).open("ab") as journal:
                journal.write(data)

    return Scratch(root)


def sheet_figures(runs: int = 5) -> list[Measurement]:
    """Import of the PDF module in a fresh interpreter (beyond a bare one), one match sheet as
    PDF and CSV, and the standings of ten games in a state directory that keeps 50."""
    from engine import Game
    from firmware.report.document import csv_text
    from firmware.report.pdf import sheet_pdf
    from firmware.report.sheet import evening_sheet, sheet_rows
    from firmware.store.evening import load_evening
    from firmware.store.gamestore import GameStore
    from firmware.store.journal import JournalHeader
    from firmware.store.spieltagfile import SpieltagFiles, open_spieltag_id
    from sim.pictures.league_match import match_evening

    bare = _fastest(runs, ["-c", "pass"])
    with_pdf = _fastest(runs, ["-c", "import firmware.report.pdf"])
    evening = match_evening()
    pdf_s = _per_call(runs, lambda: sheet_pdf(evening_sheet(evening)))
    csv_s = _per_call(runs, lambda: csv_text(sheet_rows(evening_sheet(evening))))
    with tempfile.TemporaryDirectory() as folder:
        storage = _scratch_directory(Path(folder))
        store = GameStore(storage)
        for index in range(50):
            if index == 40:  # the last ten are the evening's, as the device writes them
                SpieltagFiles(storage).begin(evening.spieltag)
            played = evening.games[index % len(evening.games)]
            game = Game(played.setup)
            store.begin(JournalHeader(played.setup, spieltag=open_spieltag_id(storage)))
            for action in played.actions:
                store.record(game.apply(action))
        load_s = _per_call(runs, lambda: load_evening(storage).standings())
    return [
        Measurement("sheet_import_ms", "import of the sheet's PDF module (reportlab), beyond a "
                    "bare interpreter", (with_pdf - bare) * 1e3, "ms", target=500),
        Measurement("sheet_pdf_ms", "a league match's Spielberichtsbogen (10 Partien) as PDF",
                    pdf_s * 1e3, "ms", target=100),
        Measurement("sheet_csv_ms", "the same sheet as CSV", csv_s * 1e3, "ms", target=20),
        Measurement("evening_standings_ms", "an evening's standings, 10 games recounted from "
                    "their journals among 50 kept", load_s * 1e3, "ms", target=500),
    ]  # fmt: skip
