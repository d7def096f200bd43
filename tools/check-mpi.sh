#!/usr/bin/env bash
# The long checks of the distributed engine (docs/distributed.md), too slow
# for CI's ctest run (which has DistMpi_1/2/4 and CliMpi.*):
#
#   1. `mpirun -np N petrel_tests --gtest_filter=Dist.Big_*` for N = 1, 2, 4:
#      2,000 random nets against enumeration, and every `small` instance of
#      20,000 states or more (StateSpace against the oracle, every on-the-fly
#      answer against one process);
#   2. tools/mcc/score.py on every `small` instance through
#      `mpirun -np N build/petrel` for N = 1, 2, 4: StateSpace, and with
#      --reach also UpperBounds, Reachability*, ReachabilityDeadlock, OneSafe,
#      QuasiLiveness and StableMarking, against the oracles.
#
#   tools/check-mpi.sh [--build DIR] [--ranks "1 2 4"] [--reach] [--no-gtest]
#
# Exits 1 on any failure or wrong answer. Needs mpirun (openmpi-bin) and a
# build with MPI.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
ranks="1 2 4"
reach=0
gtest=1
while (($#)); do
    case "$1" in
    --build) build="$2"; shift ;;
    --ranks) ranks="$2"; shift ;;
    --reach) reach=1 ;;
    --no-gtest) gtest=0 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-mpi.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done

command -v mpirun >/dev/null || { echo "check-mpi.sh: no mpirun (openmpi-bin)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none)
exams=(StateSpace)
((reach)) && exams+=(UpperBounds ReachabilityCardinality ReachabilityFireability
                     ReachabilityDeadlock OneSafe QuasiLiveness StableMarking)
wrappers="$(mktemp -d)"
trap 'rm -rf "$wrappers"' EXIT
failed=0
for n in $ranks; do
    if ((gtest)); then
        echo "==== Dist.Big_* on $n rank(s)"
        "${mpirun[@]}" -np "$n" "$build/tests/petrel_tests" --gtest_filter='Dist.Big_*' ||
            failed=1
    fi
    echo "==== score.py through mpirun -np $n: ${exams[*]}"
    cat >"$wrappers/petrel-np$n" <<WRAP
#!/bin/sh
exec ${mpirun[*]} -np $n "$PWD/$build/petrel" "\$@"
WRAP
    chmod +x "$wrappers/petrel-np$n"
    python3 tools/mcc/score.py --group small --exam "${exams[@]}" --petrel "$wrappers/petrel-np$n" \
        --threads 1 --memory 1G --timeout 900 -q || failed=1
done
exit "$failed"
