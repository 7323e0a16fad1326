"""The simulator: desktop backends of hal's ports, the simulator's command, and its tools in wings.

Directly here are the backends (``window``, ``terminal``, ``script``, ``controls``,
``gpio_mock``, ``recorder``, ``fakes``) and the command (``cli``, ``outputs``, ``attach``); the
wings hold the tools: ``bench`` (``schocken bench``), ``tournament`` (a tournament on one
machine) and ``pictures`` (``make docs-images``).
"""
