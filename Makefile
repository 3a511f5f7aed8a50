VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup setup-run run test lint bench clean

# what `make run` needs: mjbot and its arena extra (no Ray, browser or broker)
setup-run: $(VENV)/.installed-run

$(VENV)/.installed-run: pyproject.toml scripts/setup.sh
	scripts/setup.sh $(VENV) run
	touch $@

# what the tests need too: the dev extra, mosquitto, chromium and a CJK font
setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml scripts/setup.sh
	scripts/setup.sh $(VENV) test
	touch $@

run: setup-run
	$(BIN)/mjbot selfplay --agents mjbot greedy mjbot random --games 16 --seed 1

# the upload gate plays the Botzone zip on CPython 3.6 as Botzone runs it
# (scripts/setup_py36.sh makes its interpreters once; arena/platforms/botzone_judge/upload_gate.py)
test: setup
	$(BIN)/python -m strategy.warmup
	scripts/setup_py36.sh
	$(BIN)/python -m arena.platforms.botzone_judge.upload_gate --games 1
	$(BIN)/pytest -q -n 2

lint: setup
	$(BIN)/ruff check . && $(BIN)/mypy

bench: setup
	$(BIN)/mjbot bench deficiency

clean:
	rm -rf $(VENV) .venv-core .venv-py36 .venv-py36-oldest .pytest_cache .mypy_cache .ruff_cache
