"""The engine's exceptions: each is a ValueError with a one-line message naming the problem."""

from __future__ import annotations


class SchockenError(ValueError):
    """Base class of everything the engine refuses."""


class IllegalActionError(SchockenError):
    """An action that the rules do not allow now, or dice that cannot be (not 1-6, wrong count)."""


class RulesError(SchockenError):
    """A house-rule file or preset that cannot be used: unknown name, unknown or ill-typed key."""
