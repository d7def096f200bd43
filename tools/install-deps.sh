#!/usr/bin/env bash
# Installs what Petrel needs to build and test on a fresh Debian 12 machine.
#
#   tools/install-deps.sh              build + test dependencies
#   tools/install-deps.sh --hardening  also qemu-user, clang with its fuzzer
#                                      runtime and elfx86exts (SandyBridge
#                                      check, fuzzing)
#   tools/install-deps.sh --bench      also gnuplot (tools/bench/bench.py --plot)
#
# Idempotent: a package is installed only when dpkg says it is absent, and
# `apt-get update` runs at most once, only when something must be installed.
# Prints nothing when everything is already present. Uses sudo only when not
# running as root. CUDA is optional and never installed here.
set -euo pipefail

# Open MPI (libopenmpi-dev, openmpi-bin): the distributed engine and its
# mpirun tests (PETREL_MPI=AUTO builds without it where it is absent).
packages=(build-essential cmake pkg-config libxml2-dev libhwloc-dev
          libgtest-dev googletest python3 libglpk-dev libz3-dev libgraphviz-dev
          libxml2-utils libopenmpi-dev openmpi-bin)

for arg in "$@"; do
    case "$arg" in
    --hardening) packages+=(qemu-user clang libclang-rt-dev elfx86exts) ;;
    --bench) packages+=(gnuplot-nox) ;;
    -h|--help)
        sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
    *)
        echo "install-deps.sh: unknown argument '$arg'" >&2
        exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps.sh: missing ${missing[*]} and no apt-get to install them" >&2
    exit 1
fi

sudo_cmd=()
if [[ "$(id -u)" -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "install-deps.sh: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
    fi
    sudo_cmd=(sudo)
fi

echo "install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
