"""Listening on a TCP port, for the backends that do (the link's ``tcp-listen://`` and the web
page): why it failed, said in words with what to do instead. Standard library only."""

from __future__ import annotations

import errno
import socket

__all__ = ["listen_problem"]


def listen_problem(error: OSError) -> str:
    """Why a port cannot be listened on, and what to do, in one line."""
    if isinstance(error, socket.gaierror):
        return "the host name is not known; give an address such as 127.0.0.1 or 0.0.0.0"
    if error.errno == errno.EADDRINUSE:
        return "the port is in use by another program; pick another (0: any free port)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "this computer has no such address; give 0.0.0.0, 127.0.0.1 or one of its own"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "ports below 1024 need root; pick a port from 1024 on, e.g. 8080"
    return (error.strerror or str(error)).lower()
