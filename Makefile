# The README's commands: `make run` opens the app, `make test` runs the tests. Each creates the
# virtual environment in .venv and installs the project the first time (and when pyproject changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test scenarios bench lint clean

$(STAMP): pyproject.toml
	@echo "Setting up $(VENV): installing GPU Advisor and its test tools (the first time takes a minute or two)..."
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)
	@echo "Set up. Next time this step is skipped."

run: $(STAMP)
	$(BIN)/gpu-advisor $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest

scenarios: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_scenarios.py

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
