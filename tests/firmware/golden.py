"""The golden images: one PNG per screen in tests/firmware/golden/, and the command that makes them.

    python -m tests.firmware.golden --refresh          # rewrite every PNG from the current code
    python -m tests.firmware.golden --preview /tmp/g   # 4x enlarged copies to look at

Each scene is a view (:mod:`firmware.screen.views`) as the app builds them. ``test_golden.py``
renders every scene and compares it pixel for pixel with its PNG. Read tests/firmware/README.md
before accepting a change.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

from engine.rules import load_preset
from firmware.screen.oled_words import OledWords
from firmware.screen.rulestext import rules_summary
from firmware.screen.screens import render
from firmware.screen.views import (
    BannerView,
    DieFace,
    HandOverView,
    MenuView,
    NameEntryView,
    PickerView,
    RevealRow,
    RevealView,
    RollOffRow,
    RollOffView,
    RulesView,
    SeatRow,
    SeatsView,
    TableCardView,
    Tally,
    TurnView,
    View,
)

GOLDEN_DIR = Path(__file__).parent / "golden"

_TEN = ("Anna", "Ben", "Carla", "Dirk", "Eva", "Fritz", "Gabi", "Hans", "Ines", "Jörg")
THREE = (Tally("Anna", 3, current=True), Tally("Ben", 0), Tally("Carla", 5))
WITH_BOTS = (Tally("Anna", 3), Tally("⚙Ben", 0, current=True), Tally("⚙Carla", 5))
TEN = tuple(
    Tally(name, (index * 3) % 7, current=index == 2, out=index == 5)
    for index, name in enumerate(_TEN)
)

SCENES: dict[str, View] = {
    "setup_players": PickerView("Spieler", "1/5", "3", "Anna ⚙Ben Carla", ("-", "+", "Weiter")),
    "setup_bots": SeatsView(
        "Computer",
        "2/5",
        (
            SeatRow("Anna", "Mensch"),
            SeatRow("Ben", "⚙ Quoten"),
            SeatRow("Carla", "⚙ Faustregel"),
            SeatRow("Dirk", "Mensch"),
            SeatRow("Eva", "Mensch"),
        ),
        2,
        ("Platz ▼", "ändern", "Weiter"),
    ),
    "setup_rules": PickerView(
        "Regeln",
        "3/5",
        "standard",
        "Die verbreiteten Regeln: 13 Deckel, Schock 2 über dem General",
        ("-", "+", "Weiter"),
    ),
    "setup_start": PickerView(
        "Start", "5/5", "Los!", "3 Spieler (1 ⚙), standard, 13 Deckel", ("", "", "OK")
    ),
    "roll_off_waiting": RollOffView(
        "Auswürfeln", (), ("Anna", "Ben", "Carla"), "Becher schütteln"
    ),
    "roll_off_decided": RollOffView(
        "Auswürfeln",
        (
            RollOffRow("Anna", (6, 5, 3), lead=True),
            RollOffRow("Ben", (4, 2, 1)),
            RollOffRow("Carla", (2, 2, 1)),
        ),
        (),
        "Anna fängt an!",
    ),
    "roll_off_tie_ten": RollOffView(
        "Auswürfeln",
        tuple(RollOffRow(name, (6, 6, 6 - i % 3), lead=i < 2) for i, name in enumerate(_TEN)),
        (),
        "Stechen: Anna, Ben",
    ),
    "hand_over_opener": HandOverView(
        "Becher an", "1. Hälfte", "Carla", "beginnt Runde 1", (), "Drücken oder schütteln", THREE
    ),
    "hand_over_hidden": HandOverView(
        "Becher an",
        "max. 2 Würfe",
        "Ben",
        "Anna:",
        (DieFace(1, out=True), DieFace(1, out=True), DieFace(None)),
        "Drücken oder schütteln",
        THREE,
    ),
    "turn_before_throw": TurnView(
        "Anna", "Wurf 0/3", (DieFace(None),) * 3, "Schütteln!", "Topf 13", THREE
    ),
    "turn_shaking": TurnView(
        "Anna",
        "Wurf 1/3",
        (DieFace(1, out=True, fixed=True), DieFace(None), DieFace(None)),
        "…und abstellen",
        "Topf 13",
        THREE,
        shaking=True,
        frame=1,
    ),
    "turn_marked": TurnView(
        "Anna",
        "Wurf 2/3",
        (DieFace(1, out=True, fixed=True), DieFace(1, out=True), DieFace(4)),
        "Schock 4",
        "Topf 9",
        THREE,
    ),
    "turn_flip": TurnView(
        "Ben", "Wurf 1/3", (DieFace(6), DieFace(6), DieFace(3)), "FLIP: 6+6 → 1", "Topf 9", THREE
    ),
    "turn_faces": TurnView(
        "Carla",
        "Wurf 1/2",
        (DieFace(2), DieFace(5), DieFace(6)),
        "Hausnummer 652",
        "Topf 0",
        THREE,
    ),
    "turn_ten_players": TurnView(
        "Carla",
        "Wurf 1/3",
        (DieFace(3), DieFace(5, out=True), DieFace(2)),
        "Hausnummer 532",
        "Topf 4",
        TEN,
    ),
    "turn_bot_keeps": TurnView(
        "⚙Ben",
        "Wurf 1/3",
        (DieFace(1, out=True), DieFace(6, out=True), DieFace(None)),
        "legt raus",
        "Topf 9",
        WITH_BOTS,
    ),
    "hand_over_to_bot": HandOverView(
        "Becher an",
        "max. 2 Würfe",
        "⚙Carla",
        "⚙Ben:",
        (DieFace(1, out=True), DieFace(None), DieFace(None)),
        "spielt gleich…",
        WITH_BOTS,
    ),
    "turn_english": TurnView(
        "Anna", "Throw 3/3", (DieFace(1), DieFace(1), DieFace(1)), "Schock aus", "next ▶", THREE
    ),
    "reveal": RevealView(
        "Aufdecken",
        "Runde 3",
        (
            RevealRow("Anna", "Schock 4", 1),
            RevealRow("Ben", "Hausnummer 421", -1),
            RevealRow("Carla", "Straße 4-3-2"),
        ),
        "Ben +4 aus dem Topf",
        "Drücken oder schütteln",
    ),
    "reveal_out": RevealView(
        "Aufdecken",
        "1/2",
        tuple(
            RevealRow(name, throw, mark, out)
            for name, throw, mark, out in (
                ("Anna", "General 5", 1, True),
                ("Ben", "Hausnummer 642", 0, False),
                ("Carla", "Hausnummer 321", -1, False),
                ("Dirk", "Schock 2", 0, False),
                ("Eva", "Straße 6-5-4", 0, False),
            )
        ),
        "Anna → Carla: 3 · raus: Anna",
        "Drücken oder schütteln",
    ),
    "half_over": BannerView(
        "1. Hälfte", "Ben", ("verliert die 1. Hälfte", "Weiter: 2. Hälfte"), ("", "", "OK")
    ),
    "final": BannerView(
        "2. Hälfte", "Carla", ("verliert die 2. Hälfte", "Finale: Ben gegen Carla"), ("", "", "OK")
    ),
    "game_over_blattschuss": BannerView(
        "Spielende",
        "Ben",
        ("Blattschuss!", "gibt eine Runde aus"),
        ("", "", "Neu"),
    ),
    "menu": MenuView(
        "Menü",
        ("Weiter", "Neues Spiel", "Regeln", "Strafe", "Helligkeit", "Sprache", "Ausschalten"),
        3,
        ("▲", "▼", "OK"),
    ),
    "refusal": BannerView("Regeln", "", ("Regeln nur", "zwischen Spielen"), ("", "", "OK")),
    "hint": BannerView(
        "Tipp", "53 %", ("1 liegen lassen", "nicht Letzter"), ("", "", "OK")
    ),
    # The opener's 3-1-1 at a table of three: standing, beside the chase for a Schock aus.
    "hint_compared": BannerView(
        "Tipp", "99,8 %", ("Stehen lassen",), ("", "", "OK"), aside="nicht Letzter",
        note="1 und 1 liegen lassen: 98,9 %",
    ),
    "hint_refused": BannerView("Tipp", "", ("Keine Tipps", "im Turnier"), ("", "", "OK")),
    "brightness": PickerView("Helligkeit", "4/5", "4", "Stufe 4 von 5", ("◀", "▶", "OK")),
    "goodbye": BannerView("Schockbesteck", "Tschüss!", ("wird ausgeschaltet",)),
    "setup_names": SeatsView(
        "Namen",
        "2/6",
        tuple(SeatRow(name, "") for name in ("Jürgen", "⚙Ben", "Ann-Kathri", "Spieler4")),
        2,
        ("Platz ▼", "Name", "Weiter"),
    ),
    "name_roster": MenuView(
        "Platz 3: Name", ("Neuer Name…", "Wolfgang", "Özlem", "Jo"), 1, ("▲", "▼", "OK")
    ),
    "name_entry": NameEntryView(
        "Neu: Platz 3",
        "3/10",
        "Özl",
        "e",
        ("FLIP löscht · STAND ok", "Halten: Abbruch"),
        "",
        ("◀ d", "nimm", "f ▶"),
    ),
    "name_entry_taken": NameEntryView(
        "Neu: Platz 3",
        "10/10",
        "Ann-Kathri",
        "",
        ("FLIP löscht · STAND ok", "Halten: Abbruch"),
        "Name gibt es schon",
        ("◀ J", "nimm", "L ▶"),
    ),
    "rules_in_force": RulesView(
        "Regeln",
        (*rules_summary(load_preset("dsm"), OledWords("de")), "Ändern: erst nach dem Spiel"),
        1,
        ("▲", "▼", "OK"),
    ),
    # a tournament's table: its card
    "table_card": TableCardView(
        "Tisch 7 · Runde 2",
        ("Anna", "Ben", "Carla", "Dora"),
        "noch 42 min",
        "noch nicht gemeldet (3)",
        ("", "", "Spielen"),
    ),
}


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"


def refresh(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every scene's PNG (mode "1") and delete PNGs of scenes that no longer exist."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, view in SCENES.items():
        path = directory / f"{name}.png"
        render(view).save(path, optimize=True)
        written.append(path)
    for stale in set(directory.glob("*.png")) - set(written):
        stale.unlink()
    return written


def preview(directory: Path, scale: int = 4) -> list[Path]:
    """Enlarged copies (nearest neighbour, a grey margin) for looking at the screens."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, view in SCENES.items():
        image = render(view).convert("L")
        big = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
        framed = Image.new("L", (big.width + 8, big.height + 8), 96)
        framed.paste(big, (4, 4))
        path = directory / f"{name}.png"
        framed.save(path)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.firmware.golden", description=__doc__)
    parser.add_argument("--refresh", action="store_true", help="rewrite the golden PNGs")
    parser.add_argument("--preview", metavar="DIR", help="write 4x enlarged copies to DIR")
    args = parser.parse_args(argv)
    if not args.refresh and not args.preview:
        parser.error("give --refresh and/or --preview DIR")
    if args.refresh:
        paths = refresh()
        print(f"wrote {len(paths)} golden images to {GOLDEN_DIR}")
    if args.preview:
        paths = preview(Path(args.preview))
        print(f"wrote {len(paths)} previews to {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
