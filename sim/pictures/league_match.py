"""The docs' pictures of an evening: the Spielberichtsbogen of a seeded league match of ten
Partien at two tables of four, drawn as the PDF `schocken sheet --pdf` writes and rendered by
poppler's ``pdftoppm`` (Debian's poppler-utils) to a PNG; and the device's Spieltag screens."""

from __future__ import annotations

import functools
import random
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine import GameSetup, load_preset
from engine.bots import make_bot, play_game
from engine.scoring import game_result, load_scheme
from engine.spieltag import Evening, EveningGame, LeaguePlayer, Spieltag
from firmware.report.pdf import sheet_pdf
from firmware.report.sheet import evening_sheet

if TYPE_CHECKING:
    from firmware.app.stages.overlays import Picker
    from firmware.screen.oled_words import OledWords
    from firmware.screen.views import PickerView, View

__all__ = ["match_evening", "write_scharf_screens", "write_sheet_png", "write_spieltag_screens"]

#: The seats, names and Spielernummern of the pictured match.
_PLAYERS = (
    ("H1", "Anna", "1201", 1), ("H2", "Ben", "1202", 1), ("G1", "Cem", "2301", 1),
    ("G2", "Dora", "2302", 1), ("H3", "Emil", "1203", 2), ("H4", "Frieda", "1204", 2),
    ("G3", "Götz", "2303", 2), ("G4", "Hanne", "2304", 2),
)  # fmt: skip


@functools.cache  # ten games played by a bot: once per process (an Evening is frozen)
def match_evening(seed: int = 26, scheme: str = "platzpunkte") -> Evening:
    """A league match: five Partien at each table, played by the threshold bot, seeded; with
    the league's header (Staffel, match number, captains, a time box of 70 minutes that ran
    out in none of them), 2 Mannschaftspunkte for a won match, each Partie ending 14 minutes
    after the one before."""
    rules = load_preset("standard")
    rng = random.Random(seed)
    players = tuple(LeaguePlayer(name, seat, number, table) for seat, name, number, table in
                    _PLAYERS)  # fmt: skip
    games: list[EveningGame] = []
    for table in (1, 2):
        names = tuple(p.name for p in players if p.table == table)
        for index in range(5):
            setup = GameSetup(names, rules)
            game = play_game(setup, {name: make_bot("threshold") for name in names}, rng)
            result = game_result(setup, game.actions)
            minutes = 19 * 60 + 14 * (index + 1)
            ended_at = f"2026-12-01T{minutes // 60:02}:{minutes % 60:02}:00+01:00"
            games.append(EveningGame(len(games) + 1, table, setup, tuple(game.actions), result,
                                     ended_at))  # fmt: skip
    spieltag = Spieltag(
        "20261201-190000", "7. Spieltag", replace(load_scheme(scheme), team_points=(2, 1, 0)),
        "2026-12-01", "Gasthaus Zum Anker", "Schockfreunde Werl", "3. Kompanie", 1, players,
        time_box=70, began_at="2026-12-01T19:00:00+01:00", league="Bezirksliga Staffel B",
        match_number="117", home_captain="Anna", guest_captain="Cem",
    )
    return Evening(spieltag, tuple(games))


