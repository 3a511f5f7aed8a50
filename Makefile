VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup run test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/setup.sh
	scripts/setup.sh $(VENV)
	touch $@

run: setup
	$(BIN)/mjbot selfplay --agents mjbot greedy mjbot random --games 16 --seed 1

test: setup
	$(BIN)/python -m strategy.warmup
	$(BIN)/pytest -q -n 2

lint: setup
	$(BIN)/ruff check . && $(BIN)/mypy

bench: setup
	$(BIN)/mjbot bench deficiency

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
