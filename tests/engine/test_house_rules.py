"""Every house rule that changes play: the same dice or situation, a different outcome on and off.

``hidden_last_throw`` and ``hints`` only change what the device shows, not the engine's play.
"""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from engine import (
    Game,
    GameSetup,
    HalfOver,
    IllegalActionError,
    Kind,
    PenaltyGiven,
    RoundOver,
    Rules,
    StrasseOrder,
    TieRule,
    TurnOver,
    TurnResult,
    TwoTwoOne,
    evaluate,
    from_notation,
    load_preset,
    settle,
)
from tests.engine.option_values import OPTIONS, sample_values

BASE = Rules()
PLAYERS = ("Anna", "Ben", "Carla")


def winner(rules: Rules, *results: TurnResult) -> str:
    """Who wins a round at the start of a half (full pot) with these results in throw order."""
    holdings = {r.player: 0 for r in results}
    return settle(rules, rules.deckel, holdings, results).winner


def result(player: str, dice: tuple[int, ...], throws: int = 1, hand: bool | None = None,
           blind: bool = False) -> TurnResult:
    return TurnResult(player, dice, throws == 1 if hand is None else hand, throws, blind)


def started(rules: Rules, position: str = "1 13 Anna=0,Ben=0,Carla=0 - - Anna:---/0") -> Game:
    return from_notation(position.replace("13", str(rules.deckel), 1), GameSetup(PLAYERS, rules))


# -- the size of the game ------------------------------------------------------------------------


@pytest.mark.parametrize("deckel", [13, 15])
def test_deckel_is_the_pot_and_what_loses_a_half(deckel: int) -> None:
    rules = replace(BASE, deckel=deckel)
    game = started(rules)
    assert game.pot == deckel
    game.roll((1, 1, 1))  # Schock aus: the loser takes every Deckel at once
    game.stand()
    game.roll((6, 5, 2))
    events = game.roll((4, 3, 1))
    over = next(e for e in events if isinstance(e, RoundOver))
    assert over.deckel == deckel and dict(over.holdings)["Carla"] == deckel
    assert HalfOver(1, "Carla") in events


@pytest.mark.parametrize("max_throws", [2, 3])
def test_max_throws_ends_the_first_turn(max_throws: int) -> None:
    game = started(replace(BASE, max_throws=max_throws))
    game.roll((6, 5, 2))
    events = game.roll((4, 3, 1))
    assert any(isinstance(e, TurnOver) for e in events) == (max_throws == 2)
    assert game.current_player == ("Ben" if max_throws == 2 else "Anna")
    assert game.limit == (2 if max_throws == 2 else None)


# -- how throws rank -----------------------------------------------------------------------------


@pytest.mark.parametrize(("above", "expected"), [(False, "Ben"), (True, "Anna")])
def test_general_above_schock2(above: bool, expected: str) -> None:
    rules = replace(BASE, general_above_schock2=above)
    assert winner(rules, result("Anna", (2, 2, 2)), result("Ben", (2, 1, 1))) == expected


@pytest.mark.parametrize(
    ("order", "ties", "expected"),
    [
        # 3-2-1 first (three throws), 6-5-4 later (one throw)
        (StrasseOrder.ASCENDING, TieRule.NACHGELEGT, "Ben"),  # the higher Straße wins
        (StrasseOrder.EQUAL, TieRule.NACHGELEGT, "Anna"),  # equal: the earlier thrower
        (StrasseOrder.EQUAL, TieRule.FEWER_THROWS, "Ben"),  # equal: fewer throws
        (StrasseOrder.FIRST_THROWN, TieRule.FEWER_THROWS, "Anna"),  # the first Straße, always
        (StrasseOrder.FEWER_THROWS, TieRule.NACHGELEGT, "Ben"),  # fewer throws, always
    ],
)
def test_strasse_order(order: StrasseOrder, ties: TieRule, expected: str) -> None:
    rules = replace(BASE, strasse_order=order, ties=ties)
    first = result("Anna", (3, 2, 1), throws=3, hand=False)
    assert winner(rules, first, result("Ben", (6, 5, 4))) == expected
    # Against a Hausnummer every Straße still wins.
    assert winner(rules, result("Anna", (6, 6, 5)), result("Ben", (3, 2, 1))) == "Ben"


