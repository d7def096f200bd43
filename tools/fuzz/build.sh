#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, outside
# CMake: the library sources host/<stage>/*.c (not host/cli) are compiled with
# -fsanitize=fuzzer-no-link,address,undefined and linked into one binary per
# target with -fsanitize=fuzzer,address,undefined and libxml2. No hwloc and
# no CUDA: those files build without PETREL_HAVE_HWLOC / PETREL_HAVE_CUDA.
#
#   tools/fuzz/build.sh            -> build-fuzz/fuzz_pnml, build-fuzz/fuzz_formula,
#                                     build-fuzz/fuzz_rers, build-fuzz/fuzz_mcmt
#
# Incremental: an object is rebuilt when its source, a header it includes or
# the flags changed. UBSan findings abort (-fno-sanitize-recover=all), so the
# fuzzer reports them as crashes.
#
# Variables: FUZZ_BUILD_DIR  output folder (default: build-fuzz)
#            FUZZ_CC         the clang to use (default: clang, else clang-19..14)
# Needs clang and its libFuzzer/sanitizer runtime (Debian: clang and
# libclang-rt-<N>-dev, which `clang` only recommends), and libxml2-dev.
# Exit status: 0 built, 1 a compile or link error, 2 a missing tool.
set -euo pipefail

cd "$(dirname "$0")/../.."
out="${FUZZ_BUILD_DIR:-build-fuzz}"
mkdir -p "$out/obj"

cc="${FUZZ_CC:-}"
if [[ -z "$cc" ]]; then
    for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        if command -v "$c" >/dev/null 2>&1; then
            cc="$c"
            break
        fi
    done
fi
if [[ -z "$cc" ]]; then
    echo "fuzz/build.sh: no clang found (tools/install-deps.sh --hardening installs it)" >&2
    exit 2
fi
command -v xml2-config >/dev/null || {
    echo "fuzz/build.sh: xml2-config not found (libxml2-dev)" >&2
    exit 2
}

# The libFuzzer runtime is a separate Debian package from clang itself.
cat >"$out/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
PROBE
if ! "$cc" -fsanitize=fuzzer,address,undefined "$out/probe.c" -o "$out/probe" 2>"$out/probe.log"; then
    sed -n '1,5p' "$out/probe.log" >&2
    ver="$("$cc" -dumpversion | cut -d. -f1)"
    echo "fuzz/build.sh: $cc cannot link a libFuzzer target: install its runtime," \
        "e.g. apt-get install libclang-rt-$ver-dev" >&2
    exit 2
fi
rm -f "$out/probe" "$out/probe.c" "$out/probe.log"

version="$(sed -n 's/^project(petrel VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
read -r -a xml_cflags <<<"$(xml2-config --cflags)"
read -r -a xml_libs <<<"$(xml2-config --libs)"
# shellcheck disable=SC2054  # the commas belong to the flag
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (libFuzzer's convention): the
# coloured-net unfolder uses small size bounds (host/coloured/hlpn.h), so that models
# beyond them are refused within the fuzzer's time and memory limits.
cflags=(-std=c11 -g -O1 -Wall -Wextra "${san[@]}" -D_GNU_SOURCE
        -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
        "-DPETREL_VERSION=\"${version:-0}\"" -Iinclude -Ikernels -Ihost "${xml_cflags[@]}" -pthread)

# Flags changed (another clang, another version): rebuild everything.
stamp="$cc ${cflags[*]}"
if [[ ! -f "$out/obj/flags" || "$(cat "$out/obj/flags")" != "$stamp" ]]; then
    rm -f "$out"/obj/*.o "$out"/obj/*.d
    printf '%s\n' "$stamp" >"$out/obj/flags"
fi

stale() { # stale OBJ DEPFILE: true when OBJ must be rebuilt
    local obj="$1" dep="$2" f
    [[ -f "$obj" && -f "$dep" ]] || return 0
    # The depfile lists paths without spaces (host/, include/, kernels/).
    # shellcheck disable=SC2013
    for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$dep"); do
        [[ "$f" -nt "$obj" ]] && return 0
    done
    return 1
}

objs=()
built=0
for src in host/*/*.c; do
    [[ "$src" == host/cli/* ]] && continue
    # No MPI in the fuzz build: the transport's stub stands in (as in a
    # -DPETREL_MPI=OFF build).
    [[ "$src" == host/engine/mpi_transport.c ]] && continue
    # Objects are named stage_file: two stages may hold files of one name.
    base="$(basename "$(dirname "$src")")_$(basename "$src" .c)"
    obj="$out/obj/$base.o"
    objs+=("$obj")
    if stale "$obj" "$out/obj/$base.d"; then
        "$cc" "${cflags[@]}" -fsanitize=fuzzer-no-link -MMD -MF "$out/obj/$base.d" \
            -c "$src" -o "$obj"
        built=$((built + 1))
    fi
done

for target in tests/fuzz/fuzz_*.c; do
    name="$(basename "$target" .c)"
    bin="$out/$name"
    relink=$((built > 0))
    [[ -f "$bin" ]] || relink=1
    [[ -f "$bin" && "$target" -nt "$bin" ]] && relink=1
    [[ -f "$bin" && tests/fuzz/fuzz_common.h -nt "$bin" ]] && relink=1
    if ((relink)); then
        "$cc" "${cflags[@]}" -fsanitize=fuzzer "$target" "${objs[@]}" \
            "${xml_libs[@]}" -lglpk -lz3 -lm -o "$bin"
        echo "fuzz/build.sh: built $bin"
    fi
done
