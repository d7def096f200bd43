#!/usr/bin/env bash
# Petrel's test command (the one README and CI run):
#
#   1. Release build in build/ and the whole ctest suite;
#   2. AddressSanitizer + UBSan build in build-asan/ (-DPETREL_SANITIZE=ON) and
#      the suite without the slow oracle tests (ctest -E Big_).
#
# Exits non-zero on any failure: a configure or build failure stops at once;
# failing release tests still let the sanitizer stage run (so one CI run shows
# both), and the script then exits 1.
# The CUDA engine is built when CMake finds nvcc (e.g. /usr/local/cuda) and
# skipped otherwise; both work.
#
# Options:   --no-asan        only step 1
# Variables: JOBS             parallel build/test jobs (default: nproc)
#            CMAKE_ARGS       extra arguments for both configure steps,
#                             e.g. CMAKE_ARGS=-DPETREL_CUDA=OFF
#            BUILD_DIR        release build folder (default: build)
#            ASAN_BUILD_DIR   sanitizer build folder (default: build-asan)
set -euo pipefail

cd "$(dirname "$0")/.."

asan=1
for arg in "$@"; do
    case "$arg" in
    --no-asan) asan=0 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done

jobs="${JOBS:-$(nproc)}"
build="${BUILD_DIR:-build}"
build_asan="${ASAN_BUILD_DIR:-build-asan}"
read -r -a extra <<<"${CMAKE_ARGS:-}"

step() { printf '\n==== %s ====\n' "$*"; }

# The options are given explicitly so that a folder configured earlier with
# other cached values still builds what CI means (CMAKE_ARGS comes last and
# may override them).
common=(-DPETREL_TESTS=ON -DPETREL_CUDA=AUTO -DPETREL_NATIVE=OFF)

step "Release build ($build/)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DPETREL_SANITIZE=OFF -DPETREL_TSAN=OFF "${common[@]}" "${extra[@]}"
cmake --build "$build" -j"$jobs"
step "Release tests"
failed=()
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
    cmake -S . -B "$build_asan" -DCMAKE_BUILD_TYPE=Debug -DPETREL_SANITIZE=ON -DPETREL_TSAN=OFF \
        "${common[@]}" "${extra[@]}"
    cmake --build "$build_asan" -j"$jobs"
    step "ASan/UBSan tests (without Big_)"
    ctest --test-dir "$build_asan" --output-on-failure --no-tests=error -j"$jobs" -E Big_ ||
        failed+=("ASan/UBSan tests ($build_asan)")
fi

if ((${#failed[@]})); then
    step "FAILED: ${failed[*]}"
    exit 1
fi
step "all tests passed"
