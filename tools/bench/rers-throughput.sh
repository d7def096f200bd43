#!/usr/bin/env bash
# The RERS .dot path against the PNML net of the same system (docs/benchmarks.md,
# "RERS parallel systems"): StateSpace on the token ring of N processes
# (N * 3 * 2^(N-1) states; N = 19: 1.5e7), written by petrel_rers_gen as
# system.dot and system.pnml, the two runs alternated ROUNDS times.
#
#   tools/bench/rers-throughput.sh [N] [ROUNDS] [BUILD]     (defaults: 19 2 build)
#
# Prints each run's wall time and the engine's rate, and the .dot / PNML ratio
# of the wall times per round.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-19}"
rounds="${2:-2}"
build="${3:-build}"
dir=$(mktemp -d /tmp/petrel_rers_bench_XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$build/tests/petrel_rers_gen" "$dir" ring "$n"
for ((r = 1; r <= rounds; r++)); do
    declare -A wall
    for f in system.dot system.pnml; do
        start=$(date +%s.%N)
        line=$(nice "$build/petrel" "$dir/$f" -e StateSpace --memory 3G 2>&1 | grep 'states/s')
        wall[$f]=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.2f", a - b }')
        echo "round $r $f: wall ${wall[$f]} s; ${line#petrel: }"
    done
    echo "round $r: .dot / PNML = $(awk -v a="${wall[system.dot]}" -v b="${wall[system.pnml]}" \
        'BEGIN { printf "%.2f", a / b }')"
done
