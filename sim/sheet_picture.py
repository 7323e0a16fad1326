"""The docs' picture of the Spielberichtsbogen: a seeded league match of ten Partien at two
tables of four, drawn as the PDF `schocken sheet --pdf` writes and rendered by poppler's
``pdftoppm`` (Debian's poppler-utils) to a PNG."""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from engine import GameSetup, load_preset
from engine.bots import make_bot, play_game
from engine.scoring import game_result, load_scheme
from firmware.report.pdf import sheet_pdf
from firmware.store.evening import Evening, EveningGame
from firmware.store.spieltag import LeaguePlayer, Spieltag

__all__ = ["match_evening", "write_sheet_png"]

#: The seats, names and Spielernummern of the pictured match.
_PLAYERS = (
    ("H1", "Anna", "1201", 1), ("H2", "Ben", "1202", 1), ("G1", "Cem", "2301", 1),
    ("G2", "Dora", "2302", 1), ("H3", "Emil", "1203", 2), ("H4", "Frieda", "1204", 2),
    ("G3", "Götz", "2303", 2), ("G4", "Hanne", "2304", 2),
)  # fmt: skip


def match_evening(seed: int = 26, scheme: str = "platzpunkte") -> Evening:
    """A league match: five Partien at each table, played by the threshold bot, seeded."""
    rules = load_preset("standard")
    rng = random.Random(seed)
    players = tuple(LeaguePlayer(name, seat, number, table) for seat, name, number, table in
                    _PLAYERS)  # fmt: skip
    games: list[EveningGame] = []
    for table in (1, 2):
        names = tuple(p.name for p in players if p.table == table)
        for _ in range(5):
            setup = GameSetup(names, rules)
            game = play_game(setup, {name: make_bot("threshold") for name in names}, rng)
            result = game_result(setup, game.actions)
            games.append(EveningGame(len(games) + 1, table, setup, tuple(game.actions), result))
    spieltag = Spieltag(
        "20261201-190000", "7. Spieltag", load_scheme(scheme), "2026-12-01", "Gasthaus Zum Anker",
        "Schockfreunde Werl", "3. Kompanie", 1, players,
    )
    return Evening(spieltag, tuple(games))


def write_sheet_png(path: Path, lang: str = "de", resolution: int = 80) -> None:
    """The pictured match's sheet as a PNG at ``path`` (needs ``pdftoppm``)."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise RuntimeError("pdftoppm is missing: install Debian's poppler-utils")
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "sheet.pdf"
        pdf.write_bytes(sheet_pdf(match_evening(), lang))
        subprocess.run(
            [pdftoppm, "-png", "-r", str(resolution), "-singlefile", str(pdf),
             str(Path(folder) / "sheet")],
            check=True,
        )  # fmt: skip
        shutil.copyfile(Path(folder) / "sheet.png", path)
