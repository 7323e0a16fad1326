"""Both listening backends, the link's ``tcp-listen://`` and the web page, say in the same words
why a port cannot be listened on (``hal.listening``)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest

from hal.serial_link import LinkError, SerialLink
from hal.web_server import WebServer, WebServerError


def open_link(host: str, port: int) -> object:
    return SerialLink(f"tcp-listen://{host}:{port}")


def open_page(host: str, port: int) -> object:
    return WebServer(host, port, {})


BACKENDS = {"link": (open_link, LinkError), "web": (open_page, WebServerError)}


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.create_server(("127.0.0.1", 0)) as holder:
        yield int(holder.getsockname()[1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_port_in_use_and_an_address_not_ours_are_said_in_words(
    backend: str, taken_port: int
) -> None:
    opener: Callable[[str, int], object]
    opener, error = BACKENDS[backend]
    with pytest.raises(error, match=r"the port is in use by another program; pick another"):
        opener("127.0.0.1", taken_port)
    with pytest.raises(error, match=r"this computer has no such address; give 0\.0\.0\.0"):
        opener("192.0.2.1", 0)  # TEST-NET-1: never an address of this machine; nothing is sent
