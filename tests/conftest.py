"""What every test shares: its own state home, and how many examples the hypothesis tests try.

This file imports only pytest and the standard library: the architecture tests read the source
with ``ast`` and run on an interpreter with nothing but pytest installed
(``tests/architecture/test_bare_interpreter.py``). A fixture that needs more imports it when it
runs (the broker below), or lives in the folder that uses it.

Every test runs with ``$XDG_STATE_HOME`` on a fresh temporary folder (:func:`own_state_home`):
``schocken sim`` and anything else that keeps games for a user keeps them there, never in the
home of whoever runs the tests; a subprocess a test starts inherits it.

How many examples the hypothesis tests try: few in `make test`, many in the slow selection.

Two settings profiles, chosen by the marker selection:

* ``quick`` (100 examples): when ``-m`` leaves the slow tests out, as ``make test`` does;
* ``exhaustive`` (1,000 examples): when the slow tests are selected (``make test-long`` runs
  ``-m slow``; a bare ``pytest`` selects everything). Every ``@given`` test then also counts as
  slow, so ``-m slow`` runs the same properties again with ten times the examples.

A test that sets ``max_examples`` itself keeps its own count. ``--hypothesis-profile NAME``
still picks a profile by hand.

Under pytest-xdist (``make test`` runs ``-n 4`` on two cores) every test is scheduled on its
own, except the modules of :data:`ONE_WORKER_MODULES`: their tests share a module fixture that
costs seconds (the bench's run, a played league match, a device and its window, the page's game
for the docs' pictures), and each of them runs whole on one worker, so that fixture is made
once; the same holds for the groups of :data:`ONE_WORKER_GROUPS` (the tests that take a window
of the session's Chromium, the architecture tests that read the source's syntax trees). (xdist's
own ``--dist loadgroup`` groups nothing under pytest 9.2: it marks the groups in a node id that
pytest no longer reads, pytest-xdist issue 1386.) Those go out first, then the modules of
:data:`LONG_FIRST` (tests of several seconds), then the rest: the short tests fill the end
of the run on every worker, where a long one would leave the others waiting for it.

Bytecode: the tests, their workers and every interpreter they start (the simulator, the kill
harness's victims, the command line) keep compiled bytecode in the checkout's ``__pycache__``
folders, whatever ``PYTHONDONTWRITEBYTECODE`` says: where the environment forbids writing it,
each of those interpreters compiled the whole firmware again, and pytest rewrote every test
module's asserts in each worker. Not a private folder (``PYTHONPYCACHEPREFIX``): Python then
reads no ``__pycache__`` at all, so every interpreter compiled the standard library and the
venv's packages again, which pip had compiled already (3.5 s of CPU each, the first time).
On a fresh clone the controller writes that bytecode before the workers start, one process a
core (:mod:`tests.bytecode`), where each worker would otherwise compile and rewrite the same
files at the same moment.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest.mark.expression import Expression

if TYPE_CHECKING:
    from tests.broker import Broker
    from tests.chromium import SharedChromium

#: The bytecode folder of a test run and what it starts, kept between runs (Python checks each
#: file against its source's time and size, and the folder mirrors each checkout's own paths).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

#: Ctrl+C for the programs the tests start: several tests stop one with SIGINT and check that it
#: ends as after a Ctrl+C. A shell without job control starts a background job (`make test &`,
#: a script's) with SIGINT ignored, and every program started from it would inherit that and
#: play on; so the run takes Python's own handler back, which its children do not inherit.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

try:
    from hypothesis import settings
except ImportError:  # a bare interpreter: no property test to run, no profile to choose
    settings = None
else:
    settings.register_profile("quick", max_examples=100, deadline=None)
    settings.register_profile("exhaustive", max_examples=1000, deadline=None)

_EXHAUSTIVE = pytest.StashKey[bool]()

#: Test modules that pytest-xdist runs whole on one worker: each has a module fixture that costs
#: seconds, made once per worker that runs one of its tests.
ONE_WORKER_MODULES = frozenset(
    {
        "tests/bench/test_bench.py",  # `schocken bench --quick --only ...`, read by many tests
        "tests/cli/test_lost_partien.py",  # an evening of six journalled games, played once
        "tests/cli/test_match_sheet.py",  # two tables' evenings of a league match, played once
        "tests/cli/test_saison.py",  # three league Spieltage, played once
        "tests/cli/test_sheet.py",  # a league match of ten journalled games
        "tests/deploy/test_hub_install.py",  # one hub install read by nine tests
        "tests/deploy/test_install.py",  # one install per configuration, read by many tests
        "tests/firmware/test_fit.py",  # every scene traced once, for the check and its counts
        "tests/firmware/test_hint_objective.py",  # the opener's objectives, built once a process
    }
)


def _selects_slow_tests(mark_expression: str) -> bool:
    """Whether ``-m mark_expression`` selects a test marked ``slow`` (and nothing else)."""
    if not mark_expression.strip():
        return True
    return Expression.compile(mark_expression).evaluate(lambda name, **_: name == "slow")


def pytest_configure(config: pytest.Config) -> None:
    exhaustive = _selects_slow_tests(config.option.markexpr)
    config.stash[_EXHAUSTIVE] = exhaustive
    # Hypothesis's own plugin runs after this hook and loads --hypothesis-profile if given.
    if settings is not None:
        settings.load_profile("exhaustive" if exhaustive else "quick")
    workers = getattr(config.option, "numprocesses", None)
    if workers and not hasattr(config, "workerinput"):  # xdist's controller, before its workers
        from tests.bytecode import warm

        warm(Path(config.rootpath), os.cpu_count() or 1)


@pytest.hookimpl(tryfirst=True)  # before pytest deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.stash[_EXHAUSTIVE]:
        for item in items:
            if isinstance(item, pytest.Function) and hasattr(item.obj, "hypothesis"):
                item.add_marker(pytest.mark.slow)
    # The long modules first (a stable sort: each module's tests stay together, in order).
    items.sort(key=lambda item: item.nodeid.split("::", 1)[0] not in LONG_FIRST)


#: Modules with a test of several seconds (ten and more on a busy two-core machine, or mostly
#: waiting: the broker's check of a silent client comes every 5 s): run before the rest.
LONG_FIRST = frozenset(
    {
        "tests/durable/test_kill.py",
        "tests/durable/test_storm.py",
        "tests/hub/test_broker_intake.py",
        "tests/sim/test_saving.py",
        "tests/tournament/test_cutoff.py",
        "tests/tournament/test_tournament_run.py",
    }
)


#: Groups of modules that pytest-xdist runs together on one worker, because they share what a
#: process makes once: the session's one Chromium (a start costs seconds) and the source's
#: syntax trees, parsed once per process by tests/architecture/importgraph.py.
ONE_WORKER_GROUPS = {
    "chromium": frozenset(
        {
            "tests/sim/test_docs_pictures.py",
            "tests/web/test_browser.py",
            "tests/web/test_entry_page.py",
            "tests/web/test_hub_browser.py",
            "tests/web/test_hub_desk_browser.py",
            "tests/web/test_hub_tv.py",
            "tests/web/test_layout.py",
            "tests/web/test_spieltag_browser.py",
        }
    ),
    "source trees": frozenset(
        {
            "tests/architecture/test_cycles.py",
            "tests/architecture/test_dependencies.py",
            "tests/architecture/test_journal_door.py",
            "tests/architecture/test_layout.py",
            "tests/architecture/test_session_state.py",
            "tests/architecture/test_two_programs.py",
            "tests/architecture/test_words.py",
        }
    ),
}


#: The xdist worker that runs the "chromium" group, and so the one that starts the session's
#: Chromium while it collects (tests/web/conftest.py): every worker collects every test, and a
#: Chromium started by the others would idle through the run, seconds of CPU each.
CHROMIUM_WORKER = "gw0"


def worker_scope(nodeid: str) -> str:
    """What one xdist worker runs together with the test ``nodeid``: its group of
    :data:`ONE_WORKER_GROUPS`, its module if in :data:`ONE_WORKER_MODULES`, or itself alone."""
    module = nodeid.split("::", 1)[0]
    for group, modules in ONE_WORKER_GROUPS.items():
        if module in modules:
            return group
    return module if module in ONE_WORKER_MODULES else nodeid


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, which a bare interpreter lacks
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's load scheduling, test by test, but each scope of :func:`worker_scope` whole on
    the worker that runs its first test."""
    if config.getvalue("dist") != "load":  # another --dist asked for by hand
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerScopes(LoadScopeScheduling):  # type: ignore[misc]
        """Scopes of one test each, or a module or group that shares a costly fixture; those go
        out first (scopes with more tests first), one test at a time after."""

        def _split_scope(self, nodeid: str) -> str:
            return worker_scope(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            """The "chromium" group to :data:`CHROMIUM_WORKER` (its first unit), to no other
            while other work is left (a worker lost and replaced still gets it in the end)."""
            queue = self.workqueue
            if "chromium" not in queue:
                super()._assign_work_unit(node)
            elif node.gateway.id == CHROMIUM_WORKER:
                queue.move_to_end("chromium", last=False)
                super()._assign_work_unit(node)
            elif len(queue) == 1:
                super()._assign_work_unit(node)
            else:
                held = queue.pop("chromium")
                try:
                    super()._assign_work_unit(node)
                finally:
                    queue["chromium"] = held
                    queue.move_to_end("chromium", last=False)

    return OneWorkerScopes(config, log)


@pytest.fixture(autouse=True)
def own_state_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """``$XDG_STATE_HOME`` on a folder of this test's own, never the user's: the folder."""
    home = tmp_path_factory.mktemp("state-home")
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def locale_that_names_no_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line speaks the environment's language (``LANG``): every test starts from
    ``C.UTF-8``, which names none, so output is German unless the test asks otherwise."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def broker() -> Iterator[Broker]:
    """A real mosquitto on a free loopback port with the tournament's config (tests/broker.py).

    Its folder is a fresh one right under the system's temp folder, not under pytest's: run as
    root, mosquitto runs as its own user, which cannot pass through pytest's private folders.
    """
    from tests.broker import mosquitto_missing, running_broker

    missing = mosquitto_missing()
    if missing:
        pytest.skip(missing)
    with running_broker() as running:
        yield running


@pytest.fixture(scope="session")
def chromium() -> Iterator[SharedChromium]:
    """The session's one headless Chromium (tests/chromium.py), started while the tests are
    collected where a selected test takes a window (tests/web/conftest.py), else when the first
    asks for one; skips where Debian's chromium or selenium is missing."""
    from sim.pictures.browser import browser_missing
    from tests.chromium import SharedChromium

    problem = browser_missing()
    if problem is not None:
        pytest.skip(problem)
    shared = SharedChromium()
    try:
        yield shared
    finally:
        shared.close()