def write_sheet_png(path: Path, lang: str = "de", resolution: int = 80) -> None:
    """The pictured match's sheet as a PNG at ``path`` (needs ``pdftoppm``)."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise RuntimeError("pdftoppm is missing: install Debian's poppler-utils")
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "sheet.pdf"
        pdf.write_bytes(sheet_pdf(evening_sheet(match_evening()), lang))
        subprocess.run(
            [pdftoppm, "-png", "-r", str(resolution), "-singlefile", str(pdf),
             str(Path(folder) / "sheet")],
            check=True,
        )  # fmt: skip
        shutil.copyfile(Path(folder) / "sheet.png", path)


def write_spieltag_screens(path: Path) -> None:
    """The device's Spieltag screens, in German (top) and English (below), at twice the OLED's
    size: the standings under Platzpunkte and under Leben, choosing the scheme, the evening
    begun."""
    from PIL import Image

    from engine.scoring import SCHEME_PRESETS
    from firmware.app.session.moments import EveningStandings
    from firmware.app.stages.overlays import Message
    from firmware.app.stages.standings import StandingsList, scheme_name, scheme_picker
    from firmware.screen.oled_words import OledWords
    from firmware.screen.screens import render

    schemes = tuple(SCHEME_PRESETS)
    points = EveningStandings(
        "Spieltag 3", "platzpunkte", 3, False,
        ((1, "Anna", 14), (2, "Ben", 9), (2, "Carla", 9), (4, "Dirk", -1)),
    )
    lives = EveningStandings(
        "Spieltag 3", "leben", 3, True,
        ((1, "Anna", 3), (2, "Ben", 2), (3, "Carla", 1), (4, "Dirk", 0)),
    )
    gap, width, height = 8, 256, 128
    sheet = Image.new("L", (4 * width + 3 * gap, 2 * height + gap), 96)
    for row, language in enumerate(("de", "en")):
        texts = OledWords(language)
        views: tuple[View, ...] = (
            StandingsList(points).view(texts),
            StandingsList(lives, 3).view(texts),
            _picker_at(scheme_picker(texts, lambda i: None), schemes.index("platzpunkte"), texts),
            Message(
                "spieltag_begun_title", ("Spieltag 3", scheme_name(texts, "platzpunkte"))
            ).view(texts),
        )
        for column, view in enumerate(views):
            frame = render(view).convert("L").resize((width, height), Image.Resampling.NEAREST)
            sheet.paste(frame, (column * (width + gap), row * (height + gap)))
    sheet.save(path, optimize=True)


def _picker_at(picker: Picker, index: int, texts: OledWords) -> PickerView:
    picker.index = index
    return picker.view(texts)


def write_scharf_screens(path: Path) -> None:
    """The time box on the device, in German (top) and English (below), at twice the OLED's
    size: choosing it after the scheme, the banner when it runs out during a round, a scharf
    turn (the corner says scharf), and a scharf reveal."""
    from PIL import Image

    from engine import RoundOver, TurnOver, from_notation
    from firmware.app.session.session import Session
    from firmware.app.stages.reveal import RevealStage
    from firmware.app.stages.standings import TIME_BOXES, scharf_banner, time_box_picker
    from firmware.app.stages.turn import TurnStage
    from firmware.config import DeviceConfig
    from firmware.dice import SeededDice
    from firmware.screen.oled_words import OledWords
    from firmware.screen.screens import render
    from firmware.store.stores import open_stores
    from sim.fakes import FakeClock

    players = ("Anna", "Ben", "Carla")
    setup = GameSetup(players, load_preset("standard"))
    gap, width, height = 8, 256, 128
    sheet = Image.new("L", (4 * width + 3 * gap, 2 * height + gap), 96)
    for row, language in enumerate(("de", "en")):
        texts = OledWords(language)
        session = Session(
            DeviceConfig(), clock=FakeClock(100.0), dice=SeededDice(1), stores=open_stores(None),
            plan=None, event_sink=None, shutdown=None,
        )
        session.choose_language(texts.language)
        table = session.open_table(setup)
        # Anna has thrown when the time runs out: this round is settled as ever, then scharf.
        table.game = from_notation("1 13 Anna=0,Ben=0,Carla=0 1 Anna:431h1 Ben:---/0 s", setup)
        banner = scharf_banner(session).view(texts)
        table.game = from_notation("1 12 Anna=1,Ben=0,Carla=0 1 Anna:332h1 Ben:551/1h S", setup)
        turn = TurnStage(session, table).view()
        turns = (
            TurnOver("Anna", (3, 3, 2), True, 1, "Hausnummer 332", 1),
            TurnOver("Ben", (5, 5, 1), True, 1, "Hausnummer 551", 1),
            TurnOver("Carla", (6, 4, 1), True, 1, "Hausnummer 641", 1),
        )
        result = RoundOver(
            "Carla", "Anna", "Hausnummer 641", "Hausnummer 332", 0, "pot", (), 12,
            (("Anna", 1), ("Ben", 0), ("Carla", 0)), turns, scharf=True,
        )
        picker = time_box_picker(texts, lambda minutes: None)
        picker.index = TIME_BOXES.index(70)
        views: tuple[View, ...] = (
            picker.view(texts), banner, turn, RevealStage(session, table, result, 2).view(),
        )
        for column, view in enumerate(views):
            frame = render(view).convert("L").resize((width, height), Image.Resampling.NEAREST)
            sheet.paste(frame, (column * (width + gap), row * (height + gap)))
    sheet.save(path, optimize=True)
