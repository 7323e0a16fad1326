"""The input decoder on a fake clock: debounce, press, long press, shake and throw."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hal.inputs import InputDecoder, InputTiming
from hal.ports import Button, Edge, EdgeSource, InputEvent, InputKind
from sim.fakes import FakeClock
from tests.hal.conftest import down, run_main_loop, tilt, up

KEEP_1, KEEP_2, STAND = Button.KEEP_1, Button.KEEP_2, Button.STAND


def decode(edges: list[Edge], until: float = 5.0) -> list[tuple[float, InputEvent]]:
    """Run the default decoder over ``edges`` in a main loop on a fake clock."""
    return run_main_loop(InputDecoder(), FakeClock(), edges, until)


def kinds(decoded: list[tuple[float, InputEvent]]) -> list[tuple[InputKind, Button | None]]:
    return [(event.kind, event.button) for _, event in decoded]


def in_ms(
    decoded: list[tuple[float, InputEvent]],
) -> list[tuple[int, InputKind, Button | None, int]]:
    """(ms when it came out, kind, button, ms when it happened): exact, readable comparisons."""
    return [(round(seen * 1000), e.kind, e.button, round(e.at * 1000)) for seen, e in decoded]


PRESS, LONG_PRESS = InputKind.PRESS, InputKind.LONG_PRESS
SHAKE_START, THROW = InputKind.SHAKE_START, InputKind.THROW


# --- buttons -----------------------------------------------------------------------------------


def test_clean_press_is_reported_on_release_once_the_release_is_stable() -> None:
    decoded = decode([down(KEEP_1, 1.0), up(KEEP_1, 1.2)])
    assert in_ms(decoded) == [(1230, PRESS, KEEP_1, 1200)]


def test_contact_chatter_shorter_than_debounce_produces_nothing() -> None:
    edges = [down(KEEP_1, 1.0), up(KEEP_1, 1.004), down(KEEP_1, 1.011), up(KEEP_1, 1.02)]
    edges += [down(KEEP_1, 1.03), up(KEEP_1, 1.045)]  # never stable down for 30 ms
    assert decode(edges) == []


def test_chatter_on_press_and_release_still_gives_one_press() -> None:
    edges = [down(KEEP_2, 1.0), up(KEEP_2, 1.003), down(KEEP_2, 1.006), up(KEEP_2, 1.009)]
    edges += [down(KEEP_2, 1.012)]  # settles down from here
    edges += [up(KEEP_2, 1.3), down(KEEP_2, 1.305), up(KEEP_2, 1.31)]  # release rattles
    decoded = decode(edges)
    assert kinds(decoded) == [(InputKind.PRESS, KEEP_2)]
    assert decoded[0][1].at == pytest.approx(1.31)


def test_release_chatter_while_held_does_not_end_the_press() -> None:
    edges = [down(STAND, 0.0), up(STAND, 0.3), down(STAND, 0.31), up(STAND, 0.5)]
    decoded = decode(edges)
    assert kinds(decoded) == [(InputKind.PRESS, STAND)]
    assert decoded[0][1].at == pytest.approx(0.5)


def test_long_press_fires_at_hold_time_not_on_release() -> None:
    decoded = decode([down(STAND, 2.0), up(STAND, 4.0)], until=6.0)
    assert in_ms(decoded) == [(2800, LONG_PRESS, STAND, 2800)]


def test_a_hold_that_elapses_during_chatter_fires_once_the_level_settles() -> None:
    # Held since 0; a bounce up at 0.79 hides the hold deadline (0.8) behind its debounce, and
    # the contact is back down at 0.81: the hold is overdue then and must fire, not stay due.
    decoder = InputDecoder()
    for edge in (down(STAND, 0.0), up(STAND, 0.79), down(STAND, 0.81)):
        decoder.feed(edge)
        decoder.advance(edge.at)
    assert decoder.next_deadline() is None
    assert decoder.advance(0.81) == []  # the long press came out with the edge at 0.81


def test_an_overdue_hold_comes_out_when_the_clock_has_not_moved() -> None:
    decoder = InputDecoder()
    decoder.feed(down(STAND, 0.0))
    decoder.advance(0.05)
    decoder.feed(up(STAND, 0.79))
    decoder.feed(down(STAND, 0.81))
    events = decoder.advance(0.81)
    assert [(e.kind, e.button, round(e.at, 3)) for e in events] == [(LONG_PRESS, STAND, 0.8)]
    assert decoder.next_deadline() is None


def test_long_press_counts_from_when_the_contact_settled() -> None:
    edges = [down(STAND, 0.0), up(STAND, 0.01), down(STAND, 0.02), up(STAND, 3.0)]
    assert in_ms(decode(edges)) == [(820, LONG_PRESS, STAND, 820)]


def test_release_just_before_hold_time_is_a_press() -> None:
    decoded = decode([down(KEEP_1, 0.0), up(KEEP_1, 0.79)])
    assert kinds(decoded) == [(InputKind.PRESS, KEEP_1)]


def test_two_buttons_held_together_are_decoded_independently() -> None:
    edges = [down(KEEP_1, 0.0), down(KEEP_2, 0.1), up(KEEP_1, 0.3), up(KEEP_2, 2.0)]
    edges += [down(KEEP_1, 1.0), up(KEEP_1, 1.1)]  # KEEP_1 again while KEEP_2 is still held
    assert in_ms(decode(edges)) == [
        (330, PRESS, KEEP_1, 300),
        (900, LONG_PRESS, KEEP_2, 900),
        (1130, PRESS, KEEP_1, 1100),
    ]


def test_each_button_reports_itself() -> None:
    edges: list[Edge] = []
    for index, button in enumerate(Button):
        edges += [down(button, index * 1.0), up(button, index * 1.0 + 0.1)]
    assert kinds(decode(edges, until=10.0)) == [(InputKind.PRESS, b) for b in Button]


def test_repeated_reports_of_the_same_level_do_not_restart_the_hold() -> None:
    edges = [down(KEEP_1, 0.0), down(KEEP_1, 0.5), up(KEEP_1, 2.0)]
    assert [e.at for _, e in decode(edges)] == [pytest.approx(0.8)]


@given(gaps=st.lists(st.integers(min_value=1, max_value=29), min_size=1, max_size=20))
def test_any_chatter_faster_than_debounce_is_ignored(gaps: list[int]) -> None:
    edges = []
    at = 1.0
    for index, gap_ms in enumerate(gaps):
        edges.append(Edge(EdgeSource.BUTTON, index % 2 == 0, at, KEEP_1))
        at += gap_ms / 1000
    edges.append(up(KEEP_1, at))  # ends released
    assert decode(edges, until=at + 1.0) == []


# --- shaking -----------------------------------------------------------------------------------


def test_shake_starts_at_the_threshold_edge_and_throws_after_settle() -> None:
    decoded = decode(tilt(*(1.0 + 0.1 * n for n in range(10))))
    assert kinds(decoded) == [(InputKind.SHAKE_START, None), (InputKind.THROW, None)]
    (start_seen, start), (throw_seen, throw) = decoded
    assert start.at == pytest.approx(1.3) and start_seen == pytest.approx(1.3)
    assert throw.at == pytest.approx(1.9 + 0.4) and throw_seen == pytest.approx(2.3)


def test_a_shake_that_pauses_shorter_than_settle_is_one_shake() -> None:
    edges = tilt(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.85, 0.9, 1.0, 1.1, 1.2)  # 350 ms pause
    decoded = decode(edges)
    assert kinds(decoded) == [(InputKind.SHAKE_START, None), (InputKind.THROW, None)]
    assert decoded[1][1].at == pytest.approx(1.6)


def test_a_pause_longer_than_settle_throws_and_a_new_shake_starts() -> None:
    edges = tilt(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 1.0, 1.1, 1.2, 1.3)  # 500 ms pause
    decoded = decode(edges)
    assert kinds(decoded) == [(InputKind.SHAKE_START, None), (InputKind.THROW, None)] * 2
    assert [e.at for _, e in decoded] == pytest.approx([0.3, 0.9, 1.3, 1.7])


def test_a_bump_on_the_table_is_not_a_shake() -> None:
    assert decode(tilt(1.0, 1.02, 1.05)) == []


def test_slow_rocking_below_the_rate_is_not_a_shake() -> None:
    assert decode(tilt(*(0.25 * n for n in range(12)))) == []


def test_shake_while_a_button_is_held_does_not_disturb_either() -> None:
    edges = [down(KEEP_1, 0.0), up(KEEP_1, 0.2), *tilt(0.1, 0.15, 0.2, 0.25)]
    assert in_ms(decode(edges)) == [
        (230, PRESS, KEEP_1, 200),
        (250, SHAKE_START, None, 250),
        (650, THROW, None, 650),
    ]


# --- timing contract ---------------------------------------------------------------------------


def test_next_deadline_tracks_what_is_pending() -> None:
    decoder = InputDecoder()
    assert decoder.next_deadline() is None
    decoder.feed(down(KEEP_1, 1.0))
    assert decoder.next_deadline() == pytest.approx(1.03)  # debounce
    assert decoder.advance(1.03) == []
    assert decoder.next_deadline() == pytest.approx(1.8)  # hold
    decoder.feed(up(KEEP_1, 1.5))
    assert decoder.next_deadline() == pytest.approx(1.53)
    assert decoder.advance(1.52) == []
    assert [e.kind for e in decoder.advance(1.53)] == [InputKind.PRESS]
    assert decoder.next_deadline() is None


def test_events_waiting_for_collection_make_the_deadline_now() -> None:
    decoder = InputDecoder()
    decoder.feed(down(KEEP_1, 0.0))
    decoder.feed(up(KEEP_1, 0.5))
    decoder.feed(down(KEEP_2, 0.6))  # processes KEEP_1's release debounce on the way
    assert decoder.next_deadline() == pytest.approx(0.6)
    assert [e.button for e in decoder.advance(0.6)] == [KEEP_1]


def test_late_advance_still_stamps_events_when_they_happened() -> None:
    decoder = InputDecoder()
    decoder.feed(down(STAND, 0.0))
    assert [(e.kind, round(e.at, 6)) for e in decoder.advance(10.0)] == [(LONG_PRESS, 0.8)]


def test_an_edge_stamped_in_the_past_counts_as_now() -> None:
    decoder = InputDecoder()
    decoder.advance(5.0)
    decoder.feed(down(KEEP_1, 4.0))  # lost a race on the queue
    assert decoder.next_deadline() == pytest.approx(5.03)


def test_a_button_edge_without_a_button_is_rejected() -> None:
    with pytest.raises(ValueError, match="needs its button"):
        InputDecoder().feed(Edge(EdgeSource.BUTTON, True, 0.0))


def test_custom_timing_is_used() -> None:
    timing = InputTiming(
        debounce_ms=5, hold_ms=100, shake_edges=2, shake_window_ms=50, settle_ms=80
    )
    edges = [down(KEEP_1, 0.0), *tilt(1.0, 1.04)]
    decoded = run_main_loop(InputDecoder(timing), FakeClock(), edges, until=3.0)
    assert in_ms(decoded) == [
        (100, LONG_PRESS, KEEP_1, 100),
        (1040, SHAKE_START, None, 1040),
        (1120, THROW, None, 1120),
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"debounce_ms": -1}, "input.debounce_ms must be 0 or more, not -1"),
        ({"hold_ms": 20}, r"input.hold_ms must be greater than debounce_ms \(30\), not 20"),
        ({"shake_edges": 1}, "input.shake_edges must be 2 or more, not 1"),
        ({"shake_window_ms": 0}, "input.shake_window_ms must be greater than 0, not 0"),
        ({"settle_ms": -5}, "input.settle_ms must be greater than 0, not -5"),
        ({"hold_ms": 1.5}, r"input.hold_ms must be a whole number, not 1.5"),
        ({"shake_edges": True}, r"input.shake_edges must be a whole number, not True"),
    ],
)
def test_bad_timing_is_rejected_with_the_key_and_the_rule(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        InputTiming(**changes)  # type: ignore[arg-type]


def test_default_timing_matches_the_config_contract() -> None:
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parents[2] / "deploy" / "config.toml").read_text())
    assert InputTiming(**config["input"]) == InputTiming()