#: Each special throw hand_only may name: rules that make it exist, its dice, its kind.
HAND_ONLY_CASES = [
    ("general", {}, (5, 5, 5), Kind.GENERAL),
    ("strasse", {}, (6, 5, 4), Kind.STRASSE),
    ("jule", {"jule": True}, (4, 2, 1), Kind.JULE),
    ("neuner", {"two_two_one": TwoTwoOne.NEUNER}, (2, 2, 1), Kind.NEUNER),
    ("siebener", {"two_two_one": TwoTwoOne.SIEBENER}, (2, 2, 1), Kind.SIEBENER),
    ("achter", {"achter": True}, (3, 3, 1), Kind.ACHTER),
]


@pytest.mark.parametrize(("name", "extra", "dice", "kind"), HAND_ONLY_CASES)
@pytest.mark.parametrize("hand_only", [False, True])
def test_hand_only(name: str, extra: dict, dice: tuple, kind: Kind, hand_only: bool) -> None:
    """Built up, a hand-only throw counts as the plain Hausnummer of its dice (1 Deckel)."""
    rules = replace(BASE, hand_only=(name,) if hand_only else (), **extra)
    built = evaluate(dice, False, rules)
    if hand_only:
        number = int("".join(map(str, dice)))
        assert (built.kind, built.deckel, built.name) == (
            Kind.HAUSNUMMER, 1, f"Hausnummer {number}"
        )
        # It ranks among the Hausnummern by its number: 665 beats it, 211 (Schock 2) is above.
        assert built.strength < evaluate((6, 6, 5), False, rules).strength
    else:
        assert built.kind is kind
    assert evaluate(dice, True, rules).kind is kind
    # The others are untouched: every other special throw still counts built up.
    for other, other_extra, other_dice, other_kind in HAND_ONLY_CASES:
        if other != name and not set(other_extra) & set(extra):
            both = replace(rules, **other_extra)
            assert evaluate(other_dice, False, both).kind is other_kind


def test_hand_only_decides_a_round_between_a_built_and_a_thrown_jule() -> None:
    rules = replace(BASE, jule=True, hand_only=("jule",))
    built = result("Anna", (4, 2, 1), throws=2, hand=False)
    # A built Jule is Hausnummer 421, which a Hausnummer 521 beats.
    assert winner(rules, built, result("Ben", (5, 2, 1))) == "Ben"
    assert winner(replace(rules, hand_only=()), built, result("Ben", (5, 2, 1))) == "Anna"


def test_the_older_hand_only_keys_are_read_as_hand_only() -> None:
    from engine import RulesError, rules_from_toml

    rules = rules_from_toml("general_hand_only = true\nstrasse_hand_only = true\n")
    assert rules.hand_only == ("general", "strasse")
    assert rules_from_toml('preset = "dsm"\nstrasse_hand_only = false\n').hand_only == ()
    both = rules_from_toml('hand_only = ["jule"]\ngeneral_hand_only = true\n')
    assert both.hand_only == ("general", "jule")
    with pytest.raises(RulesError, match="contradicts hand_only"):
        rules_from_toml('hand_only = ["general"]\ngeneral_hand_only = false\n')
    with pytest.raises(RulesError, match="unknown throw 'schock'"):
        rules_from_toml('hand_only = ["schock"]\n')
    with pytest.raises(RulesError, match="must be true or false"):
        rules_from_toml("general_hand_only = 1\n")
    # A journal written before hand_only holds every key of its day: it reads back the same.
    from engine.rules import rules_from_mapping

    old = load_preset("dsm").to_mapping()
    del old["hand_only"], old["dropped_cup"], old["names"]
    old.update(general_hand_only=False, strasse_hand_only=True)
    assert rules_from_mapping(old) == load_preset("dsm")
    # Order and repeats do not matter; the rules keep the canonical order.
    assert rules_from_toml('hand_only = ["jule", "general", "jule"]\n').hand_only == (
        "general", "jule"
    )


@pytest.mark.parametrize(("natural_above", "expected"), [(False, "Anna"), (True, "Ben")])
def test_naturschock_above_built(natural_above: bool, expected: str) -> None:
    rules = replace(BASE, naturschock_above_built=natural_above)
    built = result("Anna", (1, 1, 1), throws=2, hand=False)
    natural = result("Ben", (1, 1, 1), throws=2, hand=True)  # all three again, all ones
    assert winner(rules, built, natural) == expected


@pytest.mark.parametrize(("ties", "expected"), [(TieRule.FEWER_THROWS, "Ben"),
                                               (TieRule.NACHGELEGT, "Anna")])
