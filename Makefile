# The two commands a new user needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint typecheck test-engine bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

test-engine: $(STAMP)
	$(BIN)/pytest -q tests/engine

test: $(STAMP) lint typecheck
	$(BIN)/pytest -q tests

bench: $(STAMP)
	$(BIN)/python -m engine bench
