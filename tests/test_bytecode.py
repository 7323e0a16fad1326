"""The suite's bytecode written before the workers start (:mod:`tests.bytecode`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

from tests.bytecode import warm


def test_a_fresh_tree_gets_the_bytecode_the_workers_read_and_a_second_run_writes_none(
    tmp_path: Path,
) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "rules.py").write_text("SIX = 6\n")
    (tmp_path / "tests" / "deep").mkdir(parents=True)
    test_module = tmp_path / "tests" / "deep" / "test_six.py"
    test_module.write_text("def test_six():\n    assert 2 * 3 == 6\n")
    (tmp_path / "tests" / "conftest.py").write_text("VALUE = 1\n")

    assert warm(tmp_path, 2) == 2

    plain = Path(importlib.util.cache_from_source(str(tmp_path / "engine" / "rules.py")))
    assert plain.exists()
    rewritten = test_module.parent / "__pycache__" / (test_module.stem + PYC_TAIL)
    code = _read_pyc(test_module, rewritten)
    assert code is not None, "pytest reads the rewritten module as its own"
    assert "@pytest_ar" in code.co_names, "the asserts are rewritten, not plain"
    assert not Path(importlib.util.cache_from_source(str(test_module))).exists()
    assert warm(tmp_path, 2) == 0

    test_module.write_text("def test_six():\n    assert 6 == 6\n")
    assert warm(tmp_path, 2) == 1, "a changed test module is rewritten again"
