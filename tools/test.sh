#!/usr/bin/env bash
# Petrel's test command (the one README and CI run):
#
#   1. Release build in build/, the stage check (tools/check-stages.py: each
#      folder calls only the stages below it) and the whole ctest suite;
#   2. AddressSanitizer + UBSan build in build-asan/ (-DPETREL_SANITIZE=ON) and
#      the suite at -O1 without the slow oracle tests (ctest -E Big_ and five
#      slow small instances) and DistMpi_4, the long random comparisons and the
#      oracle pairs on a quarter of their cases (tests/test_share.h);
#   3. ThreadSanitizer build in build-tsan/ (-DPETREL_TSAN=ON, no CUDA) and the
#      tests that run several threads (hash tables, engine, on-the-fly checks,
#      CLI, a few small oracle instances); any TSan report fails the test.
#
# Exits non-zero on any failure: a configure or build failure stops at once;
# failing release tests still let the sanitizer stages run (so one CI run shows
# all of them), and the script then exits 1.
# The CUDA engine is built when CMake finds nvcc (e.g. /usr/local/cuda) and
# skipped otherwise; both work.
#
# Options:   --no-asan        skip step 2
#            --no-tsan        skip step 3
# Variables: JOBS             parallel build/test jobs (default: nproc)
#            CMAKE_ARGS       extra arguments for every configure step,
#                             e.g. CMAKE_ARGS=-DPETREL_CUDA=OFF
#            BUILD_DIR        release build folder (default: build)
#            ASAN_BUILD_DIR   ASan/UBSan build folder (default: build-asan)
#            TSAN_BUILD_DIR   TSan build folder (default: build-tsan)
set -euo pipefail

cd "$(dirname "$0")/.."

asan=1
tsan=1
for arg in "$@"; do
    case "$arg" in
    --no-asan) asan=0 ;;
    --no-tsan) tsan=0 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done

jobs="${JOBS:-$(nproc)}"
build="${BUILD_DIR:-build}"
build_asan="${ASAN_BUILD_DIR:-build-asan}"
build_tsan="${TSAN_BUILD_DIR:-build-tsan}"
read -r -a extra <<<"${CMAKE_ARGS:-}"

# Each stage's line carries the time since the start, so a CI log shows where
# its minutes went.
start=$SECONDS
step() { printf '\n==== %s (at %d s) ====\n' "$*" $((SECONDS - start)); }

# The options are given explicitly so that a folder configured earlier with
# other cached values still builds what CI means (CMAKE_ARGS comes last and
# may override them).
common=(-DPETREL_TESTS=ON -DPETREL_CUDA=AUTO -DPETREL_NATIVE=OFF)

failed=()
step "Release build ($build/)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DPETREL_SANITIZE=OFF -DPETREL_TSAN=OFF "${common[@]}" "${extra[@]}"
cmake --build "$build" -j"$jobs"
step "Stages ($build/: each calls only the stages below it, no files calling each other)"
tools/check-stages.py "$build" || failed+=("stages ($build)")
step "Release tests"
ctest --test-dir "$build" --output-on-failure --no-tests=error -j"$jobs" ||
    failed+=("release tests ($build)")
step "SandyBridge check ($build/petrel)"
tools/check-sandybridge --no-install "$build/petrel" || failed+=("SandyBridge check ($build/petrel)")

if ((asan)); then
    # protect_shadow_gap=0: the CUDA runtime maps memory ASan reserves by
    # default; harmless without CUDA.
    export ASAN_OPTIONS="${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:abort_on_error=0}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    step "ASan/UBSan build ($build_asan/)"
    # -O1 (asserts kept): ASan's own advice; the -O0 build ran these tests
    # 1.6 to 2.7 times slower.
    cmake -S . -B "$build_asan" -DCMAKE_BUILD_TYPE=Debug -DPETREL_SANITIZE=ON -DPETREL_TSAN=OFF \
        -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        "${common[@]}" "${extra[@]}"
    cmake --build "$build_asan" -j"$jobs"
    step "ASan/UBSan tests (without Big_)"
    # Without the oracle checks of the five slowest small instances too (5 to
    # 20 s each in the release stage, 15 to 20 times that here); the other
    # small instances run the same code under the sanitizers.
    slow_oracles='OracleCheck\.MatchesOracle/(PermAdmissibility_PT_01|NQueens_PT_08|TokenRing_PT_010|Dekker_PT_015|LamportFastMutEx_PT_3)_'
    # DistMpi_4 too: the same code as DistMpi_2 with twice the ranks, 4 minutes here.
    # And the decision diagrams' Liveness on random nets (3 minutes here, 10 s in
    # the release stage): the step runs here in CtlMdd.TheStepAnswers..., and its
    # formula's fixed points in CtlMdd.AgreesWithTheGraphChecker.
    ctest --test-dir "$build_asan" --output-on-failure --no-tests=error -j"$jobs" \
        -E "Big_|DistMpi_4|Global\.TheDecisionDiagramsDecideLiveness|$slow_oracles" ||
        failed+=("ASan/UBSan tests ($build_asan)")
fi

if ((tsan)); then
    # The tests that start threads: the concurrent hash tables, the engine
    # (2-4 workers), the on-the-fly checks (2 threads), the CLI (one worker
    # per CPU; SmallMemoryOnAHugeModel is left out: it asserts a wall time
    # that TSan's slowdown breaks, and so are two one-thread runs of a minute
    # there that check what a run prints, SummaryLines... and ARunWithin...) and the oracle checks of five small
    # instances (2 threads, every examination, P/T and coloured).
    # EngineCompact.TightBudget* is left out: one thread, and 90 s under
    # TSan. About 2 minutes on 2 cores. halt_on_error: the first report
    # fails the test (TSan's exit status 66).
    tsan_tests='^(TableConcurrent|CTableConcurrent|Engine|EngineCompact|EngineTrace|EngineTree|TreeStore|Check|HlpnMcc|Cli|Passes|Sched)\.'
    tsan_tests+='|OracleCheck\.MatchesOracle/(Philosophers_PT_000005|Philosophers_COL_000005|TokenRing_COL_005|SharedMemory_PT_000005|Dekker_PT_010)_'
    step "ThreadSanitizer build ($build_tsan/)"
    # CUDA off: the CUDA runtime is not instrumented, and the GPU engine is
    # not what this stage checks.
    cmake -S . -B "$build_tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPETREL_SANITIZE=OFF \
        -DPETREL_TSAN=ON "${common[@]}" -DPETREL_CUDA=OFF "${extra[@]}"
    cmake --build "$build_tsan" -j"$jobs"
    step "ThreadSanitizer tests (threaded ones)"
    # tools/tsan.supp: Z3's own timer-thread locking, which TSan cannot follow.
    TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}:suppressions=$PWD/tools/tsan.supp" \
        ctest --test-dir "$build_tsan" --output-on-failure --no-tests=error -j"$jobs" \
        -R "$tsan_tests" \
        -E 'Big_|Cli\.(SmallMemoryOnAHugeModel|SummaryLinesAgreeWithTheAnswers|ARunWithinItsTimeIsNoTimeout)|EngineCompact\.TightBudget' ||
        failed+=("ThreadSanitizer tests ($build_tsan)")
fi

if ((${#failed[@]})); then
    step "FAILED: ${failed[*]}"
    exit 1
fi
step "all tests passed"
