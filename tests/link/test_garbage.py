"""Garbage on the line: every bad line is one error line, and nothing changes on the device."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import to_notation
from firmware.link.protocol import COMMANDS, DEVICE_WORDS, MAX_LINE
from hal.serial_link import LineFramer
from tests.link.conftest import AppDevice

_KNOWN = {command.word for command in COMMANDS} | set(DEVICE_WORDS)

_word = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x2FF), min_size=1, max_size=12
)
_rest = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFFFF, exclude_categories=("Cs",)),
    max_size=60,
)
# Tab is whitespace; LF ends the line and a CR before it belongs to the line ending.
_control = st.sampled_from([chr(c) for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)] + ["\x7f"])


def _text_line(text: str) -> bytes:
    return text.encode("utf-8")


unknown_command = st.builds(
    lambda word, rest: _text_line(f"{word} {rest}"),
    _word.filter(lambda w: w.lower() not in _KNOWN and not w.startswith("{")),
    _rest,
)
bad_button = st.builds(
    lambda verb, rest: _text_line(f"{verb} {rest}"),
    st.sampled_from(["press", "hold", "PRESS"]),
    _rest.filter(
        lambda r: r.strip(" ").lower() not in {"keep1", "keep2", "keep3", "flip", "stand"}
    ),
)
bad_argument = st.one_of(
    st.builds(
        lambda r: _text_line(f"frames {r}"),
        _rest.filter(lambda r: r.strip().lower() not in ("on", "off")),
    ),
    st.builds(lambda r: _text_line(f"shake {r}"), _rest.filter(lambda r: r.strip())),
    st.builds(
        lambda r: _text_line(f"setup {r}"), _rest.filter(lambda r: not r.strip().startswith("{"))
    ),
    st.builds(lambda r: _text_line(f"setup {{{r}"), _rest),  # an object that never closes
)
with_control = st.builds(
    lambda before, char, after: _text_line(f"{before}{char}{after}"), _rest, _control, _rest
)
not_utf8 = st.builds(
    lambda before, bad, after: before + bad + after,
    st.binary(max_size=30).filter(lambda b: b"\n" not in b),
    st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"]),
    st.binary(max_size=30).filter(lambda b: b"\n" not in b),
).filter(lambda b: not _is_utf8(b))
too_long = st.builds(
    lambda head, n: head + b"x" * n,
    st.sampled_from([b"press keep1 ", b"setup ", b""]),
    st.integers(MAX_LINE + 1, 3 * MAX_LINE),
)

bad_line = st.one_of(unknown_command, bad_button, bad_argument, with_control, not_utf8, too_long)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _started_device() -> AppDevice:
    """The real device app in the middle of a game: the roll-off, a hand-over, a throw."""
    device = AppDevice()
    for command in ("shake", "press stand", "press stand", "shake"):
        assert device.host_sends(command)[-1].startswith("ok ")
    game = device.app.game
    assert game is not None and game.turn is not None and game.turn.throws == 1
    return device


@given(lines=st.lists(bad_line, min_size=1, max_size=8))
def test_bad_lines_get_one_error_each_and_change_nothing(lines: list[bytes]) -> None:
    device = _started_device()
    game = device.app.game
    assert game is not None
    position, state, view = to_notation(game), game.state(), device.app.view
    for raw in lines:
        framed = LineFramer(MAX_LINE).feed(raw + b"\n")  # exactly what the link hands over
        assert len(framed) == 1
        answers = device.host_sends(framed[0])
        assert len(answers) == 1 and answers[0].startswith("error "), (raw, answers)
        assert "\n" not in answers[0]
    assert to_notation(game) == position and game.state() == state
    assert device.app.view == view  # not even the screen changed
    assert device.host_sends("ping still-here") == ["pong still-here"]


@given(stream=st.binary(max_size=4000), cut=st.integers(1, 64))
def test_random_bytes_never_crash_the_device(stream: bytes, cut: int) -> None:
    """Any byte stream, in any chunks: at most one error per line, and the device lives."""
    device = _started_device()
    framer = LineFramer(MAX_LINE)
    for start in range(0, len(stream), cut):
        for line in framer.feed(stream[start : start + cut]):
            answers = device.host_sends(line)
            assert sum(answer.startswith("error ") for answer in answers) <= 1
    assert device.host_sends("ping alive") == ["pong alive"]
