#!/usr/bin/env bash
# Sizes of the Büchi automata Petrel builds for MCC LTL formulas, as a
# Markdown table (docs/ltl-automata.md keeps one, for comparing translators).
#
#   tools/ltl-sizes.sh [BUILD_DIR]      (default: build; it must be built)
#
# Runs the LtlSizes.MccFormulas test of BUILD_DIR/tests/petrel_tests, which
# reads and simplifies the LTLCardinality and LTLFireability formulas of
# ../shared/mcc/{Philosophers-PT-000005,Dekker-PT-010} (skipped when absent),
# translates the negation of each A(psi) with ltl_from_fml + ltl_buchi_build,
# runs pn_ltl_check on the explored state graph, and prints one "ltl-size"
# line per formula. Columns: automaton states, edges, acceptance sets, atoms,
# complementary atoms (an atom that is the negation of another one), NNF
# nodes, product states visited by pn_ltl_check (graph path), its verdict,
# then for the on-the-fly check (pn_ltl_check_otf): automaton states and
# edges after ltl_buchi_reduce, product states and net states it visited.
set -euo pipefail

cd "$(dirname "$0")/.."
build="${1:-build}"
bin="$build/tests/petrel_tests"
if [ ! -x "$bin" ]; then
    echo "ltl-sizes.sh: $bin not found (build it first)" >&2
    exit 2
fi

out="$("$bin" --gtest_filter='LtlSizes.MccFormulas' --gtest_brief=1)" || {
    echo "ltl-sizes.sh: LtlSizes.MccFormulas failed" >&2
    printf '%s\n' "$out" | grep -v '^ltl-size' >&2
    exit 1
}
lines="$(printf '%s\n' "$out" | grep '^ltl-size' || true)"
if [ -z "$lines" ]; then
    echo "ltl-sizes.sh: no MCC instances found (../shared/mcc)" >&2
    exit 1
fi

printf '%s\n' "$lines" | awk -F'\t' '
BEGIN {
    print "| formula | states | edges | acc. sets | atoms | compl. atoms | NNF nodes | product states | verdict | reduced states | reduced edges | otf product states | otf net states |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
}
{
    id = $4
    print "| " id " | " $5 " | " $6 " | " $7 " | " $8 " | " $9 " | " $10 " | " $11 " | " $12 " | " $13 " | " $14 " | " $15 " | " $16 " |"
    if ($5 == "-")
        next
    n++; st += $5; ed += $6; ac += $7; at += $8; pr += $11
    rst += $13; red += $14; opr += $15; onet += $16
    if ($5 > mst) { mst = $5; mid = id }
    if ($6 > med) med = $6
    if ($11 > mpr) { mpr = $11; pid = id }
    inst[$2] += $5; cnt[$2]++; if ($5 > imax[$2]) imax[$2] = $5
}
END {
    printf "\n**Summary** (%d formulas): automaton states max %d (%s), avg %.1f; ", n, mst, mid, st / n
    printf "edges max %d, avg %.1f; acceptance sets avg %.2f; atoms avg %.2f; ", med, ed / n, ac / n, at / n
    printf "product states max %d (%s), total %d.\n\n", mpr, pid, pr
    printf "Reduced (on the fly): automaton states avg %.1f (from %.1f), edges avg %.1f (from %.1f); ", rst / n, st / n, red / n, ed / n
    printf "product states total %d (graph path: %d), net states total %d.\n\n", opr, pr, onet
    for (i in inst)
        printf "- %s: %d formulas, states max %d, avg %.1f\n", i, cnt[i], imax[i], inst[i] / cnt[i]
}'
