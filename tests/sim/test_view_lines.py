"""The text form of a view (tests/sim/view_lines.py) that the headless game's golden is made of."""

from __future__ import annotations

import pytest

from firmware.screen.views import (
    BannerView,
    DieFace,
    MenuView,
    RevealRow,
    RevealView,
    Tally,
    TurnView,
)
from tests.sim.view_lines import view_line


def test_a_turn_is_one_line_of_its_fields_in_order_without_the_defaults() -> None:
    view = TurnView(
        player="Anna",
        throw_text="Wurf 2/3",
        dice=(DieFace(1, out=True, fixed=True), DieFace(1, out=True), DieFace(None)),
        status="Schock aus!",
        pot_text="Topf 13",
        board=(Tally("Anna", 2, current=True), Tally("Ben", 0, out=True)),
        shaking=True,
        frame=3,
    )
    assert view_line(view) == (
        'TurnView player=Anna throw_text="Wurf 2/3" dice=[1*_, 1*, -] status="Schock aus!" '
        'pot_text="Topf 13" board=[{name=Anna deckel=2 current}, {name=Ben deckel=0 out}] '
        "shaking frame=3"
    )


def test_rows_keep_their_marks_and_text_that_is_not_one_plain_word_is_quoted() -> None:
    view = RevealView(
        title="Aufdecken",
        page_text="1/2",
        rows=(RevealRow("Anna", "Straße 6-5-4", mark=1, out=True), RevealRow("⚙Ben", "2", -1)),
        outcome='"Anna" → Ben: 2',
    )
    assert view_line(view) == (
        'RevealView title=Aufdecken page_text="1/2" rows=[{name=Anna throw="Straße 6-5-4" '
        'mark=1 out}, {name=⚙Ben throw="2" mark=-1}] outcome="\\"Anna\\" → Ben: 2"'
    )


def test_empty_text_and_soft_keys_are_written_and_lists_keep_their_order() -> None:
    banner = BannerView("Ende", "", ("Ben verliert", "-"), keys=("", "", "OK"))
    assert view_line(banner) == (
        'BannerView title=Ende headline="" lines=["Ben verliert", "-"] keys=["", "", OK]'
    )
    menu = MenuView("Menü", ("Weiter", "Neues Spiel"), selected=1)
    assert view_line(menu) == 'MenuView title=Menü items=[Weiter, "Neues Spiel"] selected=1'


def test_a_field_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="a view field holds list"):
        view_line(BannerView("Ende", "Ben", ["a list"]))  # type: ignore[arg-type]
