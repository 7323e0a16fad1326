"""The script format: parsing, errors that name the line, and edges the real decoder reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from hal.inputs import InputTiming
from hal.ports import Button, Edge, EdgeSource, InputKind
from sim.fakes import FakeClock
from sim.script import (
    ActionKind,
    ScriptAction,
    ScriptError,
    ScriptInput,
    load_script,
    parse_script,
    script_edges,
)
from tests.sim.conftest import decode


def test_every_action_parses_and_comments_and_blank_lines_are_skipped() -> None:
    text = """
    # a comment line
    keep1
    KEEP2   # case does not matter
    keep3
    flip
    stand
    hold flip
    shake

    wait 2.5
    """
    actions = parse_script(text)
    assert [(a.kind, a.button, a.seconds) for a in actions] == [
        (ActionKind.PRESS, Button.KEEP_1, 0.0),
        (ActionKind.PRESS, Button.KEEP_2, 0.0),
        (ActionKind.PRESS, Button.KEEP_3, 0.0),
        (ActionKind.PRESS, Button.FLIP, 0.0),
        (ActionKind.PRESS, Button.STAND, 0.0),
        (ActionKind.HOLD, Button.FLIP, 0.0),
        (ActionKind.SHAKE, None, 0.0),
        (ActionKind.WAIT, None, 2.5),
    ]
    assert [a.line for a in actions] == [3, 4, 5, 6, 7, 8, 9, 11]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("jump", "unknown action 'jump'"),
        ("hold", "hold needs one button"),
        ("hold keep4", "hold needs one button"),
        ("wait", "wait needs seconds from 0 to 3600"),
        ("wait -1", "wait needs seconds from 0 to 3600"),
        ("wait soon", "wait needs seconds from 0 to 3600"),
        ("wait nan", "wait needs seconds from 0 to 3600"),
        ("shake hard", "shake takes nothing after it"),
        ("stand up", "stand takes nothing after it"),
    ],
)
def test_a_bad_line_is_named_by_its_number(line: str, problem: str) -> None:
    text = f"# demo\nshake\n\n{line}\nstand\n"
    with pytest.raises(ScriptError) as caught:
        parse_script(text, "demo.txt")
    message = str(caught.value)
    assert message.startswith(f"demo.txt line 4: {problem}")
    assert "use keep1, keep2, keep3, flip, stand, hold BUTTON, shake, wait SECONDS" in message
    assert "\n" not in message


def test_load_script_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("keep1\nthrow\n", encoding="utf-8")
    with pytest.raises(ScriptError, match=r"game\.txt line 2: unknown action 'throw'"):
        load_script(path)


def test_presses_holds_and_shakes_decode_as_on_the_device() -> None:
    actions = parse_script("keep2\nhold stand\nshake\nwait 1\nflip\n")
    edges, end = script_edges(actions, start=10.0)
    events = decode(edges, until=end + 1, clock=FakeClock(10.0))
    assert [(e.kind, e.button) for e in events] == [
        (InputKind.PRESS, Button.KEEP_2),
        (InputKind.LONG_PRESS, Button.STAND),
        (InputKind.SHAKE_START, None),
        (InputKind.THROW, None),
        (InputKind.PRESS, Button.FLIP),
    ]
    assert all(edge.at >= 10.0 for edge in edges)
    assert end > max(edge.at for edge in edges)


def test_wait_moves_the_next_action_by_its_seconds() -> None:
    without, _ = script_edges(parse_script("stand\nflip"), 0.0)
    with_wait, _ = script_edges(parse_script("stand\nwait 7.5\nflip"), 0.0)
    assert with_wait[2].at - without[2].at == pytest.approx(7.5)


def test_a_shake_follows_the_configured_timing() -> None:
    # A slow detector (8 edges within 2 s, 1 s of quiet) still sees the scripted shake.
    timing = InputTiming(shake_edges=8, shake_window_ms=2000, settle_ms=1000, hold_ms=1500)
    edges, end = script_edges(parse_script("shake\nhold keep1"), 0.0, timing)
    tilts = [edge for edge in edges if edge.source is EdgeSource.TILT]
    assert len(tilts) >= 8 and not tilts[-1].active  # the ball comes to rest open
    events = decode(edges, end + 2, timing=timing)
    assert [e.kind for e in events] == [
        InputKind.SHAKE_START,
        InputKind.THROW,
        InputKind.LONG_PRESS,
    ]


def test_script_input_reports_its_edges_up_to_the_time_asked() -> None:
    clock = FakeClock(5.0)
    backend = ScriptInput([ScriptAction(ActionKind.PRESS, 1, Button.STAND)], clock)
    clock.advance(3.0)  # the script keeps the start it was made at
    seen: list[Edge] = []
    backend.start(seen.append)
    backend.play_until(5.1)
    assert [e.at for e in seen] == [5.0]
    backend.play_until(float("inf"))
    assert [(e.active, e.at) for e in seen] == [(True, 5.0), (False, pytest.approx(5.12))]
    assert backend.end is not None and backend.end > 5.12
    backend.close()
