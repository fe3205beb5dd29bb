# Luza: `make run` starts the product with demo data; `make test` installs what the tests need
# and runs them all (what CI runs); `make check` is the inner loop: lint, types, import
# contracts, migrations and the fast tests, in under two minutes. All work on a fresh machine
# with Python 3.11.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
MANAGE := $(BIN)/python manage.py
DEV_ENV := DJANGO_DEBUG=1
# run.sh is told to stop (TERM: everything, Redis last) when make goes, however make goes.
ORPHAN_GUARD := $(shell setpriv --pdeathsig TERM true >/dev/null 2>&1 && echo setpriv --pdeathsig TERM)
# The suite in parallel (pytest-xdist): one worker per core, at most 4 (each has its own Redis
# database, REDIS_URL's plus its number); a file's tests stay on one worker, and the tests with
# real processes share one (loadgroup, see tests/conftest.py). The fast tests go one by one.
PARALLEL ?= -n auto --maxprocesses=4 --dist loadgroup
FAST_PARALLEL ?= -n auto --maxprocesses=4

.PHONY: run test check bench lint messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.run-deps: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.test-deps: requirements.txt requirements-test.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-test.txt
	touch $@ $(VENV)/.run-deps

messages:
	$(DEV_ENV) $(MANAGE) compilemessages --ignore=$(VENV) -v 0

# scripts/run.sh starts the private Redis, migrates, loads the demo and supervises the processes.
run: $(VENV)/.run-deps
	bash scripts/system-deps.sh run
	$(MAKE) --no-print-directory messages
	$(DEV_ENV) $(ORPHAN_GUARD) bash scripts/run.sh

test: $(VENV)/.test-deps
	bash scripts/system-deps.sh test
	$(MAKE) --no-print-directory messages
	$(BIN)/pytest $(PARALLEL) $(PYTEST_ARGS)

# The translations are compiled first (they are not in git): the i18n tests read them.
check: lint
	bash scripts/system-deps.sh check
	$(MAKE) --no-print-directory messages
	$(BIN)/pytest --fast $(FAST_PARALLEL) -q $(PYTEST_ARGS)

bench: $(VENV)/.test-deps
	bash scripts/bench.sh

lint: $(VENV)/.test-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(DEV_ENV) $(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	$(DEV_ENV) $(MANAGE) makemigrations --check --dry-run

clean:
	rm -rf var staticfiles artifacts