def test_ties(ties: TieRule, expected: str) -> None:
    rules = replace(BASE, ties=ties)
    first = result("Anna", (4, 4, 4), throws=3, hand=False)
    assert winner(rules, first, result("Ben", (4, 4, 4))) == expected
    # The same number of throws: the earlier thrower wins under both rules ("nachgelegt").
    assert winner(rules, result("Anna", (6, 5, 3)), result("Ben", (6, 5, 3))) == "Anna"


def test_ties_aliases_read_as_nachgelegt() -> None:
    from engine import rules_from_mapping

    for alias in ("earlier_wins", "later_is_lower", "nachgelegt"):
        assert rules_from_mapping({"ties": alias}).ties is TieRule.NACHGELEGT


def test_jule() -> None:
    off = evaluate((4, 2, 1), True, BASE)
    on = evaluate((4, 2, 1), True, replace(BASE, jule=True))
    assert (off.kind, off.deckel) == (Kind.HAUSNUMMER, 1)
    assert (on.kind, on.name, on.deckel) == (Kind.JULE, "Jule", 7)
    rules = replace(BASE, jule=True)
    # "steht zwischen Schock 6 und Schock aus"
    assert evaluate((6, 1, 1), True, rules).strength < on.strength
    assert on.strength < evaluate((1, 1, 1), True, rules).strength
    assert winner(rules, result("Anna", (6, 1, 1)), result("Ben", (1, 2, 4))) == "Ben"
    assert winner(BASE, result("Anna", (6, 1, 1)), result("Ben", (1, 2, 4))) == "Anna"


@pytest.mark.parametrize(
    ("value", "kind", "deckel"),
    [(TwoTwoOne.LOWEST, Kind.HAUSNUMMER, 1), (TwoTwoOne.NEUNER, Kind.NEUNER, 9),
     (TwoTwoOne.SIEBENER, Kind.SIEBENER, 7)],
)
def test_two_two_one(value: TwoTwoOne, kind: Kind, deckel: int) -> None:
    rules = replace(BASE, two_two_one=value, jule=True)
    e = evaluate((2, 2, 1), True, rules)
    assert (e.kind, e.deckel) == (kind, deckel)
    lowest = min(x.strength for x in (evaluate(d, True, rules) for d in [(3, 2, 2), (4, 2, 1)]))
    schock6 = evaluate((6, 1, 1), True, rules).strength
    schock_aus = evaluate((1, 1, 1), True, rules).strength
    if value is TwoTwoOne.LOWEST:
        assert e.strength == 1 and e.strength < lowest
    else:
        # "zweithöchster Wurf" (Neuner) or with the Jule's seven: above Schock 6, below Schock aus
        assert schock6 < e.strength < schock_aus
    if value is TwoTwoOne.NEUNER:
        assert e.strength == schock_aus - 1
    if value is TwoTwoOne.SIEBENER:
        assert e.strength == evaluate((4, 2, 1), True, rules).strength


@pytest.mark.parametrize(("achter", "kind", "deckel"), [(False, Kind.HAUSNUMMER, 1),
                                                       (True, Kind.ACHTER, 8)])
def test_achter(achter: bool, kind: Kind, deckel: int) -> None:
    rules = replace(BASE, achter=achter, jule=True, two_two_one=TwoTwoOne.NEUNER)
    e = evaluate((3, 3, 1), True, rules)
    assert (e.kind, e.deckel) == (kind, deckel)
    if achter:
        # Between the sevens and the Neuner.
        assert evaluate((4, 2, 1), True, rules).strength < e.strength
        assert e.strength < evaluate((2, 2, 1), True, rules).strength


# -- turn rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("flip_sixes", [True, False])
def test_flip_sixes(flip_sixes: bool) -> None:
    game = started(replace(BASE, flip_sixes=flip_sixes))
    game.roll((6, 6, 3))
    assert game.can_flip() == flip_sixes
    if flip_sixes:
        game.flip()
        assert game.turn is not None and game.turn.values == (1, 6, 3)
    else:
        with pytest.raises(IllegalActionError, match="flip_sixes = false"):
            game.flip()


