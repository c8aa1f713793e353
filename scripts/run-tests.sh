#!/usr/bin/env bash
# `make test`: every kind of check, in about 3 minutes on 2 cores. The Makefile has already
# made the virtual environment, the system packages and (when it can) the compiled core.
#
# Order and overlap:
#   1. ruff, first and alone (seconds; nothing else runs when the code does not lint);
#   2. the whole suite in pure Python (KARTENTISCH_PURE=1) on 2 workers, in the foreground;
#   3. beside it, in the background, their output shown after it:
#      - the Ray backend's test (marked ray), which mostly waits for Ray to start (10-40 s);
#      - mypy, one process (25-60 s with an empty cache, as in a fresh clone; seconds with
#        its cache), not niced so that it never ends last on one core;
#      - niced, the compiled core's pass over the tests in $COMPILED_TESTS (CPU-bound, 60-80 s
#        of CPU on 2 workers): it takes the CPU the pure pass leaves idle while its tests
#        wait on server processes, PostgreSQL and Chromium (about a third of its time), and
#        the rest after it.
# Any failure of any part makes the exit status non-zero.
#
# Environment: BIN (the venv's bin directory), COMPILED_STAMP (says "compiled" when the
# compiled core was built), COMPILED_TESTS (the test paths of the compiled pass).
set -uo pipefail

BIN=${BIN:?"the bin directory of the virtual environment"}
COMPILED_STAMP=${COMPILED_STAMP:?"the stamp file of the compiled core"}
COMPILED_TESTS=${COMPILED_TESTS:?"the test paths of the compiled pass"}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

KARTENTISCH_PURE=1 "$BIN/pytest" -n 0 -p no:cacheprovider -m ray \
    tests/arena/test_ray_backend.py >"$out/ray" 2>&1 &
ray_pid=$!

show() {  # show TITLE FILE: a background part's output, after the pure pass
    echo "$1"
    cat "$2"
}

echo "$BIN/ruff check src tests benchmarks"
if ! "$BIN/ruff" check src tests benchmarks; then
    wait "$ray_pid"
    show "tests/arena/test_ray_backend.py (in the background):" "$out/ray"
    exit 1
fi

"$BIN/mypy" >"$out/mypy" 2>&1 &
mypy_pid=$!

compiled_pid=
compiled_status=0
if ! grep -q compiled "$COMPILED_STAMP"; then
    echo "compiled pass skipped (no compiled core)" >"$out/compiled"
elif "$BIN/python" -c "import kartentisch, sys; sys.exit(not kartentisch.compiled)"; then
    # shellcheck disable=SC2086  # COMPILED_TESTS is a list of paths
    nice -n 10 "$BIN/pytest" -n 2 --dist loadfile -p no:cacheprovider \
        --ignore-glob='tests/*/test_cli_*' $COMPILED_TESTS >"$out/compiled" 2>&1 &
    compiled_pid=$!
else
    echo "the compiled core is stale: make compiled" >"$out/compiled"
    compiled_status=1
fi

echo "pytest -n 2 --dist loadfile -m 'not ray' src tests (pure Python)"
KARTENTISCH_PURE=1 "$BIN/pytest" -n 2 --dist loadfile -m "not ray" src tests
pure_status=$?

wait "$mypy_pid"
mypy_status=$?
show "$BIN/mypy (in the background):" "$out/mypy"

if [ -n "$compiled_pid" ]; then
    wait "$compiled_pid"
    compiled_status=$?
fi
show "pytest -n 2 --dist loadfile ... (the compiled core's tests, in the background):" \
    "$out/compiled"

wait "$ray_pid"
ray_status=$?
show "tests/arena/test_ray_backend.py (in the background):" "$out/ray"

for part in pure:$pure_status mypy:$mypy_status compiled:$compiled_status ray:$ray_status; do
    if [ "${part#*:}" -ne 0 ]; then
        echo "make test: the ${part%%:*} part failed (exit status ${part#*:})" >&2
        failed=1
    fi
done
exit "${failed:-0}"
