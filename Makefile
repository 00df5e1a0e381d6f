# One entry point for newcomers, CI and benchmarks. Every target installs what it needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup test lint bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## Run every test and the linters.
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

## Timings written up in docs/benchmarks.md.
bench: $(STAMP)
	$(PY) -m benchmarks.estimate

## Regenerate the golden fixture of designs after changing estimation/designs.py.
golden: $(STAMP)
	$(PY) -m estimation golden > tests/fixtures/designs.json

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