@pytest.mark.parametrize("blind", [True, False])
def test_blind(blind: bool) -> None:
    rules = replace(BASE, blind=blind)
    game = started(rules)
    game.roll((4, 4, 4))
    assert game.can_blind() == blind
    if not blind:
        with pytest.raises(IllegalActionError, match="no Blind"):
            game.blind()
        return
    game.blind()  # no more throws; the round's Deckel count double
    game.roll((6, 5, 2))
    events = game.roll((4, 3, 1))
    over = next(e for e in events if isinstance(e, RoundOver))
    assert (over.winning, over.deckel) == ("General 4", 6)


def test_blind_doubles_the_due_in_settle() -> None:
    rules = replace(BASE, blind=True)
    plain = settle(rules, 13, dict.fromkeys(("Anna", "Ben"), 0),
                   [result("Anna", (4, 1, 1)), result("Ben", (5, 3, 2))])
    doubled = settle(rules, 13, dict.fromkeys(("Anna", "Ben"), 0),
                     [result("Anna", (4, 1, 1), blind=True), result("Ben", (5, 3, 2))])
    assert (plain.due, doubled.due, doubled.moved) == (4, 8, 8)


@pytest.mark.parametrize("boerde", [True, False])
def test_boerdeschock(boerde: bool) -> None:
    game = started(replace(BASE, boerdeschock=boerde))
    game.roll((6, 2, 3))
    game.roll((6, 4), keep=(0,))  # a laid-out six and a fresh one
    assert game.can_flip() == boerde
    if not boerde:
        with pytest.raises(IllegalActionError, match="among the dice just thrown"):
            game.flip()
        return
    game.flip()
    turn = game.turn
    assert turn is not None
    # The collected six turned; the fresh one goes back into the cup; one throw more.
    assert (turn.values, turn.laid_out) == ((1, 6, 4), (True, False, False))
    assert (turn.throws, turn.limit, turn.bonus) == (2, 4, 1)


@pytest.mark.parametrize("two_dice", [True, False])
def test_two_dice(two_dice: bool) -> None:
    rules = replace(BASE, two_dice=two_dice)
    assert rules.dice_count == (2 if two_dice else 3)
    if two_dice:
        straight = evaluate((6, 4), True, rules)  # "Aus einer 6 und einer 4 wird ... eine Straße"
        assert (straight.kind, straight.dice) == (Kind.STRASSE, (6, 5, 4))
    with pytest.raises(IllegalActionError, match=f"need {rules.dice_count} dice"):
        evaluate((6, 4) if not two_dice else (6, 5, 4), True, rules)
    game = started(rules, "1 13 Anna=0,Ben=0,Carla=0 - - Anna:" + "-" * rules.dice_count + "/0")
    game.roll((6, 4) if two_dice else (6, 5, 4))
    assert game.turn is not None and len(game.turn.values) == rules.dice_count


@pytest.mark.parametrize("only_ones", [True, False])
def test_keep_only_ones(only_ones: bool) -> None:
    game = started(replace(BASE, keep_only_ones=only_ones))
    game.roll((1, 5, 3))
    assert ((0, 1) in set(game.legal_keeps())) != only_ones
    assert (0,) in set(game.legal_keeps())
    if only_ones:
        with pytest.raises(IllegalActionError, match="only ones may be laid out"):
            game.roll((2,), keep=(0, 1))
    else:
        game.roll((2,), keep=(0, 1))


@pytest.mark.parametrize("take_back", [True, False])
def test_take_back(take_back: bool) -> None:
    game = started(replace(BASE, take_back=take_back))
    game.roll((1, 5, 3))
    game.roll((4, 2), keep=(0,))
    assert (() in set(game.legal_keeps())) == take_back
    if take_back:
        game.roll((1, 1, 1))
        assert game.turn is None or game.current_player == "Ben"
    else:
        with pytest.raises(IllegalActionError, match="stays out"):
            game.roll((1, 1, 1))


@pytest.mark.parametrize(("penalty", "expected"), [(2, 2), (3, 3)])
def test_penalty_deckel_is_the_default_penalty(penalty: int, expected: int) -> None:
    game = started(replace(BASE, penalty_deckel=penalty))
    events = game.penalty("Ben")
    assert PenaltyGiven("Ben", expected, expected, ()) in events
    assert game.holdings["Ben"] == expected and game.pot == 13 - expected


def test_penalty_deckel_zero_means_no_penalties() -> None:
    game = started(replace(BASE, penalty_deckel=0))
    with pytest.raises(IllegalActionError, match="penalty_deckel = 0"):
        game.penalty("Ben", 2)


