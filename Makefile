# Everything starts from python3 (3.11 or newer) and make: each target builds .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two installs, each with its stamp: what playing needs (the package and its `sim` extra, for
# `make sim`), then the checking tools and the other extras (for `make test` and the rest).
PLAY   := $(VENV)/.play-stamp
STAMP  := $(VENV)/.check-stamp
WEB    := $(VENV)/.web-stamp
# `make tournament-demo`'s: the hub and the tables only (the `hub` extra), no checking tools.
HUB    := $(VENV)/.hub-stamp
PYTEST_ARGS ?=
# pytest-xdist workers: two more than the cores this make may use, since a third of the tests'
# time is spent waiting (for a subprocess, a browser, a broker), which the extra workers fill
# (on two cores: 83 s with four workers against 92 s with three, fresh clones, docs/performance.md).
WORKERS ?= $(shell echo $$(( $$(nproc) + 2 )))
SIM_ARGS ?=
# `make tournament-demo`: Debian's broker (package mosquitto) and the demo's options.
MOSQUITTO ?= /usr/sbin/mosquitto
DEMO_ARGS ?=

# `make` alone lists the targets.
.DEFAULT_GOAL := help
.PHONY: help test test-long test-deploy lint typecheck unit sim docs-images clean tournament-demo

# The venv, made on first use (the Python checked first), with a current pip.
define NEW_VENV
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Schockbesteck needs Python 3.11 or newer; found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
endef

$(PLAY): pyproject.toml
	$(NEW_VENV)
	$(BIN)/python -m pip install --quiet -e '.[sim]'
	@touch $(PLAY)

$(HUB): pyproject.toml
	$(NEW_VENV)
	$(BIN)/python -m pip install --quiet -e '.[hub]'
	@touch $(HUB)

# The table's page in the simulator (`make sim SIM_ARGS=--web`) needs the `web` extra too.
$(WEB): $(PLAY)
	$(BIN)/python -m pip install --quiet -e '.[sim,web]'
	@touch $(WEB)

$(STAMP): $(PLAY)
	$(BIN)/python -m pip install --quiet -e '.[pi,sim,dev,web,mqtt,hub,browser-test]'
	@touch $(STAMP)

# The shell scripts shellcheck reads (Debian's shellcheck; .ci/run installs it).
SHELL_SCRIPTS := $(wildcard deploy/install.sh tests/deploy/arm64/run.sh .ci/run)

## make lint: ruff on the whole tree, shellcheck on the shell scripts
lint: $(STAMP)
	$(BIN)/ruff check .
ifneq ($(SHELL_SCRIPTS),)
	@if command -v shellcheck >/dev/null; then \
		echo "shellcheck --severity=style $(SHELL_SCRIPTS)"; \
		shellcheck --severity=style $(SHELL_SCRIPTS); \
	else \
		echo "shellcheck is missing: the shell scripts were not checked (apt-get install shellcheck; .ci/run does)"; \
	fi
endif

## make typecheck: mypy --strict on every package
typecheck: $(STAMP)
	$(BIN)/mypy --strict engine
	$(BIN)/mypy --strict hal firmware sim schockbesteck

## make unit: the test suite without the slow selection (PYTEST_ARGS=... passes options)
# -n $(WORKERS): pytest-xdist workers (PYTEST_ARGS=-n0 runs in one process, e.g. for --pdb);
# tests/conftest.py keeps each module with a costly module fixture on one worker.
unit: $(STAMP)
	$(BIN)/pytest -q -m "not slow" -n $(WORKERS) $(PYTEST_ARGS)

## make test: ruff, mypy --strict on every package, and the test suite (the slow selection excluded)
test: lint typecheck unit

## make test-long: the slow, exhaustive selection (statistics, long kill runs, 1,000-example properties)
test-long: $(STAMP)
	$(BIN)/pytest -q -m slow -n auto $(PYTEST_ARGS)

## make test-deploy: install.sh in an arm64 Debian root under qemu-user (root, ~10 min cold)
# (deploy/install.sh as on a Pi, in a Debian Bookworm arm64 root under proot and qemu-user;
# cached in ~/.cache/schockbesteck/arm64; docs/deploy.md has its report)
test-deploy: $(STAMP)
	bash tests/deploy/arm64/run.sh

## make sim: play a game under the standard rules in a window (no display: the terminal)
# Installs only what playing needs (the `sim` extra, and with --web the page's `web` extra);
# `make test` adds the checking tools.
# Three players (the config's), or as many as SIM_ARGS="--names A,B" or "--bots ,odds" name.
sim: $(PLAY) $(if $(findstring --web,$(SIM_ARGS)),$(WEB))
	$(BIN)/schocken sim --rules standard $(SIM_ARGS)

## make docs-images: remake every picture of the README and docs/ (docs/img/; fixed seeds)
docs-images: $(STAMP)
	$(BIN)/python -m sim.pictures.docs

## make tournament-demo: a private mosquitto on loopback, the hub and simulated tables (needs mosquitto)
# Needs only Debian's broker (sudo apt-get install mosquitto): checked first, before the venv is
# built, in one line; installs only what the hub and the tables need (the `hub` extra).
# DEMO_ARGS="--tables 20 --pace 0" passes options (python -m sim.tournament.demo --help).
tournament-demo:
	@test -x $(MOSQUITTO) || { echo "mosquitto fehlt (mosquitto is missing): sudo apt-get install mosquitto" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(HUB)
	$(BIN)/python -m sim.tournament.demo --mosquitto $(MOSQUITTO) $(DEMO_ARGS)

## make clean: remove everything the targets create (.venv, caches, .hypothesis, *.egg-info)
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info build dist
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

## make help: this list (also what `make` alone prints)
help:
	@echo "Targets (those that run Python build .venv on first use):"
	@sed -n 's/^## make \([a-z-]*\): \(.*\)/  make \1\t\2/p' $(MAKEFILE_LIST) | expand -t 25
