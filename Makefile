# Every target bootstraps the local virtual environment when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench soak clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Exit status 1 means the player stopped the game before its end (quit, Ctrl-D): not an error.
play: $(STAMP)
	$(BIN)/kartentisch play krass-kariert || test $$? -eq 1

# The table server on http://127.0.0.1:8000 (SQLite in the user's data directory);
# e.g. make serve SERVE_ARGS="--db postgresql://user@host/db --port 8080".
serve: $(STAMP)
	$(BIN)/kartentisch serve $(SERVE_ARGS)

# System packages the tests need (PostgreSQL for the server's storage tests), when missing.
system:
	bash scripts/setup-system.sh

test: $(STAMP) system
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist loadfile src tests

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_speed.py

# Conformance invariants over a million random games per game (lean checks per move, the full
# check every 2000th game), on 2 worker processes; exits non-zero on any violation. Hours.
# Smaller runs: make soak SOAK_GAMES=2000. Also: KARTENTISCH_SOAK=1 for the long test counts.
SOAK_GAMES ?= 1000000
SOAK_WORKERS ?= 2
soak: $(STAMP)
	$(BIN)/python -m kartentisch.testing.soak --games $(SOAK_GAMES) --workers $(SOAK_WORKERS)
	KARTENTISCH_SOAK=1 $(BIN)/pytest -q -n $(SOAK_WORKERS) tests/test_conformance.py tests/core/test_fuzz.py
	KARTENTISCH_SOAK=1 $(BIN)/pytest -q -n 0 tests/arena/test_ray_backend.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
