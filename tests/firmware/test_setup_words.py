"""The setup names every computer player's strategy in the device's words, in both languages."""

from __future__ import annotations

import pytest

from engine.strategy_names import STRATEGY_NAMES
from firmware.app.session.session import Session
from firmware.app.stages.setup import SetupStage, SetupStep
from firmware.config import DeviceConfig
from firmware.dice import SeededDice
from firmware.screen.oled_words import OLED_WORDS, OledWords
from firmware.screen.screens import render, trace_layout
from firmware.screen.views import BOT_MARK, PickerView, SeatsView
from firmware.store.stores import open_stores
from sim.fakes import FakeClock


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("strategy", STRATEGY_NAMES)
def test_each_strategy_is_named_in_the_catalogues_words(language: str, strategy: str) -> None:
    session = Session(
        DeviceConfig(), clock=FakeClock(0.0), dice=SeededDice(1), stores=open_stores(None),
        plan=None, event_sink=None, shutdown=None,
    )
    session.choose_language(language)
    stage = SetupStage.starting(session, session.new_setup())
    stage.step = SetupStep.COMPUTERS
    stage.bots[0] = strategy
    view = stage.view()
    assert isinstance(view, SeatsView)
    word = OLED_WORDS[f"strategy_{strategy}"][("de", "en").index(language)]
    assert view.rows[0].role == f"{BOT_MARK} {word}"


@pytest.mark.parametrize(
    ("language", "lines"),
    [("de", ["Deckel im Topf", "(Regel: 13)"]), ("en", ["Deckel in the pot", "(rules: 13)"])],
)
def test_the_deckel_step_breaks_its_detail_before_the_parenthesis(
    language: str, lines: list[str]
) -> None:
    """Never "(Regel:" at the end of a line and "13)" alone on the next."""
    detail = OledWords(language).t("setup_deckel_detail", preset=13)
    view = PickerView("Deckel", "4/5", "13", detail, ("-", "+", "Weiter"))
    with trace_layout() as trace:
        render(view)
    texts = [item.text for item in trace.placed if item.kind == "text"]
    assert texts[-len(lines) - 3 : -3] == lines  # before the three soft keys
    assert not trace.problems()
