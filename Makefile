# Every target bootstraps the local virtual environment when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench soak clean compiled

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

# The compiled core (mypyc, see setup.py): built in place for the editable install, rebuilt
# only when a source it is made from changes (the stamp lists them); about 1-2 minutes.
# Without a C compiler or mypyc it is skipped and everything runs as pure Python.
COMPILED_STAMP := .compiled-stamp
COMPILED_SOURCES = $(shell $(BIN)/python -c "from kartentisch import _native as n; \
	print(' '.join(str(n.module_path(m)) for m in n.dependencies(n.COMPILED_MODULES)))" \
	2>/dev/null) setup.py
$(COMPILED_STAMP): $(STAMP) $(COMPILED_SOURCES)
	@if command -v cc >/dev/null 2>&1 && $(BIN)/python -c "import mypyc" 2>/dev/null; then \
		KARTENTISCH_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --inplace \
			&& echo compiled > $@; \
	else echo "no C compiler or mypyc: the compiled core is skipped"; echo pure > $@; fi

compiled: $(COMPILED_STAMP)

# Both modes: the whole suite in pure Python, then, with the compiled core, the games' rules
# and property tests, the search bots, playthroughs, the conformance suite, the research
# encoders and batch rows (compiled too) and OpenSpiel's simulation checks (which pickle the
# compiled states); not the server, browser or CLI tests, which add no compiled code of their
# own, to keep ~3 minutes.
COMPILED_TESTS := tests/krass_kariert tests/krass_kariert_bots tests/bots tests/krumme20 \
	tests/casino tests/test_conformance.py tests/test_compiled_core.py tests/playthroughs \
	tests/rl/test_openspiel.py tests/rl/test_batch.py tests/rl/test_encodings.py \
	tests/rl/test_environments.py tests/test_state_pickle.py
# The checks themselves, and what runs beside what: scripts/run-tests.sh (ruff; the pure pass
# in the foreground; mypy, the compiled pass and the Ray test in the background).
test: $(STAMP) system $(COMPILED_STAMP)
	BIN=$(BIN) COMPILED_STAMP=$(COMPILED_STAMP) COMPILED_TESTS="$(COMPILED_TESTS)" \
		bash scripts/run-tests.sh

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_speed.py

# The long counts first: every test of a file with a KARTENTISCH_SOAK switch (marked soak by
# tests/conftest.py: property tests of all games, the conformance suite, the fuzzers of the
# API and the server, OpenSpiel's checks) with KARTENTISCH_SOAK=1, some minutes on 2 workers.
# Then conformance invariants over SOAK_GAMES random games per game (lean checks per move, the
# full check every 2000th game), on 2 worker processes. Both always run, and any failure or
# violation makes the exit status non-zero. Sized for about an hour on 2 free cores in pure
# Python: one game of each of the three games costs 6.4 ms of CPU (measured with 2000 games per
# game, 2026-11-27), so a million per game is about 6,400 CPU seconds, 55 minutes on 2 cores,
# plus the tests' few minutes (the compiled core is faster). A loaded machine takes longer:
# the count is CPU, not wall time. Smaller runs: make soak SOAK_GAMES=2000; longer ones:
# make soak SOAK_GAMES=3000000 (about three hours).
SOAK_GAMES ?= 1000000
SOAK_WORKERS ?= 2
soak: $(STAMP) system
	KARTENTISCH_SOAK=1 $(BIN)/pytest -n $(SOAK_WORKERS) --dist worksteal \
		-p no:cacheprovider -m soak tests; tests=$$?; \
	$(BIN)/python -m kartentisch.testing.soak --games $(SOAK_GAMES) --workers $(SOAK_WORKERS); \
	games=$$?; test $$tests -eq 0 && test $$games -eq 0

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete; rm -f src/kartentisch/_compiled.json $(COMPILED_STAMP)
