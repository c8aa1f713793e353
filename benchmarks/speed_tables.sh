#!/usr/bin/env bash
# The speed tables of issues 13 and 14 for one commit, as recorded in RESULTS.md ("The
# issue's table at the end of the session"): the commit's sources are copied out of git and
# compiled (the Makefile's command), then, one after the other,
#   engine_speed.py --modes   the protocol, ids and batch rows, pure and compiled, beside
#                             OpenSpiel's dou_dizhu and crazy_eights (ratios per repetition);
#   state_costs.py            replay, JSON round trip and state size, compiled then pure;
#   rl_speed.py               the AEC environments and batch steppers beside PettingZoo's.
# Run it on a quiet machine (the rows are CPU time, but caches and turbo are shared); the
# load is printed between the parts. About 7 minutes, 2 of them for the build.
#
#   bash benchmarks/speed_tables.sh [COMMIT] [OUTPUT_DIR]     # defaults: HEAD, a temp dir
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:-HEAD}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

git archive "$commit" src setup.py pyproject.toml | tar -x -C "$build"
(cd "$build" && KARTENTISCH_COMPILE=1 "$OLDPWD/.venv/bin/python" setup.py --quiet build_ext \
    --inplace) >"$out/build.log" 2>&1

stamp() { echo "$1: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"; }
echo "commit $(git rev-parse --short "$commit"), tables in $out"
stamp "engine_speed"
.venv/bin/python benchmarks/engine_speed.py --modes --seconds 1.5 --repeat 5 \
    --compiled-src "$build/src" >"$out/engine.txt" 2>&1
stamp "state_costs"
for mode in compiled pure; do
    echo "== $mode"
    if [ "$mode" = pure ]; then
        KARTENTISCH_PURE=1 PYTHONPATH="$build/src" .venv/bin/python benchmarks/state_costs.py \
            --games 10 --repeat 5
    else
        PYTHONPATH="$build/src" .venv/bin/python benchmarks/state_costs.py --games 10 --repeat 5
    fi
done >"$out/state.txt" 2>&1
stamp "rl_speed"
.venv/bin/python benchmarks/rl_speed.py --games krass-kariert,casino,krumme20 --seconds 3 \
    --repeats 2 --compiled-src "$build/src" >"$out/rl.txt" 2>&1
stamp "done"
