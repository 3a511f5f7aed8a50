VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup run test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/setup.sh
	scripts/setup.sh $(VENV)
	touch $@

run: setup
	$(BIN)/mjbot selfplay --agents mjbot greedy mjbot random --games 16 --seed 1

# the upload gate plays the Botzone zip on CPython 3.6 as Botzone runs it
# (scripts/setup_py36.sh makes its interpreters once; arena/upload_gate.py)
test: setup
	$(BIN)/python -m strategy.warmup
	scripts/setup_py36.sh
	$(BIN)/python -m arena.upload_gate
	$(BIN)/pytest -q -n 2

lint: setup
	$(BIN)/ruff check . && $(BIN)/mypy

bench: setup
	$(BIN)/mjbot bench deficiency

clean:
	rm -rf $(VENV) .venv-py36 .venv-py36-oldest .pytest_cache .mypy_cache .ruff_cache
