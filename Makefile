# The README's commands: `make run` opens the app, `make test` runs the tests. Each creates the
# virtual environment in .venv the first time and installs the exact versions the lock files pin:
# requirements.lock for the app, requirements-dev.lock for the app and its test tools. uv installs
# them when it is on the PATH (seconds), pip otherwise (a minute or two); the versions are the same.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP := $(VENV)/.installed-app
DEV := $(VENV)/.installed-dev
UV := $(shell command -v uv 2>/dev/null)

ifdef UV
INSTALL = $(UV) pip install --quiet --python $(BIN)/python
else
INSTALL = $(BIN)/python -m pip install --quiet
endif

.PHONY: run test test-fast scenarios bench residuals lint dist lock clean

$(BIN)/python:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)

# installs what the lock pins, then the project itself without touching those versions (editable: the
# gpu_advisor.* modules are this checkout's folders, which gpu_advisor/ links to)
define install_locked
	@echo "Setting up $(VENV) from $(1)$(if $(UV), with uv,) (the first time takes $(if $(UV),seconds,a minute or two))..."
	@$(INSTALL) -r $(1)
	@$(INSTALL) --no-deps -e .
	@touch $(2)
	@echo "Set up. Next time this step is skipped."
endef

$(APP): requirements.lock pyproject.toml | $(BIN)/python
	$(call install_locked,requirements.lock,$(APP))

$(DEV): requirements-dev.lock pyproject.toml | $(BIN)/python
	$(call install_locked,requirements-dev.lock,$(DEV))
	@touch $(APP)

run: $(APP)
	$(BIN)/gpu-advisor $(ARGS)

# The suite runs on every core (pytest-xdist; an idle worker takes queued tests from a busy one) and lists its
# ten slowest tests at the end; make test-fast leaves out the tests that start subprocesses or drive the app
# and the long generated runs (the reader's corpus, random conversations): marked slow and long.
test: $(DEV)
	@echo "Running every test on all cores (pytest -n auto): a dot per test passed, the share done at each line's end, the ten slowest listed last."
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=10

test-fast: $(DEV)
	@echo "Running the quick tests (not those marked slow or long, not the app's snapshots) on every core."
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not slow and not long" --ignore=tests/test_tui.py

scenarios: $(DEV)
	$(BIN)/python -m pytest -q tests/test_scenarios.py

# make bench runs every section; make bench SECTIONS=scale (or accuracy, speed) runs those named.
bench: $(DEV)
	$(BIN)/python -m bench $(SECTIONS)

# Rewrite knowledge/data/residuals.yaml (the measured error each memory range comes from) after a
# change to the memory tools or to tests/reference; tests/test_residuals.py fails until it is.
residuals: $(DEV)
	$(BIN)/python -m bench residuals

# The import contract (layers), ruff's rules and mypy, as configured in pyproject.toml.
lint: $(DEV)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/mypy

# The sdist and the wheel built from it, in dist/, with the setuptools the dev lock pins (nothing fetched).
dist: $(DEV)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

# Re-resolve the lock files from pyproject.toml (needs uv): run after changing a dependency.
lock:
	uv pip compile pyproject.toml --python-version 3.11 --no-annotate --custom-compile-command "make lock" -o requirements.lock
	uv pip compile pyproject.toml --extra dev --python-version 3.11 --no-annotate --custom-compile-command "make lock" -o requirements-dev.lock

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
