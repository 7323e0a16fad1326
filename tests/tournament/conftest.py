"""The tournament tests' shared broker: one mosquitto for a whole module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.broker import Broker, mosquitto_missing, running_broker


@pytest.fixture(scope="module")
def module_broker() -> Iterator[Broker]:
    """One real mosquitto (tests/broker.py) for every test of a module whose tests neither kill
    nor restart it, each with client ids of its own and every retained message it leaves
    cleared; a test that kills the broker takes the ``broker`` fixture, one of its own."""
    missing = mosquitto_missing()
    if missing:
        pytest.skip(missing)
    with running_broker() as running:
        yield running
