"""The table "Würfe und Wertigkeit" of "Was ist Schocken?": order and Deckel of every row."""

from __future__ import annotations

from engine import Kind, load_preset, rank_table

# (dice as the table writes them, Deckel; None = "alle"), best first, as in that table.
SEED_003_TOP = [
    ((1, 1, 1), None),  # Schock Out = höchster Wurf
    ((1, 1, 6), 6),
    ((1, 1, 5), 5),
    ((1, 1, 4), 4),
    ((1, 1, 3), 3),
    ((1, 1, 2), 2),
    ((6, 6, 6), 3),
    ((5, 5, 5), 3),
    ((4, 4, 4), 3),
    ((3, 3, 3), 3),
    ((2, 2, 2), 3),
    ((6, 5, 4), 2),
    ((5, 4, 3), 2),
    ((4, 3, 2), 2),
    ((3, 2, 1), 2),
    ((6, 6, 5), 1),  # Hausnummer (665)
    ((6, 6, 4), 1),  # Hausnummer (664), "usw. bis"
]


def hand_ranking() -> list[tuple[tuple[int, ...], int | None, int, Kind]]:
    table = rank_table(load_preset("standard"))
    return [(e.dice, e.deckel, e.strength, e.kind) for e in table.ranking if e.hand]


def test_every_listed_row_in_order_with_its_deckel() -> None:
    ranking = hand_ranking()
    listed = [(tuple(sorted(dice, reverse=True)), deckel) for dice, deckel in SEED_003_TOP]
    assert [(dice, deckel) for dice, deckel, _, _ in ranking[: len(listed)]] == listed
    strengths = [strength for _, _, strength, _ in ranking]
    assert strengths == sorted(set(strengths), reverse=True), "every throw has its own place"


def test_hausnummern_run_from_665_down_to_221() -> None:
    ranking = hand_ranking()
    numbers = [
        100 * d[0] + 10 * d[1] + d[2] for d, _, _, kind in ranking if kind is Kind.HAUSNUMMER
    ]
    assert numbers[0] == 665 and numbers[-1] == 221, "Hausnummer (221) = niedrigster Wurf"
    assert numbers == sorted(numbers, reverse=True)
    assert ranking[-1][0] == (2, 2, 1)
    assert all(deckel == 1 for _, deckel, _, kind in ranking if kind is Kind.HAUSNUMMER)
    # 56 distinct throws of three dice: 1 Schock aus, 5 Schocks, 5 Generals, 4 Straßen.
    assert len(ranking) == 56 and len(numbers) == 56 - 15


def test_table_names() -> None:
    table = rank_table(load_preset("standard"))
    assert table.evaluate((1, 1, 1)).name == "Schock aus"
    assert table.evaluate((6, 1, 1)).name == "Schock 6"
    assert table.evaluate((5, 5, 5)).name == "General 5"
    assert table.evaluate((4, 6, 5)).name == "Straße 6-5-4"
    assert table.evaluate((3, 6, 5)).name == "Hausnummer 653"  # Regeln und Varianten
    assert table.evaluate((1, 5, 3)).name == "Hausnummer 531"  # BVB: "Aus 1, 5 und 3 wird so 531"
