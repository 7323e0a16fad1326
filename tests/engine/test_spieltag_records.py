"""The Spieltag's pure records: the moment an evening began is checked without a clock."""

from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.spieltag import is_date, is_moment


@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(min_value=-14 * 60, max_value=14 * 60),
    st.sampled_from(["seconds", "minutes", "microseconds"]),
)
def test_every_moment_datetime_writes_with_its_offset_is_one(
    moment: datetime, offset: int, timespec: str
) -> None:
    text = moment.replace(tzinfo=timezone(timedelta(minutes=offset))).isoformat(timespec=timespec)
    assert is_moment(text), text


@pytest.mark.parametrize("text", [
    "2026-12-01T19:30:00", "2026-02-30T19:30:00+01:00", "2026-13-01T19:30:00+01:00",
    "2026-12-01T24:00:00+01:00",
    "2026-12-01", "", "２０２６-12-01T19:30:00+01:00",
])
def test_what_is_no_moment_with_its_offset(text: str) -> None:
    assert not is_moment(text)
    with pytest.raises(ValueError):
        if datetime.fromisoformat(text).tzinfo is None:
            raise ValueError(text)


def test_leap_days_are_days_only_in_leap_years() -> None:
    assert is_date(2028, 2, 29) and not is_date(2026, 2, 29) and not is_date(1900, 2, 29)
    assert is_date(2000, 2, 29) and not is_date(2026, 4, 31) and not is_date(0, 1, 1)


@given(st.dates(min_value=datetime(1, 1, 1).date(), max_value=datetime(9999, 12, 31).date()))
def test_every_day_of_the_calendar_is_a_date(day: date) -> None:
    assert is_date(day.year, day.month, day.day)
    assert not is_date(day.year, day.month, calendar.monthrange(day.year, day.month)[1] + 1)
