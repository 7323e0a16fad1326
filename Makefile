# Everything starts from python3 (3.11 or newer) and make: each target builds .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
SIM_ARGS ?=

# `make` alone lists the targets.
.DEFAULT_GOAL := help
.PHONY: help test test-long lint typecheck unit sim clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Schockbesteck needs Python 3.11 or newer; found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[pi,sim,dev]'
	@touch $(STAMP)

## make lint: ruff on the whole tree
lint: $(STAMP)
	$(BIN)/ruff check .

## make typecheck: mypy --strict on every package
typecheck: $(STAMP)
	$(BIN)/mypy --strict engine
	$(BIN)/mypy --strict hal firmware sim schockbesteck

## make unit: the test suite without the slow selection (PYTEST_ARGS=... passes options)
unit: $(STAMP)
	$(BIN)/pytest -q -m "not slow" $(PYTEST_ARGS)

## make test: ruff, mypy --strict on every package, and the test suite (the slow selection excluded)
test: lint typecheck unit

## make test-long: the slow, exhaustive selection (statistics, long kill runs)
test-long: $(STAMP)
	$(BIN)/pytest -q -m slow $(PYTEST_ARGS)

## make sim: play a 3-player game under the standard rules in a window (no display: the terminal)
sim: $(STAMP)
	$(BIN)/schocken sim --players 3 --rules standard $(SIM_ARGS)

## make clean: remove everything the targets create (.venv, caches, .hypothesis, *.egg-info)
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info build dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

## make help: this list (also what `make` alone prints)
help:
	@echo "Targets (those that run Python build .venv on first use):"
	@sed -n 's/^## make \([a-z-]*\): \(.*\)/  make \1\t\2/p' $(MAKEFILE_LIST) | expand -t 18