def test_every_field_that_changes_play_is_tested_here() -> None:

    display_only = {"name", "description", "source", "hidden_last_throw", "hints", "names"}
    covered = {
        "deckel", "max_throws", "general_above_schock2", "strasse_order", "hand_only",
        "naturschock_above_built", "ties", "jule", "two_two_one", "achter",
        "flip_sixes", "blind", "boerdeschock", "two_dice", "keep_only_ones", "take_back",
        "dropped_cup", "penalty_deckel",
    }
    assert {f.name for f in fields(Rules)} == display_only | covered


# -- a rules file names what it changes ----------------------------------------------------------


def test_a_file_without_preset_extends_standard_and_says_so() -> None:
    from engine import rules_from_toml

    rules = rules_from_toml("deckel = 15\n")
    assert (rules.name, rules.deckel) == ("standard+", 15)
    assert rules.description == "as standard, but deckel = 15"
    assert "13" not in rules.description
    unchanged = rules_from_toml("deckel = 13\n")  # the same as the preset: nothing to name
    assert unchanged == load_preset("standard") and unchanged.name == "standard"


def test_a_changed_preset_is_described_by_its_effective_options() -> None:
    from engine import rules_from_toml

    rules = rules_from_toml('preset = "westfalen"\ndeckel = 7\njule = false\nties = "nachgelegt"\n')
    assert rules.name == "westfalen+"
    assert rules.description == 'as westfalen, but deckel = 7, ties = "nachgelegt", jule = false'
    named = rules_from_toml(
        'preset = "bvb"\nname = "Zum Anker"\ndescription = "unsere"\nblind = true\n'
    )
    assert (named.name, named.description, named.blind) == ("Zum Anker", "unsere", True)


@pytest.mark.parametrize("key", OPTIONS)
def test_every_option_reads_plainly_as_a_rules_file_writes_it(key: str) -> None:
    # The engine's own words for an option are `key = value`; the device words them itself
    # (tests/firmware/test_rule_words.py).
    import tomllib

    from engine.rules import describe_option, plain_value

    values = sample_values(key)
    words = [describe_option(key, value) for value in values]
    assert len(set(words)) == len(values), words
    for value, line in zip(values, words, strict=True):
        assert tomllib.loads(line) == {key: plain_value(key, value)}, line


def test_names_rename_kinds_for_display_only() -> None:
    from engine import RulesError, rules_from_toml

    rules = rules_from_toml(
        'preset = "bvb"\n[names]\nschock_2 = "Honecker"\nnaturschock = "Hanl"\n'
        'schock_aus = "Schock Out"\nstrasse = "Str."\nhausnummer = "Haus"\n'
    )
    assert rules.name == "bvb+" and rules.name_of("general") == "Jenie"
    assert rules.description.startswith('as bvb, but names = {schock_aus = "Schock Out", ')
    names = {dice: evaluate(dice, hand, rules).name for dice, hand in [
        ((2, 1, 1), True), ((3, 1, 1), True), ((1, 1, 1), True), ((5, 5, 5), True),
        ((6, 5, 4), True), ((6, 4, 2), True)]}
    assert names == {(2, 1, 1): "Honecker", (3, 1, 1): "Schock 3", (1, 1, 1): "Hanl",
                     (5, 5, 5): "Jenie 5", (6, 5, 4): "Str. 6-5-4", (6, 4, 2): "Haus 642"}
    assert evaluate((1, 1, 1), False, rules).name == "Schock Out"
    # Strengths, kinds and Deckel are those of the rules without names.
    plain = replace(rules, names=())
    for dice in [(2, 1, 1), (1, 1, 1), (5, 5, 5), (6, 5, 4)]:
        named, usual = evaluate(dice, False, rules), evaluate(dice, False, plain)
        assert (named.kind, named.deckel, named.strength) == (
            usual.kind, usual.deckel, usual.strength
        )
    # The usual name given back drops the preset's own.
    assert rules_from_toml('preset = "bvb"\n[names]\ngeneral = "General"\n').names == ()
    for text, problem in [
        ('[names]\ngeneral = ""\n', "must be a name"),
        ('[names]\nbombe = "Bombe"\n', "unknown kind of throw 'bombe'"),
        ('[names]\ngeneral = "Eine sehr lange Bombe"\n', "at most 16 printable"),
        ('names = "Jenie"\n', "must be a table"),
    ]:
        with pytest.raises(RulesError, match=problem):
            rules_from_toml(text)
