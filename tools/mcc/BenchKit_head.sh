#!/usr/bin/env bash
# The MCC's entry point for Petrel (BenchKit).
#
# BenchKit runs this script with the current directory set to the instance
# folder (model.pnml and the formula files) and the examination in the
# environment: BK_EXAMINATION, BK_TIME_CONFINEMENT (s), BK_MEMORY_CONFINEMENT
# (MB), BK_INPUT (instance name), BK_LOG_FILE (optional log file). petrel reads
# the BK_* variables itself; results go to stdout unchanged, petrel's
# statistics and progress go to stderr (appended to $BK_LOG_FILE when set).
#
# The binary: $PETREL_BIN when set, else the first of <repo>/build/petrel (the
# script lives in <repo>/tools/mcc), <prefix>/bin/petrel (installed by
# `cmake --install` as <prefix>/share/petrel/BenchKit_head.sh) and a petrel
# beside this script.

script_dir=$(cd "$(dirname "$0")" && pwd)

petrel="${PETREL_BIN:-}"
if [[ -z "$petrel" ]]; then
    for cand in "$script_dir/../../build/petrel" "$script_dir/../../bin/petrel" \
                "$script_dir/petrel"; do
        if [[ -x "$cand" ]]; then
            petrel=$cand
            break
        fi
    done
fi
if [[ -z "$petrel" || ! -x "$petrel" ]]; then
    echo "BenchKit_head.sh: petrel binary not found (set PETREL_BIN)" >&2
    echo "CANNOT_COMPUTE"
    exit 1
fi

if [[ -n "${BK_LOG_FILE:-}" ]]; then
    echo "BenchKit_head.sh: ${BK_INPUT:-?} ${BK_EXAMINATION:-?} with $petrel" >>"$BK_LOG_FILE"
    exec "$petrel" . 2>>"$BK_LOG_FILE"
fi
exec "$petrel" .
