"""What the hub's tests share: one real mosquitto a module (tests/broker.py) that knows three
tables' logins, for the tests that neither kill nor restart it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.broker import Broker, mosquitto_missing, running_broker


@pytest.fixture(scope="module")
def module_broker() -> Iterator[Broker]:
    """A broker for the module's tests, with the logins of tables 1 to 3."""
    if missing := mosquitto_missing():
        pytest.skip(missing)
    with running_broker() as broker:
        broker.add_tables(3)
        yield broker
